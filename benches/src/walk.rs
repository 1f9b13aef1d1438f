//! A plain walk of an instance: the floor under any validator's time on
//! a document whose schema reaches every value.
//!
//! [`walk`] reads what looking at every value takes and nothing more:
//! each value's kind, each array's items and each object's members with
//! the length of each name (not its bytes). A validator that checks every
//! value reads at least this; on a document much larger than the caches
//! (geojson's `canada.json`, 2 MB of coordinate pairs, each pair a heap
//! block of its own) the walk is bound by memory, not instructions, and
//! so is every validator: `profile --walk` times it beside them.

use serde_json::Value;

/// Deeper than this, a container counts as one value without being
/// entered (the benchmark data nests at most a few dozen levels; the
/// bound keeps the recursion finite on any input).
const MAX_DEPTH: u32 = 256;

/// The number of values in `value` (itself included) plus the lengths of
/// its member names: a result that depends on everything the walk reads,
/// so none of it can be skipped.
pub fn walk(value: &Value) -> usize {
    walk_at(value, 0)
}

fn walk_at(value: &Value, depth: u32) -> usize {
    let nested = |v: &Value| match v {
        Value::Array(_) | Value::Object(_) if depth < MAX_DEPTH => walk_at(v, depth + 1),
        _ => 1,
    };
    match value {
        Value::Array(items) => 1 + items.iter().map(nested).sum::<usize>(),
        Value::Object(members) => 1 + members.iter().map(|(name, v)| name.len() + nested(v)).sum::<usize>(),
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::walk;

    /// Every value counts once, and every name by its length.
    #[test]
    fn counts_values_and_name_lengths() {
        assert_eq!(walk(&json!(1)), 1);
        assert_eq!(walk(&json!([])), 1);
        assert_eq!(walk(&json!([1, "a", [null, true]])), 6);
        assert_eq!(walk(&json!({"ab": 1, "c": {"d": []}})), 1 + (2 + 1) + (1 + 1 + (1 + 1)));
    }

    /// Past the depth bound a container counts as one value.
    #[test]
    fn stops_at_the_depth_bound() {
        let mut deep = json!(1);
        for _ in 0..1000 {
            deep = json!([deep]);
        }
        assert_eq!(walk(&deep), super::MAX_DEPTH as usize + 2);
    }
}
