//! The boolean path allocates nothing: `is_valid` on typical schemas is
//! counted with a global allocator that tallies this thread's
//! allocations.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use schemavm::Validator;
use serde_json::json;

struct Counting;

thread_local! {
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every method forwards to `System` unchanged; the only addition
// is bumping a thread-local counter, which does not allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        COUNT.with(|c| c.set(c.get() + 1));
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        COUNT.with(|c| c.set(c.get() + 1));
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations(f: impl FnOnce()) -> usize {
    let before = COUNT.with(Cell::get);
    f();
    COUNT.with(Cell::get) - before
}

#[test]
fn is_valid_does_not_allocate() {
    let schema = json!({
        "$defs": {
            "node": {"type": "object", "properties": {"value": {"type": "integer"}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}, "required": ["value"]}
        },
        "type": "object",
        "properties": {
            "tree": {"$ref": "#/$defs/node"},
            "kind": {"enum": ["a", "b"]},
            "name": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 10},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
            "shape": {"oneOf": [
                {"properties": {"type": {"const": "circle"}, "r": {"type": "number"}}, "required": ["type", "r"]},
                {"properties": {"type": {"const": "square"}, "side": {"type": "number"}}, "required": ["type", "side"]}
            ]},
            "extra": {"properties": {"a": true}, "unevaluatedProperties": false, "anyOf": [{"properties": {"b": true}}]}
        },
        "additionalProperties": false
    });
    let v = Validator::new(&schema).unwrap();
    let instance = json!({
        "tree": {"value": 1, "children": [{"value": 2, "children": []}, {"value": 3}]},
        "kind": "a",
        "name": "abc",
        "tags": ["x", "y", "z"],
        "shape": {"type": "square", "side": 2},
        "extra": {"a": 1, "b": 2}
    });
    let invalid = json!({"tree": {"children": []}, "kind": "c"});
    assert!(v.is_valid(&instance));
    assert!(!v.is_valid(&invalid));
    for key in ["tree", "kind", "name", "tags", "shape", "extra"] {
        let part = json!({ key: instance[key].clone() });
        assert_eq!(allocations(|| assert!(v.is_valid(&part))), 0, "{key}");
    }
    assert_eq!(allocations(|| assert!(v.is_valid(&instance))), 0);
    assert_eq!(allocations(|| assert!(!v.is_valid(&invalid))), 0);
}
