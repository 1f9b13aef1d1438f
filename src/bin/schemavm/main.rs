//! The `schemavm` command-line tool.
//!
//! ```text
//! schemavm validate --schema SCHEMA.json INSTANCE.json...
//! schemavm explain SCHEMA.json
//! schemavm corpus DIR
//! schemavm mcp lint|check|check-result TOOLS.json ...
//! ```
//!
//! Exit status: 0 every instance is valid; 1 some instance is invalid;
//! 2 bad usage, unreadable or malformed input, or a schema that does not
//! compile; 3 some instance could not be validated within the budget.

mod args;
mod corpus;
mod explain;
mod input;
mod mcp;
mod validate;

use std::process::ExitCode;

/// Why a command failed (exit status 2).
#[derive(Debug)]
pub enum CliError {
    /// The command line is wrong: the usage is shown.
    Usage(String),
    /// An input could not be read or used.
    Failed(String),
    /// Standard output was closed (e.g. piped into `head`): stop quietly.
    Closed,
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CliError::Closed
        } else {
            CliError::Failed(format!("writing output: {e}"))
        }
    }
}

/// `println!` that reports a closed or failing standard output as an
/// error instead of panicking.
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

impl From<String> for CliError {
    fn from(message: String) -> Self {
        CliError::Failed(message)
    }
}

const USAGE: &str = "\
usage: schemavm <command> [options]

commands:
  validate --schema SCHEMA.json [options] INSTANCE.json...
      Validates each instance against the schema; prints `valid` or every
      error (instance path, keyword location, message).
      --draft 4|6|7|2019-09|2020-12   dialect when the schema has no $schema
      --assert-formats                 assert `format` (default: draft-07 and
                                       earlier assert, 2019-09+ annotate)
      --resource URI=FILE              register a document for $ref (repeatable;
                                       nothing is ever fetched)
      --output FORMAT                  text: `valid` or every error (default);
                                       mcp: a JSON line per instance, `null` if
                                       valid, else the MCP CallToolResult;
                                       flag|basic|detailed|verbose|list|
                                       hierarchical: a JSON line per instance
                                       in that standard output format
      --mask-values                    never echo instance values in messages
      --max-message-len N              cut each error message at N bytes
      --max-errors N                   list at most N errors per instance
  explain SCHEMA.json [--draft D] [--resource URI=FILE]...
      Prints the compiled program: every node with its instructions, which
      nodes are memoized, and the static cost bounds (fan-out per instance
      location, in-place depth); or the compile error and the limit to raise.
  corpus DIR
      Runs each malicious-schema case of DIR (e.g. fuzz/malicious): compile
      plus validate, printing the outcome, the expected outcome and the time.
  mcp lint TOOLS.json [--format text|json]
      Lints a tools/list result (pages as an array of results, or an array
      of tools): diagnostics grouped by tool, with JSON Pointers and fixes.
      Exit 1 on errors.
  mcp check TOOLS.json --tool NAME --arguments ARGS.json
      Prints `null` if the arguments are valid, else the CallToolResult
      (isError) or the JSON-RPC error; exit 1 when refused.
  mcp check-result TOOLS.json --tool NAME --result RESULT.json [--lenient]
      Checks a CallToolResult's structuredContent against the outputSchema
      (--lenient: undeclared properties pass); prints `null` or the JSON-RPC
      error; exit 1 on a mismatch.

exit status: 0 valid, 1 invalid, 2 usage/input/schema error, 3 budget exceeded
";

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let result = match argv.first().map(String::as_str) {
        Some("validate") => validate::run(argv.get(1..).unwrap_or_default()),
        Some("explain") => explain::run(argv.get(1..).unwrap_or_default()),
        Some("corpus") => corpus::run(argv.get(1..).unwrap_or_default()),
        Some("mcp") => mcp::run(argv.get(1..).unwrap_or_default()),
        Some("-h" | "--help" | "help") => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Some("-V" | "--version") => {
            println!("schemavm {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Some(other) => Err(CliError::Usage(format!("unknown command {other:?}"))),
        None => Err(CliError::Usage("no command given".to_string())),
    };
    match result {
        Ok(code) => code,
        Err(CliError::Usage(message)) => {
            eprintln!("error: {message}\n\n{USAGE}");
            ExitCode::from(2)
        }
        Err(CliError::Failed(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
        Err(CliError::Closed) => ExitCode::SUCCESS,
    }
}
