//! An upper bound on the size of a pattern's NFA, without building it.
//!
//! A pattern of the linear engine is checked at compile time against
//! [`RegexLimits::nfa_size_limit`](super::RegexLimits::nfa_size_limit),
//! but its NFA is built only when it first matches (see [`lazy`](super::lazy)).
//! Building it just to measure it costs as much as the rest of its
//! compilation (`^\S+@\S+\.\S+$`: 0.18 M instructions, and 0.13 M more
//! for the table of UTF-8 suffixes `regex-automata`'s compiler makes on a
//! first class beyond ASCII). So the bound is computed from the `Hir`, by
//! the rules `regex-automata`'s Thompson compiler follows (0.4):
//!
//! - a literal: one state per byte;
//! - a class: a state with a transition per range when it is ASCII or of
//!   bytes, else a trie of the UTF-8 sequences of its ranges (at most
//!   four states and four transitions per sequence); and an end state;
//! - a repetition: as many copies of its body as its maximum (its
//!   minimum when unbounded, at least one), and a union state and an
//!   empty state per copy;
//! - a concatenation: its parts; an alternation: its branches, a union
//!   with one alternate per branch and an end state; a group: its body
//!   and two capture states; an assertion: one state.
//!
//! Each state is counted at [`STATE_BYTES`], each transition or alternate
//! at [`TRANSITION_BYTES`] (both above what the compiler's builder counts,
//! its vectors' spare room included), plus [`FIXED_BYTES`]. The tests
//! check, on generated and sample patterns, that the NFA built under a
//! size limit equal to the bound always builds, and holds no more.

use std::convert::Infallible;

use regex_syntax::hir::{Class, Hir, HirKind, Visitor, visit};
use regex_syntax::utf8::Utf8Sequences;

/// Bytes counted per NFA state.
const STATE_BYTES: u64 = 48;

/// Bytes counted per transition or union alternate.
const TRANSITION_BYTES: u64 = 16;

/// Bytes counted once: the unanchored prefix, start states, byte classes
/// and the NFA's own fields.
const FIXED_BYTES: u64 = 8 << 10;

/// An upper bound on the bytes of `hir`'s NFA (saturating).
pub(super) fn nfa_bytes_bound(hir: &Hir) -> u64 {
    let Ok(units) = visit(hir, Bound { stack: Vec::new() });
    units
        .states
        .saturating_mul(STATE_BYTES)
        .saturating_add(units.transitions.saturating_mul(TRANSITION_BYTES))
        .saturating_add(FIXED_BYTES)
}

/// States and transitions counted.
#[derive(Debug, Clone, Copy, Default)]
struct Units {
    states: u64,
    transitions: u64,
}

impl Units {
    fn new(states: u64, transitions: u64) -> Units {
        Units { states, transitions }
    }

    fn plus(self, other: Units) -> Units {
        Units {
            states: self.states.saturating_add(other.states),
            transitions: self.transitions.saturating_add(other.transitions),
        }
    }

    fn times(self, n: u64) -> Units {
        Units { states: self.states.saturating_mul(n), transitions: self.transitions.saturating_mul(n) }
    }
}

/// The counting visitor (`regex-syntax` walks the `Hir` with a heap
/// stack, not recursion): one frame per node being visited, holding the
/// sum of its children's units.
struct Bound {
    stack: Vec<Units>,
}

impl Visitor for Bound {
    type Output = Units;
    type Err = Infallible;

    fn start(&mut self) {
        self.stack.push(Units::default());
    }

    fn visit_pre(&mut self, _hir: &Hir) -> Result<(), Infallible> {
        self.stack.push(Units::default());
        Ok(())
    }

    fn visit_post(&mut self, hir: &Hir) -> Result<(), Infallible> {
        let children = self.stack.pop().unwrap_or_default();
        let units = match hir.kind() {
            HirKind::Empty | HirKind::Look(_) => Units::new(1, 0),
            HirKind::Literal(literal) => {
                let n = literal.0.len() as u64;
                Units::new(n, n)
            }
            HirKind::Class(Class::Bytes(class)) => Units::new(2, class.ranges().len() as u64),
            HirKind::Class(Class::Unicode(class)) => {
                let sequences: u64 = class
                    .iter()
                    .map(|r| Utf8Sequences::new(r.start(), r.end()).count() as u64)
                    .fold(0, u64::saturating_add);
                Units::new(sequences.saturating_mul(4).saturating_add(2), sequences.saturating_mul(4))
            }
            HirKind::Repetition(repetition) => {
                let copies = u64::from(repetition.max.unwrap_or(repetition.min).max(1));
                children.plus(Units::new(2, 2)).times(copies)
            }
            HirKind::Capture(_) => children.plus(Units::new(2, 0)),
            HirKind::Concat(_) => children,
            HirKind::Alternation(branches) => {
                let n = branches.len() as u64;
                children.plus(Units::new(2, n))
            }
        };
        if let Some(parent) = self.stack.last_mut() {
            *parent = parent.plus(units);
        }
        Ok(())
    }

    fn finish(mut self) -> Result<Units, Infallible> {
        Ok(self.stack.pop().unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use regex_automata::nfa::thompson::{self, WhichCaptures};

    use super::super::lower::to_hir;
    use super::super::parse::{ParseLimits, parse};
    use super::super::tests::pattern_strategy;
    use super::*;

    /// `pattern`'s NFA built under a size limit equal to its bound: it
    /// must build and hold no more than the bound.
    fn check(pattern: &str) -> Result<(), String> {
        let Ok(ast) = parse(pattern, ParseLimits::NONE) else { return Ok(()) };
        let Ok(hir) = to_hir(&ast) else { return Ok(()) };
        let bound = nfa_bytes_bound(&hir);
        let limit = usize::try_from(bound).unwrap_or(usize::MAX);
        let config = thompson::Config::new().which_captures(WhichCaptures::None).nfa_size_limit(Some(limit));
        match thompson::Compiler::new().configure(config).build_from_hir(&hir) {
            Ok(nfa) if nfa.memory_usage() as u64 <= bound => Ok(()),
            Ok(nfa) => Err(format!("{pattern}: NFA of {} bytes, bound {bound}", nfa.memory_usage())),
            Err(e) => Err(format!("{pattern}: not built under its bound {bound}: {e}")),
        }
    }

    #[test]
    fn the_bound_holds_on_sample_patterns() {
        for pattern in [
            "",
            "a",
            "^abc$",
            r"^\S+@\S+\.\S+$",
            r"^.{1,64}$",
            r"\p{L}[\p{L}\p{N}]{20}\p{Lu}",
            r"^\p{L}{50}$",
            r"^((@(hourly|daily|weekly|monthly|yearly|once))|((((\d+,)+\d+|(\d+|\*)(\/|-)\d+|\d+|\*) ?){5,6}))$",
            r"(a|b)*a(a|b){20}",
            r"^([a-z]+=[^,]*,?){1,10}$",
            r"^(get|put|post|delete|patch|head|options|trace)$",
            r"\bfoo\B",
            r"[^\u{0}-\u{10FFFF}]",
            r"(?:(?:(?:a{0,9}){0,9}){0,9})",
            r"^[\u{80}-\u{10FFFF}]*$",
            r"(x|\p{Greek}|[\u{1F600}-\u{1F64F}]+)+?",
        ] {
            check(pattern).unwrap();
        }
    }

    /// The bound grows with what the NFA holds.
    #[test]
    fn the_bound_counts_copies_and_classes() {
        let bound = |pattern: &str| {
            nfa_bytes_bound(&to_hir(&parse(pattern, ParseLimits::NONE).unwrap()).unwrap())
                - nfa_bytes_bound(&Hir::empty())
        };
        assert!(bound("a{100}") > 50 * bound("a"));
        assert!(bound(r"\p{L}") > 10 * bound("[a-z]"));
        assert!(bound("(ab|cd|ef|gh)") > bound("(ab|cd)"));
    }

    proptest! {
        #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(3000) })]

        #[test]
        fn the_bound_holds_on_generated_patterns(pattern in pattern_strategy()) {
            prop_assert_eq!(check(&pattern), Ok(()));
        }
    }
}
