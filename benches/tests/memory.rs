//! The memory rows count what each peer's validators hold, and nothing of
//! the harness. (One test: the allocation count is process-wide.)

use schemavm_benches::memory::CountingAlloc;
use schemavm_benches::{Formats, Peer};
use serde_json::json;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

#[test]
fn retained_bytes_grow_by_one_validator_per_schema() {
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
