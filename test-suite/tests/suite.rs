//! The official JSON-Schema-Test-Suite, every test of every part for the
//! five drafts, as individually named tests; then a table of results by
//! draft and part.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use libtest_mimic::{Arguments, Failed, Trial};
use schemavm::Validator;
use schemavm_test_suite::{Part, locate, options, remotes, test_files};

type Tally = Arc<Mutex<BTreeMap<(usize, Part), (usize, usize)>>>;

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
    let conclusion = libtest_mimic::run(&args, trials);
    print_table(&tally, &draft_order);
    conclusion.exit();
}

/// Checks the verdict, and that the error-collecting path agrees with it.
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
    Ok(())
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
