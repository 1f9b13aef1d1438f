//! The official JSON-Schema-Test-Suite, every test of every part for the
//! five drafts, the `annotations/` tests for every draft their cases are
//! compatible with, and the `output-tests/`, as individually named tests;
//! then a table of results by draft and part, and one for annotations and
//! output.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use libtest_mimic::{Arguments, Failed, Trial};
use schemavm::Validator;
use schemavm_test_suite::{Part, locate, options, outputs, remotes, test_files};

type Tally = Arc<Mutex<BTreeMap<(usize, Part), (usize, usize)>>>;
/// Passed / run, by (row, column) of the annotation and output table.
type Tally2 = Arc<Mutex<BTreeMap<(String, usize), (usize, usize)>>>;

/// Columns of the second table.
const ANNOTATIONS: usize = 0;
const OUTPUT: usize = 1;

fn main() {
    let args = Arguments::from_args();
    let root = match locate() {
        Ok(root) => root,
        Err(message) => {
            eprintln!("error: {message}");
            std::process::exit(101);
        }
    };
    let remotes = match remotes(&root) {
        Ok(r) => Arc::new(r),
        Err(e) => {
            eprintln!("error: reading the suite's remotes: {e}");
            std::process::exit(101);
        }
    };
    let files = match test_files(&root) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: reading the suite: {e}");
            std::process::exit(101);
        }
    };
    let tally: Tally = Arc::default();
    let mut trials = Vec::new();
    let draft_order: Vec<&str> = schemavm_test_suite::DRAFTS.iter().map(|(d, _)| *d).collect();
    for file in files {
        let draft_index = draft_order.iter().position(|d| *d == file.draft_dir).unwrap_or(0);
        let opts = Arc::new(options(&file, &remotes));
        for (ci, case) in file.cases.iter().enumerate() {
            let compiled: Arc<OnceLock<Result<Validator, String>>> = Arc::default();
            let schema = Arc::new(case.schema.clone());
            for (ti, test) in case.tests.iter().enumerate() {
                let name = format!(
                    "{}::{}::{}::{ci}:{}::{ti}:{}",
                    file.draft_dir, file.part, file.name, case.description, test.description
                );
                let (compiled, schema, opts, tally) = (compiled.clone(), schema.clone(), opts.clone(), tally.clone());
                let (data, expected, part) = (test.data.clone(), test.valid, file.part);
                trials.push(Trial::test(name, move || {
                    let validator = compiled.get_or_init(|| opts.build(&schema).map_err(|e| e.to_string()));
                    let outcome = match validator {
                        Err(e) => Err(Failed::from(format!("schema did not compile: {e}"))),
                        Ok(v) => check(v, &data, expected),
                    };
                    if let Ok(mut t) = tally.lock() {
                        let cell = t.entry((draft_index, part)).or_default();
                        cell.0 += usize::from(outcome.is_ok());
                        cell.1 += 1;
                    }
                    outcome
                }));
            }
        }
    }
    let tally2: Tally2 = Arc::default();
    match annotation_and_output_trials(&root, &tally2) {
        Ok(more) => trials.extend(more),
        Err(e) => {
            eprintln!("error: reading the suite's annotation or output tests: {e}");
            std::process::exit(101);
        }
    }
    let conclusion = libtest_mimic::run(&args, trials);
    print_table(&tally, &draft_order);
    print_second_table(&tally2);
    conclusion.exit();
}

/// A trial that runs `check` and counts its result in `(row, column)`.
fn counted(
    name: String,
    row: String,
    column: usize,
    tally: &Tally2,
    check: impl FnOnce() -> Result<(), String> + Send + 'static,
) -> Trial {
    let tally = tally.clone();
    Trial::test(name, move || {
        let outcome = check();
        if let Ok(mut t) = tally.lock() {
            let cell = t.entry((row, column)).or_default();
            cell.0 += usize::from(outcome.is_ok());
            cell.1 += 1;
        }
        outcome.map_err(Failed::from)
    })
}

/// The `annotations/` and `output-tests/` trials.
fn annotation_and_output_trials(root: &std::path::Path, tally: &Tally2) -> Result<Vec<Trial>, String> {
    let mut trials = Vec::new();
    for test in outputs::annotation_tests(root)? {
        trials.push(counted(test.name(), test.draft_dir.to_string(), ANNOTATIONS, tally, move || test.run()));
    }
    for test in outputs::output_tests(root)? {
        let row = if test.dir == "v1" { "v1 (as 2020-12)".to_string() } else { test.dir.clone() };
        trials.push(counted(test.name(), row, OUTPUT, tally, move || test.run()));
    }
    Ok(trials)
}

/// Checks the verdict, and that the error-collecting and evaluating paths
/// agree with it.
fn check(v: &Validator, data: &serde_json::Value, expected: bool) -> Result<(), Failed> {
    let valid = v.is_valid(data);
    if valid != expected {
        let errors: Vec<String> = v.iter_errors(data).map(|e| e.to_string()).collect();
        return Err(format!("expected valid={expected}, got valid={valid}; errors: {errors:?}").into());
    }
    let collected = v.validate(data).is_ok();
    if collected != valid {
        return Err(format!("is_valid={valid} but validate().is_ok()={collected}").into());
    }
    let any_error = v.iter_errors(data).next().is_some();
    if any_error == valid {
        return Err(format!("is_valid={valid} but iter_errors found errors: {any_error}").into());
    }
    match v.evaluate(data) {
        Ok(e) if e.is_valid() == valid => Ok(()),
        Ok(e) => Err(format!("is_valid={valid} but evaluate().is_valid()={}", e.is_valid()).into()),
        Err(e) => Err(format!("is_valid={valid} but evaluate() stopped: {e}").into()),
    }
}

fn print_table(tally: &Tally, drafts: &[&str]) {
    let Ok(t) = tally.lock() else { return };
    if t.is_empty() {
        return;
    }
    println!("\nJSON-Schema-Test-Suite results (passed / run)");
    println!("{:<14} {:>13} {:>13} {:>13}", "draft", "required", "optional", "format");
    let mut totals = [(0usize, 0usize); 3];
    for (i, d) in drafts.iter().enumerate() {
        let mut row = format!("{d:<14}");
        for (j, part) in [Part::Required, Part::Optional, Part::Format].into_iter().enumerate() {
            let (pass, run) = t.get(&(i, part)).copied().unwrap_or_default();
            if let Some(tot) = totals.get_mut(j) {
                tot.0 += pass;
                tot.1 += run;
            }
            row.push_str(&format!(" {:>13}", format!("{pass}/{run}")));
        }
        println!("{row}");
    }
    let mut row = format!("{:<14}", "total");
    for (pass, run) in totals {
        row.push_str(&format!(" {:>13}", format!("{pass}/{run}")));
    }
    println!("{row}");
}

fn print_second_table(tally: &Tally2) {
    let Ok(t) = tally.lock() else { return };
    if t.is_empty() {
        return;
    }
    println!("\nannotations/ and output-tests/ results (passed / run)");
    println!("{:<16} {:>13} {:>13}", "draft", "annotations", "output");
    let mut rows: Vec<&String> = t.keys().map(|(row, _)| row).collect();
    rows.dedup();
    // Drafts oldest first, then the rest.
    let rank = |row: &str| schemavm_test_suite::DRAFTS.iter().position(|(d, _)| *d == row).unwrap_or(usize::MAX);
    rows.sort_by_key(|row| rank(row));
    let mut totals = [(0usize, 0usize); 2];
    for row in rows {
        let mut line = format!("{row:<16}");
        for (column, total) in totals.iter_mut().enumerate() {
            let cell = match t.get(&(row.clone(), column)) {
                Some(&(pass, run)) => {
                    total.0 += pass;
                    total.1 += run;
                    format!("{pass}/{run}")
                }
                None => "-".to_string(),
            };
            line.push_str(&format!(" {cell:>13}"));
        }
        println!("{line}");
    }
    let mut line = format!("{:<16}", "total");
    for (pass, run) in totals {
        line.push_str(&format!(" {:>13}", format!("{pass}/{run}")));
    }
    println!("{line}");
}
