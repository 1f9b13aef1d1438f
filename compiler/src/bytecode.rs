//! The schemavm instruction set: every instruction, the constant pool it
//! refers to, and the [`Program`] that holds them.
//!
//! # Model
//!
//! A program is a graph of [`Node`]s, one per compiled subschema. A node
//! owns a contiguous run of [`Instr`]uctions; evaluating a node against an
//! instance value runs its instructions in order, and the node is valid
//! when every instruction passes. Instructions that apply subschemas refer
//! to other nodes by [`NodeId`]; `$ref` is a direct call to the target
//! node, so recursion in a schema is recursion in the program, compiled
//! once.
//!
//! Keywords that apply to one instance type are *fused* into one
//! instruction per type ([`Instr::Object`], [`Instr::Array`],
//! [`Instr::String`], [`Instr::Number`]) whose operands live in the
//! constant pool: an object is scanned once for `properties`,
//! `patternProperties`, `additionalProperties`, `required`,
//! `dependentRequired`, `propertyNames` and the rest. A fused instruction
//! passes without work when the instance has another type.
//!
//! # Invariants
//!
//! Every id stored in a program (node, pool entry, regex, resource) is in
//! range; [`Program::check_ids`] checks this once, so the VM's indexing cannot
//! fail. Every node's code range lies inside the code array.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::format::Format;
use crate::lookup::KeyTable;
use crate::number::{Divisor, Num};
use crate::regex::Regex;
use crate::value::{JsonType, TypeSet};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name(pub(crate) u32);

        impl $name {
            /// The id as an index.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// A compiled subschema.
    NodeId
);
id_type!(
    /// A `const` value ([`Operands::value`]).
    ValueId
);
id_type!(
    /// An entry of the enum pool.
    EnumId
);
id_type!(
    /// An entry of the number-checks pool.
    NumberId
);
id_type!(
    /// An entry of the string-checks pool.
    StringId
);
id_type!(
    /// An entry of the array-checks pool.
    ArrayId
);
id_type!(
    /// An entry of the object-checks pool.
    ObjectId
);
id_type!(
    /// A list of nodes (`allOf`, `anyOf`, `oneOf`).
    ListId
);
id_type!(
    /// An `if`/`then`/`else` triple.
    CondId
);
id_type!(
    /// A `$dynamicRef` or `$recursiveRef` with a dynamic target.
    DynamicRefId
);
id_type!(
    /// A schema resource (a schema with its own base URI).
    ResourceId
);
id_type!(
    /// Content checks (`contentEncoding`, `contentMediaType`, `contentSchema`).
    ContentId
);

/// One instruction. Each is a check on the current instance value; the
/// keyword(s) it implements are named in its documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Instr {
    /// Always fails: the `false` schema.
    Fail,
    /// `type`: the instance's type must be in the set (`integer` admits
    /// integral floats unless the program uses strict integers, draft-04).
    Type(TypeSet),
    /// `const`: the instance equals the value (JSON equality).
    Const(ValueId),
    /// `enum`: the instance equals one of the values.
    Enum(EnumId),
    /// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
    /// `multipleOf` on a number; passes on other types.
    Number(NumberId),
    /// `minLength`, `maxLength`, `pattern`, asserted `format` on a string;
    /// passes on other types.
    String(StringId),
    /// `prefixItems`/`items`/`additionalItems`, `contains`/`minContains`/
    /// `maxContains`, `minItems`, `maxItems`, `uniqueItems` on an array;
    /// passes on other types.
    Array(ArrayId),
    /// `properties`, `patternProperties`, `additionalProperties`,
    /// `propertyNames`, `required`, `dependentRequired`,
    /// `dependentSchemas`/`dependencies`, `minProperties`,
    /// `maxProperties` on an object; passes on other types.
    Object(ObjectId),
    /// `allOf`: every node of the list passes.
    AllOf(ListId),
    /// `anyOf`: at least one node of the list passes.
    AnyOf(ListId),
    /// `oneOf`: exactly one node of the list passes.
    OneOf(ListId),
    /// `not`: the node fails.
    Not(NodeId),
    /// `if`/`then`/`else`.
    Cond(CondId),
    /// `$ref` (and `$dynamicRef`/`$recursiveRef` whose target is static):
    /// the node passes.
    Ref(NodeId),
    /// `$dynamicRef` / `$recursiveRef` resolved through the dynamic scope.
    DynamicRef(DynamicRefId),
    /// Asserted `contentEncoding` / `contentMediaType` / `contentSchema`
    /// on a string; passes on other types.
    Content(ContentId),
    /// `unevaluatedProperties`: every property of an object that no other
    /// keyword of this node (or its in-place subschemas) evaluated passes
    /// the node. Runs last in its node, which tracks evaluated properties.
    UnevaluatedProperties(NodeId),
    /// `unevaluatedItems`: as `UnevaluatedProperties`, for array items.
    UnevaluatedItems(NodeId),
}

impl Instr {
    /// The keyword this instruction is reported under (fused instructions
    /// report their sub-keywords individually).
    pub fn keyword(&self) -> &'static str {
        match self {
            Instr::Fail => "false",
            Instr::Type(_) => "type",
            Instr::Const(_) => "const",
            Instr::Enum(_) => "enum",
            Instr::Number(_) => "number checks",
            Instr::String(_) => "string checks",
            Instr::Array(_) => "array checks",
            Instr::Object(_) => "object checks",
            Instr::AllOf(_) => "allOf",
            Instr::AnyOf(_) => "anyOf",
            Instr::OneOf(_) => "oneOf",
            Instr::Not(_) => "not",
            Instr::Cond(_) => "if",
            Instr::Ref(_) => "$ref",
            Instr::DynamicRef(_) => "$dynamicRef",
            Instr::Content(_) => "content",
            Instr::UnevaluatedProperties(_) => "unevaluatedProperties",
            Instr::UnevaluatedItems(_) => "unevaluatedItems",
        }
    }
}

/// Per-node properties decided at compile time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NodeFlags(u8);

impl NodeFlags {
    /// The node has a dynamic `unevaluatedProperties`: evaluate its
    /// in-place subschemas with property tracking.
    pub const TRACKS_PROPERTIES: NodeFlags = NodeFlags(1);
    /// The node has a dynamic `unevaluatedItems`.
    pub const TRACKS_ITEMS: NodeFlags = NodeFlags(1 << 1);
    /// The node has no instructions: every instance passes.
    pub const ALWAYS_VALID: NodeFlags = NodeFlags(1 << 2);
    /// The node begins with [`Instr::Fail`]: no instance passes.
    pub const ALWAYS_INVALID: NodeFlags = NodeFlags(1 << 3);
    /// The node never descends into the instance and applies no
    /// recursion: evaluating it costs a few instructions. Object scans
    /// check such properties first and defer the rest, so a failing
    /// discriminator (`"type": {"const": "Point"}`) is found before a
    /// large sibling is walked.
    pub const CHEAP: NodeFlags = NodeFlags(1 << 4);
    /// The node can be reached twice at one instance location (through
    /// in-place applications, or two applications to the same child): the
    /// VM caches its verdict per (node, instance value), which keeps
    /// evaluation polynomial. See the cost analysis.
    pub const MEMO: NodeFlags = NodeFlags(1 << 5);
    /// The node's only instruction is `type` ([`Node::types`]): callers
    /// may check the type inline.
    pub const TYPE_ONLY: NodeFlags = NodeFlags(1 << 6);
    /// No cycle of the program is reachable from the node: its evaluation
    /// nests at most as deep as the schema, so the VM skips depth
    /// accounting for it.
    pub const BOUNDED: NodeFlags = NodeFlags(1 << 7);

    /// Whether all flags of `other` are set.
    #[inline]
    pub const fn contains(self, other: NodeFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Sets the flags of `other`.
    pub fn insert(&mut self, other: NodeFlags) {
        self.0 |= other.0;
    }
}

/// How the VM enters a node when it records no errors, decided at
/// compile time from the node's flags so the hot path takes one branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Entry {
    /// Depth, fuel, dynamic scope and tracking bookkeeping.
    #[default]
    Full,
    /// Every instance passes.
    Valid,
    /// Every instance passes when nothing is tracked: the node's
    /// instructions only apply subschemas that pass in turn, and matter
    /// only for annotations and `unevaluated*` (`additionalProperties:
    /// true`, a `$ref` to an annotation-only schema). A tracking
    /// evaluation runs them as a [`Entry::Memo`] or [`Entry::Full`] node.
    QuietValid,
    /// No instance passes.
    Invalid,
    /// A bare type check on [`Node::types`].
    Types,
    /// Run the instructions directly: the node is cheap, or bounded with
    /// no tracking and no dynamic scope in the program.
    Direct,
    /// As [`Entry::Direct`], for a node of exactly one instruction: run it
    /// in place.
    Single,
    /// As [`Entry::Single`], for a node whose one instruction is
    /// [`Instr::Number`]: the entry and the instruction's base unit of
    /// fuel are one charge, and the instruction runs without the
    /// instruction dispatch.
    Number,
    /// Look the verdict up in the memo first.
    Memo,
    /// Depth and fuel accounting, then the instructions: the node may
    /// recur (so nesting is counted) but tracks nothing, and the program
    /// keeps no dynamic scope.
    Counted,
    /// The node's only instruction is [`Instr::Ref`]: evaluate its target
    /// in its place (charging one unit of fuel), with no bookkeeping of its
    /// own. Chosen only where that changes nothing but speed: the node
    /// tracks nothing, is not memoized, and the program keeps no dynamic
    /// scope. Reference chains are acyclic (unguarded recursion is a
    /// compile error), so following them ends.
    Forward,
}

impl Entry {
    /// Whether every instance passes when nothing is tracked
    /// ([`Entry::Valid`] or [`Entry::QuietValid`]).
    #[inline]
    pub fn passes_untracked(self) -> bool {
        matches!(self, Entry::Valid | Entry::QuietValid)
    }
}

/// How an evaluation that records and tracks nothing evaluates a
/// subschema in its parent's loop, decided with the node entries: the
/// node's [`Entry`] with, for a node of one instruction, that
/// instruction's operand, so that the loop reads neither the node nor its
/// code. Eight bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Target {
    /// Every value passes ([`Entry::Valid`], [`Entry::QuietValid`]).
    #[default]
    Valid,
    /// No value passes ([`Entry::Invalid`]).
    Invalid,
    /// A bare type check ([`Entry::Types`]).
    Types(TypeSet),
    /// One number instruction ([`Entry::Number`]).
    Number(NumberId),
    /// One `enum` instruction ([`Entry::Single`]).
    Enum(EnumId),
    /// One string instruction ([`Entry::Single`]).
    String(StringId),
    /// One object instruction ([`Entry::Single`], or a node a
    /// [`TypeSwitch`] passes as it does for [`Target::OneOf`]).
    Object(ObjectId),
    /// One array instruction (as [`Target::Object`]).
    Array(ArrayId),
    /// A node that may be passed ([`Entry::Single`], [`Entry::Direct`] or
    /// [`Entry::Counted`], tracking nothing, not memoized) whose verdict
    /// is this `oneOf`'s: its one instruction, or its second where a
    /// [`TypeSwitch`] chose it for a kind its first, a type check, admits.
    /// The node's unit of fuel is charged; its depth is not counted (the
    /// node is passed in place, as a forwarding `$ref` is).
    OneOf(ListId),
    /// As [`Target::OneOf`], for an `anyOf`.
    AnyOf(ListId),
    /// Anything else: the node, entered as [`Node::entry`] says.
    Node(NodeId),
}

impl Target {
    /// The target of node `id`.
    pub fn of(id: NodeId, node: &Node) -> Target {
        match (node.entry, node.first) {
            (Entry::Valid | Entry::QuietValid, _) => Target::Valid,
            (Entry::Invalid, _) => Target::Invalid,
            (Entry::Types, _) => Target::Types(node.types),
            (Entry::Number, Some(Instr::Number(n))) => Target::Number(n),
            (Entry::Single, Some(Instr::Enum(e))) => Target::Enum(e),
            (Entry::Single, Some(Instr::String(s))) => Target::String(s),
            (Entry::Single, Some(Instr::Object(o))) => Target::Object(o),
            (Entry::Single, Some(Instr::Array(a))) => Target::Array(a),
            _ => Target::Node(id),
        }
    }
}

/// Most forwarding `$ref`s [`Program::past_forwards`] follows.
pub const FORWARD_HOPS: usize = 8;

/// [`Program::past_forwards`] over the program's `nodes` (for the
/// compiler, while other parts of the program are borrowed).
pub(crate) fn past_forwards(nodes: &[Node], id: NodeId) -> NodeId {
    let mut id = id;
    for _ in 0..FORWARD_HOPS {
        match nodes.get(id.index()) {
            Some(n) if n.entry == Entry::Forward => match n.first {
                Some(Instr::Ref(target)) => id = target,
                _ => break,
            },
            _ => break,
        }
    }
    id
}

/// A keyword value a subschema contributes as an annotation where it
/// passes (for `evaluate`; the validation paths never read it).
#[derive(Debug, Clone, PartialEq)]
pub struct Annotation {
    /// The keyword (borrowed for the keywords a draft defines).
    pub keyword: std::borrow::Cow<'static, str>,
    /// Its value, as written in the schema.
    pub value: Value,
    /// Only string instances are annotated (the content keywords).
    pub strings_only: bool,
}

/// A compiled subschema.
#[derive(Debug, Clone)]
pub struct Node {
    pub(crate) code_start: u32,
    pub(crate) code_end: u32,
    /// The first instruction, kept in the node too (set with the
    /// entries): a [`Entry::Single`] or [`Entry::Forward`] node runs it
    /// without reading the program's code ([`Program::code`]).
    pub(crate) first: Option<Instr>,
    pub(crate) flags: NodeFlags,
    pub(crate) types: TypeSet,
    pub(crate) admits: TypeSet,
    pub(crate) entry: Entry,
    pub(crate) resource: ResourceId,
}

impl Node {
    /// Compile-time properties of the node.
    #[inline]
    pub fn flags(&self) -> NodeFlags {
        self.flags
    }
    /// How the VM enters the node when it records no errors.
    #[inline]
    pub fn entry(&self) -> Entry {
        self.entry
    }
    /// For a [`NodeFlags::TYPE_ONLY`] node, the accepted types.
    #[inline]
    pub fn types(&self) -> TypeSet {
        self.types
    }
    /// Every instance the node accepts has one of these types (a
    /// necessary condition, from `type`, the types of fused instructions
    /// and what the node applies in place; [`TypeSet::ANY`] when nothing
    /// is known). An instance of another type fails without evaluation.
    #[inline]
    pub fn admitted_types(&self) -> TypeSet {
        self.admits
    }
    /// The schema resource the node belongs to (for the dynamic scope).
    #[inline]
    pub fn resource(&self) -> ResourceId {
        self.resource
    }
    /// The node's first instruction, if it has any.
    #[inline]
    pub fn first_instr(&self) -> Option<&Instr> {
        self.first.as_ref()
    }
}

/// Static cost bounds of an entry node (the root, or a node applied to a
/// child of the instance), from the compiler's cost analysis.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NodeCost {
    /// Node evaluations at one instance location, with memoization.
    pub fan_out: u64,
    /// The same without memoization (saturating): what a naive evaluator
    /// would do.
    pub unmemoized_fan_out: u64,
    /// The longest chain of in-place applications.
    pub in_place_depth: u32,
}

/// Operands of [`Instr::Number`].
#[derive(Debug, Clone, Default)]
pub struct NumberChecks {
    /// A `type` keyword fused in at compile time, which admits this
    /// instruction's kind (for numbers, maybe only integers): values of
    /// other kinds must have one of its types, else they fail under `type`.
    pub type_fused: Option<TypeSet>,
    /// The fused `type` admits integers but not every number
    /// (`"integer"`): a number must also be an integer.
    pub integers_only: bool,
    /// The values of the number keywords present, in [`NumberKeyword`]
    /// order, each once ([`NumberChecks::value`]; set with
    /// [`NumberChecks::set`]). Only those present: a number instruction
    /// usually has one or two of the five.
    keywords: Box<[(NumberKeyword, Num)]>,
    /// Exclusive bounds came from draft-04's boolean form: report them
    /// under `minimum`/`maximum`.
    pub draft4_exclusive: bool,
    /// The checks as an inclusive range (and [`NumberChecks::integer_multiple`])
    /// for instances held as `i64`, when every bound is an integer and
    /// `multipleOf`, if any, is a machine integer (set by
    /// [`NumberChecks::seal`]): the boolean path then compares machine
    /// integers instead of [`Num`]s. Bounds beyond the `i64` range are
    /// clamped to it (an empty range stays empty); larger instances take
    /// the general path.
    pub integer_range: Option<(i64, i64)>,
    /// `multipleOf` as a machine integer, when [`NumberChecks::integer_range`]
    /// is set.
    pub integer_multiple: Option<Divisor>,
    /// The bounds as `f64`s, for instances held as floats, when every bound
    /// is exactly an `f64` and there is no `multipleOf` (set by
    /// [`NumberChecks::seal`]): comparing two `f64`s is then exact.
    pub float_bounds: Option<FloatBounds>,
}

/// Bounds on a float, each inclusive or strict ([`NumberChecks::float_bounds`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloatBounds {
    /// The lower bound (`-inf` if none).
    pub low: f64,
    /// Whether the instance must exceed `low` (else equal it or exceed it).
    pub low_strict: bool,
    /// The upper bound (`inf` if none).
    pub high: f64,
    /// Whether the instance must be below `high`.
    pub high_strict: bool,
}

impl FloatBounds {
    /// No bound.
    const NONE: FloatBounds =
        FloatBounds { low: f64::NEG_INFINITY, low_strict: false, high: f64::INFINITY, high_strict: false };

    /// Whether `x` is within the bounds.
    #[inline]
    pub fn admits(&self, x: f64) -> bool {
        (x > self.low || (!self.low_strict && x == self.low))
            && (x < self.high || (!self.high_strict && x == self.high))
    }

    /// Adds a lower bound.
    fn above(&mut self, bound: f64, strict: bool) {
        if bound > self.low {
            (self.low, self.low_strict) = (bound, strict);
        } else if bound == self.low {
            self.low_strict |= strict;
        }
    }

    /// Adds an upper bound.
    fn below(&mut self, bound: f64, strict: bool) {
        if bound < self.high {
            (self.high, self.high_strict) = (bound, strict);
        } else if bound == self.high {
            self.high_strict |= strict;
        }
    }
}

/// A keyword of a number instruction ([`NumberChecks`]), in the order
/// they are checked and reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum NumberKeyword {
    /// `minimum` (or draft-04 `minimum` without `exclusiveMinimum: true`).
    Minimum,
    /// `exclusiveMinimum` (a number; draft-04's boolean form is folded in).
    ExclusiveMinimum,
    /// `maximum`.
    Maximum,
    /// `exclusiveMaximum`.
    ExclusiveMaximum,
    /// `multipleOf` (positive).
    MultipleOf,
}

impl NumberKeyword {
    /// Every keyword, in order.
    pub const ALL: [NumberKeyword; 5] = [
        NumberKeyword::Minimum,
        NumberKeyword::ExclusiveMinimum,
        NumberKeyword::Maximum,
        NumberKeyword::ExclusiveMaximum,
        NumberKeyword::MultipleOf,
    ];

    /// The keyword's name in a schema (draft-04's boolean exclusive
    /// bounds are reported under `minimum` and `maximum` instead:
    /// [`NumberChecks::draft4_exclusive`]).
    pub fn name(self) -> &'static str {
        match self {
            NumberKeyword::Minimum => "minimum",
            NumberKeyword::ExclusiveMinimum => "exclusiveMinimum",
            NumberKeyword::Maximum => "maximum",
            NumberKeyword::ExclusiveMaximum => "exclusiveMaximum",
            NumberKeyword::MultipleOf => "multipleOf",
        }
    }
}

impl NumberChecks {
    /// The value of `keyword`, if the instruction has it.
    #[inline]
    pub fn value(&self, keyword: NumberKeyword) -> Option<&Num> {
        self.keywords.iter().find(|(k, _)| *k == keyword).map(|(_, n)| n)
    }

    /// Sets `keyword` to `value`, or removes it with `None`; call
    /// [`NumberChecks::seal`] after the last change.
    pub fn set(&mut self, keyword: NumberKeyword, value: Option<Num>) {
        let mut keywords = std::mem::take(&mut self.keywords).into_vec();
        keywords.retain(|(k, _)| *k != keyword);
        if let Some(value) = value {
            let at = keywords.partition_point(|(k, _)| *k < keyword);
            keywords.insert(at, (keyword, value));
        }
        self.keywords = keywords.into_boxed_slice();
    }

    /// The keywords present with their values, in order.
    pub fn keywords(&self) -> &[(NumberKeyword, Num)] {
        &self.keywords
    }

    /// Derives [`NumberChecks::integer_range`] from the bounds.
    pub fn seal(&mut self) {
        fn int(n: Option<&Num>) -> Option<Option<i128>> {
            match n {
                None => Some(None),
                Some(Num::Int(i)) => Some(Some(*i)),
                Some(_) => None,
            }
        }
        self.integer_multiple = None;
        self.integer_range = (|| {
            if let Some(m) = self.value(NumberKeyword::MultipleOf) {
                match m {
                    Num::Int(m) => self.integer_multiple = Some(Divisor::new(u64::try_from(*m).ok()?)?),
                    _ => return None,
                }
            }
            let mut lo = i128::MIN;
            let mut hi = i128::MAX;
            if let Some(m) = int(self.value(NumberKeyword::Minimum))? {
                lo = lo.max(m);
            }
            if let Some(m) = int(self.value(NumberKeyword::ExclusiveMinimum))? {
                lo = lo.max(m.checked_add(1)?);
            }
            if let Some(m) = int(self.value(NumberKeyword::Maximum))? {
                hi = hi.min(m);
            }
            if let Some(m) = int(self.value(NumberKeyword::ExclusiveMaximum))? {
                hi = hi.min(m.checked_sub(1)?);
            }
            // Clamped to what an `i64` instance can be: a bound beyond it
            // either admits every `i64` or none.
            let clamp = |x: i128| i64::try_from(x).unwrap_or(if x < 0 { i64::MIN } else { i64::MAX });
            Some(if lo > hi || lo > i128::from(i64::MAX) || hi < i128::from(i64::MIN) {
                (i64::MAX, i64::MIN)
            } else {
                (clamp(lo), clamp(hi))
            })
        })();
        if self.integer_range.is_none() {
            self.integer_multiple = None;
        }
        self.float_bounds = self.exact_float_bounds();
    }

    /// [`NumberChecks::float_bounds`], if every bound is exactly an `f64`
    /// and there is no `multipleOf`.
    fn exact_float_bounds(&self) -> Option<FloatBounds> {
        /// Integers up to 2^53 in magnitude are exact `f64`s.
        const EXACT: i128 = 1 << 53;
        fn exact(n: &Num) -> Option<f64> {
            match n {
                Num::Int(i) if i.unsigned_abs() <= EXACT as u128 => Some(*i as f64),
                Num::Float(f) if f.is_finite() => Some(*f),
                _ => None,
            }
        }
        let mut bounds = FloatBounds::NONE;
        for (keyword, n) in self.keywords.iter() {
            match keyword {
                NumberKeyword::Minimum => bounds.above(exact(n)?, false),
                NumberKeyword::ExclusiveMinimum => bounds.above(exact(n)?, true),
                NumberKeyword::Maximum => bounds.below(exact(n)?, false),
                NumberKeyword::ExclusiveMaximum => bounds.below(exact(n)?, true),
                NumberKeyword::MultipleOf => return None,
            }
        }
        Some(bounds)
    }

    /// Whether `x` satisfies every bound and `multipleOf`.
    #[inline]
    pub fn admits(&self, x: &Num) -> bool {
        self.keywords.iter().all(|(keyword, n)| match keyword {
            NumberKeyword::Minimum => x.compare(n).is_ge(),
            NumberKeyword::ExclusiveMinimum => x.compare(n).is_gt(),
            NumberKeyword::Maximum => x.compare(n).is_le(),
            NumberKeyword::ExclusiveMaximum => x.compare(n).is_lt(),
            NumberKeyword::MultipleOf => x.is_multiple_of(n),
        })
    }
}

/// How a `format` is asserted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatCheck {
    /// A built-in format (named by [`Format::name`]).
    Builtin(Format),
    /// A caller-registered format (boxed: few programs have one, and a
    /// built-in format's check stays one word).
    Custom(Box<CustomFormat>),
}

impl FormatCheck {
    /// The format's name, the value of the `format` keyword.
    pub fn name(&self) -> &str {
        match self {
            FormatCheck::Builtin(f) => f.name(),
            FormatCheck::Custom(c) => &c.name,
        }
    }
}

/// A caller-registered format a program asserts ([`FormatCheck::Custom`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomFormat {
    /// The registration index (the position of its name in
    /// [`CompileOptions::custom_formats`](crate::CompileOptions::custom_formats)).
    pub index: u32,
    /// Its name, for messages.
    pub name: Box<str>,
}

/// Operands of [`Instr::String`].
#[derive(Debug, Clone, Default)]
pub struct StringChecks {
    /// A `type` keyword fused in at compile time, which admits this
    /// instruction's kind (for numbers, maybe only integers): values of
    /// other kinds must have one of its types, else they fail under `type`.
    pub type_fused: Option<TypeSet>,
    /// `minLength`, in Unicode code points.
    pub min_length: Option<u64>,
    /// `maxLength`, in Unicode code points.
    pub max_length: Option<u64>,
    /// `pattern` (shared by every use of the same pattern: each compiled
    /// regex is held where it is used, so a program with patterns keeps no
    /// table of them).
    pub pattern: Option<Arc<Regex>>,
    /// Asserted `format`.
    pub format: Option<FormatCheck>,
}

/// Operands of [`Instr::Array`].
#[derive(Debug, Clone, Default)]
pub struct ArrayChecks {
    /// A `type` keyword fused in at compile time, which admits this
    /// instruction's kind (for numbers, maybe only integers): values of
    /// other kinds must have one of its types, else they fail under `type`.
    pub type_fused: Option<TypeSet>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `uniqueItems: true`.
    pub unique_items: bool,
    /// `prefixItems` (or the array form of `items`).
    pub prefix: Box<[NodeId]>,
    /// The [`Target`] of each `prefix` node (set with the entries).
    pub prefix_targets: Box<[Target]>,
    /// The keyword holding `prefix`: `prefixItems` or `items`.
    pub prefix_keyword: &'static str,
    /// The schema for items after the prefix.
    pub rest: Option<NodeId>,
    /// The keyword holding `rest`: `items`, `additionalItems` or
    /// `unevaluatedItems` (when resolved statically).
    pub rest_keyword: &'static str,
    /// `contains`, with `minContains` (default 1) and `maxContains`.
    pub contains: Option<Contains>,
    /// How the items after the prefix can be checked when no error is
    /// recorded (decided after analysis).
    pub rest_plan: ItemsPlan,
    /// See [`ArrayChecks::is_tuple`].
    pub(crate) tuple: bool,
    /// For a [tuple](ArrayChecks::is_tuple), the fewest and most items an
    /// array can have and pass (inclusive): `minItems`, and `maxItems` or
    /// the prefix's length when no item may follow it.
    pub tuple_sizes: (u64, u64),
}

/// A fused loop for an array's items, for frequent shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ItemsPlan {
    /// Evaluate the `rest` node per item.
    #[default]
    General,
    /// Every item passes (the `rest` node is [`Entry::Valid`] or
    /// [`Entry::QuietValid`]): nothing to run.
    AllPass,
    /// No item passes (the `rest` node is [`Entry::Invalid`]:
    /// `additionalItems: false`, `items: false`): the array fails if it
    /// has any.
    NonePass,
    /// Every item must have one of these types.
    Types(ItemTypes),
    /// Every item must be an array of `min..=max` items of these types
    /// (coordinates, tuples, matrices).
    ArraysOfTypes {
        /// `minItems` of the inner arrays (0 when absent).
        min: u64,
        /// `maxItems` of the inner arrays (`u64::MAX` when absent).
        max: u64,
        /// The types of the inner items.
        types: ItemTypes,
    },
}

/// The types a fused items loop ([`ItemsPlan`]) admits, sorted once, at
/// compile time, by how the loop tests an item: sets of one kind (the
/// coordinates, vectors, ids and name lists of real documents) test the
/// variant directly, each in a loop of its own; other sets look the
/// item's type up in the set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemTypes {
    /// Every number (`number`, with or without `integer`).
    Numbers,
    /// The integers alone (`integer`).
    Integers,
    /// The strings alone (`string`).
    Strings,
    /// Any other set.
    Mixed(TypeSet),
}

impl ItemTypes {
    /// The loop's test for `types`.
    pub fn of(types: TypeSet) -> ItemTypes {
        let numbers = TypeSet::single(JsonType::Number);
        if types == numbers || types == numbers.with(JsonType::Integer) {
            ItemTypes::Numbers
        } else if types == TypeSet::single(JsonType::Integer) {
            ItemTypes::Integers
        } else if types == TypeSet::single(JsonType::String) {
            ItemTypes::Strings
        } else {
            ItemTypes::Mixed(types)
        }
    }
}

impl ArrayChecks {
    /// Whether only `prefixItems` and the bounds apply, when nothing is
    /// recorded or tracked: the items after the prefix pass or fail
    /// whatever they are (or have no schema), no `contains`, no
    /// `uniqueItems`. (Decided once, with [`ArrayChecks::rest_plan`],
    /// after the [prefix targets](ArrayChecks::prefix_targets).)
    #[inline(always)]
    pub fn is_tuple(&self) -> bool {
        self.tuple
    }

    /// Sets [`ArrayChecks::rest_plan`], and with it whether the checks are
    /// a [tuple](ArrayChecks::is_tuple).
    pub fn set_rest_plan(&mut self, plan: ItemsPlan) {
        self.rest_plan = plan;
        self.tuple = (self.rest.is_none() || matches!(plan, ItemsPlan::AllPass | ItemsPlan::NonePass))
            && self.contains.is_none()
            && !self.unique_items
            && self.prefix_targets.len() == self.prefix.len();
        let most = self.max_items.unwrap_or(u64::MAX);
        let prefix = u64::try_from(self.prefix.len()).unwrap_or(u64::MAX);
        self.tuple_sizes =
            (self.min_items.unwrap_or(0), if plan == ItemsPlan::NonePass { most.min(prefix) } else { most });
    }

    /// Whether an empty array passes: `minItems` and `minContains` allow
    /// zero (every other array keyword applies per item).
    #[inline(always)]
    pub fn admits_empty(&self) -> bool {
        self.min_items.is_none_or(|min| min == 0) && self.contains.is_none_or(|c| c.min == 0)
    }
}

/// `contains` with its bounds.
#[derive(Debug, Clone, Copy)]
pub struct Contains {
    /// The subschema.
    pub node: NodeId,
    /// `minContains` (1 when absent).
    pub min: u64,
    /// `maxContains`.
    pub max: Option<u64>,
    /// Items matching `contains` count as evaluated (2020-12).
    pub annotates: bool,
}

/// One name known to an object's property table.
#[derive(Debug, Clone, Default)]
pub struct PropertyEntry {
    /// The `properties` subschema for this name.
    pub schema: Option<NodeId>,
    /// How a scan that records nothing checks `schema`, decided with the
    /// node entries so the scan need not read the node itself.
    pub check: QuickCheck,
    /// The node such a scan evaluates for `schema`: `schema` itself, or
    /// the end of its chain of forwarding `$ref`s (whose hops the scan then
    /// skips).
    pub quick: NodeId,
    /// The name is in `required`.
    pub required: bool,
    /// What this name's presence requires, if anything (boxed: few
    /// properties have dependencies).
    pub dependencies: Option<Box<Dependencies>>,
    /// The `patternProperties` (indices into [`ObjectChecks::patterns`])
    /// whose pattern matches this name, found at compile time; meaningful
    /// only when [`ObjectChecks::static_patterns`] is set.
    pub patterns: Box<[u32]>,
}

/// The dependencies of one property name ([`PropertyEntry::dependencies`]).
#[derive(Debug, Clone, Default)]
pub struct Dependencies {
    /// `dependentRequired` / array `dependencies`: entries (by index)
    /// that must be present when this one is.
    pub required: Box<[u32]>,
    /// `dependentSchemas` / schema `dependencies`: applied to the whole
    /// object when this name is present.
    pub schemas: Box<[NodeId]>,
}

impl PropertyEntry {
    /// [`Dependencies::required`] (empty without dependencies).
    pub fn dependent_required(&self) -> &[u32] {
        self.dependencies.as_deref().map_or(&[], |d| &d.required)
    }

    /// [`Dependencies::schemas`] (empty without dependencies).
    pub fn dependent_schemas(&self) -> &[NodeId] {
        self.dependencies.as_deref().map_or(&[], |d| &d.schemas)
    }
}

/// How an object scan that records nothing applies a subschema to a
/// property value (`properties`, `additionalProperties`), decided with the
/// node entries so the scan need not read the node itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum QuickCheck {
    /// Every value passes.
    Valid,
    /// No value passes (`false`).
    Invalid,
    /// The schema is a bare `type` check: test the value's type in place.
    Types(TypeSet),
    /// The schema is `type: integer` alone (ids, counts, sizes): test
    /// the number in place, without looking its type up in a set.
    Integers,
    /// The schema is cheap: evaluate it during the scan.
    Early,
    /// Evaluate it after the scan, once `required` and the cheap checks
    /// passed (a large sibling is not walked before a discriminator fails).
    #[default]
    Deferred,
    /// As [`QuickCheck::Deferred`], except that an empty array passes at
    /// once: the schema is one array instruction whose bounds admit it
    /// (`tags: []`).
    EmptyArrayPasses,
    /// As [`QuickCheck::Deferred`], except that an empty object passes at
    /// once: the schema is one object instruction that admits it
    /// (`meta: {}`).
    EmptyObjectPasses,
}

impl QuickCheck {
    /// Whether a scan decides `value` during its pass: every check but
    /// the deferred ones, and an empty value that
    /// [`QuickCheck::EmptyArrayPasses`] or
    /// [`QuickCheck::EmptyObjectPasses`] admits.
    #[inline(always)]
    pub fn in_place(self, value: &Value) -> bool {
        match self {
            QuickCheck::Deferred => false,
            QuickCheck::EmptyArrayPasses => matches!(value, Value::Array(items) if items.is_empty()),
            QuickCheck::EmptyObjectPasses => matches!(value, Value::Object(map) if map.is_empty()),
            _ => true,
        }
    }

    /// The verdict on `value` of a check decided by the value alone (a
    /// leaf: [`QuickCheck::Valid`], [`QuickCheck::Invalid`], a type), as
    /// `type` decides it (`integer` admits `1.0` unless `strict_integers`);
    /// `None` for a check that evaluates its schema.
    #[inline(always)]
    pub fn leaf_verdict(self, value: &Value, strict_integers: bool) -> Option<bool> {
        match self {
            QuickCheck::Valid => Some(true),
            QuickCheck::Invalid => Some(false),
            QuickCheck::Types(types) => Some(types.admits(value, strict_integers)),
            QuickCheck::Integers => Some(crate::value::is_integer(value, strict_integers)),
            QuickCheck::Early | QuickCheck::Deferred | QuickCheck::EmptyArrayPasses | QuickCheck::EmptyObjectPasses => {
                None
            }
        }
    }

    /// Whether the check is a leaf ([`QuickCheck::leaf_verdict`] decides it).
    #[inline]
    pub fn is_leaf(self) -> bool {
        matches!(self, QuickCheck::Valid | QuickCheck::Invalid | QuickCheck::Types(_) | QuickCheck::Integers)
    }
}

/// What a scan that records nothing needs of a [`PropertyEntry`], kept in
/// its name's slot of [`ObjectChecks::names`] (eight bytes), so that
/// looking a name up reads no second table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct QuickEntry {
    /// [`PropertyEntry::schema`], if [`QuickEntry::schema`] has one.
    schema: NodeId,
    /// [`PropertyEntry::check`].
    pub check: QuickCheck,
    /// [`QuickEntry::HAS_SCHEMA`], [`QuickEntry::REQUIRED`],
    /// [`QuickEntry::HAS_PATTERNS`], [`QuickEntry::TRIGGER`]: one byte, so
    /// that the entry keeps to eight bytes.
    flags: u8,
}

impl QuickEntry {
    /// There is a `properties` subschema.
    const HAS_SCHEMA: u8 = 1;
    /// [`PropertyEntry::required`].
    const REQUIRED: u8 = 2;
    /// The name matches some `patternProperties` pattern, found
    /// statically ([`PropertyEntry::patterns`] is not empty).
    const HAS_PATTERNS: u8 = 4;
    /// The name has dependencies (`dependentRequired`,
    /// `dependentSchemas`, `dependencies`) that apply when it is present.
    pub const TRIGGER: u8 = 8;

    /// The summary of `entry`.
    pub fn of(entry: &PropertyEntry) -> QuickEntry {
        let flag = |set: bool, bit: u8| if set { bit } else { 0 };
        QuickEntry {
            schema: entry.schema.map_or(NodeId::default(), |_| entry.quick),
            check: entry.check,
            flags: flag(entry.schema.is_some(), Self::HAS_SCHEMA)
                | flag(entry.required, Self::REQUIRED)
                | flag(!entry.patterns.is_empty(), Self::HAS_PATTERNS)
                | flag(!entry.dependent_required().is_empty() || !entry.dependent_schemas().is_empty(), Self::TRIGGER),
        }
    }

    /// [`PropertyEntry::schema`] past its forwarding `$ref`s
    /// ([`PropertyEntry::quick`]).
    #[inline]
    pub fn schema(&self) -> Option<NodeId> {
        (self.flags & Self::HAS_SCHEMA != 0).then_some(self.schema)
    }

    /// [`PropertyEntry::required`].
    #[inline]
    pub fn required(&self) -> bool {
        self.flags & Self::REQUIRED != 0
    }

    /// Whether [`PropertyEntry::patterns`] has some pattern (meaningful
    /// when [`ObjectChecks::static_patterns`]).
    #[inline]
    pub fn has_patterns(&self) -> bool {
        self.flags & Self::HAS_PATTERNS != 0
    }

    /// The flags, for a scan that gathers them across names (see
    /// [`QuickEntry::TRIGGER`]).
    #[inline]
    pub fn flags(&self) -> u8 {
        self.flags
    }
}

impl ObjectChecks {
    /// Whether an empty object passes: no `minProperties` above zero and
    /// no `required` name (every other object keyword applies per
    /// property, or to present ones).
    #[inline]
    pub fn admits_empty(&self) -> bool {
        self.min_properties() == 0 && self.required.is_empty()
    }

    /// `minProperties` ([`ObjectExtras::min_properties`]).
    #[inline]
    pub fn min_properties(&self) -> u64 {
        self.extras.as_deref().map_or(0, |x| x.min_properties)
    }

    /// `maxProperties` ([`ObjectExtras::max_properties`]).
    #[inline]
    pub fn max_properties(&self) -> u64 {
        self.extras.as_deref().map_or(u64::MAX, |x| x.max_properties)
    }

    /// The keyword holding `additional`.
    pub fn additional_keyword(&self) -> &'static str {
        if self.additional_unevaluated { "unevaluatedProperties" } else { "additionalProperties" }
    }

    /// Entries with a dependency, in the schema's order.
    #[inline]
    pub fn dependents(&self) -> &[u32] {
        self.extras.as_deref().map_or(&[], |x| &x.dependents)
    }

    /// The declared property names (the entries with a schema, in the
    /// order of `names`), shared by every unknown-property error: listed
    /// by the first one (see [`ObjectExtras::lists_declared`]), empty
    /// where no property is ever unknown.
    pub fn declared(&self) -> std::sync::Arc<[String]> {
        let Some(x) = self.extras.as_deref().filter(|x| x.lists_declared) else {
            return std::sync::Arc::default();
        };
        let listed = x.declared.get_or_init(|| {
            let names = self.names.keys().zip(self.entries.iter());
            names.filter(|(_, e)| e.schema.is_some()).map(|(k, _)| k.to_string()).collect()
        });
        std::sync::Arc::clone(listed)
    }

    /// Sets what a quiet scan reads besides the entries: every name's
    /// [`QuickEntry`] and the [`ObjectChecks::passing_sizes`] (after the
    /// entries' [`PropertyEntry::check`] and the `additional_check` are
    /// decided).
    pub fn summarize_entries(&mut self) {
        let entries = &self.entries;
        self.names.set_payloads(|i| entries.get(i as usize).map(QuickEntry::of).unwrap_or_default());
        // A property matched by neither `properties` nor a pattern is
        // rejected: an object passes with at most the declared names.
        let closed =
            self.additional.is_some() && self.additional_check == QuickCheck::Invalid && self.patterns.is_empty();
        // (Counted from the entries: an object no error comes from keeps no
        // list of the declared names.)
        let declared =
            if closed { self.entries.iter().filter(|e| e.schema.is_some()).count() as u64 } else { u64::MAX };
        let required = u64::try_from(self.required.len()).unwrap_or(u64::MAX);
        self.passing_sizes = (self.min_properties().max(required), self.max_properties().min(declared));
    }
}

/// The parts of [`ObjectChecks`] that few objects have, or that only
/// errors read, boxed apart: the checks of the usual object, scanned for
/// every instance object, stay smaller.
#[derive(Debug, Clone)]
pub struct ObjectExtras {
    /// Entries with a dependency, in the schema's order.
    pub dependents: Box<[u32]>,
    /// Whether unknown-property errors list the declared names
    /// ([`ObjectChecks::declared`]): there is an `additional` (else no
    /// property is ever unknown) and a declared name.
    pub lists_declared: bool,
    /// The declared names, once an error has listed them: most
    /// validators never report an unknown property, and keep no strings.
    pub declared: std::sync::OnceLock<std::sync::Arc<[String]>>,
    /// `minProperties` (0 without one: no object has fewer). The quiet
    /// path reads [`ObjectChecks::passing_sizes`] instead.
    pub min_properties: u64,
    /// `maxProperties` (`u64::MAX` without one: no object has more).
    pub max_properties: u64,
}

impl ObjectExtras {
    /// The extras, boxed, or `None` when every part is empty (or, for the
    /// bounds, the default).
    pub fn boxed(self) -> Option<Box<ObjectExtras>> {
        let empty = self.dependents.is_empty()
            && !self.lists_declared
            && self.min_properties == 0
            && self.max_properties == u64::MAX;
        (!empty).then(|| Box::new(self))
    }
}

/// One `patternProperties` entry.
#[derive(Debug, Clone)]
pub struct PatternProperty {
    /// The pattern (shared by every use of the same pattern).
    pub regex: Arc<Regex>,
    /// The schema of the properties it matches.
    pub node: NodeId,
    /// `node` past its forwarding `$ref`s, as a quiet scan evaluates it
    /// (set with the entries; see [`PropertyEntry::quick`]).
    pub quick: NodeId,
}

/// Operands of [`Instr::Object`].
#[derive(Debug, Clone)]
pub struct ObjectChecks {
    /// A `type` keyword fused in at compile time, which admits this
    /// instruction's kind (for numbers, maybe only integers): values of
    /// other kinds must have one of its types, else they fail under `type`.
    pub type_fused: Option<TypeSet>,
    /// Every property name the object keywords mention, with its roles,
    /// each with its entry's [`QuickEntry`].
    pub names: KeyTable<QuickEntry>,
    /// Entry data, parallel to `names`.
    pub entries: Box<[PropertyEntry]>,
    /// Entries with `required`, in the schema's order (for messages).
    pub required: Box<[u32]>,
    /// `patternProperties`, in the schema's order.
    pub patterns: Box<[PatternProperty]>,
    /// Every entry's [`PropertyEntry::patterns`] is filled in, so a name
    /// found in `names` needs no pattern matching at run time (only names
    /// the schema does not mention are matched against `patterns`).
    pub static_patterns: bool,
    /// The schema for properties matched by neither `properties` nor
    /// `patternProperties`.
    pub additional: Option<NodeId>,
    /// How a quiet scan checks `additional` (see [`PropertyEntry::check`]).
    pub additional_check: QuickCheck,
    /// The node a quiet scan evaluates for `additional`: past its
    /// forwarding `$ref`s (set with the entries; see
    /// [`PropertyEntry::quick`]).
    pub additional_quick: NodeId,
    /// `additional` is `unevaluatedProperties` (resolved statically), not
    /// `additionalProperties` ([`ObjectChecks::additional_keyword`]).
    pub additional_unevaluated: bool,
    /// `propertyNames`.
    pub property_names: Option<NodeId>,
    /// What few objects have, or only errors read.
    pub extras: Option<Box<ObjectExtras>>,
    /// Whether the scan is needed at all (some entry has a schema or
    /// there are patterns, additional or property names).
    pub scans: bool,
    /// Whether a quiet scan (nothing recorded, annotated or tracked) is
    /// needed: some property could fail its schemas, or there are
    /// property names to check. Without one, the quiet path checks only
    /// the counts, `required` and the dependencies. Set with the entries.
    pub quiet_scan: bool,
    /// The fewest and most properties an object can have and pass
    /// (inclusive): at least `minProperties` and as many as `required`
    /// names; at most `maxProperties` and, when every undeclared property
    /// is rejected (`additional` rejects all values and there are no
    /// patterns), as many as the declared names. Set by
    /// [`ObjectChecks::summarize_entries`].
    pub passing_sizes: (u64, u64),
}

/// Operands of [`Instr::Cond`].
#[derive(Debug, Clone, Copy)]
pub struct Cond {
    /// `if`.
    pub test: NodeId,
    /// `then`.
    pub then: Option<NodeId>,
    /// `else`.
    pub otherwise: Option<NodeId>,
}

/// Operands of [`Instr::DynamicRef`].
#[derive(Debug, Clone)]
pub struct DynamicRef {
    /// The anchor name (`$dynamicAnchor`), or `None` for `$recursiveRef`
    /// (which looks for `$recursiveAnchor: true`).
    pub anchor: Option<Box<str>>,
    /// The statically resolved target, used when no resource in the
    /// dynamic scope defines the anchor.
    pub fallback: NodeId,
    /// The keyword: `$dynamicRef` or `$recursiveRef`.
    pub keyword: &'static str,
}

/// A property whose value, or absence, selects the `anyOf`/`oneOf`
/// alternatives that can match an object (see the compiler's
/// discriminator analysis).
#[derive(Debug, Clone)]
pub struct Discriminator {
    /// The property.
    pub property: Box<str>,
    /// The values some alternative pins the property to.
    pub values: KeyTable,
    /// Per value (parallel to `values`): the alternatives that can match
    /// it.
    pub slots: Box<[Candidates]>,
    /// Alternatives that pin nothing and do not forbid the property:
    /// candidates for every value it holds.
    pub always: Box<[u32]>,
    /// The alternatives that can match an object without the property
    /// (those not requiring it), in order; `None` when that is all of
    /// them.
    pub absent: Option<Box<[u32]>>,
}

/// The alternatives of a discriminated list that can match one value of
/// its property.
#[derive(Debug, Clone, Default)]
pub struct Candidates {
    /// Their indices (those admitting the value and those in
    /// [`Discriminator::always`]), in order.
    pub order: Box<[u32]>,
    /// When there is one, the node whose verdict is the list's while
    /// nothing is recorded or tracked: the candidate's node past its
    /// forwarding `$ref`s or, when that node is only another
    /// `anyOf`/`oneOf` discriminated by the same property (as OpenAPI's
    /// `parameter` within a `parameters` list), where that one leads for
    /// the same value, and so on: the nested lists are not evaluated.
    /// Filled by the compiler once every list has its discriminator.
    pub decisive: Option<NodeId>,
    /// When [`Candidates::decisive`] is one object instruction whose
    /// schema for the discriminating property admits every value leading
    /// here (a `const` or `enum` naming them, as tagged unions write it): a
    /// copy of that instruction without the property's check, which the
    /// value passes already, as the VM runs it in the node's place (never
    /// [`Decision::Node`]).
    pub pinned: Option<Decision>,
}

/// Where a discriminator sends an object while nothing is recorded or
/// tracked, when its value leaves one candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Evaluate this node ([`Candidates::decisive`]) in the list's place.
    Node(NodeId),
    /// Charge the decisive node's unit of fuel and run this object
    /// instruction ([`Candidates::pinned`]) in its place.
    Object(ObjectId),
    /// As [`Decision::Object`], for a decisive node that counts its depth
    /// ([`Entry::Counted`]): entered and left as that node would be.
    CountedObject(ObjectId),
}

impl Discriminator {
    /// The alternatives that can match an object whose property holds
    /// `value` (`None`: the object lacks it), in order; `None` when every
    /// alternative can.
    #[inline]
    pub fn candidates(&self, value: Option<&Value>) -> Option<&[u32]> {
        self.choose(value).map(|(order, _)| order)
    }

    /// [`Discriminator::candidates`] with, for a value that leaves one
    /// candidate, where it leads ([`Decision`]).
    #[inline]
    pub fn choose(&self, value: Option<&Value>) -> Option<(&[u32], Option<Decision>)> {
        match value {
            Some(Value::String(s)) => Some(match self.values.find(s).and_then(|i| self.slots.get(i as usize)) {
                Some(slot) => (&slot.order, slot.pinned.or(slot.decisive.map(Decision::Node))),
                None => (&self.always, None),
            }),
            Some(_) => Some((&self.always, None)),
            None => self.absent.as_deref().map(|order| (order, None)),
        }
    }
}

/// Asserted content keywords.
#[derive(Debug, Clone, Default)]
pub struct ContentChecks {
    /// `contentEncoding` (only `base64` is asserted).
    pub base64: bool,
    /// `contentMediaType: application/json`.
    pub json: bool,
    /// `contentSchema`, applied to the decoded JSON.
    pub schema: Option<NodeId>,
}

/// A set of `enum` values.
#[derive(Debug, Clone)]
pub struct EnumSet {
    /// The values, in schema order (shared with the `enum` errors that
    /// list them).
    pub values: std::sync::Arc<[Value]>,
    /// Fast lookup of the string members.
    pub strings: KeyTable,
    /// The members that are machine integers (`i64`), sorted and
    /// deduplicated, for a binary search.
    pub integers: Box<[i64]>,
    /// Whether a member is a number that is not in `integers` (a float or
    /// a larger integer): a machine integer instance must then be compared
    /// with the members too (`1.0` equals `1`).
    pub other_numbers: bool,
    /// Whether every value is a string.
    pub all_strings: bool,
    /// A `type` fused in at compile time (written just before `enum`),
    /// checked first.
    pub type_fused: Option<TypeSet>,
}

impl EnumSet {
    /// Whether the fused `type` can only fail where the enum fails too
    /// (every value is a string and the type admits strings): a check
    /// that records nothing can skip it.
    #[inline]
    pub fn type_implied(&self) -> bool {
        self.all_strings && self.type_fused.is_none_or(|t| t.contains(JsonType::String))
    }

    /// Builds the set of `values` (lookups of its strings and integers).
    pub fn new(values: Vec<Value>) -> EnumSet {
        let mut strings: Vec<Box<str>> = Vec::new();
        let mut seen = crate::hash::TextSet::default();
        for s in values.iter().filter_map(Value::as_str) {
            if seen.insert(s) {
                strings.push(s.into());
            }
        }
        let mut integers: Vec<i64> = values.iter().filter_map(Value::as_i64).collect();
        integers.sort_unstable();
        integers.dedup();
        let other_numbers = values.iter().any(|v| v.is_number() && v.as_i64().is_none());
        EnumSet {
            all_strings: values.iter().all(Value::is_string),
            values: values.into(),
            strings: KeyTable::new(strings),
            integers: integers.into_boxed_slice(),
            other_numbers,
            type_fused: None,
        }
    }
}

/// A schema resource: a schema with its own base URI.
#[derive(Debug, Clone)]
pub struct Resource {
    /// The base URI.
    pub uri: Box<str>,
    /// `$dynamicAnchor`s defined in this resource, by name.
    pub dynamic_anchors: Box<[(Box<str>, NodeId)]>,
    /// The resource root, if it has `$recursiveAnchor: true`.
    pub recursive_anchor: Option<NodeId>,
}

/// Settings baked into a program at compile time.
#[derive(Debug, Clone, Copy, Default)]
pub struct ProgramFlags {
    /// Some instruction resolves through the dynamic scope.
    pub uses_dynamic_scope: bool,
    /// `integer` excludes integral floats (`1.0`): draft-04.
    pub strict_integers: bool,
    /// The dialect of the root schema.
    pub draft: crate::draft::Draft,
}

/// The nodes' absolute schema locations, end to end in one string: one
/// allocation for all of them, where a string per node cost a compile an
/// allocation (and its header) per subschema.
#[derive(Debug, Clone, Default)]
pub(crate) struct NodeLocations {
    text: Box<str>,
    /// Where each node's location ends in `text`; it starts where the
    /// previous one ends. (`u32`: the text is at most 4 GiB,
    /// [`Limits::max_location_bytes`](crate::Limits::max_location_bytes).)
    ends: Box<[u32]>,
}

impl NodeLocations {
    /// The location of the node at `index` (empty if there is none).
    pub(crate) fn get(&self, index: usize) -> &str {
        let start = match index.checked_sub(1) {
            Some(previous) => self.ends.get(previous).copied().unwrap_or(0),
            None => 0,
        };
        self.ends.get(index).and_then(|&end| self.text.get(start as usize..end as usize)).unwrap_or("")
    }

    /// How many locations it holds.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }
}

/// [`NodeLocations`] while the compiler writes them, one node after another.
#[derive(Debug, Default)]
pub(crate) struct LocationWriter {
    text: String,
    ends: Vec<u32>,
}

impl LocationWriter {
    /// Room for `nodes` locations of `bytes` bytes together.
    pub(crate) fn with_capacity(nodes: usize, bytes: usize) -> LocationWriter {
        LocationWriter { text: String::with_capacity(bytes), ends: Vec::with_capacity(nodes) }
    }

    /// Appends the next node's location, written by `write` to the end
    /// of the text (it must only append). If the text is then over `max`
    /// bytes or 4 GiB, the location is not kept and the length it would
    /// have reached is the `Err`.
    pub(crate) fn push_with(&mut self, max: usize, write: impl FnOnce(&mut String)) -> Result<(), usize> {
        let start = self.text.len();
        write(&mut self.text);
        let len = self.text.len();
        match u32::try_from(len) {
            Ok(end) if len <= max => {
                self.ends.push(end);
                Ok(())
            }
            _ => {
                self.text.truncate(start);
                Err(len)
            }
        }
    }

    /// The locations written, without spare room.
    pub(crate) fn finish(self) -> NodeLocations {
        NodeLocations { text: self.text.into_boxed_str(), ends: self.ends.into_boxed_slice() }
    }
}

/// A compiled schema.
///
/// Its tables are boxed slices, not vectors: a compiled program never
/// grows, and a program is often one of many small ones, so each table
/// costs two words in place rather than three. The instructions' operand
/// tables ([`Operands`]) are boxed together, and kept only when one of
/// them has an entry; so are the tables few programs use (`if`, dynamic
/// references, content checks, kept cost bounds, and the schema resources
/// that only dynamic references read), and the static annotations, on
/// their own.
#[derive(Debug)]
pub struct Program {
    pub(crate) nodes: Box<[Node]>,
    /// Each node's absolute schema location, `<base URI>#<JSON pointer>`
    /// (parallel to `nodes`; apart from them, which only the VM's hot
    /// paths read).
    pub(crate) locations: NodeLocations,
    pub(crate) code: Box<[Instr]>,
    pub(crate) root: NodeId,
    pub(crate) flags: ProgramFlags,
    /// The instructions' operands, when some instruction has one (while
    /// compiling, always).
    pub(crate) operands: Option<Box<Operands>>,
    /// The static annotations, when some node has any (apart from the
    /// rare tables: most schemas met in practice have a `description`
    /// somewhere, and it alone should not cost all of those).
    pub(crate) annotations: Option<Box<AnnotationTable>>,
    /// The other tables, when one of them has an entry (while compiling,
    /// always).
    pub(crate) rare: Option<Box<RareTables>>,
}

/// One list of subschemas (of an `allOf`, `anyOf` or `oneOf`) and what
/// the compiler found out about it for the boolean path. Kept together,
/// one entry per list: an `anyOf`/`oneOf` reads several of these parts
/// at once, and a program without lists pays for no per-list table.
#[derive(Debug, Clone, Default)]
pub(crate) struct ListEntry {
    /// The subschemas, in schema order.
    pub(crate) nodes: Box<[NodeId]>,
    /// The same nodes each followed past its chain of forwarding `$ref`s
    /// ([`Entry::Forward`]) to the node that does the work, for
    /// evaluations that record nothing (set with the node entries).
    pub(crate) quick: Box<[NodeId]>,
    /// For an `anyOf`/`oneOf`: which alternatives admit each kind of
    /// value (none for lists of more than 64, and lists whose
    /// alternatives all admit everything). In place, not boxed: an
    /// `anyOf`/`oneOf` reads them before anything else.
    pub(crate) masks: Option<AlternativeMasks>,
    /// What narrows an `anyOf`/`oneOf` by an object's members, if
    /// anything does.
    pub(crate) by_members: Option<Box<ObjectNarrowing>>,
    /// The [`TypeSwitch`] of an `anyOf`/`oneOf` whose alternatives split
    /// the kinds of values (set with the node entries).
    pub(crate) type_switch: Option<Box<TypeSwitch>>,
}

impl ListEntry {
    /// The list's discriminator, if it has one.
    pub(crate) fn discriminator(&self) -> Option<&Discriminator> {
        self.by_members.as_deref().and_then(|b| b.discriminator.as_ref())
    }

    /// The list's discriminator, to fill in.
    pub(crate) fn discriminator_mut(&mut self) -> Option<&mut Discriminator> {
        self.by_members.as_deref_mut().and_then(|b| b.discriminator.as_mut())
    }

    /// Sets the list's discriminator.
    pub(crate) fn set_discriminator(&mut self, d: Option<Discriminator>) {
        self.narrow(|b| b.discriminator = d);
    }

    /// Sets the list's presence list.
    pub(crate) fn set_presence(&mut self, p: PresenceList) {
        self.narrow(|b| b.presence = Some(p));
    }

    /// Sets the list's name filter.
    pub(crate) fn set_name_filter(&mut self, f: NameFilter) {
        self.narrow(|b| b.names = Some(Box::new(f)));
    }

    /// Sets the list's condition switch.
    pub(crate) fn set_switch(&mut self, s: Option<ConditionSwitch>) {
        self.narrow(|b| b.switch = s);
    }

    /// Changes [`ListEntry::by_members`], which stays `None` while it
    /// narrows nothing.
    fn narrow(&mut self, change: impl FnOnce(&mut ObjectNarrowing)) {
        let mut b = self.by_members.take().map_or_else(ObjectNarrowing::default, |b| *b);
        change(&mut b);
        if b.discriminator.is_some() || b.presence.is_some() || b.switch.is_some() || b.names.is_some() {
            self.by_members = Some(Box::new(b));
        }
    }
}

/// What narrows a list by an object's members on the boolean path: for
/// an `anyOf`/`oneOf`, its presence list and discriminator; for an
/// `allOf`, its condition switch. One box per list, so that a list
/// without any reads one word for all.
#[derive(Debug, Clone, Default)]
pub struct ObjectNarrowing {
    /// The list's name filter: rules out the alternatives an object's
    /// names fail (read first; a list with one has no presence list, and
    /// a discriminator that pins no value). Boxed: few lists have one.
    pub names: Option<Box<NameFilter>>,
    /// The list's presence list: decides an object outright.
    pub presence: Option<PresenceList>,
    /// The list's discriminator: chooses the candidates.
    pub discriminator: Option<Discriminator>,
    /// The `allOf`'s condition switch: chooses the `then` schemas that
    /// apply.
    pub switch: Option<ConditionSwitch>,
}

/// An `allOf` of `if`/`then` conditions on one property's value, the way
/// schemas without a `oneOf` write a tagged union:
/// `{"if": {"properties": {"type": {"const": "markdown"}}}, "then": ...}`
/// once per tag (`if` may also require the property, or name an `enum`
/// of strings). On an object, each `if` passes exactly when the property
/// holds one of its values, or is absent and not required there: the
/// boolean path runs the `then` schemas those choose, and the members
/// that are not such conditions, instead of every `if`.
#[derive(Debug, Clone)]
pub struct ConditionSwitch {
    /// The property.
    pub property: Box<str>,
    /// Every value some condition names.
    pub values: KeyTable,
    /// Per value (parallel to `values`): the `then` schemas of the
    /// conditions naming it, in order.
    pub slots: Box<[Box<[NodeId]>]>,
    /// The `then` schemas of the conditions that pass an object without
    /// the property (their `if` does not require it), in order.
    pub absent: Box<[NodeId]>,
    /// The members that are not such conditions: they always run.
    pub always: Box<[NodeId]>,
}

/// An `anyOf`/`oneOf` whose alternatives each only require property
/// names (`{"required": ["a", "b"]}`, or `{}`, which requires none): on
/// an object, an alternative passes when the object has every name it
/// requires. Schemas in the wild spell "at least one of", "exactly one
/// of" and, under `not`, "none of" these properties this way, sometimes
/// with a hundred alternatives; the VM decides an object from one pass
/// over its members instead of one alternative at a time.
#[derive(Debug, Clone)]
pub struct PresenceList {
    /// Every name some alternative requires. When [`PresenceList::sets`]
    /// is `None`, each name's payload is how many alternatives require
    /// it (and nothing else).
    pub names: KeyTable<u32>,
    /// Per alternative, in order, the indices in `names` of the names it
    /// requires; `None` when every alternative requires exactly one name
    /// (the payloads then decide). At most [`PresenceList::MOST_NAMES`]
    /// names when present.
    pub sets: Option<Box<[Box<[u8]>]>>,
    /// The number of alternatives.
    pub alternatives: u32,
}

/// An `anyOf`/`oneOf` of up to 64 alternatives some of which reject
/// objects by their names: closed objects (`additionalProperties: false`)
/// that reject every name they do not declare, alternatives that
/// `required` names. Schemas in the wild write unions of wrapper objects
/// this way (`{"step": ...}` or `{"parallel": ...}`, each closed; Rust
/// enums as schemars writes them, one required, closed variant per
/// name). On an object the VM looks each name up once and runs only the
/// alternatives every name admits and whose required names are all
/// there, rather than each alternative in turn.
///
/// An alternative *rejects* a name when, at its own location (through
/// `$ref` and `allOf`, and nested `anyOf`/`oneOf` that all do), an
/// object keyword gives it the `false` schema, or neither declares it
/// nor has a pattern that may match it while `additionalProperties`
/// rejects every value; it *requires* a name when `required` there
/// names it. Both only ever rule out alternatives that fail the object.
#[derive(Debug, Clone)]
pub struct NameFilter {
    /// Every name an alternative declares or requires, with the
    /// alternatives admitting it and its bit among the required names.
    pub names: KeyTable<NameBits>,
    /// The alternatives that admit objects at all (their `type` allows
    /// them), bit `i` for alternative `i`.
    pub objects: u64,
    /// The alternatives admitting a name outside `names`: those not
    /// closed to every undeclared name.
    pub others: u64,
    /// Per alternative, the bits of the names it requires (see
    /// [`NameBits::required`]).
    pub required: Box<[u64]>,
}

/// What [`NameFilter::names`] holds for one name.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NameBits {
    /// The alternatives admitting the name, bit `i` for alternative `i`.
    pub admitted: u64,
    /// The name's own bit among the names some alternative requires (at
    /// most 64 of them), or 0 when none requires it.
    pub required: u64,
}

impl NameFilter {
    /// Most alternatives a filter covers: one bit each.
    pub const MOST_ALTERNATIVES: usize = 64;

    /// The alternatives that may pass an object with these `names`: bit
    /// `i` for alternative `i`. Each name is looked up once (the caller
    /// charges a unit of fuel per name).
    #[inline]
    pub fn candidates<'a>(&self, names: impl Iterator<Item = &'a String>) -> u64 {
        let mut left = self.objects;
        let mut seen = 0u64;
        for name in names {
            match self.names.find_with_payload(name) {
                Some((_, bits)) => {
                    left &= bits.admitted;
                    seen |= bits.required;
                }
                None => left &= self.others,
            }
            if left == 0 {
                return 0;
            }
        }
        let mut passing = left;
        let mut rest = left;
        while rest != 0 {
            let i = rest.trailing_zeros();
            rest &= rest - 1;
            if self.required.get(i as usize).is_some_and(|&r| r & !seen != 0) {
                passing &= !(1u64 << i);
            }
        }
        passing
    }
}

impl PresenceList {
    /// Most names a list of [`PresenceList::sets`] has: a set's indices
    /// are bytes, and the names an object has fit a bitset of four
    /// words.
    pub const MOST_NAMES: usize = 256;
}

/// The static annotations of a program's nodes: those of each node that
/// has any, sorted by node.
#[derive(Debug)]
pub(crate) struct AnnotationTable(pub(crate) Box<[(NodeId, Box<[Annotation]>)]>);

/// The operand tables of a [`Program`]: what its `const`, `enum`, number,
/// string, array, object and list instructions refer to by id. Boxed
/// together, apart from the nodes and code every program has, so that a
/// program of verdicts and bare types (`true`, `false`,
/// `{"type": "string"}`) keeps one word for all seven rather than two
/// words each.
#[derive(Debug, Default)]
pub struct Operands {
    pub(crate) values: Box<[Value]>,
    pub(crate) enums: Box<[EnumSet]>,
    pub(crate) numbers: Box<[NumberChecks]>,
    pub(crate) strings: Box<[StringChecks]>,
    pub(crate) arrays: Box<[ArrayChecks]>,
    pub(crate) objects: Box<[ObjectChecks]>,
    /// The `allOf`/`anyOf`/`oneOf` lists, by [`ListId`].
    pub(crate) lists: Box<[ListEntry]>,
}

impl Operands {
    /// The tables of every program without operands (out of line: a
    /// program that reads them has some).
    #[cold]
    #[inline(never)]
    fn empty() -> &'static Operands {
        static EMPTY: std::sync::OnceLock<Operands> = std::sync::OnceLock::new();
        EMPTY.get_or_init(Operands::default)
    }

    /// Whether every table is empty.
    fn is_empty(&self) -> bool {
        self.values.is_empty()
            && self.enums.is_empty()
            && self.numbers.is_empty()
            && self.strings.is_empty()
            && self.arrays.is_empty()
            && self.objects.is_empty()
            && self.lists.is_empty()
    }

    /// A `const` value.
    #[inline]
    pub fn value(&self, id: ValueId) -> &Value {
        &self.values[id.index()]
    }
    /// An `enum` set.
    #[inline]
    pub fn enum_set(&self, id: EnumId) -> &EnumSet {
        &self.enums[id.index()]
    }
    /// Number checks.
    #[inline]
    pub fn number(&self, id: NumberId) -> &NumberChecks {
        &self.numbers[id.index()]
    }
    /// String checks.
    #[inline]
    pub fn string(&self, id: StringId) -> &StringChecks {
        &self.strings[id.index()]
    }
    /// Array checks.
    #[inline]
    pub fn array(&self, id: ArrayId) -> &ArrayChecks {
        &self.arrays[id.index()]
    }
    /// Object checks.
    #[inline]
    pub fn object(&self, id: ObjectId) -> &ObjectChecks {
        &self.objects[id.index()]
    }
    /// A node list.
    #[inline]
    pub fn list(&self, id: ListId) -> &[NodeId] {
        &self.lists[id.index()].nodes
    }
    /// List `id` with each node followed past its forwarding `$ref`s: what
    /// an evaluation that records nothing runs in its place (the hops, which
    /// only pass the value on, are not charged; error locations, which
    /// name each `$ref`, come from [`Operands::list`]).
    #[inline]
    pub fn quick_list(&self, id: ListId) -> &[NodeId] {
        &self.lists[id.index()].quick
    }
    /// What narrows the alternatives of list `id` on the boolean path: its
    /// [type switch](Operands::type_switch), its
    /// [quick list](Operands::quick_list) and its
    /// [discriminator](Operands::discriminator), read at once.
    #[inline]
    pub fn narrowing(&self, id: ListId) -> Narrowing<'_> {
        let l = &self.lists[id.index()];
        Narrowing { switch: l.type_switch.as_deref(), quick: &l.quick, by_members: l.by_members.as_deref() }
    }
    /// The [`PresenceList`] of an `anyOf`/`oneOf` list, if it has one.
    #[inline]
    pub fn presence(&self, id: ListId) -> Option<&PresenceList> {
        self.lists.get(id.index()).and_then(|l| l.by_members.as_deref()?.presence.as_ref())
    }
    /// The [`NameFilter`] of an `anyOf`/`oneOf` list, if it has one.
    #[inline]
    pub fn name_filter(&self, id: ListId) -> Option<&NameFilter> {
        self.lists.get(id.index()).and_then(|l| l.by_members.as_deref()?.names.as_deref())
    }
    /// The [`ConditionSwitch`] of an `allOf` list, if it has one.
    #[inline]
    pub fn condition_switch(&self, id: ListId) -> Option<&ConditionSwitch> {
        self.lists.get(id.index()).and_then(|l| l.by_members.as_deref()?.switch.as_ref())
    }
    /// The discriminator of an `anyOf`/`oneOf` list, if it has one.
    #[inline]
    pub fn discriminator(&self, id: ListId) -> Option<&Discriminator> {
        self.lists.get(id.index()).and_then(ListEntry::discriminator)
    }
    /// Which alternatives of list `id` (of an `anyOf`/`oneOf`) admit
    /// each kind of value, if known.
    #[inline]
    pub fn alternative_masks(&self, id: ListId) -> Option<&AlternativeMasks> {
        self.lists.get(id.index()).and_then(|l| l.masks.as_ref())
    }
    /// The [`TypeSwitch`] of list `id` (of an `anyOf`/`oneOf`), if its
    /// alternatives split the kinds of values.
    #[inline]
    pub fn type_switch(&self, id: ListId) -> Option<&TypeSwitch> {
        self.lists.get(id.index()).and_then(|l| l.type_switch.as_deref())
    }
}

/// What narrows the alternatives of an `anyOf`/`oneOf` on the boolean
/// path ([`Operands::narrowing`]).
#[derive(Debug, Clone, Copy)]
pub struct Narrowing<'p> {
    /// The list's [type switch](Operands::type_switch).
    pub switch: Option<&'p TypeSwitch>,
    /// The list's [quick list](Operands::quick_list).
    pub quick: &'p [NodeId],
    /// The list's [discriminator](Operands::discriminator),
    /// [presence list](Operands::presence) and
    /// [name filter](Operands::name_filter).
    pub by_members: Option<&'p ObjectNarrowing>,
}

/// The tables of a [`Program`] that most small programs leave empty
/// (`None` when they all are).
#[derive(Debug, Default)]
pub(crate) struct RareTables {
    pub(crate) conds: Box<[Cond]>,
    pub(crate) dynamic_refs: Box<[DynamicRef]>,
    pub(crate) contents: Box<[ContentChecks]>,
    /// Each node's cost bounds, when kept
    /// ([`CompileOptions::keep_cost_bounds`](crate::CompileOptions::keep_cost_bounds)).
    pub(crate) costs: Box<[NodeCost]>,
    /// The schema resources, by [`ResourceId`]: kept only in a program
    /// that [uses a dynamic scope](ProgramFlags::uses_dynamic_scope), the
    /// only one that reads them while evaluating.
    pub(crate) resources: Box<[Resource]>,
    /// The tracked code of the nodes whose `unevaluatedProperties` the
    /// boolean path resolves statically, by node ([`Program::tracked_code`]).
    pub(crate) tracked: Box<[TrackedCode]>,
}

/// Where a node's tracked code lies in [`Program::code`] (after every
/// node's own code).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TrackedCode {
    pub(crate) node: NodeId,
    pub(crate) start: u32,
    pub(crate) end: u32,
}

impl RareTables {
    /// Whether every table is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.conds.is_empty()
            && self.dynamic_refs.is_empty()
            && self.contents.is_empty()
            && self.costs.is_empty()
            && self.resources.is_empty()
            && self.tracked.is_empty()
    }
}

/// Which alternatives of an `anyOf`/`oneOf` admit a value of each kind,
/// from their [`Node::admitted_types`] (bit `i` for alternative `i`): an
/// evaluation that records nothing runs only those, without reading the
/// other alternatives' nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlternativeMasks {
    null: u64,
    boolean: u64,
    /// Alternatives admitting every number.
    number: u64,
    /// Alternatives admitting integers (a superset of `number`).
    integer: u64,
    string: u64,
    array: u64,
    object: u64,
    /// Every alternative.
    all: u64,
}

impl AlternativeMasks {
    /// The masks of alternatives admitting `types`, in order; `None` for
    /// more than 64 alternatives.
    pub fn new(types: &[TypeSet]) -> Option<AlternativeMasks> {
        if types.len() > 64 {
            return None;
        }
        let mask = |t: JsonType| {
            types.iter().enumerate().filter(|(_, set)| set.contains(t)).fold(0u64, |m, (i, _)| m | 1 << i)
        };
        Some(AlternativeMasks {
            null: mask(JsonType::Null),
            boolean: mask(JsonType::Boolean),
            number: mask(JsonType::Number),
            integer: mask(JsonType::Integer) | mask(JsonType::Number),
            string: mask(JsonType::String),
            array: mask(JsonType::Array),
            object: mask(JsonType::Object),
            // `types.len() <= 64`; a shift by 64 (no alternatives) is none.
            all: u32::try_from(64 - types.len()).ok().and_then(|gap| u64::MAX.checked_shr(gap)).unwrap_or(0),
        })
    }

    /// The alternatives whose admitted types admit `value` (as
    /// [`TypeSet::admits`] decides, with `strict_integers`).
    #[inline]
    pub fn admitting(&self, value: &Value, strict_integers: bool) -> u64 {
        match value {
            Value::Null => self.null,
            Value::Bool(_) => self.boolean,
            Value::Number(_) => {
                if self.integer != self.number && TypeSet::single(JsonType::Integer).admits(value, strict_integers) {
                    self.integer
                } else {
                    self.number
                }
            }
            Value::String(_) => self.string,
            Value::Array(_) => self.array,
            Value::Object(_) => self.object,
        }
    }

    /// Every alternative.
    #[inline]
    pub fn all(&self) -> u64 {
        self.all
    }

    /// The switch of a list whose alternatives have these masks, if at most
    /// one alternative admits each kind of value. `target(i, kind)`: the
    /// target of alternative `i` for values of `kind` (`None`: no switch).
    pub fn switch(&self, target: impl Fn(usize, JsonType) -> Option<Target>) -> Option<TypeSwitch> {
        let pick = |mask: u64, kind: JsonType| match mask.count_ones() {
            0 => Some(Target::Invalid),
            1 => target(mask.trailing_zeros() as usize, kind),
            _ => None,
        };
        Some(TypeSwitch {
            targets: [
                pick(self.null, JsonType::Null)?,
                pick(self.boolean, JsonType::Boolean)?,
                pick(self.integer, JsonType::Integer)?,
                pick(self.number, JsonType::Number)?,
                pick(self.string, JsonType::String)?,
                pick(self.array, JsonType::Array)?,
                pick(self.object, JsonType::Object)?,
            ],
            split_integers: self.integer != self.number,
        })
    }
}

/// An `anyOf`/`oneOf` whose alternatives split the kinds of values
/// between them, at most one admitting each kind (`oneOf: [{type:
/// string}, {type: array, ...}, {type: object, ...}]`): for an evaluation
/// that records and tracks nothing, the verdict is the one alternative's
/// that admits the value's kind (or `false` if none does), found by one
/// lookup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeSwitch {
    /// Per kind of value: null, boolean, integer, other numbers, string,
    /// array, object.
    targets: [Target; 7],
    /// Whether integers have a target of their own (else numbers' serves).
    split_integers: bool,
}

impl TypeSwitch {
    /// The target for `value` (`strict_integers`: see [`TypeSet::admits`]).
    #[inline]
    pub fn target(&self, value: &Value, strict_integers: bool) -> Target {
        let kind = match value {
            Value::Null => 0,
            Value::Bool(_) => 1,
            Value::Number(_)
                if self.split_integers && TypeSet::single(JsonType::Integer).admits(value, strict_integers) =>
            {
                2
            }
            Value::Number(_) => 3,
            Value::String(_) => 4,
            Value::Array(_) => 5,
            Value::Object(_) => 6,
        };
        self.targets.get(kind).copied().unwrap_or(Target::Invalid)
    }
}

impl Program {
    /// The entry node.
    #[inline]
    pub fn root(&self) -> NodeId {
        self.root
    }
    /// Program-wide settings.
    #[inline]
    pub fn flags(&self) -> ProgramFlags {
        self.flags
    }
    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }
    /// Number of instructions.
    pub fn instruction_count(&self) -> usize {
        self.code.len()
    }
    /// A node.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }
    /// A node's instructions.
    #[inline]
    pub fn code(&self, id: NodeId) -> &[Instr] {
        self.code_of(&self.nodes[id.index()])
    }
    /// Node `id` past its forwarding `$ref`s ([`Entry::Forward`] nodes,
    /// which all have the verdict of the node they lead to), at most
    /// [`FORWARD_HOPS`] of them (a longer chain, even a cycle, stops
    /// there: its evaluation is left to the node's entry).
    #[inline]
    pub fn past_forwards(&self, id: NodeId) -> NodeId {
        past_forwards(&self.nodes, id)
    }
    /// The instructions of a node of this program.
    #[inline]
    pub fn code_of(&self, node: &Node) -> &[Instr] {
        &self.code[node.code_start as usize..node.code_end as usize]
    }
    /// The code an evaluation that records errors or builds output units
    /// runs for node `id` in place of [`Program::code_of`], if it differs:
    /// for a node whose `unevaluatedProperties` the boolean path resolves
    /// statically (its code then checks the properties its in-place
    /// subschemas do not name, as `additionalProperties` would), the code
    /// that tracks evaluated properties, and reports and annotates as the
    /// keyword's definition says. It runs with tracking on.
    #[inline]
    pub fn tracked_code(&self, id: NodeId) -> Option<&[Instr]> {
        let table = self.rare_table(|r| &r.tracked);
        if table.is_empty() {
            return None;
        }
        let t = table.get(table.binary_search_by_key(&id, |t| t.node).ok()?)?;
        self.code.get(t.start as usize..t.end as usize)
    }
    /// An `if`/`then`/`else`.
    #[inline]
    pub fn cond(&self, id: CondId) -> &Cond {
        &self.rare_table(|r| &r.conds)[id.index()]
    }
    /// A dynamic reference.
    #[inline]
    pub fn dynamic_ref(&self, id: DynamicRefId) -> &DynamicRef {
        &self.rare_table(|r| &r.dynamic_refs)[id.index()]
    }
    /// Content checks.
    #[inline]
    pub fn content(&self, id: ContentId) -> &ContentChecks {
        &self.rare_table(|r| &r.contents)[id.index()]
    }
    /// A resource; `None` in a program that does not
    /// [use a dynamic scope](ProgramFlags::uses_dynamic_scope) (it keeps
    /// none).
    #[inline]
    pub fn resource(&self, id: ResourceId) -> Option<&Resource> {
        self.rare_table(|r| &r.resources).get(id.index())
    }
    /// The static annotations of a node (`title`, `description`,
    /// `default`, `examples`, `deprecated`, `readOnly`, `writeOnly`,
    /// `format`, the content keywords and unknown keywords), in schema
    /// order; empty when compiled with
    /// [`CompileOptions::skip_annotations`](crate::CompileOptions::skip_annotations).
    pub fn annotations(&self, id: NodeId) -> &[Annotation] {
        let annotations = self.annotations.as_deref().map_or(&[][..], |t| &t.0);
        match annotations.binary_search_by_key(&id, |(n, _)| *n) {
            Ok(i) => annotations.get(i).map_or(&[], |(_, a)| &**a),
            Err(_) => &[],
        }
    }

    /// A node's absolute schema location: `<base URI>#<JSON pointer>`.
    #[inline]
    pub fn location(&self, id: NodeId) -> &str {
        self.locations.get(id.index())
    }
    /// The cost bounds of a node (zero for nodes that are never entries);
    /// `None` unless the program was compiled with
    /// [`CompileOptions::keep_cost_bounds`](crate::CompileOptions::keep_cost_bounds).
    pub fn cost(&self, id: NodeId) -> Option<NodeCost> {
        let costs = self.rare_table(|r| &r.costs);
        if costs.is_empty() {
            return None;
        }
        Some(costs.get(id.index()).copied().unwrap_or_default())
    }
    /// Every node id.
    pub fn node_ids(&self) -> impl Iterator<Item = NodeId> {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    /// The operand tables (all empty when the program holds none).
    #[inline]
    pub fn operands(&self) -> &Operands {
        match self.operands.as_deref() {
            Some(operands) => operands,
            None => Operands::empty(),
        }
    }
    /// The operand tables, to change while compiling (created empty if
    /// the program holds none).
    pub(crate) fn operands_mut(&mut self) -> &mut Operands {
        self.operands.get_or_insert_with(Box::default)
    }

    /// A table of [`RareTables`] (empty when the program holds none).
    #[inline]
    pub(crate) fn rare_table<T>(&self, table: impl FnOnce(&RareTables) -> &[T]) -> &[T] {
        self.rare.as_deref().map_or(&[], table)
    }

    /// Drops the [`Operands`] when they are all empty: the last step of a
    /// compilation. (The [`RareTables`] are left out when empty, and hold
    /// the resources only for a dynamic scope.)
    pub(crate) fn drop_empty_tables(&mut self) {
        if self.operands.as_deref().is_some_and(Operands::is_empty) {
            self.operands = None;
        }
    }

    /// Checks the invariant that every stored id is in range. Called once
    /// by the compiler; a failure is a compiler bug, reported as an error
    /// rather than a later panic.
    pub(crate) fn check_ids(&self) -> Result<(), String> {
        let node_ok = |n: NodeId| n.index() < self.nodes.len();
        let all_nodes = |ns: &[NodeId]| ns.iter().all(|n| node_ok(*n));
        let ok_opt = |n: Option<NodeId>| n.is_none_or(node_ok);
        let fail = |what: &str| Err(format!("internal compiler error: dangling {what} id"));
        if !node_ok(self.root) {
            return fail("root");
        }
        let (conds, dynamic_refs, contents, resources, tracked) = (
            self.rare_table(|r| &r.conds),
            self.rare_table(|r| &r.dynamic_refs),
            self.rare_table(|r| &r.contents),
            self.rare_table(|r| &r.resources),
            self.rare_table(|r| &r.tracked),
        );
        let ops = self.operands();
        if self.locations.len() != self.nodes.len() {
            return fail("node location");
        }
        for n in &self.nodes {
            let first = self.code.get(n.code_start as usize).filter(|_| n.code_end > n.code_start);
            if n.code_start > n.code_end
                || n.code_end as usize > self.code.len()
                || (self.flags.uses_dynamic_scope && n.resource.index() >= resources.len())
                || n.first.as_ref() != first
            {
                return fail("node range");
            }
        }
        let sorted = tracked.windows(2).all(|w| matches!(w, [a, b] if a.node < b.node));
        if !sorted || !tracked.iter().all(|t| node_ok(t.node) && t.start <= t.end && t.end as usize <= self.code.len())
        {
            return fail("tracked code");
        }
        for i in &self.code {
            let ok = match *i {
                Instr::Fail | Instr::Type(_) => true,
                Instr::Const(v) => v.index() < ops.values.len(),
                Instr::Enum(e) => e.index() < ops.enums.len(),
                Instr::Number(x) => x.index() < ops.numbers.len(),
                Instr::String(x) => x.index() < ops.strings.len(),
                Instr::Array(x) => x.index() < ops.arrays.len(),
                Instr::Object(x) => x.index() < ops.objects.len(),
                Instr::AllOf(l) | Instr::AnyOf(l) | Instr::OneOf(l) => l.index() < ops.lists.len(),
                Instr::Not(n) | Instr::Ref(n) => node_ok(n),
                Instr::UnevaluatedProperties(n) | Instr::UnevaluatedItems(n) => node_ok(n),
                Instr::Cond(c) => c.index() < conds.len(),
                Instr::DynamicRef(d) => d.index() < dynamic_refs.len(),
                Instr::Content(c) => c.index() < contents.len(),
            };
            if !ok {
                return fail("instruction operand");
            }
        }
        if !ops.lists.iter().all(|l| all_nodes(&l.nodes) && l.quick.len() == l.nodes.len() && all_nodes(&l.quick))
            || !conds.iter().all(|c| node_ok(c.test) && ok_opt(c.then) && ok_opt(c.otherwise))
            || !dynamic_refs.iter().all(|d| node_ok(d.fallback))
            || !contents.iter().all(|c| ok_opt(c.schema))
            || !ops.arrays.iter().all(|a| all_nodes(&a.prefix) && ok_opt(a.rest) && ok_opt(a.contains.map(|c| c.node)))
            || !resources
                .iter()
                .all(|r| r.dynamic_anchors.iter().all(|(_, n)| node_ok(*n)) && ok_opt(r.recursive_anchor))
        {
            return fail("pool operand");
        }
        for o in &ops.objects {
            let entry_ok = |e: &u32| (*e as usize) < o.entries.len();
            let summarized = (0..o.entries.len()).all(|i| {
                let i = u32::try_from(i).unwrap_or(u32::MAX);
                // A hashed look-up per name (a scan per index made this
                // quadratic in the names of one object).
                let found = o.names.key(i).and_then(|k| o.names.find_with_payload(k));
                found == o.entries.get(i as usize).map(|e| (i, QuickEntry::of(e)))
            });
            if o.entries.len() != o.names.len()
                || !summarized
                || !o.required.iter().all(entry_ok)
                || !o.dependents().iter().all(entry_ok)
                || !o.entries.iter().all(|e| {
                    ok_opt(e.schema)
                        && node_ok(e.quick)
                        && all_nodes(e.dependent_schemas())
                        && e.dependent_required().iter().all(entry_ok)
                })
                || !o.patterns.iter().all(|p| node_ok(p.node) && node_ok(p.quick))
                || !node_ok(o.additional_quick)
                || !ok_opt(o.additional)
                || !ok_opt(o.property_names)
            {
                return fail("object operand");
            }
        }
        Ok(())
    }
}

impl fmt::Display for Program {
    /// A readable listing: one block per node with its instructions.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, node) in self.nodes.iter().enumerate() {
            let root = if i == self.root.index() { " (root)" } else { "" };
            writeln!(f, "node {i}{root}  {}", self.location(NodeId(i as u32)))?;
            let mut notes = Vec::new();
            for (flag, name) in [
                (NodeFlags::MEMO, "memoized"),
                (NodeFlags::TRACKS_PROPERTIES, "tracks evaluated properties"),
                (NodeFlags::TRACKS_ITEMS, "tracks evaluated items"),
            ] {
                if node.flags.contains(flag) {
                    notes.push(name.to_string());
                }
            }
            if let Some(c) = self.rare_table(|r| &r.costs).get(i).filter(|c| c.fan_out > 0) {
                notes.push(format!(
                    "entry: {} evaluations per instance location ({} without memoization), in-place depth {}",
                    c.fan_out, c.unmemoized_fan_out, c.in_place_depth
                ));
            }
            if !notes.is_empty() {
                writeln!(f, "    ; {}", notes.join("; "))?;
            }
            for instr in self.code.get(node.code_start as usize..node.code_end as usize).unwrap_or(&[]) {
                writeln!(f, "    {}", InstrDisplay { program: self, instr })?;
            }
            if let Some(code) = self.tracked_code(NodeId(i as u32)) {
                writeln!(f, "    ; tracked (errors, output units):")?;
                for instr in code {
                    writeln!(f, "    {}", InstrDisplay { program: self, instr })?;
                }
            }
        }
        Ok(())
    }
}

struct InstrDisplay<'a> {
    program: &'a Program,
    instr: &'a Instr,
}

impl fmt::Display for InstrDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.program;
        let nodes = |ns: &[NodeId]| ns.iter().map(|n| format!("@{}", n.0)).collect::<Vec<_>>().join(", ");
        match *self.instr {
            Instr::Fail => f.write_str("fail"),
            Instr::Type(t) => {
                let names: Vec<_> = t.iter().map(|t| t.name()).collect();
                write!(f, "type {}", names.join("|"))
            }
            Instr::Const(v) => write!(f, "const {}", p.operands().value(v)),
            Instr::Enum(e) => {
                let set = p.operands().enum_set(e);
                write!(f, "enum ({} values)", set.values.len())?;
                match set.type_fused {
                    Some(t) => write!(f, ", type {}", t.iter().map(|t| t.name()).collect::<Vec<_>>().join("|")),
                    None => Ok(()),
                }
            }
            Instr::Number(n) => {
                let c = p.operands().number(n);
                f.write_str("number")?;
                for (keyword, value) in c.keywords() {
                    write!(f, " {}={value}", keyword.name())?;
                }
                Ok(())
            }
            Instr::String(s) => {
                let s = p.operands().string(s);
                write!(f, "string min={:?} max={:?}", s.min_length, s.max_length)?;
                if let Some(r) = &s.pattern {
                    write!(f, " pattern={:?}", r.pattern())?;
                }
                if let Some(check) = &s.format {
                    write!(f, " format={}", check.name())?;
                }
                Ok(())
            }
            Instr::Array(a) => {
                let a = p.operands().array(a);
                write!(
                    f,
                    "array prefix=[{}] rest={:?} contains={:?} min={:?} max={:?} unique={}",
                    nodes(&a.prefix),
                    a.rest.map(|n| n.0),
                    a.contains.map(|c| (c.node.0, c.min, c.max)),
                    a.min_items,
                    a.max_items,
                    a.unique_items
                )
            }
            Instr::Object(o) => {
                let o = p.operands().object(o);
                write!(f, "object")?;
                for (name, e) in o.names.keys().zip(o.entries.iter()) {
                    write!(f, " {name:?}")?;
                    if let Some(n) = e.schema {
                        write!(f, "=@{}", n.0)?;
                    }
                    if e.required {
                        f.write_str("!")?;
                    }
                }
                for pattern in o.patterns.iter() {
                    write!(f, " /{}/=@{}", pattern.regex.pattern(), pattern.node.0)?;
                }
                if let Some(n) = o.additional {
                    write!(f, " {}=@{}", o.additional_keyword(), n.0)?;
                }
                if let Some(n) = o.property_names {
                    write!(f, " propertyNames=@{}", n.0)?;
                }
                if o.min_properties() != 0 || o.max_properties() != u64::MAX {
                    write!(f, " min={} max={}", o.min_properties(), o.max_properties())?;
                }
                Ok(())
            }
            Instr::AllOf(l) => write!(f, "allOf [{}]", nodes(p.operands().list(l))),
            Instr::AnyOf(l) | Instr::OneOf(l) => {
                write!(f, "{} [{}]", self.instr.keyword(), nodes(p.operands().list(l)))?;
                if let Some(d) = p.operands().discriminator(l) {
                    write!(f, " discriminated by {:?} ({} values", d.property, d.values.len())?;
                    if let Some(absent) = &d.absent {
                        write!(f, ", {} candidates when absent", absent.len())?;
                    }
                    write!(f, ")")?;
                }
                Ok(())
            }
            Instr::Not(n) => write!(f, "not @{}", n.0),
            Instr::Cond(c) => {
                let c = p.cond(c);
                write!(f, "if @{} then {:?} else {:?}", c.test.0, c.then.map(|n| n.0), c.otherwise.map(|n| n.0))
            }
            Instr::Ref(n) => write!(f, "ref @{}", n.0),
            Instr::DynamicRef(d) => {
                let d = p.dynamic_ref(d);
                write!(f, "{} {:?} fallback @{}", d.keyword, d.anchor, d.fallback.0)
            }
            Instr::Content(c) => write!(f, "content {:?}", p.content(c)),
            Instr::UnevaluatedProperties(n) => write!(f, "unevaluatedProperties @{}", n.0),
            Instr::UnevaluatedItems(n) => write!(f, "unevaluatedItems @{}", n.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// An object's checks keep what few objects have (dependencies, the
    /// declared names, `minProperties`/`maxProperties`) in their extras,
    /// and each pattern's nodes in one entry: 152 bytes, read for every
    /// instance object and held by every object schema.
    #[test]
    fn object_checks_keep_rare_parts_apart() {
        assert_eq!(std::mem::size_of::<ObjectChecks>(), 152);
        let options = crate::CompileOptions::default();
        let schema = json!({"minProperties": 2, "patternProperties": {"^x": {"$ref": "#/$defs/t"}}, "$defs": {"t": {"type": "string"}}});
        let program = crate::compile(&schema, &options).expect("compiles");
        let checks = program.operands().objects.first().expect("one object instruction");
        assert_eq!((checks.min_properties(), checks.max_properties()), (2, u64::MAX));
        assert_eq!(checks.passing_sizes, (2, u64::MAX));
        let pattern = checks.patterns.first().expect("one pattern");
        assert_ne!(pattern.node, pattern.quick, "the quiet scan's node is past the forwarding $ref");
        // Each name's quick entry says whether a pattern matches it.
        let schema = json!({"properties": {"xa": {"type": "string"}, "b": true}, "required": ["b"], "patternProperties": {"^x": true}});
        let program = crate::compile(&schema, &options).expect("compiles");
        let checks = program.operands().objects.first().expect("one object instruction");
        assert!(checks.static_patterns);
        let quick = |name: &str| checks.names.find_with_payload(name).expect("declared").1;
        assert!(quick("xa").has_patterns() && !quick("xa").required() && quick("xa").schema().is_some());
        assert!(!quick("b").has_patterns() && quick("b").required() && quick("b").schema().is_some());
        // Without bounds, dependencies or unknown names there are no extras.
        let plain = crate::compile(&json!({"properties": {"a": {"type": "string"}}}), &options).expect("compiles");
        assert!(plain.operands().objects.first().expect("one object instruction").extras.is_none());
    }

    /// A program without operands keeps no operand tables (one word in
    /// place for all of them), and reads them as empty.
    #[test]
    fn operand_tables_are_kept_only_when_used() {
        let options = crate::CompileOptions::default();
        for schema in
            [json!(true), json!(false), json!({}), json!({"type": "string", "title": "t"}), json!({"not": {}})]
        {
            let program = crate::compile(&schema, &options).expect("compiles");
            assert!(program.operands.is_none(), "{schema}");
            assert!(program.operands().objects.is_empty() && program.operands().lists.is_empty());
        }
        // Patterns are held where they are used, one regex per distinct
        // pattern, and need no rare tables.
        let schema = json!({"pattern": "^a", "patternProperties": {"^a": {}, "b": {}}});
        let program = crate::compile(&schema, &options).expect("compiles");
        let (strings, objects) = (&program.operands().strings, &program.operands().objects);
        let (Some(pattern), Some(object)) = (strings.first().and_then(|s| s.pattern.as_ref()), objects.first()) else {
            panic!("a string and an object instruction");
        };
        assert_eq!(object.patterns.iter().map(|p| p.regex.pattern()).collect::<Vec<_>>(), ["^a", "b"]);
        assert!(object.patterns.first().is_some_and(|p| Arc::ptr_eq(&p.regex, pattern)), "compiled once");
        assert!(program.rare.is_none(), "nothing rare here");
        assert!(std::mem::size_of::<Program>() <= 96, "{}", std::mem::size_of::<Program>());
    }

    /// Locations come back whole and in order, multi-byte characters
    /// included, and an index past the end is empty.
    #[test]
    fn node_locations_are_kept_end_to_end() {
        let written = ["json-schema:///#", "json-schema:///#/properties/é", "", "urn:x#/$defs/ü/items"];
        let mut writer = LocationWriter::with_capacity(written.len(), 0);
        for w in written {
            assert_eq!(writer.push_with(usize::MAX, |text: &mut String| text.push_str(w)), Ok(()));
        }
        // Past the limit: refused, and the text is as it was.
        let total = written.concat().len();
        assert_eq!(writer.push_with(total + 2, |text: &mut String| text.push_str("abc")), Err(total + 3));
        let locations = writer.finish();
        assert_eq!(locations.len(), written.len());
        for (i, w) in written.iter().enumerate() {
            assert_eq!(locations.get(i), *w);
        }
        assert_eq!(locations.get(written.len()), "");
        assert_eq!(NodeLocations::default().get(0), "");
    }

    /// Resources are kept only by a program that resolves references
    /// through a dynamic scope, the only one that reads them.
    #[test]
    fn resources_are_kept_for_dynamic_scopes_only() {
        let options = crate::CompileOptions::default();
        let plain = crate::compile(&json!({"$id": "urn:a", "items": {"$id": "urn:b"}}), &options).unwrap();
        assert!(!plain.flags().uses_dynamic_scope);
        assert!(plain.node_ids().all(|n| plain.resource(plain.node(n).resource()).is_none()));
        assert!(plain.rare.is_none(), "nothing else is rare here");
        // Two resources define the anchor, the root none: the target
        // depends on the scope.
        let dynamic = json!({
            "$id": "urn:root", "anyOf": [{"$ref": "urn:tree"}, {"$ref": "urn:strict"}],
            "$defs": {
                "tree": {"$id": "urn:tree", "$dynamicAnchor": "node",
                         "properties": {"kids": {"items": {"$dynamicRef": "#node"}}}},
                "strict": {"$id": "urn:strict", "$dynamicAnchor": "node", "$ref": "urn:tree",
                           "unevaluatedProperties": false}
            }
        });
        let scoped = crate::compile(&dynamic, &options).unwrap();
        assert!(scoped.flags().uses_dynamic_scope);
        let root = scoped.resource(scoped.node(scoped.root()).resource()).expect("kept");
        assert_eq!(&*root.uri, "urn:root");
        let anchors = scoped.node_ids().filter_map(|n| scoped.resource(scoped.node(n).resource()));
        assert!(anchors.filter(|r| !r.dynamic_anchors.is_empty()).count() >= 2);
    }

    fn set(types: &[JsonType]) -> TypeSet {
        types.iter().fold(TypeSet::EMPTY, |s, t| s.with(*t))
    }

    #[test]
    fn alternative_masks_agree_with_admitted_types() {
        let number = set(&[JsonType::Number, JsonType::Integer]);
        let types = [
            set(&[JsonType::String]),
            set(&[JsonType::Integer]),
            number,
            TypeSet::ANY,
            set(&[JsonType::Object, JsonType::Null]),
            TypeSet::EMPTY,
        ];
        let masks = AlternativeMasks::new(&types).expect("six alternatives fit");
        assert_eq!(masks.all(), 0b11_1111);
        let values = [json!(null), json!(true), json!(1), json!(1.0), json!(1.5), json!("s"), json!([]), json!({})];
        for strict in [false, true] {
            for v in &values {
                let expected =
                    types.iter().enumerate().filter(|(_, t)| t.admits(v, strict)).fold(0u64, |m, (i, _)| m | 1 << i);
                assert_eq!(masks.admitting(v, strict), expected, "{v} strict={strict}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn float_bounds_agree_with_the_exact_checks(
            bounds in proptest::collection::vec(proptest::option::of(-6i64..6), 4),
            halves in proptest::collection::vec(proptest::bool::ANY, 4),
            x in -8.0f64..8.0,
            step in 0u8..3,
        ) {
            // Bounds on a grid of halves, instances on and off it.
            let num = |i: i64, half: bool| if half { Num::Float(i as f64 + 0.5) } else { Num::Int(i128::from(i)) };
            let bound = |k: usize| bounds[k].map(|i| num(i, halves[k]));
            let c = number_checks([
                (NumberKeyword::Minimum, bound(0)),
                (NumberKeyword::ExclusiveMinimum, bound(1)),
                (NumberKeyword::Maximum, bound(2)),
                (NumberKeyword::ExclusiveMaximum, bound(3)),
            ]);
            let b = c.float_bounds.expect("small bounds are exact");
            let x = match step { 0 => x, 1 => x.round(), _ => (x * 2.0).round() / 2.0 };
            proptest::prop_assert_eq!(b.admits(x), c.admits(&Num::Float(x)));
        }
    }

    /// Sealed number checks of `keywords`, set in the order given.
    fn number_checks<const N: usize>(keywords: [(NumberKeyword, Option<Num>); N]) -> NumberChecks {
        let mut c = NumberChecks::default();
        for (keyword, value) in keywords {
            c.set(keyword, value);
        }
        c.seal();
        c
    }

    #[test]
    fn number_keywords_are_kept_in_order_once_each() {
        let mut c = NumberChecks::default();
        c.set(NumberKeyword::MultipleOf, Some(Num::Int(2)));
        c.set(NumberKeyword::Minimum, Some(Num::Int(1)));
        c.set(NumberKeyword::Minimum, Some(Num::Int(5)));
        c.set(NumberKeyword::Maximum, Some(Num::Int(9)));
        c.set(NumberKeyword::Maximum, None);
        let kept: Vec<_> = c.keywords().iter().map(|(k, n)| (*k, n.to_string())).collect();
        assert_eq!(kept, [(NumberKeyword::Minimum, "5".to_string()), (NumberKeyword::MultipleOf, "2".to_string())]);
        assert_eq!(c.value(NumberKeyword::Minimum).map(Num::to_string).as_deref(), Some("5"));
        assert_eq!(c.value(NumberKeyword::Maximum), None);
    }

    #[test]
    fn float_bounds_need_exact_bounds_and_no_multiple() {
        let c = number_checks([(NumberKeyword::Minimum, Some(Num::Int(1 << 60)))]);
        assert_eq!(c.float_bounds, None);
        let c = number_checks([
            (NumberKeyword::Maximum, Some(Num::Int(3))),
            (NumberKeyword::MultipleOf, Some(Num::Int(2))),
        ]);
        assert_eq!(c.float_bounds, None);
        let c = number_checks([
            (NumberKeyword::ExclusiveMaximum, Some(Num::Int(3))),
            (NumberKeyword::Maximum, Some(Num::Int(3))),
        ]);
        let b = c.float_bounds.expect("exact");
        assert!(!b.admits(3.0) && b.admits(2.5));
    }

    #[test]
    fn alternative_masks_cover_up_to_64_alternatives() {
        assert_eq!(AlternativeMasks::new(&[]).map(|m| m.all()), Some(0));
        let full = [TypeSet::ANY; 64];
        assert_eq!(AlternativeMasks::new(&full).map(|m| m.all()), Some(u64::MAX));
        assert_eq!(AlternativeMasks::new(&[TypeSet::ANY; 65]), None);
    }

    #[test]
    fn type_switches_pick_the_one_alternative_of_each_kind() {
        let targets = [Target::Node(NodeId(7)), Target::Node(NodeId(8)), Target::Node(NodeId(9))];
        let integer = set(&[JsonType::Integer]);
        let types = [set(&[JsonType::String]), integer, set(&[JsonType::Number, JsonType::Integer, JsonType::Null])];
        let masks = AlternativeMasks::new(&types).expect("masks");
        // Integers are admitted by two alternatives: no switch.
        let target = |i: usize, _| targets.get(i).copied();
        assert_eq!(masks.switch(target), None);
        let types = [set(&[JsonType::String]), integer, set(&[JsonType::Null, JsonType::Boolean])];
        let switch = AlternativeMasks::new(&types).and_then(|m| m.switch(target)).expect("a switch");
        let cases = [
            (json!("s"), Target::Node(NodeId(7))),
            (json!(3), Target::Node(NodeId(8))),
            (json!(3.0), Target::Node(NodeId(8))),
            (json!(3.5), Target::Invalid),
            (json!(null), Target::Node(NodeId(9))),
            (json!(false), Target::Node(NodeId(9))),
            (json!([]), Target::Invalid),
            (json!({}), Target::Invalid),
        ];
        for (value, expected) in cases {
            assert_eq!(switch.target(&value, false), expected, "{value}");
        }
        // Draft-04's strict integers: `3.0` is no integer.
        assert_eq!(switch.target(&json!(3.0), true), Target::Invalid);
    }
}
