//! `schemavm explain`: the compiled program and its cost bounds.

use std::process::ExitCode;

use schemavm::{Draft, Validator};
use schemavm_compiler::bytecode::{Entry, NodeFlags};

use crate::CliError;
use crate::args::Args;
use crate::input::read_json;

/// Runs the command.
pub fn run(argv: &[String]) -> Result<ExitCode, CliError> {
    let usage = CliError::Usage;
    let args = Args::parse(argv, &["draft", "resource"], &[]).map_err(usage)?;
    let [path] = args.positional.as_slice() else {
        return Err(usage("explain needs exactly one SCHEMA.json".into()));
    };
    let mut options = Validator::options().keep_cost_bounds(true);
    if let Some(d) = args.value("draft") {
        let draft = Draft::from_short_name(d).ok_or_else(|| usage(format!("unknown draft {d:?}")))?;
        options = options.draft(draft);
    }
    for spec in args.values("resource") {
        let (uri, file) =
            spec.split_once('=').ok_or_else(|| usage(format!("--resource {spec:?}: expected URI=FILE")))?;
        options = options.resource(uri, read_json(file)?);
    }
    let schema = read_json(path)?;
    let validator = match options.build(&schema) {
        Ok(v) => v,
        Err(e) => {
            crate::outln!("{path}: rejected\n  {e}")?;
            return Ok(ExitCode::from(1));
        }
    };
    let p = validator.program();
    // Kept (`keep_cost_bounds`): never the default.
    let cost = |n| p.cost(n).unwrap_or_default();
    let root = cost(p.root());
    let entries = p.node_ids().filter(|n| cost(*n).fan_out > 0).count();
    let worst = p.node_ids().map(cost).max_by_key(|c| c.fan_out).unwrap_or_default();
    let memo = p.node_ids().map(|n| p.node(n)).filter(|n| n.flags().contains(NodeFlags::MEMO));
    // A `MEMO` node not entered through the memo is memoized only while
    // recording errors (the cost analysis found the boolean path bounded).
    let (memoized, recording_only) =
        memo.fold((0, 0), |(all, only), n| (all + 1, only + usize::from(n.entry() != Entry::Memo)));
    crate::outln!(
        "{path}: dialect {}, {} nodes, {} instructions",
        validator.draft(),
        p.node_count(),
        p.instruction_count()
    )?;
    crate::outln!(
        "cost bounds: root fan-out {} (unmemoized {}), worst entry fan-out {} (unmemoized {}) over {entries} entries, \
         in-place depth {}; {memoized} memoized nodes ({recording_only} only while recording errors)",
        root.fan_out,
        root.unmemoized_fan_out,
        worst.fan_out,
        worst.unmemoized_fan_out,
        worst.in_place_depth
    )?;
    crate::outln!()?;
    crate::outln!("{p}")?;
    Ok(ExitCode::SUCCESS)
}
