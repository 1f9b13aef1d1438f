//! The `schemavm` binary on the bundled examples and on bad input, and its
//! output formats.

use serde_json::{Value, json};

mod common;
use common::{schemavm, stderr, stdout};

#[test]
fn valid_instance_prints_valid_and_exits_0() {
    let o = schemavm(&["validate", "--schema", "examples/issue-tool.schema.json", "examples/issue-tool.valid.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "valid\n");
}

#[test]
fn invalid_instance_prints_each_error_and_exits_1() {
    let o = schemavm(&["validate", "--schema", "examples/issue-tool.schema.json", "examples/issue-tool.invalid.json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("invalid\n"), "{out}");
    for expected in [
        r#"$.state: must be one of ["open","closed","all"] (got "pending")  [/properties/state/enum]"#,
        "$.limit: must be at most 50 (got 120)  [/properties/limit/maximum]",
        r#"$: missing required property "query"  [/required]"#,
        "$.sort: unknown property; allowed: labels, limit, query, state  [/additionalProperties]",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in\n{out}");
    }
}

#[test]
fn several_instances_are_named() {
    let o = schemavm(&[
        "validate",
        "--schema",
        "examples/issue-tool.schema.json",
        "examples/issue-tool.valid.json",
        "examples/issue-tool.invalid.json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("examples/issue-tool.valid.json: valid\n"), "{out}");
    assert!(out.contains("examples/issue-tool.invalid.json: invalid\n"), "{out}");
}

#[test]
fn bad_inputs_exit_2_with_file_and_position() {
    let dir = std::env::temp_dir().join(format!("schemavm-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let malformed = dir.join("malformed.json");
    std::fs::write(&malformed, "{\n  \"type\": \"object\",\n  oops\n}").unwrap();
    let o = schemavm(&["validate", "--schema", malformed.to_str().unwrap(), "examples/issue-tool.valid.json"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("malformed.json: malformed JSON") && err.contains("line 3 column 3"), "{err}");

    let o = schemavm(&["validate", "--schema", "examples/missing.json", "examples/issue-tool.valid.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("examples/missing.json: cannot read"), "{}", stderr(&o));

    let bad_schema = dir.join("bad-schema.json");
    std::fs::write(&bad_schema, r#"{"$ref": "https://example.com/elsewhere.json"}"#).unwrap();
    let o = schemavm(&["validate", "--schema", bad_schema.to_str().unwrap(), "examples/issue-tool.valid.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot resolve reference \"https://example.com/elsewhere.json\""), "{}", stderr(&o));

    let o = schemavm(&["validate", "examples/issue-tool.valid.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("validate needs --schema"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn draft_option_selects_the_dialect() {
    let dir = std::env::temp_dir().join(format!("schemavm-cli-draft-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Under draft-04, `exclusiveMaximum: true` makes `maximum` exclusive.
    let schema = dir.join("s.json");
    std::fs::write(&schema, r#"{"maximum": 3, "exclusiveMaximum": true}"#).unwrap();
    let three = dir.join("three.json");
    std::fs::write(&three, "3").unwrap();
    let o = schemavm(&["validate", "--draft", "4", "--schema", schema.to_str().unwrap(), three.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let o = schemavm(&["validate", "--draft", "9", "--schema", schema.to_str().unwrap(), three.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn explain_prints_the_program_and_its_bounds() {
    let o = schemavm(&["explain", "examples/issue-tool.schema.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("dialect 2020-12"), "{out}");
    assert!(out.contains("cost bounds: root fan-out"), "{out}");
    assert!(out.contains("node 0 (root)"), "{out}");
    assert!(out.contains("additionalProperties=@"), "{out}");

    let dir = std::env::temp_dir().join(format!("schemavm-cli-explain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let looped = dir.join("loop.json");
    std::fs::write(&looped, r##"{"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}"##).unwrap();
    let o = schemavm(&["explain", looped.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("unguarded recursion"), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn corpus_command_runs_a_case() {
    let o = schemavm(&["corpus", "fuzz/malicious/ref-self-loop.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("ok     ref-self-loop"), "{out}");
    assert!(out.contains("1 cases, 0 failed"), "{out}");
}

// `--output text|mcp|<standard format>` and the message options.

const SCHEMA: &str = "examples/issue-tool.schema.json";
const VALID: &str = "examples/issue-tool.valid.json";
const INVALID: &str = "examples/issue-tool.invalid.json";

/// A scratch directory for this test binary.
fn scratch(name: &str, contents: &str) -> String {
    let dir = std::env::temp_dir().join(format!("schemavm-cli-output-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn mcp_output_is_a_json_line_per_instance() {
    let o = schemavm(&["validate", "--schema", SCHEMA, "--output", "mcp", INVALID, VALID]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0]["isError"], true);
    assert_eq!(lines[0]["resultType"], "complete");
    let text = lines[0]["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with(r#"Invalid arguments: $: missing required property "query"; $.labels"#), "{text}");
    assert_eq!(lines[1], Value::Null);

    let o = schemavm(&["validate", "--schema", SCHEMA, "--output=mcp", VALID]);
    assert_eq!((o.status.code(), stdout(&o)), (Some(0), "null\n".to_string()));
}

#[test]
fn text_output_is_the_default_and_honours_masking_and_caps() {
    let o = schemavm(&["validate", "--schema", SCHEMA, "--output", "text", "--mask-values", INVALID]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.starts_with("invalid\n"), "{out}");
    assert!(out.contains("  $.limit: must be at most 50 (got a number)  [/properties/limit/maximum]"), "{out}");
    assert!(!out.contains("pending") && !out.contains("120"), "{out}");

    let o = schemavm(&["validate", "--schema", SCHEMA, "--max-message-len", "20", "--max-errors", "2", INVALID]);
    let out = stdout(&o);
    let errors: Vec<&str> = out.lines().skip(1).map(|l| l.trim_start().split("  [").next().unwrap()).collect();
    assert_eq!(errors.len(), 3, "{out}");
    assert!(errors.iter().all(|e| e.len() <= 20), "{out}");
    assert!(errors.iter().all(|e| e.ends_with('…')), "{out}");
}

#[test]
fn budget_and_schema_failures_in_mcp_output() {
    // A backreference forces the backtracking engine past its limit.
    let schema = scratch("redos.json", r#"{"properties": {"name": {"pattern": "^(a*)*\\1b"}}}"#);
    let instance = scratch("long.json", &format!(r#"{{"name": "{}"}}"#, "a".repeat(5000)));
    let o = schemavm(&["validate", "--schema", &schema, "--output", "mcp", &instance]);
    assert_eq!(o.status.code(), Some(3), "{}", String::from_utf8_lossy(&o.stderr));
    let line: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(line["isError"], json!(true));
    let text = line["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("The arguments were not validated, so the tool did not run: a regular expression"),
        "{text}"
    );
    assert!(text.contains("Limits::regex.backtrack_limit") && !text.contains("Invalid"), "{text}");

    let bad = scratch("search_issues.json", r#"{"$ref": "https://example.com/elsewhere.json"}"#);
    let o = schemavm(&["validate", "--schema", &bad, "--output", "mcp", VALID]);
    assert_eq!(o.status.code(), Some(2));
    let line: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(line["isError"], json!(true));
    let text = line["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with(r#"The tool's schema could not be compiled, so the call was not made (tool "search_issues")"#)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot resolve reference"));
}

#[test]
fn standard_output_formats_are_a_json_line_per_instance() {
    for format in ["flag", "basic", "detailed", "verbose", "list", "hierarchical"] {
        let o = schemavm(&["validate", "--schema", SCHEMA, "--output", format, INVALID, VALID]);
        assert_eq!(o.status.code(), Some(1), "{format}: {}", stderr(&o));
        let out = stdout(&o);
        let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 2, "{format}: {out}");
        assert_eq!((&lines[0]["valid"], &lines[1]["valid"]), (&json!(false), &json!(true)), "{format}: {out}");
    }
    let o = schemavm(&["validate", "--schema", SCHEMA, "--output", "basic", "--mask-values", INVALID]);
    let basic: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let errors = basic["errors"].as_array().unwrap();
    let limit = errors.iter().find(|e| e["keywordLocation"] == json!("/properties/limit/maximum")).unwrap();
    assert_eq!(limit["instanceLocation"], json!("/limit"));
    assert_eq!(limit["error"], json!("must be at most 50 (got a number)"));
    let o = schemavm(&["validate", "--schema", SCHEMA, "--output", "flag", VALID]);
    assert_eq!((o.status.code(), stdout(&o)), (Some(0), "{\"valid\":true}\n".to_string()));
}

#[test]
fn standard_output_reports_budget_exhaustion_without_a_verdict() {
    let schema = scratch("redos-standard.json", r#"{"properties": {"name": {"pattern": "^(a*)*\\1b"}}}"#);
    let instance = scratch("long-standard.json", &format!(r#"{{"name": "{}"}}"#, "a".repeat(5000)));
    let o = schemavm(&["validate", "--schema", &schema, "--output", "basic", &instance]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let line: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert!(line.get("valid").is_none(), "{line}");
    assert!(line["notEvaluated"].as_str().unwrap().contains("a regular expression hit its backtracking limit"));
}

#[test]
fn other_output_names_are_refused_with_the_supported_ones() {
    for name in ["json", "hierarchy", "Basic"] {
        let o = schemavm(&["validate", "--schema", SCHEMA, "--output", name, VALID]);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        let supported = "(supported: text, mcp, flag, basic, detailed, verbose, list, hierarchical)";
        assert!(err.contains(&format!("unknown --output \"{name}\" {supported}")), "{err}");
    }
    let o = schemavm(&["validate", "--schema", SCHEMA, "--max-errors", "many", VALID]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--max-errors needs a whole number"));
}
