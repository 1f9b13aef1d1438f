//! `schemavm validate`.
//!
//! `--output text` (the default) prints `valid`, or `invalid`/`not
//! validated` and every error with its keyword location. `--output mcp`
//! prints one line of JSON per instance, in order: `null` for a valid
//! instance (a server would call the tool), else the `CallToolResult` a
//! server would return ([`schemavm::mcp::invalid_arguments`], which is the
//! "not validated" result when the budget ran out); a schema that does not
//! compile prints [`schemavm::mcp::schema_not_compiled`] (the tool named
//! after the schema file) before failing as usual. `--output flag|basic|
//! detailed|verbose|list|hierarchical` prints one line of JSON per
//! instance: [`schemavm::Validator::evaluate`] rendered in that format, or
//! `{"notEvaluated": "<why>"}` (no verdict) when the budget ran out.

use std::path::Path;
use std::process::ExitCode;

use schemavm::{Draft, OutputFormat, ValidationError, Validator, mcp};

use crate::CliError;
use crate::args::Args;
use crate::input::read_json;

/// How results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Output {
    Text,
    Mcp,
    /// A standard output format of [`Validator::evaluate`].
    Standard(OutputFormat),
}

impl Output {
    fn parse(name: &str) -> Result<Output, CliError> {
        match name {
            "text" => Ok(Output::Text),
            "mcp" => Ok(Output::Mcp),
            other => other.parse().map(Output::Standard).map_err(|_| {
                let standard: Vec<&str> = OutputFormat::ALL.iter().map(|f| f.name()).collect();
                CliError::Usage(format!("unknown --output {other:?} (supported: text, mcp, {})", standard.join(", ")))
            }),
        }
    }
}

/// Parses a count option.
fn number(args: &Args, name: &str) -> Result<Option<usize>, CliError> {
    args.value(name)
        .map(|n| n.parse().map_err(|_| CliError::Usage(format!("--{name} needs a whole number, not {n:?}"))))
        .transpose()
}

/// Runs the command; `Err` is a usage, input or schema error (exit 2).
pub fn run(argv: &[String]) -> Result<ExitCode, CliError> {
    let usage = CliError::Usage;
    let args = Args::parse(
        argv,
        &["schema", "draft", "resource", "output", "max-message-len", "max-errors"],
        &["assert-formats", "mask-values"],
    )
    .map_err(usage)?;
    let schema_path = args.value("schema").ok_or_else(|| usage("validate needs --schema SCHEMA.json".into()))?;
    if args.positional.is_empty() {
        return Err(usage("validate needs at least one INSTANCE.json".into()));
    }
    let output = Output::parse(args.value("output").unwrap_or("text"))?;
    let mut options = Validator::options().mask_values(args.flag("mask-values"));
    if let Some(d) = args.value("draft") {
        let draft = Draft::from_short_name(d)
            .ok_or_else(|| usage(format!("unknown draft {d:?} (use 4, 6, 7, 2019-09 or 2020-12)")))?;
        options = options.draft(draft);
    }
    if args.flag("assert-formats") {
        options = options.assert_formats(true);
    }
    if let Some(n) = number(&args, "max-message-len")? {
        options = options.max_message_len(n);
    }
    if let Some(n) = number(&args, "max-errors")? {
        options = options.max_errors(n);
    }
    for spec in args.values("resource") {
        let (uri, file) =
            spec.split_once('=').ok_or_else(|| usage(format!("--resource {spec:?}: expected URI=FILE")))?;
        options = options.resource(uri, read_json(file)?);
    }
    let schema = read_json(schema_path)?;
    let validator = match options.build(&schema) {
        Ok(v) => v,
        Err(e) => {
            if output == Output::Mcp {
                let tool = Path::new(schema_path).file_stem().map(|s| s.to_string_lossy()).unwrap_or_default();
                crate::outln!("{}", mcp::schema_not_compiled(&tool, &e))?;
            }
            return Err(CliError::Failed(format!("{schema_path}: {e}")));
        }
    };
    let many = args.positional.len() > 1;
    let (mut invalid, mut exhausted) = (false, false);
    for path in &args.positional {
        let instance = read_json(path)?;
        if let Output::Standard(format) = output {
            let line = match validator.evaluate(&instance) {
                Ok(evaluation) => {
                    invalid |= !evaluation.is_valid();
                    evaluation.render(format)
                }
                Err(e) => {
                    exhausted = true;
                    serde_json::json!({"notEvaluated": e.to_string()})
                }
            };
            crate::outln!("{line}")?;
            continue;
        }
        let errors: Vec<ValidationError> =
            if validator.is_valid(&instance) { Vec::new() } else { validator.iter_errors(&instance).collect() };
        let not_validated = errors.iter().any(ValidationError::is_budget_exceeded);
        exhausted |= not_validated;
        invalid |= !errors.is_empty() && !not_validated;
        match output {
            Output::Text => {
                let prefix = if many { format!("{path}: ") } else { String::new() };
                print_text(&prefix, &errors, not_validated)?;
            }
            Output::Mcp if errors.is_empty() => crate::outln!("null")?,
            Output::Mcp => crate::outln!("{}", mcp::invalid_arguments(&errors))?,
            Output::Standard(_) => {}
        }
    }
    Ok(ExitCode::from(if exhausted {
        3
    } else if invalid {
        1
    } else {
        0
    }))
}

/// The verdict line, then each error with its keyword location.
fn print_text(prefix: &str, errors: &[ValidationError], not_validated: bool) -> Result<(), CliError> {
    let verdict = match (errors.is_empty(), not_validated) {
        (true, _) => "valid",
        (false, true) => "not validated",
        (false, false) => "invalid",
    };
    crate::outln!("{prefix}{verdict}")?;
    for e in errors {
        let at = if e.keyword_location().is_empty() { String::new() } else { format!("  [{}]", e.keyword_location()) };
        crate::outln!("  {e}{at}")?;
    }
    Ok(())
}
