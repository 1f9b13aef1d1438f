//! `schemavm validate`.

use std::process::ExitCode;

use schemavm::{Draft, Validator};

use crate::CliError;
use crate::args::Args;
use crate::input::read_json;

/// Runs the command; `Err` is a usage, input or schema error (exit 2).
pub fn run(argv: &[String]) -> Result<ExitCode, CliError> {
    let usage = CliError::Usage;
    let args = Args::parse(argv, &["schema", "draft", "resource"], &["assert-formats"]).map_err(usage)?;
    let schema_path = args.value("schema").ok_or_else(|| usage("validate needs --schema SCHEMA.json".into()))?;
    if args.positional.is_empty() {
        return Err(usage("validate needs at least one INSTANCE.json".into()));
    }
    let mut options = Validator::options();
    if let Some(d) = args.value("draft") {
        let draft = Draft::from_short_name(d)
            .ok_or_else(|| usage(format!("unknown draft {d:?} (use 4, 6, 7, 2019-09 or 2020-12)")))?;
        options = options.draft(draft);
    }
    if args.flag("assert-formats") {
        options = options.assert_formats(true);
    }
    for spec in args.values("resource") {
        let (uri, file) =
            spec.split_once('=').ok_or_else(|| usage(format!("--resource {spec:?}: expected URI=FILE")))?;
        options = options.resource(uri, read_json(file)?);
    }
    let schema = read_json(schema_path)?;
    let validator = options.build(&schema).map_err(|e| format!("{schema_path}: {e}"))?;
    let many = args.positional.len() > 1;
    let (mut invalid, mut exhausted) = (false, false);
    for path in &args.positional {
        let instance = read_json(path)?;
        let prefix = if many { format!("{path}: ") } else { String::new() };
        if validator.is_valid(&instance) {
            crate::outln!("{prefix}valid")?;
            continue;
        }
        let errors: Vec<_> = validator.iter_errors(&instance).collect();
        if errors.iter().any(|e| e.is_budget_exceeded()) {
            exhausted = true;
            crate::outln!("{prefix}not validated")?;
        } else {
            invalid = true;
            crate::outln!("{prefix}invalid")?;
        }
        for e in &errors {
            let at =
                if e.keyword_location().is_empty() { String::new() } else { format!("  [{}]", e.keyword_location()) };
            crate::outln!("  {e}{at}")?;
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
