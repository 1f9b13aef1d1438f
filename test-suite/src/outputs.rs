//! The suite's `annotations/` tests (which annotations appear where, for
//! every draft a case is compatible with) and `output-tests/` (the
//! rendered output formats, checked against the schemas the suite gives).

use std::collections::HashMap;
use std::fs;
use std::path::Path;

use serde_json::{Map, Value};

use schemavm::compiler::pointer;
use schemavm::compiler::uri::{AbsoluteUri, percent_decode};
use schemavm::{Draft, OutputFormat, Validator, ValidatorOptions};

use crate::{DRAFTS, json_files, read_json};

/// One annotation test, for one draft.
#[derive(Debug, Clone)]
pub struct AnnotationTest {
    /// Draft directory name (`draft2020-12`) it runs as.
    pub draft_dir: &'static str,
    /// The draft.
    pub draft: Draft,
    /// File stem (`applicators`).
    pub file: String,
    /// Case index and description.
    pub case: (usize, String),
    /// Test index.
    pub index: usize,
    /// The case's schema.
    pub schema: Value,
    /// Documents the schema references, by retrieval URI.
    pub external: Vec<(String, Value)>,
    /// The instance.
    pub instance: Value,
    /// `(location, keyword, expected)`: `expected` maps schema locations
    /// (`#/properties/foo`) to the annotation they contribute.
    pub assertions: Vec<(String, String, Map<String, Value>)>,
}

/// The release number the annotation suite's `compatibility` uses for a
/// draft.
fn release(draft: Draft) -> u32 {
    match draft {
        Draft::Draft4 => 4,
        Draft::Draft6 => 6,
        Draft::Draft7 => 7,
        Draft::Draft201909 => 2019,
        _ => 2020,
    }
}

/// Whether a `compatibility` value (`"7"`, `"<=2019"`, `"6,<=2019"`,
/// `"=2020"`) admits `release`.
fn compatible(spec: Option<&str>, release: u32) -> bool {
    let Some(spec) = spec else { return true };
    spec.split(',').all(|c| {
        let c = c.trim();
        if let Some(n) = c.strip_prefix("<=") {
            n.parse().is_ok_and(|n: u32| release <= n)
        } else if let Some(n) = c.strip_prefix('=') {
            n.parse().is_ok_and(|n: u32| release == n)
        } else {
            c.parse().is_ok_and(|n: u32| release >= n)
        }
    })
}

/// Every annotation test, once per draft its case is compatible with.
pub fn annotation_tests(root: &Path) -> Result<Vec<AnnotationTest>, String> {
    let dir = root.join("annotations").join("tests");
    let mut files = Vec::new();
    json_files(&dir, &mut files)?;
    let mut out = Vec::new();
    for f in files {
        let doc = read_json(&f)?;
        let file = f.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let bad = |what: &str| format!("{}: {what}", f.display());
        let cases = doc.get("suite").and_then(Value::as_array).ok_or_else(|| bad("no suite"))?;
        for (dir_name, draft) in DRAFTS {
            for (ci, case) in cases.iter().enumerate() {
                if !compatible(case.get("compatibility").and_then(Value::as_str), release(draft)) {
                    continue;
                }
                let description = case.get("description").and_then(Value::as_str).unwrap_or("").to_string();
                let schema = case.get("schema").cloned().ok_or_else(|| bad("a case without schema"))?;
                let external: Vec<(String, Value)> = case
                    .get("externalSchemas")
                    .and_then(Value::as_object)
                    .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                    .unwrap_or_default();
                let tests = case.get("tests").and_then(Value::as_array).ok_or_else(|| bad("a case without tests"))?;
                for (ti, test) in tests.iter().enumerate() {
                    let mut assertions = Vec::new();
                    for a in test.get("assertions").and_then(Value::as_array).into_iter().flatten() {
                        let field = |k: &str| a.get(k).and_then(Value::as_str).map(str::to_string);
                        let (Some(location), Some(keyword), Some(expected)) =
                            (field("location"), field("keyword"), a.get("expected").and_then(Value::as_object))
                        else {
                            return Err(bad("a malformed assertion"));
                        };
                        assertions.push((location, keyword, expected.clone()));
                    }
                    out.push(AnnotationTest {
                        draft_dir: dir_name,
                        draft,
                        file: file.clone(),
                        case: (ci, description.clone()),
                        index: ti,
                        schema: schema.clone(),
                        external: external.clone(),
                        instance: test.get("instance").cloned().unwrap_or(Value::Null),
                        assertions,
                    });
                }
            }
        }
    }
    Ok(out)
}

impl AnnotationTest {
    /// The test's name.
    pub fn name(&self) -> String {
        format!("annotations::{}::{}::{}:{}::{}", self.draft_dir, self.file, self.case.0, self.case.1, self.index)
    }

    /// Evaluates the instance and checks every assertion: at `location`,
    /// `keyword` has exactly the expected annotations, by the location
    /// (in the schema document) of the subschema that produced each.
    pub fn run(&self) -> Result<(), String> {
        let mut options = Validator::options().draft(self.draft);
        for (uri, doc) in &self.external {
            options = options.resource(uri.clone(), doc.clone());
        }
        let v = options.build(&self.schema).map_err(|e| format!("schema did not compile: {e}"))?;
        let evaluation = v.evaluate(&self.instance).map_err(|e| e.to_string())?;
        let places = document_locations(&self.schema);
        for (location, keyword, expected) in &self.assertions {
            let mut got = Map::new();
            for a in evaluation.annotations().filter(|a| a.instance_location == location && a.keyword == keyword) {
                let at = places.get(a.schema_location).cloned().unwrap_or_else(|| a.schema_location.to_string());
                got.insert(at, a.value.clone());
            }
            let expected: Map<String, Value> =
                expected.iter().map(|(k, v)| (percent_decode(k).unwrap_or_else(|| k.clone()), v.clone())).collect();
            if got != expected {
                return Err(format!(
                    "at {location:?}, {keyword:?}: expected {}, got {}",
                    Value::Object(expected),
                    Value::Object(got)
                ));
            }
        }
        Ok(())
    }
}

/// Maps the absolute location of every subschema of a schema document
/// (`<resource URI>#<pointer in the resource>`, as the compiler names
/// nodes) to its location in the document (`#<pointer>`, unescaped as the
/// suite's expectations are once percent-decoded).
fn document_locations(schema: &Value) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let Ok(base) = AbsoluteUri::parse(schemavm::compiler::error::DEFAULT_BASE_URI) else { return out };
    // The suite's schemas are small: a stack of (value, base, pointer in
    // the document, pointer in the resource).
    let mut stack = vec![(schema, base, String::new(), String::new())];
    while let Some((value, mut base, doc, mut res)) = stack.pop() {
        let children: Vec<(String, &Value)> = match value {
            Value::Object(obj) => {
                let id = obj.get("$id").and_then(Value::as_str).filter(|id| !id.starts_with('#'));
                if let Some(Ok((uri, _))) = id.map(|id| base.resolve(id)) {
                    base = uri;
                    res = String::new();
                }
                out.insert(base.with_fragment(&res), format!("#{doc}"));
                obj.iter().map(|(k, v)| (k.clone(), v)).collect()
            }
            Value::Array(items) => items.iter().enumerate().map(|(i, v)| (i.to_string(), v)).collect(),
            _ => Vec::new(),
        };
        for (token, child) in children {
            let (mut d, mut r) = (doc.clone(), res.clone());
            pointer::push(&mut d, &token);
            pointer::push(&mut r, &token);
            stack.push((child, base.clone(), d, r));
        }
    }
    // The document's pointers as the suite writes them, unescaped.
    out.into_iter().map(|(k, v)| (k, v.replace("~1", "/").replace("~0", "~"))).collect()
}

/// One output test: an instance, and per format a schema its rendering
/// must satisfy.
#[derive(Debug, Clone)]
pub struct OutputTest {
    /// Directory (`draft2020-12`, `draft2019-09`, `v1`).
    pub dir: String,
    /// File name within `content/`.
    pub file: String,
    /// Case index and description.
    pub case: (usize, String),
    /// Test index and description.
    pub test: (usize, String),
    /// The format.
    pub format: OutputFormat,
    /// The schema under test.
    pub schema: Value,
    /// The instance.
    pub data: Value,
    /// The schema the rendered output must satisfy.
    pub expected: Value,
    /// The directory's `output-schema.json` (the expected schemas refer to it).
    pub output_schema: Value,
}

/// The output format a key of the suite's `output` objects names.
fn format_named(name: &str) -> Option<OutputFormat> {
    match name {
        "hierarchy" => Some(OutputFormat::Hierarchical),
        other => other.parse().ok(),
    }
}

/// The v1 dialect schemavm does not implement; its tests run as 2020-12.
const V1: &str = "https://json-schema.org/v1";
const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// Replaces every `"$schema": V1` by 2020-12.
fn as_2020_12(value: &mut Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(obj) => {
                if obj.get("$schema").and_then(Value::as_str) == Some(V1) {
                    obj.insert("$schema".into(), Value::String(DRAFT_2020_12.into()));
                }
                stack.extend(obj.values_mut());
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

/// Every output test, once per format it names.
pub fn output_tests(root: &Path) -> Result<Vec<OutputTest>, String> {
    let base = root.join("output-tests");
    let mut dirs: Vec<String> = fs::read_dir(&base)
        .map_err(|e| format!("{}: {e}", base.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    let mut out = Vec::new();
    for dir in dirs {
        let mut output_schema = read_json(&base.join(&dir).join("output-schema.json"))?;
        as_2020_12(&mut output_schema);
        let mut files = Vec::new();
        json_files(&base.join(&dir).join("content"), &mut files)?;
        for f in files {
            let file = f.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let bad = |what: &str| format!("{}: {what}", f.display());
            let mut doc = read_json(&f)?;
            as_2020_12(&mut doc);
            for (ci, case) in doc.as_array().ok_or_else(|| bad("not an array"))?.iter().enumerate() {
                let text = |v: &Value| v.get("description").and_then(Value::as_str).unwrap_or("").to_string();
                let schema = case.get("schema").cloned().ok_or_else(|| bad("a case without schema"))?;
                let tests = case.get("tests").and_then(Value::as_array).ok_or_else(|| bad("a case without tests"))?;
                for (ti, test) in tests.iter().enumerate() {
                    let outputs = test.get("output").and_then(Value::as_object).ok_or_else(|| bad("no output"))?;
                    for (name, expected) in outputs {
                        let format = format_named(name).ok_or_else(|| bad("an unknown output format"))?;
                        out.push(OutputTest {
                            dir: dir.clone(),
                            file: file.clone(),
                            case: (ci, text(case)),
                            test: (ti, text(test)),
                            format,
                            schema: schema.clone(),
                            data: test.get("data").cloned().unwrap_or(Value::Null),
                            expected: expected.clone(),
                            output_schema: output_schema.clone(),
                        });
                    }
                }
            }
        }
    }
    Ok(out)
}

impl OutputTest {
    /// The test's name.
    pub fn name(&self) -> String {
        format!(
            "output::{}::{}::{}:{}::{}:{}::{}",
            self.dir,
            self.file,
            self.case.0,
            self.case.1,
            self.test.0,
            self.test.1,
            self.format.name()
        )
    }

    /// Renders the evaluation in the format and validates it against the
    /// expected schema.
    pub fn run(&self) -> Result<(), String> {
        let v = Validator::new(&self.schema).map_err(|e| format!("schema did not compile: {e}"))?;
        let output = v.evaluate(&self.data).map_err(|e| e.to_string())?.render(self.format);
        let id = self.output_schema.get("$id").and_then(Value::as_str).unwrap_or_default();
        let checker = ValidatorOptions::default()
            .resource(id, self.output_schema.clone())
            .build(&self.expected)
            .map_err(|e| format!("the expected schema did not compile: {e}"))?;
        let errors: Vec<String> = checker.iter_errors(&output).map(|e| e.to_string()).collect();
        if errors.is_empty() { Ok(()) } else { Err(format!("output {output} does not match: {errors:?}")) }
    }
}

#[cfg(test)]
mod tests {
    use super::compatible;

    #[test]
    fn compatibility() {
        assert!(compatible(None, 4));
        assert!(compatible(Some("7"), 2019) && !compatible(Some("7"), 6));
        assert!(compatible(Some("6,<=2019"), 2019) && !compatible(Some("6,<=2019"), 2020));
        assert!(compatible(Some("=2020"), 2020) && !compatible(Some("=2020"), 2019));
        assert!(!compatible(Some("9999"), 2020));
    }
}
