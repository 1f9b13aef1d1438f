//! Shared pieces of the benchmarks: where the benchmark data is, the
//! three validators behind one interface, the rows of the table (what
//! each row measures, per peer) and the table itself. The criterion bench
//! (`benches/validation.rs`) and the quick `report` binary measure the
//! same [`Row`]s, and differ only in how they time a [`Work`].
//!
//! The data is found through `SCHEMAVM_BENCH_DATA`, else a
//! `benches/bench-data` checkout, else `../shared/bench-data` beside the
//! repository. `cases.json` and `errors.json` are required; the keyword
//! and schema-document files are optional (a note on stderr names each
//! one missing).
//!
//! Rows, in table order:
//! - per case of `cases.json`: `is_valid-CASE-INSTANCE` per instance
//!   (these make the geometric mean), `iter_errors-CASE-INSTANCE` for an
//!   instance some peer finds invalid, `compile-CASE` and `memory-CASE`
//!   (heap bytes retained by the compiled validator);
//! - per case of `errors.json` (all invalid): `is_valid-NAME-invalid` and
//!   `iter_errors-NAME-invalid`;
//! - per case of `keywords.json` (one keyword each, with valid and invalid
//!   instances): `is_valid-keyword-NAME-valid`, `is_valid-…-invalid`,
//!   `iter_errors-…-invalid` (`-2`, `-3` … after the name when a case has
//!   several), `compile-keyword-NAME` and `memory-keyword-NAME` (draft 7); the
//!   `format_*` cases are compiled with format assertion on for every
//!   peer (their defaults differ);
//! - per schema document of the data (`openapi.json`, `subresources/*.json`):
//!   `compile-NAME` and `memory-NAME` of the document, and
//!   `is_valid-meta-NAME-schema`, the document validated against its
//!   draft's meta-schema compiled as an ordinary schema;
//! - the MCP shape ([`mcp`]): `is_valid-mcp-calls` (all [`mcp::CALLS`]
//!   calls against the ten compiled tools), `compile-mcp` and `memory-mcp`
//!   (all ten).

pub mod mcp;
pub mod memory;
pub mod timing;
pub mod walk;

use std::hint::black_box;
use std::path::{Path, PathBuf};

use schemavm::Draft;
use schemavm::compiler::metaschema;
use serde_json::Value;

/// The benchmark data directory.
pub fn data_dir() -> Result<PathBuf, String> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut candidates = Vec::new();
    if let Some(p) = std::env::var_os("SCHEMAVM_BENCH_DATA") {
        candidates.push(PathBuf::from(p));
    }
    candidates.push(here.join("bench-data"));
    candidates.push(here.join("../../shared/bench-data"));
    candidates
        .into_iter()
        .find(|p| p.join("cases.json").is_file())
        .ok_or_else(|| "benchmark data not found: set SCHEMAVM_BENCH_DATA to a directory with cases.json".to_string())
}

/// Reads a JSON file of the data directory.
pub fn read(dir: &Path, name: &str) -> Result<Value, String> {
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Which list a case comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `cases.json`: real-world schemas and documents.
    Cases,
    /// `errors.json`: small schemas with an invalid instance each.
    Errors,
    /// `keywords.json`: one keyword per schema, valid and invalid instances.
    Keywords,
    /// A schema document of the data (`openapi.json`, `subresources/`):
    /// compiled and measured, no instances.
    Document,
    /// A schema document as the instance of its draft's meta-schema.
    Meta,
}

impl Source {
    /// Whether the case's schema gets `compile-` and `memory-` rows (the
    /// meta-schemas of [`Source::Meta`] and the small schemas of
    /// [`Source::Errors`] do not).
    fn measures_compiling(self) -> bool {
        matches!(self, Source::Cases | Source::Keywords | Source::Document)
    }
}

/// One schema and the instances to validate against it.
#[derive(Debug)]
pub struct Case {
    /// Short name (e.g. `swagger`).
    pub name: String,
    /// The list it comes from.
    pub source: Source,
    /// The schema.
    pub schema: Value,
    /// `(name, instance)` pairs.
    pub instances: Vec<(String, Value)>,
    /// How the peers treat `format`.
    pub formats: Formats,
}

/// How the peers are told to treat `format` when compiling a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Formats {
    /// Each peer's default for the schema's draft.
    Default,
    /// Every peer asserts formats.
    Asserted,
}

/// The cases listed in `cases.json`.
pub fn cases(dir: &Path) -> Result<Vec<Case>, String> {
    let list = read(dir, "cases.json")?;
    let list = list.as_array().ok_or("cases.json: expected an array")?;
    list.iter()
        .map(|c| {
            let field = |k: &str| c.get(k).ok_or_else(|| format!("cases.json: a case without {k}"));
            let name = field("name")?.as_str().ok_or("cases.json: name must be a string")?.to_string();
            let schema = read(dir, field("schema")?.as_str().ok_or("cases.json: schema must be a file name")?)?;
            let instances = field("instances")?
                .as_array()
                .ok_or("cases.json: instances must be an array")?
                .iter()
                .map(|i| {
                    let file = i.as_str().ok_or("cases.json: instance must be a file name")?;
                    let stem = file.trim_end_matches(".json").to_string();
                    Ok((stem, read(dir, file)?))
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(Case { name, source: Source::Cases, schema, instances, formats: Formats::Default })
        })
        .collect()
}

/// The cases listed in `errors.json` (`{name, schema, instance}` each),
/// their instance named `invalid`.
pub fn error_cases(dir: &Path) -> Result<Vec<Case>, String> {
    let list = read(dir, "errors.json")?;
    let list = list.as_array().ok_or("errors.json: expected an array")?;
    list.iter()
        .map(|c| {
            let field = |k: &str| c.get(k).cloned().ok_or_else(|| format!("errors.json: a case without {k}"));
            let name = field("name")?.as_str().ok_or("errors.json: name must be a string")?.to_string();
            let instances = vec![("invalid".to_string(), field("instance")?)];
            Ok(Case { name, source: Source::Errors, schema: field("schema")?, instances, formats: Formats::Default })
        })
        .collect()
}

/// The cases of `keywords.json` (`{name, schema, valid, invalid}` each),
/// named `keyword-NAME`, their instances `valid` and `invalid` (`-2`, `-3`
/// … for the second and later of a kind); none, noted on stderr, without
/// the file. A schema without `$schema` is given draft 7's, the draft
/// jsonschema-rs's own keyword benchmarks compile these schemas with
/// (several use draft 7's array form of `items`).
pub fn keyword_cases(dir: &Path) -> Result<Vec<Case>, String> {
    let Some(list) = read_optional(dir, "keywords.json")? else { return Ok(Vec::new()) };
    let list = list.as_array().ok_or("keywords.json: expected an array")?;
    list.iter()
        .map(|c| {
            let name = c.get("name").and_then(Value::as_str).ok_or("keywords.json: a case without a name")?;
            let mut schema = c.get("schema").cloned().ok_or_else(|| format!("keywords.json: {name} has no schema"))?;
            if let Some(object) = schema.as_object_mut() {
                object.entry("$schema").or_insert_with(|| Draft::Draft7.meta_schema_uri().into());
            }
            let mut instances = Vec::new();
            for kind in ["valid", "invalid"] {
                let list = match c.get(kind) {
                    None => &Vec::new(),
                    Some(v) => v.as_array().ok_or_else(|| format!("keywords.json: {name}: {kind} must be an array"))?,
                };
                for (k, instance) in list.iter().enumerate() {
                    let label = if k == 0 { kind.to_string() } else { format!("{kind}-{}", k + 1) };
                    instances.push((label, instance.clone()));
                }
            }
            let formats = if name.starts_with("format_") { Formats::Asserted } else { Formats::Default };
            Ok(Case { name: format!("keyword-{name}"), source: Source::Keywords, schema, instances, formats })
        })
        .collect()
}

/// The schema documents of the data (`openapi.json`, then
/// `subresources/*.json` by name, named `subresources-STEM`), each twice:
/// as a [`Source::Document`] case and as the `schema` instance of a
/// [`Source::Meta`] case, `meta-NAME`, whose schema is the meta-schema its
/// `$schema` names (draft 2020-12 without one). None, noted on stderr,
/// for files that are not there.
pub fn document_cases(dir: &Path) -> Result<Vec<Case>, String> {
    let mut documents = Vec::new();
    if let Some(doc) = read_optional(dir, "openapi.json")? {
        documents.push(("openapi".to_string(), doc));
    }
    let sub = dir.join("subresources");
    if sub.is_dir() {
        let mut names: Vec<String> = std::fs::read_dir(&sub)
            .map_err(|e| format!("{}: {e}", sub.display()))?
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".json"))
            .collect();
        names.sort();
        for n in names {
            let doc = read(&sub, &n)?;
            documents.push((format!("subresources-{}", n.trim_end_matches(".json")), doc));
        }
    } else {
        eprintln!("note: {} not found: no subresources rows", sub.display());
    }
    let mut out = Vec::new();
    for (name, doc) in documents {
        let uri = doc.get("$schema").and_then(Value::as_str).unwrap_or(Draft::Draft202012.meta_schema_uri());
        let meta = Draft::from_meta_schema_uri(uri)
            .and_then(metaschema::of_draft)
            .ok_or_else(|| format!("{name}: no embedded meta-schema for {uri}"))?;
        out.push(Case {
            name: format!("meta-{name}"),
            source: Source::Meta,
            schema: meta.clone(),
            instances: vec![("schema".to_string(), doc.clone())],
            formats: Formats::Default,
        });
        out.push(Case {
            name,
            source: Source::Document,
            schema: doc,
            instances: Vec::new(),
            formats: Formats::Default,
        });
    }
    Ok(out)
}

/// Every case of the data: `cases.json`, `errors.json`, then the optional
/// [`keyword_cases`] and [`document_cases`].
pub fn all_cases(dir: &Path) -> Result<Vec<Case>, String> {
    let mut all = cases(dir)?;
    all.extend(error_cases(dir)?);
    all.extend(keyword_cases(dir)?);
    all.extend(document_cases(dir)?);
    Ok(all)
}

/// [`read`], or `None` (noted on stderr) when the file is not there.
fn read_optional(dir: &Path, name: &str) -> Result<Option<Value>, String> {
    if dir.join(name).is_file() {
        read(dir, name).map(Some)
    } else {
        eprintln!("note: {} not found: no rows from it", dir.join(name).display());
        Ok(None)
    }
}

/// A validator under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Peer {
    /// This project.
    Schemavm,
    /// jsonschema-rs.
    Jsonschema,
    /// boon.
    Boon,
}

impl Peer {
    /// All peers, schemavm first; per-peer arrays follow this order.
    pub const ALL: [Peer; 3] = [Peer::Schemavm, Peer::Jsonschema, Peer::Boon];

    /// The crate name.
    pub fn name(self) -> &'static str {
        match self {
            Peer::Schemavm => "schemavm",
            Peer::Jsonschema => "jsonschema",
            Peer::Boon => "boon",
        }
    }

    /// Compiles `schema` with default options.
    pub fn compile(self, schema: &Value) -> Result<Compiled, String> {
        self.compile_with(schema, Formats::Default)
    }

    /// Compiles `schema` with default options but for `formats`.
    pub fn compile_with(self, schema: &Value, formats: Formats) -> Result<Compiled, String> {
        let asserted = formats == Formats::Asserted;
        match self {
            Peer::Schemavm => {
                let options = schemavm::Validator::options();
                let options = if asserted { options.assert_formats(true) } else { options };
                options.build(schema).map(Compiled::Schemavm).map_err(|e| e.to_string())
            }
            Peer::Jsonschema => {
                let options = jsonschema::options();
                let options = if asserted { options.should_validate_formats(true) } else { options };
                options.build(schema).map(Compiled::Jsonschema).map_err(|e| e.to_string())
            }
            Peer::Boon => {
                let mut schemas = boon::Schemas::new();
                let mut compiler = boon::Compiler::new();
                if asserted {
                    compiler.enable_format_assertions();
                }
                let loc = "http://schemavm.invalid/bench/schema.json";
                compiler.add_resource(loc, schema.clone()).map_err(|e| e.to_string())?;
                let index = compiler.compile(loc, &mut schemas).map_err(|e| e.to_string())?;
                Ok(Compiled::Boon(Box::new(schemas), index))
            }
        }
    }

    /// Compiles every schema of `schemas`, all or nothing, into a list
    /// of exactly their number.
    pub fn compile_all(self, schemas: &[Value], formats: Formats) -> Result<Vec<Compiled>, String> {
        let mut all = Vec::with_capacity(schemas.len());
        for schema in schemas {
            all.push(self.compile_with(schema, formats)?);
        }
        Ok(all)
    }

    /// The bytes one compiled schema of this peer takes in place, in the
    /// struct or list a program keeps it in (its heap bytes apart).
    pub fn validator_size(self) -> usize {
        match self {
            Peer::Schemavm => std::mem::size_of::<schemavm::Validator>(),
            Peer::Jsonschema => std::mem::size_of::<jsonschema::Validator>(),
            Peer::Boon => std::mem::size_of::<(Box<boon::Schemas>, boon::SchemaIndex)>(),
        }
    }

    /// Bytes retained by `schemas` compiled: the heap bytes they hold
    /// ([`memory::retained`]; `None` without the counting allocator) and
    /// each one's [in-place size](Peer::validator_size). The schemas are
    /// compiled once first, uncounted, so that one-time global set-up
    /// (meta-schemas and the like) and per-thread scratch buffers kept
    /// between compilations are sized already: what is counted does not
    /// depend on what the thread compiled before. The
    /// harness's list of the compiled schemas is not counted: its buffer
    /// holds a [`Compiled`] per schema, sized for the largest peer, which
    /// each peer's own size replaces.
    pub fn retained_bytes(self, schemas: &[Value], formats: Formats) -> Option<usize> {
        drop(self.compile_all(schemas, formats));
        let held = memory::retained(|| self.compile_all(schemas, formats))?;
        let list = schemas.len() * std::mem::size_of::<Compiled>();
        Some(held.saturating_sub(list) + schemas.len() * self.validator_size())
    }
}

/// A compiled schema of one of the peers.
pub enum Compiled {
    /// schemavm.
    Schemavm(schemavm::Validator),
    /// jsonschema-rs.
    Jsonschema(jsonschema::Validator),
    /// boon.
    Boon(Box<boon::Schemas>, boon::SchemaIndex),
}

impl Compiled {
    /// Whether `instance` is valid. (Not inlined: profilers measure the
    /// validators by this function's boundary.)
    #[inline(never)]
    pub fn is_valid(&self, instance: &Value) -> bool {
        match self {
            Compiled::Schemavm(v) => v.is_valid(instance),
            Compiled::Jsonschema(v) => v.is_valid(instance),
            Compiled::Boon(s, i) => s.validate(instance, *i).is_ok(),
        }
    }

    /// The number of errors reported for `instance`, all of them
    /// collected: schemavm's and jsonschema's `iter_errors`, boon's error
    /// tree (`validate`'s error path) counted by its leaves.
    #[inline(never)]
    pub fn error_count(&self, instance: &Value) -> usize {
        fn leaves(e: &boon::ValidationError<'_, '_>) -> usize {
            if e.causes.is_empty() { 1 } else { e.causes.iter().map(leaves).sum() }
        }
        match self {
            Compiled::Schemavm(v) => v.iter_errors(instance).count(),
            Compiled::Jsonschema(v) => v.iter_errors(instance).count(),
            Compiled::Boon(s, i) => s.validate(instance, *i).err().map_or(0, |e| leaves(&e)),
        }
    }
}

/// What one timed measurement runs, for one peer.
pub enum Work<'a> {
    /// `is_valid` of one instance.
    IsValid(&'a Compiled, &'a Value),
    /// All errors of one instance ([`Compiled::error_count`]).
    IterErrors(&'a Compiled, &'a Value),
    /// Compiling (and dropping) each schema.
    Compile(Peer, &'a [Value], Formats),
    /// `is_valid` of each call against its tool's validator.
    ValidateCalls(&'a [Compiled], &'a [mcp::Call]),
}

impl Work<'_> {
    /// Runs once; the result (a verdict or count) is for `black_box`.
    #[inline]
    pub fn run(&self) -> usize {
        match *self {
            Work::IsValid(v, instance) => usize::from(v.is_valid(black_box(instance))),
            Work::IterErrors(v, instance) => v.error_count(black_box(instance)),
            Work::Compile(peer, schemas, formats) => {
                schemas.iter().filter(|s| peer.compile_with(black_box(s), formats).is_ok()).count()
            }
            Work::ValidateCalls(validators, calls) => {
                calls.iter().filter(|c| validators[c.tool].is_valid(black_box(&c.arguments))).count()
            }
        }
    }
}

/// What a row measures for one peer.
pub enum Task<'a> {
    /// The time of a [`Work`].
    Time(Work<'a>),
    /// [`Peer::retained_bytes`] of schemas.
    Memory(Peer, &'a [Value], Formats),
}

/// The kind of a row (the first part of its name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `is_valid` time.
    IsValid,
    /// Time to collect all errors.
    IterErrors,
    /// Compile time.
    Compile,
    /// Heap bytes retained after compiling.
    Memory,
}

impl Kind {
    /// The row name of this kind for `case` (and `instance`).
    fn row_name(self, case: &str, instance: Option<&str>) -> String {
        let prefix = match self {
            Kind::IsValid => "is_valid",
            Kind::IterErrors => "iter_errors",
            Kind::Compile => "compile",
            Kind::Memory => "memory",
        };
        match instance {
            Some(i) => format!("{prefix}-{case}-{i}"),
            None => format!("{prefix}-{case}"),
        }
    }
}

/// One row of the table, ready to measure.
pub struct Row<'a> {
    /// The name (also the criterion group).
    pub name: String,
    /// The case (schema, or set of schemas) the row is about.
    pub case: String,
    /// The kind.
    pub kind: Kind,
    /// Whether the row counts toward the geometric mean (`is_valid` over
    /// `cases.json`).
    pub in_geomean: bool,
    /// What the peers answered (verdict, error or valid count), noting
    /// disagreements; empty for compile and memory rows.
    pub outcome: String,
    /// Per peer ([`Peer::ALL`] order); `None` when it does not compile the schema.
    pub tasks: [Option<Task<'a>>; 3],
}

impl<'a> Row<'a> {
    /// The peers with a timed task, and the work to time.
    pub fn timed(&self) -> impl Iterator<Item = (Peer, &Work<'a>)> {
        Peer::ALL.into_iter().zip(&self.tasks).filter_map(|(p, t)| match t {
            Some(Task::Time(w)) => Some((p, w)),
            _ => None,
        })
    }

    /// Measures the row: memory directly, timed work by `time`
    /// (nanoseconds per run, `None` if unknown).
    pub fn measure(&self, time: impl FnMut(Peer, &Work<'a>) -> Option<f64>) -> Line {
        self.measure_from(0, time)
    }

    /// [`Row::measure`], the peers taken in turn from the one at `first`
    /// (in [`Peer::ALL`] order, wrapping): rounds that rotate `first` give
    /// each peer every position, so none always runs just after another
    /// one has filled the caches with its own data.
    pub fn measure_from(&self, first: usize, mut time: impl FnMut(Peer, &Work<'a>) -> Option<f64>) -> Line {
        let mut values = [None; 3];
        for k in (0..Peer::ALL.len()).map(|i| (first + i) % Peer::ALL.len()) {
            values[k] = match &self.tasks[k] {
                None => None,
                Some(Task::Time(w)) => time(Peer::ALL[k], w),
                Some(Task::Memory(peer, schemas, formats)) => peer.retained_bytes(schemas, *formats).map(|b| b as f64),
            };
        }
        Line {
            name: self.name.clone(),
            kind: self.kind,
            in_geomean: self.in_geomean,
            outcome: self.outcome.clone(),
            values,
        }
    }
}

/// A measured row.
#[derive(Debug, Clone)]
pub struct Line {
    /// The row name.
    pub name: String,
    /// The kind (memory rows hold bytes, the others nanoseconds).
    pub kind: Kind,
    /// Whether it counts toward the geometric mean.
    pub in_geomean: bool,
    /// What the peers answered.
    pub outcome: String,
    /// Per peer, in [`Peer::ALL`] order.
    pub values: [Option<f64>; 3],
}

impl Line {
    /// The line of several rounds of one row, each value the median of
    /// the rounds' (the rounds that have one; `rounds` is not empty).
    pub fn median_of(mut rounds: Vec<Line>) -> Line {
        let values = std::array::from_fn(|k| {
            let mut v: Vec<f64> = rounds.iter().filter_map(|l| l.values[k]).collect();
            v.sort_by(f64::total_cmp);
            v.get(v.len() / 2).copied()
        });
        let mut line = rounds.swap_remove(0);
        line.values = values;
        line
    }
}

/// Per-peer compile results, in [`Peer::ALL`] order.
type PerPeer<T> = [Result<T, String>; 3];

/// Everything the rows measure: the data, and the validators compiled
/// once for the rows that a filter selects.
pub struct Suite {
    filter: Option<String>,
    cases: Vec<(Case, Option<PerPeer<Compiled>>)>,
    tools: Vec<Value>,
    calls: Vec<mcp::Call>,
    tool_validators: Option<PerPeer<Vec<Compiled>>>,
}

impl Suite {
    /// Loads the data in `dir` and compiles what the rows whose name
    /// contains `filter` (all rows without one) need. Compile errors are
    /// reported on stderr; such a peer has no task in the rows.
    pub fn load(dir: &Path, filter: Option<&str>) -> Result<Suite, String> {
        let wanted = |kind: Kind, case: &str, instance: Option<&str>| selects(filter, &kind.row_name(case, instance));
        let compile = |name: &str, schemas: &[Value], formats: Formats| {
            Peer::ALL.map(|p| {
                p.compile_all(schemas, formats)
                    .inspect_err(|e| eprintln!("{name}: {} does not compile the schema: {e}", p.name()))
            })
        };
        let cases = all_cases(dir)?
            .into_iter()
            .map(|case| {
                let needed = case.instances.iter().any(|(i, _)| {
                    [Kind::IsValid, Kind::IterErrors].into_iter().any(|k| wanted(k, &case.name, Some(i)))
                }) || (case.source.measures_compiling()
                    && [Kind::Compile, Kind::Memory].into_iter().any(|k| wanted(k, &case.name, None)));
                let compiled = needed.then(|| {
                    compile(&case.name, std::slice::from_ref(&case.schema), case.formats)
                        .map(|r| r.map(|mut v| v.remove(0)))
                });
                (case, compiled)
            })
            .collect();
        let tools = mcp::tools();
        let calls = mcp::calls(&tools);
        let needed = wanted(Kind::IsValid, MCP, Some(MCP_CALLS))
            || [Kind::Compile, Kind::Memory].into_iter().any(|k| wanted(k, MCP, None));
        let tool_validators = needed.then(|| compile(MCP, &tools, Formats::Default));
        Ok(Suite { filter: filter.map(str::to_string), cases, tools, calls, tool_validators })
    }

    /// The rows selected by the filter, in table order.
    pub fn rows(&self) -> Vec<Row<'_>> {
        let mut rows = Rows { filter: self.filter.as_deref(), rows: Vec::new() };
        for (case, compiled) in &self.cases {
            let Some(compiled) = compiled else { continue };
            let geomean = case.source == Source::Cases;
            for (instance_name, instance) in &case.instances {
                let at = (case.name.as_str(), Some(instance_name.as_str()));
                let verdicts = each_ok(compiled, |v| v.is_valid(instance));
                let tasks = each_ok(compiled, |v| Task::Time(Work::IsValid(v, instance)));
                rows.push(Kind::IsValid, at, geomean, outcome(&verdicts), tasks);
                if verdicts.contains(&Some(false)) {
                    let counts = each_ok(compiled, |v| match v.error_count(instance) {
                        1 => "1 error".to_string(),
                        n => format!("{n} errors"),
                    });
                    let tasks = each_ok(compiled, |v| Task::Time(Work::IterErrors(v, instance)));
                    rows.push(Kind::IterErrors, at, false, outcome(&counts), tasks);
                }
            }
            if case.source.measures_compiling() {
                rows.compile_and_memory(&case.name, compiled, std::slice::from_ref(&case.schema), case.formats);
            }
        }
        if let Some(validators) = &self.tool_validators {
            let counts = each_ok(validators, |v| {
                format!("{} calls, {} valid", self.calls.len(), Work::ValidateCalls(v, &self.calls).run())
            });
            let tasks = each_ok(validators, |v| Task::Time(Work::ValidateCalls(v, &self.calls)));
            rows.push(Kind::IsValid, (MCP, Some(MCP_CALLS)), false, outcome(&counts), tasks);
            rows.compile_and_memory(MCP, validators, &self.tools, Formats::Default);
        }
        rows.rows
    }
}

/// The case name of the MCP rows.
const MCP: &str = "mcp";
/// The instance name of the MCP `is_valid` row.
const MCP_CALLS: &str = "calls";

/// Whether a row named `name` is selected by `filter`.
fn selects(filter: Option<&str>, name: &str) -> bool {
    filter.is_none_or(|f| name.contains(f))
}

/// Rows being assembled, the filter applied.
struct Rows<'a> {
    filter: Option<&'a str>,
    rows: Vec<Row<'a>>,
}

impl<'a> Rows<'a> {
    /// Adds the row of `kind` at `(case, instance)` if the filter selects it.
    fn push(
        &mut self,
        kind: Kind,
        (case, instance): (&str, Option<&str>),
        in_geomean: bool,
        outcome: String,
        tasks: [Option<Task<'a>>; 3],
    ) {
        let name = kind.row_name(case, instance);
        if selects(self.filter, &name) {
            self.rows.push(Row { name, case: case.to_string(), kind, in_geomean, outcome, tasks });
        }
    }

    /// Adds the `compile-CASE` and `memory-CASE` rows of `schemas`, for
    /// the peers that compile them.
    fn compile_and_memory<T>(&mut self, case: &str, compiled: &PerPeer<T>, schemas: &'a [Value], formats: Formats) {
        let ok = |k: usize| compiled[k].is_ok().then_some(Peer::ALL[k]);
        let compile = std::array::from_fn(|k| ok(k).map(|p| Task::Time(Work::Compile(p, schemas, formats))));
        self.push(Kind::Compile, (case, None), false, String::new(), compile);
        let memory = std::array::from_fn(|k| ok(k).map(|p| Task::Memory(p, schemas, formats)));
        self.push(Kind::Memory, (case, None), false, String::new(), memory);
    }
}

/// Maps the peers' successful compile results.
fn each_ok<'s, T, U>(per_peer: &'s PerPeer<T>, mut f: impl FnMut(&'s T) -> U) -> [Option<U>; 3] {
    std::array::from_fn(|k| per_peer[k].as_ref().ok().map(&mut f))
}

/// The peers' answers: the most common one (the first of a tie), then in parentheses each
/// peer that answered otherwise (peers without an answer are left out).
fn outcome<T: ToString + PartialEq>(answers: &[Option<T>; 3]) -> String {
    let given: Vec<(Peer, &T)> =
        Peer::ALL.into_iter().zip(answers).filter_map(|(p, a)| Some((p, a.as_ref()?))).collect();
    let Some(&(_, common)) = given.iter().rev().max_by_key(|(_, a)| given.iter().filter(|(_, b)| b == a).count())
    else {
        return String::new();
    };
    let others: Vec<String> =
        given.iter().filter(|(_, a)| *a != common).map(|(p, a)| format!("{}: {}", p.name(), a.to_string())).collect();
    if others.is_empty() { common.to_string() } else { format!("{} ({})", common.to_string(), others.join(", ")) }
}

fn human_time(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.1} ns")
    }
}

fn human_bytes(bytes: f64) -> String {
    if bytes >= 1024.0 * 1024.0 {
        format!("{:.2} MiB", bytes / (1024.0 * 1024.0))
    } else if bytes >= 1024.0 {
        format!("{:.1} KiB", bytes / 1024.0)
    } else {
        format!("{bytes} B")
    }
}

/// Prints the markdown table of `lines` (times, bytes, and each peer's
/// ratio to schemavm), then the geometric mean of jsonschema / schemavm
/// over the `is_valid` rows of `cases.json`.
pub fn print_table(lines: &[Line]) {
    println!("\n| benchmark | outcome | schemavm | jsonschema | boon | jsonschema / schemavm | boon / schemavm |");
    println!("|---|---|---|---|---|---|---|");
    let mut log_sum = 0.0;
    let mut n = 0;
    for line in lines {
        let cell = |x: Option<f64>| match x {
            None => "—".to_string(),
            Some(x) if line.kind == Kind::Memory => human_bytes(x),
            Some(x) => human_time(x),
        };
        let [ours, js, boon] = line.values;
        let ratio = |peer: Option<f64>| match (peer, ours) {
            (Some(peer), Some(ours)) if ours > 0.0 => format!("{:.2}×", peer / ours),
            _ => "—".to_string(),
        };
        if let (true, Some(ours), Some(js)) = (line.in_geomean, ours, js) {
            log_sum += (js / ours).ln();
            n += 1;
        }
        println!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            line.name,
            line.outcome,
            cell(ours),
            cell(js),
            cell(boon),
            ratio(js),
            ratio(boon)
        );
    }
    if n > 0 {
        println!(
            "\nGeometric mean of jsonschema / schemavm over the `is_valid` cases of cases.json: {:.2}×",
            (log_sum / n as f64).exp()
        );
    }
    let compared: Vec<(&Line, f64)> = lines
        .iter()
        .filter_map(|l| match l.values {
            [Some(ours), Some(js), _] if ours > 0.0 => Some((l, js / ours)),
            _ => None,
        })
        .collect();
    let behind: Vec<String> =
        compared.iter().filter(|(_, r)| *r < 1.0).map(|(l, r)| format!("{} {r:.2}×", l.name)).collect();
    println!(
        "\nRows where schemavm is behind jsonschema: {} of {}{}{}",
        behind.len(),
        compared.len(),
        if behind.is_empty() { "" } else { ": " },
        behind.join(", ")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every peer agrees with the generator about each MCP call.
    #[test]
    fn mcp_calls_are_as_generated() {
        let tools = mcp::tools();
        let calls = mcp::calls(&tools);
        assert_eq!(calls.len(), mcp::CALLS);
        let invalid = calls.iter().filter(|c| !c.valid).count();
        assert!((50..200).contains(&invalid), "{invalid} invalid calls");
        for peer in Peer::ALL {
            let validators = peer.compile_all(&tools, Formats::Default).unwrap();
            for c in &calls {
                assert_eq!(
                    validators[c.tool].is_valid(&c.arguments),
                    c.valid,
                    "{} tool {}: {}",
                    peer.name(),
                    c.tool,
                    c.arguments
                );
            }
        }
    }

    /// The outcome names the majority answer and each dissenter.
    #[test]
    fn outcome_notes_disagreement() {
        assert_eq!(outcome(&[Some(true), Some(true), None]), "true");
        assert_eq!(outcome(&[Some(true), Some(false), Some(true)]), "true (jsonschema: false)");
        assert_eq!(outcome::<bool>(&[None, None, None]), "");
    }
}
