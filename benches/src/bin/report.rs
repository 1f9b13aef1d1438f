//! Every row of the benchmark table, timed by a quick adaptive loop
//! instead of criterion (about 0.3 s per row and peer; 0.1 s with
//! `SCHEMAVM_BENCH_QUICK=1`), for before/after checks while optimizing:
//!
//! ```text
//! cargo run --release -p schemavm-benches --bin report [FILTER]
//! ```
//!
//! `FILTER` selects the rows whose name contains it (e.g. `iter_errors`,
//! `fhir`, `mcp`). Progress goes to stderr, the markdown table to stdout.
//!
//! Validation and compile rows are timed in [`ROUNDS`] interleaved rounds (each peer
//! in turn, then again, the first peer rotating from round to round),
//! each value the median of its rounds: a slow phase of a shared machine
//! then slows every peer alike instead of whichever happened to run
//! during it, and no peer always runs on caches the one before it left.
//! Times are the thread's CPU time on 64-bit Linux (see
//! [`schemavm_benches::timing`]), so other work on the machine disturbs
//! them less than criterion's wall-clock times; compare runs of `report`
//! with each other.

use std::time::Duration;

use schemavm_benches::memory::CountingAlloc;
use schemavm_benches::timing::ns_per_call;
use schemavm_benches::{Kind, Line, Suite, data_dir, print_table};

/// Interleaved rounds per timed row (validation and compile rows; memory
/// rows, which do not vary, run once).
const ROUNDS: u32 = 5;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

fn main() -> Result<(), String> {
    let filter = std::env::args().nth(1);
    let budget = match std::env::var_os("SCHEMAVM_BENCH_QUICK") {
        Some(_) => Duration::from_millis(100),
        None => Duration::from_millis(300),
    };
    let suite = Suite::load(&data_dir()?, filter.as_deref())?;
    let rows = suite.rows();
    if rows.is_empty() {
        return Err(format!("no row name contains {:?}", filter.unwrap_or_default()));
    }
    let lines: Vec<_> = rows
        .iter()
        .enumerate()
        .map(|(k, row)| {
            eprintln!("[{}/{}] {}", k + 1, rows.len(), row.name);
            if row.kind == Kind::Memory {
                return row.measure(|_, work| Some(ns_per_call(budget, || work.run())));
            }
            let rounds: Vec<Line> = (0..ROUNDS)
                .map(|r| row.measure_from(r as usize, |_, work| Some(ns_per_call(budget / ROUNDS, || work.run()))))
                .collect();
            Line::median_of(rounds)
        })
        .collect();
    print_table(&lines);
    Ok(())
}
