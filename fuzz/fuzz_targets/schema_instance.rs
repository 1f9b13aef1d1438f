//! A schema and an instance, both JSON, separated by a NUL byte (which
//! JSON text never contains). Seeded from the official test suite by
//! `fuzz/seed.py`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schemavm_fuzz::{check_instance, compile_both, draft_from_byte, small_fuel, split_schema_instance};

fuzz_target!(|data: &[u8]| {
    let (schema, instance) = split_schema_instance(data);
    let Ok(schema) = serde_json::from_slice::<serde_json::Value>(schema) else { return };
    let Ok(instance) = serde_json::from_slice::<serde_json::Value>(instance) else { return };
    let draft = draft_from_byte(data.len() as u8);
    let fuel = small_fuel(data);
    for validator in compile_both(&schema, draft) {
        check_instance(&validator, &instance, fuel);
    }
});
