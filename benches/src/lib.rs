//! Shared pieces of the benchmarks: where the benchmark data is, the
//! cases it lists, and the three validators behind one interface.
//!
//! The data is found through `SCHEMAVM_BENCH_DATA`, else a
//! `benches/bench-data` checkout, else `../shared/bench-data` beside the
//! repository.

use std::path::{Path, PathBuf};

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

/// One schema and the instances to validate against it.
#[derive(Debug)]
pub struct Case {
    /// Short name (e.g. `swagger`).
    pub name: String,
    /// The schema.
    pub schema: Value,
    /// `(name, instance)` pairs.
    pub instances: Vec<(String, Value)>,
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
            Ok(Case { name, schema, instances })
        })
        .collect()
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
    /// All peers, schemavm first.
    pub const ALL: [Peer; 3] = [Peer::Schemavm, Peer::Jsonschema, Peer::Boon];

    /// The crate name.
    pub fn name(self) -> &'static str {
        match self {
            Peer::Schemavm => "schemavm",
            Peer::Jsonschema => "jsonschema",
            Peer::Boon => "boon",
        }
    }

    /// Compiles `schema`; the result answers `is_valid`.
    pub fn compile(self, schema: &Value) -> Result<Compiled, String> {
        match self {
            Peer::Schemavm => schemavm::Validator::new(schema).map(Compiled::Schemavm).map_err(|e| e.to_string()),
            Peer::Jsonschema => jsonschema::validator_for(schema).map(Compiled::Jsonschema).map_err(|e| e.to_string()),
            Peer::Boon => {
                let mut schemas = boon::Schemas::new();
                let mut compiler = boon::Compiler::new();
                let loc = "http://schemavm.invalid/bench/schema.json";
                compiler.add_resource(loc, schema.clone()).map_err(|e| e.to_string())?;
                let index = compiler.compile(loc, &mut schemas).map_err(|e| e.to_string())?;
                Ok(Compiled::Boon(Box::new(schemas), index))
            }
        }
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

    /// The number of errors reported for `instance`.
    #[inline]
    pub fn error_count(&self, instance: &Value) -> usize {
        match self {
            Compiled::Schemavm(v) => v.iter_errors(instance).count(),
            Compiled::Jsonschema(v) => v.iter_errors(instance).count(),
            Compiled::Boon(s, i) => match s.validate(instance, *i) {
                Ok(()) => 0,
                Err(e) => e.causes.len().max(1),
            },
        }
    }
}
