//! Structure-aware: a schema built from an enum of keywords (nesting,
//! `$defs` with `$ref`s to the defined names, dynamic and recursive refs,
//! numeric edge cases) and an instance from a JSON-value generator.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schemavm_fuzz::generate::{Json, Root};
use schemavm_fuzz::{check_instance, compile_both, draft_from_byte};

#[derive(arbitrary::Arbitrary, Debug)]
struct Input {
    schema: Root,
    instance: Json,
    draft: u8,
    fuel: u16,
}

fuzz_target!(|input: Input| {
    let schema = input.schema.value();
    let instance = input.instance.value();
    for validator in compile_both(&schema, draft_from_byte(input.draft)) {
        check_instance(&validator, &instance, u64::from(input.fuel));
    }
});
