//! A quick adaptive timing loop, for the `report` binary (criterion does
//! the careful measurement in `cargo bench`).

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Batches per measurement, when the budget allows.
const BATCHES: u32 = 7;
/// Batches per measurement however slow the function.
const MIN_BATCHES: usize = 3;

/// Median nanoseconds per call of `f`, over batches of calls sized so that
/// the whole measurement takes about `budget`. The calls that size the
/// batches double as warm-up, except that a single call longer than a
/// batch counts as the first of at least three samples.
pub fn ns_per_call(budget: Duration, mut f: impl FnMut() -> usize) -> f64 {
    let target = budget / BATCHES;
    let mut samples = Vec::new();
    let mut n = 1u64;
    let per_call = loop {
        let elapsed = batch(n, &mut f);
        if n == 1 && elapsed >= target {
            samples.push(elapsed.as_secs_f64() * 1e9);
        }
        if elapsed >= target / 8 {
            break elapsed.as_secs_f64() / n as f64;
        }
        n *= 2;
    };
    let n = ((target.as_secs_f64() / per_call) as u64).max(1);
    let start = Instant::now();
    while samples.len() < MIN_BATCHES || (samples.len() < BATCHES as usize && start.elapsed() < budget) {
        samples.push(batch(n, &mut f).as_secs_f64() * 1e9 / n as f64);
    }
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// The time of `n` calls of `f`.
fn batch(n: u64, f: &mut impl FnMut() -> usize) -> Duration {
    let start = Instant::now();
    for _ in 0..n {
        black_box(f());
    }
    start.elapsed()
}
