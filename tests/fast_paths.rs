//! Compile-time shortcuts of the boolean path give the same verdicts as
//! the error-collecting path: property names matched against
//! `patternProperties` at compile time, nodes that forward to a `$ref`
//! target, empty arrays decided before the array instruction runs,
//! objects rejected by their property count before any is visited,
//! subschemas that pass every value decided without running them.

use schemavm::Validator;
use serde_json::{Value, json};

/// `is_valid`, `iter_errors` and the annotating evaluation agree on every
/// instance. (The evaluation is the reference: it enters every subschema,
/// where collecting errors may decide a subschema on the boolean path
/// first.)
fn agree(schema: &Value, instances: &[Value]) -> Vec<bool> {
    let v = Validator::new(schema).expect("schema compiles");
    instances
        .iter()
        .map(|i| {
            let quick = v.is_valid(i);
            assert_eq!(quick, v.iter_errors(i).next().is_none(), "paths disagree on {i}");
            assert_eq!(quick, v.evaluate(i).expect("within budget").is_valid(), "evaluation disagrees on {i}");
            quick
        })
        .collect()
}

#[test]
fn declared_names_still_get_their_pattern_schemas() {
    let schema = json!({
        "properties": {"x-a": {"type": "string"}, "b": {"type": "string"}},
        "required": ["x-req"],
        "patternProperties": {"^x-": {"maxLength": 2}, "a$": {"minLength": 2}},
        "additionalProperties": false
    });
    let verdicts = agree(
        &schema,
        &[
            json!({"x-req": 1, "x-a": "ab"}),
            json!({"x-req": 1, "x-a": "abc"}),
            json!({"x-req": 1, "x-a": "a"}),
            json!({"x-req": "toolong"}),
            json!({"x-req": 1, "b": "x"}),
            json!({"x-req": 1, "zz": 1}),
            json!({"x-req": 1, "x-zz": "ok"}),
            json!({"x-req": 1, "x-zz": "long"}),
        ],
    );
    assert_eq!(verdicts, [true, false, false, false, true, false, true, false]);
}

#[test]
fn many_names_and_patterns_are_matched_at_run_time() {
    // 100 names × 50 patterns is past the compile-time matching bound.
    let properties: serde_json::Map<String, Value> =
        (0..100).map(|i| (format!("p{i}"), json!({"type": "integer"}))).collect();
    let patterns: serde_json::Map<String, Value> =
        (0..50).map(|i| (format!("^p{i}$"), json!({"minimum": i}))).collect();
    let schema = json!({"properties": properties, "patternProperties": patterns, "additionalProperties": false});
    let verdicts =
        agree(&schema, &[json!({"p3": 3, "p40": 41}), json!({"p3": 2}), json!({"p49": 48}), json!({"q": 1})]);
    assert_eq!(verdicts, [true, false, false, false]);
}

#[test]
fn reference_chains_are_followed() {
    let schema = json!({
        "$defs": {
            "a": {"$ref": "#/$defs/b"},
            "b": {"$ref": "#/$defs/c"},
            "c": {"type": "object", "properties": {"next": {"$ref": "#/$defs/a"}}, "required": ["v"]}
        },
        "properties": {"root": {"$ref": "#/$defs/a"}}
    });
    let verdicts = agree(
        &schema,
        &[
            json!({"root": {"v": 1, "next": {"v": 2, "next": {"v": 3}}}}),
            json!({"root": {"v": 1, "next": {"v": 2, "next": {}}}}),
            json!({"root": 5}),
            json!({"other": 5}),
        ],
    );
    assert_eq!(verdicts, [true, false, false, true]);
}

#[test]
fn forwarding_keeps_fuel_accounting() {
    // Each hop of the chain costs fuel: a tiny budget runs out.
    let schema = json!({
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/c"}, "c": {"type": "integer"}},
        "$ref": "#/$defs/a"
    });
    let v = Validator::new(&schema).expect("schema compiles");
    let tiny = schemavm::Budget { fuel: 1, ..schemavm::Budget::default() };
    assert!(matches!(v.outcome_with(&json!(1), &tiny), schemavm::Outcome::BudgetExceeded { .. }));
    assert!(v.is_valid(&json!(1)));
}

#[test]
fn integer_bounds_compare_as_machine_integers() {
    let schema = json!({"minimum": -5, "exclusiveMaximum": 10});
    let verdicts = agree(
        &schema,
        &[json!(-5), json!(-6), json!(9), json!(10), json!(9.5), json!(10.0), json!(u64::MAX), json!(i64::MIN)],
    );
    assert_eq!(verdicts, [true, false, true, false, true, false, false, false]);
    let draft4 = json!({"$schema": "http://json-schema.org/draft-04/schema#",
                        "minimum": 0, "exclusiveMinimum": true, "maximum": u64::MAX});
    assert_eq!(agree(&draft4, &[json!(0), json!(1), json!(u64::MAX)]), [false, true, true]);
    let fractional = json!({"maximum": 2.5});
    assert_eq!(agree(&fractional, &[json!(2), json!(3), json!(2.5)]), [true, false, true]);
    // Bounds past the `i64` range: `i64` instances compare against the
    // clamped range, larger `u64` ones exactly.
    let big = i64::MAX as u64 + 1;
    let above = json!({"minimum": big});
    assert_eq!(agree(&above, &[json!(i64::MAX), json!(big), json!(u64::MAX)]), [false, true, true]);
    let below = json!({"maximum": big, "minimum": -1});
    assert_eq!(agree(&below, &[json!(i64::MAX), json!(big), json!(big + 1), json!(-2)]), [true, true, false, false]);
    let empty = json!({"minimum": u64::MAX, "exclusiveMaximum": u64::MAX});
    assert_eq!(agree(&empty, &[json!(0), json!(u64::MAX)]), [false, false]);
    let multiple = json!({"multipleOf": 3, "minimum": 0});
    assert_eq!(
        agree(&multiple, &[json!(9), json!(10), json!(u64::MAX), json!(u64::MAX - 1)]),
        [true, false, true, false]
    );
}

#[test]
fn integer_multiples_divide_as_machine_integers() {
    let schema = json!({"multipleOf": 3, "maximum": 100});
    let verdicts =
        agree(&schema, &[json!(9), json!(-9), json!(10), json!(0), json!(99), json!(102), json!(9.0), json!(i64::MIN)]);
    assert_eq!(verdicts, [true, true, false, true, true, false, true, false]);
    let unbounded = json!({"multipleOf": 7});
    let big = u64::MAX - u64::MAX % 7;
    assert_eq!(
        agree(&unbounded, &[json!(big), json!(big - 1), json!(-7), json!(i64::MIN)]),
        [true, false, true, false]
    );
    let huge: Value = serde_json::from_str(r#"{"multipleOf": 18446744073709551616}"#).expect("JSON");
    assert_eq!(agree(&huge, &[json!(0), json!(u64::MAX)]), [true, false]);
}

#[test]
fn property_names_are_checked_without_a_value_per_name() {
    let pattern = json!({"propertyNames": {"pattern": "^[a-z]+$", "maxLength": 3}, "required": ["a"]});
    let verdicts =
        agree(&pattern, &[json!({"a": 1}), json!({"a": 1, "abcd": 2}), json!({"a": 1, "B": 2}), json!({}), json!("x")]);
    assert_eq!(verdicts, [true, false, false, false, true]);
    let never = json!({"propertyNames": false});
    assert_eq!(agree(&never, &[json!({}), json!({"a": 1})]), [true, false]);
    let by_type = json!({"propertyNames": {"type": "number"}});
    assert_eq!(agree(&by_type, &[json!({}), json!({"a": 1})]), [true, false]);
    let general = json!({"propertyNames": {"not": {"const": "x"}}, "additionalProperties": {"type": "integer"}});
    assert_eq!(agree(&general, &[json!({"a": 1}), json!({"x": 1}), json!({"a": "s"})]), [true, false, false]);
}

#[test]
fn alternatives_of_other_types_are_skipped_without_changing_verdicts() {
    let by_type = json!({"oneOf": [
        {"type": "string"},
        {"type": "array", "items": {"type": "integer"}},
        {"allOf": [{"type": "number"}, {"type": "integer"}], "minimum": 0},
        {"$ref": "#/$defs/obj"}
    ], "$defs": {"obj": {"type": "object", "required": ["a"]}}});
    let verdicts = agree(
        &by_type,
        &[
            json!("s"),
            json!([1]),
            json!([1.5]),
            json!(3),
            json!(3.0),
            json!(-1),
            json!(2.5),
            json!({"a": 1}),
            json!({}),
            json!(null),
        ],
    );
    assert_eq!(verdicts, [true, true, false, true, true, false, false, true, false, false]);
    // `number` and `integer` overlap: both alternatives admit 2, so `oneOf` fails.
    let overlap = json!({"oneOf": [{"type": "number"}, {"type": "integer"}]});
    assert_eq!(agree(&overlap, &[json!(2), json!(2.5), json!("x")]), [false, true, false]);
    let draft4 = json!({"$schema": "http://json-schema.org/draft-04/schema#",
                        "anyOf": [{"type": "integer"}, {"type": "string"}]});
    assert_eq!(agree(&draft4, &[json!(1), json!(1.0), json!("x")]), [true, false, true]);
}

#[test]
fn empty_arrays_are_decided_by_their_lower_bounds() {
    let cases = [
        (json!({"items": {"type": "string"}, "uniqueItems": true, "maxItems": 0}), true),
        (json!({"minItems": 0, "prefixItems": [false]}), true),
        (json!({"minItems": 1}), false),
        (json!({"contains": {"type": "string"}}), false),
        (json!({"contains": {"type": "string"}, "minContains": 0}), true),
        (json!({"contains": {"type": "string"}, "minContains": 0, "minItems": 1}), false),
        (json!({"items": false, "unevaluatedItems": false}), true),
    ];
    for (schema, expected) in cases {
        assert_eq!(agree(&schema, &[json!([]), json!({"nested": []})]), [expected, true], "{schema}");
        // Inside an object scan and an item loop too.
        let wrapped = json!({"properties": {"p": schema}, "items": schema});
        assert_eq!(agree(&wrapped, &[json!({"p": []}), json!([[], []])]), [expected, expected], "{schema}");
    }
}

#[test]
fn nested_alternatives_discriminate_by_the_union_of_their_values() {
    // Like OpenAPI 2 parameters: `nonBody` pins `in` only through its own
    // `oneOf`, to four values; `body` pins it to one.
    let schema = json!({
        "$defs": {
            "body": {"required": ["in", "schema"], "properties": {"in": {"enum": ["body"]}, "schema": {"type": "object"}}},
            "header": {"properties": {"in": {"const": "header"}, "type": {"enum": ["string", "integer"]}}},
            "query": {"properties": {"in": {"const": "query"}, "allowEmptyValue": {"type": "boolean"}}},
            "path": {"required": ["required"], "properties": {"in": {"const": "path"}, "required": {"const": true}}},
            "nonBody": {"required": ["in", "type"], "oneOf": [
                {"$ref": "#/$defs/header"}, {"$ref": "#/$defs/query"}, {"$ref": "#/$defs/path"}
            ]}
        },
        "type": "array",
        "items": {"oneOf": [{"$ref": "#/$defs/body"}, {"$ref": "#/$defs/nonBody"}]}
    });
    let instances = [
        json!({"in": "body", "schema": {}}),
        json!({"in": "query", "type": "string", "allowEmptyValue": true}),
        json!({"in": "query", "type": "string", "allowEmptyValue": 1}),
        json!({"in": "path", "type": "string", "required": true}),
        json!({"in": "path", "type": "string"}),
        json!({"in": "header", "type": "array"}),
        json!({"in": "cookie", "type": "string"}),
        json!({"in": 1, "type": "string"}),
        json!({"type": "string"}),
        json!({"in": "body", "schema": {}, "type": "string"}),
    ];
    let verdicts = agree(&schema, &instances.iter().map(|i| json!([i])).collect::<Vec<_>>());
    assert_eq!(verdicts, [true, true, false, true, false, false, false, false, false, true]);
}

#[test]
fn nested_lists_on_the_same_property_are_passed_with_the_same_verdicts() {
    // `parameter` and `nonBody` are only lists on `in`: the boolean path
    // goes from the outer list straight to the one candidate each value
    // leaves (`query`, `path`, `body`), past both.
    let sub = |place: &str, extra: Value| {
        json!({"type": "object", "additionalProperties": false, "required": ["in", "name"],
               "properties": {"in": {"const": place}, "name": {"type": "string"}, "extra": extra}})
    };
    let schema = json!({
        "$defs": {
            "parameter": {"oneOf": [{"$ref": "#/$defs/body"}, {"$ref": "#/$defs/nonBody"}]},
            "body": {"required": ["in", "schema"], "properties": {"in": {"const": "body"}, "schema": {"type": "object"}}},
            "nonBody": {"anyOf": [{"$ref": "#/$defs/query"}, {"$ref": "#/$defs/path"}]},
            "query": sub("query", json!({"type": "integer"})),
            "path": sub("path", json!({"type": "boolean"})),
            "reference": {"type": "object", "required": ["$ref"], "additionalProperties": false,
                          "properties": {"$ref": {"type": "string"}}}
        },
        "type": "array",
        "items": {"oneOf": [{"$ref": "#/$defs/parameter"}, {"$ref": "#/$defs/reference"}]}
    });
    let instances = [
        json!({"in": "query", "name": "a", "extra": 1}),
        json!({"in": "query", "name": "a", "extra": true}),
        json!({"in": "path", "name": "a", "extra": true}),
        json!({"in": "path", "name": 1}),
        json!({"in": "query"}),
        json!({"in": "body", "schema": {}}),
        json!({"in": "body"}),
        json!({"in": "cookie", "name": "a"}),
        json!({"$ref": "#/x"}),
        json!({"$ref": "#/x", "in": "query", "name": "a"}),
        json!({"name": "a"}),
    ];
    let verdicts = agree(&schema, &instances.iter().map(|i| json!([i])).collect::<Vec<_>>());
    assert_eq!(verdicts, [true, false, true, false, false, true, false, false, true, false, false]);
    // Memoized or tracked lists are entered as before: under
    // `unevaluatedProperties`, the same verdicts.
    let mut tracked = schema.clone();
    tracked["$defs"]["nonBody"]["unevaluatedProperties"] = json!(false);
    let verdicts = agree(&tracked, &instances.iter().map(|i| json!([i])).collect::<Vec<_>>());
    assert_eq!(verdicts, [true, false, true, false, false, true, false, false, true, false, false]);
}

#[test]
fn non_string_constants_do_not_discriminate() {
    // Found by the `any_of_twice_is_identity` property: both alternatives
    // pinned `a` to `null`, which was taken for "no string", so an
    // instance with `"a": null` had no candidate left on the boolean path.
    let inner = json!({"anyOf": [{"properties": {"a": {"const": null}}}], "unevaluatedProperties": {"maxLength": 0}});
    let twice = json!({"anyOf": [inner, inner]});
    assert_eq!(agree(&twice, &[json!({"a": null}), json!({"a": 1}), json!({})]), [true, false, true]);
    let schema = json!({"oneOf": [
        {"properties": {"a": {"const": "x"}, "b": {"type": "string"}}, "required": ["a"]},
        {"properties": {"a": {"const": null}, "b": {"type": "integer"}}, "required": ["a"]},
        {"properties": {"a": {"const": 3}}, "required": ["a"]}
    ]});
    let instances = [
        json!({"a": "x", "b": "s"}),
        json!({"a": null, "b": 1}),
        json!({"a": null, "b": "s"}),
        json!({"a": 3}),
        json!({"a": 4}),
        json!({"a": "y"}),
    ];
    assert_eq!(agree(&schema, &instances), [true, true, false, true, false, false]);
}

#[test]
fn arrays_of_pairs_check_both_members() {
    let schema = json!({"type": "array", "items": {"type": "array", "minItems": 2, "items": {"type": "number"}}});
    let verdicts = agree(
        &schema,
        &[
            json!([[1, 2], [3.5, 4]]),
            json!([[1, "a"]]),
            json!([["a", 1]]),
            json!([[1]]),
            json!([[1, 2, 3]]),
            json!([[1, 2], [3, null]]),
            json!([[1, 2], 3]),
            json!([]),
        ],
    );
    assert_eq!(verdicts, [true, false, false, false, true, false, false, true]);
}

#[test]
fn pairs_are_held_to_the_bounds_when_they_do_not_fit() {
    // Pairs are checked without their length when the bounds admit two
    // items, and through the bounds otherwise: both loops, each kind.
    let instances = [json!([[1, 2]]), json!([[1, 2, 3]]), json!([[1]]), json!([["a", "b"]]), json!([[1, 2], [3]])];
    for (bounds, numbers) in [
        (json!({"minItems": 3}), [false, true, false, false, false]),
        (json!({"maxItems": 1}), [false, false, true, false, false]),
        (json!({"minItems": 2, "maxItems": 2}), [true, false, false, false, false]),
        (json!({"minItems": 1, "maxItems": 3}), [true, true, true, false, true]),
    ] {
        let arrays_of = |kind: &str| {
            let mut inner = json!({"type": "array", "items": {"type": kind}});
            for (k, v) in bounds.as_object().into_iter().flatten() {
                inner[k] = v.clone();
            }
            json!({"type": "array", "items": inner})
        };
        assert_eq!(agree(&arrays_of("number"), &instances), numbers, "{bounds}");
        let pair_fits = numbers[0];
        assert_eq!(
            agree(&arrays_of("string"), &[json!([["a", "b"]]), json!([[1, 2]])]),
            [pair_fits, false],
            "{bounds}"
        );
    }
}

#[test]
fn not_of_a_type_is_its_complement() {
    let instances =
        [json!(null), json!(true), json!(1), json!(1.0), json!(1.5), json!("s"), json!([]), json!({}), json!([null])];
    for (types, draft) in [
        (json!("null"), "https://json-schema.org/draft/2020-12/schema"),
        (json!(["number", "string"]), "https://json-schema.org/draft/2020-12/schema"),
        (json!("integer"), "https://json-schema.org/draft/2020-12/schema"),
        (json!("integer"), "http://json-schema.org/draft-04/schema#"),
        (json!(["array", "object", "boolean"]), "http://json-schema.org/draft-04/schema#"),
    ] {
        let schema = json!({"$schema": draft, "not": {"type": types}});
        let expected: Vec<bool> = {
            let direct = Validator::new(&json!({"$schema": draft, "type": types})).expect("compiles");
            instances.iter().map(|i| !direct.is_valid(i)).collect()
        };
        assert_eq!(agree(&schema, &instances), expected, "{schema}");
        // In item loops and object scans too.
        let wrapped =
            json!({"$schema": draft, "items": {"not": {"type": types}}, "properties": {"p": {"not": {"type": types}}}});
        for (i, instance) in instances.iter().enumerate() {
            let v = agree(&wrapped, &[json!([instance]), json!({"p": instance})]);
            assert_eq!(v, [expected[i], expected[i]], "{wrapped} on {instance}");
        }
    }
}

#[test]
fn property_schemas_are_evaluated_past_their_forwarding_refs() {
    // Chains of 1, 8 and 12 `$ref`s to a type check, a string check and an
    // object; the 12-hop chain is longer than a scan resolves.
    let mut defs = serde_json::Map::new();
    for (name, end) in [
        ("t", json!({"type": "integer"})),
        ("s", json!({"type": "string", "minLength": 2})),
        ("o", json!({"type": "object", "required": ["x"]})),
    ] {
        defs.insert(format!("{name}0"), end);
        for i in 1..=12 {
            defs.insert(format!("{name}{i}"), json!({"$ref": format!("#/$defs/{name}{}", i - 1)}));
        }
    }
    let mut properties = serde_json::Map::new();
    for name in ["t", "s", "o"] {
        for hops in [1, 8, 12] {
            properties.insert(format!("{name}{hops}"), json!({"$ref": format!("#/$defs/{name}{hops}")}));
        }
    }
    let schema = json!({"$defs": defs, "properties": properties, "additionalProperties": false});
    for hops in [1, 8, 12] {
        let (t, s, o) = (format!("t{hops}"), format!("s{hops}"), format!("o{hops}"));
        let verdicts = agree(
            &schema,
            &[
                json!({ &t: 1, &s: "ab", &o: {"x": 0} }),
                json!({ &t: 1.5 }),
                json!({ &s: "a" }),
                json!({ &s: 3 }),
                json!({ &o: {} }),
                json!({ &o: [] }),
            ],
        );
        assert_eq!(verdicts, [true, false, false, false, false, false], "{hops} hops");
    }
}

#[test]
fn objects_are_rejected_by_their_size_before_the_scan() {
    // Closed by `additionalProperties: false`: at most the two declared
    // names, at least the one required.
    let closed = json!({
        "properties": {"a": {"type": "integer"}, "b": true},
        "required": ["a"],
        "additionalProperties": false
    });
    let verdicts = agree(
        &closed,
        &[
            json!({"a": 1}),
            json!({"a": 1, "b": 2}),
            json!({"a": 1, "b": 2, "c": 3}),
            json!({"a": 1, "c": 3}),
            json!({}),
        ],
    );
    assert_eq!(verdicts, [true, true, false, false, false]);
    // A `required` name without a schema is not declared: it is rejected.
    let unsatisfiable = json!({"properties": {"a": true}, "required": ["a", "c"], "additionalProperties": false});
    assert_eq!(agree(&unsatisfiable, &[json!({"a": 1, "c": 1}), json!({"a": 1})]), [false, false]);
    // Patterns, a non-rejecting rest schema or `unevaluatedProperties`
    // resolved statically: counted only where they close the object.
    let cases = [
        (
            json!({"properties": {"a": true}, "patternProperties": {"^x": true}, "additionalProperties": false}),
            [true, false],
        ),
        (json!({"properties": {"a": true}, "additionalProperties": {"type": ["string", "number"]}}), [true, true]),
        (json!({"properties": {"a": true}, "unevaluatedProperties": false}), [false, false]),
        (
            json!({"properties": {"a": true, "b": true}, "maxProperties": 1, "additionalProperties": false}),
            [false, false],
        ),
        (json!({"minProperties": 3, "properties": {"a": true}}), [false, true]),
    ];
    for (schema, expected) in cases {
        let verdicts = agree(&schema, &[json!({"a": 1, "x1": "s"}), json!({"a": 1, "x1": "s", "b": 2})]);
        assert_eq!(verdicts, expected, "{schema}");
    }
    // The errors still name every unexpected property.
    let v = Validator::new(&json!({"properties": {"a": true}, "additionalProperties": false})).unwrap();
    let errors: Vec<String> =
        v.iter_errors(&json!({"a": 1, "b": 2, "c": 3})).map(|e| e.instance_location().to_string()).collect();
    assert_eq!(errors, ["$.b", "$.c"]);
}

#[test]
fn empty_containers_pass_deferred_schemas_at_once() {
    // Twelve deferred properties (arrays of objects, objects with
    // properties): past the scan's buffer, so the second pass must skip
    // exactly the ones the scan decided.
    let mut properties = serde_json::Map::new();
    for i in 0..12 {
        let schema = match i % 3 {
            0 => json!({"type": "array", "items": {"type": "object", "properties": {"x": {"type": "integer"}}}}),
            1 => json!({"type": "object", "properties": {"y": {"type": "array", "items": {"type": "string"}}}}),
            _ => json!({"type": "array", "minItems": 1, "items": {"type": "object", "properties": {"z": true}}}),
        };
        properties.insert(format!("p{i:02}"), schema);
    }
    let schema = json!({"properties": properties, "required": ["p00"]});
    let value = |i: usize, bad: Option<usize>| match (i % 3, Some(i) == bad) {
        (0, false) if i % 2 == 0 => json!([]),
        (0, false) => json!([{"x": 1}]),
        (0, true) => json!([{"x": "no"}]),
        (1, false) if i % 2 == 0 => json!({}),
        (1, false) => json!({"y": ["a"]}),
        (1, true) => json!({"y": [1]}),
        (_, false) => json!([{"z": 1}]),
        (_, true) => json!([]),
    };
    let instance = |bad: Option<usize>| Value::Object((0..12).map(|i| (format!("p{i:02}"), value(i, bad))).collect());
    let mut instances = vec![instance(None)];
    instances.extend((0..12).map(|bad| instance(Some(bad))));
    let verdicts = agree(&schema, &instances);
    assert!(verdicts[0]);
    assert!(verdicts[1..].iter().all(|v| !v), "{verdicts:?}");
    // Where an empty value does not pass, it is still checked: `minItems`,
    // `minContains`, `required`, `minProperties`, another type's instruction.
    let strict = [
        json!({"properties": {"a": {"type": "array", "minItems": 1, "items": {"type": "object"}}}}),
        json!({"properties": {"a": {"type": "array", "contains": {"type": "object"}}}}),
        json!({"properties": {"a": {"type": "object", "required": ["k"], "properties": {"k": {"type": "array"}}}}}),
        json!({"properties": {"a": {"type": "object", "minProperties": 1, "properties": {"k": {"type": "array"}}}}}),
        json!({"properties": {"a": {"type": "object", "properties": {"k": {"type": "array"}}}}}),
    ];
    let expected = [[false, false], [false, false], [false, false], [false, false], [false, true]];
    for (schema, expected) in strict.iter().zip(expected) {
        assert_eq!(agree(schema, &[json!({"a": []}), json!({"a": {}})]), expected, "{schema}");
    }
}

#[test]
fn quietly_valid_subschemas_still_count_for_unevaluated_keywords() {
    // `open` passes every value, but it evaluates properties and items:
    // `unevaluated*` beside a reference to it (once, twice through the
    // memo, or through `anyOf`/`if`) must see them.
    let open = json!({"additionalProperties": true, "items": {}});
    for applied in [
        json!({"$ref": "#/$defs/open"}),
        json!({"allOf": [{"$ref": "#/$defs/open"}, {"$ref": "#/$defs/open"}]}),
        json!({"anyOf": [{"type": "null"}, {"$ref": "#/$defs/open"}]}),
        json!({"if": {"type": "string"}, "then": {"$ref": "#/$defs/open"}, "else": {"$ref": "#/$defs/open"}}),
    ] {
        let mut schema = applied.clone();
        schema["$defs"] = json!({"open": open});
        schema["unevaluatedProperties"] = json!(false);
        schema["unevaluatedItems"] = json!(false);
        let verdicts = agree(&schema, &[json!({"a": 1, "b": [2]}), json!([1, {"x": 2}]), json!(3)]);
        assert_eq!(verdicts, [true, true, true], "{applied}");
    }
    // Without `unevaluated*`, the same schemas decide nothing.
    let schema = json!({
        "properties": {"p": {"$ref": "#/$defs/open"}},
        "patternProperties": {"^x-": {"$ref": "#/$defs/open"}},
        "additionalProperties": {"$ref": "#/$defs/open"},
        "$defs": {"open": open}
    });
    assert_eq!(agree(&schema, &[json!({"p": [1], "x-q": {"r": 2}, "z": null}), json!(1)]), [true, true]);
    // Items that all pass are not visited, but the array's own bounds
    // still apply.
    let schema = json!({"items": {"$ref": "#/$defs/open"}, "minItems": 2, "$defs": {"open": open}});
    assert_eq!(agree(&schema, &[json!([1, {"a": 2}]), json!([1]), json!("x")]), [true, false, true]);
    // Beside a check that fails, they do not hide the failure.
    let schema = json!({"properties": {"p": {"$ref": "#/$defs/open"}}, "required": ["q"], "$defs": {"open": open}});
    assert_eq!(agree(&schema, &[json!({"p": 1}), json!({"p": 1, "q": 2})]), [false, true]);
}

#[test]
fn subschemas_reached_through_forwarding_refs_decide_alike_and_errors_still_name_each_ref() {
    let schema = json!({
        "definitions": {
            "thing": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}},
            "alias": {"$ref": "#/definitions/thing"},
            "tagged": {"$ref": "#/definitions/alias"}
        },
        "type": "object",
        "properties": {
            "one": {"oneOf": [{"$ref": "#/definitions/tagged"}, {"type": "string"}]},
            "all": {"allOf": [{"$ref": "#/definitions/alias"}, {"$ref": "#/definitions/thing"}]}
        },
        "patternProperties": {"^x-": {"$ref": "#/definitions/tagged"}},
        "additionalProperties": {"$ref": "#/definitions/alias"}
    });
    let verdicts = agree(
        &schema,
        &[
            json!({"one": {"id": 1}, "all": {"id": 2}, "x-a": {"id": 3}, "other": {"id": 4}}),
            json!({"one": "text"}),
            json!({"one": {"id": "no"}}),
            json!({"all": {}}),
            json!({"x-a": {"id": 1.5}}),
            json!({"other": []}),
        ],
    );
    assert_eq!(verdicts, [true, true, false, false, false, false]);
    let v = Validator::new(&schema).expect("schema compiles");
    let locations = |instance: Value| -> Vec<String> {
        v.iter_errors(&instance).map(|e| e.keyword_location().to_string()).collect()
    };
    assert!(
        locations(json!({"x-a": {"id": 1.5}}))
            .contains(&"/patternProperties/^x-/$ref/$ref/$ref/properties/id/type".to_string()),
        "{:?}",
        locations(json!({"x-a": {"id": 1.5}}))
    );
    assert!(locations(json!({"other": []})).iter().any(|l| l.starts_with("/additionalProperties/$ref/$ref/")));
    assert!(locations(json!({"all": {}})).iter().any(|l| l.starts_with("/properties/all/allOf/0/$ref/$ref/")));
}

#[test]
fn arrays_of_records_are_checked_item_by_item() {
    // Items that are one object instruction, directly and through a
    // `$ref`: every item is checked, the first failure decides, and
    // non-objects pass the object keywords unless `type` excludes them.
    let schema = json!({
        "$defs": {"point": {"type": "object", "required": ["x"], "properties": {"x": {"type": "number"}}}},
        "properties": {
            "direct": {"items": {"required": ["id"], "additionalProperties": {"type": "string"}}},
            "referenced": {"items": {"$ref": "#/$defs/point"}}
        }
    });
    let verdicts = agree(
        &schema,
        &[
            json!({"direct": [{"id": "a"}, {"id": "b", "note": "n"}], "referenced": [{"x": 1}, {"x": 2.5}]}),
            json!({"direct": [{"id": "a"}, {"id": 1}]}),
            json!({"direct": [{"id": "a"}, {"name": "b"}]}),
            json!({"direct": [1, "two", null]}),
            json!({"referenced": [{"x": 1}, {"x": "1"}, {"x": 3}]}),
            json!({"referenced": [{"x": 1}, 7]}),
            json!({"referenced": []}),
        ],
    );
    assert_eq!(verdicts, [true, false, false, true, false, false, true]);
}

/// The least fuel with which `schema` decides `instance`.
fn fuel_needed(schema: &Value, instance: &Value) -> u64 {
    let v = Validator::new(schema).expect("schema compiles");
    (0..10_000)
        .find(|&fuel| {
            !matches!(
                v.outcome_with(instance, &schemavm::Budget { fuel, ..schemavm::Budget::default() }),
                schemavm::Outcome::BudgetExceeded { .. }
            )
        })
        .expect("decided within 10,000 units")
}

#[test]
fn number_checks_cost_the_same_fuel_on_every_path() {
    // A number node's entry and its instruction's base unit are one charge
    // where the node is entered (`prefixItems`), two where a loop looks
    // the node up once and dispatches the instruction (`items`): the
    // totals agree, for integers, floats and non-numbers alike.
    let number = json!({"maximum": 5});
    let entered = json!({"prefixItems": [number, number, number]});
    let looped = json!({"items": number});
    for instance in [json!([1, 2, 3]), json!([1.5, 2.5, 3.5]), json!(["a", null, true]), json!([1, 9, 3])] {
        assert_eq!(fuel_needed(&entered, &instance), fuel_needed(&looped, &instance), "{instance}");
    }
    // Two instructions (a number check and a `not`) dispatch each: one unit
    // more per item than the number check alone.
    let two = json!({"items": {"maximum": 5, "not": {"const": 4}}});
    assert!(fuel_needed(&two, &json!([1, 2, 3])) > fuel_needed(&looped, &json!([1, 2, 3])));
}

#[test]
fn alternatives_decided_by_a_property_s_presence_keep_their_verdicts() {
    // A parameter (closed, requiring `name`) or a reference (requiring
    // `$ref`), as OpenAPI writes them; the list is discriminated by
    // presence, and every instance gets the verdict of the full
    // evaluation.
    let schema = json!({
        "$defs": {
            "parameter": {
                "type": "object", "required": ["name", "in"], "additionalProperties": false,
                "properties": {"name": {"type": "string"}, "in": {"enum": ["query", "path"]}},
                "patternProperties": {"^x-": {}}
            },
            "reference": {"type": "object", "required": ["$ref"], "properties": {"$ref": {"type": "string"}}}
        },
        "type": "array",
        "items": {"oneOf": [{"$ref": "#/$defs/parameter"}, {"$ref": "#/$defs/reference"}]}
    });
    let verdicts = agree(
        &schema,
        &[
            json!([{"name": "a", "in": "query"}]),
            json!([{"$ref": "#/p"}]),
            json!([{"$ref": "#/p", "name": "a", "in": "query"}]),
            json!([{"name": "a"}]),
            json!([{"$ref": 1}]),
            json!([{"name": "a", "in": "query", "x-extra": true}]),
            json!([{"name": "a", "in": "query", "other": true}]),
            json!([{}]),
            json!(["text"]),
            json!([{"$ref": "#/p"}, {"name": "b", "in": "path"}]),
        ],
    );
    assert_eq!(verdicts, [true, true, true, false, false, true, false, false, false, true]);
    // Both alternatives match an instance that is both: `oneOf` fails,
    // `anyOf` passes.
    let both = json!({"oneOf": [
        {"required": ["a"]},
        {"required": ["b"], "properties": {"b": {"type": "integer"}}}
    ]});
    assert_eq!(
        agree(&both, &[json!({"a": 1}), json!({"b": 1}), json!({"a": 1, "b": 2}), json!({})]),
        [true, true, false, false]
    );
}

#[test]
fn tuples_are_checked_item_by_item_against_their_bounds() {
    // Prefix schemas of every kind a tuple checks in place: a type, a
    // number, an object, an array, a `$ref`, one that passes everything
    // and one that passes nothing; `items: false` bounds the length by the
    // prefix, `minItems` from below.
    let schema = json!({
        "$defs": {"name": {"type": "string", "minLength": 2}},
        "prefixItems": [
            {"type": "string"},
            {"maximum": 10},
            {"required": ["a"]},
            {"maxItems": 1},
            {"$ref": "#/$defs/name"},
            {},
            false
        ],
        "items": false,
        "minItems": 2
    });
    let verdicts = agree(
        &schema,
        &[
            json!(["a", 1]),
            json!(["a"]),
            json!([1, 1]),
            json!(["a", 11]),
            json!(["a", 1, {"a": 1}, [1], "ab", null]),
            json!(["a", 1, {"b": 1}]),
            json!(["a", 1, {"a": 1}, [1, 2]]),
            json!(["a", 1, {"a": 1}, [], "b"]),
            json!(["a", 1, {"a": 1}, [], "ab", {}, 0]),
            json!(["a", 1, {"a": 1}, [], "ab", {}, 0, 1]),
            json!({"not": "an array"}),
        ],
    );
    assert_eq!(verdicts, [true, false, false, false, true, false, false, false, false, false, true]);
    // Draft-07's `additionalItems`, as the root and nested; and an open
    // tuple, whose further items pass whatever they are.
    let closed = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "items": [{"type": "integer"}, {"items": [{"type": "boolean"}], "additionalItems": false}],
        "additionalItems": false,
        "maxItems": 5
    });
    let verdicts = agree(&closed, &[json!([1, [true]]), json!([1, [true, false]]), json!([1, [], 2]), json!([1.5])]);
    assert_eq!(verdicts, [true, false, false, false]);
    let open = json!({"prefixItems": [{"type": "integer"}], "maxItems": 3});
    let verdicts = agree(&open, &[json!([1, "x", null]), json!([1, "x", null, 4]), json!(["x"]), json!([])]);
    assert_eq!(verdicts, [true, false, false, true]);
}

/// A tree of tagged nodes as document formats write it: a string, an
/// array of nodes, or an object whose `tag` picks one of a `oneOf`.
fn tagged_tree() -> Value {
    json!({
        "$defs": {
            "node": {"oneOf": [
                {"type": "string"},
                {"type": "array", "items": {"$ref": "#/$defs/node"}},
                {"type": "object", "oneOf": [
                    {"type": "object", "required": ["tag"], "additionalProperties": false,
                     "properties": {"tag": {"const": "br"}}},
                    {"type": "object", "required": ["tag"], "additionalProperties": false,
                     "properties": {"tag": {"enum": ["div", "span"]}, "content": {"$ref": "#/$defs/node"}}},
                    {"type": "object", "required": ["tag", "href"], "additionalProperties": false,
                     "properties": {"tag": {"const": "a"}, "href": {"type": "string"},
                                    "content": {"$ref": "#/$defs/node"}}}
                ]}
            ]},
            "either": {"anyOf": [{"type": "boolean"}, {"type": ["object", "null"], "anyOf": [
                {"required": ["x"]}, {"required": ["y"]}
            ]}]}
        },
        "properties": {"tree": {"$ref": "#/$defs/node"}, "either": {"$ref": "#/$defs/either"}}
    })
}

#[test]
fn lists_split_by_type_go_straight_to_the_inner_list_with_the_same_verdicts() {
    // The object alternative of `node` is a type check and a `oneOf`
    // discriminated by `tag`; the type switch passes it to the inner list.
    let schema = tagged_tree();
    let trees = [
        json!("text"),
        json!(["a", {"tag": "br"}]),
        json!({"tag": "div", "content": [{"tag": "span", "content": "x"}, {"tag": "br"}]}),
        json!({"tag": "div", "content": [{"tag": "span", "content": 1}]}),
        json!({"tag": "a", "href": "/", "content": "x"}),
        json!({"tag": "a", "content": "x"}),
        json!({"tag": "br", "content": "x"}),
        json!({"tag": "img"}),
        json!({"content": "x"}),
        json!({"tag": 1}),
        json!(3),
        json!(null),
    ];
    let instances: Vec<Value> = trees.iter().map(|t| json!({ "tree": t })).collect();
    let verdicts = agree(&schema, &instances);
    assert_eq!(verdicts, [true, true, true, false, true, false, false, false, false, false, false, false]);
    // `anyOf` alike, its second alternative admitting two kinds (objects
    // and null are each passed to the inner list, whose `required` null
    // passes).
    let eithers = [json!(true), json!({"x": 1}), json!({"y": 1}), json!({"z": 1}), json!(null), json!("s")];
    let instances: Vec<Value> = eithers.iter().map(|e| json!({ "either": e })).collect();
    assert_eq!(agree(&schema, &instances), [true, true, true, false, true, false]);
}

#[test]
fn lists_passed_by_a_type_switch_still_count_their_depth() {
    // Each level of the tree is an object entered through the switch: the
    // levels are still counted, so a deep tree stops at the depth limit
    // rather than running the stack out.
    let v = Validator::new(&tagged_tree()).expect("schema compiles");
    let mut deep = json!("leaf");
    for _ in 0..100_000 {
        let mut member = serde_json::Map::new();
        member.insert("tag".to_string(), json!("div"));
        member.insert("content".to_string(), deep);
        deep = Value::Object(member);
    }
    stops_at_the_depth_limit(&v, deep);
    // Arrays of nodes alike: each item enters `node` (a counted list split
    // by type), whose array alternative the switch passes.
    let mut deep = json!(["leaf"]);
    for _ in 0..100_000 {
        deep = Value::Array(vec![json!("text"), deep]);
    }
    stops_at_the_depth_limit(&v, deep);
    // A shallow one passes, and fails on its deepest leaf.
    let shallow = (0..50).fold(json!(["leaf"]), |inner, _| json!(["text", inner]));
    assert!(v.is_valid(&json!({ "tree": shallow })));
    let wrong = (0..50).fold(json!([7]), |inner, _| json!(["text", inner]));
    assert_eq!(agree(&tagged_tree(), &[json!({ "tree": wrong })]), [false]);
}

/// `tree`, as the `tree` property of an instance, fails `v` by running out
/// of depth, on the boolean path and the outcome's alike.
fn stops_at_the_depth_limit(v: &Validator, tree: Value) {
    // (Not `json!`, which would serialize the tree, recursively.)
    let mut root = serde_json::Map::new();
    root.insert("tree".to_string(), tree);
    let instance = Value::Object(root);
    assert!(!v.is_valid(&instance));
    assert!(matches!(
        v.outcome(&instance),
        schemavm::Outcome::BudgetExceeded { reason: schemavm::Exhausted::Depth, .. }
    ));
    schemavm::corpus::dismantle(instance);
}

#[test]
fn tagged_variants_skip_only_a_tag_check_their_value_passes() {
    // The boolean path runs each chosen variant without its `kind` check
    // (the value named it): a check asking more than the tags (`minLength`
    // on `d`) stays, and every other property is still checked.
    let variant = |kind: Value, extra: Value| {
        json!({"type": "object", "required": ["kind"], "additionalProperties": false,
               "properties": {"kind": kind, "extra": extra, "child": {"$ref": "#"}}})
    };
    let schema = json!({"oneOf": [
        variant(json!({"const": "a"}), json!({"type": "integer"})),
        variant(json!({"type": "string", "enum": ["b", "c"]}), json!({"type": "boolean"})),
        variant(json!({"const": "d", "minLength": 2}), json!({})),
        variant(json!({"allOf": [{"$ref": "#/$defs/e"}], "type": "string"}), json!({"type": "null"})),
        {"type": "string"}
    ], "$defs": {"e": {"enum": ["e"]}}});
    let instances = [
        json!({"kind": "a", "extra": 1}),
        json!({"kind": "a", "extra": true}),
        json!({"kind": "b", "extra": true}),
        json!({"kind": "c", "extra": 1}),
        json!({"kind": "d"}),
        json!({"kind": "e", "extra": null}),
        json!({"kind": "e", "extra": 1}),
        json!({"kind": "f"}),
        json!({"kind": "a", "other": 1}),
        json!({"extra": 1}),
        // Recursion through the variants (their nodes count depth).
        json!({"kind": "a", "child": {"kind": "b", "child": {"kind": "e", "child": "leaf"}}}),
        json!({"kind": "a", "child": {"kind": "b", "child": {"kind": "d", "child": "leaf"}}}),
        json!({"kind": "a", "child": {"kind": "b", "child": {"kind": "c", "extra": 2}}}),
    ];
    let verdicts = agree(&schema, &instances);
    assert_eq!(verdicts, [true, false, true, false, false, true, false, false, false, false, true, false, false]);
}

#[test]
fn tagged_variants_still_count_depth() {
    // A chain of tagged objects deeper than the depth limit is refused
    // (not overflowed) on the boolean path, as on the recording one.
    let schema = json!({"oneOf": [
        {"type": "object", "required": ["kind"], "additionalProperties": false,
         "properties": {"kind": {"const": "node"}, "next": {"$ref": "#"}}},
        {"type": "object", "required": ["kind"], "additionalProperties": false,
         "properties": {"kind": {"const": "end"}}}
    ]});
    let v = Validator::new(&schema).expect("schema compiles");
    // (Built by hand: `json!` would serialize the chain, recursively.)
    let chain = |depth: usize| {
        (0..depth).fold(json!({"kind": "end"}), |next, _| {
            let mut node = serde_json::Map::new();
            node.insert("kind".to_string(), json!("node"));
            node.insert("next".to_string(), next);
            Value::Object(node)
        })
    };
    let mut root = serde_json::Map::new();
    root.insert("tree".to_string(), chain(100_000));
    let deep = Value::Object(root);
    let nested = &deep["tree"];
    assert!(!v.is_valid(nested));
    assert!(matches!(v.outcome(nested), schemavm::Outcome::BudgetExceeded { reason: schemavm::Exhausted::Depth, .. }));
    schemavm::corpus::dismantle(deep);
    assert!(v.is_valid(&chain(20)));
    // Level for level as the variant's own node: under a small depth limit,
    // the longest chain that passes is the same whether the variant runs
    // without its tag check or not (a tag schema asking a length keeps it).
    let budget = schemavm::Budget { max_depth: 40, ..schemavm::Budget::default() };
    let longest = |schema: &Value| {
        let v = Validator::new(schema).expect("schema compiles");
        (0..200).take_while(|&depth| v.outcome_with(&chain(depth), &budget) == schemavm::Outcome::Valid).last()
    };
    let mut kept = schema.clone();
    kept["oneOf"][0]["properties"]["kind"]["minLength"] = json!(1);
    let (pinned, checked) = (longest(&schema), longest(&kept));
    assert!(pinned.is_some_and(|d| d > 5 && d < 40), "{pinned:?}");
    assert_eq!(pinned, checked);
}

/// A root whose one instruction needs no VM (number, string, `enum` or
/// `const` checks, object checks of sizes and `required` only or of a
/// scan whose schemas are verdicts and bare types, array
/// checks of bounds, verdict or type prefixes, a fused items plan and
/// `uniqueItems` or a leaf's `contains`, `allOf`,
/// `anyOf`, `oneOf` or `not` of at most four such leaves) is checked
/// without one on the boolean path: its verdicts, and where its fuel runs
/// out, are those of the VM.
#[test]
fn scalar_roots_agree_with_the_vm_under_every_budget() {
    let draft4 = "http://json-schema.org/draft-04/schema#";
    let draft7 = "http://json-schema.org/draft-07/schema#";
    let cases = [
        (json!({"minimum": 3}), vec![json!(5), json!(1), json!(2.5), json!(3.5), json!("x"), json!(1e300)]),
        (
            json!({"type": "integer", "maximum": 10, "multipleOf": 2}),
            vec![json!(4), json!(5), json!(12), json!(4.0), json!(4.5), json!("4"), json!(null)],
        ),
        (json!({"multipleOf": 0.1}), vec![json!(0.3), json!(0.35), json!(3), json!(-0.7), json!(1e-320)]),
        (json!({"multipleOf": 5}), vec![json!(212.4), json!(125), json!(125.0), json!(1e300), json!(-10)]),
        (json!({"$schema": draft4, "type": "integer", "minimum": 1}), vec![json!(1), json!(1.0), json!(0)]),
        (
            json!({"minLength": 2, "maxLength": 3}),
            vec![json!("a"), json!("ab"), json!("abcd"), json!("日本"), json!(1)],
        ),
        (json!({"type": "string", "pattern": "^a+$"}), vec![json!("aaa"), json!("ab"), json!(""), json!(5)]),
        (json!({"pattern": "(a|b)*c"}), vec![json!("ababc"), json!("abab"), json!(null)]),
        (
            json!({"type": "string", "format": "ipv4", "maxLength": 15}),
            vec![json!("127.0.0.1"), json!("1.2.3"), json!(4)],
        ),
        (
            json!({"enum": [1, 2.0, "a", null, [1], {"a": 1}]}),
            vec![
                json!(1),
                json!(2),
                json!(2.0),
                json!(1.0),
                json!("a"),
                json!("b"),
                json!(null),
                json!([1]),
                json!({"a": 1}),
                json!(3),
                json!(true),
            ],
        ),
        (
            json!({"enum": [1, 2, 3, 4]}),
            vec![json!(4), json!(4.0), json!(5), json!("4"), json!(u64::MAX), json!(i64::MIN)],
        ),
        (json!({"enum": [u64::MAX, -1]}), vec![json!(u64::MAX), json!(-1), json!(-1.0), json!(1)]),
        (json!({"type": "integer", "enum": [1, 2]}), vec![json!(1), json!(1.0), json!("1"), json!(3)]),
        (json!({"$schema": draft4, "type": "integer", "enum": [1, 2]}), vec![json!(1), json!(1.0)]),
        (json!({"const": 1}), vec![json!(1), json!(1.0), json!("1"), json!(2)]),
        (json!({"const": {"a": [1, 2]}}), vec![json!({"a": [1, 2]}), json!({"a": [1, 2.0]}), json!({"a": [2, 1]})]),
        (json!({"required": ["a"]}), vec![json!({"a": 1}), json!({}), json!({"b": 1}), json!([]), json!("a")]),
        (json!({"type": "object", "required": ["a", "b"]}), vec![json!({"a": 1, "b": 2}), json!({"a": 1}), json!(1)]),
        (
            json!({"minProperties": 2, "maxProperties": 3}),
            vec![json!({"a": 1}), json!({"a": 1, "b": 2}), json!({"a": 1, "b": 2, "c": 3, "d": 4})],
        ),
        (
            json!({"maxProperties": 1, "required": ["a", "b"]}),
            vec![json!({"a": 1, "b": 2}), json!({"a": 1}), json!({})],
        ),
        (json!({"anyOf": [{"type": "integer"}, {"minimum": 2}]}), vec![json!(1), json!(3), json!(1.5), json!("x")]),
        (json!({"allOf": [{"type": "integer"}, {"minimum": 2}]}), vec![json!(1), json!(3), json!(2.5), json!(null)]),
        (json!({"oneOf": [{"type": "integer"}, {"minimum": 2}]}), vec![json!(1), json!(3), json!(2.5), json!(0.5)]),
        (json!({"not": {"type": "null"}}), vec![json!(null), json!(0), json!({})]),
        (json!({"not": {"enum": [1, "a"]}}), vec![json!(1), json!("a"), json!(2)]),
        (
            json!({"anyOf": [{"enum": [1, 2, 3]}, {"const": "a"}, {"maxLength": 2}, {"type": "null"}]}),
            vec![json!(2), json!("a"), json!("ab"), json!("abc"), json!(null), json!(4)],
        ),
        (
            json!({"oneOf": [false, true, {"type": "string", "minLength": 1}, {"multipleOf": 3}, {"maximum": 0}]}),
            vec![json!(3), json!("s"), json!(-3), json!(1)],
        ),
        (json!({"anyOf": [{"pattern": "^a"}, {"type": "integer"}]}), vec![json!("ab"), json!("b"), json!(1)]),
        (json!({"allOf": [{"required": ["a"]}, {"type": "object"}]}), vec![json!({"a": 1}), json!({}), json!(1)]),
        (
            json!({"required": ["k0", "k13"]}),
            vec![json!((0..14).map(|i| (format!("k{i}"), json!(i))).collect::<serde_json::Map<_, _>>())],
        ),
        (
            json!({"items": {"type": "integer"}}),
            vec![json!([1, 2, 3]), json!([1, 2, "x"]), json!([1.0, 2.5]), json!([]), json!((0..9).collect::<Vec<_>>())],
        ),
        (json!({"$schema": draft4, "items": {"type": "integer"}}), vec![json!([1, 2]), json!([1.0]), json!({})]),
        (
            json!({"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 6}),
            vec![json!([1, 2.5, 3]), json!([1]), json!([1, 2, 3, 4, 5, 6, 7]), json!(["a", 1]), json!("a")],
        ),
        (
            json!({"items": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 3}}),
            vec![json!([[1, 2], [3, 4, 5]]), json!([[1, 2], [3]]), json!([[1, "x"]]), json!([[1, 2], [3, 4], [5, 6]])],
        ),
        (json!({"items": {"type": "string"}, "maxItems": 4}), vec![json!(["a", "b"]), json!(["a", 1]), json!(null)]),
        (json!({"items": false}), vec![json!([]), json!([1]), json!(1)]),
        (json!({"minItems": 2, "items": true}), vec![json!([1, 2]), json!([1]), json!({"a": 1})]),
        // Bounds alone, checked in place by the value's size.
        (json!({"maxItems": 1}), vec![json!([]), json!([1]), json!([1, 2]), json!({"a": 1, "b": 2}), json!("ab")]),
        (json!({"type": "array", "minItems": 2}), vec![json!([1, 2]), json!([1]), json!({"a": 1, "b": 2}), json!(2)]),
        (json!({"maxItems": 0, "minItems": 1}), vec![json!([]), json!([1]), json!(null)]),
        (
            json!({"type": ["object", "string"], "maxProperties": 1}),
            vec![json!({}), json!({"a": 1}), json!({"a": 1, "b": 2}), json!("s"), json!([1]), json!(1)],
        ),
        (json!({"minProperties": 1, "type": "object"}), vec![json!({"a": 1}), json!({}), json!([1]), json!(null)]),
        (
            json!({"uniqueItems": true}),
            vec![
                json!([1, 1]),
                json!([1, 2, 1]),
                json!([1, 1.0]),
                json!(["a", "b", "a"]),
                json!([[1], {"a": 1}, [1]]),
                json!([{"a": 1}, {"a": 1.0}]),
                json!((0..20).chain([7]).collect::<Vec<_>>()),
                json!((0..20).collect::<Vec<_>>()),
                json!([]),
            ],
        ),
        (
            json!({"uniqueItems": true, "items": {"type": "integer"}, "maxItems": 5}),
            vec![json!([1, 2, 3]), json!([1, 2, 1]), json!([1, "a"]), json!([1, 2, 3, 4, 5, 6])],
        ),
        (json!({"additionalProperties": false}), vec![json!({}), json!({"a": 1}), json!(1), json!([])]),
        // Scans whose schemas are verdicts and bare types, checked in place.
        (
            json!({"additionalProperties": {"type": "string"}}),
            vec![json!({"foo": "bar"}), json!({"foo": 1}), json!({}), json!({"a": "x", "b": "y", "c": 3}), json!(1)],
        ),
        (
            json!({"properties": {"foo": {"type": "string"}, "n": {"type": "integer"}, "no": false, "any": true}}),
            vec![
                json!({"foo": "bar", "n": 2}),
                json!({"foo": 1}),
                json!({"n": 2.0}),
                json!({"n": 2.5}),
                json!({"no": 1}),
                json!({"any": [1], "other": {}}),
                json!("foo"),
            ],
        ),
        (
            json!({"$schema": draft4, "properties": {"n": {"type": "integer"}}, "additionalProperties": false}),
            vec![json!({"n": 1}), json!({"n": 1.0}), json!({"m": 1})],
        ),
        (
            json!({
                "type": "object",
                "properties": {"a": {"type": ["string", "null"]}, "b": {"type": "boolean"}},
                "required": ["a", "c"],
                "additionalProperties": {"type": "number"},
                "maxProperties": 3
            }),
            vec![
                json!({"a": null, "c": 1}),
                json!({"a": "x", "c": "y"}),
                json!({"a": "x"}),
                json!({"c": 1, "d": 2}),
                json!({"a": "x", "b": true, "c": 1.5}),
                json!({"a": "x", "b": true, "c": 1.5, "d": 2}),
                json!({"a": 1, "c": 1}),
                json!([]),
            ],
        ),
        (
            json!({"properties": {"a": {"type": "string"}}, "required": ["b"]}),
            vec![json!({"b": 1}), json!({"a": "x", "b": null}), json!({"a": 1, "b": 1}), json!({"a": "x"})],
        ),
        (
            json!({"additionalProperties": false, "propertyNames": {"maxLength": 1}, "type": "object"}),
            vec![json!({}), json!({"ab": 1}), json!("x")],
        ),
        (
            json!({"properties": {}, "additionalProperties": false, "minProperties": 1}),
            vec![json!({}), json!({"a": 1})],
        ),
        (
            json!({"prefixItems": [{}, {"type": "integer"}, false], "items": {"type": "string"}}),
            vec![json!([1]), json!([1, 2]), json!([1, "a"]), json!([1, 2, 3]), json!([])],
        ),
        (
            json!({"$schema": draft7, "items": [{}, {}, {}], "additionalItems": {"type": "string"}}),
            vec![json!([1, 2, 3, "a", "b"]), json!([1, 2, 3, 4]), json!([1, 2]), json!({})],
        ),
        (
            json!({"prefixItems": [true, {"type": "string"}], "items": false, "uniqueItems": true}),
            vec![json!(["a", "b"]), json!(["a", "a"]), json!([1, 2]), json!([1, "b", 3])],
        ),
        (
            json!({"prefixItems": [{"minimum": 2}], "items": {"type": "string"}, "minItems": 1}),
            vec![json!([3, "a"]), json!([1, "a"]), json!([3, 4]), json!([])],
        ),
        (
            json!({"contains": {"minimum": 5}}),
            vec![json!([5]), json!([1]), json!([1, 2, 3, 4, 6]), json!([]), json!(5)],
        ),
        (
            json!({"contains": {"enum": [1, 2]}, "minContains": 2, "maxContains": 3, "maxItems": 8}),
            vec![
                json!([1, 0, 2]),
                json!([1]),
                json!([1, 2, 1, 2]),
                json!([0, 0, 0, 0, 0, 1, 1]),
                json!([1, 1, 1, 1, 1, 1, 1, 1, 1]),
            ],
        ),
        (json!({"type": "array", "contains": {"type": "string"}}), vec![json!([1, "a"]), json!([1, 2]), json!("a")]),
        (json!({"contains": {"const": 1}, "maxContains": 0}), vec![json!([0, 2]), json!([1]), json!([0, 0, 0, 1])]),
    ];
    for (schema, instances) in &cases {
        for fuel in 0..8 {
            let budget = schemavm::Budget { fuel, ..schemavm::Budget::default() };
            let v = Validator::options().assert_formats(true).budget(budget).build(schema).expect("schema compiles");
            for i in instances {
                let vm = matches!(v.outcome_with(i, &budget), schemavm::Outcome::Valid);
                assert_eq!(v.is_valid(i), vm, "{schema} on {i} with fuel {fuel}");
            }
        }
        let v = Validator::options().assert_formats(true).build(schema).expect("schema compiles");
        for i in instances {
            assert_eq!(v.is_valid(i), v.iter_errors(i).next().is_none(), "{schema} on {i}");
        }
    }
}

/// A recursive schema's root that is one object or array instruction
/// (entered with depth and fuel accounting, as it may recur) is run
/// directly on the boolean path, its level and unit taken once: verdicts,
/// and where the depth limit or the fuel runs out, are those of the VM's
/// general entry.
#[test]
fn recursive_roots_run_directly_with_the_vm_s_depth_and_fuel() {
    let object = json!({
        "type": "object",
        "properties": {"child": {"$ref": "#"}, "n": {"type": "integer"}},
        "required": ["n"],
        "additionalProperties": false
    });
    let array = json!({"type": "array", "items": {"anyOf": [{"type": "integer"}, {"$ref": "#"}]}, "maxItems": 2});
    let tuple = json!({"prefixItems": [{"type": "integer"}, {"$ref": "#"}], "items": false});
    // `depth` levels of nesting below the root, the innermost failing or not.
    fn objects(depth: usize, bad: bool) -> Value {
        let leaf = if bad { json!({"n": "x"}) } else { json!({"n": 0}) };
        (0..depth).fold(leaf, |inner, n| json!({"n": n, "child": inner}))
    }
    fn arrays(depth: usize, bad: bool) -> Value {
        let leaf = if bad { json!(["x"]) } else { json!([1, 2]) };
        (0..depth).fold(leaf, |inner, n| json!([n, inner]))
    }
    type Nest = fn(usize, bool) -> Value;
    let cases: [(Value, Nest); 3] = [(object, objects), (array, arrays), (tuple, arrays)];
    for (schema, nest) in &cases {
        let mut instances: Vec<Value> = (0..5).flat_map(|d| [nest(d, false), nest(d, true)]).collect();
        instances.extend([json!(null), json!("x"), json!({}), json!([])]);
        for max_depth in 0..6 {
            for fuel in (0..24).chain([1_000]) {
                let budget = schemavm::Budget { fuel, max_depth, ..schemavm::Budget::default() };
                let v = Validator::options().budget(budget).build(schema).expect("schema compiles");
                for i in &instances {
                    let vm = matches!(v.outcome_with(i, &budget), schemavm::Outcome::Valid);
                    assert_eq!(v.is_valid(i), vm, "{schema} on {i} with fuel {fuel}, depth {max_depth}");
                }
            }
        }
        let verdicts = agree(schema, &instances);
        assert!(verdicts.contains(&true) && verdicts.contains(&false), "{schema}: {verdicts:?}");
    }
}

/// An object with dependencies is searched for them only when the scan
/// met one of their trigger names: verdicts, and where fuel runs out, are
/// those of the VM's general path, with and without patterns, in every
/// dialect's spelling.
#[test]
fn dependencies_are_searched_only_when_a_trigger_is_present() {
    let draft4 = "http://json-schema.org/draft-04/schema#";
    let cases = [
        (
            json!({"properties": {"o": {"dependentRequired": {"a": ["b"]}, "properties": {"a": {}, "c": {"type": "integer"}}}}}),
            vec![
                json!({"o": {"a": 1}}),
                json!({"o": {"a": 1, "b": 2}}),
                json!({"o": {"c": 1}}),
                json!({"o": {"c": "x"}}),
                json!({"o": {}}),
            ],
        ),
        (
            json!({"items": {"dependentSchemas": {"a": {"required": ["z"]}}, "patternProperties": {"^x": {"type": "string"}}}}),
            vec![
                json!([{"a": 1}]),
                json!([{"a": 1, "z": 2}]),
                json!([{"x1": "s"}]),
                json!([{"x1": 1}]),
                json!([{"b": 1}, {"a": 0}]),
            ],
        ),
        (
            json!({"$schema": draft4, "properties": {"o": {"dependencies": {"a": ["b"], "c": {"minProperties": 3}}}}}),
            vec![
                json!({"o": {"a": 1}}),
                json!({"o": {"a": 1, "b": 1}}),
                json!({"o": {"c": 1, "d": 2}}),
                json!({"o": {"c": 1, "d": 2, "e": 3}}),
                json!({"o": {"d": 1}}),
            ],
        ),
    ];
    for (schema, instances) in &cases {
        for fuel in 0..12 {
            let budget = schemavm::Budget { fuel, ..schemavm::Budget::default() };
            let v = Validator::options().budget(budget).build(schema).expect("schema compiles");
            for i in instances {
                let vm = matches!(v.outcome_with(i, &budget), schemavm::Outcome::Valid);
                assert_eq!(v.is_valid(i), vm, "{schema} on {i} with fuel {fuel}");
            }
        }
        let verdicts = agree(schema, instances);
        assert!(verdicts.contains(&true) && verdicts.contains(&false), "{schema}: {verdicts:?}");
    }
}

#[test]
fn loops_and_scans_admit_what_the_type_keyword_admits() {
    // Item loops sort their type set once (numbers, integers, strings,
    // other sets) and test items by variant, object scans test `integer`
    // alone in place; every value must still get exactly the verdict
    // `type` gives it, integral floats and numbers past the machine
    // integers included, and `integer` strict in draft 4.
    let items = [
        json!(1),
        json!(-5),
        json!(1.0),
        json!(1.5),
        json!(1e300),
        json!(u64::MAX),
        json!(i64::MIN),
        json!("s"),
        json!(null),
        json!([1]),
    ];
    for draft in ["https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-04/schema#"] {
        for types in [
            json!("number"),
            json!("integer"),
            json!(["integer", "number"]),
            json!("string"),
            json!(["integer", "string"]),
            json!(["null", "number"]),
        ] {
            let direct = Validator::new(&json!({"$schema": draft, "type": types})).expect("compiles");
            let flat = json!({"$schema": draft, "items": {"type": types}});
            let pairs = json!({"$schema": draft, "items": {"type": "array", "maxItems": 3, "items": {"type": types}}});
            // Scans of leaves only, and scans with another check beside.
            let leaves = json!({"$schema": draft, "properties": {"a": {"type": types}}, "additionalProperties": {"type": types}});
            let mixed = json!({"$schema": draft, "properties": {"a": {"type": types}, "c": {"minLength": 2}},
                               "additionalProperties": {"type": types}});
            for a in &items {
                for b in &items {
                    let expected = direct.is_valid(a) && direct.is_valid(b);
                    assert_eq!(agree(&flat, &[json!([a, b])]), [expected], "{flat} on [{a}, {b}]");
                    for (object, instance) in
                        [(&leaves, json!({"a": a, "b": b})), (&mixed, json!({"a": a, "b": b, "c": "cc"}))]
                    {
                        assert_eq!(
                            agree(object, std::slice::from_ref(&instance)),
                            [expected],
                            "{object} on {instance}"
                        );
                    }
                    assert_eq!(agree(&pairs, &[json!([[a, b]])]), [expected], "{pairs} on [[{a}, {b}]]");
                    assert_eq!(
                        agree(&pairs, &[json!([[a], [a, b, b]])]),
                        [expected],
                        "{pairs} on [[{a}], [{a}, {b}, {b}]]"
                    );
                }
            }
        }
    }
}

#[test]
fn tuples_decide_as_the_vm_under_every_budget() {
    // Tuples run in place on the boolean path (at the root without the
    // node dispatch, nested through their targets: verdicts, bare types,
    // number checks, objects, `oneOf` lists); every verdict, under every
    // budget, must be the recording VM's.
    let draft7 = "http://json-schema.org/draft-07/schema#";
    let tuple = json!([
        {"type": "object", "required": ["k"]},
        {"type": "integer", "minimum": 0},
        {"oneOf": [{"type": "string"}, {"type": "null"}]},
        {"type": "string"},
        {"multipleOf": 0.5},
        false
    ]);
    let root = json!({"$schema": draft7, "items": tuple, "additionalItems": false});
    let nested = json!({"$schema": draft7, "properties": {"t": {"items": tuple, "additionalItems": false}}});
    let arrays = [
        json!([{"k": 1}, 3, "s", "x", 1.5]),
        json!([{"k": 1}, -3, "s", "x", 1.5]),
        json!([{}, 3, "s", "x", 1.5]),
        json!([{}, -3, "s", "x", 1.5]),
        json!([{"k": 1}, 3, 7, "x", 1.5]),
        json!([{"k": 1}, 3, "s", 4, 1.5]),
        json!([{"k": 1}, 3, "s", "x", 1.25]),
        json!([{"k": 1}, 3, "s", "x", 1.5, 0]),
        json!([{"k": 1}, 3.0, null]),
        json!([{"k": 1}, 1e300]),
        json!([]),
        json!("not an array"),
    ];
    for schema in [&root, &nested] {
        let instances: Vec<Value> =
            arrays.iter().map(|a| if schema == &root { a.clone() } else { json!({"t": a}) }).collect();
        for fuel in 0..24 {
            let budget = schemavm::Budget { fuel, ..schemavm::Budget::default() };
            let v = Validator::options().budget(budget).build(schema).expect("schema compiles");
            for i in &instances {
                let vm = matches!(v.outcome_with(i, &budget), schemavm::Outcome::Valid);
                assert_eq!(v.is_valid(i), vm, "{schema} on {i} with fuel {fuel}");
            }
        }
        // `3.0` and `1e300` are integers in draft 7; a non-array passes.
        let expected = [true, false, false, false, false, false, false, false, true, true, true, true];
        assert_eq!(agree(schema, &instances), expected, "{schema}");
    }
    // Leading items a root tuple checks before it makes a VM (bare types,
    // number checks, verdicts, `enum`s, string lengths), then items that
    // need one (a string pattern, an object, a `oneOf`).
    let leading = json!({"$schema": draft7, "additionalItems": false, "items": [
        {"type": "integer", "minimum": 0},
        {"multipleOf": 0.5},
        {"type": "string"},
        true,
        {"enum": ["x", "y", 1]},
        {"type": "string", "maxLength": 2},
        {"pattern": "^a"},
        {"type": "object", "required": ["k"]},
        {"oneOf": [{"type": "string"}, {"type": "null"}]}
    ]});
    let instances = [
        json!([3, 1.5, "s", 0, "x", "ab", "a", {"k": 1}, "s"]),
        json!([-3, 1.5, "s", 0, "x", "ab", "a", {"k": 1}, "s"]),
        json!([3, 1.25, "s", 0, "x", "ab", "a", {"k": 1}, "s"]),
        json!([3, 1e300, "s", 0, 1, "", "a", {"k": 1}, null]),
        json!([3, 1.5, 4, 0, "x", "ab", "a", {"k": 1}, "s"]),
        json!([3, 1.5, "s", 0, "z", "ab", "a", {"k": 1}, "s"]),
        json!([3, 1.5, "s", 0, "y", "abc", "a", {"k": 1}, "s"]),
        json!([3, 1.5, "s", 0, "y", 7, "b", {"k": 1}, "s"]),
        json!([3, 1.5, "s", 0, "x", "ab", "a", {}, "s"]),
        json!([3, 1.5, "s", 0, "x", "ab", "a", {"k": 1}, 7]),
        json!([3, 1.5, "s", 0, "x", "ab", "a", {"k": 1}, "s", 0]),
        json!([3, 1.5]),
        json!([3.0, "x", "s", 0, "y"]),
        json!([]),
        json!({"not": "an array"}),
    ];
    for fuel in 0..30 {
        let budget = schemavm::Budget { fuel, ..schemavm::Budget::default() };
        let v = Validator::options().budget(budget).build(&leading).expect("schema compiles");
        for i in &instances {
            let vm = matches!(v.outcome_with(i, &budget), schemavm::Outcome::Valid);
            assert_eq!(v.is_valid(i), vm, "{leading} on {i} with fuel {fuel}");
        }
    }
    let expected = [true, false, false, true, false, false, false, false, false, false, false, true, true, true, true];
    assert_eq!(agree(&leading, &instances), expected);
}

/// Every object whose names are drawn from `names`: all subsets, and
/// larger objects (with names no alternative mentions) past the size at
/// which the VM stops deciding by presence.
fn objects_over(names: &[&str]) -> Vec<Value> {
    let mut objects = Vec::new();
    for mask in 0u32..(1 << names.len()) {
        let members = names.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1);
        let mut object: serde_json::Map<String, Value> = members.map(|(_, n)| (n.to_string(), json!(1))).collect();
        objects.push(Value::Object(object.clone()));
        for extra in 0..2 * names.len() + 3 {
            object.insert(format!("other{extra}"), json!(extra));
        }
        objects.push(Value::Object(object));
    }
    objects.extend([json!(null), json!(1), json!("a"), json!([])]);
    objects
}

/// Checks each `anyOf` and `oneOf` of `list`, bare and under `not`,
/// against the same list of `twin` alternatives: the verdicts on every
/// instance agree on every path, and (when `mixed`) some instance passes
/// and some fails.
fn lists_agree_with_twins(list: &[Value], twin: &[Value], instances: &[Value], mixed: bool) {
    for keyword in ["anyOf", "oneOf"] {
        for wrap in [false, true] {
            let make = |alternatives: &[Value]| {
                let list = json!({ keyword: alternatives });
                if wrap { json!({"not": list}) } else { list }
            };
            let (schema, twin) = (make(list), make(twin));
            let verdicts = agree(&schema, instances);
            assert_eq!(verdicts, agree(&twin, instances), "{schema}");
            // An `anyOf` with `{}` passes everything.
            if mixed && (keyword == "oneOf" || !list.contains(&json!({}))) {
                assert!(verdicts.contains(&true) && verdicts.contains(&false), "{schema}");
            }
        }
    }
}

#[test]
fn lists_of_required_names_decide_as_each_alternative_does() {
    // Each list, and a twin whose alternatives also bound the size (by
    // a bound no instance reaches), which the VM runs one alternative at
    // a time: the verdicts must be the same, on every path.
    let lists: [Vec<Value>; 7] = [
        vec![json!({"required": ["a"]}), json!({"required": ["b"]})],
        vec![json!({"required": ["a"]}), json!({"required": ["b"]}), json!({"required": ["a"]})],
        vec![json!({"required": ["a", "b"]}), json!({"required": ["c"]}), json!({"required": ["b", "a"]})],
        vec![json!({"required": ["a", "b"]}), json!({}), json!({"required": ["d"]})],
        vec![json!({"required": ["a"], "type": "object"}), json!({"required": ["c", "d"]})],
        vec![json!({"required": ["a"], "properties": {"a": true, "q": {}}}), json!({"required": ["b"]})],
        (0..40).map(|i| json!({"required": [format!("n{i}")]})).chain([json!({"required": ["a"]})]).collect(),
    ];
    let names = ["a", "b", "c", "d", "n39"];
    let instances = objects_over(&names);
    for list in lists {
        let bounded: Vec<Value> = list
            .iter()
            .map(|alt| {
                let mut alt = alt.as_object().cloned().unwrap_or_default();
                alt.insert("maxProperties".into(), json!(1_000_000));
                Value::Object(alt)
            })
            .collect();
        lists_agree_with_twins(&list, &bounded, &instances, true);
    }
}

#[test]
fn lists_filtered_by_names_decide_as_each_alternative_does() {
    // Closed wrappers, closed variants requiring their name (Rust enums
    // as schemars writes them), required names beside open alternatives,
    // patterns, `false` property schemas and nested lists: the boolean
    // path runs only the alternatives an object's names leave (a name
    // filter). Each list is checked against a twin whose alternatives
    // hide behind `if` (same verdicts, nothing for the filter to see).
    let closed = |name: &str| json!({"type": "object", "properties": {name: {"type": "integer"}}, "additionalProperties": false});
    let variant = |name: &str| json!({"type": "object", "properties": {name: {}}, "required": [name], "additionalProperties": false});
    let lists: [Vec<Value>; 5] = [
        vec![closed("a"), closed("b"), closed("c")],
        vec![variant("a"), variant("b"), variant("c"), json!({"type": "string"})],
        vec![
            json!({"required": ["a"], "properties": {"a": {"minimum": 0}}}),
            json!({"required": ["b", "c"]}),
            json!({"properties": {"d": false}}),
        ],
        vec![
            json!({"properties": {"a": {}}, "patternProperties": {"^o": {}}, "additionalProperties": false}),
            closed("b"),
            json!({"allOf": [{"properties": {"c": {}}, "additionalProperties": false}]}),
            json!({"properties": {"b": false}}),
        ],
        vec![closed("a"), json!({"oneOf": [closed("b"), closed("c")]}), json!({"required": ["d"]})],
    ];
    let instances = objects_over(&["a", "b", "c", "d"]);
    for list in lists {
        let hidden: Vec<Value> = list.iter().map(|alt| json!({"if": alt, "then": true, "else": false})).collect();
        lists_agree_with_twins(&list, &hidden, &instances, true);
    }
}

#[test]
fn lists_of_required_names_charge_fuel_per_member() {
    // 200 forbidden names, the renovate configuration schema's way: an
    // object's check costs about its members, not the alternatives.
    let alternatives: Vec<Value> = (0..200).map(|i| json!({"required": [format!("n{i}")]})).collect();
    let schema = json!({"not": {"anyOf": alternatives}});
    let small = json!({"extends": ["config:base"]});
    assert!(fuel_needed(&schema, &small) < 20, "{}", fuel_needed(&schema, &small));
    let v = Validator::new(&schema).expect("compiles");
    assert!(v.is_valid(&small));
    assert!(!v.is_valid(&json!({"extends": [], "n199": 1})));
}

#[test]
fn conditions_on_a_tag_decide_as_every_condition_does() {
    // An allOf of if/then conditions on "type" (a tagged union written
    // without oneOf), and a twin whose conditions each have `"else":
    // true`, which the VM runs condition by condition: the same verdicts
    // on every path.
    let when = |tag: Value, then: Value| json!({"if": {"properties": {"type": tag}}, "then": then});
    let members = vec![
        when(json!({"const": "a"}), json!({"required": ["x"], "properties": {"x": {"type": "string"}}})),
        when(json!({"enum": ["b", "c"]}), json!({"required": ["y"]})),
        json!({"if": {"properties": {"type": {"const": "c"}}, "required": ["type"]}, "then": {"required": ["z"]}}),
        when(json!({"const": "d"}), json!(false)),
        json!({"if": {"properties": {"type": {"const": "e"}}}}),
        json!({"properties": {"w": {"type": "integer"}}}),
        json!({"if": {"properties": {"kind": {"const": "a"}}}, "then": {"maxProperties": 4}}),
    ];
    let twin: Vec<Value> = members
        .iter()
        .map(|m| {
            let mut m = m.as_object().cloned().unwrap_or_default();
            if m.contains_key("if") {
                m.insert("else".into(), json!(true));
            }
            Value::Object(m)
        })
        .collect();
    let mut instances = vec![json!(null), json!("a"), json!(3), json!([])];
    for tag in [
        None,
        Some(json!("a")),
        Some(json!("b")),
        Some(json!("c")),
        Some(json!("d")),
        Some(json!("e")),
        Some(json!("zz")),
        Some(json!(1)),
    ] {
        for fields in 0u32..32 {
            let mut object = serde_json::Map::new();
            if let Some(tag) = &tag {
                object.insert("type".into(), tag.clone());
            }
            for (bit, (name, value)) in [
                ("x", json!("s")),
                ("y", json!(1)),
                ("z", json!(1)),
                ("w", json!("not an integer")),
                ("kind", json!("a")),
            ]
            .into_iter()
            .enumerate()
            {
                if fields >> bit & 1 == 1 {
                    object.insert(name.into(), value);
                }
            }
            instances.push(Value::Object(object));
        }
    }
    let arrays: Vec<Value> = instances.iter().map(|i| json!([i])).collect();
    for (schema, twin, instances) in [
        (json!({"allOf": members}), json!({"allOf": twin}), &instances),
        (json!({"items": {"allOf": members}}), json!({"items": {"allOf": twin}}), &arrays),
    ] {
        let verdicts = agree(&schema, instances);
        assert_eq!(verdicts, agree(&twin, instances), "{schema}");
        assert!(verdicts.contains(&true) && verdicts.contains(&false), "{verdicts:?}");
    }
}

#[test]
fn unevaluated_properties_beside_conjunctive_subschemas_keep_their_verdicts() {
    // `info` and `derived` resolve `unevaluatedProperties` statically on
    // the boolean path; the root, with an `anyOf`, tracks, and applies
    // `derived` in place (the static code then runs tracked).
    let schema = json!({
        "$defs": {
            "ext": {"patternProperties": {"^x-": true}},
            "info": {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"],
                     "$ref": "#/$defs/ext", "unevaluatedProperties": false},
            "base": {"properties": {"a": {"type": "integer"}}, "allOf": [{"$ref": "#/$defs/ext"}]},
            "derived": {"$ref": "#/$defs/base", "properties": {"b": true},
                        "unevaluatedProperties": {"type": "string"}}
        },
        "properties": {"info": {"$ref": "#/$defs/info"}, "d": {"$ref": "#/$defs/derived"}},
        "anyOf": [{"$ref": "#/$defs/derived"}, {"required": ["info"]}],
        "unevaluatedProperties": false
    });
    let verdicts = agree(
        &schema,
        &[
            json!({"a": 1, "b": 2, "c": "s", "x-y": 1}),
            json!({"a": 1, "c": 5}),
            json!({"info": {"title": "t"}, "c": 5}),
            json!({"info": {"title": "t"}, "c": "s"}),
            json!({"info": {"title": "t", "x-a": 1}}),
            json!({"info": {"title": "t", "z": 1}}),
            json!({"info": {"title": 1}}),
            json!({"d": {"a": "no"}}),
            json!({"info": {"title": "t"}, "d": {"a": 2, "x-": [], "e": "s"}}),
            json!({"info": {"title": "t"}, "d": {"a": 2, "e": 3}}),
            json!({"d": {"a": 2}}),
        ],
    );
    // `info` is unevaluated where `derived` applies in place (and not a
    // string); `c` where it fails.
    assert_eq!(verdicts, [true, false, false, false, true, false, false, false, true, false, false]);
}

#[test]
fn statically_resolved_unevaluated_properties_report_as_tracked() {
    // Errors come from the tracked code, as without the static
    // resolution (the boolean path checks the keyword as
    // `additionalProperties` over the member's names).
    let schema = json!({"allOf": [{"properties": {"a": {"type": "string"}}}], "unevaluatedProperties": false});
    let v = Validator::new(&schema).expect("schema compiles");
    let instance = json!({"a": 1});
    assert!(!v.is_valid(&instance));
    let errors: Vec<String> = v.iter_errors(&instance).map(|e| e.keyword_location().to_string()).collect();
    assert_eq!(errors, ["/allOf/0/properties/a/type"]);
    let errors: Vec<String> =
        v.iter_errors(&json!({"a": "s", "b": 1})).map(|e| e.keyword_location().to_string()).collect();
    assert_eq!(errors, ["/unevaluatedProperties"]);
    assert!(v.is_valid(&json!({"a": "s"})));
    assert!(!v.is_valid(&json!({"a": "s", "b": 1})));
}
