//! [`Errors`]: the errors of one validation, as an iterator.

use std::fmt;
use std::iter::FusedIterator;

use crate::ValidationError;
use crate::error_pool;

/// The errors of one validation, in the order they were found
/// ([`Validator::iter_errors`](crate::Validator::iter_errors)): an
/// iterator from either end that yields each error by value.
///
/// Dropping it drops the errors not taken and gives their storage back to
/// a small per-thread pool, from which the next validation on the thread
/// records its errors without allocating.
pub struct Errors {
    /// The errors not taken yet: first to last, or last to first when
    /// `reversed`. Each end is taken by popping, after reversing the list
    /// if the other end was taken last (once for a whole pass either way).
    list: Vec<ValidationError>,
    reversed: bool,
}

impl Errors {
    /// The errors of `list`, first to last.
    pub(crate) fn new(list: Vec<ValidationError>) -> Errors {
        Errors { list, reversed: false }
    }

    /// The errors not taken yet, first to last, without taking them.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &ValidationError> + ExactSizeIterator {
        let len = self.list.len();
        // `i < len`: every index is in bounds.
        (0..len).map(move |i| &self.list[if self.reversed { len - 1 - i } else { i }])
    }

    /// Pops from the list with the first error not taken at the end if
    /// `first`, else with the last one there.
    #[inline]
    fn pop(&mut self, first: bool) -> Option<ValidationError> {
        if self.reversed != first {
            self.list.reverse();
            self.reversed = first;
        }
        self.list.pop()
    }
}

impl Iterator for Errors {
    type Item = ValidationError;

    #[inline]
    fn next(&mut self) -> Option<ValidationError> {
        self.pop(true)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.list.len(), Some(self.list.len()))
    }

    #[inline]
    fn count(self) -> usize {
        self.list.len()
    }
}

impl DoubleEndedIterator for Errors {
    #[inline]
    fn next_back(&mut self) -> Option<ValidationError> {
        self.pop(false)
    }
}

impl ExactSizeIterator for Errors {}

impl FusedIterator for Errors {}

impl Drop for Errors {
    #[inline]
    fn drop(&mut self) {
        error_pool::give_list(std::mem::take(&mut self.list));
    }
}

impl Clone for Errors {
    /// Copies the errors not taken yet (each error is copied too).
    fn clone(&self) -> Errors {
        Errors { list: self.list.clone(), reversed: self.reversed }
    }
}

impl Default for Errors {
    /// No errors.
    fn default() -> Errors {
        Errors { list: Vec::new(), reversed: false }
    }
}

impl fmt::Debug for Errors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::Validator;

    /// The errors come first to last from the front, last to first from
    /// the back, each once; `iter` and `len` see those not taken, and a
    /// clone copies them.
    #[test]
    fn errors_are_taken_from_either_end() {
        let v = Validator::new(&json!({"items": {"type": "string"}})).unwrap();
        let mut errors = v.iter_errors(&json!([1, 2, 3, 4, 5, 6]));
        assert_eq!(errors.len(), 6);
        let path = |e: Option<crate::ValidationError>| e.map(|e| e.instance_location().to_pointer());
        let rest = |errors: &crate::Errors| -> Vec<String> {
            errors.iter().map(|e| e.instance_location().to_pointer()).collect()
        };
        assert_eq!(path(errors.next()).as_deref(), Some("/0"));
        assert_eq!(rest(&errors), ["/1", "/2", "/3", "/4", "/5"]);
        assert_eq!(path(errors.next_back()).as_deref(), Some("/5"));
        assert_eq!(path(errors.next()).as_deref(), Some("/1"));
        assert_eq!(rest(&errors), ["/2", "/3", "/4"]);
        assert_eq!(errors.iter().next_back().map(|e| e.instance_location().to_pointer()).as_deref(), Some("/4"));
        assert_eq!(path(errors.next_back()).as_deref(), Some("/4"));
        assert_eq!(rest(&errors), ["/2", "/3"]);
        assert_eq!(errors.size_hint(), (2, Some(2)));
        let copy = errors.clone();
        assert!(format!("{errors:?}").contains("Index(2)"), "{errors:?}");
        assert_eq!(errors.by_ref().count(), 2);
        assert_eq!(errors.next(), None);
        assert_eq!(errors.next_back(), None);
        assert_eq!(copy.map(|e| e.instance_location().to_pointer()).collect::<Vec<_>>(), ["/2", "/3"]);
        assert_eq!(crate::Errors::default().len(), 0);
    }
}
