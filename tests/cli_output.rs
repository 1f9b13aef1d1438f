//! `schemavm validate --output text|mcp` and the message options.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Value, json};

fn schemavm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_schemavm"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .output()
        .expect("the schemavm binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

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
fn other_output_names_are_refused_with_the_supported_ones() {
    for name in ["basic", "flag", "json"] {
        let o = schemavm(&["validate", "--schema", SCHEMA, "--output", name, VALID]);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(&format!("unknown --output \"{name}\" (supported: text, mcp)")), "{err}");
    }
    let o = schemavm(&["validate", "--schema", SCHEMA, "--max-errors", "many", VALID]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--max-errors needs a whole number"));
}
