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

use crate::bytecode::*;
use crate::compile::analysis::Adjacency;
use crate::error::{CompileError, CompileErrorKind};
use crate::hash::{IdMap, TextMap};
use crate::options::Limits;

/// Where a descending application lands, for deciding whether two of
/// them can reach the same child.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
                let o = program.object(o);
                for (name, e) in o.names.keys().zip(o.entries.iter()) {
                    if let Some(n) = e.schema {
                        out.push((ids.key(name), n));
                    }
                }
                out.extend(o.patterns.iter().map(|(_, n)| (Child::AnyKey, *n)));
                out.extend(o.additional.map(|n| (Child::AnyKey, n)));
            }
            Instr::Array(a) => {
                let a = program.array(a);
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
            Instr::Object(o) => out.extend(program.object(o).property_names),
            Instr::Content(c) => out.extend(program.content(c).schema),
            _ => {}
        }
    }
}

/// Most paths by which a [`NodeFlags::CHEAP`] node may be reached at
/// one location and still run again: beyond, it is memoized like any
/// other, so the fan-out grows at most by this factor.
const MAX_UNSHARED_PATHS: u64 = 4;

/// Runs the analysis: sets [`NodeFlags::MEMO`], records [`NodeCost`]s and
/// enforces the fan-out and in-place depth limits.
///
/// An entry that is a chain of lone `$ref`s costs its chain plus its
/// target's location, so each target is walked once however many entries
/// reference it (large schemas reference one big `oneOf` from hundreds of
/// places).
pub(super) fn analyze(program: &mut Program, in_place: &Adjacency, limits: &Limits) -> Result<(), CompileError> {
    let n = program.nodes.len();
    let mut memo = vec![false; n];
    let mut costs = vec![NodeCost::default(); n];
    let graph = Graph::new(program, in_place);
    let cheap = program.nodes.iter().map(|node| node.flags.contains(NodeFlags::CHEAP)).collect();
    let mut walk = Walk::new(&graph, n, cheap, limits.max_analysis_work);
    let mut walked: Vec<Option<NodeCost>> = vec![None; n];
    for entry in entries(program, &graph) {
        let (target, hops) = forwarded(program, entry);
        let target_cost = match walked.get(target.index()).copied().flatten() {
            Some(c) => c,
            None => {
                let c = walk_entry(program, &graph, &mut walk, target, &mut memo, limits)?;
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
    for (node, m) in program.nodes.iter_mut().zip(memo) {
        if m && !node.flags.contains(NodeFlags::ALWAYS_VALID) {
            node.flags.insert(NodeFlags::MEMO);
        }
    }
    program.costs = costs;
    Ok(())
}

/// The location of one entry and of the children several of its
/// applications reach (evaluated as one location, so nodes reached twice
/// there are memoized too). Returns the entry's cost.
fn walk_entry(
    program: &Program,
    graph: &Graph<'_>,
    walk: &mut Walk,
    entry: NodeId,
    memo: &mut [bool],
    limits: &Limits,
) -> Result<NodeCost, CompileError> {
    let too_much = |w| limit(program, entry, "max_analysis_work", w, limits.max_analysis_work);
    if graph.successors(entry).is_empty() && graph.edges(entry).is_empty() {
        // A leaf (most entries of a large schema): its location is itself,
        // evaluated once, reaching nothing. The walk would find that for
        // one unit of work, and set up and clear its tables to do so.
        walk.work = walk.work.saturating_add(1);
        if walk.work > walk.max_work {
            return Err(too_much(walk.work));
        }
        let cost = NodeCost { fan_out: 1, unmemoized_fan_out: 1, in_place_depth: 0 };
        check(program, entry, cost, limits)?;
        return Ok(cost);
    }
    let mut landings = std::mem::take(&mut walk.landings);
    landings.clear();
    let cost = walk.location(graph, &[(entry, 1)], &[], memo, Some(&mut landings)).map_err(too_much)?;
    check(program, entry, cost, limits)?;
    let groups = coinciding_groups(&landings, walk).map_err(too_much)?;
    walk.landings = landings;
    for (group, leaves) in groups.iter() {
        let cost = walk.location(graph, group, leaves, memo, None).map_err(too_much)?;
        check(program, entry, cost, limits)?;
    }
    walk.spare_groups = groups;
    Ok(cost)
}

/// Follows `id` through nodes whose only instruction is a `$ref`: the
/// node reached and the number of hops. (In-place chains are acyclic
/// once unguarded recursion is ruled out; the bound is a safeguard.)
fn forwarded(program: &Program, id: NodeId) -> (NodeId, u64) {
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

/// The root, every target of a descending edge, and every detached entry.
fn entries(program: &Program, graph: &Graph<'_>) -> Vec<NodeId> {
    let mut is_entry = vec![false; program.nodes.len()];
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
    (0..program.nodes.len()).filter(|i| is_entry.get(*i) == Some(&true)).map(|i| NodeId(i as u32)).collect()
}

/// Applications to children of one location: (child, node, number of
/// evaluations).
type Landings = Vec<(Child, NodeId, u64)>;

/// A root of a location: a node and its number of evaluations.
type Root = (NodeId, u64);

/// Groups of location roots, (node, evaluations) each, stored end to
/// end: group `i` is `roots[ends[i - 1]..ends[i]]`, followed by the lone
/// leaves `wild[tails[i]]` when `tails[i]` is set.
#[derive(Default)]
struct Groups {
    roots: Vec<(NodeId, u64)>,
    ends: Vec<usize>,
    tails: Vec<Option<usize>>,
    /// The key and item wildcard landings, merged, when all of a kind's
    /// are lone leaves ([`Walk::lone`]); empty otherwise.
    wild: [Vec<(NodeId, u64)>; 2],
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

/// Merges `parts` into `roots` (first appearance order, weights of a
/// node summed), using `root_at` as scratch.
fn merge_roots(parts: [&[(NodeId, u64)]; 2], root_at: &mut [usize], roots: &mut Vec<(NodeId, u64)>) {
    let start = roots.len();
    for &(node, weight) in parts.iter().flat_map(|p| p.iter()) {
        let Some(at) = root_at.get_mut(node.index()) else { continue };
        match roots.get_mut(*at) {
            Some((_, w)) => *w = w.saturating_add(weight),
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
/// applications of its kind, or a wildcard kind alone.
/// Building them is charged to the walk's work (`Err` when it runs out).
fn coinciding_groups(landings: &Landings, walk: &mut Walk) -> Result<Groups, u64> {
    if landings.is_empty() {
        return Ok(Groups::default());
    }
    // Named landings by child in first-seen order (a stable sort by the
    // child's rank keeps each child's landings in order); wildcards by kind.
    let GroupScratch { mut named, mut ranked, mut any_key, mut any_item, mut runs, mut ends } =
        std::mem::take(&mut walk.scratch);
    named.clear();
    ranked.clear();
    any_key.clear();
    any_item.clear();
    for &(c, node, weight) in landings {
        match c {
            Child::AnyKey => any_key.push((node, weight)),
            Child::AnyItem => any_item.push((node, weight)),
            Child::Key(id) | Child::Index(id) => {
                let Some(rank) = walk.child_rank.get_mut(id as usize) else { continue };
                if *rank == usize::MAX {
                    *rank = ranked.len();
                    ranked.push(c);
                }
                named.push((*rank, node, weight));
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
    for &(rank, _, _) in &named {
        if let Some(e) = ends.get_mut(rank) {
            *e += 1;
        }
    }
    let mut total = 0;
    for e in ends.iter_mut() {
        total += *e;
        *e = total - *e;
    }
    runs.clear();
    runs.resize(named.len(), (NodeId(0), 0));
    for &(rank, node, weight) in &named {
        if let Some(e) = ends.get_mut(rank) {
            if let Some(slot) = runs.get_mut(*e) {
                *slot = (node, weight);
            }
            *e += 1;
        }
    }
    let mut groups = std::mem::take(&mut walk.spare_groups);
    groups.clear();
    // A named child's group is its landings plus the wildcards of its
    // kind. When those wildcards are all lone leaves and none of them is
    // among the child's landings, they are kept once per entry, merged,
    // and walked as the group's trailing leaves (see `Walk::location`):
    // the same roots in the same order, without copying them per child.
    let wildcards = [&any_key, &any_item];
    for (kind, wildcard) in wildcards.iter().enumerate().filter(|(_, w)| !w.is_empty() && !ranked.is_empty()) {
        let Some(merged) = groups.wild.get_mut(kind) else { continue };
        merge_roots([wildcard, &[]], &mut walk.root_at, merged);
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
    let wild_totals = wildcards.map(|w| w.iter().fold(0u64, |t, (_, w)| t.saturating_add(*w)));
    let mut add = |list: &[(NodeId, u64)], kind: usize, with_wildcards: bool| -> Result<(), u64> {
        let wildcard: &[(NodeId, u64)] = if with_wildcards { wildcards.get(kind).map_or(&[], |w| w) } else { &[] };
        walk.work = walk.work.saturating_add(list.len() as u64 + wildcard.len() as u64);
        if walk.work > walk.max_work {
            return Err(walk.work);
        }
        let wild_total = if with_wildcards { wild_totals.get(kind).copied().unwrap_or(0) } else { 0 };
        let total = list.iter().fold(0u64, |t, (_, w)| t.saturating_add(*w)).saturating_add(wild_total);
        if total < 2 {
            return Ok(());
        }
        let trailing = with_wildcards
            && !wildcard.is_empty()
            && groups.wild.get(kind).is_some_and(|w| !w.is_empty())
            && list.iter().all(|(n, _)| walk.wild.get(n.index()).copied().flatten() != Some(kind));
        let parts = if trailing { [list, &[]] } else { [list, wildcard] };
        merge_roots(parts, &mut walk.root_at, &mut groups.roots);
        groups.ends.push(groups.roots.len());
        groups.tails.push(trailing.then_some(kind));
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
    for (n, _) in groups.wild.iter().flatten() {
        if let Some(tag) = walk.wild.get_mut(n.index()) {
            *tag = None;
        }
    }
    walk.scratch = GroupScratch { named, ranked, any_key, any_item, runs, ends };
    Ok(groups)
}

/// [`coinciding_groups`]' working lists, kept by the [`Walk`] between
/// entries.
#[derive(Default)]
struct GroupScratch {
    /// Named landings: (child's rank, node, weight).
    named: Vec<(usize, NodeId, u64)>,
    /// The named children in first-seen order.
    ranked: Vec<Child>,
    /// Landings on any property, and on any item.
    any_key: Vec<Root>,
    any_item: Vec<Root>,
    /// The named landings, child by child, and where each child's run
    /// ends.
    runs: Vec<Root>,
    ends: Vec<usize>,
}

/// The program's in-place successors and descending edges, decoded once:
/// node `i`'s edges are `edges[edge_at[i]..edge_at[i + 1]]`.
struct Graph<'a> {
    in_place: &'a Adjacency,
    edge_at: Vec<usize>,
    edges: Vec<(Child, NodeId)>,
    /// How many [`ChildIds`] the edges use.
    children: usize,
}

impl<'a> Graph<'a> {
    fn new(program: &Program, in_place: &'a Adjacency) -> Graph<'a> {
        let n = program.nodes.len();
        let mut graph =
            Graph { in_place, edge_at: Vec::with_capacity(n + 1), edges: Vec::with_capacity(n), children: 0 };
        graph.edge_at.push(0);
        let names = program.objects.iter().map(|o| o.names.len()).sum();
        let mut ids =
            ChildIds { keys: TextMap::with_capacity_and_hasher(names, Default::default()), ..ChildIds::default() };
        for i in 0..n {
            let id = NodeId(i as u32);
            descending_edges(program, id, &mut ids, &mut graph.edges);
            graph.edge_at.push(graph.edges.len());
        }
        graph.children = ids.count as usize;
        graph
    }

    fn successors(&self, id: NodeId) -> &[NodeId] {
        self.in_place.of(id)
    }

    fn edges(&self, id: NodeId) -> &[(Child, NodeId)] {
        let i = id.index();
        match (self.edge_at.get(i), self.edge_at.get(i + 1)) {
            (Some(&start), Some(&end)) => self.edges.get(start..end).unwrap_or(&[]),
            _ => &[],
        }
    }
}

/// Per-node state of the walk at the current location.
#[derive(Debug, Clone, Copy, Default)]
struct Mark {
    /// Paths with memoization (what the VM does).
    paths: u64,
    /// Paths without (a naive evaluator, for reporting).
    raw: u64,
    /// Longest in-place chain.
    depth: u32,
    /// Visited.
    seen: bool,
}

/// The per-location walk, with the analysis's work accounting. Its
/// per-node tables are dense (indexed by node) and reused: each location
/// resets only the entries it touched.
struct Walk {
    work: u64,
    max_work: u64,
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
}

impl Walk {
    fn new(graph: &Graph<'_>, nodes: usize, cheap: Vec<bool>, max_work: u64) -> Walk {
        let mut lone: Vec<bool> = (0..nodes)
            .map(|i| {
                let id = NodeId(i as u32);
                graph.successors(id).is_empty() && graph.edges(id).is_empty()
            })
            .collect();
        for i in 0..nodes {
            for s in graph.successors(NodeId(i as u32)) {
                if let Some(l) = lone.get_mut(s.index()) {
                    *l = false;
                }
            }
        }
        Walk {
            work: 0,
            max_work,
            marks: vec![Mark::default(); nodes],
            // A location's closure holds at most every node: sized once.
            touched: Vec::with_capacity(nodes),
            root_at: vec![usize::MAX; nodes],
            child_rank: vec![usize::MAX; graph.children],
            lone,
            cheap,
            wild: vec![None; nodes],
            order: Vec::with_capacity(nodes),
            stack: Vec::with_capacity(nodes),
            landings: Vec::new(),
            scratch: GroupScratch::default(),
            spare_groups: Groups::default(),
        }
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
    /// and then `leaves`: memoizes nodes reached twice, and returns the
    /// location's cost, appending its applications to children to
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
        roots: &[(NodeId, u64)],
        leaves: &[(NodeId, u64)],
        memo: &mut [bool],
        mut landings: Option<&mut Landings>,
    ) -> Result<NodeCost, u64> {
        self.reset();
        self.topological_order(graph, roots)?;
        // The search checks the budget after each root, one unit per leaf.
        if leaves.len() as u64 > self.max_work.saturating_sub(self.work) {
            self.work = self.max_work.saturating_add(1);
            return Err(self.work);
        }
        self.work += leaves.len() as u64;
        for &(r, w) in roots {
            if let Some(m) = self.marks.get_mut(r.index()) {
                m.paths = m.paths.saturating_add(w);
                m.raw = m.raw.saturating_add(w);
            }
        }
        let mut cost = NodeCost::default();
        let order = std::mem::take(&mut self.order);
        for &x in &order {
            let Mark { paths: p, raw: naive, depth: d, .. } = self.marks.get(x.index()).copied().unwrap_or_default();
            let memoized = match memo.get_mut(x.index()) {
                Some(m) => {
                    *m |= p >= 2 && !self.runs_again(x, p);
                    *m
                }
                None => false,
            };
            let effective = if memoized { p.min(1) } else { p };
            cost.fan_out = cost.fan_out.saturating_add(effective);
            cost.unmemoized_fan_out = cost.unmemoized_fan_out.saturating_add(naive);
            cost.in_place_depth = cost.in_place_depth.max(d);
            let succ = graph.successors(x);
            for &y in succ {
                if let Some(m) = self.marks.get_mut(y.index()) {
                    m.paths = m.paths.saturating_add(effective);
                    m.raw = m.raw.saturating_add(naive);
                    m.depth = m.depth.max(d.saturating_add(1));
                }
            }
            let edges = graph.edges(x);
            if let Some(landings) = landings.as_deref_mut() {
                landings.extend(edges.iter().map(|&(c, t)| (c, t, effective)));
            }
            self.work += (succ.len() + edges.len()) as u64;
        }
        self.order = order;
        for &(leaf, w) in leaves {
            let memoized = match memo.get_mut(leaf.index()) {
                Some(m) => {
                    *m |= w >= 2 && !self.runs_again(leaf, w);
                    *m
                }
                None => false,
            };
            cost.fan_out = cost.fan_out.saturating_add(if memoized { w.min(1) } else { w });
            cost.unmemoized_fan_out = cost.unmemoized_fan_out.saturating_add(w);
        }
        if self.work > self.max_work {
            return Err(self.work);
        }
        Ok(cost)
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
    fn topological_order(&mut self, graph: &Graph<'_>, roots: &[(NodeId, u64)]) -> Result<(), u64> {
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

    use super::MAX_UNSHARED_PATHS;
    use crate::{CompileErrorKind, CompileOptions, Limits, compile};

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
        let program = compile(&schema, &CompileOptions::default()).unwrap();
        for id in program.node_ids().filter(|id| *id != program.root()) {
            let cost = program.cost(id);
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
            let program = compile(&schema, &CompileOptions::default()).unwrap();
            let memoized = program
                .node_ids()
                .filter(|id| program.node(*id).flags().contains(crate::bytecode::NodeFlags::MEMO))
                .map(|id| program.location(id).to_string())
                .collect::<Vec<_>>();
            (memoized, program.cost(program.root()).fan_out)
        };
        // The root, the `$ref`s, and `C` once per path.
        assert_eq!(memo_and_fan_out(2), (vec![], 1 + 2 + 2));
        assert_eq!(memo_and_fan_out(MAX_UNSHARED_PATHS as usize), (vec![], 1 + 2 * MAX_UNSHARED_PATHS));
        let refs = MAX_UNSHARED_PATHS as usize + 1;
        assert_eq!(memo_and_fan_out(refs), (vec!["json-schema:///#/$defs/C".to_string()], 1 + refs as u64 + 1));
    }
}
