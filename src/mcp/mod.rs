//! MCP: validation results in the shapes of the Model Context
//! Protocol's tool calls, for a server checking `tools/call` arguments
//! against a tool's `inputSchema` and a client checking
//! `structuredContent` against its `outputSchema`.
//!
//! ```
//! use serde_json::json;
//!
//! let schema = json!({"type": "object", "required": ["query"],
//!                     "properties": {"query": {"type": "string"}, "limit": {"maximum": 50}},
//!                     "additionalProperties": false});
//! let validator = schemavm::Validator::options().mask_values(true).build(&schema)?;
//! // Server: Ok to run the tool, else the CallToolResult to send back.
//! let result = schemavm::mcp::check_arguments(&validator, &json!({"qurey": "x", "limit": 120})).unwrap_err();
//! assert_eq!(result, json!({
//!     "resultType": "complete",
//!     "content": [{"type": "text", "text": "Invalid arguments: $: missing required property \"query\"; \
//!         $.limit: must be at most 50 (got a number); $.qurey: unknown property; did you mean \"query\"?"}],
//!     "isError": true,
//! }));
//! # Ok::<(), schemavm::CompileError>(())
//! ```
//!
//! Three outcomes, never confused:
//! - invalid: [`invalid_arguments`] (an `isError` result listing the
//!   errors) or [`structured_content_mismatch`] (JSON-RPC error `-32602`);
//! - not validated, because a [`Budget`](crate::Budget) limit stopped the
//!   evaluation: [`not_validated`] (an `isError` result saying the
//!   arguments were *not* checked, which limit, and how to raise it) or,
//!   for structured content, a JSON-RPC error `-32603` saying the same;
//! - the tool's schema does not compile: [`schema_not_compiled`].
//!
//! Errors are listed in a deterministic order (instance location, then
//! keyword location). Each is rendered by its own `Display`, so the
//! validator's [`MessageOptions`](crate::MessageOptions) hold here too:
//! [`ValidatorOptions::mask_values`](crate::ValidatorOptions::mask_values)
//! and [`ValidatorOptions::max_message_len`](crate::ValidatorOptions::max_message_len).
//! The list as a whole is bounded by [`TextLimits`] (default: 10 errors,
//! 2000 bytes), and says how many errors it left out.
//!
//! # Whole tool lists
//!
//! [`ToolSet`] takes a server's `tools/list` (either protocol revision,
//! pages appended) and does the rest: lint [`Diagnostic`]s, one compiled
//! validator per distinct schema, argument and result checks by tool
//! name, [`Strictness::Lenient`] checking of `structuredContent`, and the
//! `Mcp-Param-*` headers of `x-mcp-header` arguments. With feature `rmcp`,
//! the `rmcp` module wires it into servers and clients of the official Rust
//! SDK.
//!
//! ```
//! use schemavm::mcp::{Rejection, Strictness, ToolSet};
//! use serde_json::json;
//!
//! let tools = ToolSet::from_value(&json!({"tools": [{
//!     "name": "get_report",
//!     "description": "Today's report.",
//!     "inputSchema": {"type": "object", "properties": {"day": {"type": "string", "x-mcp-header": "Day"}},
//!                     "additionalProperties": false},
//!     "outputSchema": {"type": "object", "properties": {"total": {"type": "integer"}},
//!                      "required": ["total"], "additionalProperties": false},
//! }], "ttlMs": 60000, "cacheScope": "public", "resultType": "complete"}));
//! assert_eq!(tools.diagnostics()[0].rule, "closed-output-schema");
//!
//! let Err(Rejection::ToolError(result)) = tools.check_arguments("get_report", &json!({"day": 1})) else { panic!() };
//! assert_eq!(result["content"][0]["text"], "Invalid arguments: $.day: must be a string (got an integer)");
//! assert_eq!(tools.headers_for("get_report", &json!({"day": "Monday"}))?, [("Mcp-Param-Day".into(), "Monday".into())]);
//!
//! let result = json!({"content": [], "structuredContent": {"total": 3, "generatedAt": "09:00"}});
//! assert_eq!(tools.check_structured("get_report", &result, Strictness::Strict).unwrap_err()["code"], -32602);
//! assert_eq!(tools.check_structured("get_report", &result, Strictness::Lenient), Ok(()));
//! # Ok::<(), serde_json::Value>(())
//! ```

mod headers;
mod lint;
#[cfg(feature = "rmcp")]
pub mod rmcp;
mod toolset;
mod walk;

use serde_json::{Value, json};

use crate::error::{ErrorKind, Exhausted, ValidationError};
use crate::message::{count, quoted, truncate};
use crate::{CompileError, Outcome, Validator};

pub use headers::{HeaderParam, decode_header_value, encode_header_value};
pub use lint::{Diagnostic, Severity};
pub use toolset::{Rejection, Strictness, ToolSet, ToolSetBuilder};

/// JSON-RPC "Invalid params": the code MCP clients raise for structured
/// content that does not match the output schema.
pub const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC "Internal error": used when structured content could not be
/// checked within the budget.
pub const INTERNAL_ERROR: i64 = -32603;
/// MCP "Header mismatch": an `Mcp-Param-*` header disagrees with the
/// request body.
pub const HEADER_MISMATCH: i64 = -32020;

/// Longest tool name quoted in a message, in bytes (MCP tool names are
/// 1–128 characters).
const TOOL_NAME_BYTES: usize = 128;
/// Room kept at the end of a list for the "and N more" clause.
const SUFFIX_ROOM: usize = 64;
/// Shortest useful cut of an error that alone exceeds the limit.
const MIN_CUT_ERROR: usize = 24;

/// Bounds on the text of one shaped result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextLimits {
    /// Most errors listed (at least one is always listed).
    pub max_errors: usize,
    /// Most bytes of text (UTF-8), cut at a character boundary.
    pub max_len: usize,
}

impl Default for TextLimits {
    fn default() -> Self {
        TextLimits { max_errors: 10, max_len: 2000 }
    }
}

/// Which MCP channel a result goes to.
#[derive(Debug, Clone, Copy)]
enum Channel<'a> {
    /// `tools/call` arguments, answered with an `isError` result.
    Arguments,
    /// A tool's `structuredContent`, answered with a JSON-RPC error.
    StructuredContent { tool: &'a str },
}

/// A tool name for a message: JSON-quoted, bounded.
fn tool_name(tool: &str) -> String {
    quoted(&truncate(tool, TOOL_NAME_BYTES))
}

/// A `CallToolResult` with `isError: true` and one text block.
fn tool_error(text: String) -> Value {
    json!({"resultType": "complete", "content": [{"type": "text", "text": text}], "isError": true})
}

impl Channel<'_> {
    /// The head of an "invalid" message.
    fn invalid_head(self) -> String {
        match self {
            Channel::Arguments => "Invalid arguments".to_string(),
            Channel::StructuredContent { tool } => {
                format!("Structured content does not match the tool's output schema (tool {})", tool_name(tool))
            }
        }
    }

    /// The shape of an "invalid" message.
    fn invalid(self, text: String) -> Value {
        match self {
            Channel::Arguments => tool_error(text),
            Channel::StructuredContent { .. } => json!({"code": INVALID_PARAMS, "message": text}),
        }
    }

    /// The shape of a "not validated" message.
    fn not_validated(self, reason: Exhausted, fuel_used: u64) -> Value {
        let what = format!("{} after {}", reason.description(), count(fuel_used, "unit of fuel", "units of fuel"));
        match self {
            Channel::Arguments => tool_error(format!(
                "The arguments were not validated, so the tool did not run: {what} (the server can raise {}). \
                 This is a limit of the server's validator, not an error in the arguments.",
                reason.setting()
            )),
            Channel::StructuredContent { tool } => json!({
                "code": INTERNAL_ERROR,
                "message": format!(
                    "Structured content was not validated against the tool's output schema (tool {}): {what} \
                     (raise {}); this is a limit of the validator, not a mismatch",
                    tool_name(tool),
                    reason.setting()
                ),
            }),
        }
    }
}

impl TextLimits {
    /// [`invalid_arguments`] under these limits.
    pub fn invalid_arguments(&self, errors: &[ValidationError]) -> Value {
        self.invalid(Channel::Arguments, errors)
    }

    /// [`structured_content_mismatch`] under these limits.
    pub fn structured_content_mismatch(&self, tool: &str, errors: &[ValidationError]) -> Value {
        self.invalid(Channel::StructuredContent { tool }, errors)
    }

    /// [`schema_not_compiled`] under these limits.
    pub fn schema_not_compiled(&self, tool: &str, error: &CompileError) -> Value {
        self.unusable_schema(&format!(
            "could not be compiled, so the call was not made (tool {}): {error}",
            tool_name(tool)
        ))
    }

    /// The `isError` result for a call to a tool whose `inputSchema` is
    /// unusable; `problem` follows "The tool's schema ".
    fn unusable_schema(&self, problem: &str) -> Value {
        let text = format!(
            "The tool's schema {problem}. This is a problem with the tool's definition, not with the arguments."
        );
        tool_error(truncate(&text, self.max_len).into_owned())
    }

    /// [`check_arguments`] under these limits.
    pub fn check_arguments(&self, validator: &Validator, arguments: &Value) -> Result<(), Value> {
        self.check(Channel::Arguments, validator, arguments)
    }

    /// [`check_structured_content`] under these limits.
    pub fn check_structured_content(&self, validator: &Validator, tool: &str, content: &Value) -> Result<(), Value> {
        self.check(Channel::StructuredContent { tool }, validator, content)
    }

    fn check(&self, channel: Channel<'_>, validator: &Validator, value: &Value) -> Result<(), Value> {
        match validator.outcome(value) {
            Outcome::Valid => Ok(()),
            Outcome::BudgetExceeded { reason, fuel_used } => Err(channel.not_validated(reason, fuel_used)),
            Outcome::Invalid => {
                let errors: Vec<ValidationError> = validator.iter_errors(value).collect();
                if errors.iter().any(ValidationError::is_budget_exceeded) {
                    // Listing every error costs more than the verdict: the
                    // instance is invalid, but the list is incomplete and
                    // may hold errors of alternatives left unfinished.
                    let text = format!(
                        "{}; the details could not be listed within the validation budget",
                        channel.invalid_head()
                    );
                    return Err(channel.invalid(truncate(&text, self.max_len).into_owned()));
                }
                Err(self.invalid(channel, &errors))
            }
        }
    }

    /// The "invalid" shape for `errors`, unless they report an exhausted
    /// budget.
    fn invalid(&self, channel: Channel<'_>, errors: &[ValidationError]) -> Value {
        let exhausted = errors.iter().find_map(|e| match e.kind() {
            ErrorKind::BudgetExceeded { reason, fuel_used } => Some((*reason, *fuel_used)),
            _ => None,
        });
        match exhausted {
            Some((reason, fuel_used)) => channel.not_validated(reason, fuel_used),
            None => channel.invalid(self.listing(&channel.invalid_head(), errors)),
        }
    }

    /// `head: error; error; ...; and N more errors`, sorted and bounded.
    fn listing(&self, head: &str, errors: &[ValidationError]) -> String {
        let stopped_at = errors.iter().find_map(|e| match e.kind() {
            ErrorKind::ErrorLimit { max } => Some(*max),
            _ => None,
        });
        let mut listed: Vec<&ValidationError> =
            errors.iter().filter(|e| !matches!(e.kind(), ErrorKind::ErrorLimit { .. })).collect();
        listed.sort_by(|a, b| {
            (a.instance_location(), a.keyword_location()).cmp(&(b.instance_location(), b.keyword_location()))
        });
        let mut pieces: Vec<String> = Vec::new();
        let mut used = head.len();
        for (i, e) in listed.iter().enumerate().take(self.max_errors.max(1)) {
            let piece = e.to_string();
            let more = i + 1 < listed.len() || stopped_at.is_some();
            used += 2 + piece.len();
            if used + if more { SUFFIX_ROOM } else { 0 } > self.max_len {
                break;
            }
            pieces.push(piece);
        }
        let omitted_clause = |omitted: usize| match stopped_at {
            Some(max) => format!("; and more errors (the validator stops listing at {max})"),
            None if omitted == 1 => "; and 1 more error".to_string(),
            None if omitted > 1 => format!("; and {omitted} more errors"),
            None => String::new(),
        };
        if pieces.is_empty() {
            // The first error alone is too long: cut it, keeping the
            // "and N more" clause when there is room for both.
            if let Some(first) = listed.first() {
                let suffix = omitted_clause(listed.len() - 1);
                let room = self.max_len.saturating_sub(head.len() + 2);
                let (room, suffix) = if room >= suffix.len() + MIN_CUT_ERROR {
                    (room - suffix.len(), suffix)
                } else {
                    (room, String::new())
                };
                let text = format!("{head}: {}{suffix}", truncate(&first.to_string(), room));
                return truncate(&text, self.max_len).into_owned();
            }
        }
        let mut text = head.to_string();
        if !pieces.is_empty() {
            text.push_str(": ");
            text.push_str(&pieces.join("; "));
        }
        text.push_str(&omitted_clause(listed.len() - pieces.len()));
        truncate(&text, self.max_len).into_owned()
    }
}

/// The `CallToolResult` for arguments that fail the tool's
/// `inputSchema`: `{"resultType":"complete","content":[{"type":"text",
/// "text":"Invalid arguments: <error>; <error>"}],"isError":true}`, under
/// the default [`TextLimits`]. If `errors` report an exhausted budget
/// (they come from a validation that did not finish), the result is
/// [`not_validated`] instead: it never claims the arguments are invalid.
pub fn invalid_arguments(errors: &[ValidationError]) -> Value {
    TextLimits::default().invalid_arguments(errors)
}

/// The JSON-RPC error object for `structuredContent` that fails tool
/// `tool`'s `outputSchema`: `{"code":-32602,"message":"Structured content
/// does not match the tool's output schema (tool \"name\"): <error>;
/// ..."}`, under the default [`TextLimits`]. Errors reporting an
/// exhausted budget give a `-32603` error saying the content was not
/// validated.
pub fn structured_content_mismatch(tool: &str, errors: &[ValidationError]) -> Value {
    TextLimits::default().structured_content_mismatch(tool, errors)
}

/// The `CallToolResult` (`isError: true`) for arguments that were not
/// validated because `reason` stopped the evaluation after `fuel_used`
/// units of fuel: it says so, names the limit and how to raise it, and
/// does not claim the arguments are invalid.
pub fn not_validated(reason: Exhausted, fuel_used: u64) -> Value {
    Channel::Arguments.not_validated(reason, fuel_used)
}

/// The `CallToolResult` (`isError: true`) for a call to tool `tool`
/// whose schema does not compile: `The tool's schema could not be
/// compiled, so the call was not made (tool "name"): <error>. ...`.
pub fn schema_not_compiled(tool: &str, error: &CompileError) -> Value {
    TextLimits::default().schema_not_compiled(tool, error)
}

/// Checks `tools/call` arguments: `Ok(())` to run the tool, else the
/// `CallToolResult` to return ([`invalid_arguments`] or
/// [`not_validated`]). Valid arguments cost one fast evaluation; invalid
/// ones a second that lists the errors.
pub fn check_arguments(validator: &Validator, arguments: &Value) -> Result<(), Value> {
    TextLimits::default().check_arguments(validator, arguments)
}

/// Checks a tool result's `structuredContent` against the tool's output
/// schema: `Ok(())`, or the JSON-RPC error object to raise
/// ([`structured_content_mismatch`], or `-32603` if the budget ran out).
pub fn check_structured_content(validator: &Validator, tool: &str, content: &Value) -> Result<(), Value> {
    TextLimits::default().check_structured_content(validator, tool, content)
}
