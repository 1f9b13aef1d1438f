//! Fast paths: patterns whose answer needs no automaton, recognized from the
//! [`Ast`].
//!
//! Only patterns without lookaround or backreferences qualify. Detection
//! first simplifies the top level, using two facts about unanchored search:
//!
//! * If the whole pattern can match the empty string at position 0 (a path
//!   whose only assertions are `^`), every haystack matches: [`FastPath::Always`]
//!   (`""`, `.*`, `^a*`, `(x|)`).
//! * A leading term that can match the empty string without any assertion
//!   can be dropped when the pattern is not anchored with `^`, and likewise a
//!   trailing one without `$`: any match of the rest extends to a match of
//!   the whole by taking the term's empty path, and vice versa. So `^x-.*`
//!   is the prefix test `^x-`.
//!
//! What remains is recognized as either a literal string with its anchors
//! (exact `^abc$`, prefix `^x-`, suffix `abc$`, substring `abc`) or a single
//! run of one character set, `C{min,max}` with its anchors (`^[a-z0-9_]+$`,
//! `^\d{4}$`, and length-only checks such as `^.{2,5}$` or `^[^]{3}$`).
//!
//! Every fast path gives the general engine's answer; the property tests
//! below check that on random patterns and haystacks.

use regex_automata::util::prefilter::Prefilter;
use regex_automata::{MatchKind, Span};
use regex_syntax::hir::ClassUnicode;

use super::RegexError;
use super::ast::{Assertion, Ast, Node, NodeKind};
use super::lower::{class_contains, complement, node_class};

/// A recognized fast path.
#[derive(Debug)]
pub enum FastPath {
    /// Every haystack matches.
    Always,
    /// A literal string anywhere, found with `memchr`'s substring search.
    Substring(Box<Substring>),
    /// A literal string, anchored as given (never [`Anchoring::Anywhere`]).
    Literal {
        /// The string.
        text: Box<str>,
        /// Where it must occur.
        anchoring: Anchoring,
    },
    /// `C{min,max}` for one character set `C`, anchored as given.
    Run(Run),
}

/// A literal searched anywhere in the haystack.
#[derive(Debug)]
pub struct Substring {
    text: Box<str>,
    finder: Prefilter,
}

/// Where the matched text must sit in the haystack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchoring {
    /// The whole haystack (`^...$`).
    Whole,
    /// At the start (`^...`).
    Start,
    /// At the end (`...$`).
    End,
    /// Anywhere.
    Anywhere,
}

/// A run of characters from one set.
#[derive(Debug)]
pub struct Run {
    members: Members,
    min: u64,
    max: Option<u64>,
    anchoring: Anchoring,
}

/// The characters a [`Run`] accepts.
#[derive(Debug)]
enum Members {
    /// Every scalar value: only the length matters.
    Everything,
    /// A set, with a membership table for the ASCII range.
    /// `bytes[b]` is whether byte `b` is an ASCII member: every byte from
    /// 0x80 up is `false` (it starts a multi-byte character, which the
    /// class decides), so a byte scan needs one lookup per byte.
    Set { bytes: Box<[bool; 256]>, class: ClassUnicode },
}

impl Members {
    fn new(class: ClassUnicode) -> Members {
        if complement(&class).ranges().is_empty() {
            return Members::Everything;
        }
        let mut bytes = Box::new([false; 256]);
        for (b, member) in (0u8..0x80).zip(bytes.iter_mut()) {
            *member = class_contains(&class, char::from(b));
        }
        Members::Set { bytes, class }
    }

    fn contains(&self, c: char) -> bool {
        match self {
            Members::Everything => true,
            Members::Set { bytes, class } => match u32::from(c) {
                code @ 0..128 => bytes[(code & 0x7f) as usize],
                _ => class_contains(class, c),
            },
        }
    }
}

impl FastPath {
    /// The fast path for this tree, if one applies.
    pub fn detect(ast: &Ast) -> Result<Option<FastPath>, RegexError> {
        if ast.root.needs_backtracking() {
            return Ok(None);
        }
        if matches_empty(&ast.root, true) {
            return Ok(Some(FastPath::Always));
        }
        let mut terms = top_level_terms(&ast.root);
        let is_assertion = |node: Option<&&Node>, which| {
            node.is_some_and(|node| matches!(node.kind, NodeKind::Assertion(a) if a == which))
        };
        let start = is_assertion(terms.first(), Assertion::Start);
        if start {
            terms.remove(0);
        }
        let end = is_assertion(terms.last(), Assertion::End);
        if end {
            terms.pop();
        }
        if !end {
            while terms.last().is_some_and(|node| matches_empty(node, false)) {
                terms.pop();
            }
        }
        if !start {
            let skip = terms.iter().take_while(|node| matches_empty(node, false)).count();
            terms.drain(..skip);
        }
        let anchoring = match (start, end) {
            (true, true) => Anchoring::Whole,
            (true, false) => Anchoring::Start,
            (false, true) => Anchoring::End,
            (false, false) => Anchoring::Anywhere,
        };
        let literal: Option<String> = terms
            .iter()
            .map(|node| match node.kind {
                NodeKind::Literal(code) => char::from_u32(code),
                _ => None,
            })
            .collect();
        if let Some(text) = literal {
            if anchoring == Anchoring::Anywhere {
                if let Some(finder) = Prefilter::new(MatchKind::LeftmostFirst, &[&text]) {
                    let substring = Substring { text: text.into(), finder };
                    return Ok(Some(FastPath::Substring(Box::new(substring))));
                }
            }
            return Ok(Some(FastPath::Literal { text: text.into(), anchoring }));
        }
        let [term] = terms.as_slice() else {
            return Ok(None);
        };
        let (atom, min, max) = match &term.kind {
            NodeKind::Repeat(repeat) => (&*repeat.sub, u64::from(repeat.min), repeat.max.map(u64::from)),
            _ => (*term, 1, Some(1)),
        };
        Ok(node_class(atom)?.map(|class| FastPath::Run(Run { members: Members::new(class), min, max, anchoring })))
    }

    /// Whether the pattern matches somewhere in `haystack`.
    #[inline]
    pub fn is_match(&self, haystack: &str) -> bool {
        match self {
            FastPath::Always => true,
            FastPath::Substring(substring) => {
                substring.finder.find(haystack.as_bytes(), Span::from(0..haystack.len())).is_some()
            }
            FastPath::Literal { text, anchoring } => match anchoring {
                Anchoring::Whole => haystack == &**text,
                Anchoring::Start => starts_with(haystack.as_bytes(), text.as_bytes()),
                Anchoring::End => haystack.ends_with(&**text),
                Anchoring::Anywhere => haystack.contains(&**text),
            },
            FastPath::Run(run) => run.is_match(haystack),
        }
    }

    /// Heap bytes held.
    pub fn memory_usage(&self) -> usize {
        match self {
            FastPath::Always => 0,
            FastPath::Substring(substring) => {
                std::mem::size_of::<Substring>() + substring.text.len() + substring.finder.memory_usage()
            }
            FastPath::Literal { text, .. } => text.len(),
            FastPath::Run(Run { members: Members::Everything, .. }) => 0,
            FastPath::Run(Run { members: Members::Set { class, .. }, .. }) => {
                256 + std::mem::size_of_val(class.ranges())
            }
        }
    }
}

impl Run {
    fn is_match(&self, haystack: &str) -> bool {
        let members = &self.members;
        match self.anchoring {
            Anchoring::Whole => {
                if let Members::Everything = members {
                    let count = haystack.chars().count() as u64;
                    return count >= self.min && self.max.is_none_or(|max| count <= max);
                }
                let mut rest = haystack;
                let mut count = 0u64;
                if let Members::Set { bytes: table, .. } = members {
                    // One pass over the bytes while they are ASCII members
                    // (one character each); the first byte that is not
                    // decides, or hands the rest to the character loop.
                    let bytes = haystack.as_bytes();
                    let stop = first_outside(bytes, table);
                    let Some(at) = stop else {
                        let count = bytes.len() as u64;
                        return count >= self.min && self.max.is_none_or(|max| count <= max);
                    };
                    if bytes.get(at).is_some_and(|b| b.is_ascii()) {
                        return false;
                    }
                    // `at` is the first non-ASCII byte: a character boundary.
                    rest = haystack.get(at..).unwrap_or_default();
                    count = at as u64;
                    if self.max.is_some_and(|max| count > max) {
                        return false;
                    }
                }
                for c in rest.chars() {
                    count = count.saturating_add(1);
                    if !members.contains(c) || self.max.is_some_and(|max| count > max) {
                        return false;
                    }
                }
                count >= self.min
            }
            Anchoring::Start => prefix_in_set(haystack.chars(), members, self.min),
            Anchoring::End => prefix_in_set(haystack.chars().rev(), members, self.min),
            Anchoring::Anywhere => {
                let mut run = 0u64;
                for c in haystack.chars() {
                    run = if members.contains(c) { run.saturating_add(1) } else { 0 };
                    if run >= self.min {
                        return true;
                    }
                }
                false
            }
        }
    }
}

/// Bytes looked up per step of [`first_outside`].
const CHUNK: usize = 16;

/// The position of the first byte `table` rejects. Whole chunks are tested
/// without a branch per byte (the lookups are independent, so they
/// overlap); only a rejected chunk is searched byte by byte.
#[inline]
fn first_outside(bytes: &[u8], table: &[bool; 256]) -> Option<usize> {
    let mut chunks = bytes.chunks_exact(CHUNK);
    let mut at = 0;
    for chunk in chunks.by_ref() {
        if !chunk.iter().fold(true, |all, &b| all & table[usize::from(b)]) {
            break;
        }
        at += CHUNK;
    }
    bytes.get(at..)?.iter().position(|&b| !table[usize::from(b)]).map(|i| at + i)
}

/// Whether the first `min` characters exist and are all members.
fn prefix_in_set(chars: impl Iterator<Item = char>, members: &Members, min: u64) -> bool {
    let mut count = 0u64;
    for c in chars {
        if count >= min {
            break;
        }
        if !members.contains(c) {
            return false;
        }
        count = count.saturating_add(1);
    }
    count >= min
}

/// The terms of the top-level concatenation, looking through groups.
fn top_level_terms(root: &Node) -> Vec<&Node> {
    let mut terms = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match &node.kind {
            NodeKind::Concat(nodes) => stack.extend(nodes.iter().rev()),
            NodeKind::Group(group) => stack.push(&group.sub),
            _ => terms.push(node),
        }
    }
    terms
}

/// Whether `node` can match the empty string using no assertion other than
/// `^` (and not even that unless `at_start`).
fn matches_empty(node: &Node, at_start: bool) -> bool {
    match &node.kind {
        NodeKind::Empty => true,
        NodeKind::Assertion(assertion) => at_start && *assertion == Assertion::Start,
        NodeKind::Group(group) => matches_empty(&group.sub, at_start),
        NodeKind::Repeat(repeat) => repeat.min == 0 || matches_empty(&repeat.sub, at_start),
        NodeKind::Concat(nodes) => nodes.iter().all(|n| matches_empty(n, at_start)),
        NodeKind::Alternation(nodes) => nodes.iter().any(|n| matches_empty(n, at_start)),
        NodeKind::Literal(_) | NodeKind::Dot | NodeKind::Class(_) | NodeKind::LookAround(_) | NodeKind::Backref(_) => {
            false
        }
    }
}

/// `haystack.starts_with(prefix)`, comparing short prefixes (`^x-`) byte
/// by byte rather than through `memcmp`.
#[inline]
fn starts_with(haystack: &[u8], prefix: &[u8]) -> bool {
    if prefix.len() > 16 {
        return haystack.starts_with(prefix);
    }
    haystack.len() >= prefix.len() && haystack.iter().zip(prefix).all(|(a, b)| a == b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regex::parse::{ParseLimits, parse};

    fn detect(pattern: &str) -> Option<FastPath> {
        let ast = parse(pattern, ParseLimits::NONE).ok()?;
        FastPath::detect(&ast).ok().flatten()
    }

    fn literal(pattern: &str) -> Option<(String, Anchoring)> {
        match detect(pattern)? {
            FastPath::Literal { text, anchoring } => Some((text.into(), anchoring)),
            FastPath::Substring(substring) => Some((substring.text.into(), Anchoring::Anywhere)),
            _ => None,
        }
    }

    fn run(pattern: &str) -> Option<(u64, Option<u64>, Anchoring, bool)> {
        match detect(pattern)? {
            FastPath::Run(run) => Some((run.min, run.max, run.anchoring, matches!(run.members, Members::Everything))),
            _ => None,
        }
    }

    #[test]
    fn detects_always_matching_patterns() {
        for pattern in ["", ".*", "^.*", "a*", "(?:)", "^(a|b)*", "(x|)", "a{0}", "^|b"] {
            assert!(matches!(detect(pattern), Some(FastPath::Always)), "{pattern}");
        }
        for pattern in ["$", "\\b", ".*$", "a+", "(?=a)*"] {
            assert!(!matches!(detect(pattern), Some(FastPath::Always)), "{pattern}");
        }
    }

    #[test]
    fn detects_literals_with_anchors() {
        let lit = |t: &str, a| Some((t.to_string(), a));
        assert_eq!(literal("^abc$"), lit("abc", Anchoring::Whole));
        assert_eq!(literal("^(abc)$"), lit("abc", Anchoring::Whole));
        assert_eq!(literal("^x-"), lit("x-", Anchoring::Start));
        assert_eq!(literal("^x-.*"), lit("x-", Anchoring::Start));
        assert_eq!(literal("abc$"), lit("abc", Anchoring::End));
        assert_eq!(literal(".*abc"), lit("abc", Anchoring::Anywhere));
        assert_eq!(literal("a\\.b"), lit("a.b", Anchoring::Anywhere));
        assert_eq!(literal("^$"), lit("", Anchoring::Whole));
        assert_eq!(literal("^a*b"), None);
        assert_eq!(literal("a\\bc"), None);
        assert_eq!(literal("\\uD800"), None);
    }

    #[test]
    fn detects_runs() {
        assert_eq!(run("^[a-z0-9_]+$"), Some((1, None, Anchoring::Whole, false)));
        assert_eq!(run(r"^\d{4}$"), Some((4, Some(4), Anchoring::Whole, false)));
        assert_eq!(run("^.{2,5}$"), Some((2, Some(5), Anchoring::Whole, false)));
        assert_eq!(run(r"^[\s\S]{2,5}$"), Some((2, Some(5), Anchoring::Whole, true)));
        assert_eq!(run(r"[a-z]{3}"), Some((3, Some(3), Anchoring::Anywhere, false)));
        assert_eq!(run(r"^\w"), Some((1, Some(1), Anchoring::Start, false)));
        assert_eq!(run(r"^[a-z][0-9]$"), None);
        assert_eq!(run(r"^(ab)+$"), None);
    }

    #[test]
    fn runs_match_by_count_and_membership() {
        let matches = |p: &str, h: &str| detect(p).is_some_and(|f| f.is_match(h));
        assert!(matches("^.{2,3}$", "ab"));
        assert!(matches("^.{2,3}$", "a😀c"));
        assert!(!matches("^.{2,3}$", "a\nc"));
        assert!(!matches("^.{2,3}$", "abcd"));
        assert!(matches(r"^[^]{2}$", "a\n"));
        assert!(matches(r"[a-z]{3}", "12abc3"));
        assert!(!matches(r"[a-z]{3}", "ab1cd"));
        assert!(matches(r"\d{2}$", "x12"));
        assert!(!matches(r"\d{2}$", "12x"));
        assert!(matches(r"^é", "éa"));
    }

    #[test]
    fn whole_runs_mix_ascii_and_other_characters() {
        let matches = |p: &str, h: &str| detect(p).is_some_and(|f| f.is_match(h));
        assert!(matches(r"^\S*$", "abc"));
        assert!(matches(r"^\S*$", "ab😀ç"));
        assert!(!matches(r"^\S*$", "ab c"));
        assert!(!matches(r"^\S*$", "ab😀 c"));
        assert!(!matches(r"^\S*$", "ab\u{2003}c"));
        assert!(matches(r"^[a-zé]{2,4}$", "aéb"));
        assert!(!matches(r"^[a-zé]{2,4}$", "abcdé"));
        assert!(!matches(r"^[a-zé]{2,4}$", "abcde"));
        assert!(!matches(r"^[a-zé]{2,4}$", "é"));
        assert!(matches(r"^[a-zé]{2,4}$", "éé"));
        assert!(!matches(r"^[a-z]{2,4}$", "aé"));
    }
}
