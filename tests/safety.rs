//! Compile-time bounds and run-time budgets through the public API.

use std::time::Duration;

use schemavm::bytecode::NodeFlags;
use schemavm::{Budget, CompileErrorKind, ErrorKind, Exhausted, Limits, Outcome, Validator};
use serde_json::{Value, json};

/// A chain of `levels` definitions, each applying the next `refs` times
/// through `combinator`, ending in `last`.
fn chain(levels: usize, refs: usize, combinator: &str, last: Value) -> Value {
    let mut defs = serde_json::Map::new();
    for i in 0..levels {
        let next = json!({"$ref": format!("#/$defs/l{}", i + 1)});
        defs.insert(format!("l{i}"), json!({ combinator: vec![next; refs] }));
    }
    defs.insert(format!("l{levels}"), last);
    json!({"$ref": "#/$defs/l0", "$defs": defs})
}

fn memoized(v: &Validator) -> usize {
    let p = v.program();
    p.node_ids().filter(|n| p.node(*n).flags().contains(NodeFlags::MEMO)).count()
}

/// Nodes memoized or cheap (run again rather than memoized when few
/// paths reach them).
fn memoized_or_cheap(v: &Validator) -> usize {
    let p = v.program();
    p.node_ids()
        .filter(|n| {
            let f = p.node(*n).flags();
            f.contains(NodeFlags::MEMO) || f.contains(NodeFlags::CHEAP)
        })
        .count()
}

#[test]
fn exponential_in_place_fan_out_is_memoized() {
    let v =
        Validator::options().keep_cost_bounds(true).build(&chain(60, 2, "allOf", json!({"type": "integer"}))).unwrap();
    // The last levels apply at most 32 evaluations each: they run again.
    assert!(memoized(&v) >= 50, "{} memoized", memoized(&v));
    assert!(memoized_or_cheap(&v) >= 60, "{} memoized or cheap", memoized_or_cheap(&v));
    let root = v.program().cost(v.program().root()).unwrap();
    assert!(root.unmemoized_fan_out > 1 << 60, "{root:?}");
    assert!(root.fan_out < 200, "{root:?}");
    assert_eq!(v.outcome(&json!(1)), Outcome::Valid);
    assert_eq!(v.outcome(&json!("x")), Outcome::Invalid);
    let errors: Vec<_> = v.iter_errors(&json!("x")).collect();
    assert!(!errors.is_empty() && errors.len() <= 1001, "{}", errors.len());
}

#[test]
fn memo_warm_up_keeps_the_exponential_chain_cheap() {
    // The first memoizable evaluations run uncached: the run-time work
    // stays a small multiple of the static bound, far below 2^60.
    let v = Validator::new(&chain(60, 2, "allOf", json!({"type": "integer"}))).unwrap();
    for (instance, verdict) in [(json!(1), Outcome::Valid), (json!("x"), Outcome::Invalid)] {
        // The least fuel that reaches the verdict (more never changes it).
        let (mut low, mut high) = (0u64, 1 << 20);
        while low < high {
            let mid = (low + high) / 2;
            if v.outcome_with(&instance, &Budget { fuel: mid, ..Budget::default() }) == verdict {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        assert!(low < 10_000, "{instance}: {low}");
    }
}

#[test]
fn recursion_through_the_same_child_is_memoized() {
    // networknt #1276: both arms descend into the same child.
    let schema = json!({"anyOf": [
        {"properties": {"a": {"$ref": "#"}}, "not": {"required": ["a"]}},
        {"properties": {"a": {"$ref": "#"}}}
    ]});
    let v = Validator::new(&schema).unwrap();
    assert!(memoized(&v) >= 1);
    let mut instance = json!({});
    for _ in 0..60 {
        instance = json!({ "a": instance });
    }
    assert_eq!(v.outcome(&instance), Outcome::Valid);
}

#[test]
fn memoization_respects_unevaluated_tracking() {
    let level = |i: usize| {
        json!({"oneOf": [{"$ref": format!("#/$defs/l{}", i + 1)}, {"$ref": format!("#/$defs/l{}", i + 1), "minProperties": 5}],
               "unevaluatedProperties": false})
    };
    let mut defs = serde_json::Map::new();
    for i in 0..30 {
        defs.insert(format!("l{i}"), level(i));
    }
    defs.insert("l30".into(), json!({"properties": {"a": true}}));
    let v = Validator::new(&json!({"$ref": "#/$defs/l0", "$defs": defs})).unwrap();
    assert!(v.is_valid(&json!({"a": 1})));
    assert!(!v.is_valid(&json!({"a": 1, "b": 2})));
}

#[test]
fn limits_are_settable_and_named_in_errors() {
    let schema = chain(10, 1, "allOf", json!(true));
    let err = Validator::options().limits(Limits { max_ref_hops: 5, ..Limits::default() }).build(&schema).unwrap_err();
    match err.kind() {
        CompileErrorKind::LimitExceeded { limit, bound, max } => {
            assert_eq!(*limit, "max_ref_hops");
            assert!(*bound > 5);
            assert_eq!(*max, 5);
        }
        other => panic!("{other:?}"),
    }
    let message = err.to_string();
    assert!(message.contains("max_ref_hops") && message.contains("ValidatorOptions::limits"), "{message}");

    let wide = json!({"anyOf": (0..50).map(|i| json!({"const": i})).collect::<Vec<_>>()});
    let err = Validator::options().limits(Limits { max_fan_out: 20, ..Limits::default() }).build(&wide).unwrap_err();
    assert!(matches!(err.kind(), CompileErrorKind::LimitExceeded { limit: "max_fan_out", .. }), "{err}");
    assert!(Validator::new(&wide).is_ok());

    let mut deep = json!({});
    for _ in 0..300 {
        deep = json!({ "not": deep });
    }
    let err = Validator::new(&deep).unwrap_err();
    assert!(matches!(err.kind(), CompileErrorKind::LimitExceeded { limit: "max_schema_depth", .. }), "{err}");

    let err = Validator::options()
        .limits(Limits { max_enum_values: 3, ..Limits::default() })
        .build(&json!({"enum": [1, 2, 3, 4]}))
        .unwrap_err();
    assert!(matches!(err.kind(), CompileErrorKind::LimitExceeded { limit: "max_enum_values", .. }), "{err}");
}

#[test]
fn unguarded_recursion_names_the_cycle() {
    let err = Validator::new(
        &json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}),
    )
    .unwrap_err();
    match err.kind() {
        CompileErrorKind::UnguardedRecursion { cycle } => {
            let text = cycle.join(" ");
            assert!(text.contains("/$defs/a") && text.contains("/$defs/b"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("unguarded recursion"), "{err}");
    // Recursion that descends into the instance is fine.
    assert!(Validator::new(&json!({"items": {"$ref": "#"}})).is_ok());
}

#[test]
fn fuel_exhaustion_is_a_third_outcome() {
    let v = Validator::new(&json!({"items": {"type": "integer"}})).unwrap();
    let big = Value::Array((0..10_000).map(Value::from).collect());
    let tight = Budget { fuel: 100, ..Budget::default() };
    match v.outcome_with(&big, &tight) {
        Outcome::BudgetExceeded { reason: Exhausted::Fuel, fuel_used } => assert!(fuel_used <= 100 + 1),
        other => panic!("{other:?}"),
    }
    let err = v.validate_with(&big, &tight).unwrap_err();
    assert!(err.is_budget_exceeded());
    assert!(matches!(err.kind(), ErrorKind::BudgetExceeded { reason: Exhausted::Fuel, .. }));
    assert!(err.to_string().contains("not validated"), "{err}");
    assert!(v.is_valid(&big));
    let strict = Validator::options().budget(tight).build(&json!({"items": {"type": "integer"}})).unwrap();
    assert!(!strict.is_valid(&big), "fail closed");
    assert!(strict.iter_errors(&big).last().is_some_and(|e| e.is_budget_exceeded()));
}

#[test]
fn more_fuel_never_changes_a_completed_verdict() {
    let v =
        Validator::new(&json!({"type": "array", "items": {"anyOf": [{"type": "string"}, {"minimum": 5}]}})).unwrap();
    for instance in [json!(["a", 6, "b"]), json!(["a", 4]), json!([1, 2, 3, 4, 5, 6, 7, 8])] {
        let full = v.outcome(&instance);
        for fuel in 0..200 {
            match v.outcome_with(&instance, &Budget { fuel, ..Budget::default() }) {
                Outcome::BudgetExceeded { .. } => {}
                done => assert_eq!(done, full, "fuel {fuel}"),
            }
        }
    }
}

#[test]
fn a_regex_past_its_backtracking_limit_is_reported_as_such_by_every_entry_point() {
    // A backreference forces the backtracking engine; on a long run of
    // `a`s it passes its limit, on a value (`pattern`) and on a property
    // name (`patternProperties`) alike.
    let long = "a".repeat(5000);
    let cases = [
        (json!({"properties": {"name": {"pattern": "^(a*)*\\1b"}}}), json!({ "name": long })),
        (json!({"patternProperties": {"^(a*)*\\1b": {"type": "string"}}}), json!({ long.clone(): 1 })),
    ];
    for (schema, instance) in cases {
        let v = Validator::new(&schema).unwrap();
        assert!(matches!(v.outcome(&instance), Outcome::BudgetExceeded { reason: Exhausted::Regex, .. }), "{schema}");
        assert!(!v.is_valid(&instance), "fail closed: {schema}");
        let err = v.validate(&instance).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::BudgetExceeded { reason: Exhausted::Regex, .. }), "{schema}");
        let last = v.iter_errors(&instance).last();
        assert!(
            last.is_some_and(|e| matches!(e.kind(), ErrorKind::BudgetExceeded { reason: Exhausted::Regex, .. })),
            "{schema}"
        );
        assert!(matches!(
            v.evaluate(&instance),
            Err(schemavm::output::BudgetExceeded { reason: Exhausted::Regex, .. })
        ));
    }
}

#[test]
fn the_deadline_is_enforced() {
    // A backtracking pattern on many strings: slow enough to hit a zero deadline.
    let v = Validator::new(&json!({"items": {"pattern": "^(a|ab)*c$"}})).unwrap();
    let instance = Value::Array((0..50_000).map(|_| Value::from("ab".repeat(20) + "c")).collect());
    assert!(v.is_valid(&instance));
    let budget = Budget { deadline: Some(Duration::ZERO), ..Budget::default() };
    assert!(matches!(v.outcome_with(&instance, &budget), Outcome::BudgetExceeded { reason: Exhausted::Deadline, .. }));
}

#[test]
fn is_valid_runs_under_the_validators_own_budget_each_time() {
    // The boolean path starts every evaluation from the budget the
    // validator was built with: a deadline is read afresh, and fuel is
    // never carried over from an earlier call.
    let schema = json!({"items": {"pattern": "^(a|ab)*c$"}});
    let instance = Value::Array((0..50_000).map(|_| Value::from("ab".repeat(20) + "c")).collect());
    let late = Budget { deadline: Some(Duration::ZERO), ..Budget::default() };
    let v = Validator::options().budget(late).build(&schema).unwrap();
    assert!(!v.is_valid(&instance), "an exhausted deadline fails closed");
    let small = json!(["abc", "c"]);
    // The least fuel a fresh validator needs (its pattern's first match
    // is charged for building the pattern's matcher too), found by
    // bisection.
    let passes = |fuel: u64| {
        let budget = Budget { fuel, ..Budget::default() };
        Validator::options().budget(budget).build(&schema).unwrap().outcome(&small) == Outcome::Valid
    };
    assert!(passes(1_000_000), "some fuel suffices");
    let (mut low, mut high) = (0u64, 1_000_000u64);
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if passes(mid) { high = mid } else { low = mid }
    }
    let fuel = high;
    let exact = Validator::options().budget(Budget { fuel, ..Budget::default() }).build(&schema).unwrap();
    for _ in 0..3 {
        assert!(exact.is_valid(&small), "fuel is fresh for every call");
    }
    let short = Validator::options().budget(Budget { fuel: fuel - 1, ..Budget::default() }).build(&schema).unwrap();
    assert!(!short.is_valid(&small));
}

#[test]
fn deep_instances_stop_at_the_depth_limit() {
    let v = Validator::new(&json!({"items": {"$ref": "#"}})).unwrap();
    let mut deep = json!([]);
    for _ in 0..100_000 {
        deep = Value::Array(vec![deep]);
    }
    assert!(matches!(v.outcome(&deep), Outcome::BudgetExceeded { reason: Exhausted::Depth, .. }));
    let errors: Vec<_> = v.iter_errors(&deep).collect();
    assert!(
        errors.last().is_some_and(|e| matches!(e.kind(), ErrorKind::BudgetExceeded { reason: Exhausted::Depth, .. }))
    );
    schemavm::corpus::dismantle(deep);
}

/// With the depth limit out of reach, the measured Rust stack stops a
/// deep evaluation, on every path (the boolean one starts from a meter
/// made when the validator was built, the others from a fresh one), and
/// does not stop a shallow one.
#[test]
fn the_stack_limit_stops_deep_evaluations() {
    let schema = json!({"items": {"$ref": "#"}});
    let budget = Budget { max_depth: u32::MAX, max_stack_bytes: 64 << 10, ..Budget::default() };
    let v = Validator::options().budget(budget).build(&schema).unwrap();
    let nested = |levels: usize| (0..levels).fold(json!([]), |inner, _| Value::Array(vec![inner]));
    let deep = nested(20_000);
    assert!(!v.is_valid(&deep));
    assert!(matches!(v.outcome(&deep), Outcome::BudgetExceeded { reason: Exhausted::Depth, .. }));
    let errors: Vec<_> = v.iter_errors(&deep).collect();
    assert!(
        errors.last().is_some_and(|e| matches!(e.kind(), ErrorKind::BudgetExceeded { reason: Exhausted::Depth, .. }))
    );
    schemavm::corpus::dismantle(deep);
    let shallow = nested(20);
    assert!(v.is_valid(&shallow));
    assert_eq!(v.outcome(&shallow), Outcome::Valid);
    assert_eq!(v.iter_errors(&shallow).count(), 0);
}

#[test]
fn dynamic_references_the_root_defines_are_static() {
    let meta = schemavm::compiler::metaschema::of_draft(schemavm::Draft::Draft202012).unwrap();
    let v = Validator::new(meta).unwrap();
    assert!(!v.program().flags().uses_dynamic_scope);
    let tree = json!({"$dynamicAnchor": "node", "properties": {"kids": {"items": {"$dynamicRef": "#node"}}}});
    let v = Validator::new(&tree).unwrap();
    assert!(!v.program().flags().uses_dynamic_scope, "the root defines #node");
    assert!(v.is_valid(&json!({"kids": [{"kids": []}]})));
}

#[test]
fn unique_items_comparisons_are_charged_by_their_depth() {
    // Sixteen items that agree down to the last leaf of a deep nest: each
    // pair's comparison walks the whole nest, and is charged for it.
    let nest = |leaf: usize| {
        let mut v = json!(leaf);
        for _ in 0..2_000 {
            let mut member = serde_json::Map::new();
            member.insert("k".to_string(), Value::Array(vec![v]));
            v = Value::Object(member);
        }
        v
    };
    let instance = Value::Array((0..16).map(nest).collect());
    let v = Validator::new(&json!({"uniqueItems": true})).unwrap();
    assert_eq!(v.outcome(&instance), Outcome::Valid);
    match v.outcome_with(&instance, &Budget { fuel: 100_000, ..Budget::default() }) {
        Outcome::BudgetExceeded { reason: Exhausted::Fuel, .. } => {}
        other => panic!("120 comparisons of 4,000 members each fit in 100,000 fuel: {other:?}"),
    }
}

#[test]
fn is_valid_runs_out_of_fuel_where_outcome_does() {
    // `is_valid` starts an object or array root without its node entry,
    // that entry's unit charged up front: under any budget its verdict is
    // `outcome`'s (running out counting as invalid).
    let schemas = [
        json!({"type": "object", "properties": {"a": {"type": "integer"}}}),
        json!({"properties": {"a": {"maximum": 3}}}),
        json!({"prefixItems": [{"type": "integer"}, {"maximum": 3}], "items": {"type": "string"}}),
        json!({"items": {"minimum": 0}}),
        json!({"anyOf": [{"type": "string"}, {"items": {"type": "integer"}}]}),
    ];
    let instances =
        [json!({"a": 1}), json!({"a": 5}), json!([1, 2, "x"]), json!([1, 9]), json!(7), json!([]), json!({})];
    for schema in &schemas {
        for fuel in 0..12 {
            let budget = Budget { fuel, ..Budget::default() };
            let v = Validator::options().budget(budget).build(schema).unwrap();
            for instance in &instances {
                let expected = v.outcome(instance) == Outcome::Valid;
                assert_eq!(v.is_valid(instance), expected, "{schema} {instance} fuel {fuel}");
            }
        }
    }
}

#[test]
fn a_distant_deadline_changes_no_verdict() {
    // Under a budget with a deadline, `is_valid` takes the general entry
    // with the clock read per call: verdicts are those without one.
    let hour = Budget { deadline: Some(Duration::from_secs(3600)), ..Budget::default() };
    let schemas = [
        json!({"type": "object", "required": ["a"]}),
        json!({"prefixItems": [{"type": "integer"}], "items": false}),
        json!({"anyOf": [{"type": "string"}, {"minimum": 3}]}),
        json!({"type": "integer"}),
        json!(false),
    ];
    let instances = [json!({"a": 1}), json!({}), json!([1]), json!([1, 2]), json!("x"), json!(2), json!(5)];
    for schema in &schemas {
        let plain = Validator::new(schema).unwrap();
        let timed = Validator::options().budget(hour).build(schema).unwrap();
        for instance in &instances {
            assert_eq!(timed.is_valid(instance), plain.is_valid(instance), "{schema} {instance}");
        }
    }
}
