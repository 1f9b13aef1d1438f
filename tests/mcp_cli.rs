//! `schemavm mcp lint|check|check-result` on the files in `examples/`.

use serde_json::{Value, json};

mod common;

const TOOLS: &str = "examples/mcp-tools.json";

/// Runs `schemavm mcp ARGS` from the crate root: (exit code, stdout,
/// stderr).
fn mcp(args: &[&str]) -> (i32, String, String) {
    let out = common::schemavm(&[&["mcp"], args].concat());
    (out.status.code().unwrap_or(-1), common::stdout(&out), common::stderr(&out))
}

fn json_out(stdout: &str) -> Value {
    serde_json::from_str(stdout).expect("one JSON document")
}

#[test]
fn lint_groups_by_tool_and_fails_on_errors() {
    let (code, stdout, _) = mcp(&["lint", TOOLS]);
    assert_eq!(code, 1);
    let expected = "\
tool \"get_report\" (#2):
  info[missing-description] /description: the tool has no description
    fix: describe what the tool does and when to use it: models choose tools by their descriptions
  warning[closed-output-schema] /outputSchema/additionalProperties: outputSchema is closed here: \
a backend that adds a field breaks strict clients
    fix: drop \"additionalProperties\": false / \"unevaluatedProperties\": false from outputSchema; \
keep declared fields required and typed
tool \"set_price\" (#3):
  warning[x-mcp-header] /inputSchema/properties/amount/x-mcp-header: x-mcp-header is on a `number` property; \
the tool is excluded from the usable set
    fix: put x-mcp-header only on string, integer or boolean properties reached through `properties` alone, \
with a unique RFC 9110 token as its value
tool \"bad name!\" (#4):
  error[tool-name] /name: the tool's name has the character \" \" outside [A-Za-z0-9_.-]
    fix: use 1 to 128 ASCII letters, digits, '_', '-' or '.'
1 error, 2 warnings, 1 info; 4 usable, 1 excluded
";
    assert_eq!(stdout, expected);
}

#[test]
fn lint_json_is_for_machines() {
    let (code, stdout, _) = mcp(&["lint", TOOLS, "--format", "json"]);
    assert_eq!(code, 1);
    let report = json_out(&stdout);
    assert_eq!(report["usable"], json!(["search_issues", "list_servers", "get_report", "bad name!"]));
    assert_eq!(report["excluded"], json!(["set_price"]));
    let rules: Vec<&str> =
        report["diagnostics"].as_array().into_iter().flatten().filter_map(|d| d["rule"].as_str()).collect();
    assert_eq!(rules, ["missing-description", "closed-output-schema", "x-mcp-header", "tool-name"]);
    assert_eq!(report["diagnostics"][3]["severity"], "error");
    assert_eq!(report["diagnostics"][3]["index"], 4);
}

#[test]
fn lint_passes_a_clean_listing() {
    let dir = std::env::temp_dir().join(format!("schemavm-mcp-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("tools.json");
    let tools =
        json!([{"name": "ok", "description": "d", "inputSchema": {"type": "object", "additionalProperties": false}}]);
    std::fs::write(&path, tools.to_string()).expect("written");
    let (code, stdout, _) = mcp(&["lint", path.to_str().unwrap_or_default()]);
    assert_eq!((code, stdout.as_str()), (0, "0 errors, 0 warnings, 0 info; 1 usable, 0 excluded\n"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn check_prints_the_call_tool_result_or_the_error() {
    let (code, stdout, _) =
        mcp(&["check", TOOLS, "--tool", "search_issues", "--arguments", "examples/mcp-arguments.invalid.json"]);
    assert_eq!(code, 1);
    assert_eq!(
        json_out(&stdout),
        json!({"resultType": "complete", "isError": true, "content": [{"type": "text", "text":
            "Invalid arguments: $.sort: unknown property; allowed: limit, query, state; \
             $.state: must be one of [\"open\",\"closed\",\"all\"] (got \"pending\")"}]})
    );
    let (code, stdout, _) =
        mcp(&["check", TOOLS, "--tool", "set_price", "--arguments", "examples/mcp-arguments.invalid.json"]);
    assert_eq!((code, json_out(&stdout)), (1, json!({"code": -32602, "message": "Unknown tool: set_price"})));
    let (code, _, stderr) = mcp(&["check", TOOLS, "--arguments", "examples/mcp-arguments.invalid.json"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: --tool is required"), "{stderr}");
}

#[test]
fn check_result_is_strict_unless_lenient() {
    let args = ["check-result", TOOLS, "--tool", "get_report", "--result", "examples/mcp-result.json"];
    let (code, stdout, _) = mcp(&args);
    assert_eq!(code, 1);
    assert_eq!(
        json_out(&stdout),
        json!({"code": -32602, "message": "Structured content does not match the tool's output schema \
            (tool \"get_report\"): $.generatedAt: unknown property; allowed: items, total"})
    );
    let (code, stdout, stderr) = mcp(&[&args[..], &["--lenient"]].concat());
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "null\n", ""));
    let (code, _, stderr) = mcp(&["nope"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: unknown mcp command \"nope\""), "{stderr}");
}
