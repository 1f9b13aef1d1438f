//! Differential: a schema and an instance (NUL-separated, seeded from the
//! official suite) through schemavm and `jsonschema` 0.61. Where both
//! compile the schema and schemavm reaches a verdict, the verdicts must
//! agree unless the pair falls in a known divergence class
//! (`schemavm_fuzz::divergence`, documented in `fuzz/README.md`).
#![no_main]

use std::sync::Mutex;

use libfuzzer_sys::fuzz_target;
use schemavm::Validator;
use schemavm_fuzz::divergence::{Divergence, classify, reference_verdict};
use schemavm_fuzz::{Verdict, check_instance, small_fuel, split_schema_instance};

/// Counts masked mismatches per class and prints the count at every
/// power of two, so a run's log shows how often each class fired.
fn record_masked(class: &'static str, schema: &serde_json::Value, instance: &serde_json::Value) {
    static COUNTS: Mutex<Vec<(&'static str, u64)>> = Mutex::new(Vec::new());
    let mut counts = COUNTS.lock().unwrap_or_else(|e| e.into_inner());
    let n = match counts.iter_mut().find(|(c, _)| *c == class) {
        Some((_, n)) => {
            *n += 1;
            *n
        }
        None => {
            counts.push((class, 1));
            1
        }
    };
    if n.is_power_of_two() {
        let pair: String = format!("{schema} / {instance}").chars().take(400).collect();
        eprintln!("masked divergence: {class} x{n}: {pair}");
    }
}

fuzz_target!(|data: &[u8]| {
    let (schema, instance) = split_schema_instance(data);
    let Ok(schema) = serde_json::from_slice::<serde_json::Value>(schema) else { return };
    let Ok(instance) = serde_json::from_slice::<serde_json::Value>(instance) else { return };
    // Only schemas schemavm accepts go to the reference: it has no
    // recursion guard of its own for schemas like {"$ref": "#"}.
    let Ok(ours) = Validator::options().assert_formats(false).build(&schema) else { return };
    let verdict = check_instance(&ours, &instance, small_fuel(data));
    if verdict == Verdict::Exhausted {
        return;
    }
    let Some(theirs) = reference_verdict(&schema, &instance) else { return };
    let ours_valid = verdict == Verdict::Valid;
    if ours_valid == theirs {
        return;
    }
    match classify(&schema, &instance) {
        Some(Divergence { class }) => record_masked(class, &schema, &instance),
        None => panic!(
            "schemavm says {} but jsonschema says {}\nschema: {schema}\ninstance: {instance}",
            if ours_valid { "valid" } else { "invalid" },
            if theirs { "valid" } else { "invalid" },
        ),
    }
});
