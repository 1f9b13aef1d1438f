//! Tests of [`super::check`] and [`super::content`] against the official
//! JSON-Schema-Test-Suite, and of linear running time on large inputs.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use schemavm_compiler::Format;
use serde_json::Value;

use super::check;
use super::content::{ContentEncoding, ContentMediaType};

/// `format: "regex"` cases that need the ECMA-262 syntax checker, which
/// replaces the interim Rust-syntax `check_syntax` in another branch.
/// While it is missing, their failures are reported but tolerated.
const PENDING_ECMA_REGEX: &[&str] =
    &["\\a", "(?P<name>x)", "(?i)abc", "(?ims)abc", "(?<n>a)\\k<n>", "(?<=a+)b", "[]", "[^]", "\\cA"];

const DRAFTS: [&str; 5] = ["draft4", "draft6", "draft7", "draft2019-09", "draft2020-12"];

fn suite_dir() -> PathBuf {
    let dir = std::env::var_os("JSON_SCHEMA_TEST_SUITE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/JSON-Schema-Test-Suite"));
    assert!(
        dir.join("tests").is_dir(),
        "JSON-Schema-Test-Suite not found at {}: set JSON_SCHEMA_TEST_SUITE to a checkout of \
         https://github.com/json-schema-org/JSON-Schema-Test-Suite (or run `git submodule update --init`)",
        dir.display()
    );
    dir
}

fn read_groups(path: &std::path::Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match serde_json::from_str(&text) {
        Ok(Value::Array(groups)) => groups,
        other => panic!("{}: not an array of test groups: {other:?}", path.display()),
    }
}

#[test]
fn official_format_suite() {
    let suite = suite_dir();
    let mut failures = Vec::new();
    let mut pending = Vec::new();
    for draft in DRAFTS {
        let dir = suite.join("tests").join(draft).join("optional/format");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        let (mut checked, mut passed, mut non_strings) = (0, 0, 0);
        for file in files {
            for group in read_groups(&file) {
                let name = group["schema"]["format"].as_str().expect("schema has a format name");
                let format = Format::from_name(name);
                for case in group["tests"].as_array().expect("tests array") {
                    let expected = case["valid"].as_bool().expect("valid flag");
                    let Some(data) = case["data"].as_str() else {
                        // Non-strings always pass `format`; the VM checks the type.
                        non_strings += 1;
                        assert!(expected, "{draft} {name}: a non-string case expects invalid");
                        continue;
                    };
                    checked += 1;
                    let actual = match format {
                        Some(format) => check(format, data),
                        // Unknown formats are ignored by the compiler.
                        None => true,
                    };
                    if actual == expected {
                        passed += 1;
                    } else if format == Some(Format::Regex) && PENDING_ECMA_REGEX.contains(&data) {
                        pending.push(format!("{draft} regex {data:?} (expected {expected})"));
                    } else {
                        let description = case["description"].as_str().unwrap_or_default();
                        failures.push(format!("{draft} {name} {data:?}: expected {expected} ({description})"));
                    }
                }
            }
        }
        println!("{draft}: {checked} checked, {passed} passed ({non_strings} non-string cases skipped)");
    }
    if !pending.is_empty() {
        println!("pending the ECMA-262 regex checker ({}):", pending.len());
        for p in &pending {
            println!("  {p}");
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn official_draft7_content_suite() {
    let path = suite_dir().join("tests/draft7/optional/content.json");
    let mut checked = 0;
    for group in read_groups(&path) {
        let schema = &group["schema"];
        let encoding =
            schema["contentEncoding"].as_str().map(|n| ContentEncoding::from_name(n).expect("known encoding"));
        let media_type =
            schema["contentMediaType"].as_str().map(|n| ContentMediaType::from_name(n).expect("known media type"));
        for case in group["tests"].as_array().expect("tests array") {
            let Some(data) = case["data"].as_str() else {
                continue;
            };
            let decoded = match encoding {
                Some(encoding) => encoding.decode(data),
                None => Some(data.as_bytes().to_vec()),
            };
            let actual = decoded.is_some_and(|bytes| media_type.is_none_or(|m| m.matches(&bytes)));
            assert_eq!(actual, case["valid"].as_bool().expect("valid flag"), "{}", case["description"]);
            checked += 1;
        }
    }
    println!("draft7 content: {checked} checked, {checked} passed");
}

/// Each format on 200 KB adversarial strings, and on 4 KB ones (which get
/// past the length bounds of `hostname`-like formats): nothing panics, and
/// each answer comes in linear time.
#[test]
fn large_adversarial_inputs() {
    // (prefix, repeated unit, suffix)
    let patterns: [(&str, &str, &str); 20] = [
        ("", "a", ""),
        ("", "1", ""),
        ("", "%", ""),
        ("", ":", ""),
        ("", "[", ""),
        ("", "{", ""),
        ("", "a.", "a"),
        ("", "1.", "1"),
        ("", "1:", "1"),
        ("/", "~0", ""),
        ("P", "1", "Y"),
        ("", "xn--a.", "a"),
        ("\"", "\\a", "\"@a"),
        ("", "ü", ""),
        ("", "ü-", "ü"),
        ("", "\u{301}", ""),
        ("{", "a,", "a}"),
        ("//", "@", ""),
        ("", "\u{200C}", ""),
        ("a@", "ü.", "ü"),
    ];
    let mut report = Vec::new();
    for format in Format::ALL {
        let mut worst = (Duration::ZERO, String::new());
        for (prefix, unit, suffix) in patterns {
            for size in [200_000, 4_000] {
                let input = format!("{prefix}{}{suffix}", unit.repeat(size / unit.len()));
                let start = Instant::now();
                let _ = std::hint::black_box(check(format, &input));
                let elapsed = start.elapsed();
                assert!(elapsed < Duration::from_millis(500), "{} on {unit:?}: {elapsed:?}", format.name());
                if elapsed > worst.0 {
                    worst = (elapsed, format!("{unit:?} x {}", size / unit.len()));
                }
            }
        }
        report.push(format!("{}: {:?} ({})", format.name(), worst.0, worst.1));
    }
    println!("slowest input per format:\n  {}", report.join("\n  "));
}

proptest! {
    /// No input makes any checker panic.
    #[test]
    fn never_panics(s in "[a-zA-Z0-9:/?#@!$&'()*+,;=%.~_{}<>^`|\\[\\]\\-\" \u{80}-\u{10FFFF}]{0,40}") {
        for format in Format::ALL {
            let _ = check(format, &s);
        }
    }
}
