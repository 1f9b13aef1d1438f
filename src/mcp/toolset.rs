//! [`ToolSet`]: a server's tools from `tools/list`, linted, with every
//! distinct schema compiled once.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::{Value, json};

use super::headers::{self, HeaderParam};
use super::lint::{self, Diagnostic, Severity, ToolLint, shown_name};
use super::{INTERNAL_ERROR, INVALID_PARAMS, TextLimits, tool_error};
use crate::{CompileError, CompileErrorKind, Validator, ValidatorOptions};

/// How a client checks `structuredContent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strictness {
    /// Everything the `outputSchema` says, `additionalProperties: false`
    /// included.
    #[default]
    Strict,
    /// Properties the schema does not declare are accepted, even where it
    /// is closed; everything declared is enforced (a validator compiled
    /// with [`ValidatorOptions::allow_undeclared_properties`]).
    Lenient,
}

/// A refused `tools/call`, in the channel it goes back on.
#[derive(Debug, Clone, PartialEq)]
pub enum Rejection {
    /// A JSON-RPC error object (`{"code": -32602, "message": ...}`), e.g.
    /// for an unknown tool.
    Protocol(Value),
    /// A `CallToolResult` with `isError: true`, for the model to read.
    ToolError(Value),
}

impl Rejection {
    /// The JSON of the error object or of the result.
    pub fn into_value(self) -> Value {
        match self {
            Rejection::Protocol(v) | Rejection::ToolError(v) => v,
        }
    }
}

/// One distinct schema document, compiled at most once per strictness.
struct Compiled {
    document: Value,
    strict: OnceLock<Result<Validator, CompileError>>,
    lenient: OnceLock<Result<Validator, CompileError>>,
}

/// What the set shares across its schemas: how to compile them, and how
/// many compilations ran.
struct Compiler {
    strict: ValidatorOptions,
    lenient: ValidatorOptions,
    compilations: AtomicUsize,
}

impl Compiler {
    /// The validator of `schema` in `strictness`, compiled on first use.
    fn validator<'c>(&self, schema: &'c Compiled, strictness: Strictness) -> &'c Result<Validator, CompileError> {
        let (cell, options) = match strictness {
            Strictness::Strict => (&schema.strict, &self.strict),
            Strictness::Lenient => (&schema.lenient, &self.lenient),
        };
        cell.get_or_init(|| {
            self.compilations.fetch_add(1, Ordering::Relaxed);
            options.build(&schema.document)
        })
    }
}

/// A tool's schema: compiled, or unusable for a stated reason.
enum Schema {
    Compiled(Arc<Compiled>),
    /// Why there is nothing to compile (follows "The tool's schema ").
    Unusable(&'static str),
}

/// One usable tool.
struct Tool {
    /// Its position in the combined list.
    index: usize,
    input: Schema,
    output: Option<Arc<Compiled>>,
    headers: Vec<HeaderParam>,
}

/// The tools of an MCP server, from one or more `tools/list` results
/// (revision 2025-11-25 or 2026-07-28) or from an array of tools: linted
/// once, every distinct schema compiled once (identical schemas, by
/// content hash and equality, share one validator), ready to check calls
/// and results. `Send + Sync`.
///
/// Tools whose `x-mcp-header` annotations break a rule are excluded (a
/// warning says so); a repeated name keeps its first tool (an error says
/// so). Tools with other errors stay usable as far as they can: a call to
/// one whose `inputSchema` is unusable gets an `isError` result saying
/// the definition is at fault.
pub struct ToolSet {
    tools: HashMap<String, Tool>,
    /// Names of usable tools, in list order.
    order: Vec<String>,
    excluded: Vec<String>,
    diagnostics: Vec<Diagnostic>,
    distinct: usize,
    ttl_ms: u64,
    compiler: Compiler,
    limits: TextLimits,
}

impl std::fmt::Debug for ToolSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolSet")
            .field("tools", &self.order)
            .field("excluded", &self.excluded)
            .field("diagnostics", &self.diagnostics.len())
            .field("distinct_schemas", &self.distinct)
            .finish()
    }
}

/// Builder for a [`ToolSet`]: listings appended in order, then compiled.
#[derive(Debug, Clone, Default)]
pub struct ToolSetBuilder {
    options: ValidatorOptions,
    limits: TextLimits,
    tools: Vec<Value>,
    problems: Vec<Diagnostic>,
    ttl_ms: Option<u64>,
}

impl ToolSetBuilder {
    /// How every schema is compiled and run (budget, limits, masking, ...).
    pub fn validator_options(mut self, options: ValidatorOptions) -> Self {
        self.options = options;
        self
    }

    /// Bounds on the text of the error results.
    pub fn text_limits(mut self, limits: TextLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Appends a listing: a `tools/list` result (`{"tools": [...],
    /// "nextCursor"?, "ttlMs"?, "cacheScope"?, "resultType"?}`), a
    /// JSON-RPC response carrying one in `result`, an array of such
    /// results (pages), or an array of tools. Anything else is an error
    /// diagnostic.
    pub fn listing(mut self, listing: &Value) -> Self {
        self.add(listing, true);
        self
    }

    fn add(&mut self, listing: &Value, top: bool) {
        match listing {
            Value::Array(items) => {
                for item in items {
                    if item.get("tools").is_some() && item.get("name").is_none() {
                        self.add(item, false);
                    } else {
                        self.tools.push(item.clone());
                    }
                }
            }
            Value::Object(page) if page.contains_key("tools") => {
                let Some(tools) = page.get("tools").and_then(Value::as_array) else {
                    return self.problem("/tools", "\"tools\" is not an array");
                };
                self.tools.extend(tools.iter().cloned());
                // A page without ttlMs (2025-11-25) means 0; the set lives
                // as long as its shortest-lived page.
                let ttl = page.get("ttlMs").and_then(Value::as_u64).unwrap_or(0);
                self.ttl_ms = Some(self.ttl_ms.map_or(ttl, |t| t.min(ttl)));
            }
            Value::Object(response) if top && response.contains_key("result") => {
                if let Some(result) = response.get("result") {
                    self.add(result, false);
                }
            }
            Value::Object(response) if response.contains_key("error") => {
                self.problem("/error", "the listing is a JSON-RPC error response, not a tools/list result");
            }
            _ => self.problem("", "not a tools/list result, a JSON-RPC response with one, or an array of tools"),
        }
    }

    fn problem(&mut self, pointer: &str, message: &str) {
        self.problems.push(Diagnostic {
            severity: Severity::Error,
            rule: "listing",
            tool: None,
            index: None,
            pointer: pointer.to_string(),
            message: message.to_string(),
            help: "pass the result of tools/list (or an array of tools)".to_string(),
        });
    }

    /// Lints every tool and compiles every distinct schema.
    pub fn build(self) -> ToolSet {
        let compiler = Compiler {
            lenient: self.options.clone().allow_undeclared_properties(true),
            strict: self.options.allow_undeclared_properties(false),
            compilations: AtomicUsize::new(0),
        };
        let mut set = ToolSet {
            tools: HashMap::new(),
            order: Vec::new(),
            excluded: Vec::new(),
            diagnostics: self.problems,
            distinct: 0,
            ttl_ms: self.ttl_ms.unwrap_or(0),
            compiler,
            limits: self.limits,
        };
        let mut shared: HashMap<&Value, Arc<Compiled>> = HashMap::new();
        let mut seen = HashSet::new();
        for (index, tool) in self.tools.iter().enumerate() {
            set.add_tool(index, tool, &mut seen, &mut shared);
        }
        set.distinct = shared.len();
        set
    }
}

impl ToolSet {
    /// Starts a [`ToolSetBuilder`].
    pub fn builder() -> ToolSetBuilder {
        ToolSetBuilder::default()
    }

    /// The set of one listing, with default options (see
    /// [`ToolSetBuilder::listing`] for the shapes accepted).
    pub fn from_value(listing: &Value) -> ToolSet {
        ToolSet::builder().listing(listing).build()
    }

    /// Lints and compiles one tool definition.
    fn add_tool<'v>(
        &mut self,
        index: usize,
        tool: &'v Value,
        seen: &mut HashSet<&'v str>,
        shared: &mut HashMap<&'v Value, Arc<Compiled>>,
    ) {
        let Value::Object(def) = tool else {
            let mut lint = ToolLint { tool: None, index, out: &mut self.diagnostics };
            lint.push(Severity::Error, "tool", "", "the tool is not an object".into(), "list tools as objects");
            return;
        };
        let name = def.get("name").and_then(Value::as_str);
        let shown = name.map(|n| crate::message::truncate(n, lint::MAX_NAME_CHARS).into_owned());
        let mut out = std::mem::take(&mut self.diagnostics);
        let mut lint = ToolLint { tool: shown, index, out: &mut out };
        lint::lint_name(def, &mut lint);
        let duplicate = name.is_some_and(|n| !seen.insert(n));
        if duplicate {
            lint.push(
                Severity::Error,
                "duplicate-name",
                "/name",
                "another tool of this list has the same name; the first one is kept".into(),
                "give every tool of a server a distinct name",
            );
        }
        lint::lint_description(def, &mut lint);
        let input = match lint::lint_input_shape(def, &mut lint) {
            Some(schema) => Schema::Compiled(self.compile(schema, "/inputSchema", shared, &mut lint)),
            None => Schema::Unusable("is missing or not an object schema, so the call was not made"),
        };
        let output = def.get("outputSchema").map(|schema| {
            lint::lint_output_shape(schema, &mut lint);
            self.compile(schema, "/outputSchema", shared, &mut lint)
        });
        let (params, violations) = match def.get("inputSchema") {
            Some(schema) => headers::header_params(schema, "/inputSchema"),
            None => (Vec::new(), Vec::new()),
        };
        let excluded = !violations.is_empty();
        for v in violations {
            lint.push(
                Severity::Warning,
                "x-mcp-header",
                &v.pointer,
                format!("{}; the tool is excluded from the usable set", v.message),
                "put x-mcp-header only on string, integer or boolean properties reached through \
                 `properties` alone, with a unique RFC 9110 token as its value",
            );
        }
        self.diagnostics = out;
        let Some(name) = name.filter(|_| !duplicate) else { return };
        if excluded {
            self.excluded.push(name.to_string());
        } else {
            self.order.push(name.to_string());
            self.tools.insert(name.to_string(), Tool { index, input, output, headers: params });
        }
    }

    /// The shared compiled form of `schema`, compiling it (strictly) the
    /// first time this content is seen; a compile error becomes a
    /// diagnostic at `pointer`.
    fn compile<'v>(
        &self,
        schema: &'v Value,
        pointer: &str,
        shared: &mut HashMap<&'v Value, Arc<Compiled>>,
        lint: &mut ToolLint<'_>,
    ) -> Arc<Compiled> {
        let fresh =
            || Arc::new(Compiled { document: schema.clone(), strict: OnceLock::new(), lenient: OnceLock::new() });
        // Hashing walks the document recursively: only bounded ones are
        // shared (a deeper one fails to compile on its own).
        let bounded = schemavm_compiler::check_depth(schema, "", &self.compiler.strict.compile.limits).is_ok();
        let compiled = if bounded { shared.entry(schema).or_insert_with(fresh).clone() } else { fresh() };
        if let Err(error) = self.compiler.validator(&compiled, Strictness::Strict) {
            let (rule, help) = match error.kind() {
                CompileErrorKind::UnknownDialect { .. } => (
                    "schema-dialect",
                    "drop $schema (2020-12 is the default) or name draft-04, -06, -07, 2019-09 or 2020-12",
                ),
                _ => ("schema-compile", "fix the schema so it compiles; remote $refs are never fetched here"),
            };
            lint.push(Severity::Error, rule, pointer, error.to_string(), help);
        }
        compiled
    }

    /// Every diagnostic, in list order (problems with the listing first).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.severity == Severity::Error)
    }

    /// The names of the usable tools, in list order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.order.iter().map(String::as_str)
    }

    /// The names of the tools excluded for their `x-mcp-header`s.
    pub fn excluded(&self) -> impl Iterator<Item = &str> {
        self.excluded.iter().map(String::as_str)
    }

    /// Whether `name` is a usable tool.
    pub fn contains(&self, name: &str) -> bool {
        self.tools.contains_key(name)
    }

    /// The arguments tool `name` mirrors into headers.
    pub fn header_params(&self, name: &str) -> Option<&[HeaderParam]> {
        self.tools.get(name).map(|t| t.headers.as_slice())
    }

    /// How long the listing may be cached, in milliseconds: the smallest
    /// `ttlMs` of its pages, 0 when a page has none (2025-11-25).
    pub fn ttl_ms(&self) -> u64 {
        self.ttl_ms
    }

    /// How many distinct schema documents the tools hold.
    pub fn distinct_schemas(&self) -> usize {
        self.distinct
    }

    /// How many times a schema was compiled so far: once per distinct
    /// schema while building, plus once per distinct output schema the
    /// first time it is checked leniently.
    pub fn compilations(&self) -> usize {
        self.compiler.compilations.load(Ordering::Relaxed)
    }

    /// `Ok(())` if `name` is a usable tool, else the JSON-RPC `-32602`
    /// `Unknown tool: <name>` error (a client calls no other tool).
    pub fn check_known(&self, name: &str) -> Result<(), Value> {
        self.tool(name).map(|_| ())
    }

    /// The tool, or the JSON-RPC `-32602` `Unknown tool: <name>` error.
    fn tool(&self, name: &str) -> Result<&Tool, Value> {
        self.tools.get(name).ok_or_else(|| {
            let shown = crate::message::truncate(name, lint::MAX_NAME_CHARS);
            json!({"code": INVALID_PARAMS, "message": format!("Unknown tool: {shown}")})
        })
    }

    /// Checks `tools/call` arguments for tool `name`: `Ok(())` to run the
    /// tool; else, for an unknown tool, the JSON-RPC `-32602` error
    /// `Unknown tool: <name>`, and otherwise the `isError` result to send
    /// back (arguments not an object, invalid arguments, not validated
    /// within the budget, or an unusable schema).
    pub fn check_arguments(&self, name: &str, arguments: &Value) -> Result<(), Rejection> {
        let tool = self.tool(name).map_err(Rejection::Protocol)?;
        if !arguments.is_object() {
            let got = match arguments {
                Value::Null => "null",
                Value::Bool(_) => "a boolean",
                Value::Number(_) => "a number",
                Value::String(_) => "a string",
                _ => "an array",
            };
            return Err(Rejection::ToolError(tool_error(format!(
                "Invalid arguments: $: the arguments must be an object of named parameters (got {got})"
            ))));
        }
        let validator = match &tool.input {
            Schema::Unusable(problem) => return Err(Rejection::ToolError(self.limits.unusable_schema(problem))),
            Schema::Compiled(schema) => match self.compiler.validator(schema, Strictness::Strict) {
                Ok(validator) => validator,
                Err(error) => return Err(Rejection::ToolError(self.limits.schema_not_compiled(name, error))),
            },
        };
        self.limits.check_arguments(validator, arguments).map_err(Rejection::ToolError)
    }

    /// Checks a `CallToolResult` of tool `name` against its
    /// `outputSchema`, as a client does: `Ok(())` for results with
    /// `isError: true` and tools without an output schema; else the
    /// JSON-RPC error object to raise: `-32602` for an unknown tool, a
    /// result that is not an object, a missing `structuredContent`, or
    /// content that does not match ("Structured content does not match the
    /// tool's output schema ..."); `-32603` when the content could not be
    /// checked (budget, or an output schema that does not compile).
    pub fn check_structured(&self, name: &str, result: &Value, strictness: Strictness) -> Result<(), Value> {
        let tool = self.tool(name)?;
        let invalid = |message: String| json!({"code": INVALID_PARAMS, "message": message});
        let Value::Object(result) = result else {
            return Err(invalid(format!("The result of tool {} is not a CallToolResult object", shown_name(name))));
        };
        if result.get("isError").and_then(Value::as_bool) == Some(true) {
            return Ok(());
        }
        let Some(schema) = &tool.output else { return Ok(()) };
        let Some(content) = result.get("structuredContent") else {
            return Err(invalid(format!(
                "Tool {} has an output schema but did not return structured content",
                shown_name(name)
            )));
        };
        match self.compiler.validator(schema, strictness) {
            Ok(validator) => self.limits.check_structured_content(validator, name, content),
            Err(error) => Err(json!({
                "code": INTERNAL_ERROR,
                "message": format!(
                    "Structured content was not validated: the output schema of tool {} does not compile: {error}",
                    shown_name(name)
                ),
            })),
        }
    }

    /// Lints one `CallToolResult` of tool `name` (a usable one): a warning
    /// when array or primitive `structuredContent` is not duplicated in a
    /// text block.
    pub fn lint_result(&self, name: &str, result: &Value) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        if let (Some(tool), Value::Object(result)) = (self.tools.get(name), result) {
            let shown = Some(crate::message::truncate(name, lint::MAX_NAME_CHARS).into_owned());
            lint::lint_text_duplicate(result, &mut ToolLint { tool: shown, index: tool.index, out: &mut out });
        }
        out
    }

    /// The `Mcp-Param-<Name>` headers for a call of tool `name` with
    /// `arguments` (values encoded with [`encode_header_value`](super::encode_header_value)),
    /// or the `-32602` error for an unknown tool.
    pub fn headers_for(&self, name: &str, arguments: &Value) -> Result<Vec<(String, String)>, Value> {
        Ok(headers::headers_for(&self.tool(name)?.headers, arguments))
    }

    /// Checks the `Mcp-Param-*` headers of a call of tool `name` against
    /// its `arguments`: `Ok(())`, the JSON-RPC `-32020` header-mismatch
    /// error, or `-32602` for an unknown tool. Other headers are ignored.
    pub fn check_headers<'h>(
        &self,
        name: &str,
        headers: impl IntoIterator<Item = (&'h str, &'h str)>,
        arguments: &Value,
    ) -> Result<(), Value> {
        headers::check_headers(&self.tool(name)?.headers, headers, arguments)
    }
}
