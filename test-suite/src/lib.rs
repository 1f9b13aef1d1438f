//! Loading the official JSON-Schema-Test-Suite: where it is, its remote
//! documents, and its test files, grouped by draft and part.
//!
//! The suite is found through `JSON_SCHEMA_TEST_SUITE`, else a
//! `test-suite/JSON-Schema-Test-Suite` checkout (a git submodule), else
//! `../shared/JSON-Schema-Test-Suite` beside the repository. The
//! `annotations/` and `output-tests/` parts are in [`outputs`].

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use schemavm::{Draft, ValidatorOptions};

/// How to get the suite when it is missing.
pub const HOW_TO_GET_IT: &str = "the official JSON-Schema-Test-Suite was not found: run \
`git submodule update --init test-suite/JSON-Schema-Test-Suite`, or set JSON_SCHEMA_TEST_SUITE \
to a checkout of https://github.com/json-schema-org/JSON-Schema-Test-Suite";

/// The suite's root directory, if one of the known places has it.
pub fn locate() -> Result<PathBuf, String> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut candidates = Vec::new();
    if let Some(p) = std::env::var_os("JSON_SCHEMA_TEST_SUITE") {
        candidates.push(PathBuf::from(p));
    }
    candidates.push(here.join("JSON-Schema-Test-Suite"));
    candidates.push(here.join("../../shared/JSON-Schema-Test-Suite"));
    candidates.into_iter().find(|p| p.join("tests").is_dir()).ok_or_else(|| HOW_TO_GET_IT.to_string())
}

/// The drafts the suite covers that schemavm implements, with their
/// directory names.
pub const DRAFTS: [(&str, Draft); 5] = [
    ("draft4", Draft::Draft4),
    ("draft6", Draft::Draft6),
    ("draft7", Draft::Draft7),
    ("draft2019-09", Draft::Draft201909),
    ("draft2020-12", Draft::Draft202012),
];

/// A part of a draft's tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Part {
    /// The draft directory's own files.
    Required,
    /// `optional/`, except `optional/format/`.
    Optional,
    /// `optional/format/`.
    Format,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Part::Required => "required",
            Part::Optional => "optional",
            Part::Format => "format",
        })
    }
}

/// One test file.
#[derive(Debug, Clone)]
pub struct TestFile {
    /// Draft directory name.
    pub draft_dir: &'static str,
    /// The draft.
    pub draft: Draft,
    /// Part of the suite.
    pub part: Part,
    /// Path relative to the draft directory.
    pub name: String,
    /// The test cases.
    pub cases: Vec<Case>,
}

/// A schema and its tests.
#[derive(Debug, Clone)]
pub struct Case {
    /// Description.
    pub description: String,
    /// The schema.
    pub schema: Value,
    /// The tests.
    pub tests: Vec<Test>,
}

/// An instance and its expected validity.
#[derive(Debug, Clone)]
pub struct Test {
    /// Description.
    pub description: String,
    /// The instance.
    pub data: Value,
    /// Expected verdict.
    pub valid: bool,
}

pub(crate) fn read_json(path: &Path) -> Result<Value, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

pub(crate) fn json_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            json_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
    out.sort();
    Ok(())
}

/// The suite's `remotes/` documents as `(http://localhost:1234/<path>, document)`.
pub fn remotes(root: &Path) -> Result<Vec<(String, Value)>, String> {
    let dir = root.join("remotes");
    let mut files = Vec::new();
    json_files(&dir, &mut files)?;
    files
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(&dir).map_err(|e| e.to_string())?;
            let rel = rel.to_string_lossy().replace('\\', "/");
            Ok((format!("http://localhost:1234/{rel}"), read_json(&f)?))
        })
        .collect()
}

/// Every test file of the five drafts.
pub fn test_files(root: &Path) -> Result<Vec<TestFile>, String> {
    let mut out = Vec::new();
    for (dir_name, draft) in DRAFTS {
        let dir = root.join("tests").join(dir_name);
        let mut files = Vec::new();
        json_files(&dir, &mut files)?;
        for f in files {
            let rel = f.strip_prefix(&dir).map_err(|e| e.to_string())?.to_string_lossy().replace('\\', "/");
            let part = if rel.starts_with("optional/format/") {
                Part::Format
            } else if rel.starts_with("optional/") {
                Part::Optional
            } else {
                Part::Required
            };
            let cases = parse_cases(&read_json(&f)?).map_err(|e| format!("{}: {e}", f.display()))?;
            out.push(TestFile { draft_dir: dir_name, draft, part, name: rel, cases });
        }
    }
    Ok(out)
}

fn parse_cases(v: &Value) -> Result<Vec<Case>, String> {
    let cases = v.as_array().ok_or("not an array of test cases")?;
    cases
        .iter()
        .map(|c| {
            let tests = c
                .get("tests")
                .and_then(Value::as_array)
                .ok_or("a case without tests")?
                .iter()
                .map(|t| {
                    Ok(Test {
                        description: t.get("description").and_then(Value::as_str).unwrap_or("").to_string(),
                        data: t.get("data").cloned().unwrap_or(Value::Null),
                        valid: t.get("valid").and_then(Value::as_bool).ok_or("a test without valid")?,
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(Case {
                description: c.get("description").and_then(Value::as_str).unwrap_or("").to_string(),
                schema: c.get("schema").cloned().ok_or("a case without schema")?,
                tests,
            })
        })
        .collect()
}

/// The validator options the suite expects for a file: the draft as the
/// default dialect, the remotes registered, and format assertion for the
/// `optional/format` part.
pub fn options(file: &TestFile, remotes: &[(String, Value)]) -> ValidatorOptions {
    let mut options = schemavm::Validator::options().draft(file.draft);
    for (uri, doc) in remotes {
        options = options.resource(uri.clone(), doc.clone());
    }
    if file.part == Part::Format {
        options = options.assert_formats(true);
    }
    options
}

pub mod bowtie;
pub mod outputs;
