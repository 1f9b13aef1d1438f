//! `schemavm corpus DIR`: runs the malicious-schema corpus.

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use crate::CliError;
use crate::args::Args;

/// Each case must finish within this.
const CASE_TIME: Duration = Duration::from_secs(1);

/// Runs the command on a directory of cases, or on one case file.
pub fn run(argv: &[String]) -> Result<ExitCode, CliError> {
    let args = Args::parse(argv, &[], &[]).map_err(CliError::Usage)?;
    let [dir] = args.positional.as_slice() else {
        return Err(CliError::Usage("corpus needs exactly one DIR".into()));
    };
    let path = Path::new(dir);
    let cases = if path.is_dir() { schemavm::corpus::load_dir(path)? } else { vec![schemavm::corpus::load(path)?] };
    let (mut failed, total) = (0usize, cases.len());
    crate::outln!("{:<6} {:<40} {:>10}  {:<36} expected", "result", "case", "time", "outcome")?;
    for case in cases {
        let report = case.run();
        let ok = report.passed() && report.elapsed < CASE_TIME;
        failed += usize::from(!ok);
        crate::outln!(
            "{:<6} {:<40} {:>8.1}ms  {:<36} {}",
            if ok { "ok" } else { "FAIL" },
            report.name,
            report.elapsed.as_secs_f64() * 1000.0,
            report.actual.to_string(),
            report.expected
        )?;
        if !ok {
            crate::outln!("       {}", report.detail)?;
        }
    }
    match peak_memory() {
        Some(kib) => crate::outln!("\n{} cases, {failed} failed; peak memory {:.1} MiB", total, kib as f64 / 1024.0)?,
        None => crate::outln!("\n{} cases, {failed} failed", total)?,
    }
    Ok(ExitCode::from(u8::from(failed > 0)))
}

/// The process's peak resident memory in KiB (Linux).
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
