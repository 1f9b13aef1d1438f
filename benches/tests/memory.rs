//! The memory rows count what each peer's validators hold, and nothing of
//! the harness. (The allocation count is process-wide: the tests take
//! turns through [`SERIAL`].)

use schemavm_benches::memory::CountingAlloc;
use schemavm_benches::{Formats, Peer};
use serde_json::json;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Held by each test for its whole run, so no other test allocates
/// while one measures.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn retained_bytes_grow_by_one_validator_per_schema() {
    let _turn = SERIAL.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let schema = json!({"$schema": "http://json-schema.org/draft-07/schema#", "minimum": 3});
    for peer in Peer::ALL {
        let bytes = |n: usize| peer.retained_bytes(&vec![schema.clone(); n], Formats::Default);
        let (none, one, three) = (bytes(0), bytes(1), bytes(3));
        assert_eq!(none, Some(0), "{}", peer.name());
        let one = one.expect("the counting allocator is installed");
        // Each validator holds its heap and its own size in place; the
        // harness's list of them is not counted.
        assert!(one > peer.validator_size(), "{}: {one}", peer.name());
        assert_eq!(three, Some(3 * one), "{}", peer.name());
    }
}

#[test]
fn retained_bytes_do_not_depend_on_what_was_compiled_before() {
    let _turn = SERIAL.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    // A schema large enough that the compiler's per-thread scratch
    // buffers grow past what a small schema needs (and are then dropped
    // rather than kept), and small ones that reuse them.
    let definitions: serde_json::Map<String, serde_json::Value> = (0..3000)
        .map(|i| {
            (format!("d{i}"), json!({"anyOf": [{"$ref": format!("#/$defs/d{}", (i + 1) % 3000)}, {"type": "integer"}]}))
        })
        .collect();
    let large = json!({"$defs": definitions, "$ref": "#/$defs/d0"});
    let small = [
        json!(false),
        json!({"allOf": [{"type": "integer"}, {"minimum": 2}]}),
        json!({"additionalItems": false, "items": [{}]}),
        json!({"required": ["a"]}),
    ];
    for peer in Peer::ALL {
        let bytes = |schema: &serde_json::Value| peer.retained_bytes(std::slice::from_ref(schema), Formats::Default);
        let fresh: Vec<_> = small.iter().map(bytes).collect();
        for before in small.iter().chain([&large]) {
            drop(peer.compile(before));
            let again: Vec<_> = small.iter().map(bytes).collect();
            assert_eq!(again, fresh, "{} after compiling {before}", peer.name());
        }
    }
}
