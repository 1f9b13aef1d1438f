//! Evaluations and the standard output formats.
//!
//! [`Validator::evaluate`](crate::Validator::evaluate) runs the schema
//! recording an output unit per subschema evaluation (evaluation path,
//! schema location, instance location, validity, its keywords' errors and
//! annotations) and returns an [`Evaluation`], which renders:
//!
//! * the JSON Schema 2020-12 formats [`flag`](OutputFormat::Flag),
//!   [`basic`](OutputFormat::Basic), [`detailed`](OutputFormat::Detailed)
//!   and [`verbose`](OutputFormat::Verbose) (`keywordLocation`,
//!   `absoluteKeywordLocation`, `instanceLocation`, `error` / `annotation`
//!   per keyword);
//! * the newer [`list`](OutputFormat::List) and
//!   [`hierarchical`](OutputFormat::Hierarchical) formats
//!   (`evaluationPath`, `schemaLocation`, `instanceLocation`, and
//!   `errors` / `annotations` / `droppedAnnotations` objects keyed by
//!   keyword).
//!
//! Annotations of a subschema that failed, or that sits inside one that
//! failed, are dropped ([`Evaluation::annotations`] lists the rest).
//!
//! The units are kept in a flat list and the nested formats are built
//! bottom-up from it, so nothing here recurses; the rendered
//! `serde_json::Value` is as deep as the evaluation was, which the
//! budget's depth and stack limits bound.

use std::fmt;
use std::str::FromStr;

use serde_json::{Map, Value, json};

use crate::error::{Exhausted, ValidationError};
use crate::vm::output::Unit;
use crate::{MessageOptions, Validator};

/// The output formats an [`Evaluation`] renders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OutputFormat {
    /// `{"valid": bool}`.
    Flag,
    /// 2020-12 `basic`: the errors (or annotations) as one flat list.
    Basic,
    /// 2020-12 `detailed`: the failing (or annotating) subschemas as a
    /// tree, a subschema with a single entry replaced by it.
    Detailed,
    /// 2020-12 `verbose`: every subschema evaluated, as a tree (below a
    /// subschema that failed, the ones the compiler memoizes are checked
    /// without units of their own; their errors are the failed one's).
    Verbose,
    /// `list`: one unit per subschema with errors or annotations, keyed
    /// by keyword.
    List,
    /// `hierarchical`: the `list` units nested as the evaluation was.
    Hierarchical,
}

impl OutputFormat {
    /// Every format, in the order the CLI lists them.
    pub const ALL: [OutputFormat; 6] = [
        OutputFormat::Flag,
        OutputFormat::Basic,
        OutputFormat::Detailed,
        OutputFormat::Verbose,
        OutputFormat::List,
        OutputFormat::Hierarchical,
    ];

    /// The format's name (`"basic"`).
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Flag => "flag",
            OutputFormat::Basic => "basic",
            OutputFormat::Detailed => "detailed",
            OutputFormat::Verbose => "verbose",
            OutputFormat::List => "list",
            OutputFormat::Hierarchical => "hierarchical",
        }
    }
}

impl FromStr for OutputFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        OutputFormat::ALL.into_iter().find(|f| f.name() == s).ok_or_else(|| format!("unknown output format {s:?}"))
    }
}

/// An evaluation that stopped before a verdict: neither valid nor
/// invalid, so it has no standard output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetExceeded {
    /// What ran out.
    pub reason: Exhausted,
    /// Fuel used before stopping.
    pub fuel_used: u64,
}

impl fmt::Display for BudgetExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not evaluated: {} after {} units of fuel", self.reason, self.fuel_used)
    }
}

impl std::error::Error for BudgetExceeded {}

/// One annotation kept by an evaluation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Annotation<'a> {
    /// The instance location (a JSON Pointer).
    pub instance_location: &'a str,
    /// The evaluation path of the subschema (a JSON Pointer, through
    /// references).
    pub evaluation_path: &'a str,
    /// The subschema's absolute location (`<URI>#<pointer>`).
    pub schema_location: &'a str,
    /// The annotating keyword.
    pub keyword: &'a str,
    /// The annotation.
    pub value: &'a Value,
}

/// The result of [`Validator::evaluate`]: the verdict and every output
/// unit, renderable in the standard formats.
#[derive(Debug, Clone)]
pub struct Evaluation {
    validator: Validator,
    valid: bool,
    units: Vec<Unit>,
    /// Per unit: it and every enclosing unit passed (its annotations are
    /// kept) / failed (its errors explain the verdict).
    kept: Vec<bool>,
    explains: Vec<bool>,
}

impl Evaluation {
    pub(crate) fn new(validator: Validator, valid: bool, mut units: Vec<Unit>, messages: MessageOptions) -> Evaluation {
        let mut kept = Vec::with_capacity(units.len());
        let mut explains = Vec::with_capacity(units.len());
        for unit in &mut units {
            for e in &mut unit.errors {
                e.0.options = messages;
            }
            // Parents come first, so theirs are known.
            let (k, x) = match unit.parent {
                Some(p) => (kept.get(p).copied().unwrap_or(false), explains.get(p).copied().unwrap_or(false)),
                None => (true, true),
            };
            kept.push(k && unit.valid);
            explains.push(x && !unit.valid);
        }
        Evaluation { validator, valid, units, kept, explains }
    }

    /// Whether the instance is valid.
    pub fn is_valid(&self) -> bool {
        self.valid
    }

    /// The errors that explain an invalid verdict (those of failing
    /// subschemas whose enclosing subschemas all failed too), in
    /// evaluation order; none for a valid instance.
    pub fn errors(&self) -> impl Iterator<Item = &ValidationError> {
        self.units.iter().zip(&self.explains).filter(|(_, x)| **x).flat_map(|(u, _)| u.errors.iter())
    }

    /// The annotations kept: those of subschemas that passed, inside
    /// subschemas that all passed, in evaluation order.
    pub fn annotations(&self) -> impl Iterator<Item = Annotation<'_>> {
        self.units.iter().zip(&self.kept).filter(|(_, k)| **k).flat_map(|(u, _)| self.unit_annotations(u))
    }

    /// Renders the evaluation in `format`.
    pub fn render(&self, format: OutputFormat) -> Value {
        match format {
            OutputFormat::Flag => json!({"valid": self.is_valid()}),
            OutputFormat::Basic => self.basic(),
            OutputFormat::Detailed => self.tree(true),
            OutputFormat::Verbose => self.tree(false),
            OutputFormat::List => self.list(),
            OutputFormat::Hierarchical => self.hierarchical(),
        }
    }

    /// Every annotation of one unit (static ones first), whether kept or
    /// not.
    fn unit_annotations<'a>(&'a self, u: &'a Unit) -> impl Iterator<Item = Annotation<'a>> {
        let program = self.validator.program();
        let schema_location = program.location(u.node);
        let statics = program
            .annotations(u.node)
            .iter()
            .filter(|a| u.string_instance || !a.strings_only)
            .map(|a| (&*a.keyword, &a.value));
        let dynamics = u.annotations.iter().map(|(k, v)| (*k, v));
        statics.chain(dynamics).map(move |(keyword, value)| Annotation {
            instance_location: &u.instance_location,
            evaluation_path: &u.evaluation_path,
            schema_location,
            keyword,
            value,
        })
    }

    /// The children of every unit, in order.
    fn children(&self) -> Vec<Vec<usize>> {
        let mut children = vec![Vec::new(); self.units.len()];
        for (i, u) in self.units.iter().enumerate() {
            if let Some(list) = u.parent.and_then(|p| children.get_mut(p)) {
                list.push(i);
            }
        }
        children
    }

    fn basic(&self) -> Value {
        let mut out = Map::new();
        out.insert("valid".into(), Value::Bool(self.is_valid()));
        if self.is_valid() {
            let list: Vec<Value> = self.annotations().map(annotation_leaf).collect();
            if !list.is_empty() {
                out.insert("annotations".into(), Value::Array(list));
            }
        } else {
            out.insert("errors".into(), Value::Array(self.errors().map(error_leaf).collect()));
        }
        Value::Object(out)
    }

    /// `detailed` (`condensed`) or `verbose`, built bottom-up.
    fn tree(&self, condensed: bool) -> Value {
        let children = self.children();
        let mut built: Vec<Option<Value>> = vec![None; self.units.len()];
        for i in (0..self.units.len()).rev() {
            let (Some(u), Some(kids)) = (self.units.get(i), children.get(i)) else { continue };
            let mut entries: Vec<Value> = if u.valid {
                if self.kept.get(i) == Some(&true) {
                    self.unit_annotations(u).map(annotation_leaf).collect()
                } else {
                    Vec::new()
                }
            } else {
                u.errors.iter().map(error_leaf).collect()
            };
            let leaves = entries.len();
            for &c in kids {
                let same = self.units.get(c).is_some_and(|cu| cu.valid == u.valid);
                if let Some(v) = built.get_mut(c).and_then(Option::take).filter(|_| same || !condensed) {
                    entries.push(v);
                }
            }
            let root = i == 0;
            let value = if condensed && !root && leaves == 0 && entries.len() <= 1 {
                entries.pop()
            } else {
                let mut unit = Map::new();
                unit.insert("valid".into(), Value::Bool(u.valid));
                unit.insert("keywordLocation".into(), Value::String(u.evaluation_path.clone()));
                unit.insert("absoluteKeywordLocation".into(), Value::String(self.location(u).to_string()));
                unit.insert("instanceLocation".into(), Value::String(u.instance_location.clone()));
                if !entries.is_empty() || !u.valid {
                    let key = if u.valid { "annotations" } else { "errors" };
                    unit.insert(key.into(), Value::Array(entries));
                }
                Some(Value::Object(unit))
            };
            if let Some(slot) = built.get_mut(i) {
                *slot = value;
            }
        }
        built.into_iter().next().flatten().unwrap_or_else(|| json!({"valid": self.is_valid()}))
    }

    fn list(&self) -> Value {
        let mut details = Vec::new();
        for (i, u) in self.units.iter().enumerate() {
            let (unit, extra) = self.list_unit(u);
            if i == 0 || has_content(&unit) {
                details.push(Value::Object(unit));
            }
            details.extend(extra.into_iter().map(Value::Object));
        }
        json!({"valid": self.is_valid(), "details": details})
    }

    fn hierarchical(&self) -> Value {
        let children = self.children();
        let mut built: Vec<Option<Map<String, Value>>> = vec![None; self.units.len()];
        for i in (0..self.units.len()).rev() {
            let (Some(u), Some(kids)) = (self.units.get(i), children.get(i)) else { continue };
            let (mut unit, extra) = self.list_unit(u);
            let mut details: Vec<Value> = extra.into_iter().map(Value::Object).collect();
            details.extend(kids.iter().filter_map(|&c| built.get_mut(c).and_then(Option::take)).map(Value::Object));
            if !details.is_empty() {
                unit.insert("details".into(), Value::Array(details));
            }
            if let Some(slot) = built.get_mut(i).filter(|_| i == 0 || has_content(&unit)) {
                *slot = Some(unit);
            }
        }
        match built.into_iter().next().flatten() {
            Some(root) => Value::Object(root),
            None => json!({"valid": self.is_valid()}),
        }
    }

    /// A unit in the `list`/`hierarchical` shape, and the units made for
    /// errors its keywords reported about other instance locations or
    /// deeper subschemas (a `false` schema under `additionalProperties`
    /// checked in place, `propertyNames`).
    fn list_unit(&self, u: &Unit) -> (Map<String, Value>, Vec<Map<String, Value>>) {
        let head = |evaluation_path: &str, schema_location: &str, instance_location: &str| {
            let mut m = Map::new();
            m.insert("valid".into(), Value::Bool(u.valid));
            m.insert("evaluationPath".into(), Value::String(evaluation_path.to_string()));
            m.insert("schemaLocation".into(), Value::String(schema_location.to_string()));
            m.insert("instanceLocation".into(), Value::String(instance_location.to_string()));
            m
        };
        let mut unit = head(&u.evaluation_path, self.location(u), &u.instance_location);
        let mut own = Map::new();
        let mut extra: Vec<Map<String, Value>> = Vec::new();
        for e in &u.errors {
            let (elsewhere, keyword) = error_place(u, e);
            match elsewhere {
                None => add_error(&mut own, keyword, e.message()),
                Some((path, location, pointer)) => {
                    let mut errors = Map::new();
                    add_error(&mut errors, keyword, e.message());
                    let mut m = head(path, location, &pointer);
                    m.insert("errors".into(), Value::Object(errors));
                    extra.push(m);
                }
            }
        }
        if !own.is_empty() {
            unit.insert("errors".into(), Value::Object(own));
        }
        let annotations: Map<String, Value> =
            self.unit_annotations(u).map(|a| (a.keyword.to_string(), a.value.clone())).collect();
        if !annotations.is_empty() {
            let key = if u.valid { "annotations" } else { "droppedAnnotations" };
            unit.insert(key.into(), Value::Object(annotations));
        }
        (unit, extra)
    }

    fn location<'a>(&'a self, u: &Unit) -> &'a str {
        self.validator.program().location(u.node)
    }
}

/// Where an error of unit `u` goes in the `list` shape: under its keyword
/// in `u` itself, or in a unit of its own (evaluation path, schema
/// location, instance location) when it is about another instance
/// location or a deeper subschema (a `false` schema checked in place, a
/// `propertyNames` error). A `false` schema's error is keyed `false`.
fn error_place<'e>(u: &Unit, e: &'e ValidationError) -> (Option<(&'e str, &'e str, String)>, &'e str) {
    let path = e.keyword_location();
    let absolute = e.absolute_keyword_location();
    let relative = path.strip_prefix(u.evaluation_path.as_str()).unwrap_or_default();
    let pointer = e.instance_location().to_pointer();
    let here = pointer == u.instance_location;
    match relative.strip_prefix('/') {
        None if here => (None, "false"),
        Some(k) if here && !k.contains('/') => (None, k),
        Some(rest) if rest.contains('/') => {
            let k = rest.rsplit('/').next().unwrap_or_default();
            let cut = |s: &'e str| s.get(..s.len().saturating_sub(k.len() + 1)).unwrap_or_default();
            (Some((cut(path), cut(absolute), pointer)), k)
        }
        _ => (Some((path, absolute, pointer)), "false"),
    }
}

/// Whether a `list`-shaped unit says more than where it is.
fn has_content(unit: &Map<String, Value>) -> bool {
    ["errors", "annotations", "droppedAnnotations", "details"].iter().any(|k| unit.contains_key(*k))
}

/// Adds an error message under `keyword` (several are joined by `; `).
fn add_error(errors: &mut Map<String, Value>, keyword: &str, text: String) {
    match errors.get_mut(keyword) {
        Some(Value::String(s)) => {
            s.push_str("; ");
            s.push_str(&text);
        }
        _ => {
            errors.insert(keyword.to_string(), Value::String(text));
        }
    }
}

/// A keyword error as a 2020-12 output unit.
fn error_leaf(e: &ValidationError) -> Value {
    json!({
        "valid": false,
        "keywordLocation": e.keyword_location(),
        "absoluteKeywordLocation": e.absolute_keyword_location(),
        "instanceLocation": e.instance_location().to_pointer(),
        "error": e.message(),
    })
}

/// An annotation as a 2020-12 output unit.
fn annotation_leaf(a: Annotation<'_>) -> Value {
    json!({
        "valid": true,
        "keywordLocation": format!("{}/{}", a.evaluation_path, escape(a.keyword)),
        "absoluteKeywordLocation": format!("{}/{}", a.schema_location, escape(a.keyword)),
        "instanceLocation": a.instance_location,
        "annotation": a.value,
    })
}

fn escape(keyword: &str) -> std::borrow::Cow<'_, str> {
    schemavm_compiler::pointer::escape(keyword)
}
