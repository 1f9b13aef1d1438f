//! [`TableDfa`]: a small deterministic automaton flattened into one table,
//! matched by a loop of a few instructions per haystack byte.
//!
//! The table is built by subset construction straight from the pattern's
//! Thompson NFA (`regex-automata`'s, built without captures), for an
//! unanchored search: a match may start anywhere. Each DFA state is a set
//! of NFA states and becomes one row of `u16`s:
//!
//! * bytes are mapped to the NFA's equivalence classes by a 256-entry
//!   array, so a row has one entry per class and one for the end of the
//!   haystack;
//! * an entry is the offset of the next state's row, or one of two stops:
//!   [`MATCH`] (some match ends here, and an unanchored `is_match` is
//!   decided) or [`DEAD`] (no match can follow). Stops have no rows: both
//!   lie at or past the end of the table, so the bounds test of the next
//!   lookup is also the test for a stop, the only test the walk makes per
//!   byte.
//!
//! Assertions (`^`, `$`, `\b`, `\B`) depend on the bytes on both sides of
//! a position, so a state keeps the NFA states waiting on an assertion
//! unresolved, with what it knows of the left side (whether the position
//! is the haystack's start, whether the byte before it is a word byte).
//! A transition on byte `b` first resolves them with `b` as the right side
//! (the end-of-haystack entry resolves them at the end), and a match found
//! then ended *before* `b`: matches show one byte late, and one at the very
//! end shows only in the end-of-haystack entry, which the walk reads when
//! the bytes run out. After each byte, the pattern's start is added again
//! (the unanchored search), unless no match can start past the haystack's
//! first position (every way through the pattern passes `^` first): a
//! pattern anchored that way reaches [`DEAD`] as soon as it fails.
//!
//! Only patterns whose assertions are these four qualify, and only DFAs
//! that fit the byte budget the caller gives, whose rows fit `u16`
//! offsets below the stops, and whose construction stays within
//! [`MAX_WORK`] steps (a pattern from an untrusted schema may need
//! exponentially many states: `(a|b)*a(a|b){20}`). The regex module's
//! property tests compare the table with its other engines.
//!
//! Sets of NFA states are chosen by the pattern, so the table of states
//! found is hashed with a seed drawn per construction (see
//! [`crate::hash`]).

use regex_automata::nfa::thompson::{NFA, State};
use regex_automata::util::look::{Look, LookSet};
use regex_automata::util::primitives::StateID;

use crate::hash::TextMap;

/// The entry of a transition into a match state.
const MATCH: u16 = u16::MAX;

/// The entry of a transition into the dead state.
const DEAD: u16 = u16::MAX - 1;

/// Steps (NFA states visited, class entries a state's transitions cover)
/// the construction may take before it gives up, and the pattern goes to
/// the linear engine (whose lazy DFA builds only the states a haystack
/// visits). Of the 389 distinct patterns in the benchmark data and the
/// real-world schemas of `benches/corpus` (and the 47 of the official
/// suite), the largest table took 5,488 steps (89 states of an e-mail
/// shape of `\S` runs, about 1 M instructions to build); most take a few
/// hundred. A pattern that does not fit spends up to this before it gives
/// up: a cron expression, `(...){5,6}`, runs out of table space after
/// about 20,600 steps and 2 M instructions, and past this bound after
/// about 1 M.
const MAX_WORK: usize = 1 << 13;

/// A state's left side: the position is the haystack's start.
const AT_START: u8 = 1;

/// A state's left side: the byte before the position is a word byte
/// (kept only when the pattern has word boundaries).
const AFTER_WORD: u8 = 2;

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
    /// The table of `nfa` (an NFA without capture states), if its
    /// assertions are among `^`, `$`, `\b` and `\B`, it takes at most
    /// `max_bytes` and [`MAX_WORK`] steps to build, and its rows fit `u16`
    /// offsets below the stops.
    pub(super) fn determinize(nfa: &NFA, max_bytes: usize) -> Option<TableDfa> {
        let supported = LookSet::empty()
            .insert(Look::Start)
            .insert(Look::End)
            .insert(Look::WordAscii)
            .insert(Look::WordAsciiNegate);
        let looks = nfa.look_set_any();
        if !looks.subtract(supported).is_empty() {
            return None;
        }
        let classes_of = nfa.byte_classes();
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
        // A byte range is then a range of classes (see `Builder::spread`).
        if classes.windows(2).any(|pair| pair[0] > pair[1]) {
            return None;
        }
        let max_entries = (max_bytes / std::mem::size_of::<u16>()).min(usize::from(DEAD));
        let mut builder = Builder::new(nfa, looks.contains_word());
        // A state is a set of NFA states (a bit per state) followed by its
        // left side: `width` words in all, the key of `rows`. States are
        // kept in the order they are found, one after another in `found`;
        // `key` is the scratch one is made in.
        let width = builder.words_per_set + 1;
        let mut key: Vec<u64> = Vec::new();
        builder.expand(&[nfa.start_anchored()], &mut key)?;
        // The pattern's start, added after each byte, if a match can start
        // past the first position.
        let restart = builder.starts_later(&key)?.then(|| nfa.start_anchored());
        let mut rows: TextMap<Box<[u64]>, u16> = TextMap::default();
        let mut found: Vec<u64> = Vec::new();
        let mut row_of = |key: &mut Vec<u64>, left: u8, found: &mut Vec<u64>| -> Option<u16> {
            if key.iter().all(|&word| word == 0) {
                return Some(DEAD);
            }
            key.push(u64::from(left));
            if let Some(&row) = rows.get(&key[..]) {
                return Some(row);
            }
            let offset = (found.len() / width).checked_mul(stride)?;
            if offset.saturating_add(stride) > max_entries {
                return None;
            }
            let row = u16::try_from(offset).ok()?;
            rows.insert(key.as_slice().into(), row);
            found.extend_from_slice(key);
            Some(row)
        };
        let start = row_of(&mut key, AT_START, &mut found)?;
        let mut table: Vec<u16> = Vec::new();
        let mut state: Vec<u64> = Vec::new();
        let mut roots: Vec<StateID> = Vec::new();
        let mut previous_roots: Vec<StateID> = Vec::new();
        // The states a state's set reads bytes with, once resolved for a
        // byte that is not (0) or is (1) a word byte, and whether a match
        // ends there; made when first needed.
        let mut live: [Vec<StateID>; 2] = [Vec::new(), Vec::new()];
        // Where those states step on each class, per side.
        let lists = |used: bool| if used { vec![Vec::new(); representatives.len()] } else { Vec::new() };
        let mut steps: [Vec<Vec<StateID>>; 2] = [lists(true), lists(builder.words)];
        for next in 0.. {
            let Some(next_state) = found.get(next * width..(next + 1) * width) else { break };
            state.clear();
            state.extend_from_slice(next_state);
            let (&left, set) = state.split_last()?;
            let left = u8::try_from(left).ok()?;
            let mut resolved: [Option<bool>; 2] = [None, None];
            // The last row made for a class of this state, and its side;
            // `previous_roots` holds the states that class stepped to.
            let mut previous: Option<(u16, bool)> = None;
            for (class, representative) in representatives.iter().enumerate() {
                let Some(byte) = *representative else {
                    // A class with no byte (never the case) leads nowhere.
                    table.push(DEAD);
                    continue;
                };
                let word = builder.words && is_word_byte(byte);
                let side = usize::from(word);
                let matched = match resolved.get(side).copied().flatten() {
                    Some(matched) => matched,
                    None => {
                        let live = live.get_mut(side)?;
                        let matched = builder.resolve(set, left, Some(byte), live)?;
                        if !matched {
                            builder.spread(live, &classes, &representatives, steps.get_mut(side)?)?;
                        }
                        *resolved.get_mut(side)? = Some(matched);
                        matched
                    }
                };
                if matched {
                    table.push(MATCH);
                    continue;
                }
                roots.clear();
                roots.extend_from_slice(steps.get(side)?.get(class)?);
                roots.extend(restart);
                // Neighbouring classes often step to the same states (the
                // many classes of a wide set such as `\S`): their row is
                // the one just made.
                if let Some(row) = previous.filter(|&(_, w)| w == word && previous_roots == roots).map(|(row, _)| row) {
                    table.push(row);
                    continue;
                }
                builder.expand(&roots, &mut key)?;
                let row = row_of(&mut key, if word { AFTER_WORD } else { 0 }, &mut found)?;
                table.push(row);
                previous = Some((row, word));
                std::mem::swap(&mut previous_roots, &mut roots);
            }
            let [scratch, _] = &mut live;
            let matched = builder.resolve(set, left, None, scratch)?;
            table.push(if matched { MATCH } else { DEAD });
        }
        Some(TableDfa { classes, table: table.into_boxed_slice(), start, stride })
    }

    /// Whether the pattern matches somewhere in `haystack`.
    #[inline]
    pub(super) fn is_match(&self, haystack: &[u8]) -> bool {
        let table = &*self.table;
        let mut at = usize::from(self.start);
        for &byte in haystack {
            // A stop's offset is past the end of the table (see the
            // module docs), so the walk leaves the loop on it: one test
            // per byte.
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

/// The state of one subset construction: the NFA, and scratch space for
/// closures (marks of the states visited, by generation).
struct Builder<'n> {
    nfa: &'n NFA,
    /// The pattern has word boundaries: states keep whether the byte
    /// before them is a word byte.
    words: bool,
    /// Words of a set of NFA states, one bit per state.
    words_per_set: usize,
    /// The generation in which each NFA state was last visited.
    marks: Vec<u32>,
    generation: u32,
    stack: Vec<StateID>,
    /// Steps taken, against [`MAX_WORK`].
    work: usize,
}

impl<'n> Builder<'n> {
    fn new(nfa: &'n NFA, words: bool) -> Builder<'n> {
        let states = nfa.states().len();
        Builder {
            nfa,
            words,
            words_per_set: states.div_ceil(64),
            marks: vec![0; states],
            generation: 0,
            stack: Vec::new(),
            work: 0,
        }
    }

    /// Counts `steps` of work: `None` past [`MAX_WORK`].
    fn charge(&mut self, steps: usize) -> Option<()> {
        self.work = self.work.saturating_add(steps);
        (self.work <= MAX_WORK).then_some(())
    }

    /// Starts a closure: every state unvisited.
    fn begin(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.marks.fill(0);
            self.generation = 1;
        }
        self.stack.clear();
    }

    /// Pushes `id` unless this closure visited it already.
    fn visit(&mut self, id: StateID) -> Option<()> {
        let mark = self.marks.get_mut(id.as_usize())?;
        if *mark != self.generation {
            *mark = self.generation;
            self.stack.push(id);
        }
        Some(())
    }

    /// Starts a closure from the states of a DFA state's `set`.
    fn begin_at(&mut self, set: &[u64]) -> Option<()> {
        self.begin();
        for id in members(set) {
            self.visit(id?)?;
        }
        Some(())
    }

    /// The closure's next state, charged one step, once the states it
    /// moves to without a byte or an assertion (a union's alternatives, a
    /// capture's next) are visited: every closure follows those alike and
    /// decides the rest itself. `Some(None)` when the closure is done.
    /// (Inlined into each closure's loop: out of line, it added 1.5% to
    /// compiling the MCP tools.)
    #[inline(always)]
    fn next_state(&mut self) -> Option<Option<(StateID, &'n State)>> {
        let Some(id) = self.stack.pop() else { return Some(None) };
        self.charge(1)?;
        let nfa = self.nfa;
        let state = nfa.state(id);
        match state {
            State::Union { alternates } => {
                for &next in alternates.iter() {
                    self.visit(next)?;
                }
            }
            State::BinaryUnion { alt1, alt2 } => {
                self.visit(*alt1)?;
                self.visit(*alt2)?;
            }
            State::Capture { next, .. } => self.visit(*next)?,
            _ => {}
        }
        Some(Some((id, state)))
    }

    /// Puts in `set` the states reached from `roots` without a byte and
    /// without passing an assertion: those that read a byte, wait on an
    /// assertion, or match (a DFA state's set, one bit per NFA state).
    fn expand(&mut self, roots: &[StateID], set: &mut Vec<u64>) -> Option<()> {
        self.begin();
        for &id in roots {
            self.visit(id)?;
        }
        set.clear();
        set.resize(self.words_per_set, 0);
        while let Some((id, state)) = self.next_state()? {
            match state {
                State::ByteRange { .. }
                | State::Sparse(_)
                | State::Dense(_)
                | State::Look { .. }
                | State::Match { .. } => {
                    let id = id.as_usize();
                    *set.get_mut(id / 64)? |= 1 << (id % 64);
                }
                _ => {}
            }
        }
        Some(())
    }

    /// Puts in `live` the states of `set` that read a byte once its
    /// assertions are decided between the left side `left` and the byte
    /// `right` (`None`: the end of the haystack); returns whether a match
    /// ends there.
    fn resolve(&mut self, set: &[u64], left: u8, right: Option<u8>, live: &mut Vec<StateID>) -> Option<bool> {
        live.clear();
        let nfa = self.nfa;
        let mut matched = false;
        // Without an assertion in the set, its states are what the closure
        // would visit: they are read off the set.
        let mut waits = false;
        for id in members(set) {
            let id = id?;
            self.charge(1)?;
            match nfa.state(id) {
                State::ByteRange { .. } | State::Sparse(_) | State::Dense(_) => live.push(id),
                State::Match { .. } => matched = true,
                State::Look { .. } => waits = true,
                _ => {}
            }
        }
        if !waits {
            return Some(matched);
        }
        self.begin_at(set)?;
        let before_word = left & AFTER_WORD != 0;
        let after_word = right.is_some_and(is_word_byte);
        live.clear();
        matched = false;
        while let Some((id, state)) = self.next_state()? {
            match state {
                State::ByteRange { .. } | State::Sparse(_) | State::Dense(_) => live.push(id),
                State::Match { .. } => matched = true,
                State::Look { look, next } => {
                    let holds = match look {
                        Look::Start => left & AT_START != 0,
                        Look::End => right.is_none(),
                        Look::WordAscii => before_word != after_word,
                        Look::WordAsciiNegate => before_word == after_word,
                        // Rejected before the construction starts.
                        _ => return None,
                    };
                    if holds {
                        self.visit(*next)?;
                    }
                }
                _ => {}
            }
        }
        Some(matched)
    }

    /// Puts in `steps` (one list per class) the states each of `live`
    /// steps to on that class, charged one step per state and one per
    /// class it reads. The byte classes rise with the bytes (checked
    /// before the construction starts), so a transition's byte range is
    /// a range of classes: this costs the transitions there are, not the
    /// live states times the classes (the cost of stepping each class's
    /// representative byte through every live state).
    fn spread(
        &mut self,
        live: &[StateID],
        classes: &[u8; 256],
        representatives: &[Option<u8>],
        steps: &mut [Vec<StateID>],
    ) -> Option<()> {
        for list in steps.iter_mut() {
            list.clear();
        }
        let nfa = self.nfa;
        for &id in live {
            self.charge(1)?;
            let mut reads = |start: u8, end: u8, next: StateID| -> Option<()> {
                let (first, last) = (classes[usize::from(start)], classes[usize::from(end)]);
                self.charge(usize::from(last).saturating_sub(usize::from(first)) + 1)?;
                for list in steps.get_mut(usize::from(first)..=usize::from(last))? {
                    list.push(next);
                }
                Some(())
            };
            match nfa.state(id) {
                State::ByteRange { trans } => reads(trans.start, trans.end, trans.next)?,
                State::Sparse(sparse) => {
                    for t in sparse.transitions.iter() {
                        reads(t.start, t.end, t.next)?;
                    }
                }
                State::Dense(dense) => {
                    for &byte in representatives.iter().flatten() {
                        if let Some(next) = dense.matches_byte(byte) {
                            reads(byte, byte, next)?;
                        }
                    }
                }
                _ => {}
            }
        }
        Some(())
    }

    /// Whether a match can start past the haystack's first position: some
    /// way from the pattern's start (the states of `start`) reads a byte or
    /// matches without passing `^` (other assertions assumed to hold).
    fn starts_later(&mut self, start: &[u64]) -> Option<bool> {
        self.begin_at(start)?;
        while let Some((_, state)) = self.next_state()? {
            match state {
                State::ByteRange { .. } | State::Sparse(_) | State::Dense(_) | State::Match { .. } => {
                    return Some(true);
                }
                State::Look { look: Look::Start, .. } => {}
                State::Look { next, .. } => self.visit(*next)?,
                _ => {}
            }
        }
        Some(false)
    }
}

/// The NFA states of `set` (one bit per state), in ascending order.
fn members(set: &[u64]) -> impl Iterator<Item = Option<StateID>> + '_ {
    set.iter().enumerate().flat_map(|(at, &word)| {
        let mut bits = word;
        std::iter::from_fn(move || {
            let bit = bits.trailing_zeros();
            bits &= bits.checked_sub(1)?;
            Some(StateID::new(at * 64 + bit as usize).ok())
        })
    })
}

/// An ASCII word byte (`\w` without the `i` flag, as ECMA's `\b` reads it).
fn is_word_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

#[cfg(test)]
mod tests {
    use super::super::RegexLimits;
    use super::super::lazy::table_of;
    use super::*;

    fn table(pattern: &str) -> Box<TableDfa> {
        table_of(pattern, &RegexLimits::default()).expect(pattern)
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
    fn word_boundaries_read_both_sides() {
        check(r"\bfoo\b", &["foo", "a foo b", "foo-bar", "(foo)"], &["", "afoo", "foob", "f oo", "_foo"]);
        check(r"a\Bb", &["ab", "xaby"], &["a b", "a-b", "a"]);
        check(r"\b", &["a", " a", "a "], &["", " ", "--"]);
    }

    #[test]
    fn an_anchored_pattern_dies_on_its_first_wrong_byte() {
        let t = table("^abc");
        let entry = |at: u16, byte: u8| t.table[usize::from(at) + usize::from(t.classes[usize::from(byte)])];
        assert_eq!(entry(t.start, b'x'), DEAD);
        assert_eq!(entry(entry(t.start, b'a'), b'x'), DEAD);
        // Unanchored, the pattern may still start later.
        let t = table("abc");
        assert_ne!(t.table[usize::from(t.start) + usize::from(t.classes[usize::from(b'x')])], DEAD);
    }

    #[test]
    fn patterns_with_too_many_states_get_no_table() {
        // Its DFA remembers the last 21 bytes: 2^21 states.
        assert!(table_of("(a|b)*a(a|b){20}", &RegexLimits::default()).is_none());
        // Fewer states, but a wide class in each: past the byte budget.
        assert!(table_of("[a-z]*a[a-z]{12}", &RegexLimits::default()).is_none());
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
