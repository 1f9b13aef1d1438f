//! Lint diagnostics for a `tools/list`: the static rules on names and
//! schemas (compile results are added by [`ToolSet`](super::ToolSet)).

use std::fmt;

use serde_json::{Map, Value, json};

use super::walk::walk;
use crate::message::{quoted, truncate};

/// Longest tool name MCP allows, in characters.
pub(super) const MAX_NAME_CHARS: usize = 128;

/// How much a diagnostic matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The tool breaks the protocol or cannot be validated.
    Error,
    /// The tool works but will hurt some clients (or was dropped from the
    /// usable set).
    Warning,
    /// Advice for model-facing quality.
    Info,
}

impl Severity {
    /// `error`, `warning` or `info`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One finding about one tool (or about the listing as a whole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// How much it matters.
    pub severity: Severity,
    /// A stable rule name, e.g. `tool-name` or `closed-output-schema`.
    pub rule: &'static str,
    /// The tool's name as listed (cut to 128 bytes), if it has one.
    pub tool: Option<String>,
    /// The tool's position in the combined list of tools (pages appended
    /// in order); `None` for a problem with the listing itself.
    pub index: Option<usize>,
    /// JSON Pointer to the offending value, within the tool object (or
    /// within the listing when `index` is `None`).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub help: String,
}

impl Diagnostic {
    /// The diagnostic as a JSON object (`severity`, `rule`, `tool`,
    /// `index`, `pointer`, `message`, `help`).
    pub fn to_json(&self) -> Value {
        json!({
            "severity": self.severity.as_str(),
            "rule": self.rule,
            "tool": self.tool,
            "index": self.index,
            "pointer": self.pointer,
            "message": self.message,
            "help": self.help,
        })
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() { "(root)" } else { &self.pointer };
        write!(f, "{}[{}] {at}: {} (fix: {})", self.severity.as_str(), self.rule, self.message, self.help)
    }
}

/// Builds the diagnostics of one tool.
pub(super) struct ToolLint<'d> {
    pub tool: Option<String>,
    pub index: usize,
    pub out: &'d mut Vec<Diagnostic>,
}

impl ToolLint<'_> {
    /// Adds a diagnostic.
    pub fn push(&mut self, severity: Severity, rule: &'static str, pointer: &str, message: String, help: &str) {
        self.out.push(Diagnostic {
            severity,
            rule,
            tool: self.tool.clone(),
            index: Some(self.index),
            pointer: pointer.to_string(),
            message,
            help: help.to_string(),
        });
    }
}

/// The name of a tool for messages: JSON-quoted and bounded.
pub(super) fn shown_name(name: &str) -> String {
    quoted(&truncate(name, MAX_NAME_CHARS))
}

/// Checks `name`: present, a string, 1–128 characters of
/// `[A-Za-z0-9_.-]`.
pub(super) fn lint_name(tool: &Map<String, Value>, lint: &mut ToolLint<'_>) {
    const HELP: &str = "use 1 to 128 ASCII letters, digits, '_', '-' or '.'";
    let name = match tool.get("name") {
        None => {
            return lint.push(Severity::Error, "tool-name", "", "the tool has no name".into(), HELP);
        }
        Some(Value::String(name)) => name,
        Some(_) => {
            return lint.push(Severity::Error, "tool-name", "/name", "the tool's name is not a string".into(), HELP);
        }
    };
    let chars = name.chars().count();
    let problem = if name.is_empty() {
        Some("the tool's name is empty".to_string())
    } else if chars > MAX_NAME_CHARS {
        Some(format!("the tool's name has {chars} characters, more than {MAX_NAME_CHARS}"))
    } else {
        name.chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
            .map(|c| format!("the tool's name has the character {} outside [A-Za-z0-9_.-]", quoted(&c.to_string())))
    };
    if let Some(message) = problem {
        lint.push(Severity::Error, "tool-name", "/name", message, HELP);
    }
}

/// Info when the description is missing or blank.
pub(super) fn lint_description(tool: &Map<String, Value>, lint: &mut ToolLint<'_>) {
    let described = tool.get("description").and_then(Value::as_str).is_some_and(|d| !d.trim().is_empty());
    if !described {
        lint.push(
            Severity::Info,
            "missing-description",
            "/description",
            "the tool has no description".into(),
            "describe what the tool does and when to use it: models choose tools by their descriptions",
        );
    }
}

/// Whether `schema` declares `type: "object"`.
fn object_typed(schema: &Map<String, Value>) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// Checks the shape of `inputSchema`; returns it when it is an object
/// schema worth compiling.
pub(super) fn lint_input_shape<'t>(tool: &'t Map<String, Value>, lint: &mut ToolLint<'_>) -> Option<&'t Value> {
    const HELP: &str = "give the tool an inputSchema with \"type\": \"object\" at the root \
        (no parameters: {\"type\": \"object\", \"additionalProperties\": false})";
    let (message, pointer) = match tool.get("inputSchema") {
        None => ("the tool has no inputSchema".to_string(), ""),
        Some(Value::Null) => ("inputSchema is null".to_string(), "/inputSchema"),
        Some(schema @ Value::Object(obj)) => {
            if !object_typed(obj) {
                lint.push(
                    Severity::Error,
                    "input-schema",
                    "/inputSchema",
                    "inputSchema's root does not declare \"type\": \"object\"".into(),
                    HELP,
                );
            }
            lint_input_advice(obj, lint);
            return Some(schema);
        }
        Some(_) => ("inputSchema is not an object schema".to_string(), "/inputSchema"),
    };
    lint.push(Severity::Error, "input-schema", pointer, message, HELP);
    None
}

/// The info-level advice on a well-formed `inputSchema`.
fn lint_input_advice(schema: &Map<String, Value>, lint: &mut ToolLint<'_>) {
    for keyword in ["oneOf", "anyOf", "allOf"] {
        if schema.contains_key(keyword) {
            lint.push(
                Severity::Info,
                "top-level-composition",
                &format!("/inputSchema/{keyword}"),
                format!("inputSchema uses {keyword} at the root"),
                "some model providers refuse composition at the root of tool parameters: \
                 flatten it into one object schema if you can",
            );
        }
    }
    let closed = |keyword: &str| matches!(schema.get(keyword), Some(Value::Bool(false)));
    if !closed("additionalProperties") && !closed("unevaluatedProperties") {
        lint.push(
            Severity::Info,
            "open-input-schema",
            "/inputSchema",
            "inputSchema does not set \"additionalProperties\": false".into(),
            "set \"additionalProperties\": false so that invented arguments are rejected with a message \
             naming the allowed ones",
        );
    }
}

/// The warnings on an `outputSchema`: a non-object root, and closed
/// objects anywhere in it.
pub(super) fn lint_output_shape(schema: &Value, lint: &mut ToolLint<'_>) {
    if !schema.as_object().is_some_and(object_typed) {
        lint.push(
            Severity::Warning,
            "output-schema-root",
            "/outputSchema",
            "outputSchema's root does not declare \"type\": \"object\"".into(),
            "2025-11-25 clients accept only an object root: wrap the value in an object property",
        );
    }
    let mut closed = Vec::new();
    walk(schema, "/outputSchema", |site| {
        for keyword in ["additionalProperties", "unevaluatedProperties"] {
            if matches!(site.schema.get(keyword), Some(Value::Bool(false))) {
                let mut at = site.pointer.clone();
                schemavm_compiler::pointer::push(&mut at, keyword);
                closed.push(at);
            }
        }
    });
    if let Some(first) = closed.first() {
        let more = match closed.len() - 1 {
            0 => String::new(),
            1 => " (and 1 more place)".to_string(),
            n => format!(" (and {n} more places)"),
        };
        lint.push(
            Severity::Warning,
            "closed-output-schema",
            first,
            format!("outputSchema is closed here{more}: a backend that adds a field breaks strict clients"),
            "drop \"additionalProperties\": false / \"unevaluatedProperties\": false from outputSchema; \
             keep declared fields required and typed",
        );
    }
}

/// The warning for array or primitive `structuredContent` that has no
/// text block carrying the same JSON.
pub(super) fn lint_text_duplicate(result: &Map<String, Value>, lint: &mut ToolLint<'_>) {
    let Some(content) = result.get("structuredContent") else { return };
    if content.is_object() {
        return;
    }
    let duplicated = result.get("content").and_then(Value::as_array).is_some_and(|blocks| {
        blocks.iter().any(|block| {
            block.get("type").and_then(Value::as_str) == Some("text")
                && block
                    .get("text")
                    .and_then(Value::as_str)
                    .and_then(|text| serde_json::from_str::<Value>(text).ok())
                    .is_some_and(|parsed| parsed == *content)
        })
    });
    if !duplicated {
        lint.push(
            Severity::Warning,
            "structured-text-duplicate",
            "/structuredContent",
            "array or primitive structuredContent is not also sent serialized in a text block".into(),
            "add a text content block holding the structuredContent serialized as JSON",
        );
    }
}
