//! Fast paths: patterns whose answer needs no automaton, recognized from the
//! [`Ast`].
//!
//! Only patterns without lookaround or backreferences qualify. Detection
//! splits the pattern into branches at its alternations (see below), then
//! simplifies the top level of each branch, using two facts about
//! unanchored search:
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
//! Groups, capturing or not, are transparent in the top-level concatenation
//! (`^(default)$` is `^default$`), and around the atom of a repetition
//! (`(?:a)+` is `a+`); a quantified group such as `(ab)+` is not a sequence
//! and takes no fast path.
//!
//! Alternations are distributed: an alternation at the top level or
//! inside a group of the top-level concatenation is replaced by each of its
//! alternatives, with the terms around it, so `^(get|put)$` is the branches
//! `^get$` and `^put$`, and `^a|b$` is `^a` and `b$` (not `^(a|b)$`). This
//! keeps the set of matches, since concatenation distributes over union and
//! `^`, `$` are zero-width. Each branch is then detected on its own, with its
//! own anchors, as described here; if every one is a fast path, the pattern is
//! [`FastPath::AnyOf`] them and matches if one does. At most
//! [`MAX_BRANCHES`] (16) branches are accepted, which bounds the memory and
//! the step cost: a match scans the haystack once per branch, `b * (n + 1)`
//! for `b` branches and `n` bytes (the cost reported by [`FastPath::scans`]).
//!
//! A branch (the whole pattern when there is no alternation), simplified as
//! above, is recognized as either a literal string with its anchors
//! (exact `^abc$`, prefix `^x-`, suffix `abc$`, substring `abc`), a single
//! run of one character set, `C{min,max}` with its anchors (`^[a-z0-9_]+$`,
//! `^\d{4}$`, and length-only checks such as `^.{2,5}$` or `^[^]{3}$`), or,
//! after `^` (and possibly before `$`), a [`Sequence`] of literal pieces and
//! runs that greedy matching decides exactly (`^[a-z]+-[0-9]+$`, `^v\d+\.`):
//! every run of variable length must be last or be followed by a piece that
//! needs at least one character and cannot start with a character of the
//! run's set. At most [`MAX_PIECES`] pieces are accepted.
//!
//! `$` is the end of the input only, never before a trailing newline (there
//! is no multiline flag), as in the general engine.
//!
//! Detection is iterative except for [`matches_empty`], whose recursion
//! depth is bounded by the tree depth, which the parser's nesting limit
//! bounds (see [`super::ast`]).
//!
//! Every fast path gives the general engine's answer; the property tests
//! check that on random patterns and haystacks.

use regex_automata::util::prefilter::Prefilter;
use regex_automata::{MatchKind, Span};
use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};

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
    /// Literal pieces and runs after `^` (and before `$`), matched greedily
    /// in one pass: `^[a-z]+-[0-9]+$`.
    Sequence(Sequence),
    /// Several fast paths (2 to [`MAX_BRANCHES`], none of them
    /// [`FastPath::Always`] or [`FastPath::AnyOf`]): the pattern matches if
    /// one of them does. From top-level alternations (`^\d{3}$|^default$`)
    /// and alternations inside the top-level concatenation
    /// (`^(get|put)$`).
    AnyOf(Box<[FastPath]>),
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
    /// The members of `class`, with the ASCII table built.
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

    /// Heap bytes held.
    fn memory_usage(&self) -> usize {
        match self {
            Members::Everything => 0,
            Members::Set { class, .. } => 256 + std::mem::size_of_val(class.ranges()),
        }
    }

    /// Whether `c` is a member.
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
        let Some(branches) = expand_branches(&ast.root) else {
            return Ok(None);
        };
        let mut paths = Vec::with_capacity(branches.len());
        for terms in branches {
            match detect_terms(terms)? {
                None => return Ok(None),
                Some(FastPath::Always) => return Ok(Some(FastPath::Always)),
                Some(path) => paths.push(path),
            }
        }
        Ok(match paths.len() {
            0 | 1 => paths.pop(),
            _ => Some(FastPath::AnyOf(paths.into())),
        })
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
            FastPath::Sequence(sequence) => sequence.is_match(haystack),
            // The branches are never `AnyOf` themselves (see `detect`), so
            // this recursion is one level deep.
            FastPath::AnyOf(branches) => branches.iter().any(|branch| branch.is_match(haystack)),
        }
    }

    /// How many scans of the haystack a match takes at most: the number of
    /// branches of [`FastPath::AnyOf`] (at most [`MAX_BRANCHES`]), 1 for
    /// every other fast path. The cost model charges `(n + 1)` times this.
    pub fn scans(&self) -> u64 {
        match self {
            FastPath::AnyOf(branches) => u64::try_from(branches.len()).unwrap_or(u64::MAX),
            _ => 1,
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
            FastPath::Run(run) => run.members.memory_usage(),
            FastPath::Sequence(sequence) => {
                sequence.pieces.iter().fold(std::mem::size_of_val(&*sequence.pieces), |sum, piece| {
                    sum.saturating_add(match piece {
                        Piece::Literal(text) => text.len(),
                        Piece::Run { members, .. } => members.memory_usage(),
                    })
                })
            }
            FastPath::AnyOf(branches) => branches
                .iter()
                .fold(std::mem::size_of_val(&**branches), |sum, branch| sum.saturating_add(branch.memory_usage())),
        }
    }
}

/// The fast path for one concatenation of terms (a whole pattern without a
/// top-level alternation, or one branch of [`expand_branches`]), if one
/// applies. Never returns [`FastPath::AnyOf`].
fn detect_terms(mut terms: Vec<&Node>) -> Result<Option<FastPath>, RegexError> {
    if terms.iter().all(|node| matches_empty(node, true)) {
        return Ok(Some(FastPath::Always));
    }
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
    if let [term] = terms.as_slice() {
        let (atom, min, max) = repetition(term);
        if let Some(class) = node_class(atom)? {
            return Ok(Some(FastPath::Run(Run { members: Members::new(class), min, max, anchoring })));
        }
        return Ok(None);
    }
    if !start {
        return Ok(None);
    }
    Ok(Sequence::new(&terms, end)?.map(FastPath::Sequence))
}

/// The branches of a pattern as concatenations of terms, distributing
/// concatenation over alternation: a term that is an alternation (at the
/// top level or inside groups of the top-level concatenation) is replaced by
/// each of its alternatives in turn, so `^(a|b)$` gives `^a$` and `^b$`, and
/// `^a|b$` gives `^a` and `b$`. Both describe the same set of matches as the
/// pattern, since concatenation distributes over union and the anchors are
/// zero-width assertions about positions. `None` if that would give more
/// than [`MAX_BRANCHES`] branches.
///
/// Iterative: each expansion adds at least one branch, so there are fewer
/// than [`MAX_BRANCHES`] of them, each copying one term list.
fn expand_branches(root: &Node) -> Option<Vec<Vec<&Node>>> {
    let mut done = Vec::new();
    let mut pending = vec![top_level_terms(root)];
    while let Some(terms) = pending.pop() {
        let alternation = terms.iter().enumerate().find_map(|(at, node)| match &node.kind {
            NodeKind::Alternation(alternatives) => Some((at, alternatives)),
            _ => None,
        });
        let Some((at, alternatives)) = alternation else {
            done.push(terms);
            continue;
        };
        if done.len().saturating_add(pending.len()).saturating_add(alternatives.len()) > MAX_BRANCHES {
            return None;
        }
        let (before, after) = (terms.get(..at)?, terms.get(at.saturating_add(1)..)?);
        // Reversed so that the branches come out in pattern order.
        for alternative in alternatives.iter().rev() {
            let mut branch = before.to_vec();
            branch.extend(top_level_terms(alternative));
            branch.extend_from_slice(after);
            pending.push(branch);
        }
    }
    Some(done)
}

/// A term as `atom{min,max}`: the quantified atom of a repetition, or the
/// term itself once. Groups around the atom are looked through (`(?:a)+` is
/// `a+`); a group that is itself quantified is the repetition's atom, never
/// looked through as a sequence.
fn repetition(term: &Node) -> (&Node, u64, Option<u64>) {
    let (mut atom, min, max) = match &term.kind {
        NodeKind::Repeat(repeat) => (&*repeat.sub, u64::from(repeat.min), repeat.max.map(u64::from)),
        _ => (term, 1, Some(1)),
    };
    while let NodeKind::Group(group) = &atom.kind {
        atom = &group.sub;
    }
    (atom, min, max)
}

/// Most branches a [`FastPath::AnyOf`] holds; a pattern with more goes to
/// the linear engine. Bounds the memory of the fast path and the step cost
/// of a match, `(n + 1)` per branch.
pub const MAX_BRANCHES: usize = 16;

/// Most pieces a [`Sequence`] holds (a literal piece counts once however
/// long), bounding its tables to about 4 KiB.
const MAX_PIECES: usize = 16;

/// Literal pieces and runs matched one after the other from the start of
/// the haystack, each run greedily and without backtracking.
///
/// Greedy matching is exact because every run of variable length is
/// followed either by the end of the pattern or by a piece that must match
/// at least one character, none of which the run accepts (the run's set is
/// disjoint from the next piece's first character set). Then the run can
/// only end at the first character it rejects (or at its maximum, where the
/// next piece then fails, as it would after any shorter choice), so there
/// is exactly one way to split the haystack and one pass finds it.
#[derive(Debug)]
pub struct Sequence {
    pieces: Box<[Piece]>,
    /// Whether the pattern ends with `$`: the pieces must use up the
    /// haystack.
    whole: bool,
}

/// One piece of a [`Sequence`].
#[derive(Debug)]
enum Piece {
    /// A literal string, matched exactly.
    Literal(Box<str>),
    /// `C{min,max}`, matched greedily.
    Run {
        /// The set `C`.
        members: Members,
        /// Fewest characters.
        min: u64,
        /// Most characters, `None` for unbounded.
        max: Option<u64>,
    },
}

impl Sequence {
    /// The sequence for `terms` (after a leading `^`, and before a trailing
    /// `$` if `whole`), if every term is a literal character or a run of one
    /// character set and greedy matching is exact (see [`Sequence`]).
    fn new(terms: &[&Node], whole: bool) -> Result<Option<Sequence>, RegexError> {
        let mut pieces: Vec<Piece> = Vec::new();
        // Literal characters not yet moved into `pieces`, as one piece.
        let mut literal = String::new();
        // The set of the previous piece if it is a run of variable length,
        // which the next piece must start outside of.
        let mut open_run: Option<ClassUnicode> = None;
        for term in terms {
            let character = match term.kind {
                NodeKind::Literal(code) => char::from_u32(code),
                _ => None,
            };
            // The next piece's first character set, its fewest characters,
            // and whether it is a run of variable length.
            let (first, min, variable) = if let Some(c) = character {
                let starts_piece = literal.is_empty();
                literal.push(c);
                if !starts_piece {
                    continue;
                }
                (ClassUnicode::new([ClassUnicodeRange::new(c, c)]), 1, false)
            } else {
                if !literal.is_empty() {
                    pieces.push(Piece::Literal(std::mem::take(&mut literal).into()));
                }
                let (atom, min, max) = repetition(term);
                let Some(class) = node_class(atom)? else { return Ok(None) };
                pieces.push(Piece::Run { members: Members::new(class.clone()), min, max });
                (class, min, Some(min) != max)
            };
            if let Some(previous) = open_run.take() {
                if min == 0 || !disjoint(&previous, &first) {
                    return Ok(None);
                }
            }
            if variable {
                open_run = Some(first);
            }
            // A pending literal counts as a piece.
            if pieces.len().saturating_add(usize::from(!literal.is_empty())) > MAX_PIECES {
                return Ok(None);
            }
        }
        if !literal.is_empty() {
            pieces.push(Piece::Literal(literal.into()));
        }
        Ok(Some(Sequence { pieces: pieces.into(), whole }))
    }

    /// Whether the pieces match from the start of `haystack` (and use it up
    /// if `whole`).
    fn is_match(&self, haystack: &str) -> bool {
        let mut rest = haystack;
        for piece in &self.pieces {
            let after = match piece {
                Piece::Literal(text) => rest.strip_prefix(&**text),
                Piece::Run { members, min, max } => take_run(rest, members, *min, *max),
            };
            let Some(after) = after else { return false };
            rest = after;
        }
        !self.whole || rest.is_empty()
    }
}

/// What is left of `rest` after the longest run of at most `max` members at
/// its start, if that run has at least `min` characters.
fn take_run<'a>(rest: &'a str, members: &Members, min: u64, max: Option<u64>) -> Option<&'a str> {
    let mut count = 0u64;
    let mut end = rest.len();
    for (at, c) in rest.char_indices() {
        if max.is_some_and(|max| count >= max) || !members.contains(c) {
            end = at;
            break;
        }
        count = count.saturating_add(1);
    }
    if count < min {
        return None;
    }
    rest.get(end..)
}

/// Whether no character is in both sets.
fn disjoint(a: &ClassUnicode, b: &ClassUnicode) -> bool {
    let mut both = a.clone();
    both.intersect(b);
    both.ranges().is_empty()
}

impl Run {
    /// Whether the run, anchored as given, matches in `haystack`.
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
    /// The number of branches of the detected fast path (1 unless
    /// [`FastPath::AnyOf`]), `None` without one.
    fn branches(pattern: &str) -> Option<usize> {
        match detect(pattern)? {
            FastPath::AnyOf(branches) => {
                assert!(branches.iter().all(|b| !matches!(b, FastPath::AnyOf(_) | FastPath::Always)), "{pattern}");
                Some(branches.len())
            }
            _ => Some(1),
        }
    }

    #[test]
    fn groups_are_transparent_unless_quantified() {
        let lit = |t: &str, a| Some((t.to_string(), a));
        assert_eq!(literal("^(default)$"), lit("default", Anchoring::Whole));
        assert_eq!(literal("^(?:(?<n>de)(fault))$"), lit("default", Anchoring::Whole));
        assert_eq!(run("^([0-9]{3})$"), Some((3, Some(3), Anchoring::Whole, false)));
        assert_eq!(run("^(?:a)+$"), Some((1, None, Anchoring::Whole, false)));
        assert_eq!(run("^((a)){2}$"), Some((2, Some(2), Anchoring::Whole, false)));
        assert!(detect("^(ab)+$").is_none());
        assert!(detect("^(?:ab){2}$").is_none());
    }

    #[test]
    fn alternations_become_branches() {
        assert_eq!(branches("^([0-9]{3})$|^(default)$"), Some(2));
        assert_eq!(branches("^(get|put|post)$"), Some(3));
        assert_eq!(branches("^(?:a|b)$"), Some(2));
        assert_eq!(branches("^a|b$"), Some(2));
        assert_eq!(branches("a|b"), Some(2));
        assert_eq!(branches("^x-(a|b)-(c|d)$"), Some(4));
        assert_eq!(branches("^(a|(b|c))$"), Some(3));
        assert!(matches!(detect("a|b*"), Some(FastPath::Always)));
        let sixteen: Vec<String> = (0..16).map(|i| format!("w{i}")).collect();
        assert_eq!(branches(&format!("^(?:{})$", sixteen.join("|"))), Some(16));
        let seventeen: Vec<String> = (0..17).map(|i| format!("w{i}")).collect();
        assert_eq!(branches(&format!("^(?:{})$", seventeen.join("|"))), None);
        assert_eq!(branches("^(a|b)(c|d)(e|f)(g|h)(i|j)$"), None, "32 branches");
        assert_eq!(branches("^(a|b\\b)$"), None, "one branch is not fast");
        assert_eq!(branches("^(a|b)+$"), None);
    }

    #[test]
    fn alternations_keep_their_anchors() {
        let matches = |p: &str, h: &str| detect(p).is_some_and(|f| f.is_match(h));
        for (pattern, yes, no) in [
            (
                "^([0-9]{3})$|^(default)$",
                &["200", "404", "default"][..],
                &["2000", "20", "defaults", "xdefault", ""][..],
            ),
            ("^(get|put)$", &["get", "put"], &["gets", "xput", "", "getput"]),
            ("^a|b$", &["ab", "b", "xb", "a"], &["xa", "ba", ""]),
            ("^(a|b)$", &["a", "b"], &["ab", "xb", "xa"]),
        ] {
            for h in yes {
                assert!(matches(pattern, h), "{pattern} on {h:?}");
            }
            for h in no {
                assert!(!matches(pattern, h), "{pattern} on {h:?}");
            }
        }
    }

    #[test]
    fn sequences_need_disjoint_neighbours() {
        let is_sequence = |p: &str| matches!(detect(p), Some(FastPath::Sequence(_)));
        for pattern in [r"^[a-z]+-[0-9]+$", r"^v\d+\.", r"^[a-z]{2}[a-z]*$", r"^a?b$", r"^\d{4}-\d{2}-\d{2}$", "^a.b$"]
        {
            assert!(is_sequence(pattern), "{pattern}");
        }
        for pattern in [r"^[a-z]+[a-z0-9]$", r"^a*a$", r"^a+b?c$", r"[a-z]+-[0-9]+$", r"^a\bb$", r"^a+(bc)+$"] {
            assert!(!is_sequence(pattern), "{pattern}");
        }
        let matches = |p: &str, h: &str| detect(p).is_some_and(|f| f.is_match(h));
        assert!(matches(r"^[a-z]+-[0-9]+$", "abc-12"));
        assert!(!matches(r"^[a-z]+-[0-9]+$", "abc-"));
        assert!(!matches(r"^[a-z]+-[0-9]+$", "-1"));
        assert!(!matches(r"^[a-z]+-[0-9]+$", "ab-1x"));
        assert!(matches(r"^[a-z]{1,2}-", "ab-x"));
        assert!(!matches(r"^[a-z]{1,2}-", "abc-"));
        assert!(matches(r"^é+a$", "ééa"));
        assert!(!matches(r"^é+a$", "éa\n"));
    }
}
