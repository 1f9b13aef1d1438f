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
//! (`(?:a)+` is `a+`); a quantified group such as `(ab)+` is a repeated
//! piece of a [`Sequence`] (after `^` only).
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
//! after `^` (and possibly before `$`), a [`Sequence`] of literal pieces,
//! runs and quantified groups of literals and runs that greedy matching
//! decides exactly (`^[a-z]+-[0-9]+$`, `^v\d+\.`, `^(/[A-Za-z0-9._-]+)+$`,
//! `^[^\s]+(\s[^\s]+)*$`, `^\d+(\.\d+){0,3}$`): roughly, no run of
//! variable length can be followed by a character of its own set, and a
//! group of variable count starts with a piece that needs a character and
//! cannot be followed by a character it starts with (the precise rules are
//! under [`Sequence`]). Groups nest one level deep in a sequence (no
//! quantified group inside a quantified group), and at most [`MAX_PIECES`]
//! pieces are accepted, the bodies' pieces included.
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
    /// Literal pieces, runs and repeated groups of those after `^` (and
    /// before `$`), matched greedily in one pass: `^[a-z]+-[0-9]+$`,
    /// `^[a-z]+(-[a-z]+)*$`.
    Sequence(Sequence),
    /// Several fast paths (2 to [`MAX_BRANCHES`], none of them
    /// [`FastPath::Always`] or [`FastPath::AnyOf`]): the pattern matches if
    /// one of them does. From top-level alternations (`^\d{3}$|^default$`)
    /// and alternations inside the top-level concatenation
    /// (`^(get|put)$`).
    AnyOf(Box<[FastPath]>),
}

/// The shortcut of a whole-haystack [`Run`] of a set with a
/// [`ByteSpan`] (`^\S*$`, `^[ \r\n\t\S]+$`): a haystack whose bytes are all
/// in the span is all members, one character per byte, so its length
/// decides. (Any other haystack goes through the run's full match.)
#[derive(Debug, Clone, Copy)]
pub struct SpanRun {
    span: ByteSpan,
    min: u64,
    max: u64,
}

impl SpanRun {
    /// The verdict, if every byte of `haystack` is in the span.
    #[inline(always)]
    pub fn decide(&self, haystack: &[u8]) -> Option<bool> {
        let len = haystack.len() as u64;
        self.span.holds_all(haystack).then_some(self.min <= len && len <= self.max)
    }
}

/// The longest literal a [`ShortLiteral`] holds.
const SHORT_LITERAL_MAX: usize = 8;

/// A literal of at most [`SHORT_LITERAL_MAX`] bytes at the start of the
/// haystack or as the whole of it (`^x-`, `^get$`), held inline: every
/// haystack is decided by comparing its first bytes (and, for a whole
/// match, its length), without a pointer to follow.
#[derive(Debug, Clone, Copy)]
pub struct ShortLiteral {
    bytes: [u8; SHORT_LITERAL_MAX],
    len: u8,
    whole: bool,
}

impl ShortLiteral {
    /// `text` at the start (or as the whole, if `whole`), if it is short
    /// enough.
    fn new(text: &str, whole: bool) -> Option<ShortLiteral> {
        let mut bytes = [0; SHORT_LITERAL_MAX];
        bytes.get_mut(..text.len())?.copy_from_slice(text.as_bytes());
        Some(ShortLiteral { bytes, len: u8::try_from(text.len()).ok()?, whole })
    }

    /// Whether `haystack` matches.
    #[inline(always)]
    fn decide(&self, haystack: &[u8]) -> bool {
        let len = usize::from(self.len);
        if self.whole && haystack.len() != len {
            return false;
        }
        // `len` is at most the array's size (see `new`).
        starts_with(haystack, self.bytes.get(..len).unwrap_or_default())
    }
}

/// A test [`Regex::is_match`](super::Regex::is_match) runs inline before
/// the engine, for the fast paths that patterns of property names and
/// string values most often have: cheap enough that a call would cost
/// more than the test.
#[derive(Debug, Clone, Copy)]
pub enum Shortcut {
    /// No shortcut: the engine decides.
    None,
    /// Decides the haystacks whose bytes are all in the span.
    Span(SpanRun),
    /// Decides every haystack.
    Literal(ShortLiteral),
}

impl Shortcut {
    /// The verdict, if the shortcut gives one.
    #[inline(always)]
    pub fn decide(&self, haystack: &[u8]) -> Option<bool> {
        match self {
            Shortcut::None => None,
            Shortcut::Span(run) => run.decide(haystack),
            Shortcut::Literal(literal) => Some(literal.decide(haystack)),
        }
    }
}

impl FastPath {
    /// The [`Shortcut`] of this fast path: a [`SpanRun`] for a
    /// whole-haystack run of a set with a span, a [`ShortLiteral`] for a
    /// short literal at the start or as the whole.
    pub fn shortcut(&self) -> Shortcut {
        match self {
            FastPath::Run(Run {
                members: Members::Set { span: Some(span), .. },
                min,
                max,
                anchoring: Anchoring::Whole,
            }) => Shortcut::Span(SpanRun { span: *span, min: *min, max: max.unwrap_or(u64::MAX) }),
            FastPath::Literal { text, anchoring: anchoring @ (Anchoring::Start | Anchoring::Whole) } => {
                ShortLiteral::new(text, *anchoring == Anchoring::Whole).map_or(Shortcut::None, Shortcut::Literal)
            }
            _ => Shortcut::None,
        }
    }
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
    /// class decides), so a byte scan needs one lookup per byte. With a
    /// `span`, whole words of bytes inside it need no lookup.
    Set { bytes: Box<[bool; 256]>, class: ClassUnicode, span: Option<ByteSpan> },
}

/// ASCII bytes `lo..=hi` that are all members of a set, containing every
/// printable character but the space (`!` to `~`): the sets of "anything
/// but white space" kinds (`\S`, `[ \r\n\t\S]`). A word of eight bytes is
/// tested against it with a few arithmetic operations, before any lookup.
#[derive(Debug, Clone, Copy)]
struct ByteSpan {
    lo: u8,
    hi: u8,
}

impl ByteSpan {
    /// The widest span of `table`'s members around `!`..=`~`, if they are
    /// all members.
    fn of(table: &[bool; 256]) -> Option<ByteSpan> {
        let member = |b: u8| table.get(usize::from(b)).copied().unwrap_or(false);
        if !(b'!'..=b'~').all(member) {
            return None;
        }
        let mut lo = b'!';
        while lo > 0 && member(lo - 1) {
            lo -= 1;
        }
        let hi = if member(0x7f) { 0x7f } else { b'~' };
        Some(ByteSpan { lo, hi })
    }

    /// [`ByteSpan::holds`] for eight bytes (a shorter slice never holds).
    #[inline(always)]
    fn holds_word(self, word: &[u8]) -> bool {
        <[u8; 8]>::try_from(word).is_ok_and(|w| self.holds(u64::from_le_bytes(w)))
    }

    /// Whether every byte of `bytes` is in the span: eight at a time, then
    /// the rest one by one.
    #[inline(always)]
    fn holds_all(self, bytes: &[u8]) -> bool {
        let mut words = bytes.chunks_exact(8);
        words.by_ref().all(|w| self.holds_word(w)) && words.remainder().iter().all(|b| (self.lo..=self.hi).contains(b))
    }

    /// Whether every byte of `word` is in the span. (No byte is below
    /// `lo` exactly when subtracting `lo` from each byte borrows nowhere,
    /// which the high bits show for bytes under 0x80; none is above `hi`
    /// (at most 0x7f) exactly when adding `0x7f - hi` carries into no high
    /// bit and no high bit was set.)
    #[inline(always)]
    fn holds(self, word: u64) -> bool {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGHS: u64 = 0x8080_8080_8080_8080;
        let below = word.wrapping_sub(ONES * u64::from(self.lo)) & !word;
        let above = word.wrapping_add(ONES * u64::from(0x7f - self.hi)) | word;
        (below | above) & HIGHS == 0
    }
}

impl Members {
    /// The members of `class`, with the ASCII table built.
    fn new(class: ClassUnicode) -> Members {
        if complement(&class).ranges().is_empty() {
            return Members::Everything;
        }
        let mut bytes = Box::new([false; 256]);
        // The ASCII part of each range (ranges past ASCII set nothing).
        for range in class.ranges() {
            let (start, end) = (u32::from(range.start()), u32::from(range.end()).min(0x7f));
            for member in bytes.get_mut(start as usize..=end as usize).into_iter().flatten() {
                *member = true;
            }
        }
        let span = ByteSpan::of(&bytes);
        Members::Set { bytes, class, span }
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
            Members::Set { bytes, class, .. } => match u32::from(c) {
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
            // The branches are never `AnyOf` themselves (see `detect`).
            FastPath::AnyOf(branches) => branches.iter().any(|branch| branch.matches_one(haystack)),
            other => other.matches_one(haystack),
        }
    }

    /// [`FastPath::is_match`] for every fast path but [`FastPath::AnyOf`]
    /// (false for it): not recursive, so it can be inlined.
    #[inline(always)]
    fn matches_one(&self, haystack: &str) -> bool {
        match self {
            FastPath::AnyOf(_) => false,
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
        }
    }

    /// Whether the scan works piece by piece or branch by branch (a
    /// [`FastPath::Sequence`], a [`FastPath::AnyOf`]): then a small DFA's
    /// walk, one table lookup per byte, costs less (the other fast paths
    /// compare bytes directly, or several at once). Not for branches that
    /// are all literals at a fixed place (`^(extractors|loaders|...)$`):
    /// each compares its bytes directly, after its length for a whole
    /// match, and the table would cost more to build (a list of eight
    /// names, 58 states: about 0.5 M instructions) than it saves.
    pub fn has_pieces(&self) -> bool {
        match self {
            FastPath::Sequence(_) => true,
            FastPath::AnyOf(branches) => !branches.iter().all(|branch| {
                matches!(
                    branch,
                    FastPath::Literal { anchoring: Anchoring::Whole | Anchoring::Start | Anchoring::End, .. }
                )
            }),
            _ => false,
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
            FastPath::Sequence(sequence) => sequence.memory_usage(),
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

/// Most pieces a [`Sequence`] holds, counting a repeated group and each
/// piece of its body (a literal piece counts once however long), bounding
/// its tables to about 4 KiB.
const MAX_PIECES: usize = 16;

/// Literal pieces, runs and repeated groups matched one after the other
/// from the start of the haystack, each greedily and without backtracking.
///
/// # Exactness
///
/// Greedy matching decides the pattern exactly when, at every choice it
/// makes, every other choice fails. The choices are how many characters a
/// run of variable length takes, and how many iterations a repeated group
/// `(B){min,max}` of variable count takes. Call the *follow set* of a piece
/// the characters that can come right after it in a match: the first
/// characters of the next piece, and if that piece can match the empty
/// string, also those of the piece after it, and so on; the end of the
/// pattern adds nothing when it is `$` (the end of input is not a
/// character) and makes the follow set *open* otherwise (anything may
/// follow). The conditions, checked by [`exact`] from the last piece
/// backwards, are:
///
/// 1. A run of variable length has a follow set disjoint from its own set,
///    or an open one. A shorter choice than the greedy one ends the run
///    before a character of the run's set, where the rest of the pattern
///    would have to start, which it cannot. An open follow set is the end
///    of a pattern without `$`, where any choice that satisfies `min`
///    matches, and the greedy one does if any does.
/// 2. A repeated group's body `B` starts with a piece that needs at least
///    one character (a literal, or a run with `min >= 1`); call its set
///    `F`. Every iteration then consumes at least one character, so the
///    repetition ends within the haystack.
/// 3. The pieces of `B` are checked with rule 1 against the follow set
///    `F ∪ follow(group)`: after an iteration comes another one or what
///    follows the group. In particular the body's last run of variable
///    length, if nothing after it in the body needs a character, must be
///    disjoint from `F` and from what follows the group.
/// 4. If the group's count is variable (`min < max`), `F` is disjoint from
///    the group's follow set, which is not open. Then when the first piece
///    of an iteration matches, it consumed a character of `F`, which
///    nothing after the group can start with: stopping the repetition
///    there fails, so the iteration must complete, and if it fails after its
///    first piece there is no match at all. When the first piece fails, the
///    repetition ends where the iteration began (the failed attempt
///    consumes nothing).
/// 5. A repeated group that ends a pattern without `$` is matched for
///    exactly `min` iterations: a match with more iterations has a prefix
///    that is a match with `min`. A piece that can match the empty string
///    never ends such a pattern (detection drops those terms first), so an
///    open follow set belongs only to the last piece.
///
/// The piece before a group is covered by rule 1, since the group's first
/// set `F` is in its follow set (with the group's own follow set too when
/// `min = 0`): in `^[^\s]+(\s[^\s]+)*$` the run `[^\s]+` must be disjoint
/// from `\s` (and from the end, which adds nothing). Under these rules
/// there is at most one way to split the haystack, and one greedy pass
/// finds it.
///
/// # Cost
///
/// A match is one left-to-right pass: every piece starts where the previous
/// one stopped, nothing is retried, and a failure after the first piece of
/// an iteration (or of any piece outside one) ends the match. Besides the
/// characters each piece consumes, a piece looks at the one character it
/// stops before, and the failed first piece that ends a repetition looks at
/// fewer characters than its literal length or its `min`, which the next
/// piece then scans again: each byte is looked at a small bounded number of
/// times, so the fast-path cost `n + 1` ([`FastPath::scans`] is 1) holds.
/// Bodies are one level deep ([`Step`]s only), with at most
/// [`MAX_PIECES`] pieces in the whole sequence.
#[derive(Debug)]
pub struct Sequence {
    pieces: Box<[Piece]>,
    /// Whether the pattern ends with `$`: the pieces must use up the
    /// haystack.
    whole: bool,
}

/// One piece of a [`Sequence`]: a step, or a repeated group of steps.
#[derive(Debug)]
enum Piece {
    /// A literal or a run.
    Step(Step),
    /// `(B){min,max}` for a body `B` of steps, matched greedily as
    /// described under [`Sequence`] (the body is never empty and its first
    /// step needs at least one character).
    Repeat {
        /// The body's steps.
        body: Box<[Step]>,
        /// Fewest iterations.
        min: u64,
        /// Most iterations, `None` for unbounded.
        max: Option<u64>,
    },
}

/// A literal or a run, the pieces a repeated group's body is made of.
#[derive(Debug)]
enum Step {
    /// A literal of one ASCII character (`-`, `.`, `/`), compared as a byte.
    Byte(u8),
    /// A longer literal string, matched exactly.
    Literal(Box<str>),
    /// `C{min,max}`, matched greedily.
    Run {
        /// The set `C`.
        members: Members,
        /// Fewest characters (saturated: more than `usize::MAX` can never
        /// match).
        min: usize,
        /// Most characters, `usize::MAX` for unbounded (no haystack has
        /// more characters).
        max: usize,
    },
}

/// A [`Piece`] during detection, with the character sets [`exact`] needs.
enum Draft {
    /// A literal string (never empty).
    Literal(String),
    /// `class{min,max}`.
    Run {
        /// The set.
        class: ClassUnicode,
        /// Fewest characters.
        min: u64,
        /// Most characters.
        max: Option<u64>,
    },
    /// `(body){min,max}`; the body holds no `Repeat`.
    Repeat {
        /// The body.
        body: Vec<Draft>,
        /// Fewest iterations.
        min: u64,
        /// Most iterations.
        max: Option<u64>,
    },
}

impl Draft {
    /// The characters the piece can start with.
    fn first(&self) -> ClassUnicode {
        match self {
            Draft::Literal(text) => match text.chars().next() {
                Some(c) => ClassUnicode::new([ClassUnicodeRange::new(c, c)]),
                None => ClassUnicode::empty(),
            },
            Draft::Run { class, .. } => class.clone(),
            Draft::Repeat { body, .. } => body.first().map_or_else(ClassUnicode::empty, Draft::first),
        }
    }

    /// Whether the piece can match the empty string.
    fn nullable(&self) -> bool {
        match self {
            Draft::Literal(text) => text.is_empty(),
            Draft::Run { min, .. } | Draft::Repeat { min, .. } => *min == 0,
        }
    }

    /// The matcher's step for a literal or a run; `None` for a repetition.
    fn into_step(self) -> Option<Step> {
        match self {
            Draft::Literal(text) => Some(match text.as_bytes() {
                &[byte] => Step::Byte(byte),
                _ => Step::Literal(text.into()),
            }),
            Draft::Run { class, min, max } => Some(Step::Run {
                members: Members::new(class),
                min: usize::try_from(min).unwrap_or(usize::MAX),
                max: max.map_or(usize::MAX, |max| usize::try_from(max).unwrap_or(usize::MAX)),
            }),
            Draft::Repeat { .. } => None,
        }
    }
}

/// The drafts for `terms`: consecutive literal characters as one literal,
/// runs of one character set, and (only if `groups`) quantified groups
/// whose body is itself such terms, without groups. `None` if a term is
/// anything else. Recurses once at most (bodies are read with `groups`
/// false). `pieces` counts the drafts made, bodies included.
fn drafts(terms: &[&Node], groups: bool, pieces: &mut usize) -> Result<Option<Vec<Draft>>, RegexError> {
    let mut out: Vec<Draft> = Vec::new();
    for term in terms {
        if *pieces > MAX_PIECES {
            return Ok(None);
        }
        if let NodeKind::Literal(code) = term.kind {
            if let Some(c) = char::from_u32(code) {
                if let Some(Draft::Literal(text)) = out.last_mut() {
                    text.push(c);
                } else {
                    out.push(Draft::Literal(c.to_string()));
                    *pieces = pieces.saturating_add(1);
                }
                continue;
            }
        }
        let (atom, min, max) = repetition(term);
        let draft = if let Some(class) = node_class(atom)? {
            Draft::Run { class, min, max }
        } else if groups && matches!(term.kind, NodeKind::Repeat(_)) {
            let Some(body) = drafts(&top_level_terms(atom), false, pieces)? else {
                return Ok(None);
            };
            Draft::Repeat { body, min, max }
        } else {
            return Ok(None);
        };
        out.push(draft);
        *pieces = pieces.saturating_add(1);
    }
    Ok((*pieces <= MAX_PIECES).then_some(out))
}

/// Whether greedy matching decides `drafts` exactly when `follow` can come
/// after them (`None`: the follow set is open, the end of a pattern without
/// `$`). Checks the rules listed under [`Sequence`], from the last piece
/// backwards, carrying the follow set of the current piece. Recurses into
/// repetition bodies, which hold no repetition, so at most once.
fn exact(drafts: &[Draft], follow: Option<ClassUnicode>) -> bool {
    let mut follow = follow;
    for draft in drafts.iter().rev() {
        match draft {
            Draft::Literal(text) => {
                if text.is_empty() {
                    return false;
                }
            }
            Draft::Run { class, min, max } => {
                if Some(*min) != *max && follow.as_ref().is_some_and(|follow| !disjoint(class, follow)) {
                    return false;
                }
            }
            Draft::Repeat { body, min, max } => {
                // Rule 2: the body starts with a piece that needs a character.
                if body.first().is_none_or(Draft::nullable) || body.iter().any(|d| matches!(d, Draft::Repeat { .. })) {
                    return false;
                }
                let first = draft.first();
                // Rule 4 (and 5: an open follow set needs a fixed count).
                if Some(*min) != *max && follow.as_ref().is_none_or(|follow| !disjoint(&first, follow)) {
                    return false;
                }
                // Rule 3.
                let mut after_body = first.clone();
                if let Some(follow) = &follow {
                    after_body.union(follow);
                }
                if !exact(body, Some(after_body)) {
                    return false;
                }
            }
        }
        // An open follow set belongs only to the last piece (rule 5).
        if follow.is_none() && draft.nullable() {
            return false;
        }
        let first = draft.first();
        follow = match follow {
            Some(mut follow) if draft.nullable() => {
                follow.union(&first);
                Some(follow)
            }
            _ => Some(first),
        };
    }
    true
}

impl Sequence {
    /// The sequence for `terms` (after a leading `^`, and before a trailing
    /// `$` if `whole`), if every term is a literal character, a run of one
    /// character set or a quantified group of those, and greedy matching is
    /// exact (see [`Sequence`]).
    fn new(terms: &[&Node], whole: bool) -> Result<Option<Sequence>, RegexError> {
        let mut count = 0;
        let Some(mut drafts) = drafts(terms, true, &mut count)? else {
            return Ok(None);
        };
        // Rule 5: a repetition ending a pattern without `$` needs only its
        // `min` iterations.
        if !whole {
            if let Some(Draft::Repeat { min, max, .. }) = drafts.last_mut() {
                *max = Some(*min);
            }
        }
        // After the last piece: the end of input (nothing) with `$`, else
        // anything.
        let follow = if whole { Some(ClassUnicode::empty()) } else { None };
        if !exact(&drafts, follow) {
            return Ok(None);
        }
        let mut pieces = Vec::with_capacity(drafts.len());
        for draft in drafts {
            pieces.push(match draft {
                Draft::Repeat { body, min, max } => {
                    let Some(body) = body.into_iter().map(Draft::into_step).collect::<Option<Box<[Step]>>>() else {
                        return Ok(None);
                    };
                    Piece::Repeat { body, min, max }
                }
                other => match other.into_step() {
                    Some(step) => Piece::Step(step),
                    None => return Ok(None),
                },
            });
        }
        Ok(Some(Sequence { pieces: pieces.into(), whole }))
    }

    /// Whether the pieces match from the start of `haystack` (and use it up
    /// if `whole`).
    fn is_match(&self, haystack: &str) -> bool {
        let mut at = 0;
        for piece in &self.pieces {
            let next = match piece {
                Piece::Step(step) => step.take(haystack, at),
                Piece::Repeat { body, min, max } => repeat(body, *min, *max, haystack, at),
            };
            let Some(next) = next else { return false };
            at = next;
        }
        !self.whole || at == haystack.len()
    }

    /// The number of repeated groups among the pieces (for tests that
    /// check how often generated patterns exercise them).
    #[cfg(test)]
    pub fn repeats(&self) -> usize {
        self.pieces.iter().filter(|piece| matches!(piece, Piece::Repeat { .. })).count()
    }

    /// Heap bytes held.
    fn memory_usage(&self) -> usize {
        self.pieces.iter().fold(std::mem::size_of_val(&*self.pieces), |sum, piece| {
            sum.saturating_add(match piece {
                Piece::Step(step) => step.memory_usage(),
                Piece::Repeat { body, .. } => body
                    .iter()
                    .fold(std::mem::size_of_val(&**body), |sum, step| sum.saturating_add(step.memory_usage())),
            })
        })
    }
}

impl Step {
    /// Where the step ends if it matches at byte `at` of `haystack` (a
    /// character boundary). Always inlined: a call per step cost more than
    /// the step on short keys.
    #[inline(always)]
    fn take(&self, haystack: &str, at: usize) -> Option<usize> {
        match self {
            Step::Byte(byte) => (haystack.as_bytes().get(at) == Some(byte)).then(|| at.saturating_add(1)),
            Step::Literal(text) => {
                starts_with(haystack.as_bytes().get(at..)?, text.as_bytes()).then(|| at.saturating_add(text.len()))
            }
            Step::Run { members, min, max } => take_run(haystack, at, members, *min, *max),
        }
    }

    /// Heap bytes held.
    fn memory_usage(&self) -> usize {
        match self {
            Step::Byte(_) => 0,
            Step::Literal(text) => text.len(),
            Step::Run { members, .. } => members.memory_usage(),
        }
    }
}

/// Where `(body){min,max}` ends if it matches at byte `at` of `haystack`:
/// iterations are taken greedily up to `max`; one whose first step fails
/// ends the repetition where it began, one that fails later means no match
/// (exact under the rules of [`Sequence`]).
#[inline]
fn repeat(body: &[Step], min: u64, max: Option<u64>, haystack: &str, mut at: usize) -> Option<usize> {
    let (first, rest) = body.split_first()?;
    let mut count = 0u64;
    while max.is_none_or(|max| count < max) {
        let Some(mut next) = first.take(haystack, at) else { break };
        for step in rest {
            next = step.take(haystack, next)?;
        }
        // Every iteration consumes a character (rule 2); this guard only
        // makes termination evident.
        if next <= at {
            break;
        }
        at = next;
        count = count.saturating_add(1);
    }
    (count >= min).then_some(at)
}

/// Where the longest run of at most `max` members starting at byte `start`
/// of `haystack` (a character boundary) ends, if it has at least `min`
/// characters. Counts are in characters. ASCII members are scanned by byte
/// with the table (at most `max` bytes, which are then `max` characters);
/// the first non-ASCII byte (a character boundary, since every byte before
/// it is ASCII) hands the rest to [`take_chars`].
#[inline(always)]
fn take_run(haystack: &str, start: usize, members: &Members, min: usize, max: usize) -> Option<usize> {
    let Members::Set { bytes: table, span, .. } = members else {
        return take_chars(haystack, start, 0, members, min, max);
    };
    let rest = haystack.as_bytes().get(start..)?;
    let window = rest.get(..max).unwrap_or(rest);
    let stop = if window.len() < CHUNK {
        window.iter().position(|&b| !table[usize::from(b)])
    } else {
        first_outside(window, table, *span)
    }
    .unwrap_or(window.len());
    if stop < max && rest.get(stop).is_some_and(|b| !b.is_ascii()) {
        return take_chars(haystack, start.saturating_add(stop), stop, members, min, max);
    }
    (stop >= min).then_some(start.saturating_add(stop))
}

/// Where a run of members that already has `count` characters and goes on
/// at byte `at` of `haystack` (a character boundary) ends, decoding
/// characters, up to `max` characters in all; `None` if it has fewer than
/// `min`. Kept out of line: the ASCII scan of [`take_run`] is the hot path.
#[inline(never)]
fn take_chars(haystack: &str, at: usize, mut count: usize, members: &Members, min: usize, max: usize) -> Option<usize> {
    let tail = haystack.get(at..)?;
    let mut end = haystack.len();
    for (offset, c) in tail.char_indices() {
        if count >= max || !members.contains(c) {
            end = at.saturating_add(offset);
            break;
        }
        count = count.saturating_add(1);
    }
    (count >= min).then_some(end)
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
                // A character is at most 4 bytes: a longer haystack has more
                // than `max` characters.
                if self.max.is_some_and(|max| haystack.len() as u64 > max.saturating_mul(4)) {
                    return false;
                }
                if let Members::Everything = members {
                    let count = haystack.chars().count() as u64;
                    return count >= self.min && self.max.is_none_or(|max| count <= max);
                }
                let mut rest = haystack;
                let mut count = 0u64;
                if let Members::Set { bytes: table, span, .. } = members {
                    // One pass over the bytes while they are ASCII members
                    // (one character each); the first byte that is not
                    // decides, or hands the rest to the character loop.
                    let bytes = haystack.as_bytes();
                    let stop = first_outside(bytes, table, *span);
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

/// The position of the first byte `table` rejects. With a `span`, words
/// of eight bytes inside it pass without lookups, and a word with a byte
/// outside it is looked up byte by byte; without, whole chunks are tested
/// without a branch per byte (the lookups are independent, so they
/// overlap), and only a rejected chunk is searched byte by byte.
#[inline]
fn first_outside(bytes: &[u8], table: &[bool; 256], span: Option<ByteSpan>) -> Option<usize> {
    let rejected = |b: &u8| !table[usize::from(*b)];
    if let (Some(span), Some(last)) = (span, bytes.len().checked_sub(8)) {
        // Whole words, then the last eight bytes (overlapping words
        // already passed, which is harmless): no byte-by-byte tail. A word
        // outside the span is looked up byte by byte.
        let mut at = 0;
        loop {
            let start = at.min(last);
            let word = bytes.get(start..start + 8).unwrap_or_default();
            if !span.holds_word(word) {
                if let Some(i) = word.iter().position(rejected) {
                    return Some(start + i);
                }
            }
            if start == last {
                return None;
            }
            at += 8;
        }
    }
    let mut at = 0;
    if span.is_none() {
        for chunk in bytes.chunks_exact(CHUNK) {
            if !chunk.iter().fold(true, |all, &b| all & table[usize::from(b)]) {
                break;
            }
            at += CHUNK;
        }
    }
    bytes.get(at..)?.iter().position(rejected).map(|i| at + i)
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

    /// Whether `pattern` has a fast path and it matches `haystack`.
    fn matches(pattern: &str, haystack: &str) -> bool {
        detect(pattern).is_some_and(|f| f.is_match(haystack))
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
    fn white_space_complements_have_a_span() {
        let span = |pattern: &str| match detect(pattern) {
            Some(FastPath::Run(Run { members: Members::Set { span, .. }, .. })) => span.map(|s| (s.lo, s.hi)),
            other => panic!("{pattern}: {other:?}"),
        };
        // DEL and the controls from 0x0e are no white space.
        assert_eq!(span(r"^\S*$"), Some((b'!', 0x7f)));
        assert_eq!(span(r"^[ \r\n\t\S]+$"), Some((b'\r', 0x7f)));
        assert_eq!(span(r"^[!-~]+$"), Some((b'!', b'~')));
        assert_eq!(span(r"^[^\x00]+$"), Some((1, 0x7f)));
        assert_eq!(span(r"^[a-z]+$"), None);
        // Whole-haystack runs also get the shortcut; others do not.
        let shortcut = |pattern: &str| detect(pattern).map_or(Shortcut::None, |f| f.shortcut());
        let run = shortcut(r"^\S{2,9}$");
        assert!(matches!(run, Shortcut::Span(_)), "{run:?}");
        assert_eq!(run.decide(b"ab"), Some(true));
        assert_eq!(run.decide(b"a"), Some(false));
        assert_eq!(run.decide(b"abcdefghij"), Some(false));
        assert_eq!(run.decide(b"a b"), None);
        assert_eq!(run.decide("aé".as_bytes()), None);
        assert!(matches!(shortcut(r"\S+"), Shortcut::None));
        assert!(matches!(shortcut(r"^\S+"), Shortcut::None));
    }

    #[test]
    fn short_literals_at_the_start_are_decided_by_the_shortcut() {
        let shortcut = |pattern: &str| detect(pattern).map_or(Shortcut::None, |f| f.shortcut());
        let prefix = shortcut("^x-");
        assert!(matches!(prefix, Shortcut::Literal(_)), "{prefix:?}");
        assert_eq!(prefix.decide(b"x-foo"), Some(true));
        assert_eq!(prefix.decide(b"x-"), Some(true));
        assert_eq!(prefix.decide(b"x"), Some(false));
        assert_eq!(prefix.decide(b"y-foo"), Some(false));
        assert_eq!(prefix.decide(b""), Some(false));
        let whole = shortcut("^(default)$");
        assert!(matches!(whole, Shortcut::Literal(_)), "{whole:?}");
        assert_eq!(whole.decide(b"default"), Some(true));
        assert_eq!(whole.decide(b"defaults"), Some(false));
        assert_eq!(whole.decide(b"defaul"), Some(false));
        // Eight bytes fit; nine, or a literal elsewhere, go to the engine.
        assert_eq!(shortcut("^abcdefgh").decide(b"abcdefghi"), Some(true));
        assert!(matches!(shortcut("^abcdefghi"), Shortcut::None));
        assert!(matches!(shortcut("x-$"), Shortcut::None));
        assert!(matches!(shortcut("x-"), Shortcut::None));
        // A multi-byte character is compared byte by byte.
        assert_eq!(shortcut("^é$").decide("é".as_bytes()), Some(true));
        assert_eq!(shortcut("^é$").decide("e".as_bytes()), Some(false));
    }

    proptest::proptest! {
        /// The word test agrees with testing each byte.
        #[test]
        fn span_holds_exactly_when_every_byte_is_inside(word: [u8; 8], lo in 0u8..=0x21, hi in 0x7eu8..=0x7f) {
            let span = ByteSpan { lo, hi };
            let each = word.iter().all(|b| (lo..=hi).contains(b));
            proptest::prop_assert_eq!(span.holds(u64::from_le_bytes(word)), each);
        }

        /// A class's ASCII table, filled from its ranges, holds exactly
        /// the ASCII characters the class does.
        #[test]
        fn ascii_tables_hold_the_class(bounds in proptest::collection::vec((0u32..0x90, 0u32..0x90), 0..5)) {
            let ranges = bounds.iter().filter_map(|&(a, b)| {
                Some(ClassUnicodeRange::new(char::from_u32(a.min(b))?, char::from_u32(a.max(b))?))
            });
            let class = ClassUnicode::new(ranges.chain([ClassUnicodeRange::new('\u{100}', '\u{200}')]));
            let Members::Set { bytes, .. } = Members::new(class.clone()) else {
                return Err(proptest::test_runner::TestCaseError::fail("not everything"));
            };
            for b in 0u8..0x80 {
                proptest::prop_assert_eq!(bytes[usize::from(b)], class_contains(&class, char::from(b)), "{}", b);
            }
            proptest::prop_assert!(bytes[0x80..].iter().all(|m| !m));
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
        // A quantified group of several terms is a repeated sequence piece,
        // after `^` only.
        assert!(matches!(detect("^(ab)+$"), Some(FastPath::Sequence(_))));
        assert!(matches!(detect("^(?:ab){2}$"), Some(FastPath::Sequence(_))));
        assert!(detect("(ab)+$").is_none());
        assert!(detect("(ab)+").is_none());
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
        // A run may be followed by pieces that can be empty when none of
        // them, nor the piece after them, can start with its characters.
        for pattern in [r"^a+b?c$", r"^a+b*$", r"^a+(bc)+$", r"^a+(bc)*d$"] {
            assert!(is_sequence(pattern), "{pattern}");
        }
        for pattern in
            [r"^[a-z]+[a-z0-9]$", r"^a*a$", r"^a+b?a$", r"^a+b?b$", r"[a-z]+-[0-9]+$", r"^a\bb$", r"^a+(ab)+$"]
        {
            assert!(!is_sequence(pattern), "{pattern}");
        }
        assert!(matches(r"^[a-z]+-[0-9]+$", "abc-12"));
        assert!(!matches(r"^[a-z]+-[0-9]+$", "abc-"));
        assert!(!matches(r"^[a-z]+-[0-9]+$", "-1"));
        assert!(!matches(r"^[a-z]+-[0-9]+$", "ab-1x"));
        assert!(matches(r"^[a-z]{1,2}-", "ab-x"));
        assert!(!matches(r"^[a-z]{1,2}-", "abc-"));
        assert!(matches(r"^é+a$", "ééa"));
        assert!(!matches(r"^é+a$", "éa\n"));
    }

    /// Checks each haystack against the detected sequence and the expected
    /// answer.
    fn check_sequence(pattern: &str, yes: &[&str], no: &[&str]) {
        let Some(path) = detect(pattern) else { panic!("{pattern}: no fast path") };
        assert!(matches!(path, FastPath::Sequence(_)), "{pattern}: {path:?}");
        for h in yes {
            assert!(path.is_match(h), "{pattern} should match {h:?}");
        }
        for h in no {
            assert!(!path.is_match(h), "{pattern} should not match {h:?}");
        }
    }

    #[test]
    fn repeated_groups_in_sequences() {
        check_sequence(
            "^(/[A-Za-z0-9._-]+)+$",
            &["/a", "/api/v1/users.json", "/a.b-c_d/x", "/../x"],
            &["", "/", "//a", "/a/", "a/b", "/a b", "/é", "/aé", "/a/é", "/a\n"],
        );
        check_sequence(
            r"^[^\s]+(\s[^\s]+)*$",
            &["a", "a b", "é ü", "a\tb c", "😀 x", "a\u{2003}b", "ab\u{a0}cd"],
            &["", " ", "a ", " a", "a  b", "a b ", "a\n", "a\u{2003}", "\u{2003}a"],
        );
        check_sequence(
            "^[a-z]+(-[a-z]+)*$",
            &["a", "foo-bar-baz", "a-b-c-d-e-f-g"],
            &["", "-", "a-", "-a", "a--b", "a-B", "é", "a-é", "a-b-"],
        );
        check_sequence(
            r"^\d+(\.\d+){0,3}$",
            &["1", "1.2", "1.2.3.4", "10.20.30.40"],
            &["1.2.3.4.5", "", ".", "1.", "1..2", "1.2.", "\u{661}", "1.\u{661}"],
        );
        // Boundary counts, and literal bodies.
        check_sequence("^(ab){2,3}$", &["abab", "ababab"], &["ab", "abababab", "aba", "ababa", ""]);
        check_sequence("^x(ab){2}", &["xabab", "xababab", "xababé"], &["xab", "xaba", "x"]);
        check_sequence("^(?:a-){1,2}$", &["a-", "a-a-"], &["", "a-a-a-", "a-a"]);
        // A repetition that ends a pattern without `$` needs only `min`
        // iterations, even when a later iteration fails after its first piece.
        check_sequence("^(a-b+)+", &["a-b", "a-ba-x", "a-bba-"], &["a-", "a-x", "b"]);
        check_sequence("^(a-b+)+$", &["a-b", "a-ba-bb"], &["a-ba-x", "a-ba-", "a-b-"]);
        check_sequence("^(ab)*c$", &["c", "abc", "ababc"], &["abac", "ab", "", "abab"]);
        check_sequence("^(é[a-z]{1,2})+ü$", &["éaü", "éabéaü"], &["éabcü", "ü", "éü", "éaéü"]);
    }

    #[test]
    fn runs_in_sequences_count_characters() {
        check_sequence(r"^[a-zé]{1,2}0$", &["éa0", "a0", "é0", "éé0"], &["aéa0", "0", "ééa0", "é"]);
        check_sequence(r"^[a-z]{2}é", &["abé", "abéc"], &["aé", "abcé", "a"]);
        check_sequence(r"^.{2}-$", &["😀é-", "ab-"], &["a-", "abc-", "a\n-"]);
        check_sequence(r"^[^]{2}-[^]*$", &["😀é-", "ab-x", "a--"], &["-", "a-", "abc-"]);
        check_sequence(r"^\S+ \S{3}$", &["😀é abc", "a a😀b"], &["a ab", "a abcd", " abc"]);
    }

    #[test]
    fn repeated_groups_that_greedy_matching_cannot_decide_take_no_fast_path() {
        for pattern in [
            "^(a+)+$",
            "^(ab|a)+$",
            "^([a-z]+[0-9]*)+$",
            "^((ab)+c)+$",
            "^(a*b)+$",
            "^(ab)+a$",
            "^a+(ab)*$",
            "^(a-[a-z]+)+[a-z]$",
            "^(ab)?(ac)?$",
            "^(a\\bc)+$",
            "^(?:)+x$",
            "^(a-b*)+b$",
        ] {
            assert!(!matches!(detect(pattern), Some(FastPath::Sequence(_))), "{pattern}");
        }
        // At most `MAX_PIECES` pieces, the body's included.
        assert!(matches!(detect(&format!("^x({})+$", "a\\d".repeat(7))), Some(FastPath::Sequence(_))));
        assert!(detect(&format!("^({})+$", "a\\d".repeat(8))).is_none());
    }
}
