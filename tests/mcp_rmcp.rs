//! End to end: a real rmcp client against the example rmcp server
//! (`examples/mcp_server.rs`), over an in-process transport.

#[path = "../examples/mcp_server.rs"]
mod example;

use std::sync::atomic::Ordering;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use schemavm::mcp::Strictness;
use schemavm::mcp::rmcp::CheckedClient;
use serde_json::{Value, json};

type Client = RunningService<RoleClient, ()>;

/// Starts the example server and a client connected to it.
async fn connect() -> (Client, example::Server) {
    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    let server = example::Server::default();
    let serving = server.clone();
    tokio::spawn(async move {
        if let Ok(running) = serving.serve(server_side).await {
            let _ = running.waiting().await;
        }
    });
    let client = ().serve(client_side).await.expect("client connects");
    (client, server)
}

fn params(name: &'static str, arguments: Value) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new(name);
    params.arguments = arguments.as_object().cloned();
    params
}

fn text(result: &CallToolResult) -> String {
    let value = serde_json::to_value(result).expect("serializable");
    value.pointer("/content/0/text").and_then(Value::as_str).unwrap_or_default().to_string()
}

#[tokio::test]
async fn invalid_arguments_are_an_is_error_result_and_the_handler_does_not_run() {
    let (client, server) = connect().await;
    let result = client
        .call_tool(params("find_issue", json!({"repo": "schemavm/schemavm", "by": "number", "number": "seven"})))
        .await
        .expect("a result, not a protocol error");
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        text(&result),
        "Invalid arguments: $: matched none of 2 alternatives (exactly one must match); closest is #0; \
         $.number: must be an integer (got a string)"
    );
    let result = client
        .call_tool(params("list_servers", json!({"region": "eu-west", "limit": 500, "zone": "b"})))
        .await
        .expect("a result");
    assert_eq!(
        text(&result),
        "Invalid arguments: $.limit: must be at most 50 (got 500); $.zone: unknown property; allowed: limit, region"
    );
    assert_eq!(server.handler_runs.load(Ordering::SeqCst), 0, "no handler ran");
    let error = client.call_tool(params("no_such_tool", json!({}))).await.expect_err("a protocol error");
    let ServiceError::McpError(error) = error else { panic!("not an MCP error: {error:?}") };
    assert_eq!((error.code.0, error.message.as_ref()), (-32602, "Unknown tool: no_such_tool"));
    client.cancel().await.expect("closes");
}

#[tokio::test]
async fn valid_arguments_reach_the_handler() {
    let (client, server) = connect().await;
    let result = client
        .call_tool(params("find_issue", json!({"repo": "schemavm/schemavm", "by": "title", "title": "Lenient mode"})))
        .await
        .expect("a result");
    assert_eq!((result.is_error, text(&result)), (Some(false), "schemavm/schemavm#7: Lenient mode".to_string()));
    let result = client.call_tool(params("list_servers", json!({"region": "eu-west"}))).await.expect("a result");
    assert_eq!(text(&result), "eu-west-1, eu-west-2");
    assert_eq!(server.handler_runs.load(Ordering::SeqCst), 2);
    client.cancel().await.expect("closes");
}

#[tokio::test]
async fn extra_structured_fields_fail_strict_clients_and_pass_lenient_ones() {
    let (client, _server) = connect().await;
    let strict = CheckedClient::list(client.peer(), Strictness::Strict).await.expect("tools/list");
    let lenient = CheckedClient::list(client.peer(), Strictness::Lenient).await.expect("tools/list");
    assert_eq!(strict.tool_set().names().collect::<Vec<_>>(), ["find_issue", "forecast", "list_servers"]);
    assert!(
        strict.tool_set().diagnostics().iter().any(|d| d.rule == "closed-output-schema"),
        "the closed output schema is flagged"
    );

    let error = strict.call_tool(client.peer(), params("forecast", json!({"city": "Oslo"}))).await.expect_err("strict");
    let ServiceError::McpError(error) = error else { panic!("not an MCP error: {error:?}") };
    assert_eq!(error.code.0, -32602);
    assert_eq!(
        error.message,
        "Structured content does not match the tool's output schema (tool \"forecast\"): \
         $.station: unknown property; allowed: celsius, city"
    );

    let error = strict.call_tool(client.peer(), params("no_such_tool", json!({}))).await.expect_err("not listed");
    let ServiceError::McpError(error) = error else { panic!("not an MCP error: {error:?}") };
    assert_eq!((error.code.0, error.message.as_ref()), (-32602, "Unknown tool: no_such_tool"));

    let result = lenient.call_tool(client.peer(), params("forecast", json!({"city": "Oslo"}))).await.expect("lenient");
    assert_eq!(result.structured_content, Some(json!({"city": "Oslo", "celsius": 21.5, "station": "ENGM"})));

    // The server's own (lenient) output check stops a declared field of
    // the wrong type before it leaves.
    let error = client.call_tool(params("forecast", json!({"city": "Atlantis"}))).await.expect_err("server fault");
    let ServiceError::McpError(error) = error else { panic!("not an MCP error: {error:?}") };
    assert_eq!(error.code.0, -32603);
    assert!(error.message.ends_with("$.celsius: must be an integer or a number (got a string)"), "{}", error.message);
    client.cancel().await.expect("closes");
}

#[tokio::test]
async fn the_header_argument_is_mirrored() {
    let (client, _server) = connect().await;
    let checked = CheckedClient::list(client.peer(), Strictness::Strict).await.expect("tools/list");
    let tools = checked.tool_set();
    let arguments = json!({"region": "eu-west"});
    let headers = tools.headers_for("list_servers", &arguments).expect("known tool");
    assert_eq!(headers, [("Mcp-Param-Region".to_string(), "eu-west".to_string())]);
    assert!(tools.check_headers("list_servers", [("mcp-param-region", "eu-west")], &arguments).is_ok());
    let mismatch = tools.check_headers("list_servers", [("Mcp-Param-Region", "us-east")], &arguments).unwrap_err();
    assert_eq!(mismatch["code"], -32020);
    client.cancel().await.expect("closes");
}
