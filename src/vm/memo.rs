//! Memoization of [`NodeFlags::MEMO`] nodes: one evaluation per (node,
//! instance value, dynamic scope).
//!
//! The compiler marks a node for memoization when one instance location
//! could otherwise reach it twice (see the compiler's cost analysis);
//! caching its verdict keeps evaluation polynomial in the instance size.
//! An entry remembers what the evaluation produced in the mode it ran in:
//! the verdict always; the evaluated properties/items when it tracked
//! them; the errors when it recorded them, with their keyword locations
//! relative to the node so they can be re-emitted under another
//! evaluation path. A lookup that needs more than the entry has (tracking,
//! or errors after a quiet run) evaluates again and refreshes the entry.
//!
//! The key includes the dynamic scope when the program resolves
//! references through it, since a `$dynamicRef` below the node may land
//! elsewhere under another scope.

use std::collections::HashMap;

use serde_json::Value;

use schemavm_compiler::bytecode::NodeId;

use super::{Evaluated, Flow, Mode, Stack, Vm, render_keyword_path};
use crate::error::ValidationError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    node: NodeId,
    /// The interned dynamic scope (0 when the program does not use it).
    scope: u32,
    /// The instance value's address: stable for the whole evaluation.
    value: usize,
}

/// A cached evaluation: the verdict inline (the common case), anything
/// else boxed so entries stay small.
#[derive(Debug)]
struct Entry {
    valid: bool,
    extra: Option<Box<Extra>>,
}

#[derive(Debug, Default)]
struct Extra {
    evaluated: Option<Evaluated>,
    /// Errors with keyword locations relative to the node, if recorded.
    errors: Option<Vec<ValidationError>>,
}

type Table = HashMap<Key, Entry, schemavm_compiler::hash::IdState>;

/// The cache of one evaluation. Its table comes from a per-thread pool on
/// first use and goes back, emptied, when the evaluation ends, so repeated
/// validations do not allocate for it.
#[derive(Debug, Default)]
pub(crate) struct Memo(Option<Table>);

/// Tables larger than this are dropped rather than pooled.
const POOLED_CAPACITY: usize = 1 << 16;

thread_local! {
    static POOL: std::cell::RefCell<Vec<Table>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Memo {
    fn get(&self, key: &Key) -> Option<&Entry> {
        self.0.as_ref()?.get(key)
    }

    fn insert(&mut self, key: Key, entry: Entry) {
        self.0.get_or_insert_with(|| POOL.with(|p| p.borrow_mut().pop()).unwrap_or_default()).insert(key, entry);
    }
}

/// Gives a table back to the pool (or lets a large one go).
#[cold]
#[inline(never)]
fn release(mut table: Table) {
    if table.capacity() <= POOLED_CAPACITY {
        table.clear();
        // A pool already borrowed (re-entrant drop) just lets the table go.
        let _ = POOL.try_with(|p| p.try_borrow_mut().map(|mut p| p.push(table)));
    }
}

impl Drop for Memo {
    #[inline]
    fn drop(&mut self) {
        // Most evaluations never memoize anything: only a check here (and,
        // the table taken, no drop glue for it is left inline).
        if let Some(table) = self.0.take() {
            release(table);
        }
    }
}

impl<'p, 'v, M: Mode> Vm<'p, 'v, M> {
    pub(super) fn memoized<const TRACK: bool>(&mut self, id: NodeId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        if self.inconclusive() {
            return Ok(false);
        }
        let key = Key { node: id, scope: self.scope_id(), value: v as *const Value as usize };
        let recording = self.collecting();
        if let Some(entry) = self.memo.get(&key) {
            let extra = entry.extra.as_deref();
            let tracked = !TRACK || extra.is_some_and(|x| x.evaluated.is_some());
            let explained = !recording || entry.valid || extra.is_some_and(|x| x.errors.is_some());
            if tracked && explained {
                let valid = entry.valid;
                if TRACK && valid {
                    if let Some(e) = extra.and_then(|x| x.evaluated.as_ref()) {
                        ev.merge(e);
                    }
                }
                if recording && !valid {
                    let prefix = render_keyword_path(&self.keyword_path);
                    let again: Vec<ValidationError> =
                        extra.and_then(|x| x.errors.as_ref()).into_iter().flatten().cloned().collect();
                    for mut e in again {
                        if self.reported >= self.max_errors {
                            self.truncated = true;
                            break;
                        }
                        self.reported += 1;
                        e.0.prefix_keyword_location(&prefix);
                        self.errors.push(e);
                    }
                }
                return Ok(valid);
            }
        }
        let mark = self.errors.len();
        let prefix_len = if recording { render_keyword_path(&self.keyword_path).len() } else { 0 };
        let mut own = Evaluated::default();
        let valid = self.enter::<TRACK>(id, v, if TRACK { &mut own } else { &mut *ev })?;
        if TRACK && valid {
            ev.merge(&own);
        }
        let errors = recording.then(|| {
            self.errors
                .get(mark..)
                .unwrap_or_default()
                .iter()
                .map(|e| {
                    let mut e = e.clone();
                    e.0.strip_keyword_location(prefix_len);
                    e
                })
                .collect()
        });
        let extra = (TRACK || errors.is_some()).then(|| Box::new(Extra { evaluated: TRACK.then_some(own), errors }));
        self.memo.insert(key, Entry { valid, extra });
        Ok(valid)
    }
}
