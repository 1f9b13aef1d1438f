//! `schemavm::mcp`: the MCP result shapes for invalid, unvalidated and
//! uncompilable calls, their order and bounds, and masking.

use schemavm::mcp::{self, TextLimits};
use schemavm::{Budget, Validator, ValidatorOptions};
use serde_json::{Value, json};

fn schema() -> Value {
    serde_json::from_str(include_str!("../examples/issue-tool.schema.json")).unwrap()
}

fn invalid_instance() -> Value {
    serde_json::from_str(include_str!("../examples/issue-tool.invalid.json")).unwrap()
}

fn text_of(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap()
}

fn validator(options: ValidatorOptions) -> Validator {
    options.build(&schema()).unwrap()
}

#[test]
fn invalid_arguments_is_an_error_result_in_location_order() {
    let v = validator(Validator::options());
    let errors: Vec<_> = v.iter_errors(&invalid_instance()).collect();
    let result = mcp::invalid_arguments(&errors);
    assert_eq!(
        result,
        json!({
            "resultType": "complete",
            "content": [{"type": "text", "text": concat!(
                "Invalid arguments: ",
                r#"$: missing required property "query"; "#,
                r#"$.labels: items must be unique (items 0 and 1 are equal); "#,
                r#"$.limit: must be at most 50 (got 120); "#,
                r#"$.sort: unknown property; allowed: labels, limit, query, state; "#,
                r#"$.state: must be one of ["open","closed","all"] (got "pending")"#
            )}],
            "isError": true
        })
    );
    // The order does not depend on the order of the errors given.
    let mut reversed = errors.clone();
    reversed.reverse();
    assert_eq!(mcp::invalid_arguments(&reversed), result);
    assert_eq!(mcp::check_arguments(&v, &invalid_instance()), Err(result));
    assert_eq!(mcp::check_arguments(&v, &json!({"query": "crash"})), Ok(()));
}

#[test]
fn masked_arguments_echo_no_values() {
    let v = validator(Validator::options().mask_values(true));
    let result = mcp::check_arguments(&v, &invalid_instance()).unwrap_err();
    let text = text_of(&result);
    assert!(text.contains("$.limit: must be at most 50 (got a number)"), "{text}");
    assert!(
        text.contains(r#"$.state: must be one of ["open","closed","all"] (got a string of 7 characters)"#),
        "{text}"
    );
    assert!(!text.contains("pending") && !text.contains("120"), "{text}");
}

#[test]
fn message_caps_apply_per_error() {
    let v = validator(Validator::options().max_message_len(30));
    let result = mcp::check_arguments(&v, &invalid_instance()).unwrap_err();
    for part in text_of(&result).trim_start_matches("Invalid arguments: ").split("; ") {
        assert!(part.len() <= 30, "{part}");
    }
}

/// Forty missing properties and a long list of allowed ones.
fn many_errors() -> (Validator, Value) {
    let names: Vec<String> = (0..40).map(|i| format!("field_{i:02}")).collect();
    let schema = json!({"required": names});
    (Validator::new(&schema).unwrap(), json!({}))
}

#[test]
fn long_lists_are_bounded_and_say_what_was_left_out() {
    let (v, instance) = many_errors();
    let errors: Vec<_> = v.iter_errors(&instance).collect();
    let text = text_of(&mcp::invalid_arguments(&errors)).to_string();
    assert_eq!(text.matches("missing required property").count(), 10, "{text}");
    assert!(text.ends_with(r#"$: missing required property "field_09"; and 30 more errors"#), "{text}");

    let tight = TextLimits { max_errors: 100, max_len: 200 };
    let text = text_of(&tight.invalid_arguments(&errors)).to_string();
    assert!(text.len() <= 200, "{} {text}", text.len());
    let shown = text.matches("missing required property").count();
    assert!(text.ends_with(&format!("; and {} more errors", 40 - shown)), "{text}");

    // One error longer than the whole budget is cut, never dropped.
    let tiny = TextLimits { max_errors: 5, max_len: 40 };
    let text = text_of(&tiny.invalid_arguments(&errors)).to_string();
    assert!(text.len() <= 40 && text.starts_with("Invalid arguments: $"), "{text}");

    // At least one error is listed, whatever max_errors says.
    let none = TextLimits { max_errors: 0, max_len: 2000 };
    assert!(text_of(&none.invalid_arguments(&errors)).ends_with("\"field_00\"; and 39 more errors"));
}

#[test]
fn the_error_limit_is_reported_as_more_errors() {
    let names: Vec<String> = (0..5).map(|i| format!("p{i}")).collect();
    let v = Validator::options().max_errors(2).build(&json!({"required": names})).unwrap();
    let result = mcp::check_arguments(&v, &json!({})).unwrap_err();
    assert_eq!(
        text_of(&result),
        r#"Invalid arguments: $: missing required property "p0"; $: missing required property "p1"; and more errors (the validator stops listing at 2)"#
    );
}

#[test]
fn an_exhausted_budget_is_not_called_invalid() {
    let tight = Validator::options().budget(Budget { fuel: 5, ..Budget::default() });
    let v = tight.build(&json!({"type": "array", "items": {"type": "string"}})).unwrap();
    let instance = json!(vec!["a"; 100]);
    let expected = json!({
        "resultType": "complete",
        "content": [{"type": "text", "text": "The arguments were not validated, so the tool did not run: the fuel budget ran out after 5 units of fuel (the server can raise Budget::fuel). This is a limit of the server's validator, not an error in the arguments."}],
        "isError": true
    });
    assert_eq!(mcp::check_arguments(&v, &instance), Err(expected.clone()));
    // The same from the errors of an unfinished validation.
    let errors: Vec<_> = v.iter_errors(&instance).collect();
    assert_eq!(mcp::invalid_arguments(&errors), expected);
    assert_eq!(mcp::not_validated(schemavm::Exhausted::Fuel, 5), expected);
    let depth = mcp::not_validated(schemavm::Exhausted::Depth, 1);
    assert!(
        text_of(&depth)
            .contains("evaluation nested too deeply after 1 unit of fuel (the server can raise Budget::max_depth)")
    );
}

/// A budget that decides "invalid" but runs out while listing the errors
/// (listing does not stop at the first failure): the result says invalid,
/// without a partial list that could hold errors of unfinished branches.
#[test]
fn invalid_with_a_list_cut_short_by_the_budget() {
    let schema = json!({"type": "array", "items": {"anyOf": [{"type": "integer"}, {"type": "string"}]}});
    let instance = json!([null, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    let fuel = (1..500)
        .find(|&fuel| {
            let v = Validator::options().budget(Budget { fuel, ..Budget::default() }).build(&schema).unwrap();
            v.outcome(&instance) == schemavm::Outcome::Invalid
                && v.iter_errors(&instance).any(|e| e.is_budget_exceeded())
        })
        .expect("some budget decides but cannot list");
    let v = Validator::options().budget(Budget { fuel, ..Budget::default() }).build(&schema).unwrap();
    let result = mcp::check_arguments(&v, &instance).unwrap_err();
    assert_eq!(result["isError"], true);
    assert_eq!(text_of(&result), "Invalid arguments; the details could not be listed within the validation budget");
    let rpc = mcp::check_structured_content(&v, "list", &instance).unwrap_err();
    assert_eq!(rpc["code"], -32602);
}

#[test]
fn structured_content_mismatch_is_a_json_rpc_error() {
    let output = json!({"type": "object", "properties": {"total": {"type": "integer"}}, "required": ["total"]});
    let v = Validator::new(&output).unwrap();
    let content = json!({"total": "12"});
    let errors: Vec<_> = v.iter_errors(&content).collect();
    let expected = json!({
        "code": -32602,
        "message": "Structured content does not match the tool's output schema (tool \"search_issues\"): $.total: must be an integer (got a string)"
    });
    assert_eq!(mcp::structured_content_mismatch("search_issues", &errors), expected);
    assert_eq!(mcp::check_structured_content(&v, "search_issues", &content), Err(expected));
    assert_eq!(mcp::check_structured_content(&v, "search_issues", &json!({"total": 12})), Ok(()));

    // A long or odd tool name is quoted and bounded.
    let name = format!("a\"b{}", "x".repeat(300));
    let message = mcp::structured_content_mismatch(&name, &errors)["message"].as_str().unwrap().to_string();
    assert!(message.contains(r#"(tool "a\"bxxx"#) && message.contains("…\"): $.total"), "{message}");
    assert!(message.len() < 250, "{message}");
}

#[test]
fn structured_content_not_validated_is_not_a_mismatch() {
    let v = Validator::options()
        .budget(Budget { fuel: 4, ..Budget::default() })
        .build(&json!({"items": {"type": "integer"}}))
        .unwrap();
    let result = mcp::check_structured_content(&v, "stats", &json!(vec![1; 50])).unwrap_err();
    assert_eq!(
        result,
        json!({
            "code": -32603,
            "message": "Structured content was not validated against the tool's output schema (tool \"stats\"): the fuel budget ran out after 4 units of fuel (raise Budget::fuel); this is a limit of the validator, not a mismatch"
        })
    );
}

#[test]
fn a_schema_that_does_not_compile_has_its_own_result() {
    let error = Validator::new(&json!({"$ref": "https://example.com/missing.json"})).unwrap_err();
    let result = mcp::schema_not_compiled("search_issues", &error);
    assert_eq!(result["isError"], true);
    assert_eq!(result["resultType"], "complete");
    let text = text_of(&result);
    assert!(
        text.starts_with(
            r#"The tool's schema could not be compiled, so the call was not made (tool "search_issues"): "#
        ),
        "{text}"
    );
    assert!(text.contains("cannot resolve reference") && text.ends_with("not with the arguments."), "{text}");
    let short = TextLimits { max_errors: 10, max_len: 100 }.schema_not_compiled("search_issues", &error);
    assert!(text_of(&short).len() <= 100 && text_of(&short).ends_with('…'));
}
