//! The VM: runs a compiled [`Program`] over a `serde_json::Value`.
//!
//! # Modes
//!
//! One interpreter serves three modes, chosen by the [`Mode`] type
//! parameter and monomorphized: [`Fast`] answers valid/invalid, allocates
//! nothing on its own account and stops at the first failure; [`Collect`]
//! records every error with its instance location, evaluation path and
//! absolute keyword location. In `Collect` mode, subschemas whose errors
//! are never shown (`not`, `if`, `contains`) run with recording off, which
//! restores short-circuiting there; and below the root, every node is
//! first checked with recording off, as `Fast` checks it, and evaluated
//! again with recording only if it fails, so subtrees that pass cost what
//! `is_valid` costs (the fuel of both runs is charged); the subschemas a
//! failing check met on its way are noted ([`failures`]), so that a
//! failure's path is walked quietly once, not once per level. [`Annotate`] (for `evaluate`) is
//! `Collect` plus an output unit per subschema evaluation and the
//! applicators' annotations ([`output`]); it enters every subschema (no
//! always-valid shortcut, no memo, every `anyOf` branch) except below one
//! that has failed already, and its extra code sits behind `M::ANNOTATE`
//! (and `Mode::Units`, `()` elsewhere), which folds away in the other
//! modes.
//!
//! Independently, the `TRACK` const parameter makes an evaluation record
//! which properties and items it evaluated ([`Evaluated`]), for
//! `unevaluatedProperties`/`unevaluatedItems`. The compiler decides which
//! nodes need it; everything else runs untracked.
//!
//! # Bounds
//!
//! Every node entered, property and item visited, and pattern matched is
//! charged to a [`Meter`] (fuel, optional deadline, depth and Rust stack).
//! Running out is a [`Stop`] (the meter keeps its reason, an
//! [`Exhausted`](crate::Exhausted)), a third outcome distinct from
//! invalid.

mod annotations;
mod array;
mod budget;
mod failures;
mod memo;
mod object;
pub(crate) mod output;
mod scalar;
mod spare;

use std::marker::PhantomData;
use std::ops::Deref;
use std::sync::Arc;

use serde_json::{Map, Value};
use smallvec::SmallVec;

use schemavm_compiler::bytecode::{
    ArrayChecks, ArrayId, CondId, ConditionSwitch, Contains, ContentId, Decision, DynamicRefId, Entry, EnumId, EnumSet,
    Instr, ListId, NameFilter, Narrowing, NodeFlags, NodeId, NumberChecks, NumberId, ObjectId, Operands, Program,
    ResourceId, StringChecks, StringId, Target, TypeSwitch, ValueId,
};
use schemavm_compiler::value::TypeSet;

pub(crate) use annotations::Evaluated;
pub use budget::Budget;
use budget::{Fuel, Tank};
pub(crate) use budget::{Meter, NUMBER_BASE_FUEL, Stop};
use failures::KnownFailures;
use spare::Spare;

use crate::error::{Detail, ErrorKind, KeywordText, Pending, Shown, ValidationError};
use crate::format::CustomFormats;
use crate::location::{InstanceLocation, PathSegment, TextWriter};

/// The outcome of one check: `Ok(valid)` or an exhausted budget.
pub(crate) type Flow = Result<bool, Stop>;

/// Whether an interpreter records errors.
pub(crate) trait Mode {
    /// Errors are recorded.
    const COLLECT: bool;
    /// Output units and annotations are recorded (for `evaluate`).
    const ANNOTATE: bool = false;
    /// Where output units are kept: nowhere (`()`, no drop glue) except
    /// in [`Annotate`].
    type Units: Default;
    /// The errors and the evaluation and instance paths: [`Nowhere`] (no
    /// storage, no drop glue) in [`Fast`], which never records them.
    type Stack<T>: Stack<T>;
    /// The errors recorded: [`Nowhere`] in [`Fast`]; a `Vec` in the
    /// recording modes, handed to the caller as it is.
    type Errors: Stack<ValidationError>;
    /// The bookkeeping of recorded errors: `()` in [`Fast`] (nothing to
    /// set up per validation), [`Record`] in the recording modes.
    type Record: RecordSlot;
    /// The output units, if the mode keeps any.
    #[inline(always)]
    fn units(_store: &Self::Units) -> Option<&output::Units> {
        None
    }
    /// The output units, if the mode keeps any.
    #[inline(always)]
    fn units_mut(_store: &mut Self::Units) -> Option<&mut output::Units> {
        None
    }
}

/// Valid or invalid, nothing else.
pub(crate) struct Fast;
impl Mode for Fast {
    const COLLECT: bool = false;
    type Units = ();
    type Stack<T> = Nowhere<T>;
    type Errors = Nowhere<ValidationError>;
    type Record = ();
}

/// Every error, with locations.
pub(crate) struct Collect;
impl Mode for Collect {
    const COLLECT: bool = true;
    type Units = ();
    /// Short paths stay inside the VM (no allocation until they grow
    /// past [`INLINE_STACK`]).
    type Stack<T> = SmallVec<[T; INLINE_STACK]>;
    type Errors = Vec<ValidationError>;
    type Record = Record;
}

/// How many path steps and keyword steps the collecting VM keeps before
/// allocating.
const INLINE_STACK: usize = 8;

/// Every error, plus an output unit per subschema evaluation with its
/// annotations (for `evaluate` and the standard output formats).
pub(crate) struct Annotate;
impl Mode for Annotate {
    const COLLECT: bool = true;
    const ANNOTATE: bool = true;
    type Units = output::Units;
    type Stack<T> = SmallVec<[T; INLINE_STACK]>;
    type Errors = Vec<ValidationError>;
    type Record = Record;
    #[inline(always)]
    fn units(store: &output::Units) -> Option<&output::Units> {
        Some(store)
    }
    #[inline(always)]
    fn units_mut(store: &mut output::Units) -> Option<&mut output::Units> {
        Some(store)
    }
}

/// The state of error recording (the recording modes only).
#[derive(Debug)]
pub(crate) struct Record {
    /// Whether errors are being recorded.
    recording: bool,
    /// The node being evaluated (for error locations).
    current: NodeId,
    /// Errors held (recorded and not dropped since), against
    /// `Budget::max_errors`: the failed alternatives of an `anyOf`/`oneOf`
    /// that passes, and those not closest when it fails, give their count
    /// back when their errors are dropped.
    reported: usize,
    max_errors: usize,
    /// Some error was not recorded because of `max_errors`.
    truncated: bool,
    /// Where in the errors the first unknown member of the object being
    /// scanned was recorded, if one was ([`Vm::report_unknown`] copies it
    /// for the next ones). Set only within one scan of one object's
    /// members, and cleared when any scan starts or ends.
    sibling: Option<usize>,
    /// Subschemas the quiet pre-checks found failing at a value, whose
    /// recorded evaluation skips its own pre-check ([`failures`]); boxed
    /// when the first is noted (most evaluations note none).
    failures: Option<Box<KnownFailures>>,
}

/// Where a mode keeps its [`Record`]: nowhere (`()`, for [`Fast`]) or in
/// place.
pub(crate) trait RecordSlot {
    /// The record at the start of a validation of `program`.
    fn start(program: &Program, budget: &Budget) -> Self;
    /// The record, if the mode keeps one.
    fn get(&self) -> Option<&Record>;
    /// The record, if the mode keeps one.
    fn get_mut(&mut self) -> Option<&mut Record>;
    /// The record of a detached evaluation starting here (nothing
    /// truncated in it yet).
    fn fork(&self) -> Self;
    /// Whether dropping the record frees memory.
    fn holds_memory(&self) -> bool;
}

impl RecordSlot for () {
    #[inline(always)]
    fn start(_: &Program, _: &Budget) {}
    #[inline(always)]
    fn fork(&self) {}
    #[inline(always)]
    fn holds_memory(&self) -> bool {
        false
    }
    #[inline(always)]
    fn get(&self) -> Option<&Record> {
        None
    }
    #[inline(always)]
    fn get_mut(&mut self) -> Option<&mut Record> {
        None
    }
}

impl RecordSlot for Record {
    #[inline]
    fn start(program: &Program, budget: &Budget) -> Record {
        Record {
            recording: true,
            current: program.root(),
            reported: 0,
            max_errors: budget.max_errors,
            truncated: false,
            sibling: None,
            failures: None,
        }
    }
    #[inline(always)]
    fn get(&self) -> Option<&Record> {
        Some(self)
    }
    #[inline]
    fn fork(&self) -> Record {
        // (A detached evaluation checks values that are not the
        // instance's, at addresses of their own: it learns its own
        // failures.)
        Record {
            recording: self.recording,
            current: self.current,
            reported: self.reported,
            max_errors: self.max_errors,
            truncated: false,
            sibling: None,
            failures: None,
        }
    }
    #[inline(always)]
    fn get_mut(&mut self) -> Option<&mut Record> {
        Some(self)
    }
    #[inline(always)]
    fn holds_memory(&self) -> bool {
        self.failures.is_some()
    }
}

/// The stack operations the VM uses on its errors and paths (a
/// `SmallVec` in the recording modes; [`Nowhere`] ignores what it is
/// given).
pub(crate) trait Stack<T>: Default + Deref<Target = [T]> + Extend<T> {
    /// Adds `item` on top.
    fn push(&mut self, item: T);
    /// Removes the top item.
    fn pop(&mut self) -> Option<T>;
    /// Keeps the first `len` items.
    fn truncate(&mut self, len: usize);
    /// Adds copies of `items` on top.
    fn extend_from_slice(&mut self, items: &[T])
    where
        T: Clone;
    /// Removes and returns the items from `at` on (none if `at` is past
    /// the end).
    fn split_off(&mut self, at: usize) -> SmallVec<[T; INLINE_STACK]>;
    /// The items, bottom first.
    fn into_vec(self) -> Vec<T>;
    /// Whether the stack holds heap memory (which dropping it frees).
    fn holds_memory(&self) -> bool;
}

impl<T, const N: usize> Stack<T> for SmallVec<[T; N]> {
    #[inline(always)]
    fn push(&mut self, item: T) {
        SmallVec::push(self, item);
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<T> {
        SmallVec::pop(self)
    }
    #[inline(always)]
    fn truncate(&mut self, len: usize) {
        SmallVec::truncate(self, len);
    }
    #[inline(always)]
    fn extend_from_slice(&mut self, items: &[T])
    where
        T: Clone,
    {
        // One or two steps at a time: pushing beats `insert_from_slice`.
        for item in items {
            SmallVec::push(self, item.clone());
        }
    }
    #[inline(always)]
    fn split_off(&mut self, at: usize) -> SmallVec<[T; INLINE_STACK]> {
        self.drain(at.min(self.len())..).collect()
    }
    #[inline(always)]
    fn into_vec(self) -> Vec<T> {
        SmallVec::into_vec(self)
    }
    #[inline(always)]
    fn holds_memory(&self) -> bool {
        self.spilled()
    }
}

/// The errors of the recording modes: they leave the VM as the `Vec` the
/// caller gets, so they are kept in one from the start (a `SmallVec`
/// would be copied out, or regrow from one slot).
impl Stack<ValidationError> for Vec<ValidationError> {
    #[inline(always)]
    fn push(&mut self, item: ValidationError) {
        if self.capacity() == 0 {
            // The first error takes a list that an earlier validation on
            // this thread gave back, or allocates room for a few at once,
            // directly (growing an empty `Vec` goes through its
            // out-of-line reallocation path first).
            let list = crate::error_pool::take_list().unwrap_or_else(|| Vec::with_capacity(FIRST_ERRORS));
            // The list replaced has no room: nothing to free, so no call to
            // its drop glue.
            std::mem::forget(std::mem::replace(self, list));
        }
        Vec::push(self, item);
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<ValidationError> {
        Vec::pop(self)
    }
    #[inline(always)]
    fn truncate(&mut self, len: usize) {
        Vec::truncate(self, len);
    }
    #[inline(always)]
    fn extend_from_slice(&mut self, items: &[ValidationError])
    where
        ValidationError: Clone,
    {
        Extend::extend(self, items.iter().cloned());
    }
    #[inline(always)]
    fn split_off(&mut self, at: usize) -> SmallVec<[ValidationError; INLINE_STACK]> {
        self.drain(at.min(self.len())..).collect()
    }
    #[inline(always)]
    fn into_vec(self) -> Vec<ValidationError> {
        self
    }
    #[inline(always)]
    fn holds_memory(&self) -> bool {
        self.capacity() != 0
    }
}

/// Room for this many errors is made when the first one is recorded
/// (what `Vec` itself would reserve for values of their size).
const FIRST_ERRORS: usize = 4;

/// A stack that keeps nothing: always empty.
pub(crate) struct Nowhere<T>(PhantomData<T>);

impl<T> Default for Nowhere<T> {
    fn default() -> Self {
        Nowhere(PhantomData)
    }
}

impl<T> Deref for Nowhere<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        &[]
    }
}

impl<T> Extend<T> for Nowhere<T> {
    #[inline(always)]
    fn extend<I: IntoIterator<Item = T>>(&mut self, _items: I) {}
}

impl<T> Stack<T> for Nowhere<T> {
    #[inline(always)]
    fn push(&mut self, _item: T) {}
    #[inline(always)]
    fn pop(&mut self) -> Option<T> {
        None
    }
    #[inline(always)]
    fn truncate(&mut self, _len: usize) {}
    #[inline(always)]
    fn extend_from_slice(&mut self, _items: &[T])
    where
        T: Clone,
    {
    }
    #[inline(always)]
    fn split_off(&mut self, _at: usize) -> SmallVec<[T; INLINE_STACK]> {
        SmallVec::new()
    }
    #[inline(always)]
    fn into_vec(self) -> Vec<T> {
        Vec::new()
    }
    #[inline(always)]
    fn holds_memory(&self) -> bool {
        false
    }
}

/// One step of the evaluation path (keyword location).
#[derive(Debug, Clone, Copy)]
pub(crate) enum KeywordStep<'p> {
    /// A keyword (`properties`, `items`, ...): never needs escaping.
    Word(&'static str),
    /// A name the schema chose (a property name, a pattern): escaped
    /// when written into a JSON Pointer.
    Name(&'p str),
    /// An index (`allOf/1`, `prefixItems/0`).
    Index(usize),
}

/// One step into the instance.
#[derive(Debug, Clone, Copy)]
enum InstanceStep<'v> {
    Key(&'v str),
    Index(usize),
}

/// A step below the current instance location that an error is reported
/// at: a member key (`&str`), an item index (`usize`), or none (`()`). A
/// type rather than an `Option`, so that the many reports at the current
/// location compile without the test.
trait Below<'v>: Copy {
    /// The step, if any.
    fn step(self) -> Option<InstanceStep<'v>>;
}

impl<'v> Below<'v> for () {
    #[inline(always)]
    fn step(self) -> Option<InstanceStep<'v>> {
        None
    }
}

impl<'v> Below<'v> for &'v str {
    #[inline(always)]
    fn step(self) -> Option<InstanceStep<'v>> {
        Some(InstanceStep::Key(self))
    }
}

impl<'v> Below<'v> for usize {
    #[inline(always)]
    fn step(self) -> Option<InstanceStep<'v>> {
        Some(InstanceStep::Index(self))
    }
}

/// How `anyOf` and `oneOf` combine their alternatives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Combine {
    /// At least one must match.
    Any,
    /// Exactly one must match.
    One,
}

impl Combine {
    fn keyword(self) -> &'static str {
        match self {
            Combine::Any => "anyOf",
            Combine::One => "oneOf",
        }
    }
}

/// How close a failed alternative came to matching; smaller is closer.
/// An alternative the compiler's discriminator rules out for the
/// instance's discriminating property value is farthest; then one
/// rejected for its type or a `const`/`enum` at the location itself; then
/// one that failed a `const`/`enum` on a property (a likely
/// discriminator); then the one whose errors reach deeper, then fewer
/// errors win.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct BranchScore {
    off_discriminator: bool,
    wrong_type: bool,
    wrong_discriminator: bool,
    shallowness: std::cmp::Reverse<usize>,
    errors: usize,
}

impl BranchScore {
    fn of(errors: &[ValidationError], depth: usize, off_discriminator: bool) -> BranchScore {
        let at = |e: &ValidationError| e.0.instance_depth();
        let discriminating = |e: &ValidationError| e.0.is_const_or_enum();
        BranchScore {
            off_discriminator,
            wrong_type: errors.iter().any(|e| at(e) == depth && (discriminating(e) || e.0.is_type())),
            wrong_discriminator: errors.iter().any(|e| at(e) == depth + 1 && discriminating(e)),
            shallowness: std::cmp::Reverse(errors.iter().map(at).max().unwrap_or(depth)),
            errors: errors.len(),
        }
    }
}

/// The indices of the set bits of a mask, lowest first.
struct Bits(u64);

impl Iterator for Bits {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

/// A node looked up for repeated evaluation ([`Vm::prepare`]).
#[derive(Clone, Copy)]
struct Prepared<'p> {
    /// The node reached after the `Forward` entries followed.
    id: NodeId,
    /// Fuel per evaluation: one per `Forward` followed, one more for a
    /// `Direct` or `Single` entry (what [`Vm::node`] charges).
    fuel: u64,
    step: PreparedStep<'p>,
}

/// What evaluating a [`Prepared`] node takes.
#[derive(Clone, Copy)]
enum PreparedStep<'p> {
    /// Every value passes, or none does.
    Verdict(bool),
    /// A type check.
    Types(TypeSet),
    /// These instructions.
    Code(&'p [Instr]),
    /// This one instruction (none: every value passes).
    Single(Option<&'p Instr>),
    /// A [`Entry::Counted`] node whose one instruction is an `anyOf`/
    /// `oneOf` split by type: per value, a nesting level (as the entry
    /// counts it) and the switch's target.
    Switch(&'p TypeSwitch),
    /// Whatever [`Vm::node`] does with [`Prepared::id`] (memo, depth
    /// accounting, the general entry).
    Node,
}

/// How many `Forward` entries [`Vm::prepare`] follows.
const PREPARED_HOPS: usize = 8;

/// The dynamic scope: the resources entered, outermost first, each
/// prefix interned as one number so a whole scope can key the memo.
#[derive(Debug, Clone, Default)]
struct DynamicScope {
    resources: Vec<ResourceId>,
    /// The interned id of each prefix (parallel to `resources`).
    ids: Vec<u32>,
    table: std::collections::HashMap<(u32, ResourceId), u32, schemavm_compiler::hash::IdState>,
}

impl DynamicScope {
    /// Enters `resource` unless it is the innermost already; whether it
    /// was pushed (and must be left).
    fn enter(&mut self, resource: ResourceId) -> bool {
        if self.resources.last() == Some(&resource) {
            return false;
        }
        let parent = self.id();
        let next = u32::try_from(self.table.len() + 1).unwrap_or(u32::MAX);
        let id = *self.table.entry((parent, resource)).or_insert(next);
        self.resources.push(resource);
        self.ids.push(id);
        true
    }

    /// Leaves the innermost resource.
    fn leave(&mut self) {
        self.resources.pop();
        self.ids.pop();
    }

    /// The id of the whole scope (0 when empty).
    fn id(&self) -> u32 {
        self.ids.last().copied().unwrap_or(0)
    }
}

/// How the boolean path starts on one program, decided when the
/// validator is built: a verdict that needs no interpreter, or the root
/// instruction to run directly, and the meter each evaluation starts
/// from.
#[derive(Debug, Clone)]
pub(crate) struct QuietStart {
    root: QuietRoot,
    /// The fuel each evaluation starts with (its meter's, [`Meter::started`],
    /// or a [direct root](QuietRoot::direct)'s tank; unused for
    /// [`QuietRoot::General`]): the budget's, less the root node's entry
    /// for an [`QuietRoot::Object`], [`QuietRoot::Array`],
    /// [`QuietRoot::Tuple`] or direct root, which is charged once here.
    fuel: u64,
}

/// What the root of a program does on the boolean path.
#[derive(Debug, Clone)]
// An explicit tag: the variants [`QuietStart::is_valid`] tests first are
// told apart by one comparison of it, not decoded from a payload's niche.
#[repr(u8)]
enum QuietRoot {
    // The roots [`QuietStart::run`] starts come first: one comparison of
    // the tag tells them from the others. Each has the nesting depth its
    // evaluations start at: 1 where the root node's entry is
    // [`Entry::Counted`] (the level it enters is taken once, with its
    // unit of fuel, when the start is made), else 0. (In the variant: a
    // field of `QuietStart` would make it a word larger.)
    /// One object instruction, run directly.
    Object(ObjectId, u8),
    /// One array instruction, run directly.
    Array(ArrayId, u8),
    /// Anything else: the general entry.
    Node,
    /// One array instruction that is a [tuple](schemavm_compiler::bytecode::ArrayChecks::is_tuple):
    /// its leading items that need no VM checked in place
    /// ([`tuple_leaves`]), a VM made for the rest, if any.
    Tuple(ArrayId, u8),
    /// A type check (with `integer` excluding integral floats, or not).
    Types(TypeSet, bool),
    /// Every value passes, or none does.
    Verdict(bool),
    /// A root that runs the interpreter under a budget with a deadline, or
    /// in a program that keeps a dynamic scope: the general entry, the
    /// clock read and the scope made per evaluation. (A variant of its
    /// own, so that the other roots test for neither.)
    General,
    // The direct roots ([`QuietRoot::direct`]): one instruction checked
    // without a VM. Variants of this enum, not of one of their own, so
    // that a check starts with one dispatch on the tag, not two.
    /// `Number` checks.
    Number(NumberId),
    /// `String` checks.
    String(StringId),
    /// `enum`.
    Enum(EnumId),
    /// `const`.
    Const(ValueId),
    /// Array checks that are [bounds only](array::size_only).
    ArraySize(ArrayId),
    /// Object checks that are [sizes only](object::size_only).
    ObjectSize(ObjectId),
    /// Object checks that are [counts only](object::counts_only).
    ObjectCounts(ObjectId),
    /// Object checks that are [a scan of leaves only](object::leaf_scan_only).
    ObjectLeaves(ObjectId),
    /// Array checks that are [a plan only](array::plan_only).
    ArrayPlan(ArrayId),
    /// Array checks of bounds and `contains` of a [`Leaf`], nothing else.
    Contains(ArrayId, Leaf),
    /// `allOf`, `anyOf` or `oneOf` of [`Leaves`] (boxed: few roots have
    /// them, and every validator holds a root).
    Combine(Connective, Box<Leaves>),
    /// `not` of a [`Leaf`].
    Not(Leaf),
}

/// How a direct root's combinator ([`QuietRoot::Combine`]) joins its
/// leaves' verdicts.
#[derive(Debug, Clone, Copy)]
enum Connective {
    /// `allOf`: every leaf passes.
    All,
    /// `anyOf`: some leaf passes.
    Any,
    /// `oneOf`: exactly one leaf passes.
    One,
}

/// Most subschemas of a direct root's combinator ([`QuietRoot::Combine`]).
const MOST_LEAVES: usize = 4;

/// The subschemas of a direct root's combinator ([`QuietRoot::Combine`]),
/// each a [`Leaf`].
#[derive(Debug, Clone, Copy)]
struct Leaves {
    len: u8,
    leaves: [Leaf; MOST_LEAVES],
}

/// A subschema a direct root's combinator checks in place: a verdict, a
/// bare type check, or one number, `enum`, `const` or string instruction
/// whose fuel does not depend on the instance (no `pattern`, no
/// `format`), with its node's entry.
#[derive(Debug, Clone, Copy)]
enum Leaf {
    Verdict(bool),
    Types(TypeSet),
    Number(NumberId),
    Enum(EnumId),
    Const(ValueId),
    String(StringId),
}

impl Leaf {
    /// The leaf of node `id` and the most fuel it costs; `None` for a
    /// node that is not one.
    fn of(program: &Program, id: NodeId) -> Option<(Leaf, u64)> {
        let n = program.node(id);
        Some(match (n.entry(), program.code_of(n)) {
            (Entry::Valid | Entry::QuietValid, _) => (Leaf::Verdict(true), 0),
            (Entry::Invalid, _) => (Leaf::Verdict(false), 0),
            (Entry::Types, _) => (Leaf::Types(n.types()), 0),
            (Entry::Number, &[Instr::Number(c)]) => (Leaf::Number(c), 1 + NUMBER_BASE_FUEL),
            (Entry::Single, &[Instr::Enum(e)]) => {
                (Leaf::Enum(e), 1 + program.operands().enum_set(e).values.len() as u64)
            }
            (Entry::Single, &[Instr::Const(c)]) => (Leaf::Const(c), 2),
            (Entry::Single, &[Instr::String(c)]) if Leaf::lengths_only(program.operands().string(c)) => {
                (Leaf::String(c), 1)
            }
            _ => return None,
        })
    }

    /// The leaf of a node the VM reaches through `target`, if it is one
    /// (as [`Leaf::of`] finds it).
    #[inline(always)]
    fn of_target(ops: &Operands, target: Target) -> Option<Leaf> {
        Some(match target {
            Target::Valid => Leaf::Verdict(true),
            Target::Invalid => Leaf::Verdict(false),
            Target::Types(types) => Leaf::Types(types),
            Target::Number(c) => Leaf::Number(c),
            Target::Enum(e) => Leaf::Enum(e),
            Target::String(c) if Leaf::lengths_only(ops.string(c)) => Leaf::String(c),
            _ => return None,
        })
    }

    /// Whether string checks `c` are a leaf's: lengths and the fused type
    /// only (a pattern may build a matcher and a format call a custom
    /// one, the VM's work).
    fn lengths_only(c: &StringChecks) -> bool {
        c.pattern.is_none() && c.format.is_none()
    }

    /// Whether `v` passes array checks `c` of bounds and `contains` of
    /// this leaf ([`QuietRoot::Contains`]), charged as the VM's array
    /// instruction charges. The leaf's kind is matched once, not per
    /// item: each item runs the leaf's own check (in place for a verdict
    /// or a type, else its out-of-line function).
    #[inline(always)]
    fn contained(self, c: &ArrayChecks, ops: &Operands, v: &Value, strict_integers: bool, fuel: &mut Tank) -> Flow {
        let Value::Array(items) = v else {
            return Ok(scalar::fused_admits(c.type_fused, v, strict_integers));
        };
        if !array::within_bounds(c, items) {
            return Ok(false);
        }
        // (Always there: see `QuietRoot::direct`.)
        let Some(contains) = &c.contains else { return Ok(true) };
        fuel.charge(items.len() as u64)?;
        match self {
            Leaf::Verdict(verdict) => Leaf::count_contained(contains, items, fuel, |_, _| Ok(verdict)),
            Leaf::Types(types) => {
                Leaf::count_contained(contains, items, fuel, |item, _| Ok(types.admits(item, strict_integers)))
            }
            Leaf::Number(id) => {
                let checks = ops.number(id);
                Leaf::count_contained(contains, items, fuel, |item, fuel| {
                    Leaf::number(checks, item, strict_integers, fuel)
                })
            }
            Leaf::Enum(id) => {
                let set = ops.enum_set(id);
                Leaf::count_contained(contains, items, fuel, |item, fuel| {
                    Leaf::enumerated(set, item, strict_integers, fuel)
                })
            }
            Leaf::Const(id) => {
                let expected = ops.value(id);
                Leaf::count_contained(contains, items, fuel, |item, fuel| Leaf::constant(expected, item, fuel))
            }
            Leaf::String(id) => {
                let checks = ops.string(id);
                Leaf::count_contained(contains, items, fuel, |item, fuel| {
                    Leaf::string(checks, item, strict_integers, fuel)
                })
            }
        }
    }

    /// Whether the items that `matches` counts meet `contains`, counting
    /// until they decide it (checked after each item, as the VM does).
    #[inline(always)]
    fn count_contained(
        contains: &Contains,
        items: &[Value],
        fuel: &mut Tank,
        mut matches: impl FnMut(&Value, &mut Tank) -> Flow,
    ) -> Flow {
        let mut count = 0u64;
        for item in items {
            if matches(item, fuel)? {
                count += 1;
            }
            if array::contains_decided(contains, count) {
                break;
            }
        }
        Ok(count >= contains.min && contains.max.is_none_or(|max| count <= max))
    }

    /// Whether `v` passes, the node's entry charged as the VM charges it.
    /// The leaves that run an instruction are each out of line on their
    /// own, so that a check pays only for the registers and stack it uses
    /// (one function for all of them saved six registers on every call,
    /// for the number check's sake); only a machine integer against an
    /// integer range is decided in place.
    #[inline(always)]
    fn passes(self, ops: &Operands, v: &Value, strict_integers: bool, fuel: &mut Tank) -> Flow {
        match self {
            Leaf::Verdict(verdict) => Ok(verdict),
            Leaf::Types(types) => Ok(types.admits(v, strict_integers)),
            Leaf::Number(c) => {
                // An integer in a machine range in place, as the VM's
                // number instruction decides it; the rest out of line.
                let checks = ops.number(c);
                if let (Value::Number(n), Some(range)) = (v, checks.integer_range) {
                    if let Some(i) = n.as_i64() {
                        fuel.charge(1 + NUMBER_BASE_FUEL)?;
                        return Ok(scalar::integer_passes(checks, range, i));
                    }
                }
                Leaf::number(checks, v, strict_integers, fuel)
            }
            Leaf::Enum(e) => Leaf::enumerated(ops.enum_set(e), v, strict_integers, fuel),
            Leaf::Const(c) => Leaf::constant(ops.value(c), v, fuel),
            Leaf::String(c) => Leaf::string(ops.string(c), v, strict_integers, fuel),
        }
    }

    /// A number leaf: its entry and base unit, then the checks.
    #[inline(never)]
    fn number(checks: &NumberChecks, v: &Value, strict_integers: bool, fuel: &mut Tank) -> Flow {
        fuel.charge(1 + NUMBER_BASE_FUEL)?;
        scalar::number_passes(checks, v, strict_integers, fuel)
    }

    /// An `enum` leaf: its entry, then the set.
    #[inline(never)]
    fn enumerated(set: &EnumSet, v: &Value, strict_integers: bool, fuel: &mut Tank) -> Flow {
        fuel.charge(1)?;
        scalar::enum_passes(set, v, strict_integers, fuel)
    }

    /// A `const` leaf: its entry, then the value.
    #[inline(never)]
    fn constant(expected: &Value, v: &Value, fuel: &mut Tank) -> Flow {
        fuel.charge(1)?;
        scalar::const_passes(expected, v, fuel)
    }

    /// A string leaf (lengths and the fused type only): its entry, then
    /// the checks.
    #[inline(never)]
    fn string(checks: &StringChecks, v: &Value, strict_integers: bool, fuel: &mut Tank) -> Flow {
        fuel.charge(1)?;
        Ok(match v {
            Value::String(s) => scalar::string_length_passes(checks, s),
            _ => scalar::fused_admits(checks.type_fused, v, strict_integers),
        })
    }
}

impl Leaves {
    /// The leaves of `nodes` and the most fuel they cost together; `None`
    /// if there are more than [`MOST_LEAVES`] or one is not a leaf.
    fn of(program: &Program, nodes: &[NodeId]) -> Option<(Leaves, u64)> {
        let mut leaves = Leaves { len: 0, leaves: [Leaf::Verdict(true); MOST_LEAVES] };
        let mut cost = 0u64;
        for &id in nodes {
            let (leaf, fuel) = Leaf::of(program, id)?;
            *leaves.leaves.get_mut(usize::from(leaves.len))? = leaf;
            leaves.len += 1;
            cost = cost.saturating_add(fuel);
        }
        Some((leaves, cost))
    }

    /// Whether `v` passes the leaves joined by `connective` (running out
    /// of fuel stops, as in the VM).
    #[inline(always)]
    fn pass(&self, connective: Connective, ops: &Operands, v: &Value, strict_integers: bool, fuel: &mut Tank) -> Flow {
        let mut passed = 0usize;
        for leaf in self.leaves.iter().take(usize::from(self.len)) {
            if leaf.passes(ops, v, strict_integers, fuel)? {
                passed += 1;
                match connective {
                    Connective::Any => return Ok(true),
                    Connective::One if passed > 1 => return Ok(false),
                    _ => {}
                }
            } else if let Connective::All = connective {
                return Ok(false);
            }
        }
        Ok(match connective {
            Connective::All => true,
            Connective::Any => false,
            Connective::One => passed == 1,
        })
    }
}

impl QuietRoot {
    /// Whether the root runs the interpreter ([`QuietStart::run`]).
    #[inline(always)]
    fn runs_the_vm(&self) -> bool {
        matches!(self, QuietRoot::Object(..) | QuietRoot::Array(..) | QuietRoot::Node)
    }

    /// Whether the root may make a VM: the interpreter roots and a tuple
    /// (for its items past the leading leaves).
    fn may_make_a_vm(&self) -> bool {
        self.runs_the_vm() || matches!(self, QuietRoot::Tuple(..))
    }

    /// The direct root of a root node with `entry` and `code`, if it is
    /// one and `budget` has the fuel of its entry, and the budget's fuel
    /// less that entry (what each check starts with).
    ///
    /// A direct root is a root whose one instruction needs no VM (the
    /// node's `Single`, `Number` or `Direct` entry): number, string,
    /// `enum` and `const` checks, object checks of sizes and `required`
    /// only or of a scan whose schemas are verdicts and bare types, array
    /// checks of bounds, verdict or type prefixes, a fused
    /// items plan and `uniqueItems`, or of bounds and a [`Leaf`]'s
    /// `contains`, and `allOf`, `anyOf`, `oneOf` or `not` of at most
    /// [`MOST_LEAVES`] leaves whose fuel, all of it, fits in the budget.
    /// It is checked by the functions the VM runs (array and object
    /// checks that the value's size alone settles, by a comparison of the
    /// size in place), their fuel charged to a [`Tank`] holding what the
    /// budget allows past the entry, and `integer`'s strictness read from
    /// the program. Neither a VM nor an evaluation frame is set up: for a
    /// schema such as `{"minimum": 3}` these were most of the work.
    fn direct(entry: Entry, code: &[Instr], program: &Program, budget: &Budget) -> Option<(QuietRoot, u64)> {
        // A combinator (its entry one unit) whose leaves, all of them, fit
        // in the budget: neither its evaluation here nor the VM's (which
        // may skip some) runs out.
        let root = |check, cost: u64| {
            let fuel = budget.fuel.checked_sub(1)?;
            (cost <= fuel).then_some((check, fuel))
        };
        let combine = |connective, list| {
            let (leaves, cost) = Leaves::of(program, program.operands().quick_list(list))?;
            root(QuietRoot::Combine(connective, Box::new(leaves)), cost)
        };
        let (check, entry_fuel) = match (entry, code) {
            (Entry::Number, &[Instr::Number(id)]) => (QuietRoot::Number(id), 1 + NUMBER_BASE_FUEL),
            (Entry::Single, &[Instr::String(id)]) => (QuietRoot::String(id), 1),
            (Entry::Single, &[Instr::Enum(id)]) => (QuietRoot::Enum(id), 1),
            (Entry::Single, &[Instr::Const(id)]) => (QuietRoot::Const(id), 1),
            (Entry::Single, &[Instr::Object(id)]) if object::size_only(program.operands().object(id)) => {
                (QuietRoot::ObjectSize(id), 1)
            }
            (Entry::Single, &[Instr::Array(id)]) if array::size_only(program.operands().array(id)) => {
                (QuietRoot::ArraySize(id), 1)
            }
            (Entry::Single, &[Instr::Object(id)]) if object::counts_only(program.operands().object(id)) => {
                (QuietRoot::ObjectCounts(id), 1)
            }
            (Entry::Single, &[Instr::Object(id)]) if object::leaf_scan_only(program.operands().object(id)) => {
                (QuietRoot::ObjectLeaves(id), 1)
            }
            (Entry::Single, &[Instr::Array(id)]) if array::plan_only(program.operands().array(id)) => {
                (QuietRoot::ArrayPlan(id), 1)
            }
            (Entry::Single, &[Instr::Array(id)]) => {
                let c = program.operands().array(id);
                match c.contains {
                    Some(contains) if c.prefix.is_empty() && c.rest.is_none() && !c.unique_items => {
                        (QuietRoot::Contains(id, Leaf::of(program, contains.node)?.0), 1)
                    }
                    _ => return None,
                }
            }
            (Entry::Single | Entry::Direct, &[Instr::AllOf(list)]) => return combine(Connective::All, list),
            (Entry::Single | Entry::Direct, &[Instr::AnyOf(list)]) => return combine(Connective::Any, list),
            (Entry::Single | Entry::Direct, &[Instr::OneOf(list)]) => return combine(Connective::One, list),
            (Entry::Single | Entry::Direct, &[Instr::Not(child)]) => {
                let (leaf, cost) = Leaf::of(program, child)?;
                return root(QuietRoot::Not(leaf), cost);
            }
            _ => return None,
        };
        let fuel = budget.fuel.checked_sub(entry_fuel)?;
        Some((check, fuel))
    }
}

impl QuietStart {
    /// The start of `program`'s boolean path under `budget`.
    pub(crate) fn new(program: &Program, budget: &Budget) -> QuietStart {
        let node = program.node(program.root());
        // (Under a deadline, the general entry: it reads the clock.)
        let direct = match budget.deadline {
            None => QuietRoot::direct(node.entry(), program.code_of(node), program, budget),
            Some(_) => None,
        };
        if let Some((root, fuel)) = direct {
            return QuietStart { root, fuel };
        }
        // A `Single` node's one instruction, or a `Counted` node's only
        // one, run as `Counted` runs it, starting at the level it enters.
        let depth = u8::from(node.entry() == Entry::Counted);
        let root = match (node.entry(), program.code_of(node)) {
            (Entry::Valid | Entry::QuietValid, _) => QuietRoot::Verdict(true),
            (Entry::Invalid, _) => QuietRoot::Verdict(false),
            (Entry::Types, _) => QuietRoot::Types(node.types(), program.flags().strict_integers),
            (Entry::Single | Entry::Counted, &[Instr::Object(id)]) => QuietRoot::Object(id, depth),
            (Entry::Single | Entry::Counted, &[Instr::Array(id)]) if program.operands().array(id).is_tuple() => {
                QuietRoot::Tuple(id, depth)
            }
            (Entry::Single | Entry::Counted, &[Instr::Array(id)]) => QuietRoot::Array(id, depth),
            _ => QuietRoot::Node,
        };
        let general = budget.deadline.is_some() || program.flags().uses_dynamic_scope;
        if general && root.may_make_a_vm() {
            return QuietStart { root: QuietRoot::General, fuel: budget.fuel };
        }
        if let QuietRoot::Object(..) | QuietRoot::Array(..) | QuietRoot::Tuple(..) = root {
            // The unit the root's entry costs, charged once here, not per
            // evaluation, and for a `Counted` entry the level it enters.
            // Without them, the general entry runs out.
            if let (Some(fuel), true) = (budget.fuel.checked_sub(1), u32::from(depth) <= budget.max_depth) {
                return QuietStart { root, fuel };
            }
            return QuietStart { root: QuietRoot::Node, fuel: budget.fuel };
        }
        QuietStart { root, fuel: budget.fuel }
    }

    /// Whether `instance` passes `program` with the custom formats and
    /// within the budget `settings` gives (running out of it is a
    /// failure). The budget is the one this start was made for.
    /// `settings` is called only by the roots that read them.
    #[inline(always)]
    pub(crate) fn is_valid<'s>(
        &self,
        program: &Program,
        settings: impl FnOnce() -> (&'s CustomFormats, &'s Budget),
        instance: &Value,
    ) -> bool {
        if self.root.runs_the_vm() {
            let (formats, budget) = settings();
            return self.run(program, formats, budget, instance);
        }
        // A direct root's checks charge what the budget allows past its
        // entry (running out of it fails, as on the VM's boolean path).
        let fuel = &mut Tank(self.fuel);
        let strict_integers = program.flags().strict_integers;
        let flow = match self.root {
            QuietRoot::Types(types, strict_integers) => return types.admits(instance, strict_integers),
            QuietRoot::Verdict(verdict) => return verdict,
            // `General` (the interpreter roots returned above).
            QuietRoot::General | QuietRoot::Object(..) | QuietRoot::Array(..) | QuietRoot::Node => {
                let (formats, budget) = settings();
                return QuietStart::run_general(program, formats, budget, instance);
            }
            QuietRoot::Tuple(id, depth) => {
                let c = program.operands().array(id);
                let Value::Array(items) = instance else {
                    return scalar::fused_admits(c.type_fused, instance, strict_integers);
                };
                // The leading items a tuple checks in place are checked
                // before a VM is made: a tuple failing there needs none.
                match tuple_leaves(program, c, items, fuel) {
                    Ok(TupleStart::Decided(verdict)) => Ok(verdict),
                    Ok(TupleStart::Rest(targets, items)) => {
                        let (formats, budget) = settings();
                        return QuietStart::run_tuple_rest(program, formats, budget, (fuel.0, depth), targets, items);
                    }
                    Err(stop) => Err(stop),
                }
            }
            QuietRoot::Number(id) => {
                scalar::number_passes(program.operands().number(id), instance, strict_integers, fuel)
            }
            QuietRoot::String(id) => match instance {
                Value::String(s) => scalar::string_passes(program.operands().string(id), s, settings().0, fuel),
                _ => Ok(scalar::fused_admits(program.operands().string(id).type_fused, instance, strict_integers)),
            },
            QuietRoot::Enum(id) => {
                scalar::enum_passes(program.operands().enum_set(id), instance, strict_integers, fuel)
            }
            QuietRoot::Const(id) => scalar::const_passes(program.operands().value(id), instance, fuel),
            // Bounds alone, compared in place: a call of the general
            // checks saved six registers for loops these do not run.
            QuietRoot::ArraySize(id) => {
                let c = program.operands().array(id);
                let (fewest, most) = c.tuple_sizes;
                Ok(match instance {
                    Value::Array(items) => (fewest..=most).contains(&(items.len() as u64)),
                    _ => scalar::fused_admits(c.type_fused, instance, strict_integers),
                })
            }
            QuietRoot::ObjectSize(id) => {
                match object::sized_object(program.operands().object(id), instance, strict_integers) {
                    Ok(_) => Ok(true),
                    Err(verdict) => Ok(verdict),
                }
            }
            QuietRoot::ObjectCounts(id) => {
                object::counts_pass(program.operands().object(id), instance, strict_integers, fuel)
            }
            QuietRoot::ObjectLeaves(id) => {
                object::leaf_scan_passes(program.operands().object(id), instance, strict_integers, fuel)
            }
            QuietRoot::ArrayPlan(id) => {
                array::plan_passes(program.operands().array(id), instance, strict_integers, fuel)
            }
            QuietRoot::Contains(id, leaf) => {
                let ops = program.operands();
                leaf.contained(ops.array(id), ops, instance, strict_integers, fuel)
            }
            QuietRoot::Combine(connective, ref leaves) => {
                leaves.pass(connective, program.operands(), instance, strict_integers, fuel)
            }
            QuietRoot::Not(leaf) => {
                leaf.passes(program.operands(), instance, strict_integers, fuel).map(|passed| !passed)
            }
        };
        matches!(flow, Ok(true))
    }

    /// [`QuietStart::is_valid`] for a [`QuietRoot::General`] root.
    #[cold]
    #[inline(never)]
    fn run_general(program: &Program, formats: &CustomFormats, budget: &Budget, instance: &Value) -> bool {
        let mut vm = Vm::<Fast>::new(program, formats, budget);
        let flow = vm.run_root(instance);
        vm.discard();
        matches!(flow, Ok(true))
    }

    /// A tuple root's items from those [`tuple_leaves`] left on, with
    /// `fuel` left and the root's `depth`. Inlined into
    /// [`QuietStart::is_valid`], beside [`QuietStart::run`]: out of line,
    /// its second frame cost fast_valid 14 of 1,231 instructions per
    /// check (fast_invalid, decided before it, 2 fewer).
    #[inline(always)]
    fn run_tuple_rest(
        program: &Program,
        formats: &CustomFormats,
        budget: &Budget,
        (fuel, depth): (u64, u8),
        targets: &[Target],
        items: &[Value],
    ) -> bool {
        let mut vm = Vm::<Fast>::with_meter(program, formats, budget, Meter::started(budget, fuel), false);
        vm.meter.depth = u32::from(depth);
        let flow = vm.targets_pass(targets, items, &mut Evaluated::default());
        vm.discard_unscoped();
        matches!(flow, Ok(true))
    }

    /// [`QuietStart::is_valid`] when an interpreter is needed. Inlined
    /// into the caller: a call of its own added a frame (six saved
    /// registers and their restores) to every small document's check,
    /// about 20 of fast_invalid's 282 instructions, while the verdicts
    /// above gained at most one instruction from sharing the caller's
    /// frame.
    #[inline]
    fn run(&self, program: &Program, formats: &CustomFormats, budget: &Budget, instance: &Value) -> bool {
        // The meter is built in place in the VM. (The budget has no
        // deadline and the program no dynamic scope: see
        // [`QuietRoot::General`].)
        let mut vm = Vm::<Fast>::with_meter(program, formats, budget, Meter::started(budget, self.fuel), false);
        let mut ev = Evaluated::default();
        // A root that is one object or array instruction (the usual shape
        // of a document's schema) runs it directly, without the node and
        // instruction dispatch, its entry charged in the meter already.
        // (The instruction itself decides values of other types.)
        let flow = match self.root {
            QuietRoot::Object(id, depth) => {
                vm.meter.depth = u32::from(depth);
                vm.object_instr::<false>(id, instance, &mut ev)
            }
            QuietRoot::Array(id, depth) => {
                vm.meter.depth = u32::from(depth);
                vm.array_instr::<false>(id, instance, &mut ev)
            }
            _ => vm.node::<false>(program.root(), instance, &mut ev),
        };
        vm.discard_unscoped();
        matches!(flow, Ok(true))
    }
}

/// How far [`tuple_leaves`] got with a tuple root.
enum TupleStart<'p, 'v> {
    /// The verdict, found without a VM.
    Decided(bool),
    /// The bounds passed, the items are charged and the ones before these
    /// passed: a VM checks these items against these targets.
    Rest(&'p [Target], &'v [Value]),
}

/// A tuple root's checks on `items`, as the VM's tuple loop makes them
/// ([`Vm::tuple_items`]), up to the first item whose target needs the
/// VM: the bounds, the items' unit each, and each leading item whose
/// target is a [`Leaf`] (a verdict, a type, number checks, an `enum`,
/// string lengths). Most tuples of scalars (coordinates, fixed records)
/// are decided here, and one failing early costs no VM.
#[inline(always)]
fn tuple_leaves<'p, 'v>(
    program: &Program,
    c: &'p ArrayChecks,
    items: &'v [Value],
    fuel: &mut Tank,
) -> Result<TupleStart<'p, 'v>, Stop> {
    let (fewest, most) = c.tuple_sizes;
    if !(fewest..=most).contains(&(items.len() as u64)) {
        return Ok(TupleStart::Decided(false));
    }
    fuel.charge(c.prefix_targets.len().min(items.len()) as u64)?;
    let (ops, strict_integers) = (program.operands(), program.flags().strict_integers);
    for (i, (&target, item)) in c.prefix_targets.iter().zip(items).enumerate() {
        let Some(leaf) = Leaf::of_target(ops, target) else {
            let (targets, items) = (c.prefix_targets.get(i..), items.get(i..));
            return Ok(TupleStart::Rest(targets.unwrap_or_default(), items.unwrap_or_default()));
        };
        // Charged as the VM's target charges it.
        if !leaf.passes(ops, item, strict_integers, fuel)? {
            return Ok(TupleStart::Decided(false));
        }
    }
    Ok(TupleStart::Decided(true))
}

/// The interpreter state of one evaluation.
pub(crate) struct Vm<'p, 'v, M: Mode> {
    program: &'p Program,
    /// The program's operand tables, looked up once: the instructions
    /// read them by id, and each read would otherwise check whether the
    /// program holds any.
    ops: &'p Operands,
    formats: &'p CustomFormats,
    pub(crate) meter: Meter,
    /// The dynamic scope, kept only when the program resolves references
    /// through it (boxed: most programs never do, and an absent scope
    /// costs one check to create and drop).
    scope: Spare<DynamicScope>,
    /// Error recording (nothing in `Fast`).
    record: M::Record,
    pub(crate) errors: M::Errors,
    instance_path: M::Stack<InstanceStep<'v>>,
    keyword_path: M::Stack<KeywordStep<'p>>,
    /// A reusable string value for checking property names.
    name_scratch: Spare<Value>,
    /// `integer` excludes integral floats (draft-04).
    strict_integers: bool,
    /// Cached verdicts of [`NodeFlags::MEMO`] nodes.
    memo: memo::Memo,
    /// Output units (only in the annotating mode).
    units: M::Units,
    _mode: PhantomData<M>,
}

impl<'p, 'v, M: Mode> Vm<'p, 'v, M> {
    #[inline]
    pub(crate) fn new(program: &'p Program, formats: &'p CustomFormats, budget: &Budget) -> Self {
        let scoped = program.flags().uses_dynamic_scope;
        Self::with_meter(program, formats, budget, Meter::new(budget), scoped)
    }

    /// [`Vm::new`] with the meter of `budget` made already, keeping a
    /// dynamic scope if `scoped` (as the program needs if it
    /// [uses one](schemavm_compiler::bytecode::ProgramFlags::uses_dynamic_scope)).
    #[inline(always)]
    fn with_meter(
        program: &'p Program,
        formats: &'p CustomFormats,
        budget: &Budget,
        meter: Meter,
        scoped: bool,
    ) -> Self {
        debug_assert!(scoped == program.flags().uses_dynamic_scope);
        Vm {
            program,
            ops: program.operands(),
            formats,
            meter,
            scope: if scoped { Spare::some(Box::default()) } else { Spare::none() },
            record: M::Record::start(program, budget),
            errors: Default::default(),
            instance_path: Default::default(),
            keyword_path: Default::default(),
            name_scratch: Spare::none(),
            strict_integers: program.flags().strict_integers,
            memo: memo::Memo::default(),
            units: Default::default(),
            _mode: PhantomData,
        }
    }

    /// Ends the evaluation, calling the VM's drop glue only if it holds
    /// memory. (Most evaluations hold none, which a few inline tests find
    /// out; the glue is a call that tests every part.)
    #[inline(always)]
    pub(crate) fn discard(self) {
        let scoped = self.scope.get().is_some();
        self.discard_with(scoped);
    }

    /// [`Vm::discard`] for a VM made without a dynamic scope (none is made
    /// later): one part fewer to test.
    #[inline(always)]
    fn discard_unscoped(self) {
        debug_assert!(self.scope.get().is_none());
        self.discard_with(false);
    }

    /// [`Vm::discard`], where `scoped` says whether the VM holds a scope.
    #[inline(always)]
    fn discard_with(self, scoped: bool) {
        // Only these parts of a VM can hold memory (the output units of
        // the annotating mode are always dropped): the others' types need
        // no drop.
        const {
            assert!(
                !std::mem::needs_drop::<Meter>()
                    && !std::mem::needs_drop::<InstanceStep<'static>>()
                    && !std::mem::needs_drop::<KeywordStep<'static>>()
                    && (M::ANNOTATE || !std::mem::needs_drop::<M::Units>())
            )
        };
        if M::ANNOTATE
            || scoped
            || self.name_scratch.get().is_some()
            || self.record.holds_memory()
            || self.memo.holds_table()
            || self.errors.holds_memory()
            || self.instance_path.holds_memory()
            || self.keyword_path.holds_memory()
        {
            drop(self);
        } else {
            // Nothing to free (see above).
            std::mem::forget(self);
        }
    }

    /// Evaluates the program's root against `instance`.
    #[inline(always)]
    pub(crate) fn run_root(&mut self, instance: &'v Value) -> Flow {
        let mut ev = Evaluated::default();
        self.node::<false>(self.program.root(), instance, &mut ev)
    }

    /// Whether errors are recorded right now.
    #[inline(always)]
    fn collecting(&self) -> bool {
        M::COLLECT && self.record.get().is_some_and(|r| r.recording)
    }

    /// Whether fast paths that skip bookkeeping may run: no error is
    /// recorded and no output unit is built.
    #[inline(always)]
    fn unobserved(&self) -> bool {
        !self.annotating() && !self.collecting()
    }

    /// Runs `f` with recording off (its errors are never shown).
    #[inline]
    fn quietly<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let Some(was) = self.record.get_mut().map(|r| std::mem::replace(&mut r.recording, false)) else {
            return f(self);
        };
        let r = f(self);
        if let Some(record) = self.record.get_mut() {
            record.recording = was;
        }
        r
    }

    /// Runs `f` one step further along the evaluation path (and, if
    /// given, the instance).
    #[inline(always)]
    fn descend<R>(
        &mut self,
        keyword: &[KeywordStep<'p>],
        instance: Option<InstanceStep<'v>>,
        f: impl FnOnce(&mut Self) -> R,
    ) -> R {
        if !M::COLLECT || self.unobserved() {
            // The paths are only read to record errors and output units.
            return f(self);
        }
        self.keyword_path.extend_from_slice(keyword);
        if let Some(step) = instance {
            self.instance_path.push(step);
        }
        let r = f(self);
        if instance.is_some() {
            self.instance_path.pop();
        }
        let keep = self.keyword_path.len().saturating_sub(keyword.len());
        self.keyword_path.truncate(keep);
        r
    }

    /// While collecting, below the root (which the caller asked errors
    /// for): whether node `id` passes, checked first with recording off
    /// (as [`Fast`] checks it: no paths kept, the first failure ends it),
    /// so a subtree that passes costs no bookkeeping. If it fails, the
    /// caller evaluates it again, recording its errors; the fuel of both
    /// runs is charged. A pass is final: recorded, a subtree that passes
    /// holds no error at its end (the errors of its failed alternatives are
    /// dropped, their count given back to `max_errors`). With `TRACK`, what
    /// it evaluated is added to `ev` only if it passes.
    #[inline]
    fn passes_quietly<const TRACK: bool>(&mut self, id: NodeId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        // A check already known to fail ([`failures`]) is not run again.
        if self.known_to_fail(id, v) {
            return Ok(false);
        }
        self.quiet_trial::<TRACK>(ev, |vm, ev| vm.node::<TRACK>(id, v, ev))
    }

    /// Notes, during a quiet check while collecting (nothing else: a
    /// recorded failure has its errors already), that the object, array
    /// or `anyOf`/`oneOf` instruction `target` failed at `v`
    /// ([`failures`]). Programs with a dynamic scope note nothing.
    #[inline(always)]
    fn note_if_failed(&mut self, verdict: &Flow, target: Target, v: &Value) {
        if M::COLLECT && !M::ANNOTATE && matches!(verdict, Ok(false)) && !self.collecting() {
            self.note_failure(target, v);
        }
    }

    /// [`Vm::note_if_failed`] past its tests.
    #[cold]
    fn note_failure(&mut self, target: Target, v: &Value) {
        if self.scope.get().is_some() {
            return;
        }
        if let Some(record) = self.record.get_mut() {
            record.failures.get_or_insert_with(Box::default).note(target, v as *const Value as usize);
        }
    }

    /// Whether node `id` was noted failing at `v` ([`failures`]): its
    /// quiet pre-check would fail.
    #[inline(always)]
    fn known_to_fail(&self, id: NodeId, v: &Value) -> bool {
        match self.record.get() {
            Some(Record { failures: Some(failures), .. }) => self.noted(failures, id, v),
            _ => false,
        }
    }

    /// [`Vm::known_to_fail`] once some failure was noted.
    #[inline(never)]
    fn noted(&self, failures: &KnownFailures, id: NodeId, v: &Value) -> bool {
        let at = v as *const Value as usize;
        failures.any_at(at) && self.failure_key(id).is_some_and(|target| failures.contains(target, at))
    }

    /// The name node `id`'s failures are noted under ([`failures`]): past
    /// its forwarding `$ref`s (they all have its verdict), its only
    /// instruction if that is an object, array, `anyOf` or `oneOf`
    /// instruction (whose verdict is the node's, noted where the
    /// instruction runs), else none.
    fn failure_key(&self, id: NodeId) -> Option<Target> {
        let program = self.program;
        match *program.code_of(program.node(program.past_forwards(id))) {
            [Instr::Object(o)] => Some(Target::Object(o)),
            [Instr::Array(a)] => Some(Target::Array(a)),
            [Instr::AnyOf(list)] => Some(Target::AnyOf(list)),
            [Instr::OneOf(list)] => Some(Target::OneOf(list)),
            _ => None,
        }
    }

    /// Runs `check` with recording off; with `TRACK`, on its own
    /// [`Evaluated`], merged into `ev` only if it passes.
    #[inline(always)]
    fn quiet_trial<const TRACK: bool>(
        &mut self,
        ev: &mut Evaluated,
        check: impl FnOnce(&mut Self, &mut Evaluated) -> Flow,
    ) -> Flow {
        if TRACK {
            let mut trial = Evaluated::default();
            let passed = self.quietly(|vm| check(vm, &mut trial));
            if passed == Ok(true) {
                ev.merge(&trial);
            }
            passed
        } else {
            self.quietly(|vm| check(vm, ev))
        }
    }

    /// Gives back the count of `dropped` errors that were held.
    #[inline]
    fn forget_errors(&mut self, dropped: usize) {
        if let Some(record) = self.record.get_mut() {
            record.reported = record.reported.saturating_sub(dropped);
        }
    }

    /// Counts an error about to be reported against `max_errors`: whether
    /// it may be kept (else the list is marked truncated).
    fn count_report(&mut self) -> bool {
        let Some(record) = self.record.get_mut() else { return false };
        if record.reported >= record.max_errors {
            record.truncated = true;
            return false;
        }
        record.reported += 1;
        true
    }

    /// Some error was not recorded because of `max_errors`.
    pub(crate) fn truncated(&self) -> bool {
        self.record.get().is_some_and(|r| r.truncated)
    }

    /// Evaluates node `id` against `v`. With `TRACK`, what it evaluated is
    /// added to `ev` (only meaningful when the node passes).
    #[inline(always)]
    pub(crate) fn node<const TRACK: bool>(&mut self, id: NodeId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        self.node_with::<TRACK, true>(id, v, ev)
    }

    /// [`Vm::node`] for the innermost loops of an object scan (its
    /// patterns): a node of one instruction runs it through [`Vm::instr`],
    /// so that the loop holds one call, not a dispatch of its own (which
    /// measured slower there: the scan's registers spill around it).
    #[inline(always)]
    pub(crate) fn node_compact<const TRACK: bool>(&mut self, id: NodeId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        self.node_with::<TRACK, false>(id, v, ev)
    }

    /// [`Vm::node`] (`DISPATCH`: a node of one instruction of the usual
    /// kinds calls that instruction's function directly, without
    /// [`Vm::instr`]'s dispatch) or [`Vm::node_compact`].
    #[inline(always)]
    fn node_with<const TRACK: bool, const DISPATCH: bool>(
        &mut self,
        id: NodeId,
        v: &'v Value,
        ev: &mut Evaluated,
    ) -> Flow {
        if M::ANNOTATE && self.after_failure(id) {
            return self.without_units::<TRACK>(id, v, ev);
        }
        let program = self.program;
        let mut id = id;
        let mut node = program.node(id);
        if self.unobserved() {
            loop {
                match node.entry() {
                    Entry::Valid => return Ok(true),
                    Entry::QuietValid if !TRACK => return Ok(true),
                    // Tracked, its instructions run (they evaluate what
                    // `unevaluated*` reads), memoized if it is `MEMO`.
                    Entry::QuietValid => return self.node_recorded::<TRACK>(id, v, ev),
                    Entry::Invalid => return Ok(false),
                    Entry::Types => return Ok(node.types().admits(v, self.strict_integers)),
                    Entry::Direct => {
                        self.meter.charge(1)?;
                        return self.run::<TRACK>(program.code_of(node), v, ev);
                    }
                    Entry::Single => {
                        self.meter.charge(1)?;
                        return match node.first_instr() {
                            Some(&Instr::Object(id)) if DISPATCH => self.object_instr::<TRACK>(id, v, ev),
                            Some(&Instr::Array(id)) if DISPATCH => self.array_instr::<TRACK>(id, v, ev),
                            Some(&Instr::Enum(id)) if DISPATCH => self.check_enum(id, v),
                            Some(&Instr::String(id)) if DISPATCH => self.string_instr(id, v),
                            Some(instr) => self.instr::<TRACK>(instr, v, ev),
                            None => Ok(true),
                        };
                    }
                    Entry::Number => {
                        if let (true, Some(&Instr::Number(id))) = (DISPATCH, node.first_instr()) {
                            // The entry and the instruction's base unit are
                            // one charge.
                            self.meter.charge(1 + NUMBER_BASE_FUEL)?;
                            return self.number_instr_prepaid(id, v);
                        }
                        self.meter.charge(1)?;
                        return self.run::<TRACK>(program.code_of(node), v, ev);
                    }
                    Entry::Memo => return self.memoized::<TRACK>(id, v, ev),
                    // A node only recording memoizes: so does a quiet
                    // check while recording (the check below every
                    // recorded alternative would otherwise run it again
                    // for each).
                    Entry::Counted | Entry::Full if M::COLLECT && node.flags().contains(NodeFlags::MEMO) => {
                        return self.memoized::<TRACK>(id, v, ev);
                    }
                    Entry::Counted => {
                        self.meter.enter()?;
                        // Most nodes are one instruction: run in place,
                        // without the call to the loop.
                        let r = match program.code_of(node) {
                            &[Instr::Object(id)] if DISPATCH => self.object_instr::<TRACK>(id, v, ev),
                            &[Instr::OneOf(list)] if DISPATCH => self.alternatives::<TRACK>(Combine::One, list, v, ev),
                            [only] => self.instr::<TRACK>(only, v, ev),
                            code => self.run::<TRACK>(code, v, ev),
                        };
                        self.meter.leave();
                        return r;
                    }
                    Entry::Forward => {
                        // A `Forward` node's only instruction is a `$ref`.
                        if let Some(Instr::Ref(target)) = node.first_instr() {
                            self.meter.charge(1)?;
                            id = *target;
                            node = program.node(id);
                            continue;
                        }
                    }
                    Entry::Full => {}
                }
                break;
            }
        } else if (node.flags().contains(NodeFlags::ALWAYS_VALID) && !self.annotating())
            || (!M::ANNOTATE && self.meter.depth > 0 && self.passes_quietly::<TRACK>(id, v, ev)?)
        {
            return Ok(true);
        } else if node.flags().contains(NodeFlags::MEMO) && !self.annotating() {
            return self.memoized::<TRACK>(id, v, ev);
        }
        self.enter::<TRACK>(id, v, ev)
    }

    /// Evaluates a subschema by its [`Target`] (untracked, nothing
    /// recorded), as [`Vm::node`] evaluates its node.
    #[inline(always)]
    fn target(&mut self, target: Target, v: &'v Value, ev: &mut Evaluated) -> Flow {
        match target {
            Target::Valid => Ok(true),
            Target::Invalid => Ok(false),
            Target::Types(types) => Ok(types.admits(v, self.strict_integers)),
            Target::Number(id) => {
                self.meter.charge(1 + NUMBER_BASE_FUEL)?;
                self.number_instr_prepaid(id, v)
            }
            Target::Enum(id) => {
                self.meter.charge(1)?;
                self.check_enum(id, v)
            }
            Target::String(id) => {
                self.meter.charge(1)?;
                self.string_instr(id, v)
            }
            Target::Object(id) => {
                self.meter.charge(1)?;
                self.object_instr::<false>(id, v, ev)
            }
            Target::Array(id) => {
                self.meter.charge(1)?;
                self.array_instr::<false>(id, v, ev)
            }
            Target::OneOf(list) => {
                self.meter.charge(1)?;
                self.alternatives::<false>(Combine::One, list, v, ev)
            }
            Target::AnyOf(list) => {
                self.meter.charge(1)?;
                self.alternatives::<false>(Combine::Any, list, v, ev)
            }
            Target::Node(id) => self.node::<false>(id, v, ev),
        }
    }

    /// The memo for [`NodeFlags::MEMO`] nodes, else the general entry:
    /// [`Vm::node`] while recording, past its quiet pre-check, and for a
    /// tracked [`Entry::QuietValid`] node.
    #[inline(always)]
    fn node_recorded<const TRACK: bool>(&mut self, id: NodeId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        if self.program.node(id).flags().contains(NodeFlags::MEMO) && !self.annotating() {
            return self.memoized::<TRACK>(id, v, ev);
        }
        self.enter::<TRACK>(id, v, ev)
    }

    /// Evaluates child node `id` against `v` one step further along the
    /// evaluation path (and, if given, the instance). While recording
    /// errors (not output units), the child is first checked quietly, as
    /// [`Vm::node`] would, but before the paths grow: a child that passes,
    /// the usual case, costs no location bookkeeping.
    #[inline(always)]
    fn descend_node<const TRACK: bool>(
        &mut self,
        keyword: &[KeywordStep<'p>],
        instance: Option<InstanceStep<'v>>,
        id: NodeId,
        v: &'v Value,
        ev: &mut Evaluated,
    ) -> Flow {
        if !M::COLLECT || self.unobserved() {
            // No path is kept (as in `descend`).
            return self.node::<TRACK>(id, v, ev);
        }
        let node = self.program.node(id);
        if !M::ANNOTATE && node.entry() == Entry::Types && node.types().admits(v, self.strict_integers) {
            // A bare type check that passes records, tracks and charges
            // nothing: decided without the quiet pre-check.
            return Ok(true);
        }
        if !M::ANNOTATE && self.meter.depth > 0 {
            if node.flags().contains(NodeFlags::ALWAYS_VALID) || self.passes_quietly::<TRACK>(id, v, ev)? {
                return Ok(true);
            }
            return self.descend(keyword, instance, |vm| vm.node_recorded::<TRACK>(id, v, ev));
        }
        self.descend(keyword, instance, |vm| vm.node::<TRACK>(id, v, ev))
    }

    /// Looks node `id` up once for a loop that applies it to many values
    /// while nothing is recorded or annotated ([`Vm::unobserved`], not
    /// [`Mode::ANNOTATE`]): [`Vm::all_prepared`] then evaluates it as
    /// [`Vm::node`] would, without the entry dispatch. `Forward` entries
    /// are followed here (at most [`PREPARED_HOPS`]; a longer chain, even a
    /// cycle, is left to `node`), their fuel charged per evaluation.
    fn prepare(&self, id: NodeId) -> Prepared<'p> {
        let program = self.program;
        let (mut id, mut fuel) = (id, 0u64);
        for _ in 0..PREPARED_HOPS {
            let node = program.node(id);
            let step = match node.entry() {
                // Prepared nodes run untracked ([`Vm::all_prepared`]).
                Entry::Valid | Entry::QuietValid => PreparedStep::Verdict(true),
                Entry::Invalid => PreparedStep::Verdict(false),
                Entry::Types => PreparedStep::Types(node.types()),
                Entry::Direct => {
                    fuel += 1;
                    PreparedStep::Code(program.code_of(node))
                }
                Entry::Single | Entry::Number => {
                    fuel += 1;
                    PreparedStep::Single(node.first_instr())
                }
                Entry::Forward => match node.first_instr() {
                    Some(Instr::Ref(target)) => {
                        fuel += 1;
                        id = *target;
                        continue;
                    }
                    _ => PreparedStep::Node,
                },
                // (A `MEMO` node is memoized while recording: see `node`.)
                Entry::Counted if !(M::COLLECT && node.flags().contains(NodeFlags::MEMO)) => {
                    match program.code_of(node) {
                        [Instr::AnyOf(l) | Instr::OneOf(l)] => {
                            self.ops.type_switch(*l).map_or(PreparedStep::Node, PreparedStep::Switch)
                        }
                        _ => PreparedStep::Node,
                    }
                }
                Entry::Memo | Entry::Counted | Entry::Full => PreparedStep::Node,
            };
            return Prepared { id, fuel, step };
        }
        Prepared { id, fuel, step: PreparedStep::Node }
    }

    /// Whether every one of `values` passes a [`Vm::prepare`]d node, as
    /// [`Vm::node`] evaluates it untracked (stopping at the first that
    /// fails). The step is matched once, outside the loop: each kind of
    /// step gets a loop of its own.
    #[inline(always)]
    fn all_prepared(&mut self, p: &Prepared<'p>, values: &'v [Value], ev: &mut Evaluated) -> Flow {
        match p.step {
            PreparedStep::Verdict(valid) => self.each_passes(values, p.fuel, |_, _, _| Ok(valid), ev),
            PreparedStep::Types(types) => {
                let strict = self.strict_integers;
                self.each_passes(values, p.fuel, |_, v, _| Ok(types.admits(v, strict)), ev)
            }
            PreparedStep::Code(code) => self.each_passes(values, p.fuel, |vm, v, ev| vm.run::<false>(code, v, ev), ev),
            // Arrays of records: each item goes straight to the object's
            // checks, without the instruction dispatch.
            PreparedStep::Single(Some(&Instr::Object(id))) => {
                self.each_passes(values, p.fuel, |vm, v, ev| vm.object_instr::<false>(id, v, ev), ev)
            }
            PreparedStep::Single(Some(instr)) => {
                self.each_passes(values, p.fuel, |vm, v, ev| vm.instr::<false>(instr, v, ev), ev)
            }
            PreparedStep::Single(None) => self.each_passes(values, p.fuel, |_, _, _| Ok(true), ev),
            PreparedStep::Switch(switch) => {
                let strict = self.strict_integers;
                self.each_passes(
                    values,
                    p.fuel,
                    |vm, v, ev| {
                        vm.meter.enter()?;
                        let r = vm.target(switch.target(v, strict), v, ev);
                        vm.meter.leave();
                        r
                    },
                    ev,
                )
            }
            PreparedStep::Node => {
                let id = p.id;
                self.each_passes(values, p.fuel, |vm, v, ev| vm.node::<false>(id, v, ev), ev)
            }
        }
    }

    /// Whether `check` passes every one of `values`, charging `fuel` per
    /// value ([`Vm::all_prepared`]'s loop).
    #[inline(always)]
    fn each_passes(
        &mut self,
        values: &'v [Value],
        fuel: u64,
        mut check: impl FnMut(&mut Self, &'v Value, &mut Evaluated) -> Flow,
        ev: &mut Evaluated,
    ) -> Flow {
        for v in values {
            self.meter.charge(fuel)?;
            if !check(self, v, ev)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Evaluates a node (no memo lookup): depth and fuel accounting, the
    /// dynamic scope, and tracking for nodes that need it.
    #[inline(never)]
    fn enter<const TRACK: bool>(&mut self, id: NodeId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        self.enter_inline::<TRACK>(id, v, ev)
    }

    /// [`Vm::enter`], inlined where a caller's own frame can serve (the
    /// memo's warm-up).
    #[inline(always)]
    pub(super) fn enter_inline<const TRACK: bool>(&mut self, id: NodeId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        let node = self.program.node(id);
        let flags = node.flags();
        if self.annotating() {
            self.open_unit(id, v)?;
        }
        self.meter.enter()?;
        let dynamic = match self.scope.get_mut() {
            Some(scope) => scope.enter(node.resource()),
            None => false,
        };
        let previous = self.record.get_mut().map(|r| std::mem::replace(&mut r.current, id));
        // Reported and annotated evaluations run a node's tracked code where
        // it has one (`unevaluatedProperties` resolved statically for the
        // boolean path only).
        let tracked = if self.unobserved() { None } else { self.program.tracked_code(id) };
        let (code, tracks) = match tracked {
            Some(code) => (code, true),
            None => (
                self.program.code_of(node),
                flags.contains(NodeFlags::TRACKS_PROPERTIES) || flags.contains(NodeFlags::TRACKS_ITEMS),
            ),
        };
        let result = if tracks {
            let mut own = Evaluated::default();
            let r = self.run::<true>(code, v, &mut own);
            if TRACK && matches!(r, Ok(true)) {
                ev.merge(&own);
            }
            r
        } else {
            self.run::<TRACK>(code, v, ev)
        };
        if self.annotating() {
            self.close_unit(matches!(result, Ok(true)));
        }
        if let (Some(record), Some(previous)) = (self.record.get_mut(), previous) {
            record.current = previous;
        }
        if dynamic {
            if let Some(scope) = self.scope.get_mut() {
                scope.leave();
            }
        }
        self.meter.leave();
        result
    }

    #[inline]
    fn run<const TRACK: bool>(&mut self, code: &'p [Instr], v: &'v Value, ev: &mut Evaluated) -> Flow {
        if let [only] = code {
            return self.instr::<TRACK>(only, v, ev);
        }
        let mut valid = true;
        for instr in code {
            if !self.instr::<TRACK>(instr, v, ev)? {
                valid = false;
                if !self.collecting() {
                    return Ok(false);
                }
            }
        }
        Ok(valid)
    }

    /// Runs one instruction. Each arm is a call to the instruction's own
    /// function, kept out of line, so this is a jump table of sibling
    /// calls that saves no registers: a call costs the registers its own
    /// instruction needs, not those of the largest one.
    #[inline(never)]
    fn instr<const TRACK: bool>(&mut self, instr: &Instr, v: &'v Value, ev: &mut Evaluated) -> Flow {
        match *instr {
            Instr::Fail => self.fail(),
            Instr::Type(types) => self.check_type(types, v),
            Instr::Const(id) => self.check_const(id, v),
            Instr::Enum(id) => self.check_enum(id, v),
            Instr::Number(id) => self.number_instr(id, v),
            Instr::String(id) => self.string_instr(id, v),
            // Empty arrays are common and most array keywords apply per
            // item: decided here, without the call. (The same test for
            // empty objects costs more on object-heavy documents than it
            // saves.)
            Instr::Array(id) => match v {
                Value::Array(items) if items.is_empty() && !M::ANNOTATE && self.ops.array(id).admits_empty() => {
                    Ok(true)
                }
                _ => self.array_instr::<TRACK>(id, v, ev),
            },
            Instr::Object(id) => self.object_instr::<TRACK>(id, v, ev),
            Instr::AllOf(list) => self.all_of::<TRACK>(list, v, ev),
            Instr::AnyOf(list) => self.alternatives::<TRACK>(Combine::Any, list, v, ev),
            Instr::OneOf(list) => self.alternatives::<TRACK>(Combine::One, list, v, ev),
            Instr::Not(child) => self.not(child, v, ev),
            Instr::Cond(id) => self.cond::<TRACK>(id, v, ev),
            Instr::Ref(target) => self.static_ref::<TRACK>(target, v, ev),
            Instr::DynamicRef(id) => self.dynamic_ref::<TRACK>(id, v, ev),
            Instr::Content(id) => self.content_instr(id, v),
            Instr::UnevaluatedProperties(child) => self.unevaluated_properties_instr(child, v, ev),
            Instr::UnevaluatedItems(child) => self.unevaluated_items_instr(child, v, ev),
        }
    }

    /// `false`.
    #[inline(never)]
    fn fail(&mut self) -> Flow {
        if self.collecting() {
            self.report(&[] as &[&str], ErrorKind::False, None);
        }
        Ok(false)
    }

    /// The number checks, charging [`NUMBER_BASE_FUEL`]. (The verdict
    /// first, then the charge: only the verdict lives across the charge's
    /// cold call, so this saves one register, not four.)
    #[inline(never)]
    fn number_instr(&mut self, id: NumberId, v: &'v Value) -> Flow {
        let verdict = self.number_verdict(id, v);
        self.meter.charge(NUMBER_BASE_FUEL)?;
        verdict
    }

    /// [`Vm::number_instr`] whose base unit the caller charged, with the
    /// node's entry: one charge, not two.
    #[inline(never)]
    fn number_instr_prepaid(&mut self, id: NumberId, v: &'v Value) -> Flow {
        self.number_verdict(id, v)
    }

    /// The number checks past their base unit of fuel. An integer checked
    /// against a machine-integer range with nothing recorded, the usual
    /// case, is decided here; the rest, out of line, keeps this path's
    /// registers few.
    #[inline(always)]
    fn number_verdict(&mut self, id: NumberId, v: &'v Value) -> Flow {
        let c = self.ops.number(id);
        if let (Value::Number(n), Some(range)) = (v, c.integer_range) {
            if let (false, Some(i)) = (self.collecting(), n.as_i64()) {
                return Ok(scalar::integer_passes(c, range, i));
            }
        }
        self.number_checks(c, v)
    }

    /// [`Vm::number_instr`] past its integer range shortcut.
    #[inline(never)]
    fn number_checks(&mut self, c: &'p NumberChecks, v: &'v Value) -> Flow {
        if !self.collecting() {
            return scalar::number_passes(c, v, self.strict_integers, &mut self.meter);
        }
        match v {
            Value::Number(n) => self.check_number(c, n, v),
            _ => self.required_kind(c.type_fused, v),
        }
    }

    #[inline(never)]
    fn string_instr(&mut self, id: StringId, v: &'v Value) -> Flow {
        let c = self.ops.string(id);
        match v {
            Value::String(s) => self.check_string(c, s),
            _ => self.required_kind(c.type_fused, v),
        }
    }

    #[inline(never)]
    fn array_instr<const TRACK: bool>(&mut self, id: ArrayId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        let verdict = self.array_checks::<TRACK>(id, v, ev);
        if !TRACK {
            // (As object and list instructions: untracked checks only.)
            self.note_if_failed(&verdict, Target::Array(id), v);
        }
        verdict
    }

    /// [`Vm::array_instr`]'s checks.
    #[inline(always)]
    fn array_checks<const TRACK: bool>(&mut self, id: ArrayId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        let c = self.ops.array(id);
        match v {
            Value::Array(items) if !TRACK && self.unobserved() && c.prefix.is_empty() && c.contains.is_none() => {
                self.uniform_items(c, items, ev)
            }
            // Not for the quiet pre-checks of a recording mode: there the
            // tuple loop ran `iter_errors` of fast_invalid 11% slower than
            // `check_array` (295 against 262 ns, for 72 fewer instructions).
            Value::Array(items) if !TRACK && !M::COLLECT && self.unobserved() && c.is_tuple() => {
                self.tuple_items(c, items, ev)
            }
            Value::Array(items) => self.check_array::<TRACK>(c, items, ev),
            _ => self.required_kind(c.type_fused, v),
        }
    }

    /// The object instruction: [`Vm::object_quietly`] when nothing is
    /// recorded or tracked, else [`Vm::object_observed`].
    #[inline(always)]
    fn object_instr<const TRACK: bool>(&mut self, id: ObjectId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        if !TRACK && self.unobserved() {
            let verdict = self.object_quietly(id, v, ev);
            self.note_if_failed(&verdict, Target::Object(id), v);
            verdict
        } else {
            self.object_observed::<TRACK>(id, v, ev)
        }
    }

    /// The object instruction when nothing is recorded or tracked. A
    /// function of its own, apart from the recording paths: the scan of
    /// every small object pays only for the registers and stack this path
    /// needs.
    #[inline(never)]
    fn object_quietly(&mut self, id: ObjectId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        let c = self.ops.object(id);
        match v {
            Value::Object(map) => match self.check_object_quietly(c, map, v, ev) {
                Some(flow) => flow,
                None => self.object_observed::<false>(id, v, ev),
            },
            _ => self.required_kind(c.type_fused, v),
        }
    }

    /// The object instruction on the general path (errors recorded,
    /// properties tracked, or names the quiet scan cannot check).
    #[inline(never)]
    fn object_observed<const TRACK: bool>(&mut self, id: ObjectId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        let c = self.ops.object(id);
        match v {
            Value::Object(map) => self.check_object::<TRACK>(c, map, v, ev),
            _ => self.required_kind(c.type_fused, v),
        }
    }

    /// `allOf`.
    #[inline(never)]
    fn all_of<const TRACK: bool>(&mut self, list: ListId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        if self.unobserved() {
            if let (false, Some(switch), Value::Object(map)) = (TRACK, self.ops.condition_switch(list), v) {
                return self.switched(switch, map, v, ev);
            }
            // Nothing recorded: the subschemas run past their forwarding
            // `$ref`s, and the first failure decides.
            for &child in self.ops.quick_list(list) {
                if !self.node::<TRACK>(child, v, ev)? {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        let children = self.ops.list(list).iter().enumerate().map(|(i, &child)| (KeywordStep::Index(i), child));
        self.all_pass::<TRACK>("allOf", children, v, ev)
    }

    /// An `allOf` with a [`ConditionSwitch`] on object `map` (`v`), nothing
    /// recorded or tracked: the members that are not conditions on the
    /// switch's property, then the `then` schemas of the conditions whose
    /// `if` the property's value (or absence) passes. (The other
    /// conditions pass: their `if` fails and they have no `else`.) A unit
    /// of fuel for the property's lookup.
    fn switched(
        &mut self,
        switch: &'p ConditionSwitch,
        map: &'v Map<String, Value>,
        v: &'v Value,
        ev: &mut Evaluated,
    ) -> Flow {
        self.meter.charge(1)?;
        let chosen: &[NodeId] = match member(map, &switch.property) {
            None => &switch.absent,
            Some(Value::String(s)) => {
                switch.values.find(s).and_then(|i| switch.slots.get(i as usize)).map_or(&[], |slot| slot)
            }
            // No condition's `if` admits a value that is not a string.
            Some(_) => &[],
        };
        for &node in switch.always.iter().chain(chosen) {
            if !self.node::<false>(node, v, ev)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether `v` passes every node of `children`, each evaluated in place
    /// one step below `keyword` (`allOf`'s index, `dependentSchemas`'
    /// property name): the first failure ends it unless errors are
    /// recorded.
    #[inline(always)]
    fn all_pass<const TRACK: bool>(
        &mut self,
        keyword: &'static str,
        children: impl Iterator<Item = (KeywordStep<'p>, NodeId)>,
        v: &'v Value,
        ev: &mut Evaluated,
    ) -> Flow {
        let mut valid = true;
        for (step, child) in children {
            let ok = self.descend_node::<TRACK>(&[KeywordStep::Word(keyword), step], None, child, v, ev)?;
            if !ok {
                valid = false;
                if !self.collecting() {
                    return Ok(false);
                }
            }
        }
        Ok(valid)
    }

    /// `not`.
    #[inline(never)]
    fn not(&mut self, child: NodeId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        let matched = self.quietly_at("not", None, |vm| vm.node::<false>(child, v, ev))?;
        if matched && self.collecting() {
            self.report(&["not"], ErrorKind::Not, None);
        }
        Ok(!matched)
    }

    /// `if`/`then`/`else`.
    #[inline(never)]
    fn cond<const TRACK: bool>(&mut self, id: CondId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        let c = self.program.cond(id);
        if !TRACK && !self.annotating() && c.then.is_none() && c.otherwise.is_none() {
            return Ok(true);
        }
        let passed = if TRACK {
            let mut test_ev = Evaluated::default();
            let passed = self.quietly_at("if", None, |vm| vm.node::<true>(c.test, v, &mut test_ev))?;
            if passed {
                ev.merge(&test_ev);
            }
            passed
        } else {
            self.quietly_at("if", None, |vm| vm.node::<false>(c.test, v, ev))?
        };
        let (branch, keyword) = if passed { (c.then, "then") } else { (c.otherwise, "else") };
        match branch {
            Some(node) => self.descend_node::<TRACK>(&[KeywordStep::Word(keyword)], None, node, v, ev),
            None => Ok(true),
        }
    }

    /// `$ref` with a static target.
    #[inline(never)]
    fn static_ref<const TRACK: bool>(&mut self, target: NodeId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        self.descend_node::<TRACK>(&[KeywordStep::Word("$ref")], None, target, v, ev)
    }

    /// `$dynamicRef` / `$recursiveRef` through the dynamic scope.
    #[inline(never)]
    fn dynamic_ref<const TRACK: bool>(&mut self, id: DynamicRefId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        let d = self.program.dynamic_ref(id);
        let target = self.resolve_dynamic(d);
        self.descend_node::<TRACK>(&[KeywordStep::Word(d.keyword)], None, target, v, ev)
    }

    #[inline(never)]
    fn content_instr(&mut self, id: ContentId, v: &'v Value) -> Flow {
        match v {
            Value::String(s) => self.check_content(self.program.content(id), s),
            _ => Ok(true),
        }
    }

    #[inline(never)]
    fn unevaluated_properties_instr(&mut self, child: NodeId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        match v {
            Value::Object(map) => self.unevaluated_properties(child, map, ev),
            _ => Ok(true),
        }
    }

    #[inline(never)]
    fn unevaluated_items_instr(&mut self, child: NodeId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        match v {
            Value::Array(items) => self.unevaluated_items(child, items, ev),
            _ => Ok(true),
        }
    }

    /// The id of the current dynamic scope (0 when empty or unused).
    fn scope_id(&self) -> u32 {
        self.scope.get().map_or(0, DynamicScope::id)
    }

    /// The target of a dynamic reference: the outermost resource in the
    /// dynamic scope defining the anchor, else the static target.
    fn resolve_dynamic(&self, d: &schemavm_compiler::bytecode::DynamicRef) -> NodeId {
        for &res in self.scope.get().map_or(&[][..], |s| &s.resources) {
            // (A program using a dynamic scope keeps every resource.)
            let Some(r) = self.program.resource(res) else { continue };
            let found = match &d.anchor {
                Some(name) => r.dynamic_anchors.iter().find(|(a, _)| a == name).map(|(_, n)| *n),
                None => r.recursive_anchor,
            };
            if let Some(node) = found {
                return node;
            }
        }
        d.fallback
    }

    /// `anyOf` / `oneOf`: [`Vm::alternatives_quietly`] when nothing is
    /// recorded or tracked, else [`Vm::alternatives_observed`].
    #[inline(always)]
    fn alternatives<const TRACK: bool>(
        &mut self,
        combine: Combine,
        list_id: ListId,
        v: &'v Value,
        ev: &mut Evaluated,
    ) -> Flow {
        if !TRACK && self.unobserved() {
            let verdict = self.alternatives_quietly(combine, list_id, v, ev);
            let target = match combine {
                Combine::Any => Target::AnyOf(list_id),
                Combine::One => Target::OneOf(list_id),
            };
            self.note_if_failed(&verdict, target, v);
            verdict
        } else {
            self.alternatives_observed::<TRACK>(combine, list_id, v, ev)
        }
    }

    /// `anyOf` / `oneOf` when nothing is recorded or tracked: through the
    /// list's type switch, discriminator or type masks, the alternatives
    /// past their forwarding `$ref`s. A function of its own, apart from
    /// the recording path's bookkeeping, as [`Vm::object_quietly`] is.
    #[inline(never)]
    fn alternatives_quietly(&mut self, combine: Combine, list_id: ListId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        let Narrowing { switch, quick: list, by_members } = self.ops.narrowing(list_id);
        if let Some(switch) = switch {
            // One alternative admits the value's kind: its verdict.
            return self.target(switch.target(v, self.strict_integers), v, ev);
        }
        if let (Some(by_members), Value::Object(map)) = (by_members, v) {
            if let Some(filter) = &by_members.names {
                return self.filtered(combine, filter, list, map, v, ev);
            }
            if let Some(p) = &by_members.presence {
                if map.len() <= object::PRESENCE_MEMBERS_PER_ALTERNATIVE.saturating_mul(p.alternatives as usize) {
                    return object::presence_passes(p, combine == Combine::Any, map, &mut self.meter);
                }
            }
            let chosen = by_members.discriminator.as_ref().and_then(|d| d.choose(member(map, &d.property)));
            if let Some((order, decision)) = chosen {
                // The value names one alternative: the verdict is that of
                // the node it leads to, past nested lists the same property
                // discriminates.
                return match decision {
                    Some(Decision::Node(child)) => self.node::<false>(child, v, ev),
                    // That node's object instruction without the
                    // property's check, which the value passes: run in
                    // place as a type switch runs one.
                    Some(Decision::Object(object)) => self.target(Target::Object(object), v, ev),
                    Some(Decision::CountedObject(object)) => {
                        self.meter.enter()?;
                        let verdict = self.object_instr::<false>(object, v, ev);
                        self.meter.leave();
                        verdict
                    }
                    None => self.candidates::<false>(combine, list, order, v, ev),
                };
            }
        }
        let Some(masks) = self.ops.alternative_masks(list_id) else {
            return self.first_matches(combine, list.iter().copied(), true, v, ev);
        };
        // Only the alternatives admitting `v`'s type can match; the others
        // are skipped without reading their nodes.
        let admitting = masks.admitting(v, self.strict_integers);
        if admitting.is_power_of_two() {
            // One alternative can match (a list split by type): the verdict
            // is its own, for `anyOf` and `oneOf` alike.
            let child = list.get(admitting.trailing_zeros() as usize).copied();
            return child.map_or(Ok(false), |child| self.node::<false>(child, v, ev));
        }
        let children = Bits(admitting).filter_map(|i| list.get(i).copied());
        self.first_matches(combine, children, false, v, ev)
    }

    /// `anyOf` / `oneOf` through a name filter when nothing is recorded
    /// or tracked: only the alternatives every name of object `map` (the
    /// value `v`) admits, whose required names are all there, can match,
    /// so only they run (in order), for a unit of fuel per name. Out of
    /// line and cold: most lists have no filter, and a list's other
    /// narrowings stay laid out as without it.
    #[cold]
    #[inline(never)]
    fn filtered(
        &mut self,
        combine: Combine,
        filter: &'p NameFilter,
        list: &'p [NodeId],
        map: &'v Map<String, Value>,
        v: &'v Value,
        ev: &mut Evaluated,
    ) -> Flow {
        self.meter.charge(map.len() as u64)?;
        let passing = filter.candidates(map.keys());
        if passing.is_power_of_two() {
            let child = list.get(passing.trailing_zeros() as usize).copied();
            return child.map_or(Ok(false), |child| self.node::<false>(child, v, ev));
        }
        let children = Bits(passing).filter_map(|i| list.get(i).copied());
        self.first_matches(combine, children, false, v, ev)
    }

    /// `anyOf` / `oneOf` while errors are recorded or properties tracked.
    /// When none matches, the error names the closest alternative and is
    /// followed by that alternative's own errors.
    #[inline(never)]
    fn alternatives_observed<const TRACK: bool>(
        &mut self,
        combine: Combine,
        list_id: ListId,
        v: &'v Value,
        ev: &mut Evaluated,
    ) -> Flow {
        if self.unobserved() {
            // Tracked, nothing recorded: the discriminator still narrows
            // the alternatives, past their forwarding `$ref`s.
            let list = self.ops.quick_list(list_id);
            if let (Some(d), Value::Object(map)) = (self.ops.discriminator(list_id), v) {
                if let Some((order, _)) = d.choose(member(map, &d.property)) {
                    return self.candidates::<TRACK>(combine, list, order, v, ev);
                }
            }
        }
        if M::COLLECT && !M::ANNOTATE && self.collecting() {
            // A list that passes quietly (through its discriminator, if
            // any) reports nothing: the usual case needs no alternative
            // recorded, nor the errors of those that fail.
            let passed = self.quiet_trial::<TRACK>(ev, |vm, ev| vm.alternatives::<TRACK>(combine, list_id, v, ev))?;
            if passed {
                return Ok(true);
            }
        }
        let list = self.ops.list(list_id);
        let keyword = combine.keyword();
        // Every alternative runs here; the discriminator, if any, still
        // tells which ones the instance meant.
        let meant = self
            .ops
            .discriminator(list_id)
            .filter(|_| self.collecting())
            .and_then(|d| d.candidates(v.as_object()?.get(&*d.property)));
        let mark = self.errors.len();
        let truncated_before = self.truncated();
        let mut count = 0usize;
        // Indices of the matching branches, kept only for messages.
        let mut matched = SmallVec::<[usize; INLINE_STACK]>::new();
        let mut matched_ev = Evaluated::default();
        let mut closest: Option<(BranchScore, usize, SmallVec<[ValidationError; INLINE_STACK]>)> = None;
        for (i, &child) in list.iter().enumerate() {
            let mut branch_ev = Evaluated::default();
            let target = if TRACK { &mut branch_ev } else { &mut *ev };
            let ok = match self.descend_node::<TRACK>(
                &[KeywordStep::Word(keyword), KeywordStep::Index(i)],
                None,
                child,
                v,
                target,
            ) {
                Ok(ok) => ok,
                Err(reason) => {
                    // The errors of an unfinished branch are tentative (another
                    // branch may match): drop them rather than leave them in
                    // `iter_errors` before the budget error.
                    self.forget_errors(self.errors.len().saturating_sub(mark));
                    self.errors.truncate(mark);
                    return Err(reason);
                }
            };
            if ok {
                count += 1;
                if TRACK {
                    match combine {
                        Combine::Any => ev.merge(&branch_ev),
                        Combine::One => matched_ev = branch_ev,
                    }
                }
                let decided = match combine {
                    Combine::Any => !TRACK && !self.annotating(),
                    Combine::One => count > 1 && !self.collecting(),
                };
                if decided {
                    break;
                }
                if self.collecting() {
                    matched.push(i);
                }
            } else if self.collecting() {
                let errors = self.errors.split_off(mark);
                let index = u32::try_from(i).unwrap_or(u32::MAX);
                // The candidates are in order.
                let off = meant.is_some_and(|candidates| candidates.binary_search(&index).is_err());
                let score = BranchScore::of(&errors, self.instance_path.len(), off);
                if closest.as_ref().is_none_or(|(best, _, _)| score < *best) {
                    if let Some((_, _, dropped)) = closest.replace((score, i, errors)) {
                        self.forget_errors(dropped.len());
                    }
                } else {
                    self.forget_errors(errors.len());
                }
            }
        }
        let valid = match combine {
            Combine::Any => count >= 1,
            Combine::One => count == 1,
        };
        if valid {
            if TRACK && combine == Combine::One {
                ev.merge(&matched_ev);
            }
            if let Some((_, _, dropped)) = closest {
                self.forget_errors(dropped.len());
                // What was cut off belonged to alternatives now dropped.
                if let Some(record) = self.record.get_mut() {
                    record.truncated = truncated_before;
                }
            }
            return Ok(true);
        }
        if self.collecting() {
            if count > 1 {
                if let Some((_, _, dropped)) = closest.take() {
                    self.forget_errors(dropped.len());
                }
                self.report(&[keyword], ErrorKind::OneOfMultiple { matched: matched.into_vec() }, None);
            } else {
                let alternatives = list.len();
                let (index, errors) = match closest {
                    Some((_, i, errors)) => (Some(i), errors),
                    None => (None, SmallVec::new()),
                };
                let kind = match combine {
                    Combine::Any => ErrorKind::AnyOf { alternatives, closest: index },
                    Combine::One => ErrorKind::OneOfNone { alternatives, closest: index },
                };
                self.report(&[keyword], kind, None);
                self.errors.extend(errors);
            }
        }
        Ok(false)
    }

    /// `anyOf`/`oneOf` through a discriminator: only the alternatives
    /// `order` names (those its property's value, or absence, admits) can
    /// match, so only they run (in order). Used when no error is recorded.
    /// (Untracked, a value with a
    /// [decisive](schemavm_compiler::bytecode::Candidates::decisive) node
    /// goes to that node before this.)
    #[inline(never)]
    fn candidates<const TRACK: bool>(
        &mut self,
        combine: Combine,
        list: &'p [NodeId],
        order: &'p [u32],
        v: &'v Value,
        ev: &mut Evaluated,
    ) -> Flow {
        // One candidate: the verdict is its own.
        if let ([only], false) = (order, TRACK) {
            return list.get(*only as usize).map_or(Ok(false), |&child| self.node::<false>(child, v, ev));
        }
        let children = order.iter().filter_map(|&i| list.get(i as usize).copied());
        if !TRACK {
            return self.first_matches(combine, children, true, v, ev);
        }
        let mut count = 0usize;
        let mut matched_ev = Evaluated::default();
        for child in children {
            let mut branch_ev = Evaluated::default();
            if self.node::<true>(child, v, &mut branch_ev)? {
                count += 1;
                match combine {
                    Combine::Any => ev.merge(&branch_ev),
                    Combine::One if count > 1 => return Ok(false),
                    Combine::One => matched_ev = branch_ev,
                }
            }
        }
        match combine {
            Combine::Any => Ok(count >= 1),
            Combine::One => {
                if count == 1 {
                    ev.merge(&matched_ev);
                }
                Ok(count == 1)
            }
        }
    }

    /// `anyOf`/`oneOf` over `children` when nothing is recorded or
    /// tracked: stops as soon as the verdict is known, and (with
    /// `check_types`; else the caller has) skips the alternatives that
    /// admit no value of the instance's type (so a `oneOf` split by type
    /// evaluates one alternative).
    fn first_matches(
        &mut self,
        combine: Combine,
        children: impl Iterator<Item = NodeId>,
        check_types: bool,
        v: &'v Value,
        ev: &mut Evaluated,
    ) -> Flow {
        let mut count = 0usize;
        for child in children {
            let types = if check_types { self.program.node(child).admitted_types() } else { TypeSet::ANY };
            if types != TypeSet::ANY && !types.admits(v, self.strict_integers) {
                continue;
            }
            if self.node::<false>(child, v, ev)? {
                count += 1;
                if combine == Combine::Any || count > 1 {
                    return Ok(combine == Combine::Any);
                }
            }
        }
        Ok(count == 1 && combine == Combine::One)
    }

    /// Evaluates `node` against a value that is not part of the instance
    /// (a property name, decoded content). Errors, if recorded, are
    /// returned for the caller to place.
    fn detached(&mut self, node: NodeId, value: &Value) -> Result<(bool, Vec<ValidationError>), Stop> {
        let mut sub: Vm<'p, '_, M> = Vm {
            program: self.program,
            ops: self.ops,
            formats: self.formats,
            meter: self.meter.clone(),
            scope: self.scope.clone(),
            record: self.record.fork(),
            errors: Default::default(),
            instance_path: Default::default(),
            keyword_path: Default::default(),
            name_scratch: Spare::none(),
            strict_integers: self.strict_integers,
            memo: memo::Memo::default(),
            units: Default::default(),
            _mode: PhantomData,
        };
        let result = sub.node::<false>(node, value, &mut Evaluated::default());
        self.meter = sub.meter;
        if let (Some(record), Some(done)) = (self.record.get_mut(), sub.record.get()) {
            record.reported = done.reported;
            record.truncated |= done.truncated;
        }
        Ok((result?, sub.errors.into_vec()))
    }

    /// Records an error for `keyword` (steps below the current node) at
    /// the current instance location.
    #[inline]
    fn report(&mut self, keyword: &[impl SuffixStep], kind: impl Into<Detail>, found: impl Into<Shown<'v>>) {
        self.report_below((), keyword, kind, found);
    }

    /// [`Vm::report`] at the member or item of the current instance
    /// location that `below` names, if any (without pushing it onto the
    /// path).
    #[inline]
    fn report_below(
        &mut self,
        below: impl Below<'v>,
        keyword: &[impl SuffixStep],
        kind: impl Into<Detail>,
        found: impl Into<Shown<'v>>,
    ) {
        if !self.count_report() {
            return;
        }
        let mut error = self.make_error(keyword, below);
        error.describe(kind, found);
        if M::ANNOTATE {
            self.unit_error(&error);
        }
        self.errors.push(error);
    }

    /// Reports member `key` of the object being scanned as one that
    /// `keyword` (`additionalProperties` or `unevaluatedProperties`) does
    /// not allow, the object's other names being `allowed`. The first such
    /// member of a scan is recorded as any error is; the next ones are
    /// copies of it with the last key of the instance location replaced
    /// (their locations differ in nothing else), which skips writing the
    /// keyword locations again. The scan clears the mark between objects
    /// ([`Vm::forget_sibling`]).
    fn report_unknown(&mut self, keyword: &'static str, allowed: impl FnOnce() -> Arc<[String]>, key: &'v str) {
        if !self.count_report() {
            return;
        }
        let copied = self.record.get().and_then(|r| r.sibling).and_then(|i| self.errors.get(i)?.for_sibling(key));
        let error = match copied {
            Some(error) => error,
            None => {
                let mut error = self.make_error(&[keyword], key);
                error.describe(Pending::UnexpectedProperty { keyword, allowed: allowed() }, None);
                let at = self.errors.len();
                if let Some(r) = self.record.get_mut() {
                    r.sibling = Some(at);
                }
                error
            }
        };
        if M::ANNOTATE {
            self.unit_error(&error);
        }
        self.errors.push(error);
    }

    /// Forgets which error [`Vm::report_unknown`] copies: called when a
    /// scan of an object's members starts and ends, so that a copy is
    /// only ever made of an error about a sibling member.
    #[inline(always)]
    fn forget_sibling(&mut self) {
        if let Some(r) = self.record.get_mut() {
            r.sibling = None;
        }
    }

    /// Builds the error at the current locations (of kind
    /// [`ErrorKind::False`] until described), its instance location
    /// extended by `below`'s step if any: the keyword location, the
    /// absolute keyword location and (for a short instance location, built
    /// only when asked for) the instance keys are written into one buffer,
    /// inside the error when short.
    #[cold]
    #[inline(never)]
    fn make_error(&self, keyword: &[impl SuffixStep], below: impl Below<'v>) -> ValidationError {
        let below = below.step();
        let node_location = self.program.location(self.record.get().map_or(self.program.root(), |r| r.current));
        ValidationError::record(|locations, path| {
            push_keyword_path(locations, &self.keyword_path);
            // If the node's location ends with the path to it, the text is
            // now that location, and the keyword location its tail.
            let in_absolute = locations.become_fragment_of(node_location);
            let suffix_start = locations.mark();
            for k in keyword {
                k.push_to(locations);
            }
            let keyword_location = match in_absolute {
                Some(start) => KeywordText::InAbsolute(start),
                None => {
                    let keyword_end = locations.mark();
                    locations.push_str(node_location);
                    locations.repeat(suffix_start, keyword_end);
                    KeywordText::First(keyword_end)
                }
            };
            let inline = self.instance_path.iter().all(|step| match *step {
                InstanceStep::Key(k) => path.push_key(k.len()),
                InstanceStep::Index(i) => path.push_index(i),
            }) && match below {
                Some(InstanceStep::Key(k)) => path.push_key(k.len()),
                Some(InstanceStep::Index(i)) => path.push_index(i),
                None => true,
            };
            if !inline {
                return (keyword_location, Some(self.instance_location(below)));
            }
            for step in self.instance_path.iter() {
                if let InstanceStep::Key(k) = *step {
                    locations.push_str(k);
                }
            }
            if let Some(InstanceStep::Key(k)) = below {
                locations.push_str(k);
            }
            (keyword_location, None)
        })
    }

    /// The current instance location, and then `below` if given.
    fn instance_location(&self, below: Option<InstanceStep<'_>>) -> InstanceLocation {
        InstanceLocation::from_segments(
            self.instance_path
                .iter()
                .chain(below.iter())
                .map(|s| match s {
                    InstanceStep::Key(k) => PathSegment::Key((*k).to_string()),
                    InstanceStep::Index(i) => PathSegment::Index(*i),
                })
                .collect(),
        )
    }

    /// Re-roots errors found by a detached evaluation under the current
    /// location and `keyword`.
    fn adopt(&self, keyword: &[&'static str], errors: Vec<ValidationError>) -> Vec<ValidationError> {
        let base = self.make_error(keyword, ());
        errors
            .into_iter()
            .map(|e| {
                e.rerooted(&base).unwrap_or_else(|mut e| {
                    let location = base.instance_location().join(e.instance_location());
                    e.0.set_instance_location(location);
                    e.0.prefix_keyword_location(base.keyword_location());
                    e
                })
            })
            .collect()
    }
}

/// Objects up to this size are searched for a member by a scan.
const SCANNED_MEMBERS: usize = 12;

/// The value of member `key` of `map`. A small map is scanned comparing
/// lengths first (most keys differ in length, so they need no byte
/// comparison); a B-tree search compares bytes at every step.
#[inline]
pub(crate) fn member<'v>(map: &'v serde_json::Map<String, Value>, key: &str) -> Option<&'v Value> {
    if map.len() <= SCANNED_MEMBERS {
        map.iter()
            .find(|(k, _)| k.len() == key.len() && schemavm_compiler::bytes::equal(k.as_bytes(), key.as_bytes()))
            .map(|(_, v)| v)
    } else {
        map.get(key)
    }
}

fn render_keyword_path(steps: &[KeywordStep<'_>]) -> String {
    let mut out = String::with_capacity(keyword_path_len(steps));
    push_keyword_path(&mut out, steps);
    out
}

/// Text a JSON Pointer is written to.
trait PointerText {
    /// Appends `s`.
    fn push_str(&mut self, s: &str);
    /// Appends `/` and `token`, which needs no escaping.
    fn push_token(&mut self, token: &str) {
        self.push_str("/");
        self.push_str(token);
    }
}

impl PointerText for String {
    #[inline]
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s);
    }
}

impl PointerText for TextWriter<'_> {
    #[inline(always)]
    fn push_str(&mut self, s: &str) {
        TextWriter::push_str(self, s);
    }
    #[inline(always)]
    fn push_token(&mut self, token: &str) {
        TextWriter::push_token(self, token);
    }
}

/// A step of the keyword location below the current node, as
/// [`Vm::report`] takes it: a keyword (a `&'static str`, written as it
/// is: no keyword needs escaping) or any [`KeywordStep`].
trait SuffixStep {
    /// Appends `/` and the step.
    fn push_to(&self, out: &mut impl PointerText);
}

impl SuffixStep for &'static str {
    #[inline(always)]
    fn push_to(&self, out: &mut impl PointerText) {
        out.push_token(self);
    }
}

impl SuffixStep for KeywordStep<'_> {
    #[inline(always)]
    fn push_to(&self, out: &mut impl PointerText) {
        push_keyword_path(out, std::slice::from_ref(self));
    }
}

/// Appends the JSON Pointer of `steps` to `out`.
#[inline(always)]
fn push_keyword_path(out: &mut impl PointerText, steps: &[KeywordStep<'_>]) {
    for s in steps {
        match *s {
            KeywordStep::Word(w) => out.push_token(w),
            KeywordStep::Name(w) => push_token(out, w),
            KeywordStep::Index(i) => push_index(out, i),
        }
    }
}

/// Appends `/i` (in decimal, without the formatting machinery).
#[inline(always)]
fn push_index(out: &mut impl PointerText, i: usize) {
    const DIGITS: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
    match DIGITS.get(i) {
        Some(digit) => out.push_token(digit),
        None => push_long_index(out, i),
    }
}

/// [`push_index`] for `i` of two digits or more.
fn push_long_index(out: &mut impl PointerText, i: usize) {
    // The 20 digits of `usize::MAX` at most.
    let mut text = [b'0'; 20];
    let mut start = text.len();
    let mut rest = i;
    while let Some(digit) = start.checked_sub(1).and_then(|at| text.get_mut(at)) {
        *digit = b'0' + (rest % 10) as u8;
        start -= 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.push_token(text.get(start..).and_then(|t| std::str::from_utf8(t).ok()).unwrap_or_default());
}

/// The length of the JSON Pointer of `steps`, in bytes, if no token needs
/// escaping (a capacity hint: escaping is rare).
fn keyword_path_len(steps: &[KeywordStep<'_>]) -> usize {
    steps
        .iter()
        .map(|s| match *s {
            KeywordStep::Word(w) | KeywordStep::Name(w) => 1 + w.len(),
            KeywordStep::Index(i) => 1 + i.checked_ilog10().map_or(1, |d| d as usize + 1),
        })
        .sum()
}

/// Appends `/token`, escaped, to a JSON Pointer.
#[inline(always)]
fn push_token(out: &mut impl PointerText, token: &str) {
    if schemavm_compiler::pointer::needs_escape(token) {
        push_escaped_token(out, token);
    } else {
        out.push_token(token);
    }
}

/// Appends `/` and `token` with `~` and `/` escaped, written in pieces
/// (not a new string per replacement: regular expressions of
/// `patternProperties`, such as OpenAPI's `^/`, are the usual tokens here).
#[cold]
fn push_escaped_token(out: &mut impl PointerText, token: &str) {
    out.push_str("/");
    for piece in schemavm_compiler::pointer::escaped_pieces(token) {
        out.push_str(piece);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every validator holds a [`QuietStart`]: it stays three words (a
    /// combinator's leaves are boxed, `integer`'s strictness is the
    /// program's), which keeps the smallest validators smaller than
    /// jsonschema's.
    #[test]
    fn quiet_start_stays_three_words() {
        assert_eq!(std::mem::size_of::<QuietStart>(), 24);
        // A combinator root still decides in place.
        let schema = serde_json::json!({"anyOf": [{"type": "string"}, {"minimum": 3}]});
        let program = schemavm_compiler::compile(&schema, &Default::default()).expect("compiles");
        let start = QuietStart::new(&program, &Budget::DEFAULT);
        assert!(matches!(start.root, QuietRoot::Combine(Connective::Any, _)));
        let formats = CustomFormats::new(Vec::new());
        let settings = || (&formats, &Budget::DEFAULT);
        assert!(start.is_valid(&program, settings, &serde_json::json!("x")));
        assert!(start.is_valid(&program, settings, &serde_json::json!(4)));
        assert!(!start.is_valid(&program, settings, &serde_json::json!(2)));
    }

    /// Object roots whose scan checks only verdicts and bare types are
    /// direct roots; one whose schema needs the VM (a nested object, a
    /// pattern) is not.
    #[test]
    fn leaf_scans_are_direct_roots() {
        let root = |schema: serde_json::Value| {
            let program = schemavm_compiler::compile(&schema, &Default::default()).expect("compiles");
            QuietStart::new(&program, &Budget::DEFAULT).root
        };
        let leaves = [
            serde_json::json!({"additionalProperties": {"type": "string"}}),
            serde_json::json!({"properties": {"a": {"type": "integer"}, "b": false}, "required": ["a"]}),
        ];
        for schema in leaves {
            assert!(matches!(root(schema.clone()), QuietRoot::ObjectLeaves(_)), "{schema}");
        }
        let general = [
            serde_json::json!({"properties": {"a": {"properties": {"b": {"type": "string"}}}}}),
            serde_json::json!({"properties": {"a": {"type": "string", "minLength": 2}}}),
            serde_json::json!({"patternProperties": {"^a": {"type": "string"}}}),
        ];
        for schema in general {
            assert!(matches!(root(schema.clone()), QuietRoot::Object(..)), "{schema}");
        }
    }

    #[test]
    fn keyword_paths_render_at_their_computed_length() {
        for i in [0, 7, 9, 10, 99, 100, 12_345, usize::MAX] {
            let steps = [KeywordStep::Word("items"), KeywordStep::Index(i), KeywordStep::Word("$ref")];
            let rendered = render_keyword_path(&steps);
            assert_eq!(rendered, format!("/items/{i}/$ref"));
            assert_eq!(rendered.len(), keyword_path_len(&steps));
        }
        // A name from the schema is escaped; a keyword is written as it is.
        assert_eq!(render_keyword_path(&[KeywordStep::Name("a/b~c")]), "/a~1b~0c");
        assert_eq!(render_keyword_path(&[KeywordStep::Word("properties"), KeywordStep::Name("x")]), "/properties/x");
        assert_eq!(render_keyword_path(&[]), "");
    }

    /// Every place where a name the schema chose enters a keyword
    /// location (`properties`, `patternProperties`, `dependentRequired`,
    /// `dependentSchemas`) escapes it, in the evaluation path and in the
    /// absolute location.
    #[test]
    fn names_in_error_locations_are_escaped() {
        let schema = serde_json::json!({
            "$id": "https://example.com/s",
            "properties": {"~a/b": {"type": "number"}},
            "patternProperties": {"^x/": {"type": "string"}},
            "dependentRequired": {"c/d": ["e"]},
            "dependentSchemas": {"g~h": {"required": ["i"]}}
        });
        let v = crate::Validator::new(&schema).unwrap();
        let instance = serde_json::json!({"~a/b": "s", "x/1": 2, "c/d": 1, "g~h": 1});
        let mut found: Vec<(String, String)> = v
            .iter_errors(&instance)
            .map(|e| (e.keyword_location().to_string(), e.absolute_keyword_location().to_string()))
            .collect();
        found.sort();
        let expected = [
            "/dependentRequired/c~1d",
            "/dependentSchemas/g~0h/required",
            "/patternProperties/^x~1/type",
            "/properties/~0a~1b/type",
        ];
        let expected: Vec<(String, String)> =
            expected.iter().map(|k| (k.to_string(), format!("https://example.com/s#{k}"))).collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn tokens_are_escaped_in_pieces_as_the_pointer_module_escapes_them() {
        for token in ["", "a", "~", "/", "a/b~c", "//~~", "^/", "é/€~𝄞", "x~"] {
            let mut written = String::new();
            push_token(&mut written, token);
            assert_eq!(written, format!("/{}", schemavm_compiler::pointer::escape(token)), "{token}");
        }
    }

    /// An unknown property is reported at its own location, the key
    /// appended below the current one: for short paths (kept inline in
    /// the error) and for paths deep or long enough to be built at once,
    /// with keys needing escapes.
    #[test]
    fn unknown_properties_are_reported_below_their_object() {
        let closed = serde_json::json!({"properties": {"a": true}, "additionalProperties": false});
        let long = "k".repeat(90);
        for depth in [0usize, 1, 3, 12, 40] {
            let mut schema = closed.clone();
            let mut instance = serde_json::json!({"a": 1, "x/y": 2, "é~": 3});
            instance[long.as_str()] = Value::from(4);
            for _ in 0..depth {
                schema = serde_json::json!({"properties": {"n": {"items": schema}}});
                instance = serde_json::json!({"n": [instance]});
            }
            let v = crate::Validator::new(&schema).unwrap();
            let mut found: Vec<(String, String)> = v
                .iter_errors(&instance)
                .map(|e| (e.instance_location().to_pointer(), e.keyword_location().to_string()))
                .collect();
            found.sort();
            let base = "/n/0".repeat(depth);
            let keyword = format!("{}/additionalProperties", "/properties/n/items".repeat(depth));
            let mut expected: Vec<(String, String)> =
                ["x~1y", "é~0", long.as_str()].iter().map(|k| (format!("{base}/{k}"), keyword.clone())).collect();
            expected.sort();
            assert_eq!(found, expected, "depth {depth}");
            for e in v.iter_errors(&instance) {
                let crate::ErrorKind::UnexpectedProperty { name, allowed, .. } = e.kind() else {
                    panic!("{e:?}");
                };
                assert!(e.instance_location().to_pointer().ends_with(&name.replace('~', "~0").replace('/', "~1")));
                assert_eq!(&allowed[..], ["a".to_string()]);
            }
        }
    }

    /// The errors about the second and later unknown members of an object
    /// are copies of the first one's (`report_unknown`): each equals, in
    /// every part and in its message, the error recorded when that member
    /// is the object's only unknown one, whatever is scanned between them
    /// (nested objects with unknown members of their own, under other
    /// keywords), however deep, with keys that need escapes, are not
    /// ASCII or are too long for the error's inline text.
    #[test]
    fn copied_unknown_property_errors_equal_fresh_ones() {
        let long = "k".repeat(60);
        let unknown = ["x/y", "é~", "zz", long.as_str(), "ü", "q"];
        let closed = |keyword: &str| {
            serde_json::json!({
                "properties": {"a": true, "m": {"properties": {"b": true}, keyword: false}},
                keyword: false,
            })
        };
        let schemas = [
            closed("additionalProperties"),
            closed("unevaluatedProperties"),
            // Resolved at run time (the `anyOf` may evaluate members).
            serde_json::json!({"properties": {"a": true, "m": {"properties": {"b": true}, "additionalProperties": false}},
                "anyOf": [{"properties": {"never": true}}], "unevaluatedProperties": false}),
        ];
        let object = |keys: &[&str]| {
            // Known members between the unknown ones: one an object with
            // unknown members of its own.
            let mut o = serde_json::json!({"a": 1, "m": {"b": 1, "inner1": 1, "inner2": 2}});
            for k in keys {
                o[*k] = Value::from(0);
            }
            o
        };
        for schema in schemas {
            for depth in [0usize, 2, 40] {
                let (mut s, mut all, mut single) = (schema.clone(), object(&unknown), Vec::new());
                for k in unknown {
                    single.push(object(&[k]));
                }
                for _ in 0..depth {
                    s = serde_json::json!({"properties": {"n": {"items": s}}});
                    all = serde_json::json!({"n": [all]});
                    for one in single.iter_mut() {
                        *one = serde_json::json!({"n": [one.take()]});
                    }
                }
                let v = crate::Validator::new(&s).unwrap();
                let errors: Vec<ValidationError> = v.iter_errors(&all).collect();
                let mut fresh: Vec<ValidationError> = Vec::new();
                for one in &single {
                    for e in v.iter_errors(one) {
                        if !fresh.contains(&e) {
                            fresh.push(e);
                        }
                    }
                }
                assert_eq!(errors.len(), unknown.len() + 2, "{s} depth {depth}: {errors:?}");
                for e in &errors {
                    let twin = fresh.iter().find(|f| *f == e);
                    assert!(twin.is_some(), "{s} depth {depth}: {e:?} not among {fresh:?}");
                    assert_eq!(twin.map(|f| f.to_string()), Some(e.to_string()));
                }
                assert_eq!(fresh.len(), errors.len(), "depth {depth}");
                // Annotating, each error (copies included) also goes into
                // its output unit.
                let evaluation = v.evaluate(&all).unwrap();
                let mut annotated: Vec<String> = evaluation.errors().map(|e| e.to_string()).collect();
                let mut collected: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
                annotated.sort();
                collected.sort();
                assert_eq!(annotated, collected, "{s} depth {depth}");
            }
        }
    }

    /// A copy made after the first error's instance location and kind
    /// were built (which leaves its inline path as it was) is about the
    /// sibling, not the first member.
    #[test]
    fn an_error_whose_location_was_built_is_copied_for_a_sibling() {
        let schema = serde_json::json!({"items": {"additionalProperties": false}});
        let v = crate::Validator::new(&schema).unwrap();
        let first = v.iter_errors(&serde_json::json!([{"x/": 1}])).next().unwrap();
        assert_eq!(first.instance_location().to_pointer(), "/0/x~1");
        assert!(matches!(first.kind(), crate::ErrorKind::UnexpectedProperty { name, .. } if name == "x/"));
        let copy = first.for_sibling("é").unwrap();
        assert_eq!(copy.instance_location().to_pointer(), "/0/é");
        assert_eq!(copy.keyword_location(), first.keyword_location());
        assert_eq!(copy.absolute_keyword_location(), first.absolute_keyword_location());
        assert!(matches!(copy.kind(), crate::ErrorKind::UnexpectedProperty { name, .. } if name == "é"));
        assert_eq!(copy.to_string(), first.to_string().replace("x/", "é"));
    }

    /// A copied unknown-property error counts against `max_errors` like
    /// any other.
    #[test]
    fn copied_unknown_property_errors_count_against_max_errors() {
        let schema = serde_json::json!({"additionalProperties": false});
        let instance = serde_json::json!({"a": 1, "b": 2, "c": 3, "d": 4});
        let v = crate::Validator::options().max_errors(2).build(&schema).unwrap();
        let errors: Vec<ValidationError> = v.iter_errors(&instance).collect();
        let locations: Vec<String> = errors.iter().map(|e| e.instance_location().to_pointer()).collect();
        assert_eq!(locations, ["/a", "/b", ""], "{errors:?}");
        assert!(matches!(errors.last().map(|e| e.kind()), Some(crate::ErrorKind::ErrorLimit { max: 2 })));
    }

    /// Items no keyword admits, and properties `unevaluatedProperties` or
    /// `propertyNames` rejects, are reported at their own location too,
    /// short or deep.
    #[test]
    fn rejected_items_and_names_are_reported_below_their_parent() {
        let cases = [
            (
                serde_json::json!({"prefixItems": [true], "items": false}),
                serde_json::json!([1, 2, 3]),
                vec!["/1", "/2"],
            ),
            (
                serde_json::json!({"$schema": "http://json-schema.org/draft-07/schema#", "items": [true], "additionalItems": false}),
                serde_json::json!([1, 2]),
                vec!["/1"],
            ),
            (
                serde_json::json!({"prefixItems": [true], "unevaluatedItems": false}),
                serde_json::json!([1, 2, 3]),
                vec!["/1", "/2"],
            ),
            (
                serde_json::json!({"properties": {"a": true}, "anyOf": [true], "unevaluatedProperties": false}),
                serde_json::json!({"a": 1, "b/": 2}),
                vec!["/b~1"],
            ),
            // The rejected name at its property; the name's own errors at
            // the object (a name is not an instance location).
            (
                serde_json::json!({"propertyNames": {"maxLength": 1}}),
                serde_json::json!({"a": 1, "bc": 2}),
                vec!["", "/bc"],
            ),
        ];
        for (inner, leaf, expected) in cases {
            for depth in [0usize, 2, 40] {
                let (mut schema, mut instance) = (inner.clone(), leaf.clone());
                for _ in 0..depth {
                    schema = serde_json::json!({"items": schema});
                    instance = serde_json::json!([instance]);
                }
                if inner.get("$schema").is_some() {
                    schema["$schema"] = inner["$schema"].clone();
                }
                let v = crate::Validator::new(&schema).unwrap();
                let mut found: Vec<String> =
                    v.iter_errors(&instance).map(|e| e.instance_location().to_pointer()).collect();
                found.sort();
                let base = "/0".repeat(depth);
                let mut want: Vec<String> = expected.iter().map(|p| format!("{base}{p}")).collect();
                want.sort();
                assert_eq!(found, want, "{inner} at depth {depth}");
            }
        }
    }

    #[test]
    fn members_are_found_in_small_and_large_maps() {
        for size in [0usize, 3, SCANNED_MEMBERS, SCANNED_MEMBERS + 1, 40] {
            let map: serde_json::Map<String, Value> = (0..size).map(|i| (format!("k{i:02}"), Value::from(i))).collect();
            for i in 0..size {
                assert_eq!(member(&map, &format!("k{i:02}")), Some(&Value::from(i)), "{size}");
            }
            // Same length, other bytes; a prefix; a longer key.
            for absent in ["k99", "kx0", "k", "k000", ""] {
                assert_eq!(member(&map, absent), None, "{size} {absent}");
            }
        }
    }
}
