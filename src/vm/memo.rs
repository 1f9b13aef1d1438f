//! Memoization of
//! [`NodeFlags::MEMO`](schemavm_compiler::bytecode::NodeFlags::MEMO)
//! nodes: one evaluation per (node, instance value, dynamic scope).
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

use serde_json::Value;

use schemavm_compiler::bytecode::NodeId;

use super::{Evaluated, Flow, Mode, Stack, Vm, render_keyword_path};
use crate::error::ValidationError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key {
    /// The node's index.
    node: u32,
    /// The interned dynamic scope (0 when the program does not use it).
    scope: u32,
    /// The instance value's address: stable for the whole evaluation.
    value: usize,
}

impl Key {
    /// A multiplicative hash; the table takes its top bits.
    #[inline]
    fn hash(&self) -> u64 {
        let mixed = (self.value as u64).rotate_right(3) ^ (u64::from(self.node) << 32 | u64::from(self.scope));
        mixed.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}

/// What a cached evaluation needs beyond its verdict.
#[derive(Debug, Default)]
struct Extra {
    evaluated: Option<Evaluated>,
    /// Errors with keyword locations relative to the node, if recorded.
    errors: Option<Vec<ValidationError>>,
}

/// One slot of the open-addressing table: occupied when its stamp is the
/// table's, so emptying the table is one increment.
#[derive(Debug, Clone, Copy)]
struct Slot {
    key: Key,
    stamp: u32,
    valid: bool,
    /// Index into [`Table::extras`], or `NO_EXTRA`.
    extra: u32,
}

const NO_EXTRA: u32 = u32::MAX;

const EMPTY_SLOT: Slot = Slot { key: Key { node: 0, scope: 0, value: 0 }, stamp: 0, valid: false, extra: NO_EXTRA };

/// Linear probing at load factor at most 1/2 over a power-of-two array.
/// Entries are plain data (the rare extras live beside them), so a lookup
/// is a hash and a short scan, and nothing is dropped per entry.
#[derive(Debug)]
struct Table {
    slots: Vec<Slot>,
    /// `64 - log2(slots.len())`: the hash's top bits index the slots.
    shift: u32,
    len: usize,
    /// The stamp of occupied slots (never 0, the stamp of fresh slots).
    stamp: u32,
    extras: Vec<Extra>,
}

/// Slots of a new table.
const INITIAL_SLOTS: usize = 64;

impl Table {
    fn new() -> Table {
        Table {
            slots: vec![EMPTY_SLOT; INITIAL_SLOTS],
            shift: 64 - INITIAL_SLOTS.trailing_zeros(),
            len: 0,
            stamp: 1,
            extras: Vec::new(),
        }
    }

    /// The slot holding `key`, or the empty slot where it would go.
    #[inline]
    fn position(&self, key: &Key) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = (key.hash() >> self.shift) as usize & mask;
        // The load factor keeps an empty slot: the scan ends.
        loop {
            match self.slots.get(at) {
                Some(slot) if slot.stamp == self.stamp && slot.key != *key => at = (at + 1) & mask,
                _ => return at,
            }
        }
    }

    fn get(&self, key: &Key) -> Option<(bool, Option<&Extra>)> {
        let slot = self.slots.get(self.position(key)).filter(|s| s.stamp == self.stamp)?;
        Some((slot.valid, self.extras.get(slot.extra as usize)))
    }

    fn insert(&mut self, key: Key, valid: bool, extra: Option<Extra>) {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let extra = match extra {
            Some(e) => {
                self.extras.push(e);
                u32::try_from(self.extras.len() - 1).unwrap_or(NO_EXTRA)
            }
            None => NO_EXTRA,
        };
        let at = self.position(&key);
        let stamp = self.stamp;
        if let Some(slot) = self.slots.get_mut(at) {
            if slot.stamp != stamp {
                self.len += 1;
            }
            *slot = Slot { key, stamp, valid, extra };
        }
    }

    /// Doubles the slots, moving the occupied ones.
    #[cold]
    fn grow(&mut self) {
        let doubled = vec![EMPTY_SLOT; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        self.shift -= 1;
        let stamp = self.stamp;
        for slot in old.into_iter().filter(|s| s.stamp == stamp) {
            let at = self.position(&slot.key);
            if let Some(s) = self.slots.get_mut(at) {
                *s = slot;
            }
        }
    }

    /// Empties the table, keeping its slots.
    fn clear(&mut self) {
        self.len = 0;
        self.extras.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Stamps wrapped: old slots could look occupied again.
            self.slots.fill(EMPTY_SLOT);
            self.stamp = 1;
        }
    }
}

/// The cache of one evaluation. Its table comes from a per-thread pool on
/// first use and goes back, emptied, when the evaluation ends, so repeated
/// validations do not allocate for it.
///
/// The first [`WARMUP`] lookups of an evaluation skip the cache: most
/// documents never reach a node twice at one location, and for them the
/// cache is pure cost. The bound the cache exists for still holds, larger
/// by at most those evaluations (each of them one memo-free stretch of
/// work, bounded by the static fan-out).
#[derive(Debug)]
pub(crate) struct Memo {
    table: Option<Table>,
    /// Lookups left before the cache is used.
    warmup: u32,
}

/// Memoizable evaluations run uncached at the start of an evaluation.
const WARMUP: u32 = 256;

impl Default for Memo {
    fn default() -> Memo {
        Memo { table: None, warmup: WARMUP }
    }
}

/// Tables with more slots than this are dropped rather than pooled.
const POOLED_SLOTS: usize = 1 << 17;

thread_local! {
    static POOL: std::cell::RefCell<Vec<Table>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Memo {
    /// Whether a table is held (to give back when the evaluation ends).
    #[inline(always)]
    pub(super) fn holds_table(&self) -> bool {
        self.table.is_some()
    }

    /// Whether this lookup is still in the warm-up (and counts it).
    #[inline]
    fn warming_up(&mut self) -> bool {
        if self.warmup == 0 {
            return false;
        }
        self.warmup -= 1;
        true
    }

    #[inline]
    fn get(&self, key: &Key) -> Option<(bool, Option<&Extra>)> {
        self.table.as_ref()?.get(key)
    }

    fn insert(&mut self, key: Key, valid: bool, extra: Option<Extra>) {
        self.table
            .get_or_insert_with(|| POOL.with(|p| p.borrow_mut().pop()).unwrap_or_else(Table::new))
            .insert(key, valid, extra);
    }
}

/// Gives a table back to the pool (or lets a large one go).
#[cold]
#[inline(never)]
fn release(mut table: Table) {
    if table.slots.len() <= POOLED_SLOTS {
        table.clear();
        // A pool already borrowed (re-entrant drop) just lets the table go.
        let _ = POOL.try_with(|p| p.try_borrow_mut().map(|mut p| p.push(table)));
    }
}

impl Drop for Memo {
    #[inline]
    fn drop(&mut self) {
        // Most evaluations never memoize anything: only a check here.
        if let Some(table) = self.table.take() {
            release(table);
        }
    }
}

impl<'p, 'v, M: Mode> Vm<'p, 'v, M> {
    pub(super) fn memoized<const TRACK: bool>(&mut self, id: NodeId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        if self.memo.warming_up() {
            return self.enter_inline::<TRACK>(id, v, ev);
        }
        // Node indices fit in u32 (ids are u32).
        let node = u32::try_from(id.index()).unwrap_or(u32::MAX);
        let key = Key { node, scope: self.scope_id(), value: v as *const Value as usize };
        let recording = self.collecting();
        if let Some((valid, extra)) = self.memo.get(&key) {
            let tracked = !TRACK || extra.is_some_and(|x| x.evaluated.is_some());
            let explained = !recording || valid || extra.is_some_and(|x| x.errors.is_some());
            if tracked && explained {
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
                        if !self.count_report() {
                            break;
                        }
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
        let extra = (TRACK || errors.is_some()).then(|| Extra { evaluated: TRACK.then_some(own), errors });
        self.memo.insert(key, valid, extra);
        Ok(valid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(i: usize) -> Key {
        Key { node: (i % 7) as u32, scope: (i % 3) as u32, value: 0x1000 + i * 32 }
    }

    #[test]
    fn entries_survive_growth() {
        let mut t = Table::new();
        for i in 0..1000 {
            t.insert(key(i), i % 2 == 0, None);
        }
        assert_eq!(t.len, 1000);
        assert!(t.slots.len() >= 2000);
        for i in 0..1000 {
            assert_eq!(t.get(&key(i)).map(|(v, _)| v), Some(i % 2 == 0), "{i}");
        }
        assert!(t.get(&key(1000)).is_none());
        t.insert(key(3), true, Some(Extra::default()));
        assert_eq!(t.len, 1000);
        assert!(matches!(t.get(&key(3)), Some((true, Some(_)))));
    }

    #[test]
    fn clearing_empties_the_table_even_when_stamps_wrap() {
        let mut t = Table::new();
        t.insert(key(1), true, Some(Extra::default()));
        t.clear();
        assert!(t.get(&key(1)).is_none());
        assert!(t.extras.is_empty());
        t.stamp = u32::MAX;
        t.insert(key(2), false, None);
        t.clear();
        assert_eq!(t.stamp, 1);
        assert!(t.get(&key(2)).is_none());
        t.insert(key(2), true, None);
        assert_eq!(t.get(&key(2)).map(|(v, _)| v), Some(true));
    }
}
