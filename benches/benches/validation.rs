//! `cargo bench -p schemavm-benches`: schemavm, jsonschema and boon side
//! by side on every row of [`schemavm_benches::Suite`] (`is_valid` and
//! `iter_errors` over `../shared/bench-data`, compile time, the MCP shape),
//! then a table of medians and ratios read back from this run's criterion
//! estimates, with the heap bytes of each compiled validator (measured
//! once, by the counting allocator installed here).
//!
//! `SCHEMAVM_BENCH_QUICK=1` shortens measurement (for a smoke run). A
//! criterion filter selects benchmarks; the table shows the rows that ran,
//! and the memory rows of the cases whose compile rows ran.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use criterion::Criterion;
use schemavm_benches::memory::CountingAlloc;
use schemavm_benches::{Kind, Suite, data_dir, print_table};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

fn main() {
    let started = SystemTime::now();
    let suite = match data_dir().and_then(|dir| Suite::load(&dir, None)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/criterion");
    let mut c = Criterion::default().output_directory(&out).configure_from_args();
    if std::env::var_os("SCHEMAVM_BENCH_QUICK").is_some() {
        c = c.warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1)).sample_size(10);
    }
    let rows = suite.rows();
    for row in &rows {
        if row.timed().next().is_none() {
            continue;
        }
        let mut group = c.benchmark_group(&row.name);
        if row.kind == Kind::Compile {
            group.sample_size(10);
        }
        for (peer, work) in row.timed() {
            group.bench_function(peer.name(), |b| b.iter(|| work.run()));
        }
        group.finish();
    }
    c.final_summary();
    // Rows this run measured: the timed ones criterion ran (a filter may
    // have left some out), and the memory rows of the cases whose compile
    // rows it ran.
    let mut compiled = HashSet::new();
    let mut lines = Vec::new();
    for row in &rows {
        if row.kind == Kind::Memory && !compiled.contains(&row.case) {
            continue;
        }
        let line = row.measure(|peer, _| median_ns(&out, &row.name, peer.name(), started));
        if line.values.iter().any(Option::is_some) {
            if row.kind == Kind::Compile {
                compiled.insert(&row.case);
            }
            lines.push(line);
        }
    }
    print_table(&lines);
}

/// The median estimate, in nanoseconds, criterion recorded for a
/// benchmark in this run (written since `started`; older estimates are
/// from runs that a filter left out of this one).
fn median_ns(out: &Path, group: &str, function: &str, started: SystemTime) -> Option<f64> {
    let path: PathBuf = out.join(group).join(function).join("new").join("estimates.json");
    if std::fs::metadata(&path).and_then(|m| m.modified()).ok()? < started {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v.get("median")?.get("point_estimate")?.as_f64()
}
