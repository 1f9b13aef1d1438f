//! Arbitrary bytes as a JSON schema: compile with default options and with
//! a draft chosen by the first byte; validate the fixed instances against
//! whatever compiles, checking the shared invariants.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schemavm_fuzz::{check_instance, compile_both, draft_from_byte, fixed_instances, small_fuel};

fuzz_target!(|data: &[u8]| {
    let Ok(schema) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    let draft = draft_from_byte(data.first().copied().unwrap_or(0).wrapping_add(data.len() as u8));
    let fuel = small_fuel(data);
    for validator in compile_both(&schema, draft) {
        for instance in fixed_instances() {
            check_instance(&validator, &instance, fuel);
        }
    }
});
