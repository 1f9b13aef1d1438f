//! Regressions found by the fuzz targets in `fuzz/` (see `fuzz/README.md`
//! for the campaign log). Each test asserts the correct behavior, not only
//! the absence of a panic.

use schemavm::{Budget, ErrorKind, Validator};
use serde_json::{Value, json};

/// The invariants the fuzz targets check between `is_valid`, `validate`,
/// `iter_errors` and a small budget, for one instance; returns `is_valid`.
fn consistent(v: &Validator, instance: &Value) -> bool {
    let valid = v.is_valid(instance);
    let validated = v.validate(instance);
    assert_eq!(valid, validated.is_ok(), "{validated:?}");
    let errors: Vec<_> = v.iter_errors(instance).collect();
    if !errors.iter().any(|e| e.is_budget_exceeded()) && !validated.as_ref().is_err_and(|e| e.is_budget_exceeded()) {
        assert_eq!(errors.is_empty(), valid, "{errors:?}");
    }
    assert_eq!(errors, v.iter_errors(instance).collect::<Vec<_>>());
    for fuel in [0, 1, 10, 100] {
        if let Err(e) = v.validate_with(instance, &Budget { fuel, ..Budget::default() }) {
            if let ErrorKind::BudgetExceeded { fuel_used, .. } = e.kind() {
                assert!(*fuel_used <= fuel, "fuel_used {fuel_used} > {fuel}");
            }
        }
    }
    valid
}

/// differential: a `$dynamicAnchor` inside the root resource (at
/// `/if/$defs/thingy`, no `$id` of its own) is in the dynamic scope of a
/// `$dynamicRef` reached through `then`, so the outermost match is the
/// root's `thingy` (a number) and 42 is valid. `jsonschema` 0.61 says
/// invalid; this is the masked class `dynamic-anchor-in-subschema`.
#[test]
fn dynamic_anchor_in_root_resource_subschema_is_outermost() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://test.json-schema.org/main",
        "$defs": {
            "start": {"$id": "start", "$dynamicRef": "inner_scope#thingy"},
            "thingy": {"$id": "inner_scope", "$dynamicAnchor": "thingy", "type": "string"}
        },
        "if": {"$defs": {"thingy": {"$dynamicAnchor": "thingy", "type": "number"}}},
        "then": {
            "$id": "second_scope",
            "$ref": "start",
            "$defs": {"thingy": {"$dynamicAnchor": "thingy", "type": "null"}}
        }
    });
    let v = Validator::new(&schema).unwrap();
    assert!(consistent(&v, &json!(42)));
    assert!(!consistent(&v, &json!(null)));
    assert!(!consistent(&v, &json!("x")));
}

/// differential: in 2019-09, `unevaluatedItems` sees the items that
/// `items`, `additionalItems` and `unevaluatedItems` evaluated, not those
/// `contains` matched (2020-12 added `contains`); here the `if`'s
/// `contains` matches every item, so the items are evaluated in 2020-12
/// only. `jsonschema` 0.61 says valid in both; this is the masked class
/// `contains-2019-09`.
#[test]
fn contains_evaluates_items_from_2020_12_on() {
    let schema = |dialect: &str| {
        json!({
            "$schema": dialect,
            "if": {"contains": {"x-unknown": "a"}},
            "then": {"if": {"x-unknown": 1}, "then": {"if": {"contains": {"const": "c"}}}},
            "unevaluatedItems": false
        })
    };
    let instance = json!(["c", "a", "c", "a", "c"]);
    let v2019 = Validator::new(&schema("https://json-schema.org/draft/2019-09/schema")).unwrap();
    assert!(!consistent(&v2019, &instance));
    assert!(consistent(&v2019, &json!([])));
    let v2020 = Validator::new(&schema("https://json-schema.org/draft/2020-12/schema")).unwrap();
    assert!(consistent(&v2020, &instance));
}

/// structured: when the budget ran out inside an `anyOf`/`oneOf` branch
/// while collecting errors, that branch's tentative errors stayed in the
/// list, so `validate_with` returned one of them (here `/anyOf/1/type`) as
/// "the" error instead of `BudgetExceeded`, and `iter_errors` listed
/// errors that are not errors of the instance.
#[test]
fn budget_exhaustion_inside_alternative_leaks_no_branch_errors() {
    let schema = json!({"anyOf": [{"const": true}, {"type": "number", "pattern": "^(a|b)*c$"}]});
    let v = Validator::new(&schema).unwrap();
    let instance = Value::String("ab".repeat(2000) + "x");
    assert!(!consistent(&v, &instance));
    let full = v.validate(&instance).unwrap_err();
    assert!(matches!(full.kind(), ErrorKind::AnyOf { alternatives: 2, .. }), "{full:?}");
    let mut exhausted = 0;
    for fuel in (0..20_000).step_by(97) {
        let e = v.validate_with(&instance, &Budget { fuel, ..Budget::default() }).unwrap_err();
        match e.kind() {
            ErrorKind::BudgetExceeded { fuel_used, .. } => {
                assert!(*fuel_used <= fuel);
                exhausted += 1;
            }
            _ => assert_eq!(e, full, "under fuel {fuel}"),
        }
    }
    assert!(exhausted > 0);
    // Nested alternatives: the inner and the outer branch are both unfinished.
    let nested = json!({"oneOf": [{"anyOf": [{"type": "null"}, {"type": "number", "pattern": "^(a|b)*c$"}]}, false]});
    let v = Validator::new(&nested).unwrap();
    let full = v.validate(&instance).unwrap_err();
    for fuel in (0..20_000).step_by(97) {
        let e = v.validate_with(&instance, &Budget { fuel, ..Budget::default() }).unwrap_err();
        assert!(e.is_budget_exceeded() || e == full, "under fuel {fuel}: {e:?}");
    }
}

/// differential: `$schema` URIs compare as URIs, so a meta-schema's scheme
/// and host may be spelled in any case (RFC 3986 §6.2.2.1). An embedded
/// resource declaring `https://Json-schema.org/draft/2019-09/schema` is
/// 2019-09: its `items` array evaluates the first two items only, and the
/// root's `unevaluatedItems: false` rejects the third. `jsonschema` 0.61
/// takes the URI for an unknown one and says valid; this is the masked
/// class `meta-schema-case`.
#[test]
fn meta_schema_uris_ignore_the_case_of_scheme_and_host() {
    let schema = |inner: &str| {
        json!({
            "$schema": "https://json-schema.org/draft/2019-09/schema",
            "$id": "https://example.com/outer",
            "$defs": {"inner": {"$id": "/inner", "$schema": inner, "type": "array",
                                "items": [{"type": "string"}, {"$ref": "#"}]}},
            "$ref": "/inner",
            "unevaluatedItems": false
        })
    };
    let instance = json!(["foo", ["bar", [], 8], 8]);
    for inner in ["https://json-schema.org/draft/2019-09/schema", "https://Json-schema.org/draft/2019-09/schema"] {
        let v = Validator::new(&schema(inner)).unwrap();
        assert!(!consistent(&v, &instance), "{inner}");
        assert!(consistent(&v, &json!(["foo", ["bar"]])), "{inner}");
    }
    // At the root: the draft-04 meaning of `exclusiveMaximum`.
    let draft4 = Validator::new(&json!({"$schema": "HTTP://JSON-SCHEMA.ORG/draft-04/schema#",
                                        "maximum": 5, "exclusiveMaximum": true}))
    .unwrap();
    assert!(!consistent(&draft4, &json!(5)));
    assert!(consistent(&draft4, &json!(4)));
}

/// differential: `"$ref": ""` resolves to the base URI (RFC 3986 §5.2),
/// the current document, so it applies the root schema, as `"#"` does:
/// the nested array's first item must be an integer. `jsonschema` 0.61
/// applies nothing for the empty reference (and the root for `"#"`); this
/// is the masked class `empty-reference`.
#[test]
fn empty_references_apply_the_document() {
    for reference in ["", "#"] {
        let v = Validator::new(&json!({"type": "array", "prefixItems": [{"type": "integer"}, {"$ref": reference}]}))
            .unwrap();
        assert!(!consistent(&v, &json!([1, ["x"]])), "{reference:?}");
        assert!(consistent(&v, &json!([1, [2, [3]]])), "{reference:?}");
        assert!(!consistent(&v, &json!([1, [2, "y"]])), "{reference:?}");
    }
}
