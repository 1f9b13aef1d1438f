//! `ValidatorOptions::allow_undeclared_properties`: what "undeclared"
//! means, and that everything declared is still enforced.

use schemavm::Validator;
use serde_json::{Value, json};

/// (strict, lenient) verdicts of `instance` under `schema`.
fn verdicts(schema: &Value, instance: Value) -> (bool, bool) {
    let strict = Validator::new(schema).expect("compiles");
    let lenient = Validator::options().allow_undeclared_properties(true).build(schema).expect("compiles");
    (strict.is_valid(&instance), lenient.is_valid(&instance))
}

#[test]
fn closed_objects_accept_undeclared_properties() {
    let schema = json!({"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"],
                        "additionalProperties": false});
    assert_eq!(verdicts(&schema, json!({"id": 1, "extra": "x"})), (false, true));
    assert_eq!(verdicts(&schema, json!({"id": "1", "extra": "x"})), (false, false), "declared types hold");
    assert_eq!(verdicts(&schema, json!({"extra": "x"})), (false, false), "required holds");
    let not_anything = json!({"properties": {"id": {}}, "additionalProperties": {"not": {}}});
    assert_eq!(verdicts(&not_anything, json!({"id": 1, "extra": 2})), (false, true));
    let not_true = json!({"properties": {"id": {}}, "additionalProperties": {"not": true}});
    assert_eq!(verdicts(&not_true, json!({"extra": 2})), (false, true));
    let draft7 = json!({"$schema": "http://json-schema.org/draft-07/schema#", "additionalProperties": false});
    assert_eq!(verdicts(&draft7, json!({"extra": 2})), (false, true));
}

#[test]
fn nested_and_referenced_closed_objects_are_lenient_too() {
    let schema = json!({
        "type": "object",
        "properties": {
            "data": {"type": "array", "items": {"$ref": "#/$defs/row"}},
            "meta": {"type": "object", "properties": {"page": {"type": "integer"}}, "additionalProperties": false},
        },
        "$defs": {"row": {"type": "object", "properties": {"id": {"type": "string"}}, "additionalProperties": false}},
        "additionalProperties": false,
    });
    let evolved = json!({"data": [{"id": "a", "score": 1}], "meta": {"page": 1, "next": 2}, "took": 3});
    assert_eq!(verdicts(&schema, evolved), (false, true));
    let broken = json!({"data": [{"id": 1}], "meta": {"page": "1"}});
    assert_eq!(verdicts(&schema, broken), (false, false));
}

#[test]
fn pattern_properties_declare_the_names_they_match() {
    let schema = json!({"patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false});
    assert_eq!(verdicts(&schema, json!({"x-trace": "t", "other": 1})), (false, true));
    assert_eq!(verdicts(&schema, json!({"x-trace": 1})), (false, false), "a matching name is declared");
}

#[test]
fn a_value_schema_for_the_other_properties_is_a_declaration() {
    // A map: every name is declared with `additionalProperties`' schema.
    let map = json!({"type": "object", "additionalProperties": {"type": "integer"}});
    assert_eq!(verdicts(&map, json!({"a": 1, "b": 2})), (true, true));
    assert_eq!(verdicts(&map, json!({"a": "1"})), (false, false));
    let unevaluated = json!({"properties": {"a": {}}, "unevaluatedProperties": {"type": "integer"}});
    assert_eq!(verdicts(&unevaluated, json!({"a": "x", "b": "y"})), (false, false));
}

#[test]
fn unevaluated_properties_false_is_lenient_with_composition() {
    let schema = json!({
        "allOf": [{"properties": {"id": {"type": "integer"}}, "required": ["id"]}],
        "properties": {"name": {"type": "string"}},
        "unevaluatedProperties": false,
    });
    assert_eq!(verdicts(&schema, json!({"id": 1, "name": "n", "extra": true})), (false, true));
    assert_eq!(verdicts(&schema, json!({"id": "1", "extra": true})), (false, false));
    assert_eq!(verdicts(&schema, json!({"name": 5})), (false, false));
    let plain = json!({"properties": {"id": {}}, "unevaluatedProperties": false});
    assert_eq!(verdicts(&plain, json!({"id": 1, "extra": true})), (false, true));
}

#[test]
fn explicit_constraints_on_names_and_counts_hold() {
    let forbidden = json!({"properties": {"secret": false}, "additionalProperties": false});
    assert_eq!(verdicts(&forbidden, json!({"secret": 1})), (false, false), "a declared `false` property");
    let names = json!({"propertyNames": {"maxLength": 3}, "additionalProperties": false});
    assert_eq!(verdicts(&names, json!({"long-name": 1})), (false, false));
    let count = json!({"maxProperties": 1, "additionalProperties": false});
    assert_eq!(verdicts(&count, json!({"a": 1, "b": 2})), (false, false));
    let closed_tuple = json!({"prefixItems": [{"type": "integer"}], "items": false});
    assert_eq!(verdicts(&closed_tuple, json!([1, 2])), (false, false), "array items are not properties");
}
