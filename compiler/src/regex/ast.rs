//! The abstract syntax tree of an ECMA-262 (unicode mode) pattern.
//!
//! The tree is produced by [`super::parse`] and consumed by
//! [`super::lower`] and [`super::fast`]. Every node carries the byte span of
//! the pattern text it came from, so later stages can report errors at the
//! right offset.
//!
//! Invariants:
//! * Literals are code points, not `char`s: `\uD800` is a valid pattern, and
//!   a lone surrogate must survive until lowering turns it into a class that
//!   can never match UTF-8 text.
//! * Class items are ranges of code points (`start <= end`, checked by the
//!   parser) or predefined sets (`\d`, `\p{..}`, ...); ranges never involve a
//!   set.
//! * Backreferences are validated by the parser (the group exists), so
//!   [`Ast::group_index`] succeeds for every backreference in the tree.
//! * The depth of the tree is bounded by the parser's nesting limit times a
//!   small constant, so the recursive passes over it (lowering, analysis) have
//!   bounded stack use. Dropping a tree never recurses regardless of depth:
//!   [`Node`]'s `Drop` moves children onto a heap stack first, so even a
//!   tree parsed without a nesting limit cannot overflow the stack.
//!   ([`super::check_syntax`], which applies no limit, builds no tree.)

use std::collections::HashMap;

/// A half-open byte range `start..end` of the pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// First byte of the construct.
    pub start: usize,
    /// One past the last byte of the construct.
    pub end: usize,
}

/// A parsed pattern.
#[derive(Debug)]
pub struct Ast {
    /// The pattern's tree.
    pub root: Node,
    /// Number of capturing groups (named or not).
    pub capture_count: u32,
    /// Capture group names with their 1-based group index.
    pub group_names: HashMap<String, u32>,
}

impl Ast {
    /// The 1-based group index a backreference refers to.
    pub fn group_index(&self, group: &GroupRef) -> Option<u32> {
        group_index(group, self.capture_count, &self.group_names)
    }
}

/// The 1-based index of `group` among `capture_count` groups named as
/// `group_names` says, if it exists.
pub(super) fn group_index(group: &GroupRef, capture_count: u32, group_names: &HashMap<String, u32>) -> Option<u32> {
    match group {
        GroupRef::Number(n) => (*n >= 1 && *n <= capture_count).then_some(*n),
        GroupRef::Name(name) => group_names.get(name).copied(),
    }
}

/// One node of the tree with the span it was parsed from.
#[derive(Debug)]
pub struct Node {
    /// What the node is.
    pub kind: NodeKind,
    /// Where it is in the pattern.
    pub span: Span,
}

/// The kinds of node.
#[derive(Debug)]
pub enum NodeKind {
    /// Matches the empty string (an empty alternative or group).
    Empty,
    /// One code point; a lone surrogate never matches.
    Literal(u32),
    /// `.`: any code point except the line terminators LF, CR, U+2028, U+2029.
    Dot,
    /// A bracketed class, or a class escape such as `\d` outside brackets.
    Class(Class),
    /// A zero-width assertion.
    Assertion(Assertion),
    /// `(...)`, `(?<name>...)` or `(?:...)`.
    Group(Group),
    /// `(?=...)`, `(?!...)`, `(?<=...)` or `(?<!...)`.
    LookAround(LookAround),
    /// `\N` or `\k<name>`.
    Backref(GroupRef),
    /// A quantified atom.
    Repeat(Repeat),
    /// Nodes matched one after the other (at least two).
    Concat(Vec<Node>),
    /// Alternatives tried left to right (at least two).
    Alternation(Vec<Node>),
}

/// The zero-width assertions that are not lookarounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Assertion {
    /// `^`: start of input (there is no multiline flag).
    Start,
    /// `$`: end of input (never before a trailing newline).
    End,
    /// `\b`: ASCII word boundary.
    WordBoundary,
    /// `\B`: not an ASCII word boundary.
    NotWordBoundary,
}

/// A group.
#[derive(Debug)]
pub struct Group {
    /// The 1-based capture index, `None` for `(?:...)`.
    pub capture: Option<u32>,
    /// The grouped expression.
    pub sub: Box<Node>,
}

/// A lookahead or lookbehind.
#[derive(Debug)]
pub struct LookAround {
    /// `true` for lookbehind (`(?<=`, `(?<!`).
    pub behind: bool,
    /// `true` for the negative forms (`(?!`, `(?<!`).
    pub negated: bool,
    /// The asserted expression.
    pub sub: Box<Node>,
}

/// The target of a backreference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupRef {
    /// `\N`.
    Number(u32),
    /// `\k<name>`.
    Name(String),
}

/// A quantifier applied to an atom.
#[derive(Debug)]
pub struct Repeat {
    /// Minimum count.
    pub min: u32,
    /// Maximum count, `None` for unbounded.
    pub max: Option<u32>,
    /// `false` for the lazy forms (`*?`, `{n,m}?`, ...).
    pub greedy: bool,
    /// The quantified atom.
    pub sub: Box<Node>,
}

/// A character class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    /// `[^...]`.
    pub negated: bool,
    /// The members; their union is the class before negation.
    pub items: Vec<ClassItem>,
}

/// One member of a class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClassItem {
    /// An inclusive range of code points (a single character is `c..=c`).
    Range(u32, u32),
    /// A predefined set, possibly complemented (`\D`, `\P{..}`).
    Set {
        /// Which set.
        set: ClassSet,
        /// Complemented (upper-case escape).
        negated: bool,
    },
}

/// The predefined sets of class escapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassSet {
    /// `\d`: `[0-9]`.
    Digit,
    /// `\w`: `[A-Za-z0-9_]`.
    Word,
    /// `\s`: ECMA white space and line terminators.
    Space,
    /// `\p{..}`: a Unicode property validated against the ECMA list.
    Property(super::property::Property),
}

impl Node {
    /// A node with no children.
    pub fn leaf(kind: NodeKind, span: Span) -> Node {
        Node { kind, span }
    }

    /// The direct children of this node.
    pub fn children(&self) -> &[Node] {
        match &self.kind {
            NodeKind::Group(Group { sub, .. })
            | NodeKind::LookAround(LookAround { sub, .. })
            | NodeKind::Repeat(Repeat { sub, .. }) => std::slice::from_ref(&**sub),
            NodeKind::Concat(nodes) | NodeKind::Alternation(nodes) => nodes,
            NodeKind::Empty
            | NodeKind::Literal(_)
            | NodeKind::Dot
            | NodeKind::Class(_)
            | NodeKind::Assertion(_)
            | NodeKind::Backref(_) => &[],
        }
    }

    /// Moves the children of this node (if any) onto `out`, leaving empty
    /// nodes in their place.
    fn take_children(&mut self, out: &mut Vec<Node>) {
        let empty = |span| Node::leaf(NodeKind::Empty, span);
        match &mut self.kind {
            NodeKind::Group(Group { sub, .. })
            | NodeKind::LookAround(LookAround { sub, .. })
            | NodeKind::Repeat(Repeat { sub, .. }) => {
                let span = sub.span;
                out.push(std::mem::replace(&mut **sub, empty(span)));
            }
            NodeKind::Concat(nodes) | NodeKind::Alternation(nodes) => out.append(nodes),
            NodeKind::Empty
            | NodeKind::Literal(_)
            | NodeKind::Dot
            | NodeKind::Class(_)
            | NodeKind::Assertion(_)
            | NodeKind::Backref(_) => {}
        }
    }

    /// Whether some node in this tree satisfies `predicate` (iterative).
    pub fn any(&self, mut predicate: impl FnMut(&Node) -> bool) -> bool {
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            if predicate(node) {
                return true;
            }
            stack.extend(node.children());
        }
        false
    }

    /// Whether the tree needs the backtracking engine (lookaround or
    /// backreferences).
    pub fn needs_backtracking(&self) -> bool {
        self.any(|node| matches!(node.kind, NodeKind::LookAround(_) | NodeKind::Backref(_)))
    }

    /// Whether the tree contains `\B`, which can match the empty string
    /// inside a multi-byte character (between two non-word bytes).
    pub fn has_not_word_boundary(&self) -> bool {
        self.any(|node| matches!(node.kind, NodeKind::Assertion(Assertion::NotWordBoundary)))
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        if self.children().iter().all(|child| child.children().is_empty()) {
            return;
        }
        let mut stack = Vec::new();
        self.take_children(&mut stack);
        while let Some(mut node) = stack.pop() {
            node.take_children(&mut stack);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span() -> Span {
        Span { start: 0, end: 0 }
    }

    #[test]
    fn dropping_a_very_deep_tree_does_not_overflow_the_stack() {
        let mut node = Node::leaf(NodeKind::Literal(u32::from('a')), span());
        for _ in 0..1_000_000 {
            node = Node::leaf(NodeKind::Group(Group { capture: None, sub: Box::new(node) }), span());
        }
        assert!(!node.needs_backtracking());
        drop(node);
    }

    #[test]
    fn group_index_resolves_numbers_and_names() {
        let ast = Ast {
            root: Node::leaf(NodeKind::Empty, span()),
            capture_count: 2,
            group_names: HashMap::from([("year".to_string(), 2)]),
        };
        assert_eq!(ast.group_index(&GroupRef::Number(1)), Some(1));
        assert_eq!(ast.group_index(&GroupRef::Number(3)), None);
        assert_eq!(ast.group_index(&GroupRef::Number(0)), None);
        assert_eq!(ast.group_index(&GroupRef::Name("year".into())), Some(2));
        assert_eq!(ast.group_index(&GroupRef::Name("month".into())), None);
    }
}
