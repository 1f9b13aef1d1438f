//! Validation for servers and clients built on [`rmcp`], the official
//! Rust MCP SDK (feature `rmcp`).
//!
//! rmcp deserializes arguments with serde and checks nothing against the
//! tools' schemas. Here:
//! - [`ServerGuard`], for a server: checks `tools/call` arguments against
//!   the tool's `inputSchema` before the handler runs (invalid arguments
//!   get the model-readable `isError` result and the handler is not
//!   called), and optionally the handler's `structuredContent` against its
//!   `outputSchema` before the result leaves. Use it in a `call_tool`
//!   override of the `#[tool_handler]` impl:
//!
//! ```
//! use rmcp::handler::server::{router::tool::ToolRouter, tool::ToolCallContext, wrapper::Parameters};
//! use rmcp::model::{CallToolRequestParams, CallToolResponse};
//! use rmcp::service::RequestContext;
//! use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router};
//! use schemavm::mcp::rmcp::ServerGuard;
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Echo {
//!     text: String,
//! }
//!
//! struct Server {
//!     tool_router: ToolRouter<Self>,
//!     guard: ServerGuard,
//! }
//!
//! #[tool_router]
//! impl Server {
//!     fn new() -> Self {
//!         let tool_router = Self::tool_router();
//!         Server { guard: ServerGuard::new(&tool_router.list_all()), tool_router }
//!     }
//!
//!     /// Echoes its text.
//!     #[tool]
//!     async fn echo(&self, Parameters(echo): Parameters<Echo>) -> String {
//!         echo.text
//!     }
//! }
//!
//! #[tool_handler]
//! impl ServerHandler for Server {
//!     async fn call_tool(
//!         &self,
//!         request: CallToolRequestParams,
//!         context: RequestContext<RoleServer>,
//!     ) -> Result<CallToolResponse, ErrorData> {
//!         let run = |request| self.tool_router.call(ToolCallContext::new(self, request, context));
//!         self.guard.call_tool(request, run).await
//!     }
//! }
//! # let _ = Server::new();
//! ```
//! - [`CheckedClient`], for a client: keeps the [`ToolSet`] of the
//!   server's `tools/list` (all pages) and checks every `call_tool`
//!   result, [strictly or leniently](Strictness); a mismatch is the
//!   JSON-RPC `-32602` error, returned as [`ServiceError::McpError`].
//!
//! `examples/mcp_server.rs` is a complete server, and
//! `tests/mcp_rmcp.rs` runs a real client against it.

use std::future::Future;

use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode, ErrorData, Tool};
use rmcp::service::{Peer, RoleClient, ServiceError};
use serde_json::Value;

use super::{INTERNAL_ERROR, Rejection, Strictness, ToolSet, ToolSetBuilder};

impl ToolSetBuilder {
    /// Appends rmcp tool definitions (e.g. `Self::tool_router().list_all()`
    /// on a server, or `peer.list_all_tools()` on a client).
    pub fn rmcp_tools(self, tools: &[Tool]) -> Self {
        // Serializing plain data cannot fail; if it ever did, `Null` is
        // reported as a listing error instead of being dropped silently.
        self.listing(&serde_json::to_value(tools).unwrap_or(Value::Null))
    }
}

/// A JSON-RPC error object from [`ToolSet`] as rmcp's [`ErrorData`].
fn error_data(error: Value) -> ErrorData {
    let code = error.get("code").and_then(Value::as_i64).and_then(|c| i32::try_from(c).ok());
    let message = error.get("message").and_then(Value::as_str).unwrap_or("invalid tool call").to_string();
    ErrorData::new(ErrorCode(code.unwrap_or(INTERNAL_ERROR as i32)), message, None)
}

/// A `CallToolResult` from [`ToolSet`] as rmcp's [`CallToolResult`].
fn call_tool_result(result: Value) -> CallToolResult {
    let text = result.pointer("/content/0/text").and_then(Value::as_str).unwrap_or("invalid tool call").to_string();
    serde_json::from_value(result).unwrap_or_else(|_| CallToolResult::error(vec![ContentBlock::text(text)]))
}

/// [`ToolSet::check_structured`] on an rmcp result.
fn check_structured(
    tools: &ToolSet,
    name: &str,
    result: &CallToolResult,
    strictness: Strictness,
) -> Result<(), ErrorData> {
    // Serializing plain data cannot fail; `Null` would be refused as "not
    // a CallToolResult", never accepted.
    let value = serde_json::to_value(result).unwrap_or(Value::Null);
    tools.check_structured(name, &value, strictness).map_err(error_data)
}

/// Server-side validation of `tools/call` for an rmcp server. Build it
/// from the server's tools; `Send + Sync`, so it can live in the server.
#[derive(Debug)]
pub struct ServerGuard {
    tools: ToolSet,
    output: Option<Strictness>,
}

impl ServerGuard {
    /// A guard for `tools` (e.g. `Self::tool_router().list_all()`), with
    /// default validator options; output is not checked.
    pub fn new(tools: &[Tool]) -> ServerGuard {
        ServerGuard::from_tool_set(ToolSet::builder().rmcp_tools(tools).build())
    }

    /// A guard for an already built set (custom options, masking ...).
    pub fn from_tool_set(tools: ToolSet) -> ServerGuard {
        ServerGuard { tools, output: None }
    }

    /// Also checks each handler's `structuredContent` against the tool's
    /// `outputSchema`, in `strictness`, before the result leaves; a
    /// mismatch is a JSON-RPC `-32603` error (a server fault) carrying the
    /// mismatch message.
    pub fn check_output(mut self, strictness: Strictness) -> ServerGuard {
        self.output = Some(strictness);
        self
    }

    /// The compiled tools.
    pub fn tool_set(&self) -> &ToolSet {
        &self.tools
    }

    /// Checks the request's arguments (absent ones count as `{}`; they
    /// are moved out and back, never copied): `Ok(())` to run the handler;
    /// else the response to send instead, an `isError` result or, for an
    /// unknown tool, the `-32602` error.
    pub fn check_request(&self, request: &mut CallToolRequestParams) -> Result<(), Result<CallToolResult, ErrorData>> {
        let absent = request.arguments.is_none();
        let arguments = Value::Object(request.arguments.take().unwrap_or_default());
        let checked = self.tools.check_arguments(&request.name, &arguments);
        if let Value::Object(arguments) = arguments {
            request.arguments = (!absent).then_some(arguments);
        }
        checked.map_err(|rejection| match rejection {
            Rejection::Protocol(error) => Err(error_data(error)),
            Rejection::ToolError(result) => Ok(call_tool_result(result)),
        })
    }

    /// Checks a handler's result against the tool's `outputSchema` when
    /// [`ServerGuard::check_output`] is on.
    pub fn check_result(&self, name: &str, result: &CallToolResult) -> Result<(), ErrorData> {
        let Some(strictness) = self.output else { return Ok(()) };
        check_structured(&self.tools, name, result, strictness).map_err(|mut error| {
            error.code = ErrorCode(INTERNAL_ERROR as i32);
            error
        })
    }

    /// Runs `handler` if the arguments are valid, then checks its result:
    /// the whole of a `call_tool` override.
    pub async fn call_tool<F, Fut>(
        &self,
        mut request: CallToolRequestParams,
        handler: F,
    ) -> Result<CallToolResponse, ErrorData>
    where
        F: FnOnce(CallToolRequestParams) -> Fut,
        Fut: Future<Output = Result<CallToolResponse, ErrorData>>,
    {
        if let Err(response) = self.check_request(&mut request) {
            return response.map(CallToolResponse::Complete);
        }
        let name = request.name.clone();
        let response = handler(request).await?;
        if let CallToolResponse::Complete(result) = &response {
            self.check_result(&name, result)?;
        }
        Ok(response)
    }
}

/// Client-side checking of `tools/call` results for an rmcp client.
#[derive(Debug)]
pub struct CheckedClient {
    tools: ToolSet,
    strictness: Strictness,
}

impl CheckedClient {
    /// Lists every page of the server's tools and compiles them.
    pub async fn list(peer: &Peer<RoleClient>, strictness: Strictness) -> Result<CheckedClient, ServiceError> {
        let tools = peer.list_all_tools().await?;
        Ok(CheckedClient::new(ToolSet::builder().rmcp_tools(&tools).build(), strictness))
    }

    /// A client helper over an already built set.
    pub fn new(tools: ToolSet, strictness: Strictness) -> CheckedClient {
        CheckedClient { tools, strictness }
    }

    /// The compiled tools (diagnostics, excluded tools, headers).
    pub fn tool_set(&self) -> &ToolSet {
        &self.tools
    }

    /// Checks a result of tool `name`: `Ok(())` or the `-32602` error.
    pub fn check(&self, name: &str, result: &CallToolResult) -> Result<(), ErrorData> {
        check_structured(&self.tools, name, result, self.strictness)
    }

    /// Calls the tool through `peer` and checks the result; a mismatch is
    /// [`ServiceError::McpError`] with the `-32602` error. A tool that is
    /// not usable (not listed, or excluded for its `x-mcp-header`s) is not
    /// called: the answer is the `-32602` `Unknown tool` error.
    pub async fn call_tool(
        &self,
        peer: &Peer<RoleClient>,
        params: CallToolRequestParams,
    ) -> Result<CallToolResult, ServiceError> {
        let name = params.name.clone();
        if let Err(unknown) = self.tools.check_known(&name) {
            return Err(ServiceError::McpError(error_data(unknown)));
        }
        let result = peer.call_tool(params).await?;
        self.check(&name, &result).map_err(ServiceError::McpError)?;
        Ok(result)
    }
}
