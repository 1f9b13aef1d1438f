//! Whole-program checks after lowering.
//!
//! * Unguarded recursion: a cycle of in-place applications (`$ref`,
//!   `allOf`, `not`, `if`, dynamic references, dependent schemas, ...)
//!   that never moves to a child of the instance would evaluate forever;
//!   it is a compile error naming the cycle.
//! * Node flags: nodes with no instructions always pass; nodes starting
//!   with [`Instr::Fail`] always fail; nodes that never descend into the
//!   instance or recurse are [`NodeFlags::CHEAP`].

use crate::bytecode::*;
use crate::error::{CompileError, CompileErrorKind};
use crate::value::{JsonType, TypeSet};

/// Successor lists of every node, decoded once: node `i`'s are
/// `targets[at[i]..at[i + 1]]`.
pub(super) struct Adjacency {
    at: Vec<usize>,
    targets: Vec<NodeId>,
}

impl Adjacency {
    /// The lists `successors` (which clears its output first) gives.
    pub(super) fn new(program: &Program, successors: fn(&Program, NodeId, &mut Vec<NodeId>)) -> Adjacency {
        let n = program.nodes.len();
        let mut adjacency = Adjacency { at: Vec::with_capacity(n + 1), targets: Vec::with_capacity(n) };
        adjacency.at.push(0);
        let mut succ = Vec::new();
        for i in 0..n {
            successors(program, NodeId(i as u32), &mut succ);
            adjacency.targets.extend_from_slice(&succ);
            adjacency.at.push(adjacency.targets.len());
        }
        adjacency
    }

    /// The in-place successors of every node ([`in_place_successors`]).
    pub(super) fn in_place(program: &Program) -> Adjacency {
        Adjacency::new(program, in_place_successors)
    }

    /// The successors of `id`.
    pub(super) fn of(&self, id: NodeId) -> &[NodeId] {
        let i = id.index();
        match (self.at.get(i), self.at.get(i + 1)) {
            (Some(&start), Some(&end)) => self.targets.get(start..end).unwrap_or(&[]),
            _ => &[],
        }
    }
}

/// Runs the checks and sets node flags; `in_place` is
/// [`Adjacency::in_place`] of the program.
pub(super) fn check_and_flag(program: &mut Program, in_place: &Adjacency) -> Result<(), CompileError> {
    for node in &mut program.nodes {
        if node.code_start == node.code_end {
            node.flags.insert(NodeFlags::ALWAYS_VALID);
        } else if program.code.get(node.code_start as usize) == Some(&Instr::Fail) {
            node.flags.insert(NodeFlags::ALWAYS_INVALID);
        }
    }
    // Nodes apply other nodes through references, or apply their own
    // subschemas: without references, the program's graph is its schema
    // tree, with no cycle to look for.
    let acyclic = !program.code.iter().any(|i| matches!(i, Instr::Ref(_) | Instr::DynamicRef(_)));
    if !acyclic {
        find_unguarded_cycle(program, in_place)?;
    }
    mark_cheap(program);
    mark_bounded(program, acyclic);
    mark_admitted_types(program);
    mark_alternative_masks(program);
    Ok(())
}

/// Sets [`Operands::alternative_masks`] from the admitted types of each
/// `anyOf`/`oneOf` list's alternatives (after [`mark_admitted_types`]).
fn mark_alternative_masks(program: &mut Program) {
    let Program { code, nodes, operands, .. } = program;
    let Some(Operands { lists, .. }) = operands.as_deref_mut() else { return };
    for instr in code.iter() {
        let (Instr::AnyOf(l) | Instr::OneOf(l)) = *instr else { continue };
        let Some(list) = lists.get_mut(l.index()) else { continue };
        let types: Vec<TypeSet> =
            list.nodes.iter().map(|n| nodes.get(n.index()).map_or(TypeSet::ANY, |n| n.admits)).collect();
        if types.iter().all(|t| *t == TypeSet::ANY) {
            continue;
        }
        list.masks = AlternativeMasks::new(&types);
    }
}

/// The types of the values equal to `v` (both `number` and `integer`
/// for a number: `1` equals `1.0`).
fn kinds_of(v: &serde_json::Value) -> TypeSet {
    use serde_json::Value;
    match v {
        Value::Null => TypeSet::single(JsonType::Null),
        Value::Bool(_) => TypeSet::single(JsonType::Boolean),
        Value::Number(_) => TypeSet::single(JsonType::Number).with(JsonType::Integer),
        Value::String(_) => TypeSet::single(JsonType::String),
        Value::Array(_) => TypeSet::single(JsonType::Array),
        Value::Object(_) => TypeSet::single(JsonType::Object),
    }
}

/// The values a `type` (fused or not) admits, as a set: `number` admits
/// every integer, so it holds both bits (intersecting with `integer`
/// keeps integers); no `type` admits everything.
fn fused(types: Option<TypeSet>) -> TypeSet {
    match types {
        Some(t) if t.contains(JsonType::Number) => t.with(JsonType::Integer),
        Some(t) => t,
        None => TypeSet::ANY,
    }
}

/// Rounds of [`mark_admitted_types`]: each round is sound on its own (the
/// sets only shrink towards the true ones), more only sharpen them through
/// longer reference chains.
const ADMITS_ROUNDS: usize = 4;

/// Sets each node's [`Node::admitted_types`](crate::bytecode::Node::admitted_types):
/// the intersection of what its `type` and fused instructions require,
/// what its references and `allOf` members admit, and the union of what
/// its `anyOf`/`oneOf` alternatives admit. Starting from every type and
/// shrinking, every round over-approximates the types the node accepts.
/// Sets hold `integer` whenever they hold `number`, so that bitwise
/// intersection and union are those of the sets of values.
fn mark_admitted_types(program: &mut Program) {
    for _ in 0..ADMITS_ROUNDS {
        let mut changed = false;
        for i in 0..program.nodes.len() {
            let admits = |n: NodeId| program.nodes.get(n.index()).map_or(TypeSet::ANY, |n| n.admits);
            let mut set = TypeSet::ANY;
            for instr in program.code(NodeId(i as u32)) {
                let required = match *instr {
                    Instr::Fail => TypeSet::EMPTY,
                    Instr::Type(t) => fused(Some(t)),
                    Instr::Enum(e) => program.operands().enums.get(e.index()).map_or(TypeSet::ANY, |set| {
                        fused(set.type_fused)
                            .intersect(set.values.iter().fold(TypeSet::EMPTY, |all, v| all.union(kinds_of(v))))
                    }),
                    Instr::Const(c) => program.operands().values.get(c.index()).map_or(TypeSet::ANY, kinds_of),
                    Instr::Number(id) => fused(program.operands().numbers.get(id.index()).and_then(|c| c.type_fused)),
                    Instr::String(id) => fused(program.operands().strings.get(id.index()).and_then(|c| c.type_fused)),
                    Instr::Array(id) => fused(program.operands().arrays.get(id.index()).and_then(|c| c.type_fused)),
                    Instr::Object(id) => fused(program.operands().objects.get(id.index()).and_then(|c| c.type_fused)),
                    Instr::Ref(n) => admits(n),
                    Instr::AllOf(l) => {
                        program.operands().list(l).iter().fold(TypeSet::ANY, |acc, n| acc.intersect(admits(*n)))
                    }
                    Instr::AnyOf(l) | Instr::OneOf(l) => {
                        program.operands().list(l).iter().fold(TypeSet::EMPTY, |acc, n| acc.union(admits(*n)))
                    }
                    _ => TypeSet::ANY,
                };
                set = set.intersect(required);
            }
            if let Some(node) = program.nodes.get_mut(i) {
                if node.admits != set {
                    node.admits = set;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// Chooses each array instruction's [`ItemsPlan`] (after the flags).
pub(super) fn plan_items(program: &mut Program) {
    let plans: Vec<ItemsPlan> =
        program.operands().arrays.iter().map(|a| a.rest.map_or(ItemsPlan::General, |r| plan(program, r))).collect();
    for (a, p) in program.operands_mut().arrays.iter_mut().zip(plans) {
        a.set_rest_plan(p);
    }
}

fn plan(program: &Program, rest: NodeId) -> ItemsPlan {
    let node = program.node(rest);
    if node.entry.passes_untracked() {
        return ItemsPlan::AllPass;
    }
    if node.entry == Entry::Invalid {
        return ItemsPlan::NonePass;
    }
    if node.flags.contains(NodeFlags::TYPE_ONLY) {
        return ItemsPlan::Types(ItemTypes::of(node.types));
    }
    let [Instr::Array(inner)] = program.code(rest) else { return ItemsPlan::General };
    let a = program.operands().array(*inner);
    let simple = a.type_fused == Some(TypeSet::single(JsonType::Array))
        && a.prefix.is_empty()
        && a.contains.is_none()
        && !a.unique_items;
    match (simple, a.rest.map(|r| program.node(r))) {
        (true, Some(r)) if r.flags.contains(NodeFlags::TYPE_ONLY) => ItemsPlan::ArraysOfTypes {
            min: a.min_items.unwrap_or(0),
            max: a.max_items.unwrap_or(u64::MAX),
            types: ItemTypes::of(r.types),
        },
        _ => ItemsPlan::General,
    }
}

/// Whether entering `node` changes nothing but the cost of its verdict
/// while nothing is recorded, so that an evaluation may go straight to
/// the node it leads to ([`Entry::Forward`] for a `$ref`, a discriminated
/// list for a nested one): it is [`untracked`] and not memoized
/// (its memo bounds what runs below it, while recording at least).
pub(super) fn passable(node: &Node, dynamic_scope: bool) -> bool {
    untracked(node, dynamic_scope) && !node.flags.contains(NodeFlags::MEMO)
}

/// Whether `node` tracks nothing and the program keeps no dynamic scope
/// (`dynamic_scope`; entering a node may change it): entering it needs no
/// bookkeeping but depth and fuel.
fn untracked(node: &Node, dynamic_scope: bool) -> bool {
    let f = node.flags;
    !dynamic_scope && !f.contains(NodeFlags::TRACKS_PROPERTIES) && !f.contains(NodeFlags::TRACKS_ITEMS)
}

/// Decides each node's [`Entry`] from its flags (after every analysis),
/// and with them each property's [`QuickCheck`]. `quiet_memo`: per node,
/// whether the boolean path memoizes it (the cost analysis's choice, for
/// nodes that are [`NodeFlags::MEMO`]); a `MEMO` node it does not is
/// [`Entry::Counted`] (or `Full`), which an evaluation that records
/// errors still memoizes when it checks the node quietly.
pub(super) fn set_entries(program: &mut Program, quiet_memo: &[bool]) {
    let dynamic_scope = program.flags.uses_dynamic_scope;
    let quietly_valid = quietly_valid(program);
    for (i, (node, quietly_valid)) in program.nodes.iter_mut().zip(quietly_valid).enumerate() {
        let f = node.flags;
        // (Memoized unless the analysis said otherwise.)
        let memo = quiet_memo.get(i).copied().unwrap_or(true);
        node.entry = if f.contains(NodeFlags::ALWAYS_VALID) {
            Entry::Valid
        } else if f.contains(NodeFlags::ALWAYS_INVALID) {
            Entry::Invalid
        } else if quietly_valid {
            Entry::QuietValid
        } else if f.contains(NodeFlags::TYPE_ONLY) {
            Entry::Types
        } else if passable(node, dynamic_scope) && matches!(program.code.get(code_range(node)), Some([Instr::Ref(_)])) {
            Entry::Forward
        } else if f.contains(NodeFlags::CHEAP) || (f.contains(NodeFlags::BOUNDED) && passable(node, dynamic_scope)) {
            match program.code.get(code_range(node)) {
                Some([Instr::Number(_)]) => Entry::Number,
                Some([_]) => Entry::Single,
                _ => Entry::Direct,
            }
        } else if f.contains(NodeFlags::MEMO) && memo {
            Entry::Memo
        } else if untracked(node, dynamic_scope) {
            // Not memoized on the boolean path: the branch above.
            Entry::Counted
        } else {
            Entry::Full
        };
    }
    // How each node is checked when deferred: passing its empty value
    // without work if it is one array (object) instruction whose bounds
    // admit an empty array (object).
    let deferred: Vec<QuickCheck> = program
        .nodes
        .iter()
        .map(|n| match program.code.get(code_range(n)) {
            Some([Instr::Array(a)])
                if program.operands().arrays.get(a.index()).is_some_and(ArrayChecks::admits_empty) =>
            {
                QuickCheck::EmptyArrayPasses
            }
            Some([Instr::Object(o)])
                if program.operands().objects.get(o.index()).is_some_and(ObjectChecks::admits_empty) =>
            {
                QuickCheck::EmptyObjectPasses
            }
            _ => QuickCheck::Deferred,
        })
        .collect();
    let Program { nodes, code, operands, .. } = program;
    let Operands { objects, arrays, lists, .. } = &mut **operands.get_or_insert_with(Box::default);
    let target = |id: NodeId| nodes.get(id.index()).map_or(Target::Node(id), |n| Target::of(id, n));
    let code: &[Instr] = code;
    let switch_target = |id: NodeId, kind: JsonType| {
        nodes.get(id.index()).map_or(Target::Node(id), |n| passed_target(id, n, code, kind, dynamic_scope))
    };
    for array in arrays.iter_mut() {
        array.prefix_targets = array.prefix.iter().map(|&id| target(id)).collect();
    }
    let check = |schema: Option<NodeId>| match schema.and_then(|n| nodes.get(n.index()).map(|node| (n, node))) {
        Some((_, n)) if n.entry.passes_untracked() => QuickCheck::Valid,
        Some((_, n)) if n.entry == Entry::Invalid => QuickCheck::Invalid,
        Some((_, n)) if n.entry == Entry::Types && n.types == TypeSet::single(JsonType::Integer) => {
            QuickCheck::Integers
        }
        Some((_, n)) if n.entry == Entry::Types => QuickCheck::Types(n.types),
        Some((_, n)) if n.flags.contains(NodeFlags::CHEAP) => QuickCheck::Early,
        Some((id, _)) => deferred.get(id.index()).copied().unwrap_or_default(),
        None => QuickCheck::Deferred,
    };
    // A quiet scan evaluates the schemas of properties (`properties`,
    // `patternProperties`, `additionalProperties`), and a quiet `allOf`/
    // `anyOf`/`oneOf` its subschemas, past their forwarding `$ref`s.
    let forwarded = |id: NodeId| past_forwards(nodes, id);
    for list in lists.iter_mut() {
        list.quick = list.nodes.iter().map(|&id| forwarded(id)).collect();
        let quick = &list.quick;
        let target = |i: usize, kind| quick.get(i).map(|&id| switch_target(id, kind));
        list.type_switch = list.masks.as_ref().and_then(|m| m.switch(target)).map(Box::new);
    }
    let passes = |id: NodeId| nodes.get(id.index()).is_some_and(|n| n.entry.passes_untracked());
    for object in objects.iter_mut() {
        object.additional_quick = object.additional.map_or(NodeId::default(), forwarded);
        object.additional_check = check(object.additional.map(|_| object.additional_quick));
        for pattern in object.patterns.iter_mut() {
            pattern.quick = forwarded(pattern.node);
        }
        for entry in object.entries.iter_mut() {
            entry.quick = entry.schema.map_or(NodeId::default(), forwarded);
            entry.check = check(entry.schema.map(|_| entry.quick));
        }
        object.quiet_scan = object.property_names.is_some()
            || (object.additional.is_some() && object.additional_check != QuickCheck::Valid)
            || object.entries.iter().any(|e| e.schema.is_some() && e.check != QuickCheck::Valid)
            || object.patterns.iter().any(|p| !passes(p.quick));
        object.summarize_entries();
    }
}

/// The target of node `id` (`n`) in a [`TypeSwitch`], for values of
/// `kind`: [`Target::of`], except that a node that may be passed
/// ([`passable`]) and only applies an `anyOf`/`oneOf` or an object or
/// array instruction, after a type check admitting every value of `kind`
/// or not, is passed to that instruction (so a `oneOf` split by type whose
/// object alternative is `{type: object, oneOf: [...]}` goes straight to
/// the inner list). Numbers keep the node: whether a type check admits
/// one may hang on its value.
///
/// Passing a node skips its depth count, which bounds recursion only if
/// every cycle still counts somewhere: it does, as a switch only passes
/// in place (a cycle in place is a compile error) and every subschema of
/// a property or item is entered through its node.
fn passed_target(id: NodeId, n: &Node, code: &[Instr], kind: JsonType, dynamic_scope: bool) -> Target {
    let plain = Target::of(id, n);
    if !matches!(n.entry, Entry::Single | Entry::Direct | Entry::Counted) || !passable(n, dynamic_scope) {
        return plain;
    }
    let passed = match code.get(code_range(n)) {
        Some([only]) => only,
        Some([Instr::Type(types), then]) if !matches!(kind, JsonType::Integer | JsonType::Number) => {
            if !types.contains(kind) {
                return plain;
            }
            then
        }
        _ => return plain,
    };
    match *passed {
        Instr::OneOf(l) => Target::OneOf(l),
        Instr::AnyOf(l) => Target::AnyOf(l),
        Instr::Object(o) => Target::Object(o),
        Instr::Array(a) => Target::Array(a),
        _ => plain,
    }
}

/// Rounds of [`quietly_valid`]: each round is sound on its own, more
/// only reach further up reference chains.
const QUIETLY_VALID_ROUNDS: usize = 4;

/// Per node: whether every value passes it when nothing is recorded,
/// annotated or tracked, though it has instructions. Such nodes apply
/// only subschemas that pass in turn (`additionalProperties: true`,
/// `items: {}`, a `$ref` to an annotation-only schema, an `allOf` of
/// them): their instructions matter for annotations and for
/// `unevaluated*`, never for a verdict. A node starts out not quietly
/// valid and becomes so once all its instructions are shown to pass, so
/// a cycle never proves itself.
fn quietly_valid(program: &Program) -> Vec<bool> {
    let mut valid: Vec<bool> = program.nodes.iter().map(|n| n.flags.contains(NodeFlags::ALWAYS_VALID)).collect();
    for _ in 0..QUIETLY_VALID_ROUNDS {
        let mut changed = false;
        // Subschemas mostly come after their parents: a backward pass
        // settles most of them in the first round.
        for i in (0..program.nodes.len()).rev() {
            if valid.get(i) == Some(&true) {
                continue;
            }
            let passes = |n: &NodeId| valid.get(n.index()) == Some(&true);
            let all_pass = program.code(NodeId(i as u32)).iter().all(|instr| instr_passes(program, instr, &passes));
            if all_pass {
                if let Some(v) = valid.get_mut(i) {
                    *v = true;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    valid
}

/// Whether `instr` passes every value when nothing is recorded, annotated
/// or tracked, given which subschemas do (`passes`).
fn instr_passes(program: &Program, instr: &Instr, passes: &impl Fn(&NodeId) -> bool) -> bool {
    match *instr {
        Instr::Object(o) => {
            let o = program.operands().object(o);
            o.type_fused.is_none()
                && o.min_properties() == 0
                && o.max_properties() == u64::MAX
                && o.required.is_empty()
                && o.dependents().is_empty()
                && o.property_names.is_none()
                && o.entries.iter().filter_map(|e| e.schema.as_ref()).all(passes)
                && o.patterns.iter().all(|p| passes(&p.node))
                && o.additional.as_ref().is_none_or(passes)
        }
        Instr::Array(a) => {
            let a = program.operands().array(a);
            a.type_fused.is_none()
                && a.min_items.is_none()
                && a.max_items.is_none()
                && !a.unique_items
                && a.contains.is_none()
                && a.prefix.iter().all(passes)
                && a.rest.as_ref().is_none_or(passes)
        }
        Instr::AllOf(list) => program.operands().list(list).iter().all(passes),
        Instr::AnyOf(list) => program.operands().list(list).iter().any(passes),
        Instr::Ref(target) => passes(&target),
        Instr::Cond(c) => {
            let c = program.cond(c);
            c.then.as_ref().is_none_or(passes) && c.otherwise.as_ref().is_none_or(passes)
        }
        _ => false,
    }
}

/// The range of [`Program::code`] holding `node`'s instructions.
fn code_range(node: &Node) -> std::ops::Range<usize> {
    node.code_start as usize..node.code_end as usize
}

/// Every node `id` may apply, in place or to a child or detached value
/// (clears `out` first).
fn all_successors(program: &Program, id: NodeId, out: &mut Vec<NodeId>) {
    in_place_successors(program, id, out);
    for instr in program.code(id) {
        match *instr {
            Instr::Object(o) => {
                let o = program.operands().object(o);
                out.extend(o.entries.iter().filter_map(|e| e.schema));
                out.extend(o.patterns.iter().map(|p| p.node));
                out.extend(o.additional);
                out.extend(o.property_names);
            }
            Instr::Array(a) => {
                let a = program.operands().array(a);
                out.extend_from_slice(&a.prefix);
                out.extend(a.rest);
                out.extend(a.contains.map(|c| c.node));
            }
            Instr::UnevaluatedProperties(n) | Instr::UnevaluatedItems(n) => out.push(n),
            Instr::Content(c) => out.extend(program.content(c).schema),
            _ => {}
        }
    }
}

/// Flags nodes from which no cycle of the program is reachable
/// ([`NodeFlags::BOUNDED`]): their evaluation nests at most as deep as the
/// schema, whatever the instance. Every node is, in an `acyclic` program.
fn mark_bounded(program: &mut Program, acyclic: bool) {
    if acyclic {
        for node in &mut program.nodes {
            node.flags.insert(NodeFlags::BOUNDED);
        }
        return;
    }
    let successors = Adjacency::new(program, all_successors);
    let unbounded = Components::new(program.nodes.len(), &successors).reaching_cycles();
    for (node, u) in program.nodes.iter_mut().zip(unbounded) {
        if !u {
            node.flags.insert(NodeFlags::BOUNDED);
        }
    }
}

/// Strongly connected components of the whole program graph, by an
/// iterative Tarjan's algorithm (which closes components sinks first).
struct Components<'p> {
    successors: &'p Adjacency,
    nodes: usize,
    index: Vec<Option<u32>>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<NodeId>,
    next: u32,
    /// Per node: a cycle is reachable from it.
    unbounded: Vec<bool>,
}

impl<'p> Components<'p> {
    fn new(n: usize, successors: &'p Adjacency) -> Self {
        Components {
            successors,
            nodes: n,
            index: vec![None; n],
            low: vec![0; n],
            on_stack: vec![false; n],
            stack: Vec::new(),
            next: 0,
            unbounded: vec![false; n],
        }
    }

    fn open(&mut self, v: NodeId, frames: &mut Vec<(NodeId, usize)>) {
        let i = v.index();
        if let (Some(x), Some(l), Some(o)) = (self.index.get_mut(i), self.low.get_mut(i), self.on_stack.get_mut(i)) {
            *x = Some(self.next);
            *l = self.next;
            *o = true;
        }
        self.next += 1;
        self.stack.push(v);
        frames.push((v, 0));
    }

    fn lower(&mut self, v: NodeId, to: u32) {
        if let Some(l) = self.low.get_mut(v.index()) {
            *l = (*l).min(to);
        }
    }

    /// Per node, whether a cycle is reachable from it.
    fn reaching_cycles(mut self) -> Vec<bool> {
        let mut frames = Vec::new();
        for start in 0..self.nodes {
            if self.index.get(start).is_some_and(|x| x.is_some()) {
                continue;
            }
            frames.clear();
            self.open(NodeId(start as u32), &mut frames);
            while let Some((v, pos)) = frames.last_mut() {
                let v = *v;
                if let Some(&w) = self.successors.of(v).get(*pos) {
                    *pos += 1;
                    match self.index.get(w.index()).copied().flatten() {
                        None => self.open(w, &mut frames),
                        Some(wi) if self.on_stack.get(w.index()) == Some(&true) => self.lower(v, wi),
                        Some(_) => {}
                    }
                    continue;
                }
                frames.pop();
                let low_v = self.low.get(v.index()).copied().unwrap_or(0);
                if let Some((parent, _)) = frames.last() {
                    let parent = *parent;
                    self.lower(parent, low_v);
                }
                if Some(low_v) == self.index.get(v.index()).copied().flatten() {
                    self.close(v);
                }
            }
        }
        self.unbounded
    }

    /// Pops the component rooted at `root` and decides it: a cycle is
    /// reachable if the component is one, or a finished successor reaches
    /// one.
    fn close(&mut self, root: NodeId) {
        // The component is the top of the stack, from `root` up.
        let start = self.stack.iter().rposition(|w| *w == root).unwrap_or(0);
        let members = self.stack.get(start..).unwrap_or(&[]);
        let mut reaches = members.len() > 1;
        for &m in members {
            if let Some(o) = self.on_stack.get_mut(m.index()) {
                *o = false;
            }
            for &s in self.successors.of(m) {
                reaches |= s == m || self.unbounded.get(s.index()) == Some(&true);
            }
        }
        for &m in members {
            if let Some(u) = self.unbounded.get_mut(m.index()) {
                *u = reaches;
            }
        }
        self.stack.truncate(start);
    }
}

/// Rounds of the cheapness fixpoint; nodes not proven cheap by then are
/// treated as expensive (the safe default).
const CHEAP_ROUNDS: usize = 8;

/// Most node evaluations a cheap node may cause (itself included): the VM
/// evaluates cheap nodes without depth, scope or memo bookkeeping, so
/// their total work must stay small however they are combined.
const CHEAP_MAX_EVALUATIONS: u32 = 32;

/// Flags nodes whose instructions are all scalar checks, or in-place
/// applications of nodes already known to be cheap, within
/// [`CHEAP_MAX_EVALUATIONS`]; and nodes that are a bare `type` check
/// ([`NodeFlags::TYPE_ONLY`]).
fn mark_cheap(program: &mut Program) {
    let mut evaluations = vec![0u32; program.nodes.len()];
    for _ in 0..CHEAP_ROUNDS {
        let mut changed = false;
        for i in 0..program.nodes.len() {
            let id = NodeId(i as u32);
            if evaluations.get(i).is_some_and(|e| *e > 0) {
                continue;
            }
            let cost = |n: NodeId| evaluations.get(n.index()).copied().filter(|c| *c > 0);
            let mut total: Option<u32> = Some(1);
            for instr in program.code(id) {
                let add = match *instr {
                    Instr::Fail | Instr::Type(_) | Instr::Const(_) | Instr::Enum(_) | Instr::Number(_) => Some(0),
                    Instr::String(_) => Some(0),
                    Instr::Ref(n) | Instr::Not(n) => cost(n),
                    Instr::AllOf(l) | Instr::AnyOf(l) | Instr::OneOf(l) => {
                        program.operands().list(l).iter().try_fold(0u32, |acc, n| Some(acc.saturating_add(cost(*n)?)))
                    }
                    Instr::Cond(c) => {
                        let c = program.cond(c);
                        let opt = |n: Option<NodeId>| n.map_or(Some(0), cost);
                        [cost(c.test), opt(c.then), opt(c.otherwise)]
                            .into_iter()
                            .try_fold(0u32, |acc, x| Some(acc.saturating_add(x?)))
                    }
                    _ => None,
                };
                total = total.zip(add).map(|(t, a)| t.saturating_add(a));
            }
            if let Some(t) = total.filter(|t| *t <= CHEAP_MAX_EVALUATIONS) {
                if let Some(e) = evaluations.get_mut(i) {
                    *e = t;
                }
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for (i, node) in program.nodes.iter_mut().enumerate() {
        if evaluations.get(i).is_some_and(|e| *e > 0) {
            node.flags.insert(NodeFlags::CHEAP);
        }
        let code = program.code.get(node.code_start as usize..node.code_end as usize).unwrap_or(&[]);
        if let [Instr::Type(types)] = code {
            node.flags.insert(NodeFlags::TYPE_ONLY);
            node.types = *types;
        }
    }
    // `not` of a bare type check is one too (`{"not": {"type": "null"}}`
    // admits every other type), when the complement is a set of types. Only
    // the quiet paths read it: recorded, the node still reports `not`.
    for _ in 0..CHEAP_ROUNDS {
        let mut changed = false;
        for i in 0..program.nodes.len() {
            let code = program.nodes.get(i).and_then(|n| program.code.get(code_range(n))).unwrap_or(&[]);
            let [Instr::Not(inner)] = code else { continue };
            let Some(inner) = program.nodes.get(inner.index()) else { continue };
            let complement = inner.flags.contains(NodeFlags::TYPE_ONLY).then(|| inner.types.complement()).flatten();
            if let (Some(types), Some(node)) = (complement, program.nodes.get_mut(i)) {
                if !node.flags.contains(NodeFlags::TYPE_ONLY) {
                    node.flags.insert(NodeFlags::TYPE_ONLY);
                    node.types = types;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// The nodes `id` applies to the same instance location.
fn in_place_successors(program: &Program, id: NodeId, out: &mut Vec<NodeId>) {
    out.clear();
    for instr in program.code(id) {
        match *instr {
            Instr::AllOf(l) | Instr::AnyOf(l) | Instr::OneOf(l) => out.extend_from_slice(program.operands().list(l)),
            Instr::Not(n) | Instr::Ref(n) => out.push(n),
            Instr::Cond(c) => {
                let c = program.cond(c);
                out.push(c.test);
                out.extend(c.then);
                out.extend(c.otherwise);
            }
            Instr::DynamicRef(d) => {
                let d = program.dynamic_ref(d);
                out.push(d.fallback);
                for r in program.rare_table(|r| &r.resources) {
                    match &d.anchor {
                        Some(name) => {
                            out.extend(r.dynamic_anchors.iter().filter(|(n, _)| n == name).map(|(_, node)| *node))
                        }
                        None => out.extend(r.recursive_anchor),
                    }
                }
            }
            Instr::Object(o) => {
                for e in program.operands().object(o).entries.iter() {
                    out.extend_from_slice(e.dependent_schemas());
                }
            }
            _ => {}
        }
    }
}

fn find_unguarded_cycle(program: &Program, in_place: &Adjacency) -> Result<(), CompileError> {
    #[derive(Clone, Copy, PartialEq)]
    enum Color {
        White,
        Grey,
        Black,
    }
    let n = program.nodes.len();
    let mut color = vec![Color::White; n];
    // Explicit DFS stack: (node, next successor index).
    let mut stack: Vec<(NodeId, usize)> = Vec::new();
    for start in 0..n {
        if color.get(start) != Some(&Color::White) {
            continue;
        }
        let start = NodeId(start as u32);
        stack.push((start, 0));
        if let Some(c) = color.get_mut(start.index()) {
            *c = Color::Grey;
        }
        while let Some(top) = stack.last_mut() {
            let (node, next) = match in_place.of(top.0).get(top.1) {
                Some(next) => {
                    top.1 += 1;
                    (top.0, *next)
                }
                None => {
                    let done = top.0;
                    stack.pop();
                    if let Some(c) = color.get_mut(done.index()) {
                        *c = Color::Black;
                    }
                    continue;
                }
            };
            let _ = node;
            match color.get(next.index()) {
                Some(Color::White) => {
                    stack.push((next, 0));
                    if let Some(c) = color.get_mut(next.index()) {
                        *c = Color::Grey;
                    }
                }
                Some(Color::Grey) => {
                    let begin = stack.iter().position(|(id, _)| *id == next).unwrap_or(0);
                    let mut cycle: Vec<String> =
                        stack[begin..].iter().map(|(id, _)| program.location(*id).to_string()).collect();
                    cycle.push(program.location(next).to_string());
                    let at = cycle.first().cloned().unwrap_or_default();
                    return Err(CompileError::new(CompileErrorKind::UnguardedRecursion { cycle }, at));
                }
                _ => {}
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::bytecode::{Entry, Instr, ItemTypes, ItemsPlan, NodeId, ObjectChecks, Program, QuickCheck, Target};
    use crate::value::{JsonType, TypeSet};
    use crate::{CompileOptions, compile};

    #[test]
    fn type_switches_pass_alternatives_that_only_apply_a_list() {
        let schema = json!({"oneOf": [
            {"type": "string"},
            {"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["b"]}]},
            {"type": "integer", "anyOf": [{"minimum": 1}, {"maximum": -1}]},
            {"type": "array", "minItems": 1, "anyOf": [{"maxItems": 2}, {"minItems": 5}]}
        ]});
        let program = compile(&schema, &CompileOptions::default()).expect("compiles");
        let Some(&Instr::OneOf(list)) = program.code(program.root()).first() else { panic!("a oneOf root") };
        let switch = program.operands().type_switch(list).expect("split by type");
        // The object alternative is its type check and a `oneOf`: passed.
        assert!(matches!(switch.target(&json!({}), false), Target::OneOf(_)));
        assert_eq!(switch.target(&json!("s"), false), Target::Types(TypeSet::single(JsonType::String)));
        // Numbers keep the node (whether `integer` admits one hangs on its
        // value), as does a node with more to check than its type (the
        // array's `minItems`).
        assert!(matches!(switch.target(&json!(3), false), Target::Node(_)));
        assert!(matches!(switch.target(&json!([1]), false), Target::Node(_)));
    }

    /// The root's object instruction.
    fn root_object(program: &Program) -> &ObjectChecks {
        let object = program.code(program.root()).iter().find_map(|i| match i {
            Instr::Object(o) => Some(*o),
            _ => None,
        });
        program.operands().object(object.expect("an object instruction"))
    }

    /// Each property's quick check, by name.
    fn checks(object: &ObjectChecks) -> Vec<(String, QuickCheck)> {
        object.names.keys().zip(object.entries.iter()).map(|(k, e)| (k.to_string(), e.check)).collect()
    }

    #[test]
    fn deferred_containers_that_admit_empty_values_pass_them_at_once() {
        let schema = json!({"properties": {
            "list": {"type": "array", "items": {"properties": {"x": {"type": "integer"}}}},
            "nonempty": {"type": "array", "minItems": 1, "items": {"properties": {"x": {"type": "integer"}}}},
            "record": {"type": "object", "properties": {"y": {"type": "array", "items": {"type": "string"}}}},
            "needs": {"required": ["k"], "properties": {"k": {"type": "array", "items": {"type": "string"}}}},
            "both": {"type": "array", "items": {"type": "object"}, "not": {"const": []}},
            "flag": {"type": "boolean"},
            "count": {"type": "integer"},
            "size": {"type": ["integer", "null"]}
        }});
        let program = compile(&schema, &CompileOptions::default()).expect("compiles");
        let mut found = checks(root_object(&program));
        found.sort_by(|a, b| a.0.cmp(&b.0));
        let find = |name: &str| found.iter().find(|(k, _)| k == name).map(|(_, c)| *c);
        assert_eq!(find("list"), Some(QuickCheck::EmptyArrayPasses));
        assert_eq!(find("record"), Some(QuickCheck::EmptyObjectPasses));
        assert_eq!(find("nonempty"), Some(QuickCheck::Deferred));
        assert_eq!(find("needs"), Some(QuickCheck::Deferred));
        // Two instructions: `not` must run on an empty array too.
        assert_eq!(find("both"), Some(QuickCheck::Deferred));
        assert!(matches!(find("flag"), Some(QuickCheck::Types(_))));
        assert_eq!(find("count"), Some(QuickCheck::Integers));
        let integer_or_null = TypeSet::single(JsonType::Integer).with(JsonType::Null);
        assert_eq!(find("size"), Some(QuickCheck::Types(integer_or_null)));
    }

    #[test]
    fn quiet_targets_skip_forwarding_refs_and_keep_the_rest() {
        let schema = json!({
            "definitions": {
                "thing": {"type": "object", "required": ["id"]},
                "alias": {"$ref": "#/definitions/thing"},
                "both": {"$ref": "#/definitions/thing", "minProperties": 1}
            },
            "anyOf": [{"$ref": "#/definitions/alias"}, {"$ref": "#/definitions/both"}, {"type": "string"}],
            "patternProperties": {"^x-": {"$ref": "#/definitions/alias"}},
            "additionalProperties": {"$ref": "#/definitions/thing"}
        });
        let program = compile(&schema, &CompileOptions::default()).expect("compiles");
        let list = program.code(program.root()).iter().find_map(|i| match i {
            Instr::AnyOf(l) => Some(*l),
            _ => None,
        });
        let list = list.expect("an anyOf");
        let (given, quick) = (program.operands().list(list), program.operands().quick_list(list));
        let target = |id: NodeId| program.location(id).rsplit('#').next().unwrap_or_default().to_string();
        // The hops through the alternative and `alias` end at `thing`;
        // `both`, a `$ref` with a sibling keyword, does work of its own; a
        // plain schema stays.
        assert_eq!(target(quick[0]), "/definitions/thing");
        assert_eq!(target(quick[1]), "/definitions/both");
        assert_eq!(quick[2], given[2]);
        assert_ne!(quick[0], given[0], "the list itself keeps the $ref for error locations");
        let object = root_object(&program);
        assert_eq!(target(object.patterns[0].quick), "/definitions/thing");
        assert_eq!(target(object.additional_quick), "/definitions/thing");
        assert_eq!(target(object.patterns[0].node), "/patternProperties/^x-");
        assert_eq!(object.additional.map(target).as_deref(), Some("/additionalProperties"));
    }

    #[test]
    fn passing_sizes_combine_counts_required_names_and_closure() {
        let sizes =
            |schema| root_object(&compile(&schema, &CompileOptions::default()).expect("compiles")).passing_sizes;
        let open = json!({"properties": {"a": true, "b": true}, "required": ["a"], "maxProperties": 5});
        assert_eq!(sizes(open), (1, 5));
        let closed = json!({"properties": {"a": true, "b": true}, "minProperties": 2, "additionalProperties": false});
        assert_eq!(sizes(closed), (2, 2));
        let patterns =
            json!({"properties": {"a": true}, "patternProperties": {"^x": true}, "additionalProperties": false});
        assert_eq!(sizes(patterns), (0, u64::MAX));
        let required_only =
            json!({"properties": {"a": true}, "required": ["a", "b", "c"], "additionalProperties": false});
        assert_eq!(sizes(required_only), (3, 1));
    }

    /// The entry of the node at `pointer` (a JSON Pointer into `schema`).
    fn entry_at(schema: &serde_json::Value, pointer: &str) -> Entry {
        let program = compile(schema, &CompileOptions::default()).expect("compiles");
        let found = (0..program.nodes.len() as u32)
            .map(NodeId)
            .find(|&id| program.location(id).to_string().ends_with(&format!("#{pointer}")));
        program.node(found.unwrap_or_else(|| panic!("no node at {pointer}"))).entry()
    }

    #[test]
    fn nodes_whose_subschemas_all_pass_are_quietly_valid() {
        let names =
            ["open", "alias", "either", "branches", "nested", "required", "typed", "bounded", "one", "names", "loop"];
        let uses: serde_json::Map<String, serde_json::Value> =
            names.iter().map(|n| (n.to_string(), json!({"$ref": format!("#/$defs/{n}")}))).collect();
        let schema = json!({
            "properties": uses,
            "$defs": {
                "open": {"additionalProperties": true, "items": {}, "description": "anything"},
                "alias": {"$ref": "#/$defs/open"},
                "either": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/open"}]},
                "branches": {"if": {"type": "string"}, "then": {"$ref": "#/$defs/alias"}, "else": true},
                "nested": {"properties": {"a": {"$ref": "#/$defs/alias"}}, "patternProperties": {"^x-": {}}},
                "required": {"properties": {"a": true}, "required": ["a"]},
                "typed": {"type": "object", "additionalProperties": true},
                "bounded": {"items": {}, "maxItems": 2},
                "one": {"oneOf": [{"$ref": "#/$defs/open"}, {"$ref": "#/$defs/open"}]},
                "names": {"propertyNames": {"maxLength": 2}, "additionalProperties": true},
                "loop": {"properties": {"next": {"$ref": "#/$defs/loop"}}, "additionalProperties": true}
            }
        });
        for quiet in ["open", "alias", "either", "branches", "nested"] {
            assert_eq!(entry_at(&schema, &format!("/$defs/{quiet}")), Entry::QuietValid, "{quiet}");
        }
        for checked in ["required", "typed", "bounded", "one", "names"] {
            assert_ne!(entry_at(&schema, &format!("/$defs/{checked}")), Entry::QuietValid, "{checked}");
        }
        // A recursion is never assumed to pass: proving it would need
        // the node itself.
        assert_ne!(entry_at(&schema, "/$defs/loop"), Entry::QuietValid);
    }

    #[test]
    fn items_that_all_pass_are_not_visited() {
        let plan = |schema| {
            let program = compile(&schema, &CompileOptions::default()).expect("compiles");
            let array = program.code(program.root()).iter().find_map(|i| match i {
                Instr::Array(a) => Some(*a),
                _ => None,
            });
            program.operands().array(array.expect("an array instruction")).rest_plan
        };
        let open = json!({"$defs": {"open": {"additionalProperties": true}}, "items": {"$ref": "#/$defs/open"}});
        assert_eq!(plan(open), ItemsPlan::AllPass);
        assert_eq!(plan(json!({"items": {"description": "x"}, "minItems": 1})), ItemsPlan::AllPass);
        assert_eq!(plan(json!({"items": {"required": ["a"]}})), ItemsPlan::General);
        assert_eq!(plan(json!({"prefixItems": [{}], "items": false})), ItemsPlan::NonePass);
        // Type sets are sorted by the loop that tests them.
        let types = |t| plan(json!({"items": {"type": t}}));
        assert_eq!(types(json!("number")), ItemsPlan::Types(ItemTypes::Numbers));
        assert_eq!(types(json!(["integer", "number"])), ItemsPlan::Types(ItemTypes::Numbers));
        assert_eq!(types(json!("integer")), ItemsPlan::Types(ItemTypes::Integers));
        assert_eq!(types(json!("string")), ItemsPlan::Types(ItemTypes::Strings));
        let mixed = TypeSet::single(JsonType::Integer).with(JsonType::Null);
        assert_eq!(types(json!(["integer", "null"])), ItemsPlan::Types(ItemTypes::Mixed(mixed)));
        assert_eq!(
            plan(json!({"items": {"type": "array", "minItems": 2, "items": {"type": "integer"}}})),
            ItemsPlan::ArraysOfTypes { min: 2, max: u64::MAX, types: ItemTypes::Integers }
        );
    }

    #[test]
    fn objects_whose_properties_all_pass_skip_the_quiet_scan() {
        let scan = |schema| root_object(&compile(&schema, &CompileOptions::default()).expect("compiles")).quiet_scan;
        assert!(!scan(json!({"properties": {"a": {"description": "x"}}, "additionalProperties": true})));
        assert!(!scan(json!({"patternProperties": {"^x-": {"additionalProperties": true}}, "required": ["a"]})));
        assert!(scan(json!({"properties": {"a": {"type": "string"}}})));
        assert!(scan(json!({"additionalProperties": {"type": "string"}})));
        assert!(scan(json!({"patternProperties": {"^x-": false}})));
        assert!(scan(json!({"propertyNames": {"maxLength": 3}})));
    }
}
