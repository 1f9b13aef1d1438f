//! The reference side of the `differential` target (`jsonschema` 0.61,
//! default features off) and the known divergence classes between it and
//! schemavm. A class is a predicate on the schema and instance, never a
//! list of inputs; `fuzz/README.md` explains each.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

use serde_json::Value;

thread_local! {
    static IN_REFERENCE: Cell<bool> = const { Cell::new(false) };
}
static HOOK: Once = Once::new();

/// Installs (once) a panic hook that stays silent, and does not abort,
/// while the reference implementation runs: its panics are its own bugs,
/// not findings. Every other panic goes to the previous hook (libFuzzer's,
/// which aborts).
fn install_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_REFERENCE.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

/// `jsonschema`'s verdict (formats not asserted, like schemavm's side), or
/// `None` if it rejects the schema or panics.
pub fn reference_verdict(schema: &Value, instance: &Value) -> Option<bool> {
    install_hook();
    IN_REFERENCE.with(|f| f.set(true));
    let result = catch_unwind(AssertUnwindSafe(|| {
        let validator = jsonschema::options().should_validate_formats(false).build(schema).ok()?;
        Some(validator.is_valid(instance))
    }));
    IN_REFERENCE.with(|f| f.set(false));
    result.ok().flatten()
}

/// A known class of divergence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Divergence {
    /// The class's name, as in `fuzz/README.md`.
    pub class: &'static str,
}

/// The divergence class `schema`/`instance` belong to, if any (checked in
/// the order of `fuzz/README.md`).
pub fn classify(schema: &Value, instance: &Value) -> Option<Divergence> {
    let found = |class| Some(Divergence { class });
    let mut keys = Vec::new();
    collect_keys(schema, &mut keys);
    let has = |k: &str| keys.contains(&k);
    // ECMA-262 (schemavm) versus Rust-regex/fancy-regex dialect (jsonschema).
    if dialect_sensitive_patterns(schema) {
        return found("regex-dialect");
    }
    // Exact decimals (schemavm) versus f64 arithmetic (jsonschema).
    if imprecise_numbers(schema) || imprecise_numbers(instance) {
        return found("number-precision");
    }
    // `$dynamicRef` with a `$dynamicAnchor` that is not at the root of its
    // resource: jsonschema does not let such an anchor take part in the
    // dynamic-scope search (the spec scopes anchors by resource, wherever
    // they sit in it).
    if has("$dynamicRef") && embedded_dynamic_anchor(schema) {
        return found("dynamic-anchor-in-subschema");
    }
    // 2019-09's `unevaluatedItems` sees the annotations of `items`,
    // `additionalItems` and itself, not `contains` (2020-12 added it);
    // jsonschema counts `contains` in both.
    if has("contains") && has("unevaluatedItems") && draft_2019_09(schema) {
        return found("contains-2019-09");
    }
    // A `$schema` naming a known meta-schema with its scheme or host in
    // another case: the same URI (RFC 3986 §6.2.2.1), and the same dialect,
    // to schemavm; an unknown one to jsonschema.
    if meta_schema_in_other_case(schema) {
        return found("meta-schema-case");
    }
    // `"$ref": ""`, a reference to the current document (RFC 3986 §5.2:
    // the empty reference resolves to the base URI) to schemavm; jsonschema
    // applies nothing.
    if empty_reference(schema) {
        return found("empty-reference");
    }
    // Format checkers, the format-assertion vocabulary and content keywords.
    if has("format") || has("contentEncoding") || has("contentMediaType") || has("contentSchema") {
        return found("format-content");
    }
    None
}

/// Every object key in `value` (any depth), as `&str`.
fn collect_keys<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                for (k, v) in map {
                    out.push(k);
                    stack.push(v);
                }
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
}

/// Whether `test` holds for some object in `value` (any depth).
fn any_object(value: &Value, test: impl Fn(&serde_json::Map<String, Value>) -> bool) -> bool {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                if test(map) {
                    return true;
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}

/// Whether a `pattern` value or `patternProperties` key uses syntax whose
/// meaning differs between ECMA-262 and Rust regex dialects: an escape,
/// `.`, `$`, a class, a repetition brace, or a non-ASCII character (ECMA
/// unicode mode versus Rust's Unicode-aware `\w`, case folding, ...).
fn dialect_sensitive_patterns(schema: &Value) -> bool {
    let sensitive = |p: &str| p.chars().any(|c| matches!(c, '\\' | '.' | '$' | '[' | ']' | '{' | '}') || !c.is_ascii());
    any_object(schema, |map| {
        map.get("pattern").and_then(Value::as_str).is_some_and(sensitive)
            || map
                .get("patternProperties")
                .and_then(Value::as_object)
                .is_some_and(|props| props.keys().any(|p| sensitive(p)))
    })
}

/// Whether the schema declares draft 2019-09 at its root.
fn draft_2019_09(schema: &Value) -> bool {
    schema.get("$schema").and_then(Value::as_str).is_some_and(|s| s.contains("draft/2019-09/"))
}

/// Whether a `$schema` value (any depth) has an uppercase letter in its
/// scheme or host.
fn meta_schema_in_other_case(schema: &Value) -> bool {
    let other_case = |uri: &str| match uri.split_once("://") {
        Some((scheme, rest)) => {
            let host = rest.split('/').next().unwrap_or_default();
            scheme.bytes().chain(host.bytes()).any(|b| b.is_ascii_uppercase())
        }
        None => false,
    };
    any_object(schema, |map| map.get("$schema").and_then(Value::as_str).is_some_and(other_case))
}

/// Whether a `$ref` (any depth) is the empty string.
fn empty_reference(schema: &Value) -> bool {
    any_object(schema, |map| map.get("$ref").and_then(Value::as_str) == Some(""))
}

/// Whether a `$dynamicAnchor` sits in a subschema (not the document root)
/// that has no `$id` of its own.
fn embedded_dynamic_anchor(schema: &Value) -> bool {
    let mut stack: Vec<(&Value, bool)> = vec![(schema, true)];
    while let Some((v, root)) = stack.pop() {
        match v {
            Value::Object(map) => {
                if !root && map.contains_key("$dynamicAnchor") && !map.contains_key("$id") {
                    return true;
                }
                stack.extend(map.values().map(|v| (v, false)));
            }
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, false))),
            _ => {}
        }
    }
    false
}

/// Whether `value` holds a number that `f64` arithmetic cannot treat
/// exactly: a fraction, or a magnitude of 2^53 or more.
fn imprecise_numbers(value: &Value) -> bool {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) => {
                let imprecise = if let Some(i) = n.as_i64() {
                    i.unsigned_abs() >= 1 << 53
                } else if let Some(u) = n.as_u64() {
                    u >= 1 << 53
                } else {
                    let f = n.as_f64().unwrap_or(0.0);
                    f.fract() != 0.0 || f.abs() >= EXACT
                };
                if imprecise {
                    return true;
                }
            }
            Value::Object(map) => stack.extend(map.values()),
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}
