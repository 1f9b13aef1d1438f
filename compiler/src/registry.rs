//! The resource registry: every document the compiler may read, the schema
//! resources and anchors inside them, and the dialect of each subschema.
//!
//! Documents come from three places: the root schema, documents the caller
//! registered (`resource(uri, value)`), and the embedded meta-schemas.
//! Nothing else resolves unless the caller configured retrievers
//! ([`crate::retrieve`]): then a document URI found nowhere else is asked
//! of them, once per build, and the document is crawled like a registered
//! one. There is no I/O here. Registered and embedded
//! documents are crawled lazily, on the first reference into them (or,
//! when a URI is not found, all pending documents are crawled in case one
//! embeds a resource with that `$id`).
//!
//! Crawling walks only the keywords of the document's dialect that hold
//! subschemas, with an explicit stack, so `$id`s inside unknown keywords
//! or `enum` values are not identifiers (as the specification requires)
//! and depth is bounded by [`Limits::max_schema_depth`](crate::Limits).
//! A JSON Pointer may still reach anywhere, including into unknown
//! keywords: such a target inherits the base URI and dialect of its
//! nearest crawled ancestor.

use serde_json::{Map, Value};

use crate::draft::{Draft, Vocabularies};
use crate::error::{CompileError, CompileErrorKind};
use crate::hash::{IdMap, TextMap};
use crate::keyword::{KeywordTable, Kw};
use crate::metaschema;
use crate::pointer::{self, IndexToken};
use crate::retrieve::Session;
use crate::uri::{AbsoluteUri, percent_decode};

/// Index of a resource in the registry.
pub(crate) type ResIdx = u32;

/// The dialect a subschema is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Dialect {
    pub draft: Draft,
    pub vocab: Vocabularies,
}

impl Dialect {
    pub(crate) fn of_draft(draft: Draft) -> Dialect {
        Dialect { draft, vocab: draft.default_vocabularies() }
    }
}

/// A named location inside a resource.
#[derive(Debug, Clone)]
struct Anchor<'a> {
    value: &'a Value,
    dynamic: bool,
}

/// A schema resource: a (sub)schema with its own base URI.
#[derive(Debug)]
pub(crate) struct ResourceEntry<'a> {
    pub uri: AbsoluteUri,
    pub root: &'a Value,
    anchors: TextMap<String, Anchor<'a>>,
    pub recursive_anchor: bool,
}

/// Where a subschema sits: its resource, its pointer from that resource's
/// root, and its dialect.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SchemaInfo {
    pub resource: ResIdx,
    pub pointer: Pointer,
    pub dialect: Dialect,
}

/// A JSON pointer written in the registry's [`PointerText`] (read it with
/// [`PointerText::get`]).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Pointer {
    start: usize,
    end: usize,
}

impl Pointer {
    /// Whether this is the empty pointer (a resource root).
    pub(crate) fn is_empty(self) -> bool {
        self.start == self.end
    }
}

/// The room [`PointerText`] starts with per container of the root
/// document (a subschema's pointer is its parent's and a token or two).
const POINTER_BYTES_PER_CONTAINER: usize = 16;

/// The text of every [`Pointer`] the registry hands out, end to end: a
/// child's pointer is a copy of its parent's with its tokens appended, so
/// pointers cost no allocation of their own.
#[derive(Debug, Default)]
struct PointerText(String);

impl PointerText {
    fn get(&self, p: Pointer) -> &str {
        self.0.get(p.start..p.end).unwrap_or("")
    }

    /// `base` followed by `tokens` (escaped) and then `raw` (already
    /// pointer text).
    fn extend(&mut self, base: Pointer, tokens: &[&str], raw: &str) -> Pointer {
        if tokens.is_empty() && raw.is_empty() {
            return base;
        }
        let start = self.0.len();
        if self.0.get(base.start..base.end).is_some() {
            self.0.extend_from_within(base.start..base.end);
        }
        for token in tokens {
            pointer::push(&mut self.0, token);
        }
        self.0.push_str(raw);
        Pointer { start, end: self.0.len() }
    }
}

/// A resolved reference.
#[derive(Debug, Clone)]
pub(crate) struct Target<'a> {
    pub value: &'a Value,
    pub info: SchemaInfo,
    /// The reference named a `$dynamicAnchor` (by this name).
    pub dynamic_anchor: Option<String>,
}

/// See the module documentation.
pub(crate) struct Registry<'a> {
    resources: Vec<ResourceEntry<'a>>,
    by_uri: TextMap<AbsoluteUri, ResIdx>,
    info: IdMap<*const Value, SchemaInfo>,
    pointers: PointerText,
    pending: Vec<(AbsoluteUri, &'a Value)>,
    default_dialect: Dialect,
    max_depth: usize,
    limits: crate::Limits,
    retrieval: Session<'a>,
}

fn addr(v: &Value) -> *const Value {
    v as *const Value
}

impl<'a> Registry<'a> {
    /// A registry over the caller's documents. The root schema is crawled
    /// under `root_uri` with `default_draft` unless it declares `$schema`;
    /// it has at most `root_containers` subschemas (for sizing).
    pub(crate) fn new(
        root: &'a Value,
        root_uri: AbsoluteUri,
        resources: &'a [(String, Value)],
        default_draft: Draft,
        limits: &crate::Limits,
        retrieval: Session<'a>,
        root_containers: usize,
    ) -> Result<(Registry<'a>, ResIdx), CompileError> {
        let max_depth = limits.max_schema_depth;
        let mut pending = Vec::with_capacity(resources.len());
        for (uri, doc) in resources {
            crate::compile::check_depth(doc, uri, limits)?;
            let parsed = AbsoluteUri::parse(uri).map_err(|e| {
                CompileError::new(CompileErrorKind::InvalidUri { value: uri.clone(), reason: e.reason }, uri.clone())
            })?;
            pending.push((parsed, doc));
        }
        let mut registry = Registry {
            resources: Vec::new(),
            by_uri: TextMap::default(),
            info: IdMap::with_capacity_and_hasher(root_containers, Default::default()),
            // About a short token per subschema (grown past that).
            pointers: PointerText(String::with_capacity(root_containers.saturating_mul(POINTER_BYTES_PER_CONTAINER))),
            pending,
            default_dialect: Dialect::of_draft(default_draft),
            max_depth,
            limits: limits.clone(),
            retrieval,
        };
        // The root's dialect is the default for documents without `$schema`.
        registry.default_dialect = registry.document_dialect(root, &root_uri, 0)?;
        let root_res = registry.crawl(root_uri, root)?;
        Ok((registry, root_res))
    }

    /// How many subschemas have been crawled.
    pub(crate) fn subschemas(&self) -> usize {
        self.info.len()
    }

    /// The bytes [`Registry::write_location`] writes for `max` subschemas
    /// (all of them, if fewer) together: the text to reserve for the
    /// nodes' locations, which follow the subschemas one to one, usually.
    /// (Capped like the nodes, so that a schema over the node limit does
    /// not reserve text for subschemas that will never be nodes.)
    pub(crate) fn location_bytes(&self, max: usize) -> usize {
        self.info.values().take(max).map(|info| self.location_len(info)).fold(0, usize::saturating_add)
    }

    /// The dialect of the root schema.
    pub(crate) fn root_dialect(&self) -> Dialect {
        self.default_dialect
    }

    pub(crate) fn resource(&self, idx: ResIdx) -> Option<&ResourceEntry<'a>> {
        self.resources.get(idx as usize)
    }

    /// Every `$dynamicAnchor` of a resource, as (name, schema).
    pub(crate) fn dynamic_anchors(&self, idx: ResIdx) -> Vec<(String, &'a Value)> {
        let mut out: Vec<_> = self
            .resource(idx)
            .map(|r| r.anchors.iter().filter(|(_, a)| a.dynamic).map(|(n, a)| (n.clone(), a.value)).collect())
            .unwrap_or_default();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// The `$dynamicAnchor` named `name` of a resource, if it defines one.
    pub(crate) fn dynamic_anchor(&self, idx: ResIdx, name: &str) -> Option<Target<'a>> {
        let anchor = self.resource(idx)?.anchors.get(name).filter(|a| a.dynamic)?;
        let info = *self.info(anchor.value)?;
        Some(Target { value: anchor.value, info, dynamic_anchor: None })
    }

    /// Where a crawled subschema sits.
    pub(crate) fn info(&self, value: &Value) -> Option<&SchemaInfo> {
        self.info.get(&addr(value))
    }

    /// The absolute location `<resource URI>#<pointer>` of a subschema.
    pub(crate) fn location(&self, info: &SchemaInfo) -> String {
        let mut out = String::new();
        self.write_location(info, &mut out);
        out
    }

    /// Appends [`Registry::location`] to `out`.
    pub(crate) fn write_location(&self, info: &SchemaInfo, out: &mut String) {
        let pointer = self.pointers.get(info.pointer);
        match self.resource(info.resource) {
            Some(r) => r.uri.push_with_fragment(pointer, out),
            None => {
                out.push('#');
                out.push_str(pointer);
            }
        }
    }

    /// The length of [`Registry::location`] (what
    /// [`Registry::write_location`] appends).
    fn location_len(&self, info: &SchemaInfo) -> usize {
        let pointer = self.pointers.get(info.pointer);
        match self.resource(info.resource) {
            Some(r) => r.uri.len_with_fragment(pointer),
            None => pointer.len().saturating_add(1),
        }
    }

    /// `info` moved down by the pointer `tokens` (unescaped).
    pub(crate) fn descend(&mut self, info: &SchemaInfo, tokens: &[&str]) -> SchemaInfo {
        SchemaInfo { pointer: self.pointers.extend(info.pointer, tokens, ""), ..*info }
    }

    /// The target of a root resource.
    pub(crate) fn resource_root(&self, idx: ResIdx) -> Option<Target<'a>> {
        let r = self.resource(idx)?;
        let info = *self.info(r.root)?;
        Some(Target { value: r.root, info, dynamic_anchor: None })
    }

    /// The dialect declared by a document or embedded resource root.
    fn document_dialect(&mut self, root: &Value, at: &AbsoluteUri, depth: usize) -> Result<Dialect, CompileError> {
        match root.get("$schema") {
            Some(Value::String(s)) => self.dialect_of_meta_schema(s, at, depth),
            Some(_) => Err(CompileError::new(
                CompileErrorKind::InvalidKeyword { keyword: "$schema".into(), expected: "a URI string" },
                at.with_fragment("/$schema"),
            )),
            None => Ok(self.default_dialect),
        }
    }

    /// The dialect a `$schema` URI selects: a known draft, or a registered
    /// meta-schema whose `$vocabulary` picks the vocabularies.
    fn dialect_of_meta_schema(&mut self, uri: &str, at: &AbsoluteUri, depth: usize) -> Result<Dialect, CompileError> {
        if let Some(draft) = Draft::from_meta_schema_uri(uri) {
            return Ok(Dialect::of_draft(draft));
        }
        let unknown = || {
            CompileError::new(CompileErrorKind::UnknownDialect { uri: uri.to_string() }, at.with_fragment("/$schema"))
        };
        if depth > 8 {
            return Err(unknown());
        }
        let Ok(meta_uri) = AbsoluteUri::parse(uri) else {
            return Err(unknown());
        };
        let meta: &'a Value = match self.find_document(&meta_uri) {
            Some(v) => v,
            None => return Err(unknown()),
        };
        let parent = match meta.get("$schema") {
            Some(Value::String(s)) if Draft::from_meta_schema_uri(s).is_none() && s.as_str() != uri => {
                self.dialect_of_meta_schema(s, &meta_uri, depth + 1)?
            }
            Some(Value::String(s)) => match Draft::from_meta_schema_uri(s) {
                Some(d) => Dialect::of_draft(d),
                None => return Err(unknown()),
            },
            _ => return Err(unknown()),
        };
        let vocab = match meta.get("$vocabulary") {
            Some(Value::Object(map)) if parent.draft >= Draft::Draft201909 => vocabularies(map, &meta_uri)?,
            _ => parent.vocab,
        };
        Ok(Dialect { draft: parent.draft, vocab })
    }

    /// A registered or embedded document (or resource root) by URI,
    /// without crawling it.
    fn find_document(&self, uri: &AbsoluteUri) -> Option<&'a Value> {
        if let Some(idx) = self.by_uri.get(uri) {
            return self.resource(*idx).map(|r| r.root);
        }
        if let Some((_, v)) = self.pending.iter().find(|(u, _)| u == uri) {
            return Some(*v);
        }
        metaschema::document(uri.as_str())
    }

    /// The resource with `uri`, crawling pending or embedded documents as
    /// needed.
    fn lookup(&mut self, uri: &AbsoluteUri) -> Result<Option<ResIdx>, CompileError> {
        if let Some(idx) = self.by_uri.get(uri) {
            return Ok(Some(*idx));
        }
        if let Some(pos) = self.pending.iter().position(|(u, _)| u == uri) {
            let (u, v) = self.pending.swap_remove(pos);
            return self.crawl(u, v).map(Some);
        }
        if let Some(doc) = metaschema::document(uri.as_str()) {
            return self.crawl(uri.clone(), doc).map(Some);
        }
        // The URI may be an `$id` embedded in a document not crawled yet.
        while let Some((u, v)) = self.pending.pop() {
            self.crawl(u, v)?;
        }
        Ok(self.by_uri.get(uri).copied())
    }

    /// Resolves `reference` against the base URI of resource `base`.
    /// `at` is the referring location, for errors.
    pub(crate) fn resolve(&mut self, base: ResIdx, reference: &str, at: &str) -> Result<Target<'a>, CompileError> {
        let base_uri = match self.resource(base) {
            Some(r) => r.uri.clone(),
            None => return Err(internal(at)),
        };
        let (uri, fragment) = base_uri.resolve(reference).map_err(|e| {
            CompileError::new(CompileErrorKind::InvalidUri { value: reference.to_string(), reason: e.reason }, at)
        })?;
        let unresolvable = |resolved: String| {
            CompileError::new(
                CompileErrorKind::UnresolvableReference { reference: reference.to_string(), resolved },
                at,
            )
        };
        let res = match self.lookup(&uri)? {
            Some(res) => res,
            None => match self.retrieve(&uri, reference, at)? {
                Some(res) => res,
                None => return Err(unresolvable(uri.to_string())),
            },
        };
        let fragment = match fragment {
            None | Some("") => None,
            Some(f) => Some(percent_decode(f).ok_or_else(|| unresolvable(uri.with_fragment(f)))?),
        };
        let root = match self.resource(res) {
            Some(r) => r.root,
            None => return Err(internal(at)),
        };
        match fragment {
            None => self.target_at(res, root, &[]).ok_or_else(|| unresolvable(uri.to_string())),
            Some(f) if f.starts_with('/') => {
                let tokens = pointer::tokens(&f).ok_or_else(|| unresolvable(uri.with_fragment(&f)))?;
                self.target_at(res, root, &tokens).ok_or_else(|| unresolvable(uri.with_fragment(&f)))
            }
            Some(name) => {
                let anchor = self
                    .resource(res)
                    .and_then(|r| r.anchors.get(&name))
                    .cloned()
                    .ok_or_else(|| unresolvable(uri.with_fragment(&name)))?;
                let info = self.info(anchor.value).copied().ok_or_else(|| internal(at))?;
                Ok(Target { value: anchor.value, info, dynamic_anchor: anchor.dynamic.then_some(name) })
            }
        }
    }

    /// Asks the configured retrievers for a document nothing else
    /// provides, and crawls it. `Ok(None)` when retrieval is off.
    fn retrieve(&mut self, uri: &AbsoluteUri, reference: &str, at: &str) -> Result<Option<ResIdx>, CompileError> {
        let document = self.retrieval.fetch(uri, at).map_err(|error| {
            CompileError::new(
                CompileErrorKind::RetrievalFailed { reference: reference.to_string(), uri: uri.to_string(), error },
                at,
            )
        })?;
        let Some(document) = document else {
            return Ok(None);
        };
        crate::compile::check_depth(document, uri.as_str(), &self.limits)?;
        self.crawl(uri.clone(), document).map(Some)
    }

    /// Walks `tokens` from a resource root, deriving the target's location
    /// from its nearest crawled ancestor.
    fn target_at(&mut self, res: ResIdx, root: &'a Value, tokens: &[String]) -> Option<Target<'a>> {
        let mut current = root;
        let mut nearest = *self.info(root)?;
        let mut rest = String::new();
        for token in tokens {
            current = pointer::step(current, token)?;
            match self.info(current) {
                Some(info) => {
                    nearest = *info;
                    rest.clear();
                }
                None => pointer::push(&mut rest, token),
            }
        }
        let _ = res;
        let info = SchemaInfo { pointer: self.pointers.extend(nearest.pointer, &[], &rest), ..nearest };
        Some(Target { value: current, info, dynamic_anchor: None })
    }

    /// Crawls a document, registering its resources, anchors and
    /// subschemas. Returns the resource of its root.
    fn crawl(&mut self, doc_uri: AbsoluteUri, root: &'a Value) -> Result<ResIdx, CompileError> {
        if let Some(existing) = self.by_uri.get(&doc_uri) {
            return Ok(*existing);
        }
        let dialect = self.document_dialect(root, &doc_uri, 0)?;
        let root_res = self.add_resource(doc_uri, root)?;
        let mut stack = vec![Frame { value: root, resource: root_res, pointer: Pointer::default(), dialect, depth: 0 }];
        while let Some(frame) = stack.pop() {
            if frame.depth > self.max_depth {
                return Err(CompileError::new(
                    CompileErrorKind::LimitExceeded {
                        limit: "max_schema_depth",
                        bound: frame.depth as u64,
                        max: self.max_depth as u64,
                    },
                    self.location(&SchemaInfo { resource: frame.resource, pointer: frame.pointer, dialect }),
                ));
            }
            self.visit(frame, &mut stack)?;
        }
        Ok(root_res)
    }

    fn add_resource(&mut self, uri: AbsoluteUri, root: &'a Value) -> Result<ResIdx, CompileError> {
        if let Some(&idx) = self.by_uri.get(&uri) {
            let same =
                self.resource(idx).is_some_and(|r| std::ptr::eq(r.root, root) || crate::value::equal(r.root, root));
            if same {
                return Ok(idx);
            }
            return Err(CompileError::new(
                CompileErrorKind::DuplicateResource { uri: uri.to_string() },
                uri.with_fragment(""),
            ));
        }
        let idx = ResIdx::try_from(self.resources.len()).map_err(|_| internal(uri.as_str()))?;
        self.resources.push(ResourceEntry {
            uri: uri.clone(),
            root,
            anchors: TextMap::default(),
            recursive_anchor: false,
        });
        self.by_uri.insert(uri, idx);
        Ok(idx)
    }

    fn visit(&mut self, frame: Frame<'a>, stack: &mut Vec<Frame<'a>>) -> Result<(), CompileError> {
        let Frame { value, mut resource, mut pointer, mut dialect, depth } = frame;
        let Value::Object(obj) = value else {
            self.info.insert(addr(value), SchemaInfo { resource, pointer, dialect });
            return Ok(());
        };
        let at_doc_root = depth == 0;
        let keywords = KeywordTable::of(obj);
        // A `$schema` beside an identifier (or at the document root) sets the dialect.
        let has_id = keywords.has(Kw::Id) || keywords.has(Kw::LegacyId);
        // The base URI, needed only beside an identifier.
        let current_uri = if has_id {
            Some(self.resource(resource).map(|r| r.uri.clone()).ok_or_else(|| internal(""))?)
        } else {
            None
        };
        if let (false, Some(current_uri)) = (at_doc_root, &current_uri) {
            if let Some(Value::String(s)) = keywords.get(Kw::Schema) {
                dialect = self.dialect_of_meta_schema(s, current_uri, 0)?;
            }
        }
        let draft = dialect.draft;
        let ref_hides_siblings = draft.ref_overrides_siblings() && keywords.has(Kw::Ref);
        let id_keyword = if draft == Draft::Draft4 { Kw::LegacyId } else { Kw::Id };
        // (`id_keyword` is `$id` or `id`: present only when `current_uri` is.)
        if let (Some(Value::String(id)), Some(current_uri)) = (keywords.get(id_keyword), current_uri) {
            if !ref_hides_siblings {
                match id.strip_prefix('#') {
                    Some(name) if draft <= Draft::Draft7 => {
                        if !name.is_empty() {
                            self.add_anchor(resource, name, value, false);
                        }
                    }
                    _ => {
                        let (uri, fragment) = current_uri.resolve(id).map_err(|e| {
                            let at = self.location(&SchemaInfo { resource, pointer, dialect });
                            CompileError::new(CompileErrorKind::InvalidUri { value: id.clone(), reason: e.reason }, at)
                        })?;
                        if uri != current_uri {
                            if at_doc_root {
                                // The document's retrieval URI and its `$id` both name it.
                                self.by_uri.insert(uri.clone(), resource);
                                if let Some(r) = self.resources.get_mut(resource as usize) {
                                    r.uri = uri;
                                }
                            } else {
                                resource = self.add_resource(uri, value)?;
                                pointer = Pointer::default();
                            }
                        }
                        if let Some(name) = fragment.filter(|f| !f.is_empty() && draft <= Draft::Draft7) {
                            self.add_anchor(resource, name, value, false);
                        }
                    }
                }
            }
        }
        if draft >= Draft::Draft201909 {
            if let Some(Value::String(name)) = keywords.get(Kw::Anchor) {
                self.add_anchor(resource, name, value, false);
            }
        }
        if draft >= Draft::Draft202012 {
            if let Some(Value::String(name)) = keywords.get(Kw::DynamicAnchor) {
                self.add_anchor(resource, name, value, true);
            }
        }
        if draft == Draft::Draft201909 && keywords.get(Kw::RecursiveAnchor) == Some(&Value::Bool(true)) {
            let is_resource_root = self.resource(resource).is_some_and(|r| std::ptr::eq(r.root, value));
            if is_resource_root {
                if let Some(r) = self.resources.get_mut(resource as usize) {
                    r.recursive_anchor = true;
                }
            }
        }
        let pointers = &mut self.pointers;
        for_each_subschema(&keywords, draft, |path, child| {
            let p = pointers.extend(pointer, path, "");
            stack.push(Frame { value: child, resource, pointer: p, dialect, depth: depth + 1 });
        });
        self.info.insert(addr(value), SchemaInfo { resource, pointer, dialect });
        Ok(())
    }

    fn add_anchor(&mut self, resource: ResIdx, name: &str, value: &'a Value, dynamic: bool) {
        if let Some(r) = self.resources.get_mut(resource as usize) {
            let entry = r.anchors.entry(name.to_string()).or_insert(Anchor { value, dynamic });
            entry.dynamic |= dynamic && std::ptr::eq(entry.value, value);
        }
    }
}

struct Frame<'a> {
    value: &'a Value,
    resource: ResIdx,
    pointer: Pointer,
    dialect: Dialect,
    depth: usize,
}

fn internal(at: &str) -> CompileError {
    CompileError::new(
        CompileErrorKind::InvalidKeyword { keyword: "(internal)".into(), expected: "a consistent registry" },
        at,
    )
}

/// Parses a meta-schema's `$vocabulary`.
fn vocabularies(map: &Map<String, Value>, meta: &AbsoluteUri) -> Result<Vocabularies, CompileError> {
    let mut vocab = Vocabularies::CORE;
    for (uri, required) in map {
        match Vocabularies::from_uri(uri) {
            Some(v) => vocab = vocab.union(v),
            None if required == &Value::Bool(true) => {
                return Err(CompileError::new(
                    CompileErrorKind::UnknownVocabulary { uri: uri.clone() },
                    meta.with_fragment("/$vocabulary"),
                ));
            }
            None => {}
        }
    }
    Ok(vocab)
}

/// Keywords whose value is one subschema, by the first draft having them.
const SINGLE: &[(Kw, Draft)] = &[
    (Kw::AdditionalProperties, Draft::Draft4),
    (Kw::Not, Draft::Draft4),
    (Kw::Contains, Draft::Draft6),
    (Kw::PropertyNames, Draft::Draft6),
    (Kw::If, Draft::Draft7),
    (Kw::Then, Draft::Draft7),
    (Kw::Else, Draft::Draft7),
    (Kw::UnevaluatedItems, Draft::Draft201909),
    (Kw::UnevaluatedProperties, Draft::Draft201909),
    (Kw::ContentSchema, Draft::Draft201909),
];

/// Keywords whose value is an array of subschemas.
const ARRAY: &[(Kw, Draft)] = &[
    (Kw::AllOf, Draft::Draft4),
    (Kw::AnyOf, Draft::Draft4),
    (Kw::OneOf, Draft::Draft4),
    (Kw::PrefixItems, Draft::Draft202012),
];

/// Keywords whose value maps names to subschemas.
const MAP: &[(Kw, Draft)] = &[
    (Kw::Properties, Draft::Draft4),
    (Kw::PatternProperties, Draft::Draft4),
    (Kw::DependentSchemas, Draft::Draft201909),
    (Kw::Defs, Draft::Draft201909),
];

/// Calls `f(path, subschema)` for every direct subschema of the schema
/// object whose keywords are `keywords`, in `draft` (the path is the
/// keyword and, for arrays and maps, the key).
fn for_each_subschema<'a>(keywords: &KeywordTable<'a>, draft: Draft, mut f: impl FnMut(&[&str], &'a Value)) {
    let is_schema = |v: &Value| v.is_object() || v.is_boolean();
    let get = |kw: Kw| keywords.get(kw);
    for &(kw, since) in SINGLE {
        if draft >= since {
            if let Some(v) = get(kw).filter(|v| is_schema(v)) {
                f(&[kw.name()], v);
            }
        }
    }
    for &(kw, since) in ARRAY {
        if draft >= since {
            if let Some(Value::Array(items)) = get(kw) {
                for (i, v) in items.iter().enumerate().filter(|(_, v)| is_schema(v)) {
                    f(&[kw.name(), IndexToken::new(i).as_str()], v);
                }
            }
        }
    }
    for &(kw, since) in MAP {
        if draft >= since {
            if let Some(Value::Object(map)) = get(kw) {
                for (k, v) in map.iter().filter(|(_, v)| is_schema(v)) {
                    f(&[kw.name(), k], v);
                }
            }
        }
    }
    // `items`: one schema, or (before 2020-12) an array of them.
    match get(Kw::Items) {
        Some(v) if is_schema(v) => f(&["items"], v),
        Some(Value::Array(items)) if draft <= Draft::Draft201909 => {
            for (i, v) in items.iter().enumerate().filter(|(_, v)| is_schema(v)) {
                f(&["items", IndexToken::new(i).as_str()], v);
            }
        }
        _ => {}
    }
    if draft <= Draft::Draft201909 {
        if let Some(v) = get(Kw::AdditionalItems).filter(|v| is_schema(v)) {
            f(&["additionalItems"], v);
        }
    }
    if draft <= Draft::Draft7 {
        if let Some(Value::Object(map)) = get(Kw::Definitions) {
            for (k, v) in map.iter().filter(|(_, v)| is_schema(v)) {
                f(&["definitions", k], v);
            }
        }
    }
    // `dependencies` (schema form) is kept in every draft for compatibility.
    if let Some(Value::Object(map)) = get(Kw::Dependencies) {
        for (k, v) in map.iter().filter(|(_, v)| is_schema(v)) {
            f(&["dependencies", k], v);
        }
    }
}
