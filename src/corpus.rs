//! The malicious-schema corpus: hostile schema/instance pairs with the
//! outcome class each must produce, run by `schemavm corpus DIR` and by
//! the test suite.
//!
//! A case is a JSON file:
//!
//! ```json
//! {
//!   "description": "60-level allOf chain, each level referencing the next twice",
//!   "schema": {"$defs": {"$generate": "object", "count": 60, "key": "l{i}",
//!                         "template": {"allOf": [{"$ref": "#/$defs/l{i+1}"}, {"$ref": "#/$defs/l{i+1}"}]}}},
//!   "instance": 1,
//!   "options": {"draft": "2020-12", "assert_formats": true},
//!   "expect": {"outcome": "valid"}
//! }
//! ```
//!
//! `expect.outcome` is `valid`, `invalid`, `compile_error` (optionally with
//! `kind`, e.g. `LimitExceeded`, and `limit`, e.g. `max_schema_depth`) or
//! `budget_exceeded` (optionally with `reason`: `Fuel`, `Deadline`,
//! `Depth`, `Regex`).
//!
//! Large or deep values are written as generators, expanded without
//! recursion:
//!
//! * `{"$generate": "nest", "depth": N, "template": T, "leaf": L}`: `L`
//!   wrapped `N` times in `T`, whose `{"$hole": true}` marks the spot;
//! * `{"$generate": "array", "count": N, "template": T}`: `N` copies of `T`;
//! * `{"$generate": "object", "count": N, "key": "k{i}", "template": T,
//!   "extra": {...}}`: `N` members, plus the `extra` ones;
//! * `{"$generate": "string", "unit": "ab", "count": N, "prefix": "", "suffix": ""}`.
//!
//! In templates, the strings `{i}` and `{i+1}` (in keys and values) become
//! the copy's index and the next index.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use crate::{CompileErrorKind, Draft, ErrorKind, Exhausted, Validator};

/// One corpus case, loaded and expanded.
#[derive(Debug)]
pub struct Case {
    /// File name without extension.
    pub name: String,
    /// What the case exercises.
    pub description: String,
    schema: Value,
    instance: Value,
    draft: Option<Draft>,
    assert_formats: Option<bool>,
    /// The expected outcome class.
    pub expect: Outcome,
}

/// The class of a case's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The instance is valid.
    Valid,
    /// The instance is invalid.
    Invalid,
    /// The schema is rejected; `kind` (and for limits, `limit`) if given.
    CompileError {
        /// The `CompileErrorKind` variant name.
        kind: Option<String>,
        /// For `LimitExceeded`, the limit's name.
        limit: Option<String>,
    },
    /// Validation stopped on its budget; the reason, if given.
    BudgetExceeded {
        /// `Fuel`, `Deadline`, `Depth` or `Regex`.
        reason: Option<String>,
    },
}

impl Outcome {
    /// Whether an actual outcome satisfies this expectation.
    pub fn admits(&self, actual: &Outcome) -> bool {
        match (self, actual) {
            (Outcome::CompileError { kind, limit }, Outcome::CompileError { kind: k, limit: l }) => {
                (kind.is_none() || kind == k) && (limit.is_none() || limit == l)
            }
            (Outcome::BudgetExceeded { reason }, Outcome::BudgetExceeded { reason: r }) => {
                reason.is_none() || reason == r
            }
            _ => self == actual,
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Valid => f.write_str("valid"),
            Outcome::Invalid => f.write_str("invalid"),
            Outcome::CompileError { kind, limit } => {
                f.write_str("compile_error")?;
                if let Some(k) = kind {
                    write!(f, " {k}")?;
                }
                if let Some(l) = limit {
                    write!(f, " ({l})")?;
                }
                Ok(())
            }
            Outcome::BudgetExceeded { reason } => {
                f.write_str("budget_exceeded")?;
                if let Some(r) = reason {
                    write!(f, " {r}")?;
                }
                Ok(())
            }
        }
    }
}

/// The result of running one case.
#[derive(Debug)]
pub struct Report {
    /// The case name.
    pub name: String,
    /// What happened.
    pub actual: Outcome,
    /// What was expected.
    pub expected: Outcome,
    /// Compile plus validate time.
    pub elapsed: Duration,
    /// The first line of the error or verdict detail.
    pub detail: String,
}

impl Report {
    /// Whether the outcome matched.
    pub fn passed(&self) -> bool {
        self.expected.admits(&self.actual)
    }
}

/// Loads every `*.json` case of a directory, sorted by name.
pub fn load_dir(dir: &Path) -> Result<Vec<Case>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files.iter().map(|f| load(f)).collect()
}

/// Loads one case file.
pub fn load(path: &Path) -> Result<Case, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let raw: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let at = |what: &str| format!("{}: {what}", path.display());
    let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let description = raw.get("description").and_then(Value::as_str).unwrap_or("").to_string();
    let schema = expand(raw.get("schema").ok_or_else(|| at("no \"schema\""))?).map_err(|e| at(&e))?;
    let instance = expand(raw.get("instance").ok_or_else(|| at("no \"instance\""))?).map_err(|e| at(&e))?;
    let options = raw.get("options");
    let draft = match options.and_then(|o| o.get("draft")).and_then(Value::as_str) {
        Some(d) => Some(Draft::from_short_name(d).ok_or_else(|| at("unknown draft"))?),
        None => None,
    };
    let assert_formats = options.and_then(|o| o.get("assert_formats")).and_then(Value::as_bool);
    let expect = parse_expect(raw.get("expect").ok_or_else(|| at("no \"expect\""))?).map_err(|e| at(&e))?;
    Ok(Case { name, description, schema, instance, draft, assert_formats, expect })
}

fn parse_expect(v: &Value) -> Result<Outcome, String> {
    let field = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    match field("outcome").as_deref() {
        Some("valid") => Ok(Outcome::Valid),
        Some("invalid") => Ok(Outcome::Invalid),
        Some("compile_error") => Ok(Outcome::CompileError { kind: field("kind"), limit: field("limit") }),
        Some("budget_exceeded") => Ok(Outcome::BudgetExceeded { reason: field("reason") }),
        other => Err(format!("unknown expected outcome {other:?}")),
    }
}

impl Case {
    /// The validator options the case asks for.
    fn options(&self) -> crate::ValidatorOptions {
        let mut options = Validator::options();
        if let Some(d) = self.draft {
            options = options.draft(d);
        }
        if let Some(a) = self.assert_formats {
            options = options.assert_formats(a);
        }
        options
    }

    /// Checks that [`Validator::evaluate`] under `budget` agrees with
    /// [`Validator::outcome`] (a budget outcome is always allowed: an
    /// evaluation costs more) and that its output renders. Schemas that do
    /// not compile pass.
    pub fn check_evaluate(&self, budget: &crate::Budget) -> Result<(), String> {
        let Ok(v) = self.options().build(&self.schema) else { return Ok(()) };
        let evaluation = match v.evaluate_with(&self.instance, budget) {
            Ok(e) => e,
            Err(_) => return Ok(()),
        };
        let verdict = v.outcome_with(&self.instance, budget);
        let agrees = match verdict {
            crate::Outcome::Valid => evaluation.is_valid(),
            crate::Outcome::Invalid => !evaluation.is_valid(),
            crate::Outcome::BudgetExceeded { .. } => true,
        };
        if !agrees {
            return Err(format!(
                "{}: evaluate says valid={}, outcome is {verdict:?}",
                self.name,
                evaluation.is_valid()
            ));
        }
        for format in [crate::OutputFormat::Basic, crate::OutputFormat::Hierarchical] {
            dismantle(evaluation.render(format));
        }
        Ok(())
    }

    /// Compiles and validates, timing both.
    pub fn run(self) -> Report {
        let start = Instant::now();
        let (actual, detail) = match self.options().build(&self.schema) {
            Err(e) => {
                let (kind, limit) = compile_error_class(e.kind());
                (Outcome::CompileError { kind: Some(kind), limit }, e.to_string())
            }
            Ok(v) => {
                let fast = v.is_valid(&self.instance);
                match v.validate(&self.instance) {
                    Ok(()) if fast => (Outcome::Valid, "valid".to_string()),
                    Ok(()) => (Outcome::Invalid, "is_valid and validate disagree".to_string()),
                    Err(e) => match e.kind() {
                        ErrorKind::BudgetExceeded { reason, .. } => {
                            (Outcome::BudgetExceeded { reason: Some(exhausted_name(*reason)) }, e.to_string())
                        }
                        _ if fast => (Outcome::Valid, format!("is_valid and validate disagree: {e}")),
                        _ => (Outcome::Invalid, e.to_string()),
                    },
                }
            }
        };
        let elapsed = start.elapsed();
        let name = self.name.clone();
        let expected = self.expect.clone();
        self.discard();
        let detail = detail.lines().next().unwrap_or("").chars().take(160).collect();
        Report { name, actual, expected, elapsed, detail }
    }

    /// Drops the case without recursing into its (possibly very deep)
    /// schema and instance.
    pub fn discard(self) {
        dismantle(self.schema);
        dismantle(self.instance);
    }
}

fn compile_error_class(kind: &CompileErrorKind) -> (String, Option<String>) {
    let name = format!("{kind:?}");
    let variant = name.split([' ', '{', '(']).next().unwrap_or("").to_string();
    let limit = match kind {
        CompileErrorKind::LimitExceeded { limit, .. } => Some(limit.to_string()),
        _ => None,
    };
    (variant, limit)
}

fn exhausted_name(e: Exhausted) -> String {
    format!("{e:?}")
}

/// Expands `$generate` objects (see the module docs) anywhere in `v`.
pub fn expand(v: &Value) -> Result<Value, String> {
    match v {
        Value::Object(map) if map.contains_key("$generate") => generate(map),
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, x) in map {
                out.insert(k.clone(), expand(x)?);
            }
            Ok(Value::Object(out))
        }
        Value::Array(items) => items.iter().map(expand).collect::<Result<Vec<_>, _>>().map(Value::Array),
        other => Ok(other.clone()),
    }
}

fn generate(spec: &Map<String, Value>) -> Result<Value, String> {
    let count = |k: &str| spec.get(k).and_then(Value::as_u64).map(|n| n as usize).ok_or(format!("generator needs {k}"));
    let template = || spec.get("template").ok_or("generator needs template".to_string()).and_then(expand);
    let text = |k: &str| spec.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    match spec.get("$generate").and_then(Value::as_str) {
        Some("nest") => {
            let template = template()?;
            let mut current = expand(spec.get("leaf").unwrap_or(&Value::Bool(true)))?;
            for _ in 0..count("depth")? {
                let mut wrapper = template.clone();
                if !fill_hole(&mut wrapper, &mut current) {
                    return Err("nest template has no {\"$hole\": true}".into());
                }
                current = wrapper;
            }
            Ok(current)
        }
        Some("array") => {
            let template = template()?;
            Ok(Value::Array((0..count("count")?).map(|i| substitute(&template, i)).collect()))
        }
        Some("object") => {
            let template = template()?;
            let key = text("key");
            let mut map = Map::new();
            for i in 0..count("count")? {
                map.insert(substitute_str(&key, i), substitute(&template, i));
            }
            if let Some(Value::Object(extra)) = spec.get("extra") {
                for (k, v) in extra {
                    map.insert(k.clone(), expand(v)?);
                }
            }
            Ok(Value::Object(map))
        }
        Some("string") => {
            let unit = text("unit");
            Ok(Value::String(format!("{}{}{}", text("prefix"), unit.repeat(count("count")?), text("suffix"))))
        }
        other => Err(format!("unknown generator {other:?}")),
    }
}

/// Replaces the `{"$hole": true}` in `template` (a small, shallow value)
/// with `filling`.
fn fill_hole(template: &mut Value, filling: &mut Value) -> bool {
    let mut stack = vec![template];
    while let Some(v) = stack.pop() {
        if v.get("$hole") == Some(&Value::Bool(true)) {
            *v = std::mem::take(filling);
            return true;
        }
        match v {
            Value::Object(map) => stack.extend(map.values_mut()),
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
    false
}

fn substitute_str(s: &str, i: usize) -> String {
    s.replace("{i+1}", &(i + 1).to_string()).replace("{i}", &i.to_string())
}

fn substitute(template: &Value, i: usize) -> Value {
    match template {
        Value::String(s) => Value::String(substitute_str(s, i)),
        Value::Array(items) => Value::Array(items.iter().map(|x| substitute(x, i)).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (substitute_str(k, i), substitute(v, i))).collect())
        }
        other => other.clone(),
    }
}

/// Drops a value of any depth without recursing (serde_json's own `Drop`
/// recurses, which overflows the stack on very deep values).
pub fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}
