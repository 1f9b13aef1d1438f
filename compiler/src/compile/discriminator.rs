//! Discriminated `anyOf`/`oneOf`: when the alternatives constrain one
//! property, an object instance can only match the alternatives its value
//! (or its absence) admits, so the VM evaluates just those.
//!
//! An alternative *pins* property `p` to values `S` when, at its own
//! location (through `$ref` and `allOf`), an object keyword applies a
//! schema to `p` that is a `const` or an all-string `enum` (possibly behind
//! `$ref`/`allOf`), or it holds an `anyOf`/`oneOf` whose alternatives all
//! pin `p` (to the union of their values): if the instance has `p` with a
//! value outside `S`, the alternative fails. It *requires* `p` when
//! `required` names it there (or every alternative of a nested
//! `anyOf`/`oneOf` requires it): an object without `p` fails. It *forbids*
//! `p` when an object with `p` fails there: `properties` gives `p` the
//! `false` schema, or no `properties` entry or pattern covers `p` and
//! `additionalProperties` is `false` (or every nested alternative forbids
//! it). Alternatives that constrain nothing stay candidates for every
//! value; OpenAPI's `oneOf: [{$ref: Parameter}, {$ref: Reference}]` is
//! decided by whether `$ref` is present.
//!
//! Once the node entries are known, a value that leaves one candidate is
//! *settled*: the node it leads to, past nested lists on the same property
//! ([`Candidates::decisive`]). When that node is one object instruction
//! whose schema for the property certainly admits the value (a tagged
//! union's `const`/`enum` tag), the boolean path runs a copy of the
//! instruction without the property's check ([`Candidates::pinned`]): the
//! value chose the variant, so it passes. The copies are bounded: they
//! hold at most as many entries as the program's objects did.

use std::collections::{BTreeMap, btree_map};

use super::names::Names;
use super::{analysis, cost};
use crate::bytecode::*;
use crate::hash::{TextMap, TextSet};
use crate::value::JsonType;

/// How far the search follows `$ref`/`allOf`.
pub(super) const MAX_HOPS: usize = 8;

/// The string values `node` pins `property` to, if it does.
fn pinned<'p>(program: &'p Program, node: NodeId, property: &str, hops: usize) -> Option<Vec<&'p str>> {
    if hops > MAX_HOPS {
        return None;
    }
    let mut result: Option<Vec<&'p str>> = None;
    let mut narrow = |values: Vec<&'p str>| intersect(&mut result, values);
    for instr in program.code(node) {
        match *instr {
            Instr::Object(o) => {
                let o = program.operands().object(o);
                let schema = o.names.find(property).and_then(|i| o.entries.get(i as usize)).and_then(|e| e.schema);
                if let Some(values) = schema.and_then(|s| constants(program, s, hops + 1)) {
                    narrow(values);
                }
            }
            Instr::Ref(n) => {
                if let Some(values) = pinned(program, n, property, hops + 1) {
                    narrow(values);
                }
            }
            Instr::AllOf(l) => {
                for &n in program.operands().list(l) {
                    if let Some(values) = pinned(program, n, property, hops + 1) {
                        narrow(values);
                    }
                }
            }
            // Alternatives that all pin the property pin it to the union
            // of their values: outside it, each of them fails.
            Instr::AnyOf(l) | Instr::OneOf(l) => {
                let mut union = Distinct::default();
                let every = program.operands().list(l).iter().all(|&n| match pinned(program, n, property, hops + 1) {
                    Some(values) => {
                        union.extend(values);
                        true
                    }
                    None => false,
                });
                if every {
                    narrow(union.list);
                }
            }
            _ => {}
        }
    }
    result
}

/// The string constants a schema admits, if it is a string `const` or an
/// all-string `enum` (behind `$ref`/`allOf`), so that it rejects every
/// other value, strings or not.
fn constants<'p>(program: &'p Program, node: NodeId, hops: usize) -> Option<Vec<&'p str>> {
    if hops > MAX_HOPS {
        return None;
    }
    let mut result: Option<Vec<&'p str>> = None;
    let mut narrow = |values: Vec<&'p str>| intersect(&mut result, values);
    for instr in program.code(node) {
        match *instr {
            // A `const` that is not a string admits a value the string
            // pins cannot name (the VM gives a non-string instance value
            // only the alternatives pinning nothing): such a schema does
            // not pin the property.
            Instr::Const(v) => match program.operands().value(v).as_str() {
                Some(s) => narrow(vec![s]),
                None => return None,
            },
            Instr::Enum(e) => {
                let set = program.operands().enum_set(e);
                if set.all_strings {
                    narrow(set.strings.keys().collect());
                }
            }
            Instr::Ref(n) => {
                if let Some(values) = constants(program, n, hops + 1) {
                    narrow(values);
                }
            }
            Instr::AllOf(l) => {
                for &n in program.operands().list(l) {
                    if let Some(values) = constants(program, n, hops + 1) {
                        narrow(values);
                    }
                }
            }
            _ => {}
        }
    }
    result
}

/// Property names pinned by some object keyword of `node` (through
/// `$ref`, `allOf`, `anyOf` and `oneOf`): the candidates for a
/// discriminator.
fn candidate_properties<'p>(program: &'p Program, node: NodeId, out: &mut Distinct<'p>) {
    let pinned = |o: &'p ObjectChecks, hops: usize| {
        o.names
            .keys()
            .zip(o.entries.iter())
            .filter(move |(_, e)| e.schema.is_some_and(|s| constants(program, s, hops + 1).is_some()))
            .map(|(name, _)| name)
    };
    object_names(program, node, 0, Walk::Alternatives, &pinned, out);
}

/// Property names `required` by some object keyword of `node` (through
/// `$ref`/`allOf` only: what one alternative requires, the others need
/// not): candidates for a discriminator by presence.
fn required_properties<'p>(program: &'p Program, node: NodeId, out: &mut Distinct<'p>) {
    let required = |o: &'p ObjectChecks, _: usize| o.required.iter().filter_map(|&i| o.names.key(i));
    object_names(program, node, 0, Walk::Conjuncts, &required, out);
}

/// Which subschemas [`object_names`] enters besides `$ref`s.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Walk {
    /// `allOf` only.
    Conjuncts,
    /// `allOf`, `anyOf` and `oneOf`.
    Alternatives,
}

/// Adds to `out`, each once, the names `names` gives for every object
/// keyword of `node` and of the subschemas `walk` enters, up to
/// [`MAX_HOPS`] deep (`names` is given the keyword's depth).
pub(super) fn object_names<'p, I: IntoIterator<Item = &'p str>>(
    program: &'p Program,
    node: NodeId,
    hops: usize,
    walk: Walk,
    names: &impl Fn(&'p ObjectChecks, usize) -> I,
    out: &mut Distinct<'p>,
) {
    if hops > MAX_HOPS {
        return;
    }
    for instr in program.code(node) {
        let list = match *instr {
            Instr::Object(o) => {
                out.extend(names(program.operands().object(o), hops));
                continue;
            }
            Instr::Ref(n) => {
                object_names(program, n, hops + 1, walk, names, out);
                continue;
            }
            Instr::AllOf(l) => l,
            Instr::AnyOf(l) | Instr::OneOf(l) if walk == Walk::Alternatives => l,
            _ => continue,
        };
        for &n in program.operands().list(list) {
            object_names(program, n, hops + 1, walk, names, out);
        }
    }
}

/// Sets of values longer than this are hashed; shorter ones (most
/// schemas' pinned values and names) are scanned.
const SCANNED_VALUES: usize = 16;

/// Distinct strings in the order first added. (A short list is scanned;
/// a long one, as an `enum` of hundreds of licence names makes, is also
/// hashed, once, so that adding to it costs constant time however many
/// calls add.)
#[derive(Debug, Default)]
pub(super) struct Distinct<'p> {
    pub(super) list: Vec<&'p str>,
    /// The list's strings, once it holds [`SCANNED_VALUES`].
    seen: Option<TextSet<&'p str>>,
}

impl<'p> Distinct<'p> {
    /// Adds the `values` the list does not hold yet, in order.
    fn extend(&mut self, values: impl IntoIterator<Item = &'p str>) {
        for v in values {
            let new = match &mut self.seen {
                Some(seen) => seen.insert(v),
                None if self.list.len() < SCANNED_VALUES => !self.list.contains(&v),
                None => self.seen.insert(self.list.iter().copied().collect()).insert(v),
            };
            if new {
                self.list.push(v);
            }
        }
    }
}

/// Narrows `result` (`None`: no constraint yet) to the `values` it
/// holds, in its order.
fn intersect<'p>(result: &mut Option<Vec<&'p str>>, values: Vec<&'p str>) {
    *result = Some(match result.take() {
        None => values,
        Some(prev) if values.len() <= SCANNED_VALUES => prev.into_iter().filter(|v| values.contains(v)).collect(),
        Some(prev) => {
            let values: TextSet<&str> = values.into_iter().collect();
            prev.into_iter().filter(|v| values.contains(v)).collect()
        }
    });
}

/// What one alternative makes of a property (see the module docs).
#[derive(Debug, Clone, Default)]
struct Constraint<'p> {
    /// The values it pins the property to.
    pins: Option<Vec<&'p str>>,
    /// An object without the property fails.
    requires: bool,
    /// An object with the property fails.
    forbids: bool,
}

impl Constraint<'_> {
    /// Whether it constrains the property at all.
    fn any(&self) -> bool {
        self.pins.is_some() || self.requires || self.forbids
    }
}

/// How `node` constrains `property` at its own location.
fn constraint<'p>(program: &'p Program, node: NodeId, property: &str, hops: usize) -> Constraint<'p> {
    let mut c = Constraint { pins: pinned(program, node, property, hops), ..Constraint::default() };
    c.requires = requires(program, node, property, hops);
    c.forbids = forbids(program, node, property, hops);
    c
}

/// Whether `node` rejects every object without `property` (through
/// `$ref`/`allOf`, and nested alternatives that all do).
pub(super) fn requires(program: &Program, node: NodeId, property: &str, hops: usize) -> bool {
    rejects_objects(program, node, hops, &|o| {
        o.names.find(property).is_some_and(|i| o.entries.get(i as usize).is_some_and(|e| e.required))
    })
}

/// Whether `node` rejects every object with `property` (through
/// `$ref`/`allOf`, and nested alternatives that all do).
pub(super) fn forbids(program: &Program, node: NodeId, property: &str, hops: usize) -> bool {
    let rejects_all = |n: NodeId| rejects_every_value(program, n);
    rejects_objects(program, node, hops, &|o| {
        let schema = o.names.find(property).and_then(|i| o.entries.get(i as usize)).and_then(|e| e.schema);
        match schema {
            // `properties` applies its own schema to the property.
            Some(s) => rejects_all(s),
            // Otherwise a pattern may cover it (a pattern the analysis
            // cannot decide counts as covering it); if none does,
            // `additionalProperties` applies.
            None => {
                o.additional.is_some_and(rejects_all)
                    && !o.patterns.iter().any(|p| p.regex.is_match(property).unwrap_or(true))
            }
        }
    })
}

/// Whether `node` rejects every object with a property that no object
/// keyword there declares (through `$ref`/`allOf`, and nested
/// alternatives that all do): some keyword has an
/// `additionalProperties` that rejects every value and no pattern.
pub(super) fn closed_to_undeclared(program: &Program, node: NodeId) -> bool {
    rejects_objects(program, node, 0, &|o| {
        o.patterns.is_empty() && o.additional.is_some_and(|n| rejects_every_value(program, n))
    })
}

/// Whether node `n` rejects every value.
fn rejects_every_value(program: &Program, n: NodeId) -> bool {
    program.node(n).flags().contains(NodeFlags::ALWAYS_INVALID)
}

/// Whether `node` rejects every object of some kind, an object keyword
/// rejecting them all when `keyword_rejects` says so: one such keyword
/// is enough through `$ref`/`allOf`, every alternative needs one through
/// `anyOf`/`oneOf`; up to [`MAX_HOPS`] deep.
fn rejects_objects(
    program: &Program,
    node: NodeId,
    hops: usize,
    keyword_rejects: &impl Fn(&ObjectChecks) -> bool,
) -> bool {
    if hops > MAX_HOPS {
        return false;
    }
    program.code(node).iter().any(|instr| match *instr {
        Instr::Object(o) => keyword_rejects(program.operands().object(o)),
        Instr::Ref(n) => rejects_objects(program, n, hops + 1, keyword_rejects),
        Instr::AllOf(l) => {
            program.operands().list(l).iter().any(|&n| rejects_objects(program, n, hops + 1, keyword_rejects))
        }
        Instr::AnyOf(l) | Instr::OneOf(l) => {
            let list = program.operands().list(l);
            !list.is_empty() && list.iter().all(|&n| rejects_objects(program, n, hops + 1, keyword_rejects))
        }
        _ => false,
    })
}

/// How well a property's constraints split the alternatives.
#[derive(Debug, Clone, Copy)]
struct Selectivity {
    /// Alternatives pinning the property.
    pinned: usize,
    /// Pins summed over the distinct values (each value's candidates
    /// among the pinned alternatives).
    pins: usize,
    /// Distinct values.
    values: usize,
    /// Alternatives ruled out when the property is absent (those
    /// requiring it).
    absent_pruned: usize,
    /// Alternatives ruled out whenever it is present (those forbidding
    /// it).
    present_pruned: usize,
}

impl Selectivity {
    /// The score of a property from the constraints the alternatives
    /// admitting objects put on it.
    fn of<'c, 'p: 'c>(constraints: impl IntoIterator<Item = &'c Constraint<'p>>) -> Selectivity {
        let mut distinct = Distinct::default();
        let mut s = Selectivity { pinned: 0, pins: 0, values: 0, absent_pruned: 0, present_pruned: 0 };
        for c in constraints {
            if let Some(vals) = &c.pins {
                s.pinned += 1;
                s.pins += vals.len();
                distinct.extend(vals.iter().copied());
            }
            s.absent_pruned += usize::from(c.requires);
            s.present_pruned += usize::from(c.forbids);
        }
        s.values = distinct.list.len();
        s
    }

    /// Whether the property is worth a lookup: it pins two alternatives
    /// or more to sets that differ (so that some value rules one out), or
    /// its absence rules one out (when it is present, its value or
    /// presence may rule out others). Alternatives that all pin it to the
    /// same values (a `country` code list in both a person and an
    /// organization) leave every valid value all of them: such a lookup
    /// would cost each object a search and each list a table.
    fn useful(&self) -> bool {
        (self.pinned >= 2 && self.pins < self.pinned * self.values) || self.absent_pruned >= 1
    }

    /// More alternatives pinned; as many with fewer candidates per value
    /// (`pins / values`, compared without division); then more ruled out
    /// by presence or absence.
    fn better_than(&self, other: &Selectivity) -> bool {
        let (mine, theirs) = (self.pins * other.values.max(1), other.pins * self.values.max(1));
        self.pinned > other.pinned
            || (self.pinned == other.pinned && mine < theirs)
            || (self.pinned == other.pinned
                && mine == theirs
                && self.absent_pruned + self.present_pruned > other.absent_pruned + other.present_pruned)
    }
}

/// The best property found so far: its score, its name, and each
/// alternative's constraint on it.
type Best<'p> = Option<(Selectivity, &'p str, Vec<Constraint<'p>>)>;

/// The best discriminator of an alternatives list, if some property is
/// [useful](Selectivity::useful) among the alternatives that admit
/// objects (the VM's type masks rule out the others without a lookup, so
/// a list with one such alternative needs none).
fn discriminate<'p>(program: &'p Program, list: &[NodeId]) -> Option<Discriminator> {
    let admits_objects = |n: NodeId| program.node(n).admitted_types().contains(JsonType::Object);
    if list.iter().filter(|&&n| admits_objects(n)).count() < 2 {
        return None;
    }
    let mut names = Distinct::default();
    for &branch in list.iter().filter(|&&n| admits_objects(n)).take(4) {
        candidate_properties(program, branch, &mut names);
    }
    let names = names.list;
    // The property pinning the most alternatives; among those, the one
    // leaving the fewest candidates per value (`in` rather than an
    // optional `collectionFormat` that most alternatives share). The
    // names `required` there are weighed too unless a pinned property
    // discriminates already (which spares large lists the work).
    let mut best: Best<'p> = None;
    let consider = |name: &'p str, best: &mut Best<'p>| {
        // An alternative admitting no object fails every object: it is
        // no candidate whatever the property holds.
        let per_branch: Vec<Constraint<'_>> = list
            .iter()
            .map(|&b| match admits_objects(b) {
                true => constraint(program, b, name, 0),
                false => Constraint { pins: None, requires: true, forbids: true },
            })
            .collect();
        let score = Selectivity::of(list.iter().zip(&per_branch).filter(|(b, _)| admits_objects(**b)).map(|(_, c)| c));
        if score.useful() && best.as_ref().is_none_or(|(b, _, _)| score.better_than(b)) {
            *best = Some((score, name, per_branch));
        }
    };
    for &name in &names {
        consider(name, &mut best);
    }
    if best.as_ref().is_none_or(|(b, _, _)| b.pinned < 2) {
        let mut required = Distinct::default();
        for &branch in list.iter().filter(|&&n| admits_objects(n)).take(4) {
            required_properties(program, branch, &mut required);
        }
        for name in required.list.into_iter().filter(|n| !names.contains(n)) {
            consider(name, &mut best);
        }
    }
    let (_, property, per_branch) = best?;
    let mut values = Names::default();
    let mut slots: Vec<Vec<u32>> = Vec::new();
    let mut always = Vec::new();
    let mut absent = Vec::new();
    for (i, c) in per_branch.iter().enumerate() {
        let i = u32::try_from(i).ok()?;
        if !c.requires {
            absent.push(i);
        }
        if c.forbids {
            continue;
        }
        match &c.pins {
            None => always.push(i),
            Some(vals) => {
                for &v in vals {
                    let (slot, new) = values.index(v);
                    if new {
                        slots.push(Vec::new());
                    }
                    slots.get_mut(slot as usize)?.push(i);
                }
            }
        }
    }
    // Each value's candidates: its pins and the alternatives pinning
    // nothing, merged in order.
    let slots = slots
        .into_iter()
        .map(|mut slot| {
            slot.extend_from_slice(&always);
            slot.sort_unstable();
            slot.dedup();
            // `decisive` is filled by `settle_all` once every list has its
            // discriminator.
            Candidates { order: slot.into_boxed_slice(), decisive: None, pinned: None }
        })
        .collect();
    // Absence decides only if some alternative requires the property;
    // otherwise every alternative stays a candidate, and the VM's type
    // masks choose among them as without a discriminator.
    let absent = (absent.len() < per_branch.len()).then(|| absent.into_boxed_slice());
    debug_assert!(per_branch.iter().any(Constraint::any));
    Some(Discriminator {
        property: property.into(),
        values: values.table(),
        slots,
        always: always.into_boxed_slice(),
        absent,
    })
}

/// Finds the discriminator of every `anyOf`/`oneOf` list (their
/// [`Candidates::decisive`] nodes are left to [`settle_all`]).
pub(super) fn find(program: &mut Program) {
    let mut found: Vec<Option<Discriminator>> = vec![None; program.operands().lists.len()];
    // Lists of the same alternatives (`anyOf` of `$ref`s to `person` and
    // `entity` under each property naming people) share one analysis:
    // it follows a lone `$ref` as the alternative itself.
    let mut by_targets: TextMap<Vec<NodeId>, Option<Discriminator>> = TextMap::default();
    for instr in &program.code {
        if let Instr::AnyOf(l) | Instr::OneOf(l) = *instr {
            if let Some(slot) = found.get_mut(l.index()) {
                if slot.is_none() {
                    let list = program.operands().list(l);
                    let targets = list.iter().map(|&n| cost::forwarded(program, n).0).collect();
                    *slot = by_targets.entry(targets).or_insert_with(|| discriminate(program, list)).clone();
                }
            }
        }
    }
    for (list, d) in program.operands_mut().lists.iter_mut().zip(found) {
        list.set_discriminator(d);
    }
}

/// Fills the [`Candidates::decisive`] node of each discriminator's
/// values that leave one candidate: where that candidate's node leads
/// ([`settle`]). Runs once the node entries are set.
pub(super) fn settle_all(program: &mut Program) {
    let decisive: Vec<Vec<Option<NodeId>>> = program
        .operands()
        .lists
        .iter()
        .map(|entry| {
            let (Some(d), list) = (entry.discriminator(), &entry.quick) else { return Vec::new() };
            (d.values.keys().zip(d.slots.iter()))
                .map(|(value, slot)| match *slot.order {
                    [only] => list.get(only as usize).map(|&node| settle(program, node, &d.property, value)),
                    _ => None,
                })
                .collect()
        })
        .collect();
    for (entry, decisive) in program.operands_mut().lists.iter_mut().zip(decisive) {
        for (slot, node) in entry.discriminator_mut().into_iter().flat_map(|d| d.slots.iter_mut()).zip(decisive) {
            slot.decisive = node;
        }
    }
    pin_all(program);
}

/// Fills [`Candidates::pinned`]: for each decisive node that is one
/// object instruction whose schema for the discriminating property admits
/// the slot's value, a copy of the instruction with that property's check
/// dropped (the value passes it: the discriminator chose the slot by it).
/// One copy per instruction and property, shared by the values leading
/// there (a tagged union's variant listing several tags).
fn pin_all(program: &mut Program) {
    let mut wanted: Vec<(usize, usize, ObjectId, u32, bool)> = Vec::new();
    for (list, entry) in program.operands().lists.iter().enumerate() {
        let Some(d) = entry.discriminator() else { continue };
        for (at, (value, slot)) in d.values.keys().zip(d.slots.iter()).enumerate() {
            let found = slot.decisive.and_then(|node| pinned_entry(program, node, &d.property, value));
            if let Some((object, entry, counted)) = found {
                wanted.push((list, at, object, entry, counted));
            }
        }
    }
    // The copies hold at most as many entries as the program's objects
    // did: a schema cannot multiply its memory by pointing many
    // discriminators at one large object.
    let mut room: usize = program.operands().objects.iter().map(|o| o.entries.len()).sum();
    let mut copies: BTreeMap<(ObjectId, u32), ObjectId> = BTreeMap::new();
    let mut made: Vec<ObjectChecks> = Vec::new();
    for (list, at, object, entry, counted) in wanted {
        let copy = match copies.entry((object, entry)) {
            btree_map::Entry::Occupied(seen) => *seen.get(),
            btree_map::Entry::Vacant(new) => {
                let Some(original) = program.operands().objects.get(object.index()).filter(|o| o.entries.len() <= room)
                else {
                    continue;
                };
                let (mut checks, Ok(id)) =
                    (original.clone(), u32::try_from(program.operands().objects.len() + made.len()))
                else {
                    continue;
                };
                room -= checks.entries.len();
                if let Some(e) = checks.entries.get_mut(entry as usize) {
                    e.check = QuickCheck::Valid;
                }
                checks.summarize_entries();
                made.push(checks);
                *new.insert(ObjectId(id))
            }
        };
        let slot = program
            .operands_mut()
            .lists
            .get_mut(list)
            .and_then(|l| l.discriminator_mut())
            .and_then(|d| d.slots.get_mut(at));
        if let Some(slot) = slot {
            slot.pinned = Some(if counted { Decision::CountedObject(copy) } else { Decision::Object(copy) });
        }
    }
    if !made.is_empty() {
        let mut objects = std::mem::take(&mut program.operands_mut().objects).into_vec();
        objects.append(&mut made);
        program.operands_mut().objects = objects.into_boxed_slice();
    }
}

/// The object instruction and entry of `property`, and whether the node
/// counts its depth, when `node` is one object instruction run in place
/// ([`Entry::Single`], or [`Entry::Counted`] and never memoized) whose
/// schema for `property` admits the string `value` and is checked by the
/// quiet scan.
fn pinned_entry(program: &Program, node: NodeId, property: &str, value: &str) -> Option<(ObjectId, u32, bool)> {
    let n = program.nodes.get(node.index())?;
    let counted = match n.entry {
        Entry::Single => false,
        Entry::Counted if !n.flags.contains(NodeFlags::MEMO) => true,
        _ => return None,
    };
    let [Instr::Object(object)] = *program.code_of(n) else { return None };
    let checks = program.operands().objects.get(object.index())?;
    let entry = checks.names.find(property)?;
    let e = checks.entries.get(entry as usize)?;
    let schema = e.schema?;
    let mut visits = MAX_VISITS;
    (e.check != QuickCheck::Valid && admits_string(program, schema, value, &mut visits))
        .then_some((object, entry, counted))
}

/// How many schemas [`admits_string`] looks at before answering `false`.
const MAX_VISITS: usize = 64;

/// Whether schema `node` certainly admits the string `value` while nothing
/// is tracked: its instructions are only `type`s admitting strings, a
/// `const` equal to `value`, `enum`s holding it (with any fused `type`
/// admitting strings), and `$ref`s and `allOf`s of such schemas. Anything
/// else, or more than `visits` schemas, answers `false` (the property
/// keeps its check).
fn admits_string(program: &Program, node: NodeId, value: &str, visits: &mut usize) -> bool {
    let Some(left) = visits.checked_sub(1) else { return false };
    *visits = left;
    let Some(n) = program.nodes.get(node.index()) else { return false };
    match n.entry {
        Entry::Valid | Entry::QuietValid => return true,
        Entry::Invalid => return false,
        Entry::Types => return n.types.contains(JsonType::String),
        _ => {}
    }
    program.code_of(n).iter().all(|instr| match *instr {
        Instr::Type(types) => types.contains(JsonType::String),
        Instr::Const(v) => program.operands().value(v).as_str() == Some(value),
        Instr::Enum(e) => {
            let set = program.operands().enum_set(e);
            set.strings.find(value).is_some() && set.type_fused.is_none_or(|t| t.contains(JsonType::String))
        }
        Instr::Ref(target) => admits_string(program, target, value, visits),
        Instr::AllOf(l) => program.operands().list(l).iter().all(|&c| admits_string(program, c, value, visits)),
        _ => false,
    })
}

/// Where `node` leads for an object whose `property` holds the string
/// `value`, when nothing is recorded or tracked: while `node` is only an
/// `anyOf`/`oneOf` discriminated by `property` in which `value` leaves one
/// candidate, that candidate (past its forwarding `$ref`s), whose verdict
/// is the list's. At most [`MAX_HOPS`] lists are passed.
fn settle(program: &Program, mut node: NodeId, property: &str, value: &str) -> NodeId {
    for _ in 0..MAX_HOPS {
        match passed_to(program, node, property, value) {
            Some(next) => node = next,
            None => break,
        }
    }
    node
}

/// The one candidate `node` evaluates for an object whose `property`
/// holds `value`, if `node` is only a list discriminated by `property`
/// and may be passed ([`analysis::passable`]; nodes every value passes or
/// fails keep their cheaper entry).
fn passed_to(program: &Program, node: NodeId, property: &str, value: &str) -> Option<NodeId> {
    let n = program.nodes.get(node.index())?;
    let runs = matches!(n.entry, Entry::Single | Entry::Direct | Entry::Counted | Entry::Full);
    if !runs || !analysis::passable(n, program.flags.uses_dynamic_scope) {
        return None;
    }
    let [Instr::AnyOf(l) | Instr::OneOf(l)] = *program.code_of(n) else { return None };
    let d = program.operands().discriminator(l)?;
    if *d.property != *property {
        return None;
    }
    let slot = d.values.find(value)?;
    let [only] = *d.slots.get(slot as usize)?.order else { return None };
    program.operands().lists.get(l.index())?.quick.get(only as usize).copied()
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{Distinct, SCANNED_VALUES, intersect};

    #[test]
    fn distinct_values_and_intersections_keep_order_short_and_long() {
        // Sets below and past the size where they are hashed, built and
        // narrowed as plain scans would.
        for n in [0, 3, SCANNED_VALUES - 1, SCANNED_VALUES, SCANNED_VALUES + 1, 200] {
            let names: Vec<String> = (0..n).map(|i| format!("v{}", (i * 7) % (n.max(1) + 3))).collect();
            let values: Vec<&str> = names.iter().map(String::as_str).collect();
            let mut distinct = Distinct::default();
            distinct.extend(["v1", "x"]);
            // In two calls, as the union of alternatives' values is built.
            distinct.extend(values.iter().copied());
            distinct.extend(values.iter().copied());
            let set = distinct.list;
            let mut expected = vec!["v1", "x"];
            for v in &values {
                if !expected.contains(v) {
                    expected.push(v);
                }
            }
            assert_eq!(set, expected, "{n}");
            let mut result = Some(set.clone());
            let evens: Vec<&str> = set.iter().copied().step_by(2).chain(["absent"]).collect();
            intersect(&mut result, evens.clone());
            let kept: Vec<&str> = set.iter().copied().filter(|v| evens.contains(v)).collect();
            assert_eq!(result.as_deref(), Some(&*kept), "{n}");
            let mut first = None;
            intersect(&mut first, evens.clone());
            assert_eq!(first, Some(evens), "{n}");
        }
    }

    #[test]
    fn a_property_pinned_to_the_same_values_everywhere_does_not_discriminate() {
        // A person or an organization, each with a country from the same
        // list: every code leaves both candidates.
        let country = json!({"enum": ["AD", "AE", "AF"]});
        let person = json!({"properties": {"country": country, "given": {"type": "string"}}});
        let entity = json!({"properties": {"country": country, "name": {"type": "string"}}});
        assert_eq!(discriminators(json!({"anyOf": [person, entity]})), []);
        // One list narrower than the other: "AF" leaves one candidate.
        let narrower = json!({"properties": {"country": {"enum": ["AD", "AE"]}}});
        let found = discriminators(json!({"anyOf": [person, narrower]}));
        assert_eq!(found.len(), 1, "{found:?}");
        // The same values, and one alternative requiring the property:
        // its absence rules that one out.
        let required = json!({"properties": {"country": country}, "required": ["country"]});
        let found = discriminators(json!({"anyOf": [person, required]}));
        assert_eq!(found.len(), 1, "{found:?}");
    }

    #[test]
    fn tags_of_thousands_of_values_get_one_slot_each() {
        // Two variants tagged by enums of 1,000 names each (licence and
        // country lists are this long): every name leads to its variant.
        let tags = |prefix: &str| (0..1000).map(|i| format!("{prefix}{i}")).collect::<Vec<_>>();
        let variant = |prefix: &str| json!({"properties": {"kind": {"enum": tags(prefix)}, prefix: {"type": "string"}}, "required": ["kind"]});
        let schema = json!({"oneOf": [variant("a"), variant("b")]});
        let found = discriminators(schema);
        let [(property, values)] = &found[..] else { panic!("one discriminator: {found:?}") };
        assert_eq!(property, "kind");
        assert_eq!(values.len(), 2000);
        assert_eq!((&values[0][..], &values[1999][..]), ("a0", "b999"));
    }

    use crate::bytecode::{Decision, Discriminator, Instr, Program, QuickCheck};
    use crate::{CompileOptions, compile};

    /// Each discriminated `anyOf`/`oneOf` of `schema`: its property and
    /// values, in code order.
    fn discriminators(schema: Value) -> Vec<(String, Vec<String>)> {
        let program = compile(&schema, &CompileOptions::default()).expect("compiles");
        let mut found = Vec::new();
        for instr in &program.code {
            if let Instr::AnyOf(l) | Instr::OneOf(l) = *instr {
                if let Some(d) = program.operands().discriminator(l) {
                    let mut values: Vec<String> = d.values.keys().map(str::to_string).collect();
                    values.sort();
                    found.push((d.property.to_string(), values));
                }
            }
        }
        found
    }

    #[test]
    fn lists_of_the_same_refs_share_an_analysis_and_keep_their_own_order() {
        let tagged = |tag: &str| json!({"properties": {"kind": {"const": tag}}, "required": ["kind"]});
        let pets = |first: &str, second: &str| json!({"anyOf": [{"$ref": format!("#/$defs/{first}")}, {"$ref": format!("#/$defs/{second}")}]});
        let schema = json!({
            "$defs": {"cat": tagged("cat"), "dog": tagged("dog")},
            "properties": {
                "a": pets("cat", "dog"),
                "b": pets("cat", "dog"),
                "c": pets("dog", "cat"),
                "d": {"anyOf": [{"$ref": "#/$defs/cat"}, {"$ref": "#/$defs/dog", "minProperties": 1}]}
            }
        });
        let program = compile(&schema, &CompileOptions::default()).expect("compiles");
        let mut orders = Vec::new();
        for instr in &program.code {
            if let Instr::AnyOf(l) = *instr {
                let d = program.operands().discriminator(l).expect("each list discriminates");
                assert_eq!(&*d.property, "kind");
                // The candidate of each tag, as an index into this list.
                let order: Vec<(String, Vec<u32>)> =
                    d.values.keys().zip(d.slots.iter()).map(|(v, slot)| (v.to_string(), slot.order.to_vec())).collect();
                orders.push(order);
            }
        }
        let cat_first = vec![("cat".to_string(), vec![0]), ("dog".to_string(), vec![1])];
        let dog_first = vec![("dog".to_string(), vec![0]), ("cat".to_string(), vec![1])];
        assert_eq!(orders.len(), 4, "{orders:?}");
        assert_eq!(orders.iter().filter(|o| **o == cat_first).count(), 3, "{orders:?}");
        assert_eq!(orders.iter().filter(|o| **o == dog_first).count(), 1, "{orders:?}");
    }

    #[test]
    fn nested_alternatives_pin_the_union_of_their_values() {
        let found = discriminators(json!({"oneOf": [
            {"properties": {"kind": {"const": "a"}}},
            {"oneOf": [{"properties": {"kind": {"enum": ["b", "c"]}}}, {"properties": {"kind": {"const": "d"}}}]}
        ]}));
        let values = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(found, [("kind".into(), values(&["a", "b", "c", "d"])), ("kind".into(), values(&["b", "c", "d"]))]);
        // One alternative that pins nothing leaves the nested list unpinned.
        let found = discriminators(json!({"oneOf": [
            {"properties": {"kind": {"const": "a"}}},
            {"properties": {"kind": {"const": "e"}}},
            {"anyOf": [{"properties": {"kind": {"const": "b"}}}, {"required": ["x"]}]}
        ]}));
        // (The nested list is discriminated by the presence of `x`.)
        assert_eq!(found, [("kind".into(), values(&["a", "e"])), ("x".into(), vec![])]);
    }

    #[test]
    fn only_string_constants_pin() {
        // `const: null` admits a value no string pin names: not a pin.
        let pinned_to_null = json!({"properties": {"a": {"const": null}}});
        assert_eq!(discriminators(json!({"anyOf": [pinned_to_null, pinned_to_null]})), []);
        // Under `allOf`, a value must pass every member: the string pin of
        // one still holds (the other, pinning nothing, only rejects more).
        let both = json!({"allOf": [{"properties": {"a": {"const": 1}}}, {"properties": {"a": {"const": "x"}}}]});
        let found = discriminators(json!({"anyOf": [both, {"properties": {"a": {"const": "y"}}}]}));
        assert_eq!(found, [("a".to_string(), vec!["x".to_string(), "y".to_string()])]);
        // In one schema beside a string `enum`, a non-string `const` leaves
        // the property unpinned.
        let mixed = json!({"properties": {"a": {"const": 1, "enum": ["x", 1]}}});
        assert_eq!(discriminators(json!({"anyOf": [mixed, mixed]})), []);
        // The string pins still discriminate; the other alternative pins
        // nothing.
        let found = discriminators(json!({"oneOf": [
            {"properties": {"a": {"const": "x"}}},
            {"properties": {"a": {"enum": ["y"]}}},
            {"properties": {"a": {"const": 1}}}
        ]}));
        assert_eq!(found, [("a".to_string(), vec!["x".to_string(), "y".to_string()])]);
    }

    /// The discriminator of the first discriminated list of `schema`:
    /// property, each value's candidates (sorted by value), the candidates
    /// for other values and when the property is absent.
    #[allow(clippy::type_complexity)]
    fn first_discriminator(schema: Value) -> Option<(String, Vec<(String, Vec<u32>)>, Vec<u32>, Option<Vec<u32>>)> {
        let program = compile(&schema, &CompileOptions::default()).expect("compiles");
        program.code.iter().find_map(|instr| {
            let (Instr::AnyOf(l) | Instr::OneOf(l)) = *instr else { return None };
            let d = program.operands().discriminator(l)?;
            let mut values: Vec<(String, Vec<u32>)> =
                d.values.keys().zip(d.slots.iter()).map(|(k, slot)| (k.to_string(), slot.order.to_vec())).collect();
            values.sort();
            Some((d.property.to_string(), values, d.always.to_vec(), d.absent.as_ref().map(|a| a.to_vec())))
        })
    }

    #[test]
    fn presence_discriminates_alternatives_that_require_or_forbid_a_property() {
        // OpenAPI's parameter-or-reference: the reference requires `$ref`,
        // the closed parameter rejects it.
        let parameter = json!({
            "type": "object", "required": ["name"], "additionalProperties": false,
            "properties": {"name": {"type": "string"}, "in": {"type": "string"}},
            "patternProperties": {"^x-": {}}
        });
        let reference = json!({"type": "object", "required": ["$ref"], "properties": {"$ref": {"type": "string"}}});
        let found = first_discriminator(json!({"oneOf": [parameter, reference]})).expect("discriminated");
        // `$ref` decides both ways; `name` only by its absence (the open
        // reference admits it).
        assert_eq!(found, ("$ref".to_string(), vec![], vec![1], Some(vec![0])));
        // A pattern covering the property keeps the closed alternative a
        // candidate when it is present.
        let open = json!({
            "type": "object", "additionalProperties": false,
            "properties": {"name": {"type": "string"}}, "patternProperties": {"^\\$": {}}
        });
        let reference = json!({"required": ["$ref"], "additionalProperties": false, "properties": {"$ref": {}}});
        let found = first_discriminator(json!({"anyOf": [reference, open]})).expect("discriminated");
        assert_eq!(found, ("$ref".to_string(), vec![], vec![0, 1], Some(vec![1])));
        // Requirement through `$ref`, `allOf` and nested alternatives that
        // all require it; a pin and a requirement together.
        let schema = json!({
            "$defs": {"file": {"required": ["type"], "properties": {"type": {"const": "file"}}}},
            "oneOf": [
                {"allOf": [{"$ref": "#/$defs/file"}]},
                {"anyOf": [{"required": ["type", "a"]}, {"required": ["type", "b"]}]},
                {"properties": {"type": {"type": "string"}}}
            ]
        });
        let found = first_discriminator(schema).expect("discriminated");
        assert_eq!(found, ("type".to_string(), vec![("file".to_string(), vec![0, 1, 2])], vec![1, 2], Some(vec![2])));
    }

    #[test]
    fn lists_with_one_alternative_for_objects_are_left_to_the_type_masks() {
        let variant = |tag: &str| json!({"type": "object", "required": ["tag"], "properties": {"tag": {"const": tag}}});
        let schema = json!({"oneOf": [
            {"type": "string"},
            {"type": "array"},
            {"type": "object", "oneOf": [variant("a"), variant("b")]}
        ]});
        // Only the nested list, which splits objects, is discriminated.
        assert_eq!(discriminators(schema), [("tag".to_string(), vec!["a".to_string(), "b".to_string()])]);
    }

    #[test]
    fn the_most_selective_property_is_chosen() {
        // Every alternative pins both; `format` leaves all three candidates
        // for each value, `in` one.
        let alternative =
            |place: &str| json!({"properties": {"format": {"enum": ["csv", "ssv", "pipes"]}, "in": {"const": place}}});
        let found =
            discriminators(json!({"oneOf": [alternative("query"), alternative("header"), alternative("path")]}));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "in");
    }

    /// The discriminator of `program`'s list with the most values.
    fn widest(program: &Program) -> &Discriminator {
        program
            .code
            .iter()
            .filter_map(|instr| match *instr {
                Instr::AnyOf(l) | Instr::OneOf(l) => program.operands().discriminator(l),
                _ => None,
            })
            .max_by_key(|d| d.values.len())
            .expect("discriminated")
    }

    /// The decisive node of each value of the discriminated list with the
    /// most values, as the location of that node.
    fn decisive_locations(schema: Value) -> Vec<(String, Option<String>)> {
        let program = compile(&schema, &CompileOptions::default()).expect("compiles");
        let d = widest(&program);
        let at =
            |n: crate::bytecode::NodeId| program.locations.get(n.index()).to_string().replace("json-schema:///", "");
        d.values.keys().zip(d.slots.iter()).map(|(k, slot)| (k.to_string(), slot.decisive.map(at))).collect()
    }

    #[test]
    fn nested_lists_on_the_same_property_settle_to_their_one_candidate() {
        // OpenAPI 2's parameters: `parameter` is only a list on `in`, whose
        // `query` candidate is only another list on `in`.
        let sub =
            |place: &str| json!({"additionalProperties": false, "properties": {"in": {"const": place}, "name": {}}});
        let schema = json!({
            "definitions": {
                "parameter": {"oneOf": [{"$ref": "#/definitions/body"}, {"$ref": "#/definitions/nonBody"}]},
                "body": {"required": ["in"], "properties": {"in": {"const": "body"}}},
                "nonBody": {"oneOf": [{"$ref": "#/definitions/query"}, {"$ref": "#/definitions/path"}]},
                "query": sub("query"),
                "path": sub("path"),
                "reference": {"required": ["$ref"], "additionalProperties": false, "properties": {"$ref": {}}}
            },
            "oneOf": [{"$ref": "#/definitions/parameter"}, {"$ref": "#/definitions/reference"}]
        });
        let mut found = decisive_locations(schema);
        found.sort();
        let at = |name: &str| Some(format!("#/definitions/{name}"));
        assert_eq!(found, [("body".into(), at("body")), ("path".into(), at("path")), ("query".into(), at("query"))]);
    }

    #[test]
    fn lists_with_more_than_their_alternatives_are_not_passed() {
        // `nonBody` also requires `name`: its list is entered, not passed.
        let sub = |place: &str| json!({"properties": {"in": {"const": place}}});
        let schema = json!({
            "definitions": {
                "nonBody": {"required": ["name"], "oneOf": [sub("query"), sub("path")]},
                "body": {"required": ["in"], "properties": {"in": {"const": "body"}}}
            },
            "oneOf": [{"$ref": "#/definitions/body"}, {"$ref": "#/definitions/nonBody"}]
        });
        let mut found = decisive_locations(schema);
        found.sort();
        let at = |name: &str| Some(format!("#/definitions/{name}"));
        assert_eq!(
            found,
            [("body".into(), at("body")), ("path".into(), at("nonBody")), ("query".into(), at("nonBody"))]
        );
        // A value that leaves two candidates has no decisive node.
        let two = json!({"anyOf": [sub("a"), sub("a"), sub("b")]});
        let mut found = decisive_locations(two);
        found.sort();
        assert_eq!(found, [("a".into(), None), ("b".into(), Some("#/anyOf/2".into()))]);
    }

    /// Per value of the widest discriminated list of `schema`: whether it
    /// leads to a pinned copy, and that copy's check of `property`.
    fn pinned_checks(schema: Value, property: &str) -> Vec<(String, Option<QuickCheck>)> {
        let program = compile(&schema, &CompileOptions::default()).expect("compiles");
        let d = widest(&program);
        let check = |decision: Decision| {
            let (Decision::Object(o) | Decision::CountedObject(o)) = decision else { return None };
            let copy = program.operands().object(o);
            copy.names.find(property).and_then(|i| copy.entries.get(i as usize)).map(|e| e.check)
        };
        let mut found: Vec<_> =
            d.values.keys().zip(d.slots.iter()).map(|(k, slot)| (k.to_string(), slot.pinned.and_then(check))).collect();
        found.sort_by(|a, b| a.0.cmp(&b.0));
        found
    }

    #[test]
    fn tagged_variants_get_a_copy_without_the_tag_check() {
        let variant = |tag: Value, extra: &str| {
            json!({"type": "object", "required": ["kind"], "additionalProperties": false,
                   "properties": {"kind": tag, extra: {"type": "integer"}}})
        };
        let schema = json!({"oneOf": [
            variant(json!({"const": "a"}), "x"),
            variant(json!({"type": "string", "enum": ["b", "c"]}), "y"),
            // `d` is pinned, but the schema also asks for a length `d` lacks:
            // the check stays.
            variant(json!({"const": "d", "minLength": 2}), "z"),
            // Behind a `$ref` and an `allOf`.
            variant(json!({"allOf": [{"$ref": "#/$defs/e"}, {"type": "string"}]}), "w")
        ], "$defs": {"e": {"enum": ["e"]}}});
        let valid = Some(QuickCheck::Valid);
        assert_eq!(
            pinned_checks(schema.clone(), "kind"),
            [("a".into(), valid), ("b".into(), valid), ("c".into(), valid), ("d".into(), None), ("e".into(), valid)]
        );
        // The originals keep their checks; `b` and `c` share one copy.
        let program = compile(&schema, &CompileOptions::default()).expect("compiles");
        let in_code = program.code.iter().filter(|i| matches!(i, Instr::Object(_))).count();
        assert_eq!(program.operands().objects.len(), in_code + 3);
        for instr in &program.code {
            if let Instr::Object(o) = *instr {
                let o = program.operands().object(o);
                let kind = o.names.find("kind").and_then(|i| o.entries.get(i as usize)).expect("kind");
                assert_ne!(kind.check, QuickCheck::Valid);
            }
        }
    }

    #[test]
    fn pinned_copies_hold_no_more_entries_than_the_originals() {
        // Twelve lists (at twelve locations), each discriminated by its own
        // property, lead to one object declaring the twelve: a copy each
        // would hold 144 entries where the program has 24.
        let n = 12;
        let declared: serde_json::Map<String, Value> =
            (0..n).map(|i| (format!("p{i}"), json!({"const": "v"}))).collect();
        let lists: serde_json::Map<String, Value> = (0..n)
            .map(|i| {
                let other = json!({"required": [format!("p{i}")], "properties": {format!("p{i}"): {"const": "w"}}});
                (format!("a{i}"), json!({"oneOf": [{"$ref": "#/$defs/big"}, other]}))
            })
            .collect();
        let schema = json!({"$defs": {"big": {"properties": declared}}, "properties": lists});
        let program = compile(&schema, &CompileOptions::default()).expect("compiles");
        let in_code: Vec<usize> = program
            .code
            .iter()
            .filter_map(|i| match *i {
                Instr::Object(o) => Some(o.index()),
                _ => None,
            })
            .collect();
        let entries = |copies: bool| -> usize {
            let objects = program.operands().objects.iter().enumerate();
            objects.filter(|(i, _)| in_code.contains(i) != copies).map(|(_, o)| o.entries.len()).sum()
        };
        // Copies of `big` were wanted (one per list) and some made.
        let discriminators = program.operands().lists.iter().filter_map(|l| l.discriminator());
        let pinned_big = discriminators.flat_map(|d| d.slots.iter()).filter(|slot| {
            matches!(slot.pinned, Some(Decision::Object(o) | Decision::CountedObject(o)) if program.operands().object(o).entries.len() == n)
        });
        assert!(pinned_big.count() >= 1);
        assert!(entries(true) <= entries(false), "{} copied entries for {}", entries(true), entries(false));
    }
}
