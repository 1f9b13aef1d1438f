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
    let mut class = ClassUnicode::new(
        [('\n', '\n'), ('\r', '\r'), ('\u{2028}', '\u{2029}')]
            .map(|(a, b)| ClassUnicodeRange::new(a, b)),
    );
    class.negate();
    class
}

/// The scalar values in `low..=high`, without surrogates.
fn code_points(low: u32, high: u32) -> ClassUnicode {
    let mut class = ClassUnicode::empty();
    for (start, end) in [(low, high.min(0xD7FF)), (low.max(0xE000), high)] {
        if let (Some(start), Some(end)) = (char::from_u32(start), char::from_u32(end)) {
            if start <= end {
                class.push(ClassUnicodeRange::new(start, end));
            }
        }
    }
    class
}

fn class_set(class: &Class, span: Span) -> Result<ClassUnicode, RegexError> {
    let mut set = ClassUnicode::empty();
    for item in &class.items {
        match item {
            ClassItem::Range(low, high) => set.union(&code_points(*low, *high)),
            ClassItem::Set {
                set: predefined,
                negated,
            } => {
                let mut members = predefined_set(*predefined, span)?;
                if *negated {
                    members.negate();
                }
                set.union(&members);
            }
        }
    }
    if class.negated {
        set.negate();
    }
    Ok(set)
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
    Ok(ClassUnicode::new(
        ranges.iter().map(|&(a, b)| ClassUnicodeRange::new(a, b)),
    ))
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
            Hir::concat(nodes.iter().map(node_hir).collect::<Result<_, _>>()?)
        }
        NodeKind::Alternation(nodes) => {
            Hir::alternation(nodes.iter().map(node_hir).collect::<Result<_, _>>()?)
        }
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
const WORD_BOUNDARY: &str =
    r"(?:(?<=[0-9A-Z_a-z])(?![0-9A-Z_a-z])|(?<![0-9A-Z_a-z])(?=[0-9A-Z_a-z]))";
/// ECMA `\B`.
const NOT_WORD_BOUNDARY: &str =
    r"(?:(?<=[0-9A-Z_a-z])(?=[0-9A-Z_a-z])|(?<![0-9A-Z_a-z])(?![0-9A-Z_a-z]))";
/// A class that matches nothing.
const NEVER: &str = r"[^\x{0}-\x{10FFFF}]";

/// Writes fancy-regex syntax for the tree. Fails with
/// [`RegexErrorKind::ProgramTooBig`] once the text exceeds `max_len` bytes.
pub fn to_backtracking_syntax(ast: &Ast, max_len: usize) -> Result<String, RegexError> {
    let mut out = String::new();
    write_node(ast, &ast.root, max_len, &mut out)?;
    Ok(out)
}

fn write_node(ast: &Ast, node: &Node, max_len: usize, out: &mut String) -> Result<(), RegexError> {
    if let Some(class) = node_class(node)? {
        write_class(&class, out);
    } else {
        match &node.kind {
            NodeKind::Empty => out.push_str("(?:)"),
            NodeKind::Assertion(assertion) => out.push_str(match assertion {
                Assertion::Start => r"\A",
                Assertion::End => r"\z",
                Assertion::WordBoundary => WORD_BOUNDARY,
                Assertion::NotWordBoundary => NOT_WORD_BOUNDARY,
            }),
            NodeKind::Group(group) => {
                out.push_str(if group.capture.is_some() { "(" } else { "(?:" });
                write_node(ast, &group.sub, max_len, out)?;
                out.push(')');
            }
            NodeKind::LookAround(look) => {
                out.push_str(match (look.behind, look.negated) {
                    (false, false) => "(?=",
                    (false, true) => "(?!",
                    (true, false) => "(?<=",
                    (true, true) => "(?<!",
                });
                write_node(ast, &look.sub, max_len, out)?;
                out.push(')');
            }
            NodeKind::Backref(group) => {
                // ECMA: a group that has not participated matches the empty
                // string, hence the conditional.
                let index = ast.group_index(group).ok_or_else(|| {
                    RegexError::new(
                        RegexErrorKind::Syntax,
                        node.span.start,
                        "backreference to a missing group".into(),
                    )
                })?;
                let _ = write!(out, r"(?({index})\{index})");
            }
            NodeKind::Repeat(repeat) => {
                out.push_str("(?:");
                write_node(ast, &repeat.sub, max_len, out)?;
                let _ = match repeat.max {
                    Some(max) => write!(out, "){{{},{max}}}", repeat.min),
                    None => write!(out, "){{{},}}", repeat.min),
                };
                if !repeat.greedy {
                    out.push('?');
                }
            }
            NodeKind::Concat(nodes) => {
                for sub in nodes {
                    write_node(ast, sub, max_len, out)?;
                }
            }
            NodeKind::Alternation(nodes) => {
                out.push_str("(?:");
                for (i, sub) in nodes.iter().enumerate() {
                    if i > 0 {
                        out.push('|');
                    }
                    write_node(ast, sub, max_len, out)?;
                }
                out.push(')');
            }
            NodeKind::Literal(_) | NodeKind::Dot | NodeKind::Class(_) => out.push_str(NEVER),
        }
    }
    if out.len() > max_len {
        return Err(RegexError::new(
            RegexErrorKind::ProgramTooBig { limit: max_len },
            node.span.start,
            format!("the generated backtracking program exceeds the size limit of {max_len} bytes"),
        ));
    }
    Ok(())
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
        assert_eq!(
            generated(r"a.b\$"),
            r"a[\x{0}-\x{9}\x{B}\x{C}\x{E}-\x{2027}\x{202A}-\x{10FFFF}]b\x{24}"
        );
        assert_eq!(generated(r"^(?:x|y)$"), r"\A(?:(?:x|y))\z");
        assert_eq!(generated(r"(a)\1"), r"(a)(?(1)\1)");
        assert_eq!(generated(r"a{2,}?b*"), r"(?:a){2,}?(?:b){0,}");
        assert_eq!(generated(r"(?<!a)(?=b)"), r"(?<!a)(?=b)");
        assert_eq!(generated(r"\uD800"), NEVER);
        assert_eq!(generated(r"[^\s\S]"), NEVER);
    }

    #[test]
    fn generated_syntax_respects_the_size_limit() {
        let err = to_backtracking_syntax(&ast(r"\p{L}"), 100)
            .map(|_| ())
            .unwrap_err();
        assert_eq!(err.kind(), &RegexErrorKind::ProgramTooBig { limit: 100 });
    }

    #[test]
    fn classes_drop_surrogates() {
        let class = |p: &str| {
            node_class(&ast(p).root)
                .ok()
                .flatten()
                .map(|c| c.ranges().to_vec())
        };
        let r = |a: char, b: char| ClassUnicodeRange::new(a, b);
        assert_eq!(class(r"[\uD800-\uDFFF]"), Some(vec![]));
        assert_eq!(
            class(r"[\u0000-\uFFFF]"),
            Some(vec![r('\0', '\u{D7FF}'), r('\u{E000}', '\u{FFFF}')])
        );
        assert_eq!(
            class(r"[^\uD800]"),
            Some(vec![r('\0', '\u{D7FF}'), r('\u{E000}', '\u{10FFFF}')])
        );
    }

    #[test]
    fn class_contains_uses_the_ranges() {
        let class = ClassUnicode::new([
            ClassUnicodeRange::new('b', 'd'),
            ClassUnicodeRange::new('x', 'x'),
        ]);
        for (c, expected) in [
            ('a', false),
            ('b', true),
            ('d', true),
            ('e', false),
            ('x', true),
            ('y', false),
        ] {
            assert_eq!(class_contains(&class, c), expected, "{c}");
        }
    }
}
