//! The message of every error kind, exactly, plain and with
//! `mask_values`; message length caps; the closest `anyOf`/`oneOf`
//! alternative.

use schemavm::{Budget, ErrorKind, Found, MessageOptions, Validator, ValidatorOptions};
use serde_json::{Value, json};

fn options() -> ValidatorOptions {
    Validator::options().assert_formats(true).assert_content(true)
}

/// Every error of `instance`, rendered, with values shown.
fn plain(schema: Value, instance: Value) -> Vec<String> {
    render(options(), schema, instance)
}

/// Every error of `instance`, rendered, with values masked.
fn masked(schema: Value, instance: Value) -> Vec<String> {
    render(options().mask_values(true), schema, instance)
}

fn render(options: ValidatorOptions, schema: Value, instance: Value) -> Vec<String> {
    let v = options.build(&schema).unwrap();
    v.iter_errors(&instance).map(|e| e.to_string()).collect()
}

/// The kinds of the errors of `instance`.
fn kinds(schema: Value, instance: Value) -> Vec<ErrorKind> {
    let v = options().build(&schema).unwrap();
    v.iter_errors(&instance).map(|e| e.kind().clone()).collect()
}

#[test]
fn false_schema() {
    let schema = json!({"properties": {"a": false}});
    assert_eq!(plain(schema.clone(), json!({"a": "secret"})), ["$.a: no value is allowed here"]);
    assert_eq!(masked(schema, json!({"a": "secret"})), ["$.a: no value is allowed here"]);
}

#[test]
fn type_() {
    assert_eq!(plain(json!({"type": "integer"}), json!("10")), ["$: must be an integer (got a string)"]);
    assert_eq!(plain(json!({"type": "integer"}), json!(1.5)), ["$: must be an integer (got a number)"]);
    // Types are listed in a fixed order, whatever the schema's.
    assert_eq!(plain(json!({"type": ["string", "null"]}), json!(3)), ["$: must be null or a string (got an integer)"]);
    assert_eq!(
        plain(json!({"type": ["string", "array", "object"]}), json!(null)),
        ["$: must be a string, an array or an object (got null)"]
    );
    assert_eq!(masked(json!({"type": "boolean"}), json!("yes")), ["$: must be a boolean (got a string)"]);
}

#[test]
fn const_() {
    let schema = json!({"properties": {"mode": {"const": "fast"}}});
    assert_eq!(plain(schema.clone(), json!({"mode": "slow"})), [r#"$.mode: must be "fast" (got "slow")"#]);
    assert_eq!(masked(schema, json!({"mode": "slow"})), [r#"$.mode: must be "fast" (got a string of 4 characters)"#]);
    assert_eq!(plain(json!({"const": {"a": 1}}), json!([1, 2])), [r#"$: must be {"a":1} (got an array of 2 items)"#]);
}

#[test]
fn enum_() {
    let schema = json!({"properties": {"state": {"enum": ["open", "closed", "all"]}}});
    assert_eq!(
        plain(schema.clone(), json!({"state": "pending"})),
        [r#"$.state: must be one of ["open","closed","all"] (got "pending")"#]
    );
    assert_eq!(
        masked(schema, json!({"state": "pending"})),
        [r#"$.state: must be one of ["open","closed","all"] (got a string of 7 characters)"#]
    );
    let many: Vec<Value> = (0..25).map(Value::from).collect();
    let shown: Vec<String> = (0..20).map(|i| i.to_string()).collect();
    assert_eq!(
        plain(json!({"enum": many}), json!(99)),
        [format!("$: must be one of [{}] (and 5 more) (got 99)", shown.join(","))]
    );
    assert_eq!(
        masked(json!({"enum": [1, 2]}), json!({"a": 1})),
        ["$: must be one of [1,2] (got an object with 1 property)"]
    );
}

#[test]
fn minimum() {
    assert_eq!(plain(json!({"minimum": 1}), json!(0)), ["$: must be at least 1 (got 0)"]);
    assert_eq!(plain(json!({"exclusiveMinimum": 0}), json!(0)), ["$: must be greater than 0 (got 0)"]);
    assert_eq!(masked(json!({"minimum": 1.5}), json!(-3)), ["$: must be at least 1.5 (got a number)"]);
    let draft4 = json!({"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 2, "exclusiveMinimum": true});
    assert_eq!(plain(draft4, json!(2)), ["$: must be greater than 2 (got 2)"]);
}

#[test]
fn maximum() {
    let schema = json!({"properties": {"limit": {"maximum": 50}}});
    assert_eq!(plain(schema.clone(), json!({"limit": 120})), ["$.limit: must be at most 50 (got 120)"]);
    assert_eq!(masked(schema, json!({"limit": 120})), ["$.limit: must be at most 50 (got a number)"]);
    assert_eq!(plain(json!({"exclusiveMaximum": 10}), json!(10.0)), ["$: must be less than 10 (got 10.0)"]);
}

#[test]
fn multiple_of() {
    assert_eq!(plain(json!({"multipleOf": 5}), json!(12)), ["$: must be a multiple of 5 (got 12)"]);
    assert_eq!(masked(json!({"multipleOf": 0.5}), json!(0.3)), ["$: must be a multiple of 0.5 (got a number)"]);
}

#[test]
fn min_length() {
    assert_eq!(
        plain(json!({"minLength": 3}), json!("ab")),
        ["$: must be at least 3 characters long (got 2 characters)"]
    );
    assert_eq!(masked(json!({"minLength": 1}), json!("")), ["$: must be at least 1 character long (got 0 characters)"]);
}

#[test]
fn max_length() {
    let long = "é".repeat(300);
    let expected = ["$: must be at most 200 characters long (got 300 characters)"];
    assert_eq!(plain(json!({"maxLength": 200}), json!(long)), expected);
    assert_eq!(masked(json!({"maxLength": 200}), json!(long)), expected);
}

#[test]
fn pattern() {
    let schema = json!({"pattern": "^[a-z]+$"});
    assert_eq!(plain(schema.clone(), json!("ABC")), [r#"$: must match the pattern "^[a-z]+$" (got "ABC")"#]);
    assert_eq!(
        masked(schema, json!("ABC")),
        [r#"$: must match the pattern "^[a-z]+$" (got a string of 3 characters)"#]
    );
    let long = "x".repeat(70);
    assert_eq!(
        plain(json!({"pattern": "^y"}), json!(long)),
        [format!(r#"$: must match the pattern "^y" (got "{}"…)"#, "x".repeat(60))]
    );
}

#[test]
fn format() {
    let schema = json!({"properties": {"when": {"format": "date-time"}}});
    assert_eq!(
        plain(schema.clone(), json!({"when": "tomorrow"})),
        [r#"$.when: must be a date-time (RFC 3339), e.g. "2025-08-08T10:00:00Z" (got "tomorrow")"#]
    );
    assert_eq!(
        masked(schema, json!({"when": "tomorrow"})),
        [r#"$.when: must be a date-time (RFC 3339), e.g. "2025-08-08T10:00:00Z" (got a string of 8 characters)"#]
    );
    assert_eq!(
        plain(json!({"format": "email"}), json!("nobody")),
        [r#"$: must be an email address, e.g. "user@example.com" (got "nobody")"#]
    );
    // Custom formats, and built-in names they override, have no example.
    let custom = options()
        .format("even-length", |s: &str| s.len() % 2 == 0)
        .format("email", |s: &str| s.ends_with("@example.com"));
    let schema = json!({"properties": {"a": {"format": "even-length"}, "b": {"format": "email"}}});
    assert_eq!(
        render(custom, schema, json!({"a": "abc", "b": "x@y.org"})),
        [
            r#"$.a: must match the format "even-length" (got "abc")"#,
            r#"$.b: must match the format "email" (got "x@y.org")"#
        ]
    );
    assert!(matches!(
        &kinds(json!({"format": "uuid"}), json!("x"))[..],
        [ErrorKind::Format { format, builtin: Some(schemavm::compiler::Format::Uuid) }] if format == "uuid"
    ));
}

#[test]
fn content_encoding() {
    let schema = json!({"contentEncoding": "base64"});
    assert_eq!(plain(schema.clone(), json!("!!!")), ["$: must be base64-encoded"]);
    assert_eq!(masked(schema, json!("!!!")), ["$: must be base64-encoded"]);
}

#[test]
fn content_media_type() {
    let schema = json!({"contentMediaType": "application/json"});
    assert_eq!(plain(schema.clone(), json!("{oops")), ["$: must be a valid application/json document"]);
    assert_eq!(masked(schema, json!("{oops")), ["$: must be a valid application/json document"]);
}

#[test]
fn min_items() {
    let schema = json!({"properties": {"labels": {"minItems": 1}}});
    assert_eq!(plain(schema.clone(), json!({"labels": []})), ["$.labels: must have at least 1 item (got 0)"]);
    assert_eq!(masked(schema, json!({"labels": []})), ["$.labels: must have at least 1 item (got 0)"]);
}

#[test]
fn max_items() {
    assert_eq!(plain(json!({"maxItems": 2}), json!([1, 2, 3])), ["$: must have at most 2 items (got 3)"]);
}

#[test]
fn unique_items() {
    let schema = json!({"uniqueItems": true});
    let expected = ["$: items must be unique (items 0 and 2 are equal)"];
    assert_eq!(plain(schema.clone(), json!(["a", "b", "a"])), expected);
    assert_eq!(masked(schema, json!(["a", "b", "a"])), expected);
}

#[test]
fn contains() {
    let schema = json!({"contains": {"type": "integer"}});
    assert_eq!(plain(schema, json!(["a"])), ["$: must contain at least one matching item"]);
    let schema = json!({"contains": {"type": "integer"}, "minContains": 2, "maxContains": 3});
    assert_eq!(plain(schema.clone(), json!([1, "a"])), ["$: must contain at least 2 matching items (got 1)"]);
    assert_eq!(plain(schema, json!([1, 2, 3, 4])), ["$: must contain at most 3 matching items (got 4)"]);
}

#[test]
fn unexpected_item() {
    let schema = json!({"prefixItems": [{"type": "string"}], "items": false});
    assert_eq!(plain(schema, json!(["a", 2])), ["$[1]: unexpected item (not allowed by items)"]);
    let schema = json!({"prefixItems": [{}], "unevaluatedItems": false});
    assert_eq!(masked(schema, json!([1, 2])), ["$[1]: unexpected item (not allowed by unevaluatedItems)"]);
}

#[test]
fn required() {
    let schema = json!({"required": ["query", "a b"]});
    assert_eq!(
        plain(schema, json!({})),
        [r#"$: missing required property "query""#, r#"$: missing required property "a b""#]
    );
}

#[test]
fn dependent_required() {
    let schema = json!({"dependentRequired": {"since": ["until"]}});
    assert_eq!(
        plain(schema, json!({"since": "x"})),
        [r#"$: missing property "until", required when "since" is present"#]
    );
}

#[test]
fn min_properties() {
    assert_eq!(plain(json!({"minProperties": 1}), json!({})), ["$: must have at least 1 property (got 0)"]);
}

#[test]
fn max_properties() {
    assert_eq!(
        plain(json!({"maxProperties": 2}), json!({"a": 1, "b": 2, "c": 3})),
        ["$: must have at most 2 properties (got 3)"]
    );
}

#[test]
fn unexpected_property() {
    let schema = json!({
        "properties": {"query": {}, "state": {}, "limit": {}},
        "additionalProperties": false
    });
    let listed = plain(schema.clone(), json!({"sort": "asc"}));
    assert_eq!(listed.len(), 1);
    assert!(listed[0].starts_with("$.sort: unknown property; allowed: "), "{listed:?}");
    for name in ["query", "state", "limit"] {
        assert!(listed[0].contains(name), "{listed:?}");
    }
    assert_eq!(plain(schema.clone(), json!({"qurey": "x"})), [r#"$.qurey: unknown property; did you mean "query"?"#]);
    assert_eq!(masked(schema.clone(), json!({"Limit": 3})), [r#"$.Limit: unknown property; did you mean "limit"?"#]);
    assert_eq!(
        render(options(), json!({"properties": {"a b": {}}, "additionalProperties": false}), json!({"x": 1})),
        [r#"$.x: unknown property; allowed: "a b""#]
    );
    let closed = json!({"unevaluatedProperties": false});
    assert_eq!(plain(closed, json!({"x": 1})), ["$.x: unknown property"]);
    let kind = &kinds(schema, json!({"qurey": 1}))[0];
    assert_eq!(kind.suggestion(), Some("query"));
    assert!(matches!(kind, ErrorKind::UnexpectedProperty { name, .. } if name == "qurey"));
}

#[test]
fn property_name() {
    let schema = json!({"propertyNames": {"maxLength": 3}});
    assert_eq!(
        plain(schema, json!({"long": 1})),
        // The name's own errors are at the object, as `propertyNames` applies there.
        [r#"$.long: property name "long" is not allowed"#, "$: must be at most 3 characters long (got 4 characters)"]
    );
    let schema = json!({"propertyNames": {"pattern": "^[a-z]+$"}});
    assert_eq!(
        masked(schema, json!({"Bad": 1})),
        [
            r#"$.Bad: property name "Bad" is not allowed"#,
            r#"$: must match the pattern "^[a-z]+$" (got a string of 3 characters)"#
        ]
    );
}

#[test]
fn any_of() {
    let schema = json!({"anyOf": [{"type": "string"}, {"type": "object", "required": ["id"]}]});
    assert_eq!(
        plain(schema, json!({})),
        ["$: matched none of 2 alternatives; closest is #1", r#"$: missing required property "id""#]
    );
}

#[test]
fn one_of_none() {
    let schema = json!({"oneOf": [{"type": "string"}, {"type": "integer", "maximum": 5}]});
    assert_eq!(
        plain(schema.clone(), json!(9)),
        ["$: matched none of 2 alternatives (exactly one must match); closest is #1", "$: must be at most 5 (got 9)"]
    );
    assert_eq!(
        masked(schema, json!(9)),
        [
            "$: matched none of 2 alternatives (exactly one must match); closest is #1",
            "$: must be at most 5 (got a number)"
        ]
    );
}

#[test]
fn one_of_multiple() {
    let schema = json!({"oneOf": [{"type": "integer"}, {"minimum": 0}, {"maximum": 10}]});
    assert_eq!(plain(schema, json!(3)), ["$: must match exactly one alternative, but matched #0, #1 and #2"]);
    let schema = json!({"oneOf": [{"type": "integer"}, {"minimum": 0}]});
    assert_eq!(plain(schema, json!(3)), ["$: must match exactly one alternative, but matched #0 and #1"]);
}

#[test]
fn not() {
    assert_eq!(plain(json!({"not": {"type": "null"}}), json!(null)), [r#"$: must not match the schema in "not""#]);
}

#[test]
fn error_limit() {
    let v = options().max_errors(2).build(&json!({"required": ["a", "b", "c"]})).unwrap();
    let errors: Vec<String> = v.iter_errors(&json!({})).map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        [
            r#"$: missing required property "a""#,
            r#"$: missing required property "b""#,
            "$: more errors than the error limit (2); the rest are not listed"
        ]
    );
}

#[test]
fn budget_exceeded() {
    let v =
        options().budget(Budget { fuel: 3, ..Budget::default() }).build(&json!({"items": {"type": "string"}})).unwrap();
    let errors: Vec<String> = v.iter_errors(&json!(vec!["a"; 10])).map(|e| e.to_string()).collect();
    assert_eq!(errors, ["$: not validated: the fuel budget ran out after 3 units of fuel (raise Budget::fuel)"]);
    let e = v.validate(&json!(vec!["a"; 10])).unwrap_err();
    assert!(e.is_budget_exceeded());
}

/// One instance that trips every kind that could echo a value, carrying a
/// secret: masked, the secret appears nowhere.
#[test]
fn masking_never_echoes_instance_values() {
    let secret = "sk-live-0123456789";
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"const": "x"}, "b": {"enum": ["x", "y"]}, "c": {"pattern": "^x$"},
            "d": {"format": "uri"}, "e": {"type": "integer"}, "f": {"maxLength": 3},
            "g": {"anyOf": [{"const": 1}, {"pattern": "^$"}]},
            "h": {"propertyNames": {"pattern": "^x$"}},
            "i": {"contentMediaType": "application/json"}, "j": {"maximum": 0}
        }
    });
    let instance = json!({
        "a": secret, "b": secret, "c": secret, "d": secret, "e": secret, "f": secret,
        "g": secret, "h": {"x": secret}, "i": secret, "j": 123456789
    });
    let shown = plain(schema.clone(), instance.clone());
    assert!(shown.iter().any(|m| m.contains(secret)), "{shown:#?}");
    let hidden = masked(schema, instance);
    assert!(hidden.len() >= 10, "{hidden:#?}");
    for m in &hidden {
        assert!(!m.contains("sk-live") && !m.contains("123456789"), "{m}");
    }
}

#[test]
fn found_values_are_structured() {
    let v = options().build(&json!({"maximum": 50})).unwrap();
    let e = v.validate(&json!(120)).unwrap_err();
    assert_eq!(e.found(), Some(&Found::Number("120".into())));
    let v = options().build(&json!({"enum": ["a"]})).unwrap();
    let e = v.validate(&json!("bbb")).unwrap_err();
    assert_eq!(e.found(), Some(&Found::String { start: "bbb".into(), length: 3 }));
    let e = v.validate(&json!({"k": 1})).unwrap_err();
    assert_eq!(e.found(), Some(&Found::Object { properties: 1 }));
}

#[test]
fn message_length_is_capped_at_a_character_boundary() {
    let schema = json!({"properties": {"名前": {"enum": ["一つ目の値", "二つ目の値", "三つ目の値"]}}});
    let instance = json!({"名前": "違う値です"});
    let full = plain(schema.clone(), instance.clone()).remove(0);
    assert!(full.len() > 60, "{full}");
    for max in [0, 1, 2, 3, 4, 10, 31, 60] {
        let v = options().max_message_len(max).build(&schema).unwrap();
        let e = v.validate(&instance).unwrap_err();
        let text = e.to_string();
        assert!(text.len() <= max, "{max}: {text}");
        if max >= 3 {
            assert!(text.ends_with('…'), "{max}: {text}");
            let head = text.trim_end_matches('…');
            assert!(full.starts_with(head), "{max}: {text}");
        }
        assert!(e.message().len() <= max, "{max}: {}", e.message());
    }
    let roomy = options().max_message_len(1000).build(&schema).unwrap();
    assert_eq!(roomy.validate(&instance).unwrap_err().to_string(), full);
}

#[test]
fn errors_carry_and_change_their_message_options() {
    let v = options().mask_values(true).max_message_len(80).build(&json!({"const": 1})).unwrap();
    assert_eq!(v.message_options(), MessageOptions { mask_values: true, max_len: Some(80) });
    let e = v.validate(&json!(2)).unwrap_err();
    assert_eq!(e.message_options(), v.message_options());
    assert_eq!(e.message(), "must be 1 (got a number)");
    let shown = e.with_message_options(MessageOptions::default());
    assert_eq!(shown.to_string(), "$: must be 1 (got 2)");
    // Budget errors from `validate` carry them too.
    let tight = options().mask_values(true).budget(Budget { fuel: 1, ..Budget::default() });
    let v = tight.build(&json!({"items": {"type": "string"}})).unwrap();
    assert!(v.validate(&json!(["a", "b", "c"])).unwrap_err().message_options().mask_values);
}

/// A tool taking one of two actions, told apart by `action`. The second
/// alternative fails on a non-discriminating enum and a bound: two
/// errors, as many as the first, which fails on the discriminator itself.
/// Counting errors alone would point at #0; the discriminator says #1.
#[test]
fn closest_alternative_follows_the_discriminator() {
    let schema = json!({
        "type": "object",
        "oneOf": [
            {"properties": {"action": {"const": "search"}, "query": {"type": "string"}}, "required": ["action", "query"]},
            {"properties": {"action": {"const": "list"}, "state": {"enum": ["open", "closed"]},
                            "limit": {"maximum": 50}}, "required": ["action"]}
        ]
    });
    assert_eq!(
        plain(schema.clone(), json!({"action": "list", "state": "pending", "limit": 120})),
        [
            "$: matched none of 2 alternatives (exactly one must match); closest is #1",
            r#"$.limit: must be at most 50 (got 120)"#,
            r#"$.state: must be one of ["open","closed"] (got "pending")"#,
        ]
    );
    // Without a usable discriminator value, the heuristics decide: here
    // #0 has a missing property only, #1 a type error on `action`... both
    // fail `action`, and #0's other error is shallower.
    assert_eq!(
        plain(schema, json!({"action": "delete", "state": "open"})),
        [
            "$: matched none of 2 alternatives (exactly one must match); closest is #1",
            r#"$.action: must be "list" (got "delete")"#,
        ]
    );
}

#[test]
fn closest_alternative_prefers_the_matching_type() {
    let schema = json!({"anyOf": [
        {"type": "integer"},
        {"type": "string", "format": "date-time"}
    ]});
    assert_eq!(
        plain(schema, json!("soon")),
        [
            "$: matched none of 2 alternatives; closest is #1",
            r#"$: must be a date-time (RFC 3339), e.g. "2025-08-08T10:00:00Z" (got "soon")"#,
        ]
    );
}
