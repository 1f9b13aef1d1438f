//! `schemavm mcp lint|check|check-result`: a server's `tools/list`
//! linted, and tool-call arguments or results checked against it.

use std::process::ExitCode;

use schemavm::mcp::{Diagnostic, Severity, Strictness, ToolSet};
use serde_json::{Value, json};

use crate::args::Args;
use crate::input::read_json;
use crate::{CliError, outln};

/// Runs `schemavm mcp SUBCOMMAND ...`.
pub fn run(argv: &[String]) -> Result<ExitCode, CliError> {
    let rest = argv.get(1..).unwrap_or_default();
    match argv.first().map(String::as_str) {
        Some("lint") => lint(rest),
        Some("check") => check(rest),
        Some("check-result") => check_result(rest),
        Some(other) => Err(CliError::Usage(format!("unknown mcp command {other:?}"))),
        None => Err(CliError::Usage("mcp needs a command: lint, check or check-result".to_string())),
    }
}

/// The one positional argument, the tools file, compiled.
fn tool_set(args: &Args) -> Result<ToolSet, CliError> {
    match args.positional.as_slice() {
        [path] => Ok(ToolSet::from_value(&read_json(path)?)),
        [] => Err(CliError::Usage("no TOOLS.json given".to_string())),
        _ => Err(CliError::Usage("give exactly one TOOLS.json".to_string())),
    }
}

/// A required option's value.
fn required<'a>(args: &'a Args, name: &str) -> Result<&'a str, CliError> {
    args.value(name).ok_or_else(|| CliError::Usage(format!("--{name} is required")))
}

/// Prints a JSON value on one line.
fn print_json(value: &Value) -> Result<(), CliError> {
    outln!("{value}")?;
    Ok(())
}

/// 0 when `ok`, else 1.
fn verdict(ok: bool) -> ExitCode {
    if ok { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

fn lint(argv: &[String]) -> Result<ExitCode, CliError> {
    let args = Args::parse(argv, &["format"], &[]).map_err(CliError::Usage)?;
    let json = match args.value("format") {
        None | Some("text") => false,
        Some("json") => true,
        Some(other) => return Err(CliError::Usage(format!("--format must be text or json, not {other:?}"))),
    };
    let tools = tool_set(&args)?;
    if json {
        print_json(&json!({
            "diagnostics": tools.diagnostics().iter().map(Diagnostic::to_json).collect::<Vec<_>>(),
            "usable": tools.names().collect::<Vec<_>>(),
            "excluded": tools.excluded().collect::<Vec<_>>(),
            "distinct_schemas": tools.distinct_schemas(),
        }))?;
    } else {
        print_grouped(&tools)?;
    }
    Ok(verdict(!tools.has_errors()))
}

/// Diagnostics grouped by tool (in list order), then a summary line.
fn print_grouped(tools: &ToolSet) -> Result<(), CliError> {
    let mut current: Option<Option<usize>> = None;
    for d in tools.diagnostics() {
        if current != Some(d.index) {
            current = Some(d.index);
            match (d.index, &d.tool) {
                (None, _) => outln!("listing:")?,
                (Some(i), Some(name)) => outln!("tool {name:?} (#{i}):")?,
                (Some(i), None) => outln!("tool #{i} (no name):")?,
            }
        }
        let at = if d.pointer.is_empty() { "(tool)" } else { &d.pointer };
        outln!("  {}[{}] {at}: {}", d.severity.as_str(), d.rule, d.message)?;
        outln!("    fix: {}", d.help)?;
    }
    let count = |s: Severity| {
        let n = tools.diagnostics().iter().filter(|d| d.severity == s).count();
        format!("{n} {}{}", s.as_str(), if n == 1 || s == Severity::Info { "" } else { "s" })
    };
    outln!(
        "{}, {}, {}; {} usable, {} excluded",
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
        tools.names().count(),
        tools.excluded().count()
    )?;
    Ok(())
}

fn check(argv: &[String]) -> Result<ExitCode, CliError> {
    let args = Args::parse(argv, &["tool", "arguments"], &[]).map_err(CliError::Usage)?;
    let tools = tool_set(&args)?;
    let arguments = read_json(required(&args, "arguments")?)?;
    match tools.check_arguments(required(&args, "tool")?, &arguments) {
        Ok(()) => {
            print_json(&Value::Null)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(rejection) => {
            print_json(&rejection.into_value())?;
            Ok(verdict(false))
        }
    }
}

fn check_result(argv: &[String]) -> Result<ExitCode, CliError> {
    let args = Args::parse(argv, &["tool", "result"], &["lenient"]).map_err(CliError::Usage)?;
    let tools = tool_set(&args)?;
    let result = read_json(required(&args, "result")?)?;
    let name = required(&args, "tool")?;
    let strictness = if args.flag("lenient") { Strictness::Lenient } else { Strictness::Strict };
    for warning in tools.lint_result(name, &result) {
        eprintln!("{warning}");
    }
    let checked = tools.check_structured(name, &result, strictness);
    print_json(checked.as_ref().err().unwrap_or(&Value::Null))?;
    Ok(verdict(checked.is_ok()))
}
