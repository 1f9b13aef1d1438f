//! The validator options: formats, content, drafts, resources.

use schemavm::{CompileErrorKind, Draft, Validator};
use serde_json::json;

#[test]
fn formats_assert_by_draft_unless_told() {
    let bad = json!("not-an-ipv4");
    for (schema, asserted) in [
        (json!({"$schema": "http://json-schema.org/draft-07/schema#", "format": "ipv4"}), true),
        (json!({"$schema": "http://json-schema.org/draft-04/schema#", "format": "ipv4"}), true),
        (json!({"$schema": "https://json-schema.org/draft/2019-09/schema", "format": "ipv4"}), false),
        (json!({"format": "ipv4"}), false),
    ] {
        let v = Validator::new(&schema).unwrap();
        assert_eq!(v.is_valid(&bad), !asserted, "{schema}");
        let forced = Validator::options().assert_formats(true).build(&schema).unwrap();
        assert!(!forced.is_valid(&bad), "{schema}");
        let off = Validator::options().assert_formats(false).build(&schema).unwrap();
        assert!(off.is_valid(&bad), "{schema}");
    }
}

#[test]
fn unknown_formats_are_ignored_unless_strict() {
    let schema = json!({"format": "color"});
    assert!(Validator::options().assert_formats(true).build(&schema).unwrap().is_valid(&json!("x")));
    let err = Validator::options().strict_formats(true).build(&schema).unwrap_err();
    assert!(matches!(err.kind(), CompileErrorKind::UnknownFormat { name } if name == "color"), "{err}");
    assert!(err.to_string().contains("#/format"), "{err}");
}

#[test]
fn custom_formats_are_checked_and_override_builtins() {
    let v = Validator::options()
        .assert_formats(true)
        .format("even-length", |s: &str| s.len() % 2 == 0)
        .format("email", |s: &str| s.ends_with("@example.com"))
        .build(&json!({"properties": {"a": {"format": "even-length"}, "b": {"format": "email"}}}))
        .unwrap();
    assert!(v.is_valid(&json!({"a": "ab", "b": "x@example.com"})));
    assert!(!v.is_valid(&json!({"a": "abc"})));
    assert!(!v.is_valid(&json!({"b": "x@other.org"})));
    let strict =
        Validator::options().strict_formats(true).format("color", |_: &str| true).build(&json!({"format": "color"}));
    assert!(strict.is_ok());
}

#[test]
fn content_is_asserted_in_draft7_or_on_request() {
    let schema = json!({"contentMediaType": "application/json", "contentEncoding": "base64"});
    let not_base64 = json!("!!!");
    let base64_not_json = json!("bm90IGpzb24="); // "not json"
    let good = json!("eyJhIjogMX0="); // {"a": 1}
    let d7 = Validator::options().draft(Draft::Draft7).build(&schema).unwrap();
    assert!(!d7.is_valid(&not_base64));
    assert!(!d7.is_valid(&base64_not_json));
    assert!(d7.is_valid(&good));
    let d2020 = Validator::new(&schema).unwrap();
    assert!(d2020.is_valid(&not_base64), "annotation only from 2019-09");
    let asserted = Validator::options()
        .assert_content(true)
        .build(&json!({
            "contentMediaType": "application/json",
            "contentEncoding": "base64",
            "contentSchema": {"required": ["b"]}
        }))
        .unwrap();
    assert!(!asserted.is_valid(&good), "contentSchema applies to the decoded document");
    assert!(asserted.is_valid(&json!("eyJiIjogMX0="))); // {"b": 1}
}

#[test]
fn unknown_dialects_and_vocabularies_are_errors() {
    let err = Validator::new(&json!({"$schema": "https://example.com/my-dialect"})).unwrap_err();
    assert!(matches!(err.kind(), CompileErrorKind::UnknownDialect { .. }), "{err}");
    let meta = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/meta",
        "$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": true, "https://example.com/vocab/unknown": true}
    });
    let err = Validator::options()
        .resource("https://example.com/meta", meta)
        .build(&json!({"$schema": "https://example.com/meta"}))
        .unwrap_err();
    assert!(
        matches!(err.kind(), CompileErrorKind::UnknownVocabulary { uri } if uri == "https://example.com/vocab/unknown"),
        "{err}"
    );
}

#[test]
fn invalid_schemas_name_the_keyword() {
    let err = Validator::new(&json!({"properties": {"a": {"minimum": "3"}}})).unwrap_err();
    assert!(matches!(err.kind(), CompileErrorKind::InvalidSchema { .. }), "{err}");
    assert!(err.to_string().contains("/properties/a/minimum"), "{err}");
    let err = Validator::options()
        .skip_meta_validation(true)
        .build(&json!({"properties": {"a": {"minimum": "3"}}}))
        .unwrap_err();
    assert!(matches!(err.kind(), CompileErrorKind::InvalidKeyword { keyword, .. } if keyword == "minimum"), "{err}");
    assert_eq!(err.display_location(), "#/properties/a/minimum");
    let err = Validator::new(&json!({"pattern": "(?i)abc"})).unwrap_err();
    assert!(err.to_string().contains("pattern"), "{err}");
}

#[test]
fn unresolvable_references_are_errors_not_permissive() {
    let err = Validator::new(&json!({"properties": {"a": {"$ref": "other.json#/x"}}})).unwrap_err();
    match err.kind() {
        CompileErrorKind::UnresolvableReference { reference, resolved } => {
            assert_eq!(reference, "other.json#/x");
            assert_eq!(resolved, "json-schema:///other.json");
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(err.to_string().contains("ValidatorOptions::resource"), "{err}");
    let err = Validator::new(&json!({"$ref": "#/$defs/missing"})).unwrap_err();
    assert!(matches!(err.kind(), CompileErrorKind::UnresolvableReference { .. }), "{err}");
}

#[test]
fn registered_resources_resolve_without_io() {
    let v = Validator::options()
        .resource("https://example.com/defs.json", json!({"$defs": {"id": {"type": "integer", "minimum": 1}}}))
        .build(&json!({"$ref": "https://example.com/defs.json#/$defs/id"}))
        .unwrap();
    assert!(v.is_valid(&json!(1)));
    assert!(!v.is_valid(&json!(0)));
}
