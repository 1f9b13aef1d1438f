//! Parser for ECMA-262 patterns in unicode mode (the `u` flag), the dialect
//! JSON Schema's `pattern`, `patternProperties` and `format: "regex"` use.
//!
//! The parser is iterative: groups are kept on an explicit heap stack of
//! [`Frame`]s, so a pattern of 100,000 `(` cannot overflow the call stack.
//! The nesting limit is checked when a group opens, and the product of
//! nested counted repetitions when a quantifier is applied, so both errors
//! point at the construct that crossed the limit.
//!
//! The grammar follows ECMA-262's `Pattern[+UnicodeMode, +NamedCaptureGroups]`
//! production, including its early errors: backreferences must name an
//! existing group, group names are unique, class ranges are ordered and never
//! involve a class escape, and `{n,m}` needs `n <= m`. Annex B's lenient
//! syntax does not apply in unicode mode, so lone `{`, `}` and `]`, identity
//! escapes of non-syntax characters and quantified assertions are errors.
//! Regular expression modifiers (`(?i:...)`) and duplicate group names in
//! different alternatives (both ES2025) are rejected.
//!
//! One parser serves two callers through the [`Term`] it makes of each
//! piece of the pattern: [`parse`] builds the syntax tree's [`Node`]s, and
//! [`check`] (for `format: "regex"`, run on instance strings) keeps only
//! each term's [`Shape`], which is all the early errors look at. Checking
//! so builds no tree: it allocates only for groups, group names and
//! backreferences, and reports exactly the errors parsing reports.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::OnceLock;

use regex_syntax::hir::ClassUnicode;

use super::ast::{
    Assertion, Ast, Class, ClassItem, ClassSet, Group, GroupRef, LookAround, Node, NodeKind, Repeat, Span, group_index,
};
use super::lower::class_contains;
use super::property::Property;
use super::{RegexError, RegexErrorKind};

/// The limits the parser enforces.
#[derive(Debug, Clone, Copy)]
pub struct ParseLimits {
    /// Deepest group nesting.
    pub max_nesting: usize,
    /// Largest product of nested repetition counts.
    pub max_repetition_product: u64,
}

impl ParseLimits {
    /// No limits: used to check syntax only.
    pub const NONE: ParseLimits = ParseLimits { max_nesting: usize::MAX, max_repetition_product: u64::MAX };
}

/// Parses `pattern` into an [`Ast`].
pub fn parse(pattern: &str, limits: ParseLimits) -> Result<Ast, RegexError> {
    let mut parser = Parser::new(pattern, limits);
    let root = parser.parse::<Node>()?;
    Ok(Ast { root, capture_count: parser.capture_count, group_names: parser.group_names })
}

/// Checks that `pattern` parses (with no limits), without building its
/// tree: `Ok` exactly when [`parse`] with [`ParseLimits::NONE`] is, with
/// the same error otherwise.
pub fn check(pattern: &str) -> Result<(), RegexError> {
    Parser::new(pattern, ParseLimits::NONE).parse::<Shape>().map(|_| ())
}

/// A syntax error at `offset`.
fn syntax_error(offset: usize, message: impl Into<String>) -> RegexError {
    RegexError::new(RegexErrorKind::Syntax, offset, message.into())
}

struct Parser<'p> {
    pattern: &'p str,
    /// Byte offset of the next character; always on a character boundary.
    pos: usize,
    limits: ParseLimits,
    capture_count: u32,
    group_names: HashMap<String, u32>,
    /// Every backreference, checked once all groups are known.
    backrefs: Vec<(GroupRef, Span)>,
}

/// What the parser makes of each term of the pattern (see the module
/// docs): a [`Node`] of the tree, or a [`Shape`].
trait Term: Sized {
    /// The terms of one alternative, or the alternatives of one group.
    type List: Default;
    /// Whether classes keep their items (a [`Shape`] needs none).
    const KEEPS_CLASS_ITEMS: bool;
    /// One atom or assertion.
    fn leaf(kind: NodeKind, span: Span) -> Self;
    fn push(list: &mut Self::List, term: Self);
    /// Takes back the term last pushed.
    fn pop(list: &mut Self::List) -> Option<Self>;
    /// The terms of `list` one after the other, parsed from `span`.
    fn sequence(list: Self::List, span: Span) -> Self;
    /// The alternatives of `list` (at least one), ending at `end`.
    fn alternation(list: Self::List, end: usize) -> Self;
    /// The group `opener` opened around `body`, parsed from `span`.
    fn group(opener: Option<Opener>, body: Self, span: Span) -> Self;
    /// This atom repeated, its quantifier ending at `end`.
    fn repeat(self, min: u32, max: Option<u32>, greedy: bool, end: usize) -> Self;
    /// What a quantifier after this term would make of it.
    fn shape(&self) -> Shape;
}

/// What the early errors need to know of a term: whether a quantifier may
/// follow it, and if not, why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// A literal, `.`, class, group or backreference: quantifiable.
    Atom,
    /// An atom already quantified.
    Repeat,
    /// An assertion or lookaround.
    Assertion,
    /// The empty string, a sequence or an alternation.
    Nothing,
}

impl Shape {
    /// The shape of a node of `kind`.
    fn of(kind: &NodeKind) -> Shape {
        match kind {
            NodeKind::Literal(_) | NodeKind::Dot | NodeKind::Class(_) | NodeKind::Group(_) | NodeKind::Backref(_) => {
                Shape::Atom
            }
            NodeKind::Repeat(_) => Shape::Repeat,
            NodeKind::Assertion(_) | NodeKind::LookAround(_) => Shape::Assertion,
            NodeKind::Empty | NodeKind::Concat(_) | NodeKind::Alternation(_) => Shape::Nothing,
        }
    }

    /// The error of a quantifier following a term of this shape, if any.
    fn quantifier_error(self) -> Option<&'static str> {
        match self {
            Shape::Atom => None,
            Shape::Repeat => Some("a quantifier cannot follow another quantifier"),
            Shape::Assertion => Some("assertions cannot be quantified"),
            Shape::Nothing => Some("quantifier has nothing to repeat"),
        }
    }
}

impl Term for Node {
    type List = Vec<Node>;
    const KEEPS_CLASS_ITEMS: bool = true;

    fn leaf(kind: NodeKind, span: Span) -> Node {
        Node::leaf(kind, span)
    }

    fn push(list: &mut Vec<Node>, term: Node) {
        list.push(term);
    }

    fn pop(list: &mut Vec<Node>) -> Option<Node> {
        list.pop()
    }

    fn sequence(mut list: Vec<Node>, span: Span) -> Node {
        match list.len() {
            0 => Node::leaf(NodeKind::Empty, span),
            1 => list.pop().unwrap_or_else(|| Node::leaf(NodeKind::Empty, span)),
            _ => Node::leaf(NodeKind::Concat(list), span),
        }
    }

    fn alternation(mut list: Vec<Node>, end: usize) -> Node {
        if list.len() == 1 {
            list.pop().unwrap_or_else(|| Node::leaf(NodeKind::Empty, Span { start: end, end }))
        } else {
            let start = list.first().map_or(end, |n| n.span.start);
            Node::leaf(NodeKind::Alternation(list), Span { start, end })
        }
    }

    fn group(opener: Option<Opener>, body: Node, span: Span) -> Node {
        let kind = match opener {
            Some(Opener::LookAround { behind, negated }) => {
                NodeKind::LookAround(LookAround { behind, negated, sub: Box::new(body) })
            }
            Some(Opener::Group(capture)) => NodeKind::Group(Group { capture, sub: Box::new(body) }),
            None => NodeKind::Group(Group { capture: None, sub: Box::new(body) }),
        };
        Node::leaf(kind, span)
    }

    fn repeat(self, min: u32, max: Option<u32>, greedy: bool, end: usize) -> Node {
        let span = Span { start: self.span.start, end };
        Node::leaf(NodeKind::Repeat(Repeat { min, max, greedy, sub: Box::new(self) }), span)
    }

    fn shape(&self) -> Shape {
        Shape::of(&self.kind)
    }
}

/// A list of [`Shape`]s: how many, and the last one pushed.
#[derive(Debug, Default)]
struct Shapes {
    len: usize,
    last: Option<Shape>,
}

impl Term for Shape {
    type List = Shapes;
    const KEEPS_CLASS_ITEMS: bool = false;

    fn leaf(kind: NodeKind, _: Span) -> Shape {
        Shape::of(&kind)
    }

    fn push(list: &mut Shapes, term: Shape) {
        list.len = list.len.saturating_add(1);
        list.last = Some(term);
    }

    fn pop(list: &mut Shapes) -> Option<Shape> {
        let last = list.last.take()?;
        list.len = list.len.saturating_sub(1);
        Some(last)
    }

    fn sequence(list: Shapes, _: Span) -> Shape {
        match (list.len, list.last) {
            (1, Some(only)) => only,
            _ => Shape::Nothing,
        }
    }

    fn alternation(list: Shapes, end: usize) -> Shape {
        Shape::sequence(list, Span { start: end, end })
    }

    fn group(opener: Option<Opener>, _: Shape, _: Span) -> Shape {
        match opener {
            Some(Opener::LookAround { .. }) => Shape::Assertion,
            Some(Opener::Group(_)) | None => Shape::Atom,
        }
    }

    fn repeat(self, _: u32, _: Option<u32>, _: bool, _: usize) -> Shape {
        Shape::Repeat
    }

    fn shape(&self) -> Shape {
        *self
    }
}

/// What a `(` opened.
enum Opener {
    Group(Option<u32>),
    LookAround { behind: bool, negated: bool },
}

/// An open group (or the whole pattern) being parsed.
struct Frame<T: Term> {
    /// `None` for the whole pattern.
    opener: Option<Opener>,
    /// Offset of the `(` (0 for the whole pattern).
    start: usize,
    /// Finished alternatives.
    alternatives: T::List,
    /// Terms of the current alternative.
    terms: T::List,
    /// Offset where the current alternative starts.
    alternative_start: usize,
    /// Repetition product inside the last term.
    last_product: u64,
    /// Largest repetition product inside any term of this frame.
    max_product: u64,
}

impl<T: Term> Frame<T> {
    fn new(opener: Option<Opener>, start: usize, body_start: usize) -> Frame<T> {
        Frame {
            opener,
            start,
            alternatives: T::List::default(),
            terms: T::List::default(),
            alternative_start: body_start,
            last_product: 1,
            max_product: 1,
        }
    }

    fn push_term(&mut self, term: T, product: u64) {
        T::push(&mut self.terms, term);
        self.last_product = product;
        self.max_product = self.max_product.max(product);
    }

    fn push_atom(&mut self, kind: NodeKind, span: Span) {
        self.push_term(T::leaf(kind, span), 1);
    }

    /// Ends the current alternative at `end` (a `|` or `)`).
    fn finish_alternative(&mut self, end: usize) {
        let span = Span { start: self.alternative_start, end };
        let alternative = T::sequence(std::mem::take(&mut self.terms), span);
        T::push(&mut self.alternatives, alternative);
        self.alternative_start = end.saturating_add(1);
    }

    /// The body of the frame, ending at `end`.
    fn finish(mut self, end: usize) -> (Option<Opener>, T, u64) {
        self.finish_alternative(end);
        let body = T::alternation(std::mem::take(&mut self.alternatives), end);
        (self.opener, body, self.max_product)
    }
}

/// A class atom: one code point or a predefined set.
enum ClassAtom {
    Char(u32),
    Set(ClassSet, bool),
}

impl<'p> Parser<'p> {
    fn new(pattern: &'p str, limits: ParseLimits) -> Parser<'p> {
        Parser { pattern, pos: 0, limits, capture_count: 0, group_names: HashMap::new(), backrefs: Vec::new() }
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// The character after the next one.
    fn peek_second(&self) -> Option<char> {
        self.rest().chars().nth(1)
    }

    fn rest(&self) -> &'p str {
        self.pattern.get(self.pos..).unwrap_or("")
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos = self.pos.saturating_add(c.len_utf8());
        Some(c)
    }

    fn eat(&mut self, expected: char) -> bool {
        let found = self.peek() == Some(expected);
        if found {
            self.bump();
        }
        found
    }

    fn span_from(&self, start: usize) -> Span {
        Span { start, end: self.pos }
    }

    /// The whole pattern's term, once every backreference is checked.
    fn parse<T: Term>(&mut self) -> Result<T, RegexError> {
        let mut top = Frame::<T>::new(None, 0, 0);
        let mut open: Vec<Frame<T>> = Vec::new();
        loop {
            let start = self.pos;
            let Some(c) = self.bump() else { break };
            let frame = open.last_mut().unwrap_or(&mut top);
            match c {
                '|' => frame.finish_alternative(start),
                '(' => {
                    let opener = self.parse_group_opener(start)?;
                    let depth = open.len().saturating_add(1);
                    if depth > self.limits.max_nesting {
                        return Err(RegexError::new(
                            RegexErrorKind::NestingTooDeep { limit: self.limits.max_nesting, actual: depth },
                            start,
                            format!("groups are nested {depth} deep, over the limit of {}", self.limits.max_nesting),
                        ));
                    }
                    open.push(Frame::new(Some(opener), start, self.pos));
                }
                ')' => {
                    let Some(closed) = open.pop() else {
                        return Err(syntax_error(start, "unmatched `)`"));
                    };
                    let group_start = closed.start;
                    let (opener, body, product) = closed.finish(start);
                    let group = T::group(opener, body, self.span_from(group_start));
                    let parent = open.last_mut().unwrap_or(&mut top);
                    parent.push_term(group, product);
                }
                '*' | '+' | '?' | '{' => self.apply_quantifier(frame, c, start)?,
                '}' | ']' => {
                    return Err(syntax_error(start, format!("lone `{c}` (escape it as `\\{c}`)")));
                }
                '^' => frame.push_atom(NodeKind::Assertion(Assertion::Start), self.span_from(start)),
                '$' => frame.push_atom(NodeKind::Assertion(Assertion::End), self.span_from(start)),
                '.' => frame.push_atom(NodeKind::Dot, self.span_from(start)),
                '[' => {
                    let class = self.parse_class::<T>(start)?;
                    frame.push_atom(NodeKind::Class(class), self.span_from(start));
                }
                '\\' => {
                    let kind = self.parse_escape::<T>(start)?;
                    frame.push_atom(kind, self.span_from(start));
                }
                _ => frame.push_atom(NodeKind::Literal(u32::from(c)), self.span_from(start)),
            }
        }
        if let Some(unclosed) = open.last() {
            return Err(syntax_error(unclosed.start, "unclosed group"));
        }
        let (_, root, _) = top.finish(self.pos);
        for (group, span) in &self.backrefs {
            if group_index(group, self.capture_count, &self.group_names).is_none() {
                return Err(syntax_error(span.start, "backreference to a group that does not exist"));
            }
        }
        Ok(root)
    }

    /// Parses what follows `(`.
    fn parse_group_opener(&mut self, start: usize) -> Result<Opener, RegexError> {
        if !self.eat('?') {
            return Ok(Opener::Group(Some(self.new_capture())));
        }
        match self.bump() {
            Some(':') => Ok(Opener::Group(None)),
            Some('=') => Ok(Opener::LookAround { behind: false, negated: false }),
            Some('!') => Ok(Opener::LookAround { behind: false, negated: true }),
            Some('<') if self.eat('=') => Ok(Opener::LookAround { behind: true, negated: false }),
            Some('<') if self.eat('!') => Ok(Opener::LookAround { behind: true, negated: true }),
            Some('<') => {
                let name = self.parse_group_name()?;
                if self.group_names.contains_key(&name) {
                    return Err(syntax_error(start, format!("duplicate group name `{name}`")));
                }
                let index = self.new_capture();
                self.group_names.insert(name, index);
                Ok(Opener::Group(Some(index)))
            }
            _ => Err(syntax_error(start, "invalid group: expected `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!` or `(?<name>`")),
        }
    }

    fn new_capture(&mut self) -> u32 {
        self.capture_count = self.capture_count.saturating_add(1);
        self.capture_count
    }

    /// Parses a group name after `<`, through the closing `>`.
    fn parse_group_name(&mut self) -> Result<String, RegexError> {
        let start = self.pos;
        let mut name = String::new();
        loop {
            let at = self.pos;
            let c = match self.bump() {
                None => return Err(syntax_error(start, "unterminated group name")),
                Some('>') => break,
                Some('\\') => {
                    if !self.eat('u') {
                        return Err(syntax_error(at, "only `\\u` escapes are allowed in group names"));
                    }
                    let code = self.parse_unicode_escape(at)?;
                    char::from_u32(code).ok_or_else(|| syntax_error(at, "invalid character in group name"))?
                }
                Some(c) => c,
            };
            let valid = if name.is_empty() { is_identifier_start(c) } else { is_identifier_part(c) };
            if !valid {
                return Err(syntax_error(at, format!("`{c}` cannot appear here in a group name")));
            }
            name.push(c);
        }
        if name.is_empty() {
            return Err(syntax_error(start, "empty group name"));
        }
        Ok(name)
    }

    /// Applies the quantifier starting with `c` (already consumed) at
    /// `start` to the last term of `frame`.
    fn apply_quantifier<T: Term>(&mut self, frame: &mut Frame<T>, c: char, start: usize) -> Result<(), RegexError> {
        let (min, max) = match c {
            '*' => (0, None),
            '+' => (1, None),
            '?' => (0, Some(1)),
            _ => self.parse_counted(start)?.ok_or_else(|| syntax_error(start, "lone `{` (escape it as `\\{`)"))?,
        };
        let greedy = !self.eat('?');
        let Some(atom) = T::pop(&mut frame.terms) else {
            return Err(syntax_error(start, "quantifier has nothing to repeat"));
        };
        if let Some(reason) = atom.shape().quantifier_error() {
            return Err(syntax_error(start, reason));
        }
        let count = u64::from(max.unwrap_or(min).max(1));
        let product = count.saturating_mul(frame.last_product);
        let limit = self.limits.max_repetition_product;
        if product > limit {
            return Err(RegexError::new(
                RegexErrorKind::RepetitionProductTooLarge { limit, actual: product },
                start,
                format!("nested repetition counts multiply to {product}, over the limit of {limit}"),
            ));
        }
        frame.push_term(atom.repeat(min, max, greedy, self.pos), product);
        Ok(())
    }

    /// Parses `{n}`, `{n,}` or `{n,m}` after the `{`; `None` if the text is
    /// not of that form (then the `{` is a lone brace).
    fn parse_counted(&mut self, start: usize) -> Result<Option<(u32, Option<u32>)>, RegexError> {
        let min = self.take_digits();
        if min.is_empty() {
            return Ok(None);
        }
        if self.eat('}') {
            let n = decimal_saturating(min);
            return Ok(Some((n, Some(n))));
        }
        if !self.eat(',') {
            return Ok(None);
        }
        let max = self.take_digits();
        if !self.eat('}') {
            return Ok(None);
        }
        if max.is_empty() {
            return Ok(Some((decimal_saturating(min), None)));
        }
        if compare_decimal(min, max) == Ordering::Greater {
            return Err(syntax_error(start, "numbers out of order in `{n,m}` quantifier"));
        }
        Ok(Some((decimal_saturating(min), Some(decimal_saturating(max)))))
    }

    fn take_digits(&mut self) -> &'p str {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
        }
        self.pattern.get(start..self.pos).unwrap_or("")
    }

    /// Parses an escape outside a class, after the `\` at `start`.
    fn parse_escape<T: Term>(&mut self, start: usize) -> Result<NodeKind, RegexError> {
        let Some(c) = self.bump() else {
            return Err(syntax_error(start, "`\\` at end of pattern"));
        };
        match c {
            'b' => Ok(NodeKind::Assertion(Assertion::WordBoundary)),
            'B' => Ok(NodeKind::Assertion(Assertion::NotWordBoundary)),
            '1'..='9' => {
                let digits_start = self.pos.saturating_sub(1);
                self.take_digits();
                let digits = self.pattern.get(digits_start..self.pos).unwrap_or("");
                Ok(self.backref(GroupRef::Number(decimal_saturating(digits)), start))
            }
            'k' => {
                if !self.eat('<') {
                    return Err(syntax_error(start, "`\\k` must be followed by `<name>`"));
                }
                let name = self.parse_group_name()?;
                Ok(self.backref(GroupRef::Name(name), start))
            }
            _ => Ok(match self.parse_atom_escape(c, start, false)? {
                ClassAtom::Char(code) => NodeKind::Literal(code),
                ClassAtom::Set(set, negated) => {
                    let mut items = Vec::new();
                    if T::KEEPS_CLASS_ITEMS {
                        items.push(ClassItem::Set { set, negated });
                    }
                    NodeKind::Class(Class { negated: false, items })
                }
            }),
        }
    }

    fn backref(&mut self, group: GroupRef, start: usize) -> NodeKind {
        self.backrefs.push((group.clone(), self.span_from(start)));
        NodeKind::Backref(group)
    }

    /// Parses the escapes allowed both inside and outside classes, after
    /// `\` and `c`.
    fn parse_atom_escape(&mut self, c: char, start: usize, in_class: bool) -> Result<ClassAtom, RegexError> {
        let set = |set| Ok(ClassAtom::Set(set, c.is_ascii_uppercase()));
        match c {
            'd' | 'D' => set(ClassSet::Digit),
            'w' | 'W' => set(ClassSet::Word),
            's' | 'S' => set(ClassSet::Space),
            'p' | 'P' => {
                let property = self.parse_property(start)?;
                set(ClassSet::Property(property))
            }
            'f' => Ok(ClassAtom::Char(0x0C)),
            'n' => Ok(ClassAtom::Char(0x0A)),
            'r' => Ok(ClassAtom::Char(0x0D)),
            't' => Ok(ClassAtom::Char(0x09)),
            'v' => Ok(ClassAtom::Char(0x0B)),
            'c' => match self.peek() {
                Some(letter) if letter.is_ascii_alphabetic() => {
                    self.bump();
                    Ok(ClassAtom::Char(u32::from(letter) % 32))
                }
                _ => Err(syntax_error(start, "`\\c` must be followed by an ASCII letter")),
            },
            '0' if self.peek().is_some_and(|d| d.is_ascii_digit()) => {
                Err(syntax_error(start, "octal escapes are not allowed in unicode mode"))
            }
            '0' => Ok(ClassAtom::Char(0)),
            'x' => {
                let high = self.bump().and_then(|d| d.to_digit(16));
                let low = self.bump().and_then(|d| d.to_digit(16));
                match (high, low) {
                    (Some(high), Some(low)) => Ok(ClassAtom::Char(high * 16 + low)),
                    _ => Err(syntax_error(start, "`\\x` must be followed by two hexadecimal digits")),
                }
            }
            'u' => self.parse_unicode_escape(start).map(ClassAtom::Char),
            'b' if in_class => Ok(ClassAtom::Char(0x08)),
            '-' if in_class => Ok(ClassAtom::Char(u32::from('-'))),
            '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|' | '/' => {
                Ok(ClassAtom::Char(u32::from(c)))
            }
            _ => Err(syntax_error(start, format!("invalid escape `\\{c}` in unicode mode"))),
        }
    }

    /// Parses `{Name}` or `{Name=Value}` after `\p` or `\P`.
    fn parse_property(&mut self, start: usize) -> Result<Property, RegexError> {
        if !self.eat('{') {
            return Err(syntax_error(start, "`\\p` must be followed by `{property}`"));
        }
        let name_start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '=') {
            self.bump();
        }
        let text = self.pattern.get(name_start..self.pos).unwrap_or("");
        if !self.eat('}') {
            return Err(syntax_error(start, "unterminated `\\p{...}`"));
        }
        Property::parse(text).ok_or_else(|| syntax_error(start, format!("unknown Unicode property `{text}`")))
    }

    /// Parses a `\u` escape after the `u`: `\u{H...}`, `\uHHHH`, or a
    /// surrogate pair `\uHHHH\uHHHH`, which combines into one code point.
    fn parse_unicode_escape(&mut self, start: usize) -> Result<u32, RegexError> {
        if self.eat('{') {
            let mut code: u32 = 0;
            let mut digits = 0usize;
            while let Some(digit) = self.peek().and_then(|d| d.to_digit(16)) {
                self.bump();
                code = code.saturating_mul(16).saturating_add(digit);
                digits = digits.saturating_add(1);
            }
            if digits == 0 || !self.eat('}') {
                return Err(syntax_error(start, "`\\u{` must be followed by hexadecimal digits and `}`"));
            }
            if code > 0x10FFFF {
                return Err(syntax_error(start, "code point above U+10FFFF"));
            }
            return Ok(code);
        }
        let code = self.four_hex_digits().ok_or_else(|| {
            syntax_error(start, "`\\u` must be followed by four hexadecimal digits or `{code point}`")
        })?;
        if (0xD800..=0xDBFF).contains(&code) {
            let saved = self.pos;
            if self.eat('\\') && self.eat('u') {
                if let Some(trail @ 0xDC00..=0xDFFF) = self.four_hex_digits() {
                    return Ok(0x10000 + ((code - 0xD800) << 10) + (trail - 0xDC00));
                }
            }
            self.pos = saved;
        }
        Ok(code)
    }

    /// Consumes four hexadecimal digits, or nothing.
    fn four_hex_digits(&mut self) -> Option<u32> {
        let digits = self.rest().get(..4)?;
        let code = digits.chars().try_fold(0u32, |acc, d| Some(acc * 16 + d.to_digit(16)?))?;
        self.pos = self.pos.saturating_add(4);
        Some(code)
    }

    /// Parses a class after the `[` at `start` (keeping its items if `T`
    /// does).
    fn parse_class<T: Term>(&mut self, start: usize) -> Result<Class, RegexError> {
        let negated = self.eat('^');
        let mut items = Vec::new();
        loop {
            let atom_start = self.pos;
            let first = match self.bump() {
                None => return Err(syntax_error(start, "unterminated character class")),
                Some(']') => break,
                Some(c) => self.parse_class_atom(c, atom_start)?,
            };
            let is_range = self.peek() == Some('-') && !matches!(self.peek_second(), None | Some(']'));
            if !is_range {
                if T::KEEPS_CLASS_ITEMS {
                    items.push(class_item(first));
                }
                continue;
            }
            self.bump();
            let second_start = self.pos;
            let second = match self.bump() {
                None => return Err(syntax_error(start, "unterminated character class")),
                Some(c) => self.parse_class_atom(c, second_start)?,
            };
            match (first, second) {
                (ClassAtom::Char(low), ClassAtom::Char(high)) if low <= high => {
                    if T::KEEPS_CLASS_ITEMS {
                        items.push(ClassItem::Range(low, high));
                    }
                }
                (ClassAtom::Char(_), ClassAtom::Char(_)) => {
                    return Err(syntax_error(atom_start, "character class range out of order"));
                }
                _ => {
                    return Err(syntax_error(atom_start, "a class escape cannot be a range endpoint"));
                }
            }
        }
        Ok(Class { negated, items })
    }

    fn parse_class_atom(&mut self, c: char, start: usize) -> Result<ClassAtom, RegexError> {
        if c != '\\' {
            return Ok(ClassAtom::Char(u32::from(c)));
        }
        match self.bump() {
            None => Err(syntax_error(start, "`\\` at end of pattern")),
            Some(c) => self.parse_atom_escape(c, start, true),
        }
    }
}

fn class_item(atom: ClassAtom) -> ClassItem {
    match atom {
        ClassAtom::Char(code) => ClassItem::Range(code, code),
        ClassAtom::Set(set, negated) => ClassItem::Set { set, negated },
    }
}

/// The value of a string of ASCII digits, saturating at `u32::MAX`.
fn decimal_saturating(digits: &str) -> u32 {
    digits.bytes().fold(0u32, |acc, d| acc.saturating_mul(10).saturating_add(u32::from(d.saturating_sub(b'0'))))
}

/// Compares two strings of ASCII digits as numbers of any size.
fn compare_decimal(a: &str, b: &str) -> Ordering {
    let a = a.trim_start_matches('0');
    let b = b.trim_start_matches('0');
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// `ID_Start`, `$` or `_`, as ECMA-262's `RegExpIdentifierStart`.
fn is_identifier_start(c: char) -> bool {
    static ID_START: OnceLock<Option<ClassUnicode>> = OnceLock::new();
    c == '$' || c == '_' || c.is_ascii_alphabetic() || (!c.is_ascii() && in_property(&ID_START, "ID_Start", c))
}

/// `ID_Continue`, `$`, ZWNJ or ZWJ, as ECMA-262's `RegExpIdentifierPart`.
fn is_identifier_part(c: char) -> bool {
    static ID_CONTINUE: OnceLock<Option<ClassUnicode>> = OnceLock::new();
    matches!(c, '$' | '_' | '\u{200C}' | '\u{200D}')
        || c.is_ascii_alphanumeric()
        || (!c.is_ascii() && in_property(&ID_CONTINUE, "ID_Continue", c))
}

fn in_property(cache: &OnceLock<Option<ClassUnicode>>, name: &'static str, c: char) -> bool {
    cache.get_or_init(|| Property::Binary(name).class()).as_ref().is_some_and(|class| class_contains(class, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    use proptest::prelude::*;

    /// `pattern`'s tree; checking it agrees.
    fn parse_ok(pattern: &str) -> Ast {
        assert_eq!(check(pattern), Ok(()), "{pattern:?}");
        match parse(pattern, ParseLimits::NONE) {
            Ok(ast) => ast,
            Err(e) => panic!("{pattern:?} failed: {e}"),
        }
    }

    /// `pattern`'s error; checking it gives the same.
    fn error(pattern: &str) -> RegexError {
        match parse(pattern, ParseLimits::NONE) {
            Ok(ast) => panic!("{pattern:?} parsed: {ast:?}"),
            Err(e) => {
                assert_eq!(check(pattern), Err(e.clone()), "{pattern:?}");
                e
            }
        }
    }

    #[test]
    fn literals_carry_byte_spans() {
        let ast = parse_ok("aé\u{1F600}");
        let NodeKind::Concat(terms) = &ast.root.kind else { panic!("{ast:?}") };
        let spans: Vec<_> = terms.iter().map(|t| (t.span.start, t.span.end)).collect();
        assert_eq!(spans, [(0, 1), (1, 3), (3, 7)]);
    }

    #[test]
    fn surrogate_pair_escapes_combine() {
        let ast = parse_ok(r"\uD83D\uDC32");
        assert!(matches!(ast.root.kind, NodeKind::Literal(0x1F432)), "{ast:?}");
        let ast = parse_ok(r"[\uD83D\uDE00-\uD83D\uDE4F]");
        let NodeKind::Class(class) = &ast.root.kind else { panic!("{ast:?}") };
        assert_eq!(class.items, [ClassItem::Range(0x1F600, 0x1F64F)]);
    }

    #[test]
    fn lone_surrogates_stay_code_points() {
        let ast = parse_ok(r"\uD83D");
        assert!(matches!(ast.root.kind, NodeKind::Literal(0xD83D)), "{ast:?}");
        let ast = parse_ok(r"\uD83Dx");
        let NodeKind::Concat(terms) = &ast.root.kind else { panic!("{ast:?}") };
        assert!(matches!(terms.first().map(|t| &t.kind), Some(NodeKind::Literal(0xD83D))));
        let ast = parse_ok(r"\u{D83D}\u{DC32}");
        assert!(matches!(ast.root.kind, NodeKind::Concat(_)), "braced escapes never pair");
    }

    #[test]
    fn quantifiers_record_counts_and_laziness() {
        let ast = parse_ok("a{2,5}?");
        let NodeKind::Repeat(repeat) = &ast.root.kind else { panic!("{ast:?}") };
        assert_eq!((repeat.min, repeat.max, repeat.greedy), (2, Some(5), false));
        assert_eq!((ast.root.span.start, ast.root.span.end), (0, 7));
        let ast = parse_ok("a{99999999999999999999,}");
        let NodeKind::Repeat(repeat) = &ast.root.kind else { panic!("{ast:?}") };
        assert_eq!((repeat.min, repeat.max), (u32::MAX, None));
    }

    #[test]
    fn counted_bounds_compare_exactly_beyond_u32() {
        assert_eq!(error("a{99999999999999999999,99999999999999999998}").offset(), 1);
        parse_ok("a{99999999999999999998,099999999999999999999}");
    }

    #[test]
    fn class_dash_rules() {
        let items = |p: &str| match &parse_ok(p).root.kind {
            NodeKind::Class(class) => class.items.clone(),
            other => panic!("{other:?}"),
        };
        let dash = u32::from('-');
        assert_eq!(items("[a-]"), [ClassItem::Range(97, 97), ClassItem::Range(dash, dash)]);
        assert_eq!(items("[-a]"), [ClassItem::Range(dash, dash), ClassItem::Range(97, 97)]);
        assert_eq!(
            items("[a-b-c]"),
            [ClassItem::Range(97, 98), ClassItem::Range(dash, dash), ClassItem::Range(99, 99)]
        );
        assert_eq!(items("[--c]"), [ClassItem::Range(dash, 99)]);
        assert_eq!(items(r"[\w-]").len(), 2);
        assert_eq!(items(r"[\b]"), [ClassItem::Range(8, 8)]);
        assert_eq!(items(r"[\-]"), [ClassItem::Range(dash, dash)]);
        assert_eq!(items("[]"), []);
    }

    #[test]
    fn error_offsets_point_at_the_problem() {
        assert_eq!(error("ab)").offset(), 2);
        assert_eq!(error("a(b").offset(), 1);
        assert_eq!(error("a[b").offset(), 1);
        assert_eq!(error("ab**").offset(), 3);
        assert_eq!(error("x[z-a]").offset(), 2);
        assert_eq!(error(r"x\e").offset(), 1);
        assert_eq!(error(r"(a)\2").offset(), 3);
        assert_eq!(error("(?<n>a)(?<n>b)").offset(), 7);
        assert_eq!(error("a{2,1}").offset(), 1);
        assert_eq!(error(r"\p{Foo}").offset(), 0);
    }

    #[test]
    fn backreferences_may_point_forward_and_by_name() {
        let ast = parse_ok(r"\1(a)\k<x>(?<x>b)");
        assert_eq!(ast.capture_count, 2);
        assert_eq!(ast.group_names.get("x"), Some(&2));
    }

    #[test]
    fn many_named_groups_and_backreferences_parse_in_linear_time() {
        let pattern: String = (0..50_000).map(|i| format!("(?<g{i}>a)\\k<g{i}>")).collect();
        let started = std::time::Instant::now();
        assert_eq!(parse_ok(&pattern).capture_count, 50_000);
        assert!(started.elapsed() < std::time::Duration::from_secs(2), "{:?}", started.elapsed());
    }

    #[test]
    fn group_names_follow_identifier_rules() {
        parse_ok("(?<$a_1>x)");
        parse_ok("(?<é\u{200D}>x)");
        parse_ok(r"(?<\u0061b>x)\k<ab>");
        parse_ok(r"(?<\u{1D49C}>x)");
        for bad in ["(?<1a>x)", "(?<a-b>x)", "(?<>x)", "(?<a", r"(?<\x61>x)", r"(?<\u0031>x)"] {
            assert_eq!(error(bad).kind(), &RegexErrorKind::Syntax, "{bad}");
        }
    }

    #[test]
    fn nesting_limit_is_checked_at_the_opening_paren() {
        let limits = ParseLimits { max_nesting: 3, max_repetition_product: u64::MAX };
        assert!(parse("(((a)))", limits).is_ok());
        let err = parse("a((((a))))", limits).map(|_| ()).unwrap_err();
        assert_eq!(err.kind(), &RegexErrorKind::NestingTooDeep { limit: 3, actual: 4 });
        assert_eq!(err.offset(), 4);
    }

    #[test]
    fn repetition_product_multiplies_nested_counts() {
        let limits = ParseLimits { max_nesting: usize::MAX, max_repetition_product: 2_500 };
        assert!(parse("(a{0,50}){0,50}", limits).is_ok());
        assert!(parse("(a{0,50}b{3}){0,50}c{2500}", limits).is_ok());
        let err = parse("x(a{0,50}){0,51}", limits).map(|_| ()).unwrap_err();
        assert_eq!(err.kind(), &RegexErrorKind::RepetitionProductTooLarge { limit: 2_500, actual: 2_550 });
        assert_eq!(err.offset(), 10);
        let err = parse("((a{50})|b){60}", limits).map(|_| ()).unwrap_err();
        assert_eq!(err.kind(), &RegexErrorKind::RepetitionProductTooLarge { limit: 2_500, actual: 3_000 });
    }

    #[test]
    fn a_hundred_thousand_parens_parse_without_recursion() {
        let deep = format!("{}a{}", "(".repeat(100_000), ")".repeat(100_000));
        assert_eq!(parse_ok(&deep).capture_count, 100_000);
        assert_eq!(error(&"(".repeat(100_000)).kind(), &RegexErrorKind::Syntax);
    }

    /// Strings of the pattern syntax's own characters, mostly invalid.
    fn syntax_soup() -> impl Strategy<Value = String> {
        const PIECES: &[&str] = &[
            "(",
            ")",
            "(?:",
            "(?=",
            "(?!",
            "(?<=",
            "(?<!",
            "(?<n>",
            "(?<m>",
            "\\k<n>",
            "\\1",
            "\\2",
            "|",
            "*",
            "+",
            "?",
            "{2}",
            "{1,3}",
            "{3,1}",
            "{",
            "}",
            "[",
            "]",
            "[^",
            "-",
            "a",
            "z",
            "^",
            "$",
            ".",
            "\\d",
            "\\b",
            "\\B",
            "\\p{L}",
            "\\p{Nope}",
            "\\u0041",
            "\\uD83D\\uDE00",
            "\\x4",
            "\\q",
            "\\",
            "é",
        ];
        let pieces = prop::sample::select(PIECES);
        prop::collection::vec(pieces, 0..14).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(4000) })]

        /// Checking a pattern reports exactly what parsing it does.
        #[test]
        fn checking_agrees_with_parsing(pattern in syntax_soup()) {
            prop_assert_eq!(check(&pattern), parse(&pattern, ParseLimits::NONE).map(|_| ()), "{:?}", pattern);
        }
    }
}
