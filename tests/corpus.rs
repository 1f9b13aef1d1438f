//! The malicious-schema corpus (`fuzz/malicious`): every case produces its
//! expected outcome class, and the whole run stays under 1 GiB of live
//! heap. (Times are printed by `schemavm corpus fuzz/malicious`; tests do
//! not assert them.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Peak;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to `System` unchanged; the counters are
// atomics, which do not allocate.
unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size >= layout.size() {
            let live = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size - layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Peak = Peak;

#[test]
fn every_case_has_its_expected_outcome() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/malicious");
    let cases = schemavm::corpus::load_dir(&dir).expect("the corpus loads");
    assert!(cases.len() >= 40, "the corpus has {} cases", cases.len());
    let mut failures = Vec::new();
    for case in cases {
        let report = case.run();
        println!("{:<45} {:>9.1}ms  {}", report.name, report.elapsed.as_secs_f64() * 1e3, report.actual);
        if !report.passed() {
            failures.push(format!(
                "{}: expected {}, got {} ({})",
                report.name, report.expected, report.actual, report.detail
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let peak = PEAK.load(Ordering::Relaxed);
    println!("peak live heap: {:.1} MiB", peak as f64 / (1 << 20) as f64);
    assert!(peak < 1 << 30, "peak live heap {peak} bytes");
}
