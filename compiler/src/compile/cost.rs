//! Static cost bounds, and the choice of nodes to memoize.
//!
//! # Model
//!
//! Evaluation at one instance location starts at an *entry* node (the
//! root, or a node applied to a child through `properties`, `items`, ...)
//! and fans out through *in-place* applications (`allOf`, `anyOf`, `oneOf`,
//! `not`, `if`/`then`/`else`, dependent schemas, `$ref`, `$dynamicRef`),
//! which form a DAG (cycles are rejected as unguarded recursion). The
//! number of paths from the entry to a node is how many times that node
//! would be evaluated at that location: a 60-level `allOf` chain that
//! references its next level twice gives 2^60.
//!
//! The analysis walks each entry's in-place closure in topological order,
//! counting paths with saturating arithmetic. Any node reached by two
//! paths is *memoized* ([`NodeFlags::MEMO`]): the VM caches its verdict per
//! (node, instance value), so it runs once per location and counts once in
//! the bound. The same goes across one level of descent: a node applied to
//! the same child by two paths (two `anyOf` arms whose `properties.a` both
//! `$ref` it: 2^depth through recursion) is memoized too, so recursion
//! never multiplies per instance level. [`NodeFlags::CHEAP`] nodes reached
//! by at most [`MAX_UNSHARED_PATHS`] paths are the exception: they never
//! descend and apply a bounded number of evaluations in place, so running
//! one again costs about what a memo lookup would (and the lookup is pure
//! overhead when nothing is shared at run time) and multiplies nothing;
//! they are not memoized, and each of their evaluations counts. What
//! remains is polynomial:
//!
//! * fan-out of an entry = evaluations at one location after memoization,
//!   bounded by [`Limits::max_fan_out`];
//! * in-place depth = longest in-place chain, bounded by
//!   [`Limits::max_ref_hops`].
//!
//! Both are recorded per node ([`NodeCost`]) for `schemavm explain`.
//! The analysis itself is bounded by [`Limits::max_analysis_work`].
//!
//! # Two ways of evaluating
//!
//! While errors or annotations are recorded, every alternative of an
//! `anyOf`/`oneOf` runs. On the boolean path, a discriminated list runs
//! only the alternatives an object's property admits (its
//! [`Discriminator`]'s candidates for the value, for the property's
//! absence, or the one alternative a type switch picks), so applications
//! to properties that only different candidates make never meet: the
//! `content` of a dozen `tag` variants that all `$ref` one recursive
//! definition, or the `text` of 146 FHIR resources. Every count is kept
//! for both ways ([`Weight`]): [`NodeFlags::MEMO`] is the set the
//! recording count asks for, and the boolean path memoizes (through
//! [`Entry::Memo`]) only the nodes its own
//! count asks for ([`Memoized::quiet`]). Each node applied in place
//! through exactly one alternative of such a list, whatever the path, is
//! *owned* by it ([`Owner`]); a property's landings whose owners are
//! alternatives of one list are grouped, for the boolean count, once per
//! set of alternatives that can run together ([`Graph::candidate_sets`]),
//! with the landings nothing owns. Items are never split so: the
//! discriminator applies to objects only, and an array runs every
//! alternative.

use crate::bytecode::*;
use crate::compile::analysis::Adjacency;
use crate::error::{CompileError, CompileErrorKind};
use std::collections::HashMap;
use std::collections::hash_map;

use crate::hash::{IdMap, TextMap, ValueState};
use crate::options::Limits;

/// Where a descending application lands, for deciding whether two of
/// them can reach the same child.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Child {
    /// A named property, by its [`ChildIds`] id.
    Key(u32),
    /// Any property (patterns, additional, unevaluated).
    AnyKey,
    /// A positional item, by its [`ChildIds`] id.
    Index(u32),
    /// Any item (rest items, contains, unevaluated).
    AnyItem,
}

/// Dense ids for the property names and item positions the program's
/// descending edges name, one id space for both: grouping landings by
/// child then indexes a table instead of hashing names per location.
#[derive(Default)]
struct ChildIds<'p> {
    keys: TextMap<&'p str, u32>,
    indices: IdMap<usize, u32>,
    count: u32,
}

impl<'p> ChildIds<'p> {
    fn next(count: &mut u32) -> u32 {
        let id = *count;
        *count = count.saturating_add(1);
        id
    }

    fn key(&mut self, name: &'p str) -> Child {
        let count = &mut self.count;
        Child::Key(*self.keys.entry(name).or_insert_with(|| ChildIds::next(count)))
    }

    fn index(&mut self, i: usize) -> Child {
        let count = &mut self.count;
        Child::Index(*self.indices.entry(i).or_insert_with(|| ChildIds::next(count)))
    }
}

/// Appends the nodes `id` applies to children of the instance, with the
/// child.
fn descending_edges<'p>(program: &'p Program, id: NodeId, ids: &mut ChildIds<'p>, out: &mut Vec<(Child, NodeId)>) {
    for instr in program.code(id) {
        match *instr {
            Instr::Object(o) => {
                let o = program.operands().object(o);
                for (name, e) in o.names.keys().zip(o.entries.iter()) {
                    if let Some(n) = e.schema {
                        out.push((ids.key(name), n));
                    }
                }
                out.extend(o.patterns.iter().map(|p| (Child::AnyKey, p.node)));
                out.extend(o.additional.map(|n| (Child::AnyKey, n)));
            }
            Instr::Array(a) => {
                let a = program.operands().array(a);
                for (i, n) in a.prefix.iter().enumerate() {
                    out.push((ids.index(i), *n));
                }
                out.extend(a.rest.map(|n| (Child::AnyItem, n)));
                out.extend(a.contains.map(|c| (Child::AnyItem, c.node)));
            }
            Instr::UnevaluatedProperties(n) => out.push((Child::AnyKey, n)),
            Instr::UnevaluatedItems(n) => out.push((Child::AnyItem, n)),
            _ => {}
        }
    }
}

/// Nodes evaluated against values that are not instance locations
/// (`propertyNames` on names, `contentSchema` on decoded content): each is
/// an entry of its own.
fn detached_entries(program: &Program, id: NodeId, out: &mut Vec<NodeId>) {
    for instr in program.code(id) {
        match *instr {
            Instr::Object(o) => out.extend(program.operands().object(o).property_names),
            Instr::Content(c) => out.extend(program.content(c).schema),
            _ => {}
        }
    }
}

/// Most paths by which a [`NodeFlags::CHEAP`] node may be reached at
/// one location and still run again: beyond, it is memoized like any
/// other, so the fan-out grows at most by this factor.
const MAX_UNSHARED_PATHS: u64 = 4;

/// The fewest in-place applications and children an entry has for its
/// [`Shape`] to be looked up: a smaller entry's walk costs about what
/// building and hashing its shape does.
const SHAPED: usize = 8;

/// Runs the analysis: sets [`NodeFlags::MEMO`], computes [`NodeCost`]s
/// (kept in the program if `keep_costs`) and enforces the fan-out and
/// in-place depth limits. Returns, per node,
/// whether the boolean path memoizes it ([`Memoized::quiet`]; only nodes
/// that are `MEMO`).
///
/// Needs the program's discriminators (see the module docs).
///
/// An entry that is a chain of lone `$ref`s costs its chain plus its
/// target's location, so each target is walked once however many entries
/// reference it (large schemas reference one big `oneOf` from hundreds of
/// places). Targets of the same [`Shape`] are walked once too: their walks
/// are the same walk (a root that repeats a definition's `oneOf` of
/// `$ref`s, as FHIR's does, would otherwise double the analysis).
pub(super) fn analyze(
    program: &mut Program,
    in_place: &Adjacency,
    limits: &Limits,
    keep_costs: bool,
) -> Result<Vec<bool>, CompileError> {
    let n = program.nodes.len();
    let mut walk = Walk::new(limits.max_analysis_work);
    let Tables { graph, mut full, mut walked, mut is_entry, entries: mut entry_list } =
        std::mem::take(&mut walk.tables);
    reset(&mut full, n, false);
    let mut memo = Memoized { full, quiet: vec![false; n] };
    // Written only when kept (an empty table takes no writes).
    let mut costs = if keep_costs { vec![NodeCost::default(); n] } else { Vec::new() };
    let graph = Graph::new(program, in_place, graph);
    reset(&mut walked, n, None);
    let mut by_shape: HashMap<Shape, NodeCost, ValueState> = HashMap::default();
    entries(program, &graph, &mut is_entry, &mut entry_list);
    for &entry in &entry_list {
        let (target, hops) = forwarded(program, entry);
        let target_cost = match walked.get(target.index()).copied().flatten() {
            Some(c) => c,
            None => {
                let mut walked_now = || walk_entry(program, &graph, &mut walk, (target, true), &mut memo, limits);
                let c = match graph.shape(target).map(|shape| by_shape.entry(shape)) {
                    Some(hash_map::Entry::Occupied(seen)) => *seen.get(),
                    Some(hash_map::Entry::Vacant(new)) => *new.insert(walked_now()?),
                    None => walked_now()?,
                };
                if let Some(w) = walked.get_mut(target.index()) {
                    *w = Some(c);
                }
                c
            }
        };
        let cost = NodeCost {
            fan_out: target_cost.fan_out.saturating_add(hops),
            unmemoized_fan_out: target_cost.unmemoized_fan_out.saturating_add(hops),
            in_place_depth: target_cost.in_place_depth.saturating_add(u32::try_from(hops).unwrap_or(u32::MAX)),
        };
        if let Some(c) = costs.get_mut(entry.index()) {
            *c = cost;
        }
        check(program, entry, cost, limits)?;
    }
    let Memoized { full, mut quiet } = memo;
    for ((node, &full), quiet) in program.nodes.iter_mut().zip(&full).zip(quiet.iter_mut()) {
        let full = full && !node.flags.contains(NodeFlags::ALWAYS_VALID);
        if full {
            node.flags.insert(NodeFlags::MEMO);
        }
        // Each boolean count is at most its recording one, but for nodes
        // that run again: memoized at most where recording memoizes.
        *quiet &= full;
    }
    if keep_costs {
        program.rare.get_or_insert_with(Box::default).costs = costs.into_boxed_slice();
    }
    walk.tables = Tables { graph: graph.into_buffers(), full, walked, is_entry, entries: entry_list };
    walk.retire();
    Ok(quiet)
}

/// The location of one entry and of the children several of its
/// applications reach (evaluated as one location, so nodes reached twice
/// there are memoized too). Returns the entry's cost. An entry that
/// cannot need the walk skips it if `may_skip` (always, but in a test
/// comparing both ways).
fn walk_entry(
    program: &Program,
    graph: &Graph<'_>,
    walk: &mut Walk,
    (entry, may_skip): (NodeId, bool),
    memo: &mut Memoized,
    limits: &Limits,
) -> Result<NodeCost, CompileError> {
    if may_skip && graph.successors(entry).is_empty() && !landings_may_coincide(program, entry) {
        // An entry applying nothing in place, no two of whose applications
        // to children can land on one child (most entries of a large
        // schema, leaves among them): its location is itself, evaluated
        // once, and each child it reaches is reached once. The walk would
        // find that for a unit of work, and two per application (landing
        // and grouping it), and set up and clear its tables to do so. (Past
        // the budget, the walk reports where it ran out.)
        let work = unwalked_work(graph, entry);
        if work <= walk.max_work.saturating_sub(walk.work) {
            walk.work += work;
            check(program, entry, UNWALKED_COST, limits)?;
            return Ok(UNWALKED_COST);
        }
    }
    let too_much = |w| limit(program, entry, "max_analysis_work", w, limits.max_analysis_work);
    walk.prepare(program, graph);
    let mut landings = std::mem::take(&mut walk.landings);
    landings.clear();
    let cost = walk.location(graph, &[(entry, Weight::ONE)], &[], memo, Some(&mut landings)).map_err(too_much)?;
    check(program, entry, cost, limits)?;
    let groups = coinciding_groups(graph, &landings, walk).map_err(too_much)?;
    walk.landings = landings;
    for (group, leaves) in groups.iter() {
        let cost = walk.location(graph, group, leaves, memo, None).map_err(too_much)?;
        check(program, entry, cost, limits)?;
    }
    walk.spare_groups = groups;
    Ok(cost)
}

/// The cost of an entry that skips the walk ([`walk_entry`]): itself,
/// once.
const UNWALKED_COST: NodeCost = NodeCost { fan_out: 1, unmemoized_fan_out: 1, in_place_depth: 0 };

/// The work the walk of an entry that skips it would do: a unit for the
/// entry, two per application to a child.
fn unwalked_work(graph: &Graph<'_>, entry: NodeId) -> u64 {
    (graph.edges(entry).len() as u64).saturating_mul(2).saturating_add(1)
}

/// Whether two of the applications of `id` to children may land on one
/// child. [`coinciding_groups`] assumes that any two of a kind may, but
/// two named children of one instruction (it names each child once); this
/// test knows more, per kind ([`KindLandings`]): the *rest* (the schema an
/// instruction applies to the children it does not name:
/// `additionalProperties`, items past the prefix) meets none of its named
/// children nor patterns, and a pattern meets no named child whose name it
/// does not match (known at compile time when the names are matched
/// statically). An entry whose landings meet nowhere skips the walk: the
/// commonest object schemas (`properties` with `additionalProperties`,
/// OpenAPI's `patternProperties` of extensions beside both). (The walk
/// would group them anyway, and memoize what two of them apply in place
/// though they never meet: skipping also spares those memo lookups.)
fn landings_may_coincide(program: &Program, id: NodeId) -> bool {
    let (mut naming, mut keys, mut items) = (0, KindLandings::default(), KindLandings::default());
    for instr in program.code(id) {
        match *instr {
            Instr::Object(o) => {
                let o = program.operands().object(o);
                let named = o.entries.iter().filter(|e| e.schema.is_some());
                naming += 1;
                keys.named = named.clone().count();
                keys.rest = o.additional.is_some();
                keys.patterns = o.patterns.len();
                keys.patterns_on_named = !o.static_patterns || named.into_iter().any(|e| !e.patterns.is_empty());
            }
            Instr::Array(a) => {
                let a = program.operands().array(a);
                naming += 1;
                items.named = a.prefix.len();
                items.rest = a.rest.is_some();
                items.anywhere += usize::from(a.contains.is_some());
            }
            Instr::UnevaluatedProperties(_) => keys.anywhere += 1,
            Instr::UnevaluatedItems(_) => items.anywhere += 1,
            _ => {}
        }
    }
    naming > 1 || keys.may_coincide() || items.may_coincide()
}

/// The applications of one node to the children of one kind (properties
/// or items), for [`landings_may_coincide`].
#[derive(Default)]
struct KindLandings {
    /// Named children (`properties` with a schema, prefix items).
    named: usize,
    /// A rest schema (`additionalProperties`, items past the prefix).
    rest: bool,
    /// `patternProperties` entries.
    patterns: usize,
    /// Whether a pattern may match a named child.
    patterns_on_named: bool,
    /// Applications to every child of the kind (`contains`,
    /// `unevaluatedProperties`, `unevaluatedItems`).
    anywhere: usize,
}

impl KindLandings {
    /// Whether two of these landings may meet on one child.
    fn may_coincide(&self) -> bool {
        let others = self.named + usize::from(self.rest) + self.patterns;
        self.anywhere > 1
            || (self.anywhere == 1 && others > 0)
            || self.patterns > 1
            || (self.patterns == 1 && self.named > 0 && self.patterns_on_named)
    }
}

/// Follows `id` through nodes whose only instruction is a `$ref`: the
/// node reached and the number of hops. (In-place chains are acyclic
/// once unguarded recursion is ruled out; the bound is a safeguard.)
pub(super) fn forwarded(program: &Program, id: NodeId) -> (NodeId, u64) {
    let mut at = id;
    let mut hops = 0u64;
    while let [Instr::Ref(next)] = program.code(at) {
        if hops >= program.nodes.len() as u64 {
            break;
        }
        at = *next;
        hops += 1;
    }
    (at, hops)
}

fn check(program: &Program, at: NodeId, cost: NodeCost, limits: &Limits) -> Result<(), CompileError> {
    if cost.fan_out > limits.max_fan_out {
        return Err(limit(program, at, "max_fan_out", cost.fan_out, limits.max_fan_out));
    }
    if u64::from(cost.in_place_depth) > limits.max_ref_hops {
        return Err(limit(program, at, "max_ref_hops", u64::from(cost.in_place_depth), limits.max_ref_hops));
    }
    Ok(())
}

fn limit(program: &Program, at: NodeId, name: &'static str, bound: u64, max: u64) -> CompileError {
    CompileError::new(CompileErrorKind::LimitExceeded { limit: name, bound, max }, program.location(at).to_string())
}

/// The root, every target of a descending edge, and every detached entry,
/// into `out` (`is_entry` is scratch).
fn entries(program: &Program, graph: &Graph<'_>, is_entry: &mut Vec<bool>, out: &mut Vec<NodeId>) {
    reset(is_entry, program.nodes.len(), false);
    if let Some(e) = is_entry.get_mut(program.root.index()) {
        *e = true;
    }
    let mut detached = Vec::new();
    for i in 0..program.nodes.len() {
        let id = NodeId(i as u32);
        detached.clear();
        detached_entries(program, id, &mut detached);
        for t in graph.edges(id).iter().map(|(_, t)| *t).chain(detached.iter().copied()) {
            if let Some(e) = is_entry.get_mut(t.index()) {
                *e = true;
            }
        }
    }
    out.clear();
    out.extend((0..program.nodes.len()).filter(|i| is_entry.get(*i) == Some(&true)).map(|i| NodeId(i as u32)));
}

/// Clears `table` and fills it with `len` copies of `value`: a reused
/// buffer as `vec![value; len]` would be.
fn reset<T: Clone>(table: &mut Vec<T>, len: usize, value: T) {
    table.clear();
    table.resize(len, value);
}

/// Evaluations of a node, counted both ways the VM evaluates (see the
/// module docs): while recording, and on the boolean path.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Weight {
    full: u64,
    quiet: u64,
}

impl Weight {
    const ONE: Weight = Weight { full: 1, quiet: 1 };

    fn plus(self, other: Weight) -> Weight {
        Weight { full: self.full.saturating_add(other.full), quiet: self.quiet.saturating_add(other.quiet) }
    }

    /// The recording count alone (the boolean one zero).
    fn full_only(self) -> Weight {
        Weight { full: self.full, quiet: 0 }
    }

    /// The boolean count alone.
    fn quiet_only(self) -> Weight {
        Weight { full: 0, quiet: self.quiet }
    }

    /// More than one evaluation either way.
    fn shared(self) -> bool {
        self.full >= 2 || self.quiet >= 2
    }
}

/// An alternative of a discriminated `anyOf`/`oneOf`: its list and its
/// index there.
type Alternative = (ListId, u32);

/// What a node of a location is applied in place through, as far as the
/// boolean path's discriminators go (see the module docs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Owner {
    /// Not reached yet.
    #[default]
    Unreached,
    /// Reached otherwise, or through different alternatives.
    Free,
    /// Reached only through this alternative (the outermost such).
    By(Alternative),
}

impl Owner {
    /// The owner of a node reached by both `self` and `other`.
    fn meet(self, other: Owner) -> Owner {
        match self {
            Owner::Unreached => other,
            _ if self == other => self,
            _ => Owner::Free,
        }
    }
}

/// Applications to children of one location: (child, node, number of
/// evaluations, owner of the applying node).
type Landings = Vec<(Child, NodeId, Weight, Owner)>;

/// A root of a location: a node and its number of evaluations.
type Root = (NodeId, Weight);

/// A landing's node, evaluations and owner, once its child is known.
type Applied = (NodeId, Weight, Owner);

/// Groups of location roots, (node, evaluations) each, stored end to
/// end: group `i` is `roots[ends[i - 1]..ends[i]]`, followed by the lone
/// leaves `wild[tails[i]]` when `tails[i]` is set.
#[derive(Default)]
struct Groups {
    roots: Vec<Root>,
    ends: Vec<usize>,
    tails: Vec<Option<usize>>,
    /// The key and item wildcard landings, merged, when all of a kind's
    /// are lone leaves ([`Walk::lone`]); empty otherwise. Then the same
    /// with their recording count only ([`Weight::full_only`]): the
    /// leaves of a group split for the boolean count (see
    /// [`coinciding_groups`]). Indexed by [`wild_index`].
    wild: [Vec<Root>; 4],
}

/// The index in [`Groups::wild`] of the wildcards of `kind` (0: keys,
/// 1: items), with their recording count only if `full_only`.
fn wild_index(kind: usize, full_only: bool) -> usize {
    kind + if full_only { 2 } else { 0 }
}

impl Groups {
    /// Empties the groups, keeping their buffers.
    fn clear(&mut self) {
        self.roots.clear();
        self.ends.clear();
        self.tails.clear();
        for w in &mut self.wild {
            w.clear();
        }
    }

    /// Each group's roots and trailing lone leaves.
    fn iter(&self) -> impl Iterator<Item = (&[Root], &[Root])> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).zip(&self.tails).map(|((start, &end), tail)| {
            let leaves = tail.and_then(|k| self.wild.get(k)).map_or(&[][..], |w| &w[..]);
            (self.roots.get(start..end).unwrap_or(&[]), leaves)
        })
    }
}

/// Merges `landings` into `roots` (first appearance order, weights of a
/// node summed), using `root_at` as scratch. `weigh` gives each landing's
/// weight in the group, or `None` to leave it out.
fn merge_roots<'a>(
    landings: impl Iterator<Item = &'a Applied>,
    weigh: impl Fn(Weight, Owner) -> Option<Weight>,
    root_at: &mut [usize],
    roots: &mut Vec<Root>,
) {
    let start = roots.len();
    for &(node, weight, owner) in landings {
        let Some(weight) = weigh(weight, owner) else { continue };
        let Some(at) = root_at.get_mut(node.index()) else { continue };
        match roots.get_mut(*at) {
            Some((_, w)) => *w = w.plus(weight),
            None => {
                *at = roots.len();
                roots.push((node, weight));
            }
        }
    }
    for (node, _) in roots.get(start..).unwrap_or(&[]) {
        if let Some(at) = root_at.get_mut(node.index()) {
            *at = usize::MAX;
        }
    }
}

/// Groups of landings that may hit the same child, when a group holds
/// more than one evaluation: as (node, evaluations) roots of a location.
/// A group is a named child (a property or index) with the wildcard
/// applications of its kind, or a wildcard kind alone. A property group
/// whose landings are owned by alternatives of one discriminated list is
/// split for the boolean count (see the module docs): one group with the
/// recording count, then one per set of alternatives that can run
/// together, with the boolean count of the landings they and nothing own.
/// Building them is charged to the walk's work (`Err` when it runs out).
fn coinciding_groups(graph: &Graph<'_>, landings: &Landings, walk: &mut Walk) -> Result<Groups, u64> {
    if landings.is_empty() {
        return Ok(Groups::default());
    }
    // Named landings by child in first-seen order (a stable sort by the
    // child's rank keeps each child's landings in order); wildcards by kind.
    // Items are never split by owner: their owners are dropped here.
    let GroupScratch {
        mut named,
        mut ranked,
        mut any_key,
        mut any_item,
        mut runs,
        mut ends,
        mut by_alternative,
        mut owned,
        mut owned_at,
        mut unowned,
        mut wild_share,
    } = std::mem::take(&mut walk.scratch);
    named.clear();
    ranked.clear();
    any_key.clear();
    any_item.clear();
    for &(c, node, weight, owner) in landings {
        match c {
            Child::AnyKey => any_key.push((node, weight, owner)),
            Child::AnyItem => any_item.push((node, weight, Owner::Free)),
            Child::Key(id) | Child::Index(id) => {
                let Some(rank) = walk.child_rank.get_mut(id as usize) else { continue };
                if *rank == usize::MAX {
                    *rank = ranked.len();
                    ranked.push(c);
                }
                let owner = if matches!(c, Child::Key(_)) { owner } else { Owner::Free };
                named.push((*rank, node, weight, owner));
            }
        }
    }
    for c in &ranked {
        if let Child::Key(id) | Child::Index(id) = c {
            if let Some(rank) = walk.child_rank.get_mut(*id as usize) {
                *rank = usize::MAX;
            }
        }
    }
    // Each child's landings in one run, children in rank order (a
    // counting sort by rank, stable): `ends[rank]` is where its run ends.
    ends.clear();
    ends.resize(ranked.len(), 0);
    for &(rank, _, _, _) in &named {
        if let Some(e) = ends.get_mut(rank) {
            *e += 1;
        }
    }
    place_runs(named.iter().map(|&(rank, node, weight, owner)| (rank, (node, weight, owner))), &mut ends, &mut runs);
    let mut groups = std::mem::take(&mut walk.spare_groups);
    groups.clear();
    // A named child's group is its landings plus the wildcards of its
    // kind. When those wildcards are all lone leaves and none of them is
    // among the child's landings, they are kept once per entry, merged,
    // and walked as the group's trailing leaves (see `Walk::location`):
    // the same roots in the same order, without copying them per child.
    // (A group split for the boolean count takes them with their
    // recording count only, as it takes its landings: made when first
    // needed.)
    let wildcards = [&any_key, &any_item];
    for (kind, wildcard) in wildcards.iter().enumerate().filter(|(_, w)| !w.is_empty() && !ranked.is_empty()) {
        let Some(merged) = groups.wild.get_mut(kind) else { continue };
        merge_roots(wildcard.iter(), |w, _| Some(w), &mut walk.root_at, merged);
        if merged.iter().all(|(n, _)| walk.lone.get(n.index()) == Some(&true)) {
            for (n, _) in merged.iter() {
                if let Some(tag) = walk.wild.get_mut(n.index()) {
                    *tag = Some(kind);
                }
            }
        } else {
            merged.clear();
        }
    }
    let wild_totals = wildcards.map(|w| w.iter().fold(Weight::default(), |t, (_, w, _)| t.plus(*w)));
    let share_of_keys = wild_share.get_or_insert_with(Box::default);
    share_of_keys.start(&any_key);
    let mut add = |list: &[Applied], kind: usize, with_wildcards: bool| -> Result<(), u64> {
        let wildcard: &[Applied] = if with_wildcards { wildcards.get(kind).map_or(&[], |w| w) } else { &[] };
        // What the wildcards add to a split group (only key groups split).
        let mut share = (kind == 0 && with_wildcards).then_some(&mut **share_of_keys);
        walk.work = walk.work.saturating_add(list.len() as u64 + wildcard.len() as u64);
        if walk.work > walk.max_work {
            return Err(walk.work);
        }
        // A property group is split by the one list whose alternatives
        // own some of its landings, unless those nothing owns are shared
        // on their own (every set would then hold them).
        let mut free = 0u64;
        let split = if kind == 0 {
            let wild_owners = share.as_ref().map_or(Owners::None, |s| s.owners);
            Owners::of(list.iter()).with(wild_owners).one()
        } else {
            None
        };
        if let (Some(s), Some(_)) = (share.as_mut(), split) {
            s.prepare(wildcard);
        }
        let share = share.as_deref();
        // The boolean counts per alternative (the wildcards' share and the
        // group's own landings), the group's own landings per alternative
        // (`owned_at`, counts until sorted), and the landings nothing owns.
        let split = split.filter(|&list_id| {
            by_alternative.clear();
            owned_at.clear();
            unowned.clear();
            if let Some(s) = share {
                by_alternative.extend_from_slice(&s.by_alternative);
            }
            free = tally(list, Some(list_id), &mut by_alternative, &mut owned_at, &mut unowned);
            if let Some(s) = share {
                unowned.extend_from_slice(&s.unowned);
                free = free.saturating_add(s.free);
            }
            free < 2
        });
        let wild_total =
            if with_wildcards { wild_totals.get(kind).copied().unwrap_or_default() } else { Weight::default() };
        let total = list.iter().fold(wild_total, |t, (_, w, _)| t.plus(*w));
        let total = if split.is_some() { total.full_only() } else { total };
        if total.shared() {
            let keep = split.is_some();
            let trailing = with_wildcards
                && !wildcard.is_empty()
                && groups.wild.get(kind).is_some_and(|w| !w.is_empty())
                && list.iter().all(|(n, _, _)| walk.wild.get(n.index()).copied().flatten() != Some(kind));
            let parts = if trailing { [list, &[]] } else { [list, wildcard] };
            let landings = parts.iter().flat_map(|p| p.iter());
            merge_roots(
                landings,
                |w, _| Some(if keep { w.full_only() } else { w }),
                &mut walk.root_at,
                &mut groups.roots,
            );
            groups.ends.push(groups.roots.len());
            if trailing && keep {
                let [keys, items, keys_full, items_full] = &mut groups.wild;
                let (merged, full_only) = if kind == 0 { (keys, keys_full) } else { (items, items_full) };
                if full_only.is_empty() {
                    full_only.extend(merged.iter().map(|&(n, w)| (n, w.full_only())));
                }
            }
            groups.tails.push(trailing.then_some(wild_index(kind, keep)));
        }
        let Some(list_id) = split else { return Ok(()) };
        // The boolean count: the landings nothing owns, with those of each
        // set of alternatives that can run together (each set's own
        // landings read from their runs, sorted once a set needs them,
        // not looked for in the whole list).
        let mut sorted = false;
        for set in graph.candidate_sets(list_id) {
            walk.work = walk.work.saturating_add(set.len() as u64);
            if walk.work > walk.max_work {
                return Err(walk.work);
            }
            let total =
                set.iter().fold(free, |t, &a| t.saturating_add(by_alternative.get(a as usize).copied().unwrap_or(0)));
            if total < 2 {
                continue;
            }
            if !sorted {
                let by_owner = list.iter().filter_map(|&l| owned_by(l.2, list_id).map(|a| (a, l)));
                place_runs(by_owner, &mut owned_at, &mut owned);
                sorted = true;
            }
            // Alternative `a`'s landings: the group's own, then the
            // wildcards it owns.
            let run = |a: u32| {
                let a = a as usize;
                (run_of(&owned, &owned_at, a), share.map_or(&[][..], |s| s.run(a)))
            };
            let scanned =
                unowned.len() + set.iter().map(|&a| run(a)).map(|(own, wild)| own.len() + wild.len()).sum::<usize>();
            walk.work = walk.work.saturating_add(scanned as u64);
            if walk.work > walk.max_work {
                return Err(walk.work);
            }
            let landings =
                unowned.iter().chain(set.iter().map(|&a| run(a)).flat_map(|(own, wild)| own.iter().chain(wild)));
            merge_roots(landings, |w, _| Some(w.quiet_only()), &mut walk.root_at, &mut groups.roots);
            groups.ends.push(groups.roots.len());
            groups.tails.push(None);
        }
        Ok(())
    };
    add(&any_key, 0, false)?;
    add(&any_item, 1, false)?;
    let mut start = 0;
    for (c, &end) in ranked.iter().zip(&ends) {
        let list = runs.get(start..end).unwrap_or(&[]);
        start = end;
        let kind = if matches!(c, Child::Key(_)) { 0 } else { 1 };
        add(list, kind, true)?;
    }
    for (n, _) in groups.wild.iter().take(2).flatten() {
        if let Some(tag) = walk.wild.get_mut(n.index()) {
            *tag = None;
        }
    }
    walk.scratch = GroupScratch {
        named,
        ranked,
        any_key,
        any_item,
        runs,
        ends,
        by_alternative,
        owned,
        owned_at,
        unowned,
        wild_share,
    };
    Ok(groups)
}

/// The second half of a counting sort (stable): places each (key,
/// landing) of `keyed` into `out`, key by key. `ends` holds, on entry,
/// how many landings each key has (keys beyond it are left out) and, on
/// return, where each key's run ends (it starts where the previous
/// key's ends).
fn place_runs(keyed: impl Iterator<Item = (usize, Applied)>, ends: &mut [usize], out: &mut Vec<Applied>) {
    let mut placed = 0;
    for e in ends.iter_mut() {
        placed += *e;
        *e = placed - *e;
    }
    out.clear();
    out.resize(placed, (NodeId(0), Weight::default(), Owner::Free));
    for (key, landing) in keyed {
        if let Some(e) = ends.get_mut(key) {
            if let Some(slot) = out.get_mut(*e) {
                *slot = landing;
            }
            *e += 1;
        }
    }
}

/// The alternative of `list` that `owner` is, if it is one.
fn owned_by(owner: Owner, list: ListId) -> Option<usize> {
    match owner {
        Owner::By((l, alternative)) if l == list => Some(alternative as usize),
        _ => None,
    }
}

/// Which discriminated lists own some of a group's landings (through
/// their alternatives). A group is split for the boolean count when one
/// list does ([`Owners::One`]); landings owned through two lists are
/// counted together, as while recording.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Owners {
    #[default]
    None,
    One(ListId),
    Many,
}

impl Owners {
    /// The owners of `landings`.
    fn of<'a>(landings: impl Iterator<Item = &'a Applied>) -> Owners {
        landings.fold(Owners::None, |owners, &(_, _, owner)| match owner {
            Owner::By((l, _)) => owners.with(Owners::One(l)),
            _ => owners,
        })
    }

    /// The owners of two sets of landings together.
    fn with(self, other: Owners) -> Owners {
        match (self, other) {
            (Owners::None, o) | (o, Owners::None) => o,
            (Owners::One(a), Owners::One(b)) if a == b => self,
            _ => Owners::Many,
        }
    }

    /// The list splitting the group, if one.
    fn one(self) -> Option<ListId> {
        match self {
            Owners::One(l) => Some(l),
            _ => None,
        }
    }
}

/// What an entry's key wildcards add to each property group split for the
/// boolean count: the same for every property, so worked out once per
/// entry (see [`coinciding_groups`]), when the first such group needs it.
/// Relative to the one list that owns some of them, if any (a group is
/// split by that list or by none).
#[derive(Default)]
struct WildShare {
    /// The lists owning some of the wildcards.
    owners: Owners,
    /// Whether the rest is worked out for this entry's wildcards.
    ready: bool,
    /// Per alternative of the owning list: the boolean count of the
    /// wildcards it owns.
    by_alternative: Vec<u64>,
    /// Those wildcards, alternative by alternative, and where each
    /// alternative's run ends.
    owned: Vec<Applied>,
    owned_at: Vec<usize>,
    /// The wildcards no alternative owns, and their boolean count.
    unowned: Vec<Applied>,
    free: u64,
}

impl WildShare {
    /// Starts the share of an entry's `wildcards`: their owners.
    fn start(&mut self, wildcards: &[Applied]) {
        self.owners = Owners::of(wildcards.iter());
        self.ready = false;
    }

    /// Works out the rest of the share of `wildcards` (those given to
    /// [`WildShare::start`]), unless done.
    fn prepare(&mut self, wildcards: &[Applied]) {
        if self.ready {
            return;
        }
        self.ready = true;
        let list = self.owners.one();
        self.by_alternative.clear();
        self.owned_at.clear();
        self.unowned.clear();
        self.free = tally(wildcards, list, &mut self.by_alternative, &mut self.owned_at, &mut self.unowned);
        if let Some(l) = list {
            let by_owner = wildcards.iter().filter_map(|&w| owned_by(w.2, l).map(|a| (a, w)));
            place_runs(by_owner, &mut self.owned_at, &mut self.owned);
        } else {
            self.owned.clear();
        }
    }

    /// The wildcards alternative `a` owns.
    fn run(&self, a: usize) -> &[Applied] {
        run_of(&self.owned, &self.owned_at, a)
    }
}

/// Adds `landings` to a split group's tallies, for the alternatives of
/// `list`: per alternative, the boolean count and the number of the
/// landings it owns (`by_alternative`, `counts`, grown as needed); the
/// landings no alternative owns go to `unowned`. Returns their boolean
/// count.
fn tally(
    landings: &[Applied],
    list: Option<ListId>,
    by_alternative: &mut Vec<u64>,
    counts: &mut Vec<usize>,
    unowned: &mut Vec<Applied>,
) -> u64 {
    let mut free = 0u64;
    for &landing in landings {
        let (_, w, owner) = landing;
        match list.and_then(|l| owned_by(owner, l)) {
            Some(at) => {
                if by_alternative.len() <= at {
                    by_alternative.resize(at + 1, 0);
                }
                if counts.len() <= at {
                    counts.resize(at + 1, 0);
                }
                if let Some(sum) = by_alternative.get_mut(at) {
                    *sum = sum.saturating_add(w.quiet);
                }
                if let Some(count) = counts.get_mut(at) {
                    *count += 1;
                }
            }
            None => {
                free = free.saturating_add(w.quiet);
                unowned.push(landing);
            }
        }
    }
    free
}

/// Alternative `a`'s run in `owned`, whose runs end at `owned_at` (see
/// [`place_runs`]).
fn run_of<'a>(owned: &'a [Applied], owned_at: &[usize], a: usize) -> &'a [Applied] {
    let start = a.checked_sub(1).and_then(|b| owned_at.get(b)).copied().unwrap_or(0);
    let end = owned_at.get(a).copied().unwrap_or(start);
    owned.get(start..end).unwrap_or(&[])
}

/// [`coinciding_groups`]' working lists, kept by the [`Walk`] between
/// entries.
#[derive(Default)]
struct GroupScratch {
    /// Named landings: (child's rank, node, weight, owner).
    named: Vec<(usize, NodeId, Weight, Owner)>,
    /// The named children in first-seen order.
    ranked: Vec<Child>,
    /// Landings on any property, and on any item.
    any_key: Vec<Applied>,
    any_item: Vec<Applied>,
    /// The named landings, child by child, and where each child's run
    /// ends.
    runs: Vec<Applied>,
    ends: Vec<usize>,
    /// Per alternative of the list splitting a group: the boolean count
    /// of the landings it owns.
    by_alternative: Vec<u64>,
    /// The landings of such a group its alternatives own, alternative by
    /// alternative, where each alternative's run ends, and the landings
    /// nothing there owns.
    owned: Vec<Applied>,
    owned_at: Vec<usize>,
    unowned: Vec<Applied>,
    /// The key wildcards' share of such groups (boxed: the scratch moves
    /// in and out of the walk for each entry).
    wild_share: Option<Box<WildShare>>,
}

/// The program's in-place successors and descending edges, decoded once:
/// node `i`'s edges are `edges[edge_at[i]..edge_at[i + 1]]`; with, for
/// the boolean count (see the module docs), each successor's tag and each
/// discriminated list's candidate sets.
struct Graph<'a> {
    in_place: &'a Adjacency,
    edge_at: Vec<usize>,
    edges: Vec<(Child, NodeId)>,
    /// How many [`ChildIds`] the edges use.
    children: usize,
    /// Node `i`'s successors' tags are `tags[tag_at[i]..tag_at[i + 1]]`,
    /// parallel to [`Graph::successors`]: the alternative a successor is
    /// applied through, when that is the only way its node applies it and
    /// the alternative's list has [`Graph::candidate_sets`].
    tag_at: Vec<usize>,
    tags: Vec<Option<Alternative>>,
    /// Per list: its candidate sets (empty when not split).
    sets: Vec<Vec<Box<[u32]>>>,
    /// Per list: the first list with the same candidate sets (itself for
    /// a list without any).
    sets_id: Vec<u32>,
    /// Per node: a *private wrapper*, applied in place by one node only,
    /// once, applying one node in place, untagged, and nothing to
    /// children (an inline `{"$ref": ...}` alternative). A walk reaches it
    /// only through its one parent, with its parent's count.
    private: Vec<bool>,
    /// Per node: how many nodes apply it in place (a buffer for
    /// `private`).
    parents: Vec<u32>,
}

/// A [`Graph`]'s tables, emptied, for the next one to reuse.
#[derive(Default)]
struct GraphBuffers {
    edge_at: Vec<usize>,
    edges: Vec<(Child, NodeId)>,
    tag_at: Vec<usize>,
    tags: Vec<Option<Alternative>>,
    private: Vec<bool>,
    parents: Vec<u32>,
}

impl<'a> Graph<'a> {
    /// The graph of `program`, built in `buffers`' tables.
    fn new(program: &Program, in_place: &'a Adjacency, buffers: GraphBuffers) -> Graph<'a> {
        let n = program.nodes.len();
        let GraphBuffers { mut edge_at, mut edges, mut tag_at, mut tags, mut private, mut parents } = buffers;
        for table in [&mut edge_at, &mut tag_at] {
            table.clear();
            table.reserve(n + 1);
        }
        edges.clear();
        edges.reserve(n);
        tags.clear();
        private.clear();
        reset(&mut parents, n, 0);
        let mut graph = Graph {
            in_place,
            edge_at,
            edges,
            children: 0,
            tag_at,
            tags,
            sets: program.operands().lists.iter().map(|list| sets_of(list.discriminator(), list.nodes.len())).collect(),
            sets_id: Vec::new(),
            private,
            parents,
        };
        let mut first_with: HashMap<&[Box<[u32]>], u32, ValueState> = HashMap::default();
        // (Lists without sets are never tagged: the table holds only the
        // others, and stays unallocated for programs without any.)
        let sets_id = graph
            .sets
            .iter()
            .enumerate()
            .map(|(l, s)| if s.is_empty() { l as u32 } else { *first_with.entry(&s[..]).or_insert(l as u32) })
            .collect();
        graph.sets_id = sets_id;
        graph.edge_at.push(0);
        graph.tag_at.push(0);
        let names = program.operands().objects.iter().map(|o| o.names.len()).sum();
        let mut ids =
            ChildIds { keys: TextMap::with_capacity_and_hasher(names, Default::default()), ..ChildIds::default() };
        let mut once = Vec::new();
        for i in 0..n {
            let id = NodeId(i as u32);
            descending_edges(program, id, &mut ids, &mut graph.edges);
            graph.edge_at.push(graph.edges.len());
            let start = graph.tags.len();
            let successors = in_place.of(id);
            graph.tags.resize(start + successors.len(), None);
            graph.tag(program, id, successors, start, &mut once);
            graph.tag_at.push(graph.tags.len());
        }
        graph.children = ids.count as usize;
        for s in (0..n).flat_map(|i| in_place.of(NodeId(i as u32))) {
            if let Some(p) = graph.parents.get_mut(s.index()) {
                *p = p.saturating_add(1);
            }
        }
        let mut private = std::mem::take(&mut graph.private);
        private.extend((0..n).map(|i| {
            let id = NodeId(i as u32);
            graph.parents.get(i) == Some(&1)
                && graph.successors(id).len() == 1
                && graph.edges(id).is_empty()
                && graph.tags(id).iter().all(Option::is_none)
        }));
        graph.private = private;
        graph
    }

    /// This graph's tables, for the next graph.
    fn into_buffers(self) -> GraphBuffers {
        let Graph { edge_at, edges, tag_at, tags, private, parents, .. } = self;
        GraphBuffers { edge_at, edges, tag_at, tags, private, parents }
    }

    /// The [`Shape`] of the location of entry `id`, or `None` for an
    /// entry too small to be worth one ([`SHAPED`]).
    fn shape(&self, id: NodeId) -> Option<Shape> {
        let successors = self.successors(id);
        let edges = self.edges(id);
        if successors.len() + edges.len() < SHAPED {
            return None;
        }
        // Lists by first appearance among the tags: two lists of one node
        // with the same candidate sets stay apart.
        let mut lists: Vec<ListId> = Vec::new();
        let steps = successors
            .iter()
            .zip(self.tags(id))
            .map(|(&s, &tag)| {
                let tag = tag.map(|(l, alternative)| {
                    let rank = lists.iter().position(|&m| m == l).unwrap_or_else(|| {
                        lists.push(l);
                        lists.len() - 1
                    });
                    (rank as u32, self.sets_id.get(l.index()).copied().unwrap_or(u32::MAX), alternative)
                });
                match self.successors(s) {
                    [t] if self.private.get(s.index()) == Some(&true) => Step { node: *t, wrapped: true, tag },
                    _ => Step { node: s, wrapped: false, tag },
                }
            })
            .collect();
        Some(Shape { steps, edges: edges.into() })
    }

    /// Tags the successors of `id` (stored from `tags[start]`) that it
    /// applies once, as an alternative of a list with candidate sets.
    /// `once` is scratch.
    fn tag(
        &mut self,
        program: &Program,
        id: NodeId,
        successors: &[NodeId],
        start: usize,
        once: &mut Vec<(NodeId, usize)>,
    ) {
        let split = |l: ListId| self.sets.get(l.index()).is_some_and(|s| !s.is_empty());
        if !program.code(id).iter().any(|i| matches!(*i, Instr::AnyOf(l) | Instr::OneOf(l) if split(l))) {
            return;
        }
        // Each successor with its position, sorted by node: a node's run
        // of one is applied once.
        once.clear();
        once.extend(successors.iter().enumerate().map(|(at, &s)| (s, at)));
        once.sort_unstable();
        let applied_once = |node: NodeId| {
            let at = once.partition_point(|(s, _)| *s < node);
            match (once.get(at), once.get(at + 1)) {
                (Some(&(s, position)), next) if s == node && next.is_none_or(|(t, _)| *t != node) => Some(position),
                _ => None,
            }
        };
        for instr in program.code(id) {
            let (Instr::AnyOf(l) | Instr::OneOf(l)) = *instr else { continue };
            if !split(l) {
                continue;
            }
            for (alternative, &node) in program.operands().list(l).iter().enumerate() {
                let Some(position) = applied_once(node) else { continue };
                if let Some(tag) = self.tags.get_mut(start + position) {
                    *tag = Some((l, alternative as u32));
                }
            }
        }
    }

    fn successors(&self, id: NodeId) -> &[NodeId] {
        self.in_place.of(id)
    }

    /// The tags of [`Graph::successors`] of `id`, in the same order.
    fn tags(&self, id: NodeId) -> &[Option<Alternative>] {
        let i = id.index();
        match (self.tag_at.get(i), self.tag_at.get(i + 1)) {
            (Some(&start), Some(&end)) => self.tags.get(start..end).unwrap_or(&[]),
            _ => &[],
        }
    }

    fn edges(&self, id: NodeId) -> &[(Child, NodeId)] {
        let i = id.index();
        match (self.edge_at.get(i), self.edge_at.get(i + 1)) {
            (Some(&start), Some(&end)) => self.edges.get(start..end).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// The distinct sets of alternatives of `list` that the boolean path
    /// can run together for one object (each sorted).
    fn candidate_sets(&self, list: ListId) -> &[Box<[u32]>] {
        self.sets.get(list.index()).map_or(&[], |s| &s[..])
    }
}

/// The candidate sets of a list (of `len` alternatives, discriminated by
/// `d` if it is) for
/// [`Graph::candidate_sets`]: those of each value of its discriminator's
/// property, of other values, and of its absence, with each alternative
/// in none of them alone (such an alternative runs for no object; alone,
/// it is counted as any other). Empty when the list has no discriminator,
/// or some object runs every alternative (its absence decides nothing, or
/// a set holds them all): splitting would then count what recording
/// counts.
fn sets_of(d: Option<&Discriminator>, len: usize) -> Vec<Box<[u32]>> {
    let Some(d) = d else { return Vec::new() };
    let Some(absent) = d.absent.as_deref() else { return Vec::new() };
    let mut sets: Vec<Box<[u32]>> = d.slots.iter().map(|s| s.order.clone()).collect();
    sets.push(d.always.clone());
    sets.push(absent.into());
    let mut covered = vec![false; len];
    for &i in sets.iter().flat_map(|s| s.iter()) {
        if let Some(c) = covered.get_mut(i as usize) {
            *c = true;
        }
    }
    sets.extend((0..len as u32).filter(|&i| covered.get(i as usize) == Some(&false)).map(|i| Box::from([i])));
    sets.retain(|s| !s.is_empty());
    sets.sort_unstable();
    sets.dedup();
    if sets.iter().any(|s| s.len() >= len) {
        return Vec::new();
    }
    sets
}

/// What the walk of an entry's location (and of its children's groups)
/// depends on, given the program: the nodes it applies in place, each
/// seen past a [private wrapper](Graph::private), with the alternative
/// (its list's rank in the entry, its candidate sets, its index) it is
/// tagged with, and its applications to children.
///
/// Entries of one shape have the same walk but for the entry and its
/// private wrappers, which nothing else reaches (so each is reached once,
/// as the entry's own are), and the lists of their tags, which hold the
/// same candidate sets in the same places (so the boolean count splits
/// the same groups the same way). They cost the same, and the second
/// walk would memoize nothing the first did not.
#[derive(PartialEq, Eq, Hash)]
struct Shape {
    steps: Vec<Step>,
    edges: Box<[(Child, NodeId)]>,
}

/// One in-place application of a [`Shape`].
#[derive(PartialEq, Eq, Hash)]
struct Step {
    node: NodeId,
    /// Applied through a private wrapper.
    wrapped: bool,
    /// (List's rank in the entry, list's candidate sets, alternative).
    tag: Option<(u32, u32, u32)>,
}

/// Per-node state of the walk at the current location.
#[derive(Debug, Clone, Copy, Default)]
struct Mark {
    /// Paths with memoization (what the VM does), both ways.
    paths: Weight,
    /// Paths without (a naive evaluator, for reporting).
    raw: u64,
    /// Longest in-place chain.
    depth: u32,
    /// The alternative that alone applies the node, if one does.
    owner: Owner,
    /// Visited.
    seen: bool,
}

/// The nodes to memoize, per way of evaluating (see the module docs).
struct Memoized {
    /// While recording: [`NodeFlags::MEMO`].
    full: Vec<bool>,
    /// On the boolean path.
    quiet: Vec<bool>,
}

/// The per-location walk, with the analysis's work accounting. Its
/// per-node tables are dense (indexed by node) and reused: each location
/// resets only the entries it touched.
struct Walk {
    work: u64,
    max_work: u64,
    /// Whether the tables are set for the program analysed.
    prepared: bool,
    marks: Vec<Mark>,
    /// Nodes whose marks are set.
    touched: Vec<NodeId>,
    /// Per node: its index in the group being built by
    /// [`coinciding_groups`] (`usize::MAX` outside it).
    root_at: Vec<usize>,
    /// Per [`ChildIds`] id: its rank among the named children of the
    /// landings [`coinciding_groups`] is sorting (`usize::MAX` outside it).
    child_rank: Vec<usize>,
    /// Per node: a lone leaf, applying nothing in place or to children
    /// and applied in place by no node. A location's closure can reach
    /// such a node only as one of its roots.
    lone: Vec<bool>,
    /// Per node: [`NodeFlags::CHEAP`], run again rather than memoized
    /// when reached by few paths ([`Walk::runs_again`]).
    cheap: Vec<bool>,
    /// Per node: the wildcard kind whose merged lone leaves
    /// [`coinciding_groups`] holds it in (`None` outside it).
    wild: Vec<Option<usize>>,
    /// The last location's closure in topological order, and the
    /// depth-first search's stack of (node, next successor): buffers
    /// reused across locations.
    order: Vec<NodeId>,
    stack: Vec<(NodeId, usize)>,
    /// An entry's landings: a buffer reused across entries.
    landings: Landings,
    /// [`coinciding_groups`]' working lists and (between entries) its
    /// last result's buffers.
    scratch: GroupScratch,
    spare_groups: Groups,
    /// The analysis's own tables, kept with the walk between analyses.
    tables: Tables,
}

/// The tables [`analyze`] keeps outside the walk (see there).
#[derive(Default)]
struct Tables {
    graph: GraphBuffers,
    full: Vec<bool>,
    walked: Vec<Option<NodeCost>>,
    is_entry: Vec<bool>,
    entries: Vec<NodeId>,
}

impl Tables {
    /// The most entries one of the tables has room for.
    fn largest(&self) -> usize {
        let g = &self.graph;
        let graph = [g.edge_at.capacity(), g.edges.capacity(), g.tag_at.capacity(), g.tags.capacity()];
        let nodes = [g.private.capacity(), g.parents.capacity(), self.full.capacity(), self.walked.capacity()];
        let entries = [self.is_entry.capacity(), self.entries.capacity()];
        graph.into_iter().chain(nodes).chain(entries).max().unwrap_or(0)
    }
}

/// Walks whose tables hold more nodes than this are dropped rather than
/// kept for the thread's next analysis.
const KEPT_WALK_NODES: usize = 1 << 12;

thread_local! {
    /// The last analysis's walk, its buffers kept for the next one: an
    /// analysis of a small schema otherwise spends much of its time
    /// allocating and freeing them.
    static SPARE_WALK: std::cell::Cell<Option<Box<Walk>>> = const { std::cell::Cell::new(None) };
}

impl Walk {
    /// A walk with no work done and its tables not yet sized
    /// ([`Walk::prepare`]): a program none of whose entries needs walking
    /// (see [`walk_entry`]) never needs them. Reuses the thread's spare walk's buffers, if it has one.
    fn new(max_work: u64) -> Box<Walk> {
        if let Some(mut walk) = SPARE_WALK.with(std::cell::Cell::take) {
            walk.work = 0;
            walk.max_work = max_work;
            walk.prepared = false;
            return walk;
        }
        Box::new(Walk {
            work: 0,
            max_work,
            prepared: false,
            marks: Vec::new(),
            touched: Vec::new(),
            root_at: Vec::new(),
            child_rank: Vec::new(),
            lone: Vec::new(),
            cheap: Vec::new(),
            wild: Vec::new(),
            order: Vec::new(),
            stack: Vec::new(),
            landings: Vec::new(),
            scratch: GroupScratch::default(),
            spare_groups: Groups::default(),
            tables: Tables::default(),
        })
    }

    /// Keeps this walk's buffers for the thread's next analysis, unless
    /// they are large.
    fn retire(self: Box<Walk>) {
        // (A table per node holds one more entry than the nodes: an end.)
        let rooms = [self.marks.capacity(), self.child_rank.capacity(), self.tables.largest()];
        if rooms.iter().all(|&room| room <= KEPT_WALK_NODES + 1) {
            SPARE_WALK.with(|spare| spare.set(Some(self)));
        }
    }

    /// Sizes and sets the per-node tables for `program`, before its first
    /// location (once: they are reused from then on).
    fn prepare(&mut self, program: &Program, graph: &Graph<'_>) {
        if self.prepared {
            return;
        }
        self.prepared = true;
        let nodes = program.nodes.len();
        let ids = (0..nodes).map(|i| NodeId(i as u32));
        self.lone.clear();
        self.lone.extend(ids.clone().map(|id| graph.successors(id).is_empty() && graph.edges(id).is_empty()));
        for s in ids.flat_map(|id| graph.successors(id)) {
            if let Some(l) = self.lone.get_mut(s.index()) {
                *l = false;
            }
        }
        self.marks.clear();
        self.marks.resize(nodes, Mark::default());
        for (table, len) in [(&mut self.root_at, nodes), (&mut self.child_rank, graph.children)] {
            table.clear();
            table.resize(len, usize::MAX);
        }
        self.cheap.clear();
        self.cheap.extend(program.nodes.iter().map(|node| node.flags.contains(NodeFlags::CHEAP)));
        self.wild.clear();
        self.wild.resize(nodes, None);
        // A location's closure holds at most every node: sized once.
        for buffer in [&mut self.touched, &mut self.order] {
            buffer.clear();
            buffer.reserve(nodes);
        }
        self.stack.clear();
        self.stack.reserve(nodes);
    }

    /// Whether `id`, reached by `paths` paths at one location, runs again
    /// rather than being memoized.
    fn runs_again(&self, id: NodeId, paths: u64) -> bool {
        paths <= MAX_UNSHARED_PATHS && self.cheap.get(id.index()) == Some(&true)
    }

    /// Clears what the last location set.
    fn reset(&mut self) {
        for id in self.touched.drain(..) {
            if let Some(m) = self.marks.get_mut(id.index()) {
                *m = Mark::default();
            }
        }
    }

    /// Evaluations at one location starting from `roots` (node, times)
    /// and then `leaves`: memoizes nodes reached twice (each way of
    /// evaluating by its own count), and returns the location's cost
    /// (recording's count), appending its applications to children to
    /// `landings` if asked. `Err` carries the work done when the analysis
    /// budget runs out.
    ///
    /// `leaves` are distinct lone leaves ([`Walk::lone`]) not among
    /// `roots`: nothing reaches them but their own weight, so each costs
    /// its own evaluations and the one unit of work the search would
    /// spend on it, and they are accounted without being walked.
    fn location(
        &mut self,
        graph: &Graph<'_>,
        roots: &[Root],
        leaves: &[Root],
        memo: &mut Memoized,
        landings: Option<&mut Landings>,
    ) -> Result<NodeCost, u64> {
        if roots.iter().all(|(r, _)| graph.successors(*r).is_empty()) {
            return self.flat_location(graph, roots, leaves, memo, landings);
        }
        self.searched_location(graph, roots, leaves, memo, landings)
    }

    /// [`Walk::location`] by a search of the roots' in-place closure.
    fn searched_location(
        &mut self,
        graph: &Graph<'_>,
        roots: &[Root],
        leaves: &[Root],
        memo: &mut Memoized,
        mut landings: Option<&mut Landings>,
    ) -> Result<NodeCost, u64> {
        self.reset();
        self.topological_order(graph, roots)?;
        let mut cost = NodeCost::default();
        self.count_leaves(leaves, memo, &mut cost)?;
        for &(r, w) in roots {
            if let Some(m) = self.marks.get_mut(r.index()) {
                m.paths = m.paths.plus(w);
                m.raw = m.raw.saturating_add(w.full);
                m.owner = Owner::Free;
            }
        }
        let order = std::mem::take(&mut self.order);
        for &x in &order {
            let Mark { paths, raw: naive, depth: d, owner, .. } =
                self.marks.get(x.index()).copied().unwrap_or_default();
            let effective = self.memoize(x, paths, memo);
            cost.fan_out = cost.fan_out.saturating_add(effective.full);
            cost.unmemoized_fan_out = cost.unmemoized_fan_out.saturating_add(naive);
            cost.in_place_depth = cost.in_place_depth.max(d);
            let succ = graph.successors(x);
            let tags = graph.tags(x);
            for (k, &y) in succ.iter().enumerate() {
                // What applies `x` alone applies its successors; else the
                // edge's own alternative, if any.
                let through = match owner {
                    Owner::By(_) => owner,
                    _ => tags.get(k).copied().flatten().map_or(Owner::Free, Owner::By),
                };
                if let Some(m) = self.marks.get_mut(y.index()) {
                    m.paths = m.paths.plus(effective);
                    m.raw = m.raw.saturating_add(naive);
                    m.depth = m.depth.max(d.saturating_add(1));
                    m.owner = m.owner.meet(through);
                }
            }
            let edges = graph.edges(x);
            if let Some(landings) = landings.as_deref_mut() {
                landings.extend(edges.iter().map(|&(c, t)| (c, t, effective, owner)));
            }
            self.work += (succ.len() + edges.len()) as u64;
        }
        self.order = order;
        if self.work > self.max_work {
            return Err(self.work);
        }
        Ok(cost)
    }

    /// [`Walk::location`] when no root applies anything in place (most
    /// groups of a large schema's properties): each root is reached by
    /// its own weight alone, so it is memoized or not on that, without
    /// marking nodes or sorting them. The same work is charged, checked
    /// at the same points, as the search would; the landings come in the
    /// search's order (the roots reversed). `roots` are distinct, as every
    /// caller's are.
    fn flat_location(
        &mut self,
        graph: &Graph<'_>,
        roots: &[Root],
        leaves: &[Root],
        memo: &mut Memoized,
        mut landings: Option<&mut Landings>,
    ) -> Result<NodeCost, u64> {
        // The search's unit per root, checked after each.
        self.charge(roots.len() as u64)?;
        let mut cost = NodeCost::default();
        for &(r, w) in roots.iter().rev() {
            let effective = self.memoize(r, w, memo);
            cost.fan_out = cost.fan_out.saturating_add(effective.full);
            cost.unmemoized_fan_out = cost.unmemoized_fan_out.saturating_add(w.full);
            if let Some(landings) = landings.as_deref_mut() {
                landings.extend(graph.edges(r).iter().map(|&(c, t)| (c, t, effective, Owner::Free)));
            }
        }
        self.count_leaves(leaves, memo, &mut cost)?;
        self.work += roots.iter().map(|(r, _)| graph.edges(*r).len() as u64).sum::<u64>();
        if self.work > self.max_work {
            return Err(self.work);
        }
        Ok(cost)
    }

    /// Charges `units` of work at once, as that many single units each
    /// followed by a check would: `Err` with the work at the first unit
    /// over the budget.
    fn charge(&mut self, units: u64) -> Result<(), u64> {
        if units > self.max_work.saturating_sub(self.work) {
            self.work = self.work.max(self.max_work).saturating_add(1);
            return Err(self.work);
        }
        self.work += units;
        Ok(())
    }

    /// Charges a location's `leaves` (see [`Walk::location`]) the unit
    /// each the search would spend on it, and counts their evaluations
    /// into `cost`. (Nothing else reaches them: counted at any point of
    /// the walk, they memoize and add the same.)
    fn count_leaves(&mut self, leaves: &[Root], memo: &mut Memoized, cost: &mut NodeCost) -> Result<(), u64> {
        self.charge(leaves.len() as u64)?;
        for &(leaf, w) in leaves {
            let effective = self.memoize(leaf, w, memo);
            cost.fan_out = cost.fan_out.saturating_add(effective.full);
            cost.unmemoized_fan_out = cost.unmemoized_fan_out.saturating_add(w.full);
        }
        Ok(())
    }

    /// Memoizes `id`, reached by `paths` at one location, each way it is
    /// reached twice (unless it [runs again](Walk::runs_again)), and
    /// returns its evaluations there.
    fn memoize(&self, id: NodeId, paths: Weight, memo: &mut Memoized) -> Weight {
        let way = |memo: &mut Vec<bool>, p: u64| match memo.get_mut(id.index()) {
            Some(m) => {
                *m |= p >= 2 && !self.runs_again(id, p);
                if *m { p.min(1) } else { p }
            }
            None => p,
        };
        Weight { full: way(&mut memo.full, paths.full), quiet: way(&mut memo.quiet, paths.quiet) }
    }

    /// Marks `id` visited; false if it already was.
    fn visit(&mut self, id: NodeId) -> bool {
        match self.marks.get_mut(id.index()) {
            Some(m) if !m.seen => {
                m.seen = true;
                self.touched.push(id);
                true
            }
            _ => false,
        }
    }

    /// The in-place closure of `roots` in topological order, into
    /// [`Walk::order`], by an iterative depth-first search.
    fn topological_order(&mut self, graph: &Graph<'_>, roots: &[Root]) -> Result<(), u64> {
        let mut post = std::mem::take(&mut self.order);
        let mut stack = std::mem::take(&mut self.stack);
        post.clear();
        for &(root, _) in roots {
            if !self.visit(root) {
                continue;
            }
            if graph.successors(root).is_empty() {
                // The search below, for a node without successors.
                self.work += 1;
                post.push(root);
            } else {
                stack.clear();
                stack.push((root, 0));
                while let Some(top) = stack.last_mut() {
                    self.work += 1;
                    match graph.successors(top.0).get(top.1).copied() {
                        Some(next) => {
                            top.1 += 1;
                            if self.visit(next) {
                                stack.push((next, 0));
                            }
                        }
                        None => {
                            post.push(top.0);
                            stack.pop();
                        }
                    }
                }
            }
            if self.work > self.max_work {
                return Err(self.work);
            }
        }
        post.reverse();
        self.order = post;
        self.stack = stack;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{
        Graph, GraphBuffers, KEPT_WALK_NODES, MAX_UNSHARED_PATHS, Memoized, Owner, Root, SPARE_WALK, UNWALKED_COST,
        Walk, Weight, entries, landings_may_coincide, owned_by, place_runs, unwalked_work, walk_entry,
    };
    use crate::bytecode::{ListId, NodeFlags, NodeId};
    use crate::compile::analysis::Adjacency;
    use crate::{CompileErrorKind, CompileOptions, Limits, compile};

    /// Options that keep the cost bounds, for [`crate::Program::cost`].
    fn kept_costs() -> CompileOptions {
        CompileOptions { keep_cost_bounds: true, ..Default::default() }
    }

    /// The bounds are kept only when asked for; they are enforced either
    /// way.
    #[test]
    fn cost_bounds_are_kept_only_when_asked_for() {
        let schema =
            json!({"anyOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/a"}], "$defs": {"a": {"type": "string"}}});
        let program = compile(&schema, &CompileOptions::default()).unwrap();
        assert_eq!(program.cost(program.root()), None);
        let kept = compile(&schema, &kept_costs()).unwrap();
        assert!(kept.cost(kept.root()).is_some_and(|c| c.fan_out >= 3), "{:?}", kept.cost(kept.root()));
        let tight = |keep_cost_bounds| CompileOptions {
            keep_cost_bounds,
            limits: Limits { max_fan_out: 2, ..Limits::default() },
            ..Default::default()
        };
        for keep in [false, true] {
            let err = compile(&schema, &tight(keep)).unwrap_err();
            assert!(matches!(err.kind(), CompileErrorKind::LimitExceeded { limit: "max_fan_out", .. }), "{err}");
        }
    }

    /// The landings of one list's alternatives, sorted into a run per
    /// alternative in their order, others left out.
    #[test]
    fn owned_landings_sort_into_one_run_per_alternative() {
        let (list, other) = (ListId(3), ListId(4));
        let by = |l: ListId, a: u32| Owner::By((l, a));
        let landing = |n: u32, owner: Owner| (NodeId(n), Weight::ONE, owner);
        let landings = [
            landing(10, by(list, 2)),
            landing(11, Owner::Free),
            landing(12, by(list, 0)),
            landing(13, by(other, 0)),
            landing(14, by(list, 2)),
        ];
        let mut owned = Vec::new();
        // Counts per alternative 0, 1, 2: the runs end at 1, 1 and 3.
        let mut owned_at = vec![1, 0, 2];
        let by_owner = landings.iter().filter_map(|&l| owned_by(l.2, list).map(|a| (a, l)));
        place_runs(by_owner, &mut owned_at, &mut owned);
        let nodes: Vec<u32> = owned.iter().map(|(n, _, _)| n.0).collect();
        assert_eq!(nodes, [12, 10, 14]);
        assert_eq!(owned_at, [1, 1, 3]);
    }

    /// The group of property `a` at the root location: its two `a`
    /// subschemas plus the three `false` wildcards (lone leaves).
    #[test]
    fn wildcard_leaves_count_in_each_named_group() {
        let alternative =
            |extra: &str| json!({"properties": {"a": {"type": "string"}, extra: {}}, "additionalProperties": false});
        let schema = json!({"anyOf": [alternative("b"), alternative("c"), {"additionalProperties": false}]});
        let tight =
            |max_fan_out| CompileOptions { limits: Limits { max_fan_out, ..Limits::default() }, ..Default::default() };
        assert!(compile(&schema, &tight(5)).is_ok());
        let err = compile(&schema, &tight(4)).unwrap_err();
        assert!(
            matches!(err.kind(), CompileErrorKind::LimitExceeded { limit: "max_fan_out", bound: 5, max: 4 }),
            "{err}"
        );
    }

    /// A leaf entry (no in-place application, no child) costs one
    /// evaluation and one unit of analysis work, as a walk of it would.
    #[test]
    fn leaf_entries_cost_one_evaluation_and_one_unit_of_work() {
        let schema = json!({"properties": {"a": {"type": "string"}, "b": {"type": "integer"}}});
        let program = compile(&schema, &kept_costs()).unwrap();
        for id in program.node_ids().filter(|id| *id != program.root()) {
            let cost = program.cost(id).unwrap();
            assert_eq!((cost.fan_out, cost.unmemoized_fan_out, cost.in_place_depth), (1, 1, 0));
        }
        // The root's walk: itself, its two edges and its two named
        // children's groups (5); then one unit per leaf.
        let work = |max_analysis_work| CompileOptions {
            limits: Limits { max_analysis_work, ..Limits::default() },
            ..Default::default()
        };
        assert!(compile(&schema, &work(7)).is_ok());
        let err = compile(&schema, &work(6)).unwrap_err();
        assert!(
            matches!(err.kind(), CompileErrorKind::LimitExceeded { limit: "max_analysis_work", bound: 7, max: 6 }),
            "{err}"
        );
    }

    /// The least analysis work `schema` compiles within.
    fn least_work(schema: &serde_json::Value) -> u64 {
        let fits = |max_analysis_work| {
            let limits = Limits { max_analysis_work, ..Limits::default() };
            compile(schema, &CompileOptions { limits, ..Default::default() }).is_ok()
        };
        let (mut low, mut high) = (0, 1 << 20);
        while low + 1 < high {
            let mid = (low + high) / 2;
            if fits(mid) { high = mid } else { low = mid }
        }
        high
    }

    /// Two properties whose subschemas apply the same definitions through
    /// `$ref` alternatives of their own (enough of them to be shaped) have
    /// one shape: the second is not
    /// walked again, and costs what the first does. Through a wrapper that
    /// something else applies too, it is walked.
    #[test]
    fn entries_of_one_shape_are_walked_once() {
        let refs: Vec<_> =
            (0..super::SHAPED).map(|i| json!({"$ref": if i % 2 == 0 { "#/$defs/A" } else { "#/$defs/B" }})).collect();
        let alternatives = json!({ "anyOf": refs });
        let defs = json!({
            "A": {"properties": {"a": {"type": "string"}, "b": {"$ref": "#/$defs/B"}}},
            "B": {"properties": {"a": {"type": "integer"}}, "anyOf": [{"required": ["a"]}, {"required": ["b"]}]},
            "C": {"$ref": "#/properties/y/anyOf/0"},
            "D": {"$ref": "#/$defs/E"},
            "E": {"$ref": "#/$defs/A"}
        });
        let schema = |properties: serde_json::Value| json!({"properties": properties, "$defs": defs});
        let one = schema(json!({"x": alternatives}));
        let two = schema(json!({"x": alternatives, "y": alternatives}));
        // The second entry adds its edge to the root's walk and its group
        // (a child of its own): two units, not a walk.
        assert_eq!(least_work(&two), least_work(&one) + 2);
        let program = compile(&two, &kept_costs()).unwrap();
        let cost_of = |pointer: &str| {
            let id = program.node_ids().find(|id| *program.location(*id) == *format!("json-schema:///#{pointer}"));
            id.and_then(|id| program.cost(id))
        };
        assert_eq!(cost_of("/properties/x"), cost_of("/properties/y"));
        assert!(cost_of("/properties/x").is_some_and(|c| c.fan_out > 3));
        // `y`'s first alternative is applied by `C` too: not a private
        // wrapper, so `y` is walked on its own. (`D` reaches `A` the same
        // way, through a node of its own: `y` keeps its shape then.)
        let shared = schema(json!({"x": alternatives, "y": alternatives, "z": {"$ref": "#/$defs/C"}}));
        let apart = schema(json!({"x": alternatives, "y": alternatives, "z": {"$ref": "#/$defs/D"}}));
        assert!(least_work(&shared) > least_work(&apart));
    }

    /// A location whose roots apply nothing in place costs, memoizes,
    /// lands and charges the same without the search as with it.
    #[test]
    fn flat_locations_cost_what_the_search_does() {
        let schema = json!({"anyOf": [
            {"properties": {"a": {"type": "string"}}, "additionalProperties": false},
            {"properties": {"a": {"enum": [1, 2]}, "b": {}}, "items": {"type": "integer"}},
            {"type": "object"}
        ]});
        let program = compile(&schema, &CompileOptions::default()).unwrap();
        let in_place = Adjacency::in_place(&program);
        let graph = Graph::new(&program, &in_place, GraphBuffers::default());
        let n = program.nodes.len();
        // Weights 1 to 3, so that some roots are reached twice or more.
        let flat: Vec<Root> = program
            .node_ids()
            .filter(|id| graph.successors(*id).is_empty())
            .zip(1u64..)
            .map(|(id, i)| (id, Weight { full: i % 3 + 1, quiet: i % 2 + 1 }))
            .collect();
        assert!(flat.len() >= 4 && flat.iter().any(|(id, _)| !graph.edges(*id).is_empty()));
        let (roots, leaves) = flat.split_at(flat.len() - 1);
        let run = |searched: bool, max_work: u64| {
            let mut walk = Walk::new(max_work);
            walk.prepare(&program, &graph);
            let mut memo = Memoized { full: vec![false; n], quiet: vec![false; n] };
            let mut landings = Vec::new();
            let cost = if searched {
                walk.searched_location(&graph, roots, leaves, &mut memo, Some(&mut landings))
            } else {
                walk.flat_location(&graph, roots, leaves, &mut memo, Some(&mut landings))
            };
            (
                cost.map(|c| (c.fan_out, c.unmemoized_fan_out, c.in_place_depth)),
                walk.work,
                memo.full,
                memo.quiet,
                landings,
            )
        };
        let whole = run(true, u64::MAX);
        assert!(whole.2.iter().any(|m| *m), "some root is memoized");
        assert_eq!(run(false, u64::MAX), whole);
        // Out of work at each point the search checks.
        for max_work in 0..whole.1 {
            let (searched, flat) = (run(true, max_work), run(false, max_work));
            assert_eq!((&searched.0, searched.1), (&flat.0, flat.1), "max_work {max_work}");
        }
    }

    /// Landings that may meet keep the walk: a pattern and a name it
    /// matches, two patterns, a wildcard over every child (`contains`, a
    /// tracked `unevaluated*`) beside anything else of its kind.
    #[test]
    fn landings_that_may_meet_are_walked() {
        let meet = [
            json!({"properties": {"xa": {"minLength": 1}}, "patternProperties": {"^x": {"maxLength": 9}}}),
            json!({"patternProperties": {"^x": {"minLength": 1}, "a$": {"maxLength": 9}}}),
            json!({"properties": {"a": {"minLength": 1}}, "anyOf": [{"properties": {"b": true}}, {"required": ["c"]}],
                   "unevaluatedProperties": {"maxLength": 9}}),
            json!({"prefixItems": [{"minimum": 1}], "anyOf": [{"prefixItems": [true, true]}, {"minItems": 3}],
                   "unevaluatedItems": {"maximum": 9}}),
            json!({"prefixItems": [{"minimum": 1}], "contains": {"maximum": 9}}),
            json!({"items": {"minimum": 1}, "contains": {"maximum": 9}}),
        ];
        for schema in meet {
            let program = compile(&schema, &CompileOptions::default()).unwrap();
            assert!(landings_may_coincide(&program, program.root), "{schema}");
        }
        let apart = [
            json!({"properties": {"a": {"minLength": 1}}, "patternProperties": {"^x": {"maxLength": 9}}}),
            json!({"patternProperties": {"^x": {"minLength": 1}}, "additionalProperties": {"maxLength": 9}}),
            json!({"prefixItems": [{"minimum": 1}], "items": {"maximum": 9}}),
            // Resolved statically, `unevaluatedProperties` is the rest.
            json!({"properties": {"a": {"minLength": 1}}, "unevaluatedProperties": {"maxLength": 9}}),
        ];
        for schema in apart {
            let program = compile(&schema, &CompileOptions::default()).unwrap();
            assert!(!landings_may_coincide(&program, program.root), "{schema}");
        }
    }

    /// A thread keeps the last analysis's walk and tables for the next one
    /// while they are small, and drops them after a large program's
    /// analysis: many nodes, or few nodes applying many in place.
    #[test]
    fn spare_walks_are_kept_only_while_small() {
        let spare = || SPARE_WALK.with(|s| s.take()).map(|w| w.tables.largest());
        let small = json!({"properties": {"a": {"type": "string"}}, "additionalProperties": false});
        compile(&small, &CompileOptions::default()).unwrap();
        assert!(spare().is_some_and(|room| room <= KEPT_WALK_NODES + 1));
        let wide: serde_json::Map<String, serde_json::Value> =
            (0..KEPT_WALK_NODES + 1).map(|i| (format!("p{i}"), json!({"minimum": i}))).collect();
        compile(&json!({ "properties": wide }), &CompileOptions::default()).unwrap();
        assert_eq!(spare(), None, "many nodes");
        // A hundred dynamic references, each applying in place the
        // anchors of the hundred resources the root reaches: a few hundred
        // nodes, ten thousand applications in place.
        let defs: serde_json::Map<String, serde_json::Value> = (0..100)
            .map(|i| (format!("r{i}"), json!({"$id": format!("urn:r{i}"), "$dynamicAnchor": "node", "minimum": i})))
            .collect();
        let refs: serde_json::Map<String, serde_json::Value> =
            (0..100).map(|i| (format!("p{i}"), json!({"$dynamicRef": "urn:r0#node"}))).collect();
        let reached: Vec<_> = (0..100).map(|i| json!({"$ref": format!("urn:r{i}")})).collect();
        let schema = json!({"$id": "urn:root", "$defs": defs, "properties": refs, "anyOf": reached});
        let program = compile(&schema, &CompileOptions::default()).unwrap();
        let in_place = Adjacency::in_place(&program);
        let applications: usize = program.node_ids().map(|id| in_place.of(id).len()).sum();
        assert!(program.nodes.len() < KEPT_WALK_NODES && applications > KEPT_WALK_NODES + 1, "{applications}");
        assert_eq!(spare(), None, "many applications in place");
    }

    /// An entry that skips the walk costs what the walk finds, for no more
    /// work, and memoizes nothing. Where the walk groups no landings
    /// (`exact`), it does just that work and memoizes nothing either. Where
    /// it groups landings that never meet (`disjoint`: a rest with named
    /// children or patterns, a pattern with names it does not match), it
    /// works more, and may memoize what they apply.
    #[test]
    fn entries_that_skip_the_walk_cost_what_the_walk_finds() {
        let exact = [
            json!({"properties": {"a": {"type": "string"}, "b": {"items": {"minimum": 1}}}, "required": ["a"]}),
            json!({"contains": {"const": 1}, "items": {"type": "number"}}),
            json!({"propertyNames": {"maxLength": 3}, "dependentSchemas": {"a": {"required": ["b"]}}}),
            json!({"anyOf": [{"properties": {"a": {}}}, {"items": {"enum": [1]}}], "not": {"type": "null"}}),
            json!({"$defs": {"n": {"properties": {"next": {"$ref": "#/$defs/n"}}}}, "$ref": "#/$defs/n"}),
            json!({"if": {"properties": {"k": {"const": 1}}}, "then": {"required": ["v"]}, "else": {"items": {}}}),
        ];
        let disjoint = [
            json!({"patternProperties": {"^x": {"type": "string"}}, "properties": {"y": {}}}),
            json!({"properties": {"a": {"type": "string"}}, "patternProperties": {"^x-": {"minLength": 1}},
                   "additionalProperties": false}),
            json!({"prefixItems": [{}, {"type": "integer"}], "items": {"type": "string"}}),
            json!({"additionalProperties": {"type": "string"}, "properties": {"a": {"minimum": 2}}}),
            json!({"properties": {"a": {"type": "string"}}, "additionalProperties": false}),
            json!({"properties": {"a": {"$ref": "#/$defs/s"}}, "additionalProperties": {"$ref": "#/$defs/s"},
                   "$defs": {"s": {"properties": {"x": {"type": "string"}}}}}),
            json!({"prefixItems": [{"$ref": "#/$defs/s"}], "items": {"$ref": "#/$defs/s"},
                   "$defs": {"s": {"properties": {"x": {"type": "string"}}}}}),
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"$ref": "#/definitions/s"}],
                   "additionalItems": {"$ref": "#/definitions/s"},
                   "definitions": {"s": {"properties": {"x": {"type": "string"}}}}}),
        ];
        let (mut skipped, mut walk_memoized) = (0, 0);
        for (schema, is_exact) in exact.iter().map(|s| (s, true)).chain(disjoint.iter().map(|s| (s, false))) {
            let program = compile(schema, &CompileOptions::default()).unwrap();
            let in_place = Adjacency::in_place(&program);
            let graph = Graph::new(&program, &in_place, GraphBuffers::default());
            let n = program.nodes.len();
            let mut skipped_here = 0;
            let mut list = Vec::new();
            entries(&program, &graph, &mut Vec::new(), &mut list);
            for entry in list {
                if !graph.successors(entry).is_empty() || landings_may_coincide(&program, entry) {
                    continue;
                }
                skipped_here += 1;
                let mut walk = Walk::new(u64::MAX);
                let mut memo = Memoized { full: vec![false; n], quiet: vec![false; n] };
                let cost =
                    walk_entry(&program, &graph, &mut walk, (entry, false), &mut memo, &Limits::default()).unwrap();
                let at = program.location(entry);
                assert_eq!(cost, UNWALKED_COST, "{at}");
                if is_exact {
                    assert_eq!(walk.work, unwalked_work(&graph, entry), "{at}");
                    assert!(!memo.full.contains(&true) && !memo.quiet.contains(&true), "{at}");
                } else {
                    assert!(walk.work >= unwalked_work(&graph, entry), "{at}");
                    walk_memoized += usize::from(memo.full.contains(&true));
                }
            }
            // The compiled program (whose analysis skips) memoizes nothing.
            assert!(program.node_ids().all(|id| !program.node(id).flags().contains(NodeFlags::MEMO)), "{schema}");
            assert!(is_exact || skipped_here > 0, "the root of {schema} skips the walk");
            skipped += skipped_here;
        }
        assert!(skipped >= 21, "{skipped}");
        // The walk would have memoized `s` of the `$ref` schemas.
        assert!(walk_memoized >= 2, "{walk_memoized}");
    }

    /// A definition applied twice at one location is memoized; the
    /// wildcard it applies to each child is then reached once per child.
    #[test]
    fn leaves_of_a_memoized_node_are_reached_once() {
        let schema = json!({
            "anyOf": [{"$ref": "#/$defs/D"}, {"$ref": "#/$defs/D"}],
            "$defs": {"D": {"properties": {"a": {"type": "string"}}, "additionalProperties": false}}
        });
        let program = compile(&schema, &CompileOptions::default()).unwrap();
        let memoized: Vec<_> = program
            .node_ids()
            .filter(|id| program.node(*id).flags().contains(crate::bytecode::NodeFlags::MEMO))
            .map(|id| program.location(id).to_string())
            .collect();
        assert_eq!(memoized, ["json-schema:///#/$defs/D"]);
    }

    /// A cheap definition runs again when a few paths reach it, each
    /// evaluation counted; reached by more, it is memoized.
    #[test]
    fn cheap_nodes_reached_by_few_paths_run_again() {
        let memo_and_fan_out = |refs: usize| {
            let schema = json!({
                "allOf": vec![json!({"$ref": "#/$defs/C"}); refs],
                "$defs": {"C": {"enum": ["a", "b"]}}
            });
            let program = compile(&schema, &kept_costs()).unwrap();
            let memoized = program
                .node_ids()
                .filter(|id| program.node(*id).flags().contains(crate::bytecode::NodeFlags::MEMO))
                .map(|id| program.location(id).to_string())
                .collect::<Vec<_>>();
            (memoized, program.cost(program.root()).map(|c| c.fan_out))
        };
        // The root, the `$ref`s, and `C` once per path.
        assert_eq!(memo_and_fan_out(2), (vec![], Some(1 + 2 + 2)));
        assert_eq!(memo_and_fan_out(MAX_UNSHARED_PATHS as usize), (vec![], Some(1 + 2 * MAX_UNSHARED_PATHS)));
        let refs = MAX_UNSHARED_PATHS as usize + 1;
        assert_eq!(memo_and_fan_out(refs), (vec!["json-schema:///#/$defs/C".to_string()], Some(1 + refs as u64 + 1)));
    }

    /// Each memoized node's location, and whether the boolean path
    /// memoizes it too.
    fn memoized(schema: serde_json::Value) -> Vec<(String, bool)> {
        let program = compile(&schema, &CompileOptions::default()).unwrap();
        program
            .node_ids()
            .filter(|id| program.node(*id).flags().contains(crate::bytecode::NodeFlags::MEMO))
            .map(|id| (program.location(id).to_string(), program.node(id).entry() == crate::bytecode::Entry::Memo))
            .collect()
    }

    /// A `oneOf` of tagged variants whose `content` all reference the
    /// list again: `variant(i)` pins `tag` to `tags[i]`.
    fn tagged(tags: &[&str], required: bool, extra: serde_json::Value) -> serde_json::Value {
        let variants: Vec<_> = tags
            .iter()
            .map(|tag| {
                let mut v = json!({"properties": {"tag": {"const": tag}, "content": {"$ref": "#/$defs/D"}}});
                if required {
                    v["required"] = json!(["tag"]);
                }
                v
            })
            .collect();
        let mut d = json!({"oneOf": variants});
        if let (Some(d), Some(extra)) = (d.as_object_mut(), extra.as_object()) {
            d.extend(extra.clone());
        }
        json!({"$ref": "#/$defs/D", "$defs": {"D": d}})
    }

    const D: &str = "json-schema:///#/$defs/D";

    /// Recording runs every variant, so `D` is reached three times at
    /// each `content`; the boolean path runs the one variant `tag` names.
    #[test]
    fn discriminated_alternatives_memoize_only_while_recording() {
        assert_eq!(memoized(tagged(&["a", "b", "c"], true, json!({}))), [(D.to_string(), false)]);
    }

    /// Where the boolean path can run several variants for one object,
    /// it memoizes what they share.
    #[test]
    fn shared_candidates_keep_the_boolean_memo() {
        // Two variants for `a`.
        assert_eq!(memoized(tagged(&["a", "a", "c"], true, json!({}))), [(D.to_string(), true)]);
        // `tag` optional: an object without it runs every variant.
        assert_eq!(memoized(tagged(&["a", "b", "c"], false, json!({}))), [(D.to_string(), true)]);
        // `content` reached outside the variants as well.
        let outside = json!({"properties": {"content": {"$ref": "#/$defs/D"}}});
        assert_eq!(memoized(tagged(&["a", "b", "c"], true, outside)), [(D.to_string(), true)]);
    }

    /// FHIR's shape: a discriminated `oneOf` whose variants close their
    /// objects (`additionalProperties: false`, an any-key landing each
    /// variant owns), so every property's group is split for the boolean
    /// count and takes the variants' `false` leaves. `content`'s recording
    /// count is the three references, `D` once (memoized), its three
    /// variants and the three leaves: 10; the boolean path runs one
    /// variant per object unless two share a tag.
    #[test]
    fn closed_variants_count_their_wildcards_in_each_group() {
        let variant = |tag: &str, own: &str| {
            json!({
                "properties": {"tag": {"const": tag}, "content": {"$ref": "#/$defs/D"}, own: {"type": "string"}},
                "required": ["tag"],
                "additionalProperties": false
            })
        };
        let schema = |tags: [&str; 3]| {
            let variants: Vec<_> = tags.iter().zip(["x", "y", "z"]).map(|(tag, own)| variant(tag, own)).collect();
            json!({"$ref": "#/$defs/D", "$defs": {"D": {"oneOf": variants}}})
        };
        assert_eq!(memoized(schema(["a", "b", "c"])), [(D.to_string(), false)]);
        assert_eq!(memoized(schema(["a", "a", "c"])), [(D.to_string(), true)]);
        let tight =
            |max_fan_out| CompileOptions { limits: Limits { max_fan_out, ..Limits::default() }, ..Default::default() };
        assert!(compile(&schema(["a", "b", "c"]), &tight(10)).is_ok());
        let err = compile(&schema(["a", "b", "c"]), &tight(9)).unwrap_err();
        assert!(
            matches!(err.kind(), CompileErrorKind::LimitExceeded { limit: "max_fan_out", bound: 10, max: 9 }),
            "{err}"
        );
    }

    /// Items are not discriminated: an array runs every variant.
    #[test]
    fn items_through_discriminated_alternatives_stay_memoized() {
        let variant = |tag: &str| json!({"properties": {"tag": {"const": tag}}, "required": ["tag"], "items": {"$ref": "#/$defs/D"}});
        let schema = json!({
            "$ref": "#/$defs/D",
            "$defs": {"D": {"oneOf": [variant("a"), variant("b"), variant("c")]}}
        });
        assert_eq!(memoized(schema), [(D.to_string(), true)]);
    }
}
