//! A per-thread pool of error boxes and error lists.
//!
//! Recording an error fills one box of [`ErrorData`] (at most 256 bytes),
//! and the errors of one validation are kept in one list (a `Vec`). A
//! validator that collects errors over and over (a server checking tool
//! calls, a client checking structured content) would otherwise go to
//! the allocator twice per error and twice more per list, which costs
//! more than writing the errors. A dropped
//! [`crate::ValidationError`] gives its box back here
//! with its contents dropped, a dropped [`Errors`](crate::Errors) its
//! list, emptied; the next error or list recorded on the same thread
//! takes them.
//!
//! At most [`POOLED`] boxes (16 KiB) and [`POOLED_LISTS`] lists of at most
//! [`LIST_CAPACITY`] errors (2 KiB) are kept per thread, none holding
//! heap memory of its own but a box the buffer of its last string
//! preview (at most 240 bytes, reused by the next one), and they are
//! freed with the thread. What is
//! given back when the pool is full, or while the thread is being torn
//! down, is simply freed, and so is a longer list. (What an error or a
//! list owns is dropped before the pool is borrowed, so no drop runs
//! inside the borrow.)

use std::cell::RefCell;

use crate::ValidationError;
use crate::error::ErrorData;

/// Most boxes kept per thread.
pub(crate) const POOLED: usize = 64;

/// Most lists kept per thread (one per [`Errors`](crate::Errors) alive at
/// once is all a loop over validations needs).
pub(crate) const POOLED_LISTS: usize = 4;

/// The longest list kept (in errors; 8 bytes each).
pub(crate) const LIST_CAPACITY: usize = 256;

/// What one thread keeps.
struct Pool {
    // The boxes are what is pooled: each is the allocation an error takes
    // and gives back as it is (a `Vec<ErrorData>` would copy the errors).
    #[allow(clippy::vec_box)]
    boxes: Vec<Box<ErrorData>>,
    /// Empty lists with room for errors.
    lists: Vec<Vec<ValidationError>>,
}

thread_local! {
    static POOL: RefCell<Pool> = const { RefCell::new(Pool { boxes: Vec::new(), lists: Vec::new() }) };
}

/// Runs `f` on this thread's pool, if it can be reached (not while the
/// thread is torn down, nor from within `f`).
#[inline(always)]
fn with_pool<R>(f: impl FnOnce(&mut Pool) -> Option<R>) -> Option<R> {
    POOL.try_with(|pool| pool.try_borrow_mut().ok().and_then(|mut pool| f(&mut pool))).ok().flatten()
}

/// A box from the pool, if it has one. It holds a blank error (see
/// [`ErrorData::clear`]), ready to be filled.
#[inline]
pub(crate) fn take() -> Option<Box<ErrorData>> {
    with_pool(|pool| pool.boxes.pop())
}

/// Drops what `data` owns and keeps the box for [`take`] (or frees it if
/// the pool is full or unavailable).
#[inline]
pub(crate) fn give(mut data: Box<ErrorData>) {
    data.clear();
    // If the pool cannot be reached, the closure (and the box it owns) is
    // dropped unused: the box is freed.
    with_pool(move |pool| (pool.boxes.len() < POOLED).then(|| pool.boxes.push(data)));
}

/// An empty list from the pool, if it has one (with room for at least
/// one error).
#[inline]
pub(crate) fn take_list() -> Option<Vec<ValidationError>> {
    with_pool(|pool| pool.lists.pop())
}

/// Drops the errors `list` holds and keeps it for [`take_list`] (or frees
/// it if it is too long, or the pool is full or unavailable). A list that
/// never took room (a valid instance's) holds nothing: that is decided in
/// the caller, without a call.
#[inline(always)]
pub(crate) fn give_list(list: Vec<ValidationError>) {
    if list.capacity() != 0 {
        keep_list(list);
    }
}

/// [`give_list`] for a list with room.
fn keep_list(mut list: Vec<ValidationError>) {
    list.clear();
    if list.capacity() > LIST_CAPACITY {
        return;
    }
    with_pool(move |pool| (pool.lists.len() < POOLED_LISTS).then(|| pool.lists.push(list)));
}

/// How many boxes this thread's pool holds (for tests).
#[cfg(test)]
pub(crate) fn pooled() -> usize {
    POOL.with(|pool| pool.borrow().boxes.len())
}

/// How many lists this thread's pool holds (for tests).
#[cfg(test)]
pub(crate) fn pooled_lists() -> usize {
    POOL.with(|pool| pool.borrow().lists.len())
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

    /// A dropped [`Errors`](crate::Errors) gives its list back, emptied,
    /// and the next validation that finds errors records them in it; a
    /// list longer than [`LIST_CAPACITY`] is freed instead.
    #[test]
    fn dropped_error_lists_are_pooled_and_reused() {
        let v = Validator::new(&json!({"additionalProperties": false})).unwrap();
        while take_list().is_some() {}
        let mut errors = v.iter_errors(&json!({"a": 1, "b": 2, "c": 3}));
        assert_eq!(errors.next().map(|e| e.to_string()).as_deref(), Some("$.a: unknown property"));
        drop(errors);
        assert_eq!(pooled_lists(), 1);
        // The two errors not taken were dropped, their boxes pooled.
        let boxes = pooled();
        let errors: Vec<String> = v.iter_errors(&json!({"x": 1})).map(|e| e.to_string()).collect();
        assert_eq!(errors, ["$.x: unknown property"]);
        assert_eq!(pooled_lists(), 1);
        assert_eq!(pooled(), boxes);
        // A valid instance takes no list, and its list, with no room, is
        // not kept.
        let errors = v.iter_errors(&json!({}));
        assert_eq!(errors.len(), 0);
        assert_eq!(pooled_lists(), 1);
        drop(errors);
        assert_eq!(pooled_lists(), 1);
        while take_list().is_some() {}
        let many: serde_json::Map<String, serde_json::Value> =
            (0..LIST_CAPACITY + 1).map(|i| (format!("p{i}"), json!(i))).collect();
        let mut errors = v.iter_errors(&json!(many));
        assert_eq!(errors.len(), LIST_CAPACITY + 1);
        assert!(errors.next_back().is_some_and(|e| e.to_string().starts_with("$.p99: ")));
        drop(errors);
        assert_eq!(pooled_lists(), 0);
        // At most `POOLED_LISTS` lists wait.
        let alive: Vec<_> = (0..POOLED_LISTS + 2).map(|_| v.iter_errors(&json!({"y": 1}))).collect();
        assert!(alive.iter().all(|errors| errors.len() == 1));
        drop(alive);
        assert_eq!(pooled_lists(), POOLED_LISTS);
    }

    /// Errors of many kinds, with their caches filled or not, go back to
    /// the pool and come out blank. (Valgrind's memcheck over this test
    /// checks that the kinds and values forgotten rather than dropped in
    /// [`ErrorData::clear`] owned nothing.)
    #[test]
    fn errors_of_every_kind_are_pooled_blank() {
        let schema = json!({
            "properties": {
                "min": {"minimum": 5}, "max": {"exclusiveMaximum": 1.5}, "mul": {"multipleOf": 2},
                "const": {"const": null}, "str": {"const": "a"}, "enum": {"enum": [1, "x"]},
                "type": {"type": ["string", "null"]}, "len": {"minLength": 3}, "pat": {"pattern": "^a"},
                "items": {"maxItems": 1, "uniqueItems": true}, "contains": {"contains": {"const": 0}},
                "req": {"required": ["r"], "minProperties": 2}, "one": {"oneOf": [true, true]},
                "any": {"anyOf": [{"type": "null"}, false]}, "not": {"not": true},
                "format": {"format": "email"}
            },
            "additionalProperties": false
        });
        let v = Validator::options().assert_formats(true).build(&schema).unwrap();
        let instance = json!({
            "min": 1, "max": 2, "mul": 3, "const": 1, "str": "b", "enum": 2, "type": 1, "len": "a",
            "pat": "b", "items": [1, 1], "contains": [1], "req": {}, "one": 1, "any": 1, "not": 1,
            "format": "nope", "extra": 1
        });
        for round in 0..3 {
            let errors: Vec<_> = v.iter_errors(&instance).collect();
            assert_eq!(errors.len(), 20, "{errors:?}");
            for (i, e) in errors.iter().enumerate() {
                // Every other error has its message, found value and
                // instance location built (cached in the error).
                if (i + round) % 2 == 0 {
                    assert!(!e.to_string().is_empty());
                    let _ = (e.found(), e.instance_location());
                }
            }
        }
        let errors: Vec<_> = Validator::new(&json!({"type": "string"})).unwrap().iter_errors(&json!(1)).collect();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].to_string(), "$: must be a string (got an integer)");
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
