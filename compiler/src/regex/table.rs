//! [`TableDfa`]: a small deterministic automaton flattened into one table,
//! matched by a loop of a few instructions per haystack byte.
//!
//! `regex-automata` determinizes the pattern (its dense DFA, built
//! unanchored, so that a match may start anywhere); this module copies the
//! states reachable from the start of a haystack into rows of `u16`s:
//!
//! * bytes are mapped to the DFA's equivalence classes by a 256-entry
//!   array, so a row has one entry per class and one for the end of the
//!   haystack;
//! * an entry is the offset of the next state's row, or one of two stops:
//!   [`MATCH`] (the DFA reached a match state: some match ends here, and an
//!   unanchored `is_match` is decided) or [`DEAD`] (no match can follow).
//!   Stops have no rows: both lie at or past the end of the table, so the
//!   bounds test of the next lookup is also the test for a stop, the only
//!   test the walk makes per byte.
//!
//! The DFA's match states are delayed by one byte (entering one after byte
//! `i` means a match ended before `i`), and a match at the very end shows
//! only after the end-of-haystack transition: the walk reads that last
//! entry when the bytes run out.
//!
//! Only DFAs without quit states qualify (a quit state means the DFA gave
//! up on some input, which a table cannot express), and only those whose
//! rows fit `u16` offsets. The search semantics are those of the dense
//! DFA's earliest unanchored search from the start of the haystack, which
//! the regex module's property tests compare with its other engines.

use regex_automata::dfa::{Automaton, dense};
use regex_automata::util::primitives::StateID;
use regex_automata::util::start;

use crate::hash::IdMap;

/// The entry of a transition into a match state.
const MATCH: u16 = u16::MAX;

/// The entry of a transition into the dead state.
const DEAD: u16 = u16::MAX - 1;

/// A small DFA as one table (see the module docs).
#[derive(Debug, Clone)]
pub(super) struct TableDfa {
    /// The equivalence class of each byte.
    classes: [u8; 256],
    /// One row per live state: `stride - 1` class entries, then the
    /// end-of-haystack entry. Each entry is a row offset or a stop.
    table: Box<[u16]>,
    /// The row of the start state, or a stop when the start decides.
    start: u16,
    /// Entries per row: the classes and the end of the haystack.
    stride: usize,
}

impl TableDfa {
    /// The table of `dfa`, if it has no quit states and its rows fit
    /// `u16` offsets below the stops.
    pub(super) fn new(dfa: &dense::DFA<Vec<u32>>) -> Option<TableDfa> {
        let classes_of = dfa.byte_classes();
        let stride = classes_of.alphabet_len();
        let mut classes = [0u8; 256];
        // The first byte of each class stands for it.
        let mut representatives: Vec<Option<u8>> = vec![None; stride.saturating_sub(1)];
        for byte in 0..=255u8 {
            let class = classes_of.get(byte);
            classes[usize::from(byte)] = class;
            if let Some(slot) = representatives.get_mut(usize::from(class)) {
                slot.get_or_insert(byte);
            }
        }
        let start = dfa.start_state(&start::Config::new()).ok()?;
        // Live states get rows in the order they are found; a breadth-first
        // walk over the class representatives finds every reachable one.
        let mut rows: IdMap<StateID, u16> = IdMap::default();
        let mut order: Vec<StateID> = Vec::new();
        let entry_of = |id: StateID, rows: &mut IdMap<StateID, u16>, order: &mut Vec<StateID>| {
            if dfa.is_quit_state(id) {
                return None;
            }
            if dfa.is_match_state(id) {
                return Some(MATCH);
            }
            if dfa.is_dead_state(id) {
                return Some(DEAD);
            }
            if let Some(&row) = rows.get(&id) {
                return Some(row);
            }
            let offset = order.len().checked_mul(stride)?;
            let row = u16::try_from(offset).ok().filter(|&row| row < DEAD)?;
            rows.insert(id, row);
            order.push(id);
            Some(row)
        };
        let start = entry_of(start, &mut rows, &mut order)?;
        let mut table: Vec<u16> = Vec::new();
        let mut next = 0;
        while let Some(&id) = order.get(next) {
            next += 1;
            for representative in &representatives {
                // A class with no byte (never the case) leads nowhere.
                let entry = match representative {
                    Some(byte) => entry_of(dfa.next_state(id, *byte), &mut rows, &mut order)?,
                    None => DEAD,
                };
                table.push(entry);
            }
            table.push(entry_of(dfa.next_eoi_state(id), &mut rows, &mut order)?);
        }
        // The stops lie past the end of the table, where no class of any
        // row reaches.
        if table.len() > usize::from(DEAD) {
            return None;
        }
        Some(TableDfa { classes, table: table.into_boxed_slice(), start, stride })
    }

    /// Whether the pattern matches somewhere in `haystack`.
    #[inline]
    pub(super) fn is_match(&self, haystack: &[u8]) -> bool {
        let table = &*self.table;
        let mut at = usize::from(self.start);
        for &byte in haystack {
            // A stop's offset is past the end of the table (see `new`), so
            // the walk leaves the loop on it: one test per byte.
            match table.get(at + usize::from(self.classes[usize::from(byte)])) {
                Some(&entry) => at = usize::from(entry),
                None => break,
            }
        }
        match u16::try_from(at) {
            Ok(MATCH) => true,
            Ok(DEAD) => false,
            // The bytes ran out in a live state: its end-of-haystack entry.
            _ => table.get(at + self.stride - 1) == Some(&MATCH),
        }
    }

    /// Heap bytes held (boxed, as the matchers keep it: the byte classes
    /// too).
    pub(super) fn memory_usage(&self) -> usize {
        std::mem::size_of::<TableDfa>() + std::mem::size_of_val(&*self.table)
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse::{ParseLimits, parse};
    use super::super::{RegexLimits, build_small_dfa};
    use super::*;

    fn table(pattern: &str) -> Box<TableDfa> {
        let ast = parse(pattern, ParseLimits::NONE).expect(pattern);
        build_small_dfa(&ast, &RegexLimits::default()).expect(pattern)
    }

    #[track_caller]
    fn check(pattern: &str, yes: &[&str], no: &[&str]) {
        let t = table(pattern);
        for haystack in yes {
            assert!(t.is_match(haystack.as_bytes()), "{pattern} on {haystack:?}");
        }
        for haystack in no {
            assert!(!t.is_match(haystack.as_bytes()), "{pattern} should not match {haystack:?}");
        }
    }

    #[test]
    fn matches_start_anywhere() {
        check("b+c", &["bc", "aabbcx", "xxbbbbc"], &["", "abx", "cb", "b c"]);
    }

    #[test]
    fn a_match_at_the_end_shows_at_the_end_of_the_haystack() {
        check("a$", &["a", "ba", "aaa"], &["", "ab", "a\n"]);
        check("^$", &[""], &["a", "\n"]);
        check("^ab", &["ab", "abc"], &["", "a", "xab"]);
    }

    #[test]
    fn a_stop_on_the_last_byte_decides() {
        // The match state comes on the byte after `b` or at the end.
        check("^(?:ab|cd)", &["ab", "cdx", "abab"], &["ac", "xab", "a"]);
        check("^x[0-9]", &["x1", "x12"], &["x", "xa1", "1x1"]);
    }

    #[test]
    fn multibyte_characters_are_single_characters() {
        check("^é+$", &["é", "ééé"], &["", "e", "éa", "aé"]);
        check("^[^a]$", &["é", "\u{10000}", "b"], &["", "a", "ab", "éé"]);
        check("^.{2}$", &["éa", "\u{10000}\u{10000}", "ab"], &["é", "abc"]);
    }

    #[test]
    fn a_pattern_matching_nothing_never_matches() {
        check("[]", &[], &["", "a", "é"]);
        check("^a[]", &[], &["a", "ab"]);
    }

    #[test]
    fn stops_lie_past_the_table() {
        for pattern in ["^(/[A-Za-z0-9._-]+)+$", "^[a-z]+(-[a-z]+)*$", r"^\d{4}-\d{2}-\d{2}$", "(foo|bar)baz"] {
            let t = table(pattern);
            assert!(t.table.len() <= usize::from(DEAD), "{pattern}");
            assert_eq!(t.table.len() % t.stride, 0, "{pattern}");
            for &entry in t.table.iter() {
                assert!(entry >= DEAD || usize::from(entry) % t.stride == 0, "{pattern}: {entry}");
                assert!(entry >= DEAD || usize::from(entry) < t.table.len(), "{pattern}: {entry}");
            }
            assert_eq!(t.memory_usage(), std::mem::size_of::<TableDfa>() + 2 * t.table.len());
        }
    }
}
