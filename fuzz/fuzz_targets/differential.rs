//! Differential: a schema and an instance (NUL-separated, seeded from the
//! official suite) through schemavm and `jsonschema` 0.61. Where both
//! compile the schema and schemavm reaches a verdict, the verdicts must
//! agree unless the pair falls in a known divergence class
//! (`schemavm_fuzz::divergence`, documented in `fuzz/README.md`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use schemavm::Validator;
use schemavm_fuzz::divergence::{Divergence, classify, reference_verdict};
use schemavm_fuzz::{Verdict, check_instance, small_fuel, split_schema_instance};

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
        Some(Divergence { .. }) => {}
        None => panic!(
            "schemavm says {} but jsonschema says {}\nschema: {schema}\ninstance: {instance}",
            if ours_valid { "valid" } else { "invalid" },
            if theirs { "valid" } else { "invalid" },
        ),
    }
});
