//! Algebraic properties of validation, checked on generated schemas and
//! instances (proptest): `allOf[S] ≡ S`, `not(not(S)) ≡ S`,
//! `anyOf[S, S] ≡ S`, `unevaluatedProperties` resolved statically and
//! tracked alike; the boolean and error-collecting paths agree; more
//! fuel never changes a verdict that completed; lists of alternatives
//! narrowed by the names an object has decide as the lists they narrow.

use proptest::prelude::*;
use schemavm::{Budget, Outcome, Validator};
use serde_json::{Map, Value, json};

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-20i64..20).prop_map(Value::from),
        prop_oneof![Just(0.5), Just(-1.5), Just(1e300), Just(2.0)].prop_map(Value::from),
        "[a-c]{0,3}".prop_map(Value::from),
    ]
}

fn instance() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-c]", inner, 0..4).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Leaf keywords: checks that apply to one instance value.
fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(true)),
        Just(json!(false)),
        prop_oneof![Just("string"), Just("integer"), Just("number"), Just("array"), Just("object"), Just("null")]
            .prop_map(|t| json!({"type": t})),
        (-5i64..5).prop_map(|n| json!({"minimum": n})),
        (-5i64..5).prop_map(|n| json!({"exclusiveMaximum": n})),
        (1u64..4).prop_map(|n| json!({"multipleOf": n})),
        (0u64..3).prop_map(|n| json!({"maxLength": n})),
        Just(json!({"pattern": "^a"})),
        (0u64..3).prop_map(|n| json!({"minItems": n})),
        Just(json!({"uniqueItems": true})),
        (0u64..3).prop_map(|n| json!({"maxProperties": n})),
        Just(json!({"required": ["a"]})),
        scalar().prop_map(|v| json!({"const": v})),
        prop::collection::vec(scalar(), 1..3).prop_map(|v| json!({"enum": v})),
    ]
}

/// Schemas without `$ref`, so wrapping them keeps their meaning.
fn schema() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..3).prop_map(|v| json!({"allOf": v})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|v| json!({"anyOf": v})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|v| json!({"oneOf": v})),
            inner.clone().prop_map(|s| json!({"not": s})),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(i, t, e)| json!({"if": i, "then": t, "else": e})),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| json!({"properties": {"a": a}, "additionalProperties": b})),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| json!({"properties": {"a": a}, "patternProperties": {"^b": b}})),
            inner.clone().prop_map(|s| json!({"items": s})),
            inner.clone().prop_map(|s| json!({"contains": s})),
            (inner.clone(), inner.clone())
                .prop_map(|(a, u)| json!({"anyOf": [{"properties": {"a": a}}], "unevaluatedProperties": u})),
            (inner.clone(), inner).prop_map(|(a, b)| {
                let mut m = Map::new();
                m.insert("prefixItems".into(), json!([a]));
                m.insert("unevaluatedItems".into(), b);
                Value::Object(m)
            }),
        ]
    })
}

fn outcome(schema: &Value, instance: &Value) -> Option<Outcome> {
    Validator::new(schema).ok().map(|v| v.outcome(instance))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn all_of_one_is_identity(s in schema(), i in instance()) {
        let base = outcome(&s, &i);
        prop_assume!(base.is_some());
        prop_assert_eq!(outcome(&json!({"allOf": [s]}), &i), base);
    }

    #[test]
    fn double_negation_is_identity(s in schema(), i in instance()) {
        let base = outcome(&s, &i);
        prop_assume!(base.is_some());
        prop_assert_eq!(outcome(&json!({"not": {"not": s}}), &i), base);
    }

    #[test]
    fn any_of_twice_is_identity(s in schema(), i in instance()) {
        let base = outcome(&s, &i);
        prop_assume!(base.is_some());
        prop_assert_eq!(outcome(&json!({"anyOf": [s.clone(), s]}), &i), base);
    }

    #[test]
    fn boolean_and_collecting_paths_agree(s in schema(), i in instance()) {
        let Ok(v) = Validator::new(&s) else { return Ok(()) };
        let valid = v.is_valid(&i);
        prop_assert_eq!(v.validate(&i).is_ok(), valid);
        let errors: Vec<_> = v.iter_errors(&i).collect();
        prop_assert_eq!(errors.is_empty(), valid, "errors: {:?}", errors);
    }

    #[test]
    fn more_fuel_never_changes_a_completed_verdict(s in schema(), i in instance(), fuel in 0u64..64) {
        let Ok(v) = Validator::new(&s) else { return Ok(()) };
        let full = v.outcome(&i);
        match v.outcome_with(&i, &Budget { fuel, ..Budget::default() }) {
            Outcome::BudgetExceeded { fuel_used, .. } => prop_assert!(fuel_used <= fuel + 64),
            done => prop_assert_eq!(done, full),
        }
    }

    #[test]
    fn is_valid_spends_fuel_as_outcome_does(s in schema(), i in instance(), fuel in 0u64..64) {
        // The boolean path's own start (its root's entry charged up front)
        // runs out of fuel exactly where the general entry does.
        let budget = Budget { fuel, ..Budget::default() };
        let Ok(v) = Validator::options().budget(budget).build(&s) else { return Ok(()) };
        prop_assert_eq!(v.is_valid(&i), v.outcome(&i) == Outcome::Valid);
    }
}

proptest! {
    // Objects, and `unevaluatedProperties: false` half the time: the
    // cases where the resolution decides.
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn unevaluated_properties_resolved_statically_and_tracked_agree(
        x in schema(),
        c in schema(),
        u in prop_oneof![Just(json!(false)), schema()],
        i in prop::collection::btree_map("[a-c]", instance(), 0..3).prop_map(|m| Value::Object(m.into_iter().collect())),
    ) {
        // Resolved statically when the closure allows (the boolean path
        // checks `unevaluatedProperties` as `additionalProperties`), and
        // tracked: a dependent schema on a name no instance has, which may
        // evaluate a name nothing else does, keeps it so.
        let fixed = outcome(&json!({"allOf": [x.clone()], "properties": {"c": c.clone()}, "unevaluatedProperties": u.clone()}), &i);
        prop_assume!(fixed.is_some());
        let tracked = json!({"allOf": [x], "properties": {"c": c}, "unevaluatedProperties": u,
                             "dependentSchemas": {"zz": {"properties": {"zz": true}}}});
        prop_assert_eq!(outcome(&tracked, &i), fixed);
    }
}

/// An alternative that may reject objects by their names: names it
/// declares, requires or gives the `false` schema, closed or not, with a
/// pattern or not, behind an `allOf` or not.
fn named_alternative() -> impl Strategy<Value = Value> {
    let names = || prop::sample::subsequence(vec!["a", "b", "c", "x-d"], 0..=2);
    (names(), names(), names(), any::<bool>(), any::<bool>(), any::<bool>(), leaf()).prop_map(
        |(declared, required, forbidden, closed, patterns, wrapped, schema)| {
            let mut properties = Map::new();
            for name in declared {
                properties.insert(name.into(), schema.clone());
            }
            for name in forbidden {
                properties.insert(name.into(), json!(false));
            }
            let mut alternative = Map::new();
            alternative.insert("properties".into(), Value::Object(properties));
            alternative.insert("required".into(), json!(required));
            if closed {
                alternative.insert("additionalProperties".into(), json!(false));
            }
            if patterns {
                alternative.insert("patternProperties".into(), json!({"^x-": {"type": "integer"}}));
            }
            let alternative = Value::Object(alternative);
            if wrapped { json!({"allOf": [alternative]}) } else { alternative }
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn lists_filtered_by_names_agree_with_twins_that_hide_the_names(
        alternatives in prop::collection::vec(named_alternative(), 2..6),
        one in any::<bool>(),
        i in prop::collection::btree_map(prop::sample::select(vec!["a", "b", "c", "x-d", "x-e", "f"]), scalar(), 0..4)
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
    ) {
        // The boolean path may run only the alternatives an object's names
        // leave (a name filter); behind `if`, the alternatives show the
        // analysis nothing, and every one of them runs.
        let keyword = if one { "oneOf" } else { "anyOf" };
        let hidden: Vec<Value> = alternatives.iter().map(|a| json!({"if": a, "then": true, "else": false})).collect();
        let v = Validator::new(&json!({ keyword: alternatives })).expect("compiles");
        let twin = Validator::new(&json!({ keyword: hidden })).expect("compiles");
        prop_assert_eq!(v.is_valid(&i), twin.is_valid(&i));
        prop_assert_eq!(v.outcome(&i), twin.outcome(&i));
    }
}
