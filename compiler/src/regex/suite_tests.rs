//! Runs the official JSON-Schema-Test-Suite cases about regular expressions.
//!
//! Reads `tests/*/optional/ecmascript-regex.json`,
//! `tests/*/optional/non-bmp-regex.json`, `tests/*/optional/format/regex.json`,
//! `tests/*/optional/format/ecmascript-regex.json`, `tests/*/pattern.json` and
//! `tests/*/patternProperties.json`, and checks every case whose schema uses
//! only keywords this small interpreter understands (`type`, `pattern`,
//! `patternProperties`, boolean `additionalProperties`, `maximum`,
//! `format: "regex"`). The suite is located through the
//! `JSON_SCHEMA_TEST_SUITE` environment variable, else at
//! `../shared/JSON-Schema-Test-Suite` beside the workspace.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Regex, RegexLimits, check_syntax};

const FILES: [&str; 6] = [
    "optional/ecmascript-regex.json",
    "optional/non-bmp-regex.json",
    "optional/format/regex.json",
    "optional/format/ecmascript-regex.json",
    "pattern.json",
    "patternProperties.json",
];

fn suite_root() -> PathBuf {
    let root = std::env::var_os("JSON_SCHEMA_TEST_SUITE")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/JSON-Schema-Test-Suite"));
    assert!(
        root.join("tests").is_dir(),
        "JSON-Schema-Test-Suite not found at {}: clone https://github.com/json-schema-org/JSON-Schema-Test-Suite \
         there, or set JSON_SCHEMA_TEST_SUITE to a checkout",
        root.display()
    );
    root
}

/// Validates `instance` against `schema`; `None` if the schema uses a
/// keyword this interpreter does not know.
fn validate(schema: &Value, instance: &Value) -> Result<Option<bool>, String> {
    let object = match schema {
        Value::Bool(valid) => return Ok(Some(*valid)),
        Value::Object(object) => object,
        _ => return Ok(None),
    };
    let mut valid = true;
    for (keyword, value) in object {
        let keyword_valid = match keyword.as_str() {
            "$schema" | "description" => Some(true),
            "type" => type_matches(value, instance),
            "pattern" => match (value, instance) {
                (Value::String(pattern), Value::String(text)) => Some(is_match(pattern, text)?),
                (Value::String(_), _) => Some(true),
                _ => None,
            },
            "format" => match (value.as_str(), instance) {
                (Some("regex"), Value::String(text)) => Some(check_syntax(text).is_ok()),
                (Some("regex"), _) => Some(true),
                _ => None,
            },
            "maximum" => match (value.as_f64(), instance.as_f64()) {
                (Some(maximum), Some(number)) => Some(number <= maximum),
                (Some(_), None) => Some(true),
                _ => None,
            },
            "patternProperties" | "additionalProperties" => object_keywords(object, instance)?,
            _ => None,
        };
        match keyword_valid {
            None => return Ok(None),
            Some(keyword_valid) => valid &= keyword_valid,
        }
    }
    Ok(Some(valid))
}

fn type_matches(types: &Value, instance: &Value) -> Option<bool> {
    let one = |name: &str| match name {
        "string" => Some(instance.is_string()),
        "object" => Some(instance.is_object()),
        "array" => Some(instance.is_array()),
        "boolean" => Some(instance.is_boolean()),
        "null" => Some(instance.is_null()),
        "number" => Some(instance.is_number()),
        "integer" => Some(instance.as_f64().is_some_and(|n| n.fract() == 0.0)),
        _ => None,
    };
    match types {
        Value::String(name) => one(name),
        Value::Array(names) => names.iter().map(|n| n.as_str().and_then(one)).try_fold(false, |any, t| Some(any | t?)),
        _ => None,
    }
}

/// `patternProperties` and `additionalProperties` together.
fn object_keywords(schema: &serde_json::Map<String, Value>, instance: &Value) -> Result<Option<bool>, String> {
    let Value::Object(properties) = instance else {
        return Ok(Some(true));
    };
    let empty = serde_json::Map::new();
    let patterns = match schema.get("patternProperties") {
        None => &empty,
        Some(Value::Object(patterns)) => patterns,
        Some(_) => return Ok(None),
    };
    let additional = schema.get("additionalProperties").unwrap_or(&Value::Bool(true));
    let mut valid = true;
    for (name, value) in properties {
        let mut matched = false;
        for (pattern, subschema) in patterns {
            if is_match(pattern, name)? {
                matched = true;
                match validate(subschema, value)? {
                    None => return Ok(None),
                    Some(sub_valid) => valid &= sub_valid,
                }
            }
        }
        if !matched {
            match validate(additional, value)? {
                None => return Ok(None),
                Some(sub_valid) => valid &= sub_valid,
            }
        }
    }
    Ok(Some(valid))
}

fn is_match(pattern: &str, text: &str) -> Result<bool, String> {
    let re = Regex::new(pattern, &RegexLimits::default()).map_err(|e| format!("{pattern:?} does not compile: {e}"))?;
    re.is_match(text).map_err(|e| format!("{pattern:?} on {text:?}: {e}"))
}

#[test]
fn official_suite_regex_cases() {
    let root = suite_root();
    let mut checked = 0usize;
    let mut skipped = 0usize;
    let mut failures = Vec::new();
    let mut drafts: Vec<PathBuf> = match std::fs::read_dir(root.join("tests")) {
        Ok(entries) => entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect(),
        Err(e) => panic!("cannot read {}: {e}", root.display()),
    };
    drafts.sort();
    for draft in &drafts {
        for file in FILES {
            let path = draft.join(file);
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let groups: Value = match serde_json::from_str(&text) {
                Ok(groups) => groups,
                Err(e) => panic!("{}: {e}", path.display()),
            };
            for group in groups.as_array().into_iter().flatten() {
                let schema = &group["schema"];
                for case in group["tests"].as_array().into_iter().flatten() {
                    let label = format!(
                        "{}: {} / {}",
                        path.strip_prefix(&root).unwrap_or(&path).display(),
                        group["description"],
                        case["description"]
                    );
                    match validate(schema, &case["data"]) {
                        Ok(None) => skipped += 1,
                        Ok(Some(valid)) => {
                            checked += 1;
                            if Some(valid) != case["valid"].as_bool() {
                                failures.push(format!("{label}: expected valid = {}", case["valid"]));
                            }
                        }
                        Err(e) => {
                            checked += 1;
                            failures.push(format!("{label}: {e}"));
                        }
                    }
                }
            }
        }
    }
    println!("JSON-Schema-Test-Suite: {checked} regex cases checked, {skipped} skipped, {} failed", failures.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(checked > 500, "only {checked} cases were checked: is the suite complete?");
}
