//! Lowering: schema documents → [`Program`].
//!
//! The driver keeps a worklist of subschemas to compile. Each subschema
//! (identified by its address in the borrowed documents, which is stable
//! for the whole compilation) becomes exactly one [`Node`]; references
//! resolve to the target's node id, allocated before the target is
//! compiled, so recursive schemas compile once and no step recurses on
//! the Rust stack. After the worklist drains, `$dynamicAnchor`s that a
//! dynamic reference may select are compiled too, then
//! [`analysis`] checks the program (unguarded recursion) and sets node
//! flags. A node whose `unevaluatedProperties` [`closure`] resolves for
//! the boolean path also keeps the code that tracks it, for errors and
//! output units, placed after every node's code.

mod analysis;
mod annotations;
mod closure;
mod cost;
mod discriminator;
mod name_filter;
mod names;
mod presence;
mod schema;
mod switch;

use std::sync::Arc;

use serde_json::Value;

use crate::bytecode::*;
use crate::draft::{Draft, Vocabularies};
use crate::error::{CompileError, CompileErrorKind, DEFAULT_BASE_URI};
use crate::hash::{IdMap, TextMap, TextSet};
use crate::keyword::Kw;
use crate::options::CompileOptions;
use crate::regex::{Regex, RegexCompiler};
use crate::registry::{Dialect, Registry, ResIdx, SchemaInfo, Target};
use crate::uri::AbsoluteUri;

/// Compiles `schema` into a program.
pub fn compile(schema: &Value, options: &CompileOptions) -> Result<Program, CompileError> {
    compile_checked(check_depth(schema, DEFAULT_BASE_URI, &options.limits)?, options)
}

/// [`compile`] for a schema [`check_depth`] accepted: the depth check is
/// not repeated, unless `options` allow less depth than it checked.
pub fn compile_checked(schema: CheckedSchema<'_>, options: &CompileOptions) -> Result<Program, CompileError> {
    if schema.max_depth > options.limits.max_schema_depth {
        return compile(schema.document, options);
    }
    // Parsed once per process.
    static BASE: std::sync::OnceLock<Result<AbsoluteUri, CompileError>> = std::sync::OnceLock::new();
    let base = BASE
        .get_or_init(|| {
            AbsoluteUri::parse(DEFAULT_BASE_URI).map_err(|e| {
                CompileError::new(CompileErrorKind::InvalidUri { value: DEFAULT_BASE_URI.into(), reason: e.reason }, "")
            })
        })
        .clone()?;
    // Retrieved documents live here, beside the borrowed ones, until the program is built.
    let retrieved = crate::retrieve::Arena::default();
    let retrieval = crate::retrieve::Session::new(&options.retrieval, &retrieved);
    let (registry, root_res) = Registry::new(
        schema.document,
        base,
        &options.resources,
        options.default_draft,
        &options.limits,
        retrieval,
        schema.containers,
    )?;
    let mut lowerer = Lowerer::new(registry, root_res, options);
    let root = lowerer.registry.resource_root(root_res).ok_or_else(|| internal("root"))?;
    let root = lowerer.node(root)?;
    lowerer.drain()?;
    lowerer.finish(root)
}

/// A schema document [`check_depth`] accepted, for [`compile_checked`].
#[derive(Debug, Clone, Copy)]
pub struct CheckedSchema<'a> {
    document: &'a Value,
    /// The depth limit it was checked against.
    max_depth: usize,
    /// Its arrays and objects: a bound on its subschemas, for sizing
    /// tables.
    containers: usize,
}

/// Rejects a document nested deeper than [`crate::Limits::max_schema_depth`]
/// (measured without recursion), before anything walks it recursively.
pub fn check_depth<'a>(
    document: &'a Value,
    uri: &str,
    limits: &crate::Limits,
) -> Result<CheckedSchema<'a>, CompileError> {
    let max = limits.max_schema_depth;
    let (depth, containers) = crate::value::shape_at_most(document, max);
    if depth > max {
        return Err(CompileError::new(
            CompileErrorKind::LimitExceeded { limit: "max_schema_depth", bound: depth as u64, max: max as u64 },
            format!("{uri}#"),
        ));
    }
    Ok(CheckedSchema { document, max_depth: max, containers })
}

/// The list of an `anyOf`/`oneOf` instruction: what the analyses of
/// alternatives look at.
fn alternatives_of(instr: &Instr) -> Option<ListId> {
    match *instr {
        Instr::AnyOf(l) | Instr::OneOf(l) => Some(l),
        _ => None,
    }
}

/// Runs `analyze` on each list that `uses` finds an instruction using
/// (`anyOf`/`oneOf`, or `allOf`), and keeps each result in its list with
/// `keep`: how the boolean path's per-list shortcuts are found once the
/// quick lists are set.
fn analyze_lists<T>(
    program: &mut Program,
    uses: impl Fn(&Instr) -> Option<ListId>,
    analyze: impl Fn(&Program, &ListEntry) -> Option<T>,
    keep: impl Fn(&mut ListEntry, T),
) {
    // (Most small schemas have no list: no walk of their code.)
    if program.operands().lists.is_empty() {
        return;
    }
    let mut found = Vec::new();
    for list in program.code.iter().filter_map(uses) {
        if let Some(result) = program.operands().lists.get(list.index()).and_then(|entry| analyze(program, entry)) {
            found.push((list.index(), result));
        }
    }
    let lists = &mut program.operands_mut().lists;
    for (index, result) in found {
        if let Some(entry) = lists.get_mut(index) {
            keep(entry, result);
        }
    }
}

fn internal(what: &str) -> CompileError {
    CompileError::new(
        CompileErrorKind::InvalidKeyword {
            keyword: format!("(internal: {what})"),
            expected: "a consistent compiler state",
        },
        "",
    )
}

/// The state of one compilation.
pub(crate) struct Lowerer<'a, 'o> {
    registry: Registry<'a>,
    /// The root schema's resource: always the outermost of the dynamic
    /// scope.
    root_resource: ResIdx,
    options: &'o CompileOptions,
    nodes: Vec<Node>,
    /// Each node's location (see [`Program::locations`]).
    locations: LocationWriter,
    code: Vec<Instr>,
    values: Vec<Value>,
    enums: Vec<EnumSet>,
    numbers: Vec<NumberChecks>,
    strings: Vec<StringChecks>,
    arrays: Vec<ArrayChecks>,
    objects: Vec<ObjectChecks>,
    lists: Vec<Box<[NodeId]>>,
    conds: Vec<Cond>,
    dynamic_refs: Vec<DynamicRef>,
    contents: Vec<ContentChecks>,
    /// Each distinct pattern's regex, compiled once and shared by its uses.
    regexes: TextMap<String, Arc<Regex>>,
    /// Scratch space shared by the compilation's patterns.
    regex_compiler: RegexCompiler,
    annotations: Vec<(NodeId, Box<[Annotation]>)>,
    regex_memory: usize,
    const_size: usize,
    /// Registry resource → program resource.
    resource_ids: IdMap<ResIdx, ResourceId>,
    resource_order: Vec<ResIdx>,
    node_ids: IdMap<*const Value, NodeId>,
    /// The schema each `$ref` string resolved to, by its resource: for
    /// [`closure`]'s walks (which meet the same references again and
    /// again) and lowering alike.
    ref_targets: TextMap<(ResIdx, &'a str), (&'a Value, SchemaInfo)>,
    work: Vec<(NodeId, &'a Value, SchemaInfo)>,
    /// Anchor names some `$dynamicRef` resolves dynamically.
    dynamic_names: TextSet<String>,
    uses_recursive_ref: bool,
    strict_integers: bool,
    /// The tracked code of nodes whose `unevaluatedProperties` the
    /// boolean path resolves statically (see [`closure`]), placed after
    /// every node's code when the program is built.
    tracked: Vec<(NodeId, Vec<Instr>)>,
    /// What is left of [`closure::CLOSURE_WORK_MAX`].
    closure_work: usize,
}

impl<'a, 'o> Lowerer<'a, 'o> {
    fn new(registry: Registry<'a>, root_resource: ResIdx, options: &'o CompileOptions) -> Self {
        let strict_integers = registry.root_dialect().draft == Draft::Draft4;
        let subschemas = registry.subschemas().min(options.limits.max_nodes);
        let location_bytes = registry.location_bytes(subschemas).min(options.limits.max_location_bytes);
        Lowerer {
            registry,
            root_resource,
            options,
            // A node per subschema, usually, and an instruction or two
            // each: sized once rather than grown.
            nodes: Vec::with_capacity(subschemas),
            locations: LocationWriter::with_capacity(subschemas, location_bytes),
            code: Vec::with_capacity(subschemas),
            values: Vec::new(),
            enums: Vec::new(),
            numbers: Vec::new(),
            strings: Vec::new(),
            arrays: Vec::new(),
            objects: Vec::new(),
            lists: Vec::new(),
            conds: Vec::new(),
            dynamic_refs: Vec::new(),
            contents: Vec::new(),
            regexes: TextMap::default(),
            regex_compiler: RegexCompiler::new(),
            annotations: Vec::new(),
            regex_memory: 0,
            const_size: 0,
            resource_ids: IdMap::default(),
            resource_order: Vec::new(),
            node_ids: IdMap::with_capacity_and_hasher(subschemas, Default::default()),
            ref_targets: TextMap::default(),
            work: Vec::with_capacity(subschemas),
            dynamic_names: TextSet::default(),
            uses_recursive_ref: false,
            strict_integers,
            tracked: Vec::new(),
            closure_work: closure::CLOSURE_WORK_MAX,
        }
    }

    /// The node for a subschema, allocating (and queueing) it on first use.
    fn node(&mut self, target: Target<'a>) -> Result<NodeId, CompileError> {
        let key = target.value as *const Value;
        if let Some(id) = self.node_ids.get(&key) {
            return Ok(*id);
        }
        let max = self.options.limits.max_nodes;
        if self.nodes.len() >= max {
            return Err(CompileError::new(
                CompileErrorKind::LimitExceeded {
                    limit: "max_nodes",
                    bound: self.nodes.len() as u64 + 1,
                    max: max as u64,
                },
                self.registry.location(&target.info),
            ));
        }
        let id = NodeId(u32::try_from(self.nodes.len()).map_err(|_| internal("node count"))?);
        let resource = self.resource_id(target.info.resource)?;
        self.nodes.push(Node {
            code_start: 0,
            code_end: 0,
            first: None,
            flags: NodeFlags::default(),
            types: crate::value::TypeSet::EMPTY,
            admits: crate::value::TypeSet::ANY,
            entry: Entry::Full,
            resource,
        });
        let max = self.options.limits.max_location_bytes;
        if let Err(bytes) = self.locations.push_with(max, |text| self.registry.write_location(&target.info, text)) {
            return Err(CompileError::new(
                CompileErrorKind::LimitExceeded {
                    limit: "max_location_bytes",
                    bound: bytes as u64,
                    max: max.min(u32::MAX as usize) as u64,
                },
                self.registry.location(&target.info),
            ));
        }
        self.node_ids.insert(key, id);
        self.work.push((id, target.value, target.info));
        Ok(id)
    }

    /// The node of a direct subschema found under `path` of `parent`.
    fn child(&mut self, parent: &SchemaInfo, path: &[&str], value: &'a Value) -> Result<NodeId, CompileError> {
        if let Some(id) = self.node_ids.get(&(value as *const Value)) {
            return Ok(*id);
        }
        let info = match self.registry.info(value) {
            Some(info) => *info,
            None => self.registry.descend(parent, path),
        };
        self.node(Target { value, info, dynamic_anchor: None })
    }

    fn resource_id(&mut self, res: ResIdx) -> Result<ResourceId, CompileError> {
        if let Some(id) = self.resource_ids.get(&res) {
            return Ok(*id);
        }
        let id = ResourceId(u32::try_from(self.resource_order.len()).map_err(|_| internal("resources"))?);
        self.resource_ids.insert(res, id);
        self.resource_order.push(res);
        Ok(id)
    }

    /// Compiles queued subschemas until none is left, then the dynamic
    /// anchors the program's dynamic references may select (which may
    /// queue more).
    fn drain(&mut self) -> Result<(), CompileError> {
        loop {
            while let Some((id, value, info)) = self.work.pop() {
                let start = self.code.len();
                let flags = self.lower(id, value, &info)?;
                let end = self.code.len();
                let node = self.nodes.get_mut(id.index()).ok_or_else(|| internal("node"))?;
                node.flags = flags;
                node.code_start = u32::try_from(start).map_err(|_| internal("code size"))?;
                node.code_end = u32::try_from(end).map_err(|_| internal("code size"))?;
                node.first = self.code.get(start).copied().filter(|_| end > start);
            }
            let before = self.nodes.len();
            self.add_dynamic_targets()?;
            if self.nodes.len() == before && self.work.is_empty() {
                return Ok(());
            }
        }
    }

    /// Queues every schema a dynamic reference could land on: the
    /// `$dynamicAnchor`s (of names in use) and `$recursiveAnchor` roots of
    /// every resource the program enters.
    fn add_dynamic_targets(&mut self) -> Result<(), CompileError> {
        if self.dynamic_names.is_empty() && !self.uses_recursive_ref {
            return Ok(());
        }
        let mut i = 0;
        while let Some(&res) = self.resource_order.get(i) {
            i += 1;
            for (name, value) in self.registry.dynamic_anchors(res) {
                if self.dynamic_names.contains(&name) {
                    let info = self.registry.info(value).copied().ok_or_else(|| internal("anchor"))?;
                    self.node(Target { value, info, dynamic_anchor: None })?;
                }
            }
            if self.uses_recursive_ref && self.registry.resource(res).is_some_and(|r| r.recursive_anchor) {
                if let Some(root) = self.registry.resource_root(res) {
                    self.node(root)?;
                }
            }
        }
        Ok(())
    }

    fn finish(self, root: NodeId) -> Result<Program, CompileError> {
        let uses_dynamic_scope = !self.dynamic_refs.is_empty();
        // Only a dynamic scope reads the resources (see `RareTables`).
        let mut resources = Vec::with_capacity(if uses_dynamic_scope { self.resource_order.len() } else { 0 });
        for res in self.resource_order.iter().filter(|_| uses_dynamic_scope) {
            let entry = self.registry.resource(*res).ok_or_else(|| internal("resource"))?;
            let mut dynamic_anchors = Vec::new();
            for (name, value) in self.registry.dynamic_anchors(*res) {
                if let Some(id) = self.node_ids.get(&(value as *const Value)) {
                    dynamic_anchors.push((name.into_boxed_str(), *id));
                }
            }
            let recursive_anchor =
                if entry.recursive_anchor { self.node_ids.get(&(entry.root as *const Value)).copied() } else { None };
            resources.push(Resource {
                uri: entry.uri.as_str().into(),
                dynamic_anchors: dynamic_anchors.into_boxed_slice(),
                recursive_anchor,
            });
        }
        let mut code = self.code;
        let mut tracked_code = Vec::with_capacity(self.tracked.len());
        let mut tracked = self.tracked;
        tracked.sort_unstable_by_key(|(id, _)| *id);
        for (node, instrs) in tracked {
            let start = u32::try_from(code.len()).map_err(|_| internal("code size"))?;
            code.extend(instrs);
            let end = u32::try_from(code.len()).map_err(|_| internal("code size"))?;
            tracked_code.push(TrackedCode { node, start, end });
        }
        let mut annotations = self.annotations;
        annotations.sort_unstable_by_key(|(id, _)| *id);
        let mut program = Program {
            nodes: self.nodes.into_boxed_slice(),
            locations: self.locations.finish(),
            code: code.into_boxed_slice(),
            root,
            flags: ProgramFlags {
                uses_dynamic_scope,
                strict_integers: self.strict_integers,
                draft: self.registry.root_dialect().draft,
            },
            operands: Some(Box::new(Operands {
                values: self.values.into_boxed_slice(),
                enums: self.enums.into_boxed_slice(),
                numbers: self.numbers.into_boxed_slice(),
                strings: self.strings.into_boxed_slice(),
                arrays: self.arrays.into_boxed_slice(),
                objects: self.objects.into_boxed_slice(),
                // Each list's quick nodes as they are until the node
                // entries say which of them only forward
                // (`analysis::set_entries`).
                lists: self
                    .lists
                    .into_iter()
                    .map(|nodes| ListEntry { quick: nodes.clone(), nodes, ..Default::default() })
                    .collect(),
            })),
            annotations: (!annotations.is_empty()).then(|| Box::new(AnnotationTable(annotations.into_boxed_slice()))),
            rare: Some(RareTables {
                conds: self.conds.into_boxed_slice(),
                dynamic_refs: self.dynamic_refs.into_boxed_slice(),
                contents: self.contents.into_boxed_slice(),
                costs: Box::default(),
                resources: resources.into_boxed_slice(),
                tracked: tracked_code.into_boxed_slice(),
            })
            .filter(|rare| !rare.is_empty())
            .map(Box::new),
        };
        let limits = &self.options.limits;
        if program.code.len() > limits.max_instructions {
            let at = program.locations.get(0).to_string();
            return Err(CompileError::new(
                CompileErrorKind::LimitExceeded {
                    limit: "max_instructions",
                    bound: program.code.len() as u64,
                    max: limits.max_instructions as u64,
                },
                at,
            ));
        }
        program.check_ids().map_err(|e| internal(&e))?;
        let in_place = analysis::Adjacency::in_place(&program);
        analysis::check_and_flag(&mut program, &in_place)?;
        // The cost analysis weighs the boolean path's discriminators; the
        // nodes they lead to are settled once the node entries are known.
        discriminator::find(&mut program);
        let quiet_memo = cost::analyze(&mut program, &in_place, limits, self.options.keep_cost_bounds)?;
        analysis::set_entries(&mut program, &quiet_memo);
        analysis::plan_items(&mut program);
        discriminator::settle_all(&mut program);
        presence::find(&mut program);
        name_filter::find(&mut program);
        switch::find(&mut program);
        program.drop_empty_tables();
        Ok(program)
    }

    /// The location `<uri>#<pointer>/<keyword>` of a keyword, for errors.
    fn at(&self, info: &SchemaInfo, keyword: &str) -> String {
        self.at_path(info, &[keyword])
    }

    /// The location of `path` (unescaped tokens) below a subschema, for
    /// errors.
    fn at_path(&self, info: &SchemaInfo, path: &[&str]) -> String {
        let mut loc = self.registry.location(info);
        for token in path {
            crate::pointer::push(&mut loc, token);
        }
        loc
    }

    fn push_list(&mut self, nodes: Vec<NodeId>) -> Result<ListId, CompileError> {
        let id = ListId(u32::try_from(self.lists.len()).map_err(|_| internal("lists"))?);
        self.lists.push(nodes.into_boxed_slice());
        Ok(id)
    }

    /// The regex for `pattern`, found at `path` below the subschema
    /// `info` (for errors).
    fn regex(&mut self, pattern: &str, info: &SchemaInfo, path: &[&str]) -> Result<Arc<Regex>, CompileError> {
        if let Some(regex) = self.regexes.get(pattern) {
            return Ok(Arc::clone(regex));
        }
        let regex = self.regex_compiler.compile(pattern, &self.options.limits.regex).map_err(|error| {
            let at = self.at_path(info, path);
            CompileError::new(CompileErrorKind::InvalidRegex { pattern: pattern.to_string(), error }, at)
        })?;
        self.regex_memory = self.regex_memory.saturating_add(regex.memory_usage());
        let max = self.options.limits.max_regex_memory;
        if self.regex_memory > max {
            return Err(CompileError::new(
                CompileErrorKind::LimitExceeded {
                    limit: "max_regex_memory",
                    bound: self.regex_memory as u64,
                    max: max as u64,
                },
                self.at_path(info, path),
            ));
        }
        let regex = Arc::new(regex);
        self.regexes.insert(pattern.to_string(), Arc::clone(&regex));
        Ok(regex)
    }

    /// Whether keyword `kw` applies in `dialect`.
    fn active(dialect: Dialect, kw: Kw) -> bool {
        use Draft::*;
        let (since, until, vocab) = match kw {
            Kw::Type
            | Kw::Enum
            | Kw::MultipleOf
            | Kw::Maximum
            | Kw::Minimum
            | Kw::ExclusiveMaximum
            | Kw::ExclusiveMinimum
            | Kw::MaxLength
            | Kw::MinLength
            | Kw::Pattern
            | Kw::MaxItems
            | Kw::MinItems
            | Kw::UniqueItems
            | Kw::MaxProperties
            | Kw::MinProperties
            | Kw::Required => (Draft4, Draft202012, Vocabularies::VALIDATION),
            Kw::Const => (Draft6, Draft202012, Vocabularies::VALIDATION),
            Kw::MinContains | Kw::MaxContains | Kw::DependentRequired => {
                (Draft201909, Draft202012, Vocabularies::VALIDATION)
            }
            Kw::Items
            | Kw::Properties
            | Kw::PatternProperties
            | Kw::AdditionalProperties
            | Kw::AllOf
            | Kw::AnyOf
            | Kw::OneOf
            | Kw::Not => (Draft4, Draft202012, Vocabularies::APPLICATOR),
            Kw::AdditionalItems => (Draft4, Draft201909, Vocabularies::APPLICATOR),
            Kw::Contains | Kw::PropertyNames => (Draft6, Draft202012, Vocabularies::APPLICATOR),
            Kw::If | Kw::Then | Kw::Else => (Draft7, Draft202012, Vocabularies::APPLICATOR),
            Kw::DependentSchemas => (Draft201909, Draft202012, Vocabularies::APPLICATOR),
            Kw::PrefixItems => (Draft202012, Draft202012, Vocabularies::APPLICATOR),
            Kw::UnevaluatedItems | Kw::UnevaluatedProperties => (Draft201909, Draft202012, Vocabularies::UNEVALUATED),
            Kw::Ref => (Draft4, Draft202012, Vocabularies::CORE),
            Kw::RecursiveRef => (Draft201909, Draft201909, Vocabularies::CORE),
            Kw::DynamicRef => (Draft202012, Draft202012, Vocabularies::CORE),
            Kw::ContentEncoding | Kw::ContentMediaType => (Draft7, Draft202012, Vocabularies::CONTENT),
            Kw::ContentSchema => (Draft201909, Draft202012, Vocabularies::CONTENT),
            Kw::Dependencies => {
                return dialect.vocab.contains(Vocabularies::APPLICATOR)
                    || dialect.vocab.contains(Vocabularies::VALIDATION);
            }
            Kw::Format => {
                return dialect.vocab.contains(Vocabularies::FORMAT_ANNOTATION)
                    || dialect.vocab.contains(Vocabularies::FORMAT_ASSERTION);
            }
            _ => return false,
        };
        dialect.draft >= since && dialect.draft <= until && dialect.vocab.contains(vocab)
    }
}

/// The program `schema` compiles to (with the default options) and its
/// first `anyOf`/`oneOf` list, if any: what the list analyses' tests
/// look at.
#[cfg(test)]
fn first_alternatives(schema: &serde_json::Value) -> (Program, Option<ListId>) {
    let program = crate::compile(schema, &crate::CompileOptions::default()).expect("compiles");
    let list = program.code.iter().find_map(alternatives_of);
    (program, list)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::{CompileErrorKind, CompileOptions, Limits, compile};

    fn error_at(schema: serde_json::Value, options: &CompileOptions) -> (CompileErrorKind, String) {
        let err = compile(&schema, options).unwrap_err();
        (err.kind().clone(), err.display_location().to_string())
    }

    /// The text reserved for the nodes' locations is what they write when
    /// every subschema becomes a node, and it is capped with the nodes.
    #[test]
    fn location_bytes_are_the_locations_written() {
        let schema = json!({
            "$id": "https://example.com/a-rather-long/base.json",
            "properties": {"a": {"type": "string"}, "b/~": {"items": {"minimum": 1}}},
            "additionalProperties": {"$id": "other.json", "type": "integer"}
        });
        let options = CompileOptions::default();
        let program = compile(&schema, &options).unwrap();
        let written: Vec<usize> = program.node_ids().map(|n| program.location(n).len()).collect();
        let base = crate::uri::AbsoluteUri::parse(crate::error::DEFAULT_BASE_URI).unwrap();
        let retrieved = crate::retrieve::Arena::default();
        let session = crate::retrieve::Session::new(&options.retrieval, &retrieved);
        let (registry, _) =
            super::Registry::new(&schema, base, &options.resources, options.default_draft, &options.limits, session, 8)
                .unwrap();
        assert_eq!(registry.subschemas(), written.len());
        assert_eq!(registry.location_bytes(usize::MAX), written.iter().sum::<usize>());
        assert!(registry.location_bytes(1) <= written.iter().copied().max().unwrap_or(0));
        assert_eq!(registry.location_bytes(0), 0);
    }

    /// The locations' text is bounded: a deep schema with long keys is
    /// rejected at the node that crosses the limit, not compiled into
    /// quadratic text.
    #[test]
    fn location_text_is_bounded() {
        let key = "k".repeat(1000);
        let mut schema = json!({"type": "string"});
        for _ in 0..100 {
            schema = json!({"properties": {key.clone(): schema}});
        }
        // 101 nodes whose locations average 50 KB: about 5 MB of text.
        let limits = |max_location_bytes| CompileOptions {
            limits: Limits { max_location_bytes, ..Limits::default() },
            ..Default::default()
        };
        let err = compile(&schema, &limits(1 << 20)).unwrap_err();
        assert!(
            matches!(err.kind(), CompileErrorKind::LimitExceeded { limit: "max_location_bytes", max: 1_048_576, bound }
                if *bound > 1 << 20),
            "{err:?}"
        );
        let program = compile(&schema, &limits(8 << 20)).unwrap();
        let last = program.node_ids().last().unwrap();
        assert_eq!(program.location(last).len(), "json-schema:///#".len() + 100 * "/properties/".len() + 100_000);
    }

    /// A schema checked under a looser depth limit than the compilation's
    /// is checked again; under the same limit, it is compiled as checked.
    #[test]
    fn a_checked_schema_is_checked_again_under_a_stricter_limit() {
        let deep = json!({"items": {"items": {"items": {"type": "string"}}}});
        let loose = Limits { max_schema_depth: 64, ..Limits::default() };
        let checked = crate::check_depth(&deep, "", &loose).unwrap();
        let strict =
            CompileOptions { limits: Limits { max_schema_depth: 3, ..Limits::default() }, ..Default::default() };
        let err = crate::compile_checked(checked, &strict).unwrap_err();
        assert!(matches!(err.kind(), CompileErrorKind::LimitExceeded { limit: "max_schema_depth", .. }), "{err:?}");
        let same = CompileOptions { limits: loose, ..Default::default() };
        let program = crate::compile_checked(checked, &same).unwrap();
        assert_eq!(program.node_ids().count(), compile(&deep, &same).unwrap().node_ids().count());
    }

    #[test]
    fn keyword_errors_name_the_keyword() {
        let options = CompileOptions::default();
        let (kind, at) = error_at(json!({"properties": {"x": {"pattern": "("}}}), &options);
        assert!(matches!(kind, CompileErrorKind::InvalidRegex { .. }));
        assert_eq!(at, "#/properties/x/pattern");
        let (kind, at) = error_at(json!({"patternProperties": {"a/~(": {}}}), &options);
        assert!(matches!(kind, CompileErrorKind::InvalidRegex { .. }));
        assert_eq!(at, "#/patternProperties/a~1~0(");
        let tiny = CompileOptions { limits: Limits { max_const_size: 2, ..Limits::default() }, ..Default::default() };
        let (kind, at) = error_at(json!({"items": {"enum": [[1, 2, 3]]}}), &tiny);
        assert!(matches!(kind, CompileErrorKind::LimitExceeded { limit: "max_const_size", .. }));
        assert_eq!(at, "#/items/enum");
    }

    #[test]
    fn const_and_enum_admit_the_kinds_of_their_values() {
        use crate::value::{JsonType, TypeSet};
        let schema = json!({"oneOf": [
            {"const": "a"},
            {"enum": [1, null]},
            {"type": "string", "enum": ["x", 2]},
            {"type": "object"}
        ]});
        let program = compile(&schema, &CompileOptions::default()).unwrap();
        let number = TypeSet::single(JsonType::Number).with(JsonType::Integer);
        let expected = [
            TypeSet::single(JsonType::String),
            number.with(JsonType::Null),
            TypeSet::single(JsonType::String),
            TypeSet::single(JsonType::Object),
        ];
        let root = program.root();
        let Some(crate::bytecode::Instr::OneOf(list)) = program.code(root).first().copied() else {
            panic!("{program}");
        };
        let admitted: Vec<TypeSet> =
            program.operands().list(list).iter().map(|n| program.node(*n).admitted_types()).collect();
        assert_eq!(admitted, expected);
    }
}
