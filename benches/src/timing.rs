//! A quick adaptive timing loop, for the `report` binary (criterion does
//! the careful measurement in `cargo bench`).
//!
//! On 64-bit Linux it reads the thread's CPU time rather than the wall
//! clock: on a machine busy with other work (builds on the same cores),
//! the time the scheduler gives to other processes is not counted, so
//! before/after comparisons stay meaningful. Elsewhere, the wall clock.

use std::hint::black_box;
use std::time::Duration;

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
    let start = now();
    while samples.len() < MIN_BATCHES || (samples.len() < BATCHES as usize && now() - start < budget) {
        samples.push(batch(n, &mut f).as_secs_f64() * 1e9 / n as f64);
    }
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// The time of `n` calls of `f`.
fn batch(n: u64, f: &mut impl FnMut() -> usize) -> Duration {
    let start = now();
    for _ in 0..n {
        black_box(f());
    }
    now() - start
}

/// The calling thread's CPU time.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn now() -> Duration {
    /// `struct timespec` where `long` is 64 bits.
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    /// Linux's `CLOCK_THREAD_CPUTIME_ID`.
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    unsafe extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    let mut t = Timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a live, writable `struct timespec`; the clock id is
    // one Linux defines.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Wall time since the first call.
#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn now() -> Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}
