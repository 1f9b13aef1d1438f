//! `cargo bench -p schemavm-benches`: schemavm, jsonschema and boon side
//! by side on every row of [`schemavm_benches::Suite`] (`is_valid` and
//! `iter_errors` over `../shared/bench-data`, compile time, the MCP shape),
//! then a table of medians and ratios read back from this run's criterion
//! estimates, with the heap bytes of each compiled validator (measured
//! once, by the counting allocator installed here).
//!
//! `SCHEMAVM_BENCH_QUICK=1` shortens measurement (for a smoke run).
//! `SCHEMAVM_BENCH_ROUNDS=N` runs every row in N rounds over the whole
//! suite, each round starting each row with the next peer, and the table
//! takes each value's median over the rounds: criterion times one peer
//! after another, so on a shared machine a slow phase can land on one
//! peer's samples of a row, and rounds minutes apart let the median drop
//! it. A criterion filter selects benchmarks; the table shows the rows
//! that ran, and the memory rows of the cases whose compile rows ran.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use criterion::Criterion;
use schemavm_benches::memory::CountingAlloc;
use schemavm_benches::{Kind, Line, Suite, data_dir, print_table};

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
    let rounds = match rounds() {
        Ok(n) => n,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let rows = suite.rows();
    for round in 0..rounds {
        for row in &rows {
            let mut timed: Vec<_> = row.timed().collect();
            if timed.is_empty() {
                continue;
            }
            let mut group = c.benchmark_group(group_name(&row.name, round));
            if row.kind == Kind::Compile {
                group.sample_size(10);
            }
            // Each round starts the row with the next peer.
            let len = timed.len();
            timed.rotate_left(round % len);
            for (peer, work) in timed {
                group.bench_function(peer.name(), |b| b.iter(|| work.run()));
            }
            group.finish();
        }
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
        let line = match row.kind {
            Kind::Memory => row.measure(|_, _| None),
            _ => Line::median_of(
                (0..rounds)
                    .map(|r| row.measure(|peer, _| median_ns(&out, &group_name(&row.name, r), peer.name(), started)))
                    .collect(),
            ),
        };
        if line.values.iter().any(Option::is_some) {
            if row.kind == Kind::Compile {
                compiled.insert(&row.case);
            }
            lines.push(line);
        }
    }
    print_table(&lines);
}

/// The rounds of the run: `SCHEMAVM_BENCH_ROUNDS` (at least 1), else 1.
fn rounds() -> Result<usize, String> {
    match std::env::var("SCHEMAVM_BENCH_ROUNDS") {
        Err(_) => Ok(1),
        Ok(v) => match v.parse::<usize>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(format!("SCHEMAVM_BENCH_ROUNDS must be a whole number of rounds, at least 1, not {v:?}")),
        },
    }
}

/// The criterion group of a row in a round: the row's name in the first
/// (so a one-round run keeps the names of earlier runs), then with the
/// round's number.
fn group_name(row: &str, round: usize) -> String {
    if round == 0 { row.to_string() } else { format!("{row}~{round}") }
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
