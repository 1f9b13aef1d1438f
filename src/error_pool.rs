//! A per-thread pool of error boxes.
//!
//! Recording an error fills one box of [`ErrorData`] (at most 256 bytes).
//! A validator that collects errors over and over (a server checking tool
//! calls, a client checking structured content) would otherwise go to
//! the allocator twice per error, which costs more than writing the
//! error. A dropped [`ValidationError`](crate::ValidationError) gives its
//! box back here with its contents dropped, and the next error recorded
//! on the same thread takes it.
//!
//! At most [`POOLED`] boxes (16 KiB) are kept per thread, each holding
//! no heap memory of its own, and they are freed with the thread. A box
//! given back when the pool is full, or while the thread is being torn
//! down, is simply freed. (What an error owns is dropped before the pool
//! is borrowed, so no drop runs inside the borrow.)

use std::cell::RefCell;

use crate::error::ErrorData;

/// Most boxes kept per thread.
pub(crate) const POOLED: usize = 64;

thread_local! {
    // The boxes are what is pooled: each is the allocation an error takes
    // and gives back as it is (a `Vec<ErrorData>` would copy the errors).
    #[allow(clippy::vec_box)]
    static POOL: RefCell<Vec<Box<ErrorData>>> = const { RefCell::new(Vec::new()) };
}

/// A box from the pool, if it has one. It holds a blank error (see
/// [`ErrorData::clear`]), ready to be filled.
#[inline]
pub(crate) fn take() -> Option<Box<ErrorData>> {
    POOL.try_with(|pool| pool.try_borrow_mut().ok().and_then(|mut boxes| boxes.pop())).ok().flatten()
}

/// Drops what `data` owns and keeps the box for [`take`] (or frees it if
/// the pool is full or unavailable).
#[inline]
pub(crate) fn give(mut data: Box<ErrorData>) {
    data.clear();
    // If the pool cannot be reached, the closure (and the box it owns) is
    // dropped unused: the box is freed.
    let _ = POOL.try_with(move |pool| {
        if let Ok(mut boxes) = pool.try_borrow_mut() {
            if boxes.len() < POOLED {
                boxes.push(data);
            }
        }
    });
}

/// How many boxes this thread's pool holds (for tests).
#[cfg(test)]
pub(crate) fn pooled() -> usize {
    POOL.with(|pool| pool.borrow().len())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::Validator;

    /// Dropped errors wait in the pool, at most [`POOLED`] of them, and
    /// recording takes them back.
    #[test]
    fn dropped_errors_are_pooled_and_reused() {
        let v = Validator::new(&json!({"additionalProperties": false})).unwrap();
        let many: serde_json::Map<String, serde_json::Value> = (0..100).map(|i| (format!("p{i}"), json!(i))).collect();
        let errors: Vec<_> = v.iter_errors(&json!(many)).collect();
        assert_eq!(errors.len(), 100);
        drop(errors);
        assert_eq!(pooled(), POOLED);
        let errors: Vec<_> = v.iter_errors(&json!({"a": 1, "b": 2})).collect();
        assert_eq!(errors.len(), 2);
        assert_eq!(pooled(), POOLED - 2);
    }

    /// A reused box carries nothing of the error it held before: not its
    /// long locations, its kind, its found value nor its cached instance
    /// location.
    #[test]
    fn a_reused_box_holds_only_the_new_error() {
        let long = "k".repeat(300);
        let first = Validator::new(&json!({"properties": {(long.clone()): {"minimum": 5}}})).unwrap();
        let errors: Vec<_> = first.iter_errors(&json!({(long.clone()): 1})).collect();
        assert_eq!(errors.len(), 1);
        // Fill the caches, then give the box back.
        assert_eq!(errors[0].instance_location().to_pointer(), format!("/{long}"));
        assert!(errors[0].to_string().contains("at least 5"));
        drop(errors);
        assert!(pooled() > 0);
        let second = Validator::new(&json!({"type": "string"})).unwrap();
        let errors: Vec<_> = second.iter_errors(&json!(3)).collect();
        assert_eq!(errors.len(), 1);
        let e = &errors[0];
        assert_eq!(e.instance_location().to_pointer(), "");
        assert_eq!(e.keyword_location(), "/type");
        assert!(e.absolute_keyword_location().ends_with("#/type"), "{}", e.absolute_keyword_location());
        assert_eq!(e.to_string(), "$: must be a string (got an integer)");
        // A clone is an error of its own: both drop into the pool.
        let copy = e.clone();
        assert_eq!(&copy, e);
        drop(errors);
        assert_eq!(copy.keyword_location(), "/type");
    }
}
