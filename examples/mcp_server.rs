//! An rmcp server whose tool calls schemavm validates: arguments against
//! each tool's `inputSchema` before the handler runs, and the handlers'
//! `structuredContent` against their `outputSchema` (leniently) before it
//! leaves.
//!
//! ```text
//! cargo run --example mcp_server    # serves MCP over stdio
//! ```
//!
//! Three tools: `find_issue` (arguments with `oneOf`), `list_servers` (an
//! argument mirrored into the `Mcp-Param-Region` header) and `forecast`
//! (an `outputSchema`, and a backend that has grown a field the schema
//! does not declare). `tests/mcp_rmcp.rs` runs a real rmcp client against
//! this server over an in-process transport.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rmcp::handler::server::common::schema_for_output;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use schemavm::mcp::Strictness;
use schemavm::mcp::rmcp::ServerGuard;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// `find_issue`'s arguments: a repository, and the issue by number or by
/// title (a `oneOf` on the `by` tag).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct FindIssue {
    /// The repository, as `owner/name`.
    #[schemars(regex(pattern = r"^[\w.-]+/[\w.-]+$"))]
    pub repo: String,
    /// How the issue is named.
    #[serde(flatten)]
    pub key: IssueKey,
}

/// An issue by number or by title.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum IssueKey {
    /// By number.
    Number {
        /// The issue number.
        #[schemars(range(min = 1))]
        number: u32,
    },
    /// By exact title.
    Title {
        /// The issue title.
        #[schemars(length(min = 1))]
        title: String,
    },
}

/// `list_servers`' arguments; `region` is mirrored into the
/// `Mcp-Param-Region` HTTP header.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListServers {
    /// The region, e.g. `eu-west`.
    #[schemars(extend("x-mcp-header" = "Region"))]
    pub region: String,
    /// At most this many servers.
    #[schemars(range(min = 1, max = 50))]
    pub limit: Option<u32>,
}

/// `forecast`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForecastRequest {
    /// The city.
    pub city: String,
}

/// `forecast`'s declared output (closed: the schema says
/// `additionalProperties: false`).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Forecast {
    /// The city.
    pub city: String,
    /// Temperature in degrees Celsius.
    pub celsius: f64,
}

/// The server: its tools, the schemavm guard built from them, and a count
/// of handler runs (for the test to see which calls reached a handler).
#[derive(Clone)]
pub struct Server {
    tool_router: ToolRouter<Self>,
    guard: Arc<ServerGuard>,
    /// How many times a tool handler ran.
    pub handler_runs: Arc<AtomicUsize>,
}

impl Default for Server {
    fn default() -> Self {
        let tool_router = Self::tool_router();
        let guard = ServerGuard::new(&tool_router.list_all()).check_output(Strictness::Lenient);
        Server { tool_router, guard: Arc::new(guard), handler_runs: Arc::default() }
    }
}

#[tool_router]
impl Server {
    /// Finds an issue of a repository by number or by title.
    #[tool]
    async fn find_issue(&self, Parameters(args): Parameters<FindIssue>) -> String {
        self.handler_runs.fetch_add(1, Ordering::SeqCst);
        match args.key {
            IssueKey::Number { number } => format!("{}#{number}: Crash on empty input", args.repo),
            IssueKey::Title { title } => format!("{}#7: {title}", args.repo),
        }
    }

    /// Lists the servers of a region.
    #[tool]
    async fn list_servers(&self, Parameters(args): Parameters<ListServers>) -> String {
        self.handler_runs.fetch_add(1, Ordering::SeqCst);
        let limit = args.limit.unwrap_or(2);
        (1..=limit).map(|i| format!("{}-{i}", args.region)).collect::<Vec<_>>().join(", ")
    }

    /// Today's forecast for a city. The backend has grown a `station`
    /// field that the output schema does not declare; for "Atlantis" it
    /// breaks a declared field.
    #[tool(output_schema = schema_for_output::<Forecast>())]
    async fn forecast(&self, Parameters(args): Parameters<ForecastRequest>) -> CallToolResult {
        self.handler_runs.fetch_add(1, Ordering::SeqCst);
        let celsius = if args.city == "Atlantis" { json!("unknown") } else { json!(21.5) };
        CallToolResult::structured(json!({"city": args.city, "celsius": celsius, "station": "ENGM"}))
    }
}

#[tool_handler]
impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.guard
            .call_tool(request, |request| self.tool_router.call(ToolCallContext::new(self, request, context)))
            .await
    }
}

// The integration test includes this file as a module and serves it over
// an in-process transport instead of stdio.
#[cfg_attr(test, allow(dead_code))]
#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Server::default();
    for diagnostic in server.guard.tool_set().diagnostics() {
        eprintln!("{}: {diagnostic}", diagnostic.tool.as_deref().unwrap_or("(listing)"));
    }
    let running = server.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
