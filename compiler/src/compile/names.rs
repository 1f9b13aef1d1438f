//! [`Names`]: distinct strings of a schema in first-seen order, each
//! with its index, as a compiler pass collects a [`KeyTable`]'s keys
//! (an object's property names, the names a list of alternatives
//! requires, the values of a tag).
//!
//! Few names are found by scanning; past [`SCANNED`] they are hashed, so
//! that collecting `n` names costs linear time whatever the schema (an
//! `enum` of hundreds of licence names, a hundred `required`
//! alternatives).

use std::ops::Deref;

use crate::hash::TextMap;
use crate::lookup::KeyTable;

/// Most names found by scanning.
const SCANNED: usize = 8;

/// Distinct strings in first-seen order, each with its index.
#[derive(Debug, Default, Clone)]
pub(super) struct Names<'a> {
    order: Vec<&'a str>,
    /// Name → index, kept once there are more than [`SCANNED`] names.
    index: TextMap<&'a str, u32>,
}

impl<'a> Names<'a> {
    /// Room for `additional` more names.
    pub(super) fn reserve(&mut self, additional: usize) {
        self.order.reserve_exact(additional);
    }

    /// The index of `name`, and whether it is new (then it is the last).
    pub(super) fn index(&mut self, name: &'a str) -> (u32, bool) {
        let found = if self.order.len() <= SCANNED {
            self.order.iter().position(|n| *n == name).map(|i| u32::try_from(i).unwrap_or(u32::MAX))
        } else {
            self.index.get(name).copied()
        };
        if let Some(i) = found {
            return (i, false);
        }
        let i = u32::try_from(self.order.len()).unwrap_or(u32::MAX);
        self.order.push(name);
        if self.order.len() > SCANNED {
            if self.index.is_empty() {
                self.index.reserve(2 * self.order.len());
                self.index.extend(self.order.iter().zip(0..).map(|(n, i)| (*n, i)));
            } else {
                self.index.insert(name, i);
            }
        }
        (i, true)
    }

    /// The names as a [`KeyTable`] (index `i` is the `i`-th name).
    pub(super) fn table<P: Copy + Default>(&self) -> KeyTable<P> {
        KeyTable::new(self.order.iter().map(|n| Box::from(*n)).collect())
    }
}

impl<'a> Deref for Names<'a> {
    type Target = [&'a str];

    fn deref(&self) -> &[&'a str] {
        &self.order
    }
}

#[cfg(test)]
mod tests {
    use super::{Names, SCANNED};

    #[test]
    fn names_keep_their_first_index_below_and_past_the_scan() {
        let words: Vec<String> = (0..3 * SCANNED).map(|i| format!("n{}", i % (2 * SCANNED))).collect();
        let mut names = Names::default();
        for (i, w) in words.iter().enumerate() {
            let expected = i % (2 * SCANNED);
            assert_eq!(names.index(w), (expected as u32, i < 2 * SCANNED), "{w}");
        }
        assert_eq!(names.len(), 2 * SCANNED);
        let table = names.table::<()>();
        assert_eq!(table.find("n3"), Some(3));
        assert_eq!(table.find(&format!("n{}", 2 * SCANNED - 1)), Some(2 * SCANNED as u32 - 1));
    }
}
