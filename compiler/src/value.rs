//! JSON value helpers shared by the compiler and the VM: the type lattice,
//! JSON equality (`1 == 1.0`) and a hash consistent with it.
//!
//! Equality and hashing use explicit stacks, never recursion, so an
//! instance nested 100,000 levels deep cannot overflow the Rust stack.

use std::fmt;
use std::hash::{BuildHasher, Hasher};

use serde_json::Value;
use smallvec::SmallVec;

use crate::number::Num;

/// One JSON Schema primitive type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JsonType {
    /// `null`
    Null,
    /// `true` / `false`
    Boolean,
    /// A number with no fractional part.
    Integer,
    /// Any number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl JsonType {
    /// All types, in the order used for messages.
    pub const ALL: [JsonType; 7] = [
        JsonType::Null,
        JsonType::Boolean,
        JsonType::Integer,
        JsonType::Number,
        JsonType::String,
        JsonType::Array,
        JsonType::Object,
    ];

    /// The `type` keyword name.
    pub fn name(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "boolean",
            JsonType::Integer => "integer",
            JsonType::Number => "number",
            JsonType::String => "string",
            JsonType::Array => "array",
            JsonType::Object => "object",
        }
    }

    /// Parses a `type` keyword name.
    pub fn from_name(name: &str) -> Option<JsonType> {
        JsonType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The type of a value (`Integer` for numbers with no fractional part).
    pub fn of(value: &Value) -> JsonType {
        match value {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Boolean,
            Value::Number(n) => {
                if Num::from_json(n).is_integer() {
                    JsonType::Integer
                } else {
                    JsonType::Number
                }
            }
            Value::String(_) => JsonType::String,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
        }
    }

    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for JsonType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The bit of each `serde_json::Value` variant's type, by
/// [`variant_position`] (numbers as `number`).
const VARIANT_BITS: [u8; 6] = [
    JsonType::Null.bit(),
    JsonType::Boolean.bit(),
    JsonType::Number.bit(),
    JsonType::String.bit(),
    JsonType::Array.bit(),
    JsonType::Object.bit(),
];

/// The position of `value`'s variant in `serde_json::Value`'s order
/// ([`VARIANT_BITS`]). It is the variant's tag, so a table indexed by it
/// is read without a jump: a `match` on the value giving each variant's
/// constant became a jump table, one indirect jump per value.
#[inline(always)]
fn variant_position(value: &Value) -> usize {
    match value {
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Number(_) => 2,
        Value::String(_) => 3,
        Value::Array(_) => 4,
        Value::Object(_) => 5,
    }
}

/// A set of [`JsonType`]s, as a bit mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TypeSet(u8);

impl TypeSet {
    /// No type.
    pub const EMPTY: TypeSet = TypeSet(0);
    /// Every type.
    pub const ANY: TypeSet = TypeSet(0x7f);

    /// The set holding one type.
    #[inline]
    pub const fn single(t: JsonType) -> TypeSet {
        TypeSet(t.bit())
    }

    /// Adds a type.
    #[inline]
    pub const fn with(self, t: JsonType) -> TypeSet {
        TypeSet(self.0 | t.bit())
    }

    /// Whether `t` is in the set (without `number` implying `integer`).
    #[inline]
    pub const fn contains(self, t: JsonType) -> bool {
        self.0 & t.bit() != 0
    }

    /// The types in both sets.
    #[inline]
    pub const fn intersect(self, other: TypeSet) -> TypeSet {
        TypeSet(self.0 & other.0)
    }

    /// The types in either set.
    #[inline]
    pub const fn union(self, other: TypeSet) -> TypeSet {
        TypeSet(self.0 | other.0)
    }

    /// The set admitting exactly the values this one rejects, if there is
    /// one: not when it admits the integers but not every number (no set
    /// admits exactly the numbers with a fraction).
    pub const fn complement(self) -> Option<TypeSet> {
        let integer = TypeSet::single(JsonType::Integer).0;
        let number = TypeSet::single(JsonType::Number).0;
        match (self.0 & integer != 0, self.0 & number != 0) {
            (true, false) => None,
            // Every number is admitted: none may be.
            (_, true) => Some(TypeSet(TypeSet::ANY.0 & !self.0 & !integer)),
            (false, false) => Some(TypeSet(TypeSet::ANY.0 & !self.0)),
        }
    }

    /// Whether no type is in the set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `value` has one of the types in the set (`integer` admits
    /// `1.0` unless `strict_integers`; `number` admits all numbers).
    /// Always inlined: a call costs more than the check, which runs once
    /// per value on the hottest paths (object scans, item loops).
    #[inline(always)]
    pub fn admits(self, value: &Value, strict_integers: bool) -> bool {
        // The variant's bit from a table; numbers map to `number`, which
        // admits them all.
        let bit = VARIANT_BITS.get(variant_position(value)).copied().unwrap_or(0);
        if self.0 & bit != 0 {
            return true;
        }
        // Without `number`, a number may still pass as an `integer`.
        bit == JsonType::Number.bit() && self.contains(JsonType::Integer) && is_integer(value, strict_integers)
    }

    /// The types in the set.
    pub fn iter(self) -> impl Iterator<Item = JsonType> {
        JsonType::ALL.into_iter().filter(move |t| self.contains(*t))
    }
}

/// Whether `value` is a number that passes as an `integer` (`1.0` too
/// unless `strict_integers`): at once for machine integers, else by its
/// exact value.
#[inline]
pub fn is_integer(value: &Value, strict_integers: bool) -> bool {
    let Value::Number(n) = value else { return false };
    n.is_u64() || n.is_i64() || exact_integer(n, strict_integers)
}

#[inline(never)]
fn exact_integer(n: &serde_json::Number, strict_integers: bool) -> bool {
    let num = Num::from_json(n);
    if strict_integers { num.is_lexical_integer() } else { num.is_integer() }
}

/// A cheap fingerprint of `value` looking one level deep: values that are
/// [`equal`] have equal fingerprints (numbers by their `f64` value with
/// `-0` as `0`, objects member order aside), so comparing fingerprints
/// first skips most comparisons of unequal values. Work: at most four
/// items of an array; of an object, its first member when maps iterate
/// in key order ([`maps_are_sorted`]: equal objects then list the same
/// keys in the same order), else every member.
pub fn fingerprint(value: &Value) -> u64 {
    fn mix(a: u64, b: u64) -> u64 {
        (a.rotate_left(23) ^ b).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
    fn string_bits(s: &str) -> u64 {
        let b = s.as_bytes();
        let word = |at: usize| crate::bytes::word(b, at);
        match b.len() {
            0 => 0,
            // Short strings by their length and three bytes: no loop.
            n @ 1..8 => {
                let byte = |at: usize| b.get(at).map_or(0, |&x| u64::from(x));
                n as u64 | byte(0) << 8 | byte(n / 2) << 16 | byte(n - 1) << 24
            }
            n => mix(mix(n as u64, word(0)), word(n - 8)),
        }
    }
    #[inline(always)]
    fn shallow(v: &Value) -> u64 {
        match v {
            Value::Null => 1,
            Value::Bool(b) => 2 + u64::from(*b),
            Value::Number(n) => {
                let f = n.as_f64().unwrap_or(0.0);
                mix(4, if f == 0.0 { 0 } else { f.to_bits() })
            }
            Value::String(s) => mix(5, string_bits(s)),
            Value::Array(a) => mix(6, a.len() as u64),
            Value::Object(m) => mix(7, m.len() as u64),
        }
    }
    match value {
        Value::Array(a) => a.iter().take(4).fold(shallow(value), |h, x| mix(h, shallow(x))),
        Value::Object(m) if maps_are_sorted() => {
            let top = shallow(value);
            m.iter().next().map_or(top, |(k, v)| mix(mix(top, string_bits(k)), shallow(v)))
        }
        // Summed, so member order does not matter.
        Value::Object(m) => m.iter().fold(shallow(value), |h, (k, v)| h.wrapping_add(mix(string_bits(k), shallow(v)))),
        _ => shallow(value),
    }
}

/// Whether `serde_json` maps iterate in key order (its default B-tree
/// map) rather than insertion order (its `preserve_order` feature, which
/// any crate in a build can turn on). Tested once per process.
#[inline]
pub fn maps_are_sorted() -> bool {
    static SORTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SORTED.get_or_init(|| {
        let mut map = serde_json::Map::new();
        map.insert("b".to_string(), Value::Null);
        map.insert("a".to_string(), Value::Null);
        map.keys().next().is_some_and(|k| k == "a")
    })
}

/// JSON equality: numbers by mathematical value, objects regardless of key order.
#[inline]
pub fn equal(a: &Value, b: &Value) -> bool {
    // Two scalars (the usual case: `const` and `enum` values) without
    // the containers' comparison loop.
    match scalar_equal(a, b) {
        Some(same) => same,
        None => equal_with_work(a, b).0,
    }
}

/// [`equal`], and the number of member pairs compared (the work done, for
/// fuel accounting: at most the size of the smaller value, however
/// deeply the two agree before they differ).
pub fn equal_with_work(a: &Value, b: &Value) -> (bool, usize) {
    if let Some(same) = scalar_equal(a, b) {
        return (same, 1);
    }
    let mut work = 1usize;
    let mut stack: SmallVec<[(&Value, &Value); 16]> = SmallVec::new();
    stack.push((a, b));
    while let Some((x, y)) = stack.pop() {
        match (x, y) {
            (Value::Array(p), Value::Array(q)) => {
                if p.len() != q.len() {
                    return (false, work);
                }
                for (v, w) in p.iter().zip(q.iter()) {
                    work += 1;
                    match scalar_equal(v, w) {
                        Some(false) => return (false, work),
                        Some(true) => {}
                        None => stack.push((v, w)),
                    }
                }
            }
            (Value::Object(p), Value::Object(q)) => {
                if p.len() != q.len() || !object_members_equal(p, q, &mut stack, &mut work) {
                    return (false, work);
                }
            }
            _ => {
                if scalar_equal(x, y) != Some(true) {
                    return (false, work);
                }
            }
        }
    }
    (true, work)
}

/// [`equal`] for two values that are neither arrays nor objects (for
/// `uniqueItems` on arrays of scalars, compared pairwise): machine
/// integers and floats compared as such, other numbers exactly. (An array
/// or an object is never equal to anything here.) Always inlined: the
/// pairwise loop calls it for every pair, and a call costs as much as the
/// usual comparison.
#[inline(always)]
pub fn scalars_equal(a: &Value, b: &Value) -> bool {
    matches!(scalar_equal(a, b), Some(true))
}

/// Equality of two scalars, `Some(false)` for values of different kinds,
/// `None` for two arrays or two objects (to be compared member by member).
#[inline(always)]
fn scalar_equal(a: &Value, b: &Value) -> Option<bool> {
    Some(match (a, b) {
        (Value::String(p), Value::String(q)) => p == q,
        (Value::Number(p), Value::Number(q)) => number_equal(p, q),
        (Value::Bool(p), Value::Bool(q)) => p == q,
        (Value::Null, Value::Null) => true,
        (Value::Array(_), Value::Array(_)) | (Value::Object(_), Value::Object(_)) => return None,
        _ => false,
    })
}

/// Whether two numbers have the same value (`1` equals `1.0`).
#[inline(always)]
fn number_equal(p: &serde_json::Number, q: &serde_json::Number) -> bool {
    // `Number`'s own equality: the same variant and value (floats by `==`,
    // so -0 equals 0), which means the same number.
    if p == q {
        return true;
    }
    // Otherwise, without `arbitrary-precision` (whose numbers are text),
    // two integers or two floats differ: non-negative and negative
    // integers are held apart. Only an integer and a float need the exact
    // comparison.
    if !cfg!(feature = "arbitrary-precision") && p.is_f64() == q.is_f64() {
        return false;
    }
    exact_number_equal(p, q)
}

/// [`number_equal`] past machine integers (out of line: it keeps the
/// usual comparisons small enough to inline).
#[inline(never)]
fn exact_number_equal(p: &serde_json::Number, q: &serde_json::Number) -> bool {
    Num::from_json(p).compare(&Num::from_json(q)).is_eq()
}

/// Compares two objects of the same size member by member: scalar members
/// at once (so the first difference ends the comparison), nested ones
/// pushed on `stack`. Maps iterate in key order, so the keys are walked
/// in lockstep; should they diverge (a map type that keeps insertion
/// order), members are looked up by key instead.
fn object_members_equal<'a>(
    p: &'a serde_json::Map<String, Value>,
    q: &'a serde_json::Map<String, Value>,
    stack: &mut SmallVec<[(&'a Value, &'a Value); 16]>,
    work: &mut usize,
) -> bool {
    let mut lockstep = true;
    for ((k, v), (l, w)) in p.iter().zip(q.iter()) {
        *work += 1;
        if k != l {
            lockstep = false;
            break;
        }
        match scalar_equal(v, w) {
            Some(false) => return false,
            Some(true) => {}
            None => stack.push((v, w)),
        }
    }
    if lockstep {
        return true;
    }
    for (k, v) in p {
        *work += 1;
        let Some(w) = q.get(k) else { return false };
        match scalar_equal(v, w) {
            Some(false) => return false,
            Some(true) => {}
            None => stack.push((v, w)),
        }
    }
    true
}

/// Hashes values consistently with [`equal`], using `state` as the keyed
/// hash (e.g. std's `RandomState`, so adversarial inputs can't force
/// collisions). Also returns the number of JSON nodes hashed (the work
/// done, for fuel accounting).
///
/// When maps iterate in key order ([`maps_are_sorted`]), equal objects list
/// the same members in the same order, so the value is hashed as one
/// stream, in one hasher ([`hash_sorted`]); otherwise each member is hashed
/// apart and the object by their sum, which ignores order
/// ([`hash_unordered`]). Both walk the value with a stack of their own,
/// whatever its depth.
#[inline]
pub fn hash<S: BuildHasher>(value: &Value, state: &S) -> (u64, usize) {
    if maps_are_sorted() { hash_sorted(value, state) } else { hash_unordered(value, state) }
}

/// [`hash`] for maps in key order, as one stream: each node's kind with
/// the length of its text or members (one word), a member's key before its
/// value, and scalars where they stand; the contents of nested arrays and
/// objects come after, in the order a stack of them gives. The stream
/// follows from the value alone, and the lengths keep different values'
/// streams apart.
fn hash_sorted<S: BuildHasher>(value: &Value, state: &S) -> (u64, usize) {
    /// Writes `v`'s kind and length (and a scalar's content); a container
    /// is pushed on `nested`, its contents to come.
    #[inline(always)]
    fn visit<'a, H: Hasher>(h: &mut H, v: &'a Value, nested: &mut SmallVec<[&'a Value; 8]>) {
        let word = |len: usize, kind: u64| (len as u64) << 3 | kind;
        match v {
            Value::Null => h.write_u64(0),
            Value::Bool(b) => h.write_u64(1 + u64::from(*b)),
            Value::Number(n) => {
                h.write_u64(3);
                Num::from_json(n).hash_into(h);
            }
            Value::String(s) => {
                h.write_u64(word(s.len(), 4));
                h.write(s.as_bytes());
            }
            Value::Array(items) => {
                h.write_u64(word(items.len(), 5));
                nested.push(v);
            }
            Value::Object(map) => {
                h.write_u64(word(map.len(), 6));
                nested.push(v);
            }
        }
    }
    let mut h = state.build_hasher();
    let mut nested: SmallVec<[&Value; 8]> = SmallVec::new();
    let mut visited = 1usize;
    visit(&mut h, value, &mut nested);
    while let Some(container) = nested.pop() {
        match container {
            Value::Array(items) => {
                visited += items.len();
                for item in items {
                    visit(&mut h, item, &mut nested);
                }
            }
            Value::Object(map) => {
                visited += map.len();
                for (key, item) in map {
                    h.write_u64(key.len() as u64);
                    h.write(key.as_bytes());
                    visit(&mut h, item, &mut nested);
                }
            }
            _ => {}
        }
    }
    (h.finish(), visited)
}

/// [`hash`] for maps in any order: members hashed apart, objects by the
/// sum of their members' hashes.
fn hash_unordered<S: BuildHasher>(value: &Value, state: &S) -> (u64, usize) {
    let mut visited = 0usize;
    enum Work<'a> {
        Visit(&'a Value),
        Array(usize),
        Object(usize),
        Entry(&'a str),
    }
    let mut work: SmallVec<[Work<'_>; 16]> = SmallVec::new();
    let mut done: SmallVec<[u64; 16]> = SmallVec::new();
    work.push(Work::Visit(value));
    while let Some(w) = work.pop() {
        if matches!(w, Work::Visit(_)) {
            visited += 1;
        }
        match w {
            Work::Visit(Value::Array(items)) => {
                work.push(Work::Array(items.len()));
                work.extend(items.iter().rev().map(Work::Visit));
            }
            Work::Visit(Value::Object(map)) => {
                work.push(Work::Object(map.len()));
                for (k, v) in map {
                    work.push(Work::Entry(k));
                    work.push(Work::Visit(v));
                }
            }
            Work::Visit(scalar) => done.push(hash_scalar(scalar, state)),
            Work::Entry(key) => {
                let v = done.pop().unwrap_or_default();
                let mut h = state.build_hasher();
                h.write(key.as_bytes());
                h.write_u64(v);
                done.push(h.finish());
            }
            Work::Array(n) => {
                let start = done.len().saturating_sub(n);
                let mut h = state.build_hasher();
                h.write_u8(b'[');
                for x in done.drain(start..) {
                    h.write_u64(x);
                }
                done.push(h.finish());
            }
            Work::Object(n) => {
                let start = done.len().saturating_sub(n);
                // Order-independent: sum of entry hashes.
                let sum = done.drain(start..).fold(0x9e37_79b9_7f4a_7c15_u64, u64::wrapping_add);
                let mut h = state.build_hasher();
                h.write_u8(b'{');
                h.write_u64(sum);
                done.push(h.finish());
            }
        }
    }
    (done.pop().unwrap_or_default(), visited)
}

fn hash_scalar<S: BuildHasher>(value: &Value, state: &S) -> u64 {
    let mut h = state.build_hasher();
    match value {
        Value::Null => h.write_u8(0),
        Value::Bool(b) => {
            h.write_u8(1);
            h.write_u8(u8::from(*b));
        }
        Value::String(s) => {
            h.write_u8(2);
            h.write(s.as_bytes());
        }
        Value::Number(n) => {
            h.write_u8(3);
            Num::from_json(n).hash_into(&mut h);
        }
        Value::Array(_) | Value::Object(_) => h.write_u8(4),
    }
    h.finish()
}

/// Counts the nodes of a value, stopping once `limit` is passed (for cost
/// accounting without unbounded work).
pub fn size_at_most(value: &Value, limit: usize) -> usize {
    let mut stack: SmallVec<[&Value; 16]> = SmallVec::new();
    stack.push(value);
    let mut count = 0usize;
    while let Some(v) = stack.pop() {
        count += 1;
        if count > limit {
            break;
        }
        match v {
            Value::Array(items) => stack.extend(items.iter()),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    count
}

/// The nesting depth of a value (a scalar has depth 0), stopping once
/// `limit` is passed.
pub fn depth_at_most(value: &Value, limit: usize) -> usize {
    shape_at_most(value, limit).0
}

/// [`depth_at_most`], with the number of arrays and objects seen (all of
/// them unless the walk stopped past `limit`).
pub(crate) fn shape_at_most(value: &Value, limit: usize) -> (usize, usize) {
    let nested = |x: &&Value| x.is_array() || x.is_object();
    // Only containers are stacked: a container's children, scalars
    // included, are one level deeper than it. (Grown as needed: most
    // schemas are small, and a large first allocation costs a small
    // schema's compile more than the growth costs a large one's.)
    let mut stack: Vec<(&Value, usize)> = vec![(value, 0)];
    let mut max = 0;
    let mut containers = 0;
    while let Some((v, d)) = stack.pop() {
        containers += usize::from(nested(&v));
        let non_empty = match v {
            Value::Array(items) => {
                stack.extend(items.iter().filter(nested).map(|x| (x, d + 1)));
                !items.is_empty()
            }
            Value::Object(map) => {
                stack.extend(map.values().filter(nested).map(|x| (x, d + 1)));
                !map.is_empty()
            }
            _ => false,
        };
        if non_empty {
            max = max.max(d + 1);
            if max > limit {
                break;
            }
        }
    }
    (max, containers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::hash_map::RandomState;

    #[test]
    fn equal_values_have_equal_fingerprints() {
        let pairs = [
            (json!(1), json!(1.0)),
            (json!(0), json!(-0.0)),
            (json!({"a": 1, "b": [1, 2]}), json!({"b": [1.0, 2], "a": 1.0})),
            (json!("a long string value"), json!("a long string value")),
            (json!([{"x": null}, true]), json!([{"x": null}, true])),
            (
                json!({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": "x"}),
                json!({"f": "x", "e": 5, "d": 4.0, "c": 3, "b": 2, "a": 1}),
            ),
        ];
        for (a, b) in &pairs {
            assert!(equal(a, b));
            assert_eq!(fingerprint(a), fingerprint(b), "{a} vs {b}");
        }
        let different = [json!({"$ref": "#/p/a"}), json!({"$ref": "#/p/b"}), json!("x"), json!(["x"]), json!(null)];
        for (i, a) in different.iter().enumerate() {
            for b in different.iter().skip(i + 1) {
                assert_ne!(fingerprint(a), fingerprint(b), "{a} vs {b}");
            }
        }
    }

    #[test]
    fn scalars_compare_as_equal_does() {
        let scalars = [
            json!(1),
            json!(1.0),
            json!(-1),
            json!(-1.0),
            json!(0),
            json!(-0.0),
            json!(0.0),
            json!(u64::MAX),
            json!(18_446_744_073_709_551_615.0),
            json!(i64::MIN),
            json!(-9_223_372_036_854_775_808.0),
            json!(9_007_199_254_740_993u64),
            json!(9_007_199_254_740_992.0),
            json!(0.1),
            json!(0.30000000000000004),
            json!(1e300),
            json!("1"),
            json!(""),
            json!(true),
            json!(false),
            json!(null),
        ];
        for a in &scalars {
            for b in &scalars {
                assert_eq!(scalars_equal(a, b), equal(a, b), "{a} vs {b}");
            }
        }
    }

    #[test]
    fn equality_work_is_the_members_compared() {
        assert_eq!(equal_with_work(&json!(1), &json!(1.0)), (true, 1));
        assert_eq!(equal_with_work(&json!([1, 2, 3]), &json!([1, 2, 3])), (true, 4));
        // The first difference ends it.
        assert_eq!(equal_with_work(&json!([0, 2, 3]), &json!([1, 2, 3])), (false, 2));
        let (same, work) = equal_with_work(&json!({"a": {"b": [1, 2]}, "c": 1}), &json!({"c": 1, "a": {"b": [1, 2]}}));
        assert!(same);
        assert!((6..=8).contains(&work), "{work}");
    }

    #[test]
    fn complements_reject_exactly_what_a_set_admits() {
        let values = [json!(null), json!(false), json!(2), json!(2.0), json!(2.5), json!("x"), json!([]), json!({})];
        for bits in 0..=TypeSet::ANY.0 {
            let set = TypeSet(bits);
            let Some(complement) = set.complement() else {
                assert!(set.contains(JsonType::Integer) && !set.contains(JsonType::Number));
                continue;
            };
            for v in &values {
                for strict in [false, true] {
                    assert_ne!(set.admits(v, strict), complement.admits(v, strict), "{bits:#b} {v} {strict}");
                }
            }
        }
    }

    #[test]
    fn map_order_is_detected() {
        let mut map = serde_json::Map::new();
        for key in ["z", "m", "q", "a"] {
            map.insert(key.to_string(), Value::Null);
        }
        let keys: Vec<&str> = map.keys().map(String::as_str).collect();
        assert_eq!(keys.is_sorted(), maps_are_sorted(), "{keys:?}");
    }

    #[test]
    fn equality_is_json_equality() {
        assert!(equal(&json!(1), &json!(1.0)));
        assert!(equal(&json!({"a": [1, {"b": 2.0}]}), &json!({"a": [1.0, {"b": 2}]})));
        assert!(!equal(&json!([1, 2]), &json!([2, 1])));
        assert!(!equal(&json!({"a": 1}), &json!({"b": 1})));
        assert!(!equal(&json!(false), &json!(0)));
        assert!(!equal(&json!([]), &json!({})));
    }

    #[test]
    fn hash_agrees_with_equality() {
        let s = RandomState::new();
        let h = |v: serde_json::Value| hash(&v, &s).0;
        assert_eq!(h(json!(1)), h(json!(1.0)));
        assert_eq!(h(json!({"a": [1, 2], "b": null})), h(json!({"b": null, "a": [1.0, 2]})));
        assert_ne!(h(json!([1, 2])), h(json!([2, 1])));
        assert_ne!(h(json!({"a": 1})), h(json!({"b": 1})));
        assert_eq!(hash(&json!([1, [2, 3]]), &s).1, 5);
    }

    /// Both ways of hashing agree with equality, the unordered one
    /// whatever the maps' order; neither confuses values that differ only
    /// in how their text is split or nested.
    #[test]
    fn both_hashes_agree_with_equality_and_tell_splits_apart() {
        let s = RandomState::new();
        for hash in [hash_sorted::<RandomState>, hash_unordered::<RandomState>] {
            let h = |v: serde_json::Value| hash(&v, &s).0;
            assert_eq!(h(json!([1, {"a": 2.0, "b": [null, true]}])), h(json!([1.0, {"b": [null, true], "a": 2}])));
            assert_eq!(h(json!({"x": {"y": "z"}})), h(json!({"x": {"y": "z"}})));
            assert_ne!(h(json!(["ab", "c"])), h(json!(["a", "bc"])));
            assert_ne!(h(json!({"ab": "c"})), h(json!({"a": "bc"})));
            assert_ne!(h(json!([[1], 2])), h(json!([[1, 2]])));
            assert_ne!(h(json!([{}, 1])), h(json!([{"": 1}])));
            assert_ne!(h(json!("1")), h(json!(1)));
            assert_ne!(h(json!(null)), h(json!(false)));
            assert_eq!(hash(&json!({"a": [1, [2, 3]], "b": {}}), &s).1, 7);
        }
    }

    #[test]
    fn depth_counts_scalars_and_stops_past_the_limit() {
        for (v, depth) in [
            (json!(1), 0),
            (json!([]), 0),
            (json!({}), 0),
            (json!([1]), 1),
            (json!([[]]), 1),
            (json!({"a": [1, {"b": {}}]}), 3),
            (json!({"a": [1, {"b": {"c": null}}], "d": 0}), 4),
        ] {
            assert_eq!(depth_at_most(&v, 10), depth, "{v}");
            assert_eq!(depth_at_most(&v, 0), depth.min(1), "{v}");
        }
    }

    #[test]
    fn deep_values_do_not_overflow() {
        let mut v = json!(0);
        for _ in 0..100_000 {
            v = Value::Array(vec![v]);
        }
        assert!(equal(&v, &v));
        let s = RandomState::new();
        assert_eq!(hash(&v, &s), hash(&v, &s));
        assert_eq!(depth_at_most(&v, 10), 11);
        // Dismantle without recursive Drop.
        let mut cur = v;
        while let Value::Array(mut items) = cur {
            cur = items.pop().unwrap_or(Value::Null);
        }
    }

    #[test]
    fn type_sets() {
        let ints = TypeSet::single(JsonType::Integer);
        assert!(ints.admits(&json!(1.0), false));
        assert!(!ints.admits(&json!(1.0), true));
        assert!(!ints.admits(&json!(1.5), false));
        assert!(TypeSet::single(JsonType::Number).admits(&json!(1), false));
        assert!(!ints.admits(&json!("1"), false));
    }
}
