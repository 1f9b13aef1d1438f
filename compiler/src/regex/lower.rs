//! Lowering of the [`Ast`] to the two engines' inputs, with ECMA-262
//! semantics made explicit.
//!
//! * [`to_hir`] builds a `regex-syntax` [`Hir`] directly for the linear
//!   engine. Capture groups are dropped (only `is_match` is needed, and the
//!   set of strings a pattern matches does not depend on captures or on
//!   greediness), which keeps the compiled NFA small.
//! * [`to_backtracking_syntax`] writes fancy-regex syntax for the patterns
//!   that keep lookaround or backreferences. The text is generated from the
//!   tree, never copied from the schema: every literal and class is written
//!   as `\x{..}` escapes and ranges, anchors as `\A` and `\z`, and `\b` as
//!   explicit ASCII lookarounds, so no Rust-syntax meaning can leak in.
//!
//! Both share [`node_class`], so a class means the same thing in both
//! engines: `\d` and `\w` are ASCII, `\s` is ECMA's white space and line
//! terminators, `.` excludes LF, CR, U+2028 and U+2029, negations complement
//! over all Unicode scalar values, and surrogate code points (which UTF-8
//! text cannot contain) are dropped from every set. A lone surrogate literal
//! therefore lowers to the empty class, which never matches.
//!
//! ECMA semantics the backtracking translation cannot express, documented
//! rather than hidden:
//! * ECMA resets the captures inside a quantified group at the start of each
//!   iteration; fancy-regex keeps the previous iteration's value. They differ
//!   only for a backreference to a group that the last iteration skipped,
//!   e.g. `^(?:(a)|b)+\1$` on `"ab"` (ECMA: match, here: no match).
//! * ECMA evaluates lookbehind right to left, which only matters for
//!   backreferences inside lookbehinds.
//!
//! Recursion here is bounded by the tree depth, which the parser's nesting
//! limit bounds (see [`super::RegexLimits::max_nesting`]).

use std::fmt::Write as _;

use regex_syntax::hir::{self, ClassUnicode, ClassUnicodeRange, Hir, Look};

use super::ast::{Assertion, Ast, Class, ClassItem, ClassSet, Node, NodeKind, Span};
use super::{RegexError, RegexErrorKind};

/// Whether `class` contains `c` (binary search over its sorted ranges).
pub fn class_contains(class: &ClassUnicode, c: char) -> bool {
    class
        .ranges()
        .binary_search_by(|range| {
            if range.end() < c {
                std::cmp::Ordering::Less
            } else if range.start() > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// The code points matched by a node that matches exactly one code point
/// (a literal, `.` or a class); `None` for other nodes.
pub fn node_class(node: &Node) -> Result<Option<ClassUnicode>, RegexError> {
    Ok(Some(match &node.kind {
        NodeKind::Literal(code) => code_points(*code, *code),
        NodeKind::Dot => dot_class(),
        NodeKind::Class(class) => class_set(class, node.span)?,
        _ => return Ok(None),
    }))
}

/// ECMA `.`: everything but the line terminators.
pub fn dot_class() -> ClassUnicode {
    complement(&ClassUnicode::new(
        [('\n', '\n'), ('\r', '\r'), ('\u{2028}', '\u{2029}')].map(|(a, b)| ClassUnicodeRange::new(a, b)),
    ))
}

/// The scalar values in `low..=high` (surrogates are not scalar values, so
/// a range that holds only surrogates is empty).
fn code_points(low: u32, high: u32) -> ClassUnicode {
    let start = if (0xD800..=0xDFFF).contains(&low) { 0xE000 } else { low };
    let end = if (0xD800..=0xDFFF).contains(&high) { 0xD7FF } else { high };
    match (char::from_u32(start), char::from_u32(end)) {
        (Some(start), Some(end)) if start <= end => ClassUnicode::new([ClassUnicodeRange::new(start, end)]),
        _ => ClassUnicode::empty(),
    }
}

/// The scalar values not in `class`.
///
/// `ClassUnicode::negate` is not used: it computes the gaps between ranges
/// by stepping over the surrogate block, so for a class holding both
/// U+D7FF and U+E000 in separate ranges (as the Unicode tables can) it
/// produces the bogus range U+D7FF..=U+E000. Here gaps are computed on code
/// point numbers, and gaps made only of surrogates vanish.
pub fn complement(class: &ClassUnicode) -> ClassUnicode {
    let mut gaps = ClassUnicode::empty();
    let mut next: u32 = 0;
    for range in class.ranges() {
        let (start, end) = (u32::from(range.start()), u32::from(range.end()));
        if start > next {
            gaps.union(&code_points(next, start - 1));
        }
        next = next.max(end.saturating_add(1));
    }
    gaps.union(&code_points(next, 0x10FFFF));
    gaps
}

fn class_set(class: &Class, span: Span) -> Result<ClassUnicode, RegexError> {
    let mut set = ClassUnicode::empty();
    for item in &class.items {
        match item {
            ClassItem::Range(low, high) => set.union(&code_points(*low, *high)),
            ClassItem::Set { set: predefined, negated } => {
                let members = predefined_set(*predefined, span)?;
                set.union(&if *negated { complement(&members) } else { members });
            }
        }
    }
    Ok(if class.negated { complement(&set) } else { set })
}

fn predefined_set(set: ClassSet, span: Span) -> Result<ClassUnicode, RegexError> {
    let ranges: &[(char, char)] = match set {
        ClassSet::Digit => &[('0', '9')],
        ClassSet::Word => &[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')],
        ClassSet::Space => &[
            ('\t', '\r'),
            (' ', ' '),
            ('\u{A0}', '\u{A0}'),
            ('\u{1680}', '\u{1680}'),
            ('\u{2000}', '\u{200A}'),
            ('\u{2028}', '\u{2029}'),
            ('\u{202F}', '\u{202F}'),
            ('\u{205F}', '\u{205F}'),
            ('\u{3000}', '\u{3000}'),
            ('\u{FEFF}', '\u{FEFF}'),
        ],
        ClassSet::Property(property) => {
            return property.class().ok_or_else(|| {
                RegexError::new(
                    RegexErrorKind::Unsupported,
                    span.start,
                    format!("Unicode property {property:?} is not available in this build"),
                )
            });
        }
    };
    Ok(ClassUnicode::new(ranges.iter().map(|&(a, b)| ClassUnicodeRange::new(a, b))))
}

/// Lowers a tree without lookaround or backreferences to a [`Hir`].
pub fn to_hir(ast: &Ast) -> Result<Hir, RegexError> {
    node_hir(&ast.root)
}

fn node_hir(node: &Node) -> Result<Hir, RegexError> {
    if let Some(class) = node_class(node)? {
        return Ok(Hir::class(hir::Class::Unicode(class)));
    }
    Ok(match &node.kind {
        NodeKind::Empty => Hir::empty(),
        NodeKind::Assertion(assertion) => Hir::look(match assertion {
            Assertion::Start => Look::Start,
            Assertion::End => Look::End,
            Assertion::WordBoundary => Look::WordAscii,
            Assertion::NotWordBoundary => Look::WordAsciiNegate,
        }),
        NodeKind::Group(group) => node_hir(&group.sub)?,
        NodeKind::Repeat(repeat) => Hir::repetition(hir::Repetition {
            min: repeat.min,
            max: repeat.max,
            greedy: repeat.greedy,
            sub: Box::new(node_hir(&repeat.sub)?),
        }),
        NodeKind::Concat(nodes) => {
            // A run of literal characters is one literal (as `Hir::concat`
            // would merge them, without a class made for each first). A
            // surrogate matches nothing: it goes through `node_class`.
            let mut parts = Vec::with_capacity(nodes.len());
            let mut text = String::new();
            for node in nodes {
                if let NodeKind::Literal(c) = node.kind {
                    if let Some(c) = char::from_u32(c) {
                        text.push(c);
                        continue;
                    }
                }
                if !text.is_empty() {
                    parts.push(Hir::literal(std::mem::take(&mut text).into_bytes()));
                }
                parts.push(node_hir(node)?);
            }
            if !text.is_empty() {
                parts.push(Hir::literal(text.into_bytes()));
            }
            Hir::concat(parts)
        }
        NodeKind::Alternation(nodes) => Hir::alternation(nodes.iter().map(node_hir).collect::<Result<_, _>>()?),
        NodeKind::LookAround(_) | NodeKind::Backref(_) => {
            return Err(RegexError::new(
                RegexErrorKind::Unsupported,
                node.span.start,
                "lookaround and backreferences need the backtracking engine".into(),
            ));
        }
        NodeKind::Literal(_) | NodeKind::Dot | NodeKind::Class(_) => Hir::fail(),
    })
}

/// ECMA `\b` over ASCII word characters, spelled out so fancy-regex's own
/// (Unicode) word boundary never applies.
const WORD_BOUNDARY: &str = r"(?:(?<=[0-9A-Z_a-z])(?![0-9A-Z_a-z])|(?<![0-9A-Z_a-z])(?=[0-9A-Z_a-z]))";
/// ECMA `\B`.
const NOT_WORD_BOUNDARY: &str = r"(?:(?<=[0-9A-Z_a-z])(?=[0-9A-Z_a-z])|(?<![0-9A-Z_a-z])(?![0-9A-Z_a-z]))";
/// A class that matches nothing.
const NEVER: &str = r"[^\x{0}-\x{10FFFF}]";

/// Deepest group nesting fancy-regex's parser accepts in the generated text
/// (its own limit is 64; the margin covers the groups one node may expand
/// to, such as the lookarounds of `\b`).
pub const BACKTRACKING_MAX_DEPTH: usize = 60;

/// Writes fancy-regex syntax for the tree. Fails with
/// [`RegexErrorKind::ProgramTooBig`] once the text exceeds `max_len` bytes,
/// and with [`RegexErrorKind::NestingTooDeep`] if the generated groups nest
/// deeper than [`BACKTRACKING_MAX_DEPTH`].
pub fn to_backtracking_syntax(ast: &Ast, max_len: usize) -> Result<String, RegexError> {
    let captures = ast.root.any(|node| matches!(node.kind, NodeKind::Backref(_)));
    let mut writer = Writer { ast, max_len, captures, out: String::new() };
    writer.body(&ast.root, 0)?;
    Ok(writer.out)
}

/// Writes fancy-regex syntax; `depth` is the group nesting of the generated
/// text at the node, counting a quantifier as one more level (as
/// fancy-regex's parser does).
struct Writer<'a> {
    ast: &'a Ast,
    max_len: usize,
    /// Whether capture groups are written as such: only a backreference
    /// needs them (fancy-regex builds a non-capturing group for less).
    captures: bool,
    out: String,
}

impl Writer<'_> {
    /// Writes `node` where an unparenthesized alternation is fine (a whole
    /// group body).
    fn body(&mut self, node: &Node, depth: usize) -> Result<(), RegexError> {
        match &node.kind {
            NodeKind::Alternation(nodes) => {
                for (i, sub) in nodes.iter().enumerate() {
                    if i > 0 {
                        self.out.push('|');
                    }
                    self.body(sub, depth)?;
                }
                self.check(node)
            }
            _ => self.term(node, depth),
        }
    }

    /// Writes `node` so that it can be concatenated with others.
    fn term(&mut self, node: &Node, depth: usize) -> Result<(), RegexError> {
        if let Some(class) = node_class(node)? {
            write_class(&class, &mut self.out);
            return self.check(node);
        }
        match &node.kind {
            NodeKind::Empty => {}
            NodeKind::Assertion(assertion) => self.out.push_str(match assertion {
                Assertion::Start => r"\A",
                Assertion::End => r"\z",
                Assertion::WordBoundary => WORD_BOUNDARY,
                Assertion::NotWordBoundary => NOT_WORD_BOUNDARY,
            }),
            NodeKind::Group(group) => {
                self.out.push_str(if group.capture.is_some() && self.captures { "(" } else { "(?:" });
                self.body(&group.sub, self.deeper(node, depth)?)?;
                self.out.push(')');
            }
            NodeKind::LookAround(look) => {
                self.out.push_str(match (look.behind, look.negated) {
                    (false, false) => "(?=",
                    (false, true) => "(?!",
                    (true, false) => "(?<=",
                    (true, true) => "(?<!",
                });
                self.body(&look.sub, self.deeper(node, depth)?)?;
                self.out.push(')');
            }
            NodeKind::Backref(group) => {
                // ECMA: a group that has not participated matches the empty
                // string, hence the conditional.
                let index = self.ast.group_index(group).ok_or_else(|| {
                    RegexError::new(RegexErrorKind::Syntax, node.span.start, "backreference to a missing group".into())
                })?;
                let _ = write!(self.out, r"(?({index})\{index})");
            }
            NodeKind::Repeat(repeat) if is_zero_width(&repeat.sub) => {
                // fancy-regex cannot repeat an empty or zero-width
                // expression. ECMA stops iterating once an iteration past the
                // minimum matches empty, so such a repetition is its atom
                // once (min >= 1) or nothing (min = 0); the never-taken
                // branch keeps the atom's capture groups numbered.
                self.out.push_str(if repeat.min == 0 { "(?:|" } else { "(?:" });
                if repeat.min == 0 {
                    self.out.push_str(NEVER);
                }
                self.term(&repeat.sub, self.deeper(node, depth)?)?;
                self.out.push(')');
            }
            NodeKind::Repeat(repeat) => {
                let parenthesized = matches!(repeat.sub.kind, NodeKind::Group(_) | NodeKind::Backref(_))
                    || node_class(&repeat.sub)?.is_some();
                let inner = self.deeper(node, depth)?;
                if parenthesized {
                    self.term(&repeat.sub, inner)?;
                } else {
                    self.out.push_str("(?:");
                    self.body(&repeat.sub, inner)?;
                    self.out.push(')');
                }
                let _ = match repeat.max {
                    Some(max) => write!(self.out, "{{{},{max}}}", repeat.min),
                    None => write!(self.out, "{{{},}}", repeat.min),
                };
                if !repeat.greedy {
                    self.out.push('?');
                }
            }
            NodeKind::Concat(nodes) => {
                for sub in nodes {
                    self.term(sub, depth)?;
                }
            }
            NodeKind::Alternation(_) => {
                self.out.push_str("(?:");
                self.body(node, self.deeper(node, depth)?)?;
                self.out.push(')');
            }
            NodeKind::Literal(_) | NodeKind::Dot | NodeKind::Class(_) => self.out.push_str(NEVER),
        }
        self.check(node)
    }

    /// The depth inside `node`, which opens a group or quantifier at `depth`.
    fn deeper(&self, node: &Node, depth: usize) -> Result<usize, RegexError> {
        let inner = depth.saturating_add(1);
        if inner > BACKTRACKING_MAX_DEPTH {
            return Err(RegexError::new(
                RegexErrorKind::NestingTooDeep { limit: BACKTRACKING_MAX_DEPTH, actual: inner },
                node.span.start,
                format!(
                    "groups and quantifiers nest {inner} deep for the backtracking engine, over its limit of \
                     {BACKTRACKING_MAX_DEPTH}"
                ),
            ));
        }
        Ok(inner)
    }

    /// Fails once the generated text is over the size limit.
    fn check(&self, node: &Node) -> Result<(), RegexError> {
        if self.out.len() > self.max_len {
            return Err(RegexError::new(
                RegexErrorKind::ProgramTooBig { limit: self.max_len },
                node.span.start,
                format!("the generated backtracking program exceeds the size limit of {} bytes", self.max_len),
            ));
        }
        Ok(())
    }
}

/// Whether `node` can only match the empty string (consumes nothing).
fn is_zero_width(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Empty | NodeKind::Assertion(_) | NodeKind::LookAround(_) => true,
        NodeKind::Literal(_) | NodeKind::Dot | NodeKind::Class(_) | NodeKind::Backref(_) => false,
        NodeKind::Group(_) | NodeKind::Repeat(_) | NodeKind::Concat(_) | NodeKind::Alternation(_) => {
            node.children().iter().all(is_zero_width)
        }
    }
}

/// Writes `class` as a bracketed list of escaped ranges.
fn write_class(class: &ClassUnicode, out: &mut String) {
    if class.ranges().is_empty() {
        out.push_str(NEVER);
        return;
    }
    if let [range] = class.ranges() {
        if range.start() == range.end() {
            write_char(range.start(), out);
            return;
        }
    }
    out.push('[');
    for range in class.ranges() {
        write_char(range.start(), out);
        if range.end() != range.start() {
            out.push('-');
            write_char(range.end(), out);
        }
    }
    out.push(']');
}

/// Writes one character: ASCII letters and digits as themselves, anything
/// else as `\x{..}`.
fn write_char(c: char, out: &mut String) {
    if c.is_ascii_alphanumeric() {
        out.push(c);
    } else {
        let _ = write!(out, r"\x{{{:X}}}", u32::from(c));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regex::parse::{ParseLimits, parse};

    fn ast(pattern: &str) -> Ast {
        match parse(pattern, ParseLimits::NONE) {
            Ok(ast) => ast,
            Err(e) => panic!("{pattern}: {e}"),
        }
    }

    fn generated(pattern: &str) -> String {
        match to_backtracking_syntax(&ast(pattern), usize::MAX) {
            Ok(text) => text,
            Err(e) => panic!("{pattern}: {e}"),
        }
    }

    #[test]
    fn generated_syntax_escapes_every_non_alphanumeric() {
        assert_eq!(generated(r"a.b\$"), r"a[\x{0}-\x{9}\x{B}-\x{C}\x{E}-\x{2027}\x{202A}-\x{10FFFF}]b\x{24}");
        assert_eq!(generated(r"^(?:x|y)$"), r"\A(?:x|y)\z");
        assert_eq!(generated(r"x|y(?:z|w)"), r"x|y(?:z|w)");
        assert_eq!(generated(r"(a)\1"), r"(a)(?(1)\1)");
        assert_eq!(generated(r"a{2,}?b*(?:cd)+\1?(e)"), r"a{2,}?b{0,}(?:cd){1,}(?(1)\1){0,1}(e)");
        assert_eq!(
            generated(r"(?:\b|())*(?:)+(?:(?=a))?"),
            format!("(?:|{NEVER}(?:{WORD_BOUNDARY}|(?:)))(?:(?:))(?:|{NEVER}(?:(?=a)))")
        );
        // Groups capture only for a backreference.
        assert_eq!(generated(r"(a)(?=b)"), r"(?:a)(?=b)");
        assert_eq!(generated(r"(a)(?=b)\1"), r"(a)(?=b)(?(1)\1)");
        assert_eq!(generated(r"(?<!a)(?=b)"), r"(?<!a)(?=b)");
        assert_eq!(generated(r"\uD800"), NEVER);
        assert_eq!(generated(r"[^\s\S]"), NEVER);
    }

    #[test]
    fn generated_syntax_respects_fancy_regex_nesting() {
        let nested = |depth: usize| format!("{}a{}", "(?=".repeat(depth), ")".repeat(depth));
        assert!(to_backtracking_syntax(&ast(&nested(BACKTRACKING_MAX_DEPTH)), usize::MAX).is_ok());
        let err =
            to_backtracking_syntax(&ast(&nested(BACKTRACKING_MAX_DEPTH + 1)), usize::MAX).map(|_| ()).unwrap_err();
        assert_eq!(err.kind(), &RegexErrorKind::NestingTooDeep { limit: BACKTRACKING_MAX_DEPTH, actual: 61 });
        assert_eq!(err.offset(), 180);
    }

    #[test]
    fn generated_syntax_respects_the_size_limit() {
        let err = to_backtracking_syntax(&ast(r"\p{L}"), 100).map(|_| ()).unwrap_err();
        assert_eq!(err.kind(), &RegexErrorKind::ProgramTooBig { limit: 100 });
    }

    #[test]
    fn classes_drop_surrogates() {
        let class = |p: &str| node_class(&ast(p).root).ok().flatten().unwrap_or_else(ClassUnicode::empty);
        let is_everything = |p: &str| complement(&class(p)).ranges().is_empty();
        assert!(is_everything(r"[^]"));
        assert!(class(r"[\uD800-\uDFFF]").ranges().is_empty());
        assert!(class_contains(&class(r"[\u0000-\uFFFF]"), '\u{FFFF}'));
        assert!(!class_contains(&class(r"[\u0000-\uFFFF]"), '\u{10000}'));
        assert!(is_everything(r"[^\uD800]"));
        assert!(is_everything(r"[\u0000-\u{10FFFF}]"));
        assert!(!is_everything(r"[^a]"));
    }

    #[test]
    fn complement_handles_ranges_split_at_the_surrogates() {
        let split = ClassUnicode::new([
            ClassUnicodeRange::new('\0', '\u{D7FF}'),
            ClassUnicodeRange::new('\u{E000}', '\u{10FFFF}'),
        ]);
        assert!(complement(&split).ranges().is_empty());
        let around = ClassUnicode::new([
            ClassUnicodeRange::new('a', '\u{D7FF}'),
            ClassUnicodeRange::new('\u{E000}', '\u{10FFFF}'),
        ]);
        assert_eq!(complement(&around), code_points(0, 0x60));
        assert_eq!(complement(&ClassUnicode::empty()), code_points(0, 0x10FFFF));
        assert_eq!(complement(&code_points(0, 0x10FFFF)), ClassUnicode::empty());
        assert!(!class_contains(&ast_class(r"[^\u0000-\uFFFF]"), '\u{D7FF}'));
        assert!(!class_contains(&ast_class(r"[^\u0000-\uFFFF]"), '\u{E000}'));
        assert!(class_contains(&ast_class(r"[^\u0000-\uFFFF]"), '\u{10000}'));
    }

    fn ast_class(pattern: &str) -> ClassUnicode {
        node_class(&ast(pattern).root).ok().flatten().unwrap_or_else(ClassUnicode::empty)
    }

    #[test]
    fn class_contains_uses_the_ranges() {
        let class = ClassUnicode::new([ClassUnicodeRange::new('b', 'd'), ClassUnicodeRange::new('x', 'x')]);
        for (c, expected) in [('a', false), ('b', true), ('d', true), ('e', false), ('x', true), ('y', false)] {
            assert_eq!(class_contains(&class, c), expected, "{c}");
        }
    }
}
