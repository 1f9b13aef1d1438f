//! Heap bytes retained by a compiled validator.
//!
//! A binary that measures memory installs the counting allocator:
//!
//! ```no_run
//! #[global_allocator]
//! static ALLOC: schemavm_benches::memory::CountingAlloc = schemavm_benches::memory::CountingAlloc;
//! ```
//!
//! It counts only while [`retained`] measures (otherwise each allocation
//! costs one relaxed load more than the system allocator), so timings
//! taken in the same binary are not skewed. The count is process-wide:
//! nothing else may allocate on another thread during a measurement.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

/// The system allocator, counting live bytes while [`retained`] runs.
#[derive(Debug)]
pub struct CountingAlloc;

/// Whether allocations are counted now.
static COUNTING: AtomicBool = AtomicBool::new(false);
/// Bytes allocated minus bytes freed while counting.
static LIVE: AtomicIsize = AtomicIsize::new(0);

#[inline]
fn track(delta: isize) {
    if COUNTING.load(Ordering::Relaxed) {
        LIVE.fetch_add(delta, Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded to `System` unchanged; the bookkeeping
// only reads the layouts and touches two atomics (it never allocates).
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is `System.alloc`'s.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            track(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            track(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` through this allocator with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        track(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `dealloc`; `new_size` is the caller's valid size.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            track(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// Heap bytes allocated by `build` and still live when it returns, while
/// its result is alive (the result is dropped afterwards, uncounted).
/// `None` when the binary has not installed [`CountingAlloc`].
pub fn retained<T>(build: impl FnOnce() -> T) -> Option<usize> {
    let before = LIVE.load(Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
    let probe = black_box(Box::new([0u8; 64]));
    let installed = LIVE.load(Ordering::SeqCst) != before;
    drop(probe);
    let start = LIVE.load(Ordering::SeqCst);
    let value = build();
    let end = LIVE.load(Ordering::SeqCst);
    COUNTING.store(false, Ordering::SeqCst);
    drop(value);
    installed.then(|| (end - start).max(0) as usize)
}
