//! Discriminated `anyOf`/`oneOf`: when the alternatives each pin one
//! property to string constants (`"resourceType": {"const": "Patient"}`,
//! `"type": {"enum": ["Point"]}`), an object instance carrying that
//! property can only match the alternatives admitting its value, so the
//! VM evaluates just those.
//!
//! An alternative *pins* property `p` to values `S` when, at its own
//! location (through `$ref` and `allOf`), an object keyword applies a
//! schema to `p` that is a `const` or an all-string `enum` (possibly behind
//! `$ref`/`allOf`), or it holds an `anyOf`/`oneOf` whose alternatives all
//! pin `p` (to the union of their values): if the instance has `p` with a
//! value outside `S`, the alternative fails. Alternatives that pin nothing
//! stay candidates for every value.

use crate::bytecode::*;
use crate::lookup::KeyTable;

/// How far the search follows `$ref`/`allOf`.
const MAX_HOPS: usize = 8;

/// The string values `node` pins `property` to, if it does.
fn pinned<'p>(program: &'p Program, node: NodeId, property: &str, hops: usize) -> Option<Vec<&'p str>> {
    if hops > MAX_HOPS {
        return None;
    }
    let mut result: Option<Vec<&'p str>> = None;
    let mut narrow = |values: Vec<&'p str>| {
        result = Some(match result.take() {
            None => values,
            Some(prev) => prev.into_iter().filter(|v| values.contains(v)).collect(),
        });
    };
    for instr in program.code(node) {
        match *instr {
            Instr::Object(o) => {
                let o = program.object(o);
                let schema = o.names.find(property).and_then(|i| o.entries.get(i as usize)).and_then(|e| e.schema);
                if let Some(values) = schema.and_then(|s| constants(program, s, hops + 1)) {
                    narrow(values);
                }
            }
            Instr::Ref(n) => {
                if let Some(values) = pinned(program, n, property, hops + 1) {
                    narrow(values);
                }
            }
            Instr::AllOf(l) => {
                for &n in program.list(l) {
                    if let Some(values) = pinned(program, n, property, hops + 1) {
                        narrow(values);
                    }
                }
            }
            // Alternatives that all pin the property pin it to the union
            // of their values: outside it, each of them fails.
            Instr::AnyOf(l) | Instr::OneOf(l) => {
                let mut union: Vec<&'p str> = Vec::new();
                let every = program.list(l).iter().all(|&n| match pinned(program, n, property, hops + 1) {
                    Some(values) => {
                        add_distinct(&mut union, values);
                        true
                    }
                    None => false,
                });
                if every {
                    narrow(union);
                }
            }
            _ => {}
        }
    }
    result
}

/// The string constants a schema admits, if it is a string `const` or an
/// all-string `enum` (behind `$ref`/`allOf`), so that it rejects every
/// other value, strings or not.
fn constants<'p>(program: &'p Program, node: NodeId, hops: usize) -> Option<Vec<&'p str>> {
    if hops > MAX_HOPS {
        return None;
    }
    let mut result: Option<Vec<&'p str>> = None;
    let mut narrow = |values: Vec<&'p str>| {
        result = Some(match result.take() {
            None => values,
            Some(prev) => prev.into_iter().filter(|v| values.contains(v)).collect(),
        });
    };
    for instr in program.code(node) {
        match *instr {
            // A `const` that is not a string admits a value the string
            // pins cannot name (the VM gives a non-string instance value
            // only the alternatives pinning nothing): such a schema does
            // not pin the property.
            Instr::Const(v) => match program.value(v).as_str() {
                Some(s) => narrow(vec![s]),
                None => return None,
            },
            Instr::Enum(e) => {
                let set = program.enum_set(e);
                if set.all_strings {
                    narrow(set.strings.keys().collect());
                }
            }
            Instr::Ref(n) => {
                if let Some(values) = constants(program, n, hops + 1) {
                    narrow(values);
                }
            }
            Instr::AllOf(l) => {
                for &n in program.list(l) {
                    if let Some(values) = constants(program, n, hops + 1) {
                        narrow(values);
                    }
                }
            }
            _ => {}
        }
    }
    result
}

/// Property names pinned by some object keyword of `node` (through
/// `$ref`/`allOf`): the candidates for a discriminator.
fn candidate_properties<'p>(program: &'p Program, node: NodeId, hops: usize, out: &mut Vec<&'p str>) {
    if hops > MAX_HOPS {
        return;
    }
    for instr in program.code(node) {
        match *instr {
            Instr::Object(o) => {
                let o = program.object(o);
                for (name, e) in o.names.keys().zip(o.entries.iter()) {
                    if e.schema.is_some_and(|s| constants(program, s, hops + 1).is_some()) && !out.contains(&name) {
                        out.push(name);
                    }
                }
            }
            Instr::Ref(n) => candidate_properties(program, n, hops + 1, out),
            Instr::AllOf(l) | Instr::AnyOf(l) | Instr::OneOf(l) => {
                for &n in program.list(l) {
                    candidate_properties(program, n, hops + 1, out);
                }
            }
            _ => {}
        }
    }
}

/// Adds to `set` the `values` it does not hold yet. (Lists of a schema's
/// pinned values: short, so a scan beats hashing.)
fn add_distinct<'p>(set: &mut Vec<&'p str>, values: impl IntoIterator<Item = &'p str>) {
    for v in values {
        if !set.contains(&v) {
            set.push(v);
        }
    }
}

/// Per alternative: the values it pins the property to, if any.
type Pins<'p> = Vec<Option<Vec<&'p str>>>;

/// How well a property's pins split the alternatives.
#[derive(Debug, Clone, Copy)]
struct Selectivity {
    /// Alternatives pinning the property.
    pinned: usize,
    /// Pins summed over the distinct values (each value's candidates
    /// among the pinned alternatives).
    pins: usize,
    /// Distinct values.
    values: usize,
}

impl Selectivity {
    fn of(per_branch: &Pins<'_>) -> Selectivity {
        let mut distinct: Vec<&str> = Vec::new();
        let mut pins = 0;
        for vals in per_branch.iter().flatten() {
            pins += vals.len();
            add_distinct(&mut distinct, vals.iter().copied());
        }
        Selectivity { pinned: per_branch.iter().filter(|p| p.is_some()).count(), pins, values: distinct.len() }
    }

    /// More alternatives pinned, or as many with fewer candidates per
    /// value (`pins / values`, compared without division).
    fn better_than(&self, other: &Selectivity) -> bool {
        self.pinned > other.pinned
            || (self.pinned == other.pinned && self.pins * other.values.max(1) < other.pins * self.values.max(1))
    }
}

/// The best discriminator of an alternatives list, if one pins at least
/// two alternatives.
fn discriminate(program: &Program, list: &[NodeId]) -> Option<Discriminator> {
    let mut names = Vec::new();
    for &branch in list.iter().take(4) {
        candidate_properties(program, branch, 0, &mut names);
    }
    // The property pinning the most alternatives; among those, the one
    // leaving the fewest candidates per value (`in` rather than an
    // optional `collectionFormat` that most alternatives share).
    let mut best: Option<(Selectivity, &str, Pins<'_>)> = None;
    for name in names {
        let per_branch: Pins<'_> = list.iter().map(|&b| pinned(program, b, name, 0)).collect();
        let score = Selectivity::of(&per_branch);
        if score.pinned >= 2 && best.as_ref().is_none_or(|(b, _, _)| score.better_than(b)) {
            best = Some((score, name, per_branch));
        }
    }
    let (_, property, per_branch) = best?;
    let mut values: Vec<Box<str>> = Vec::new();
    let mut slots: Vec<Vec<u32>> = Vec::new();
    let mut always = Vec::new();
    for (i, pins) in per_branch.into_iter().enumerate() {
        let i = u32::try_from(i).ok()?;
        match pins {
            None => always.push(i),
            Some(vals) => {
                for v in vals {
                    match values.iter().position(|x| **x == *v) {
                        Some(slot) => slots.get_mut(slot)?.push(i),
                        None => {
                            values.push(v.into());
                            slots.push(vec![i]);
                        }
                    }
                }
            }
        }
    }
    // Each value's candidates: its pins and the alternatives pinning
    // nothing, merged in order.
    let slots = slots
        .into_iter()
        .map(|mut slot| {
            slot.extend_from_slice(&always);
            slot.sort_unstable();
            slot.dedup();
            slot.into_boxed_slice()
        })
        .collect();
    Some(Discriminator {
        property: property.into(),
        values: KeyTable::new(values),
        slots,
        always: always.into_boxed_slice(),
    })
}

/// Finds the discriminator of every `anyOf`/`oneOf` list.
pub(super) fn find(program: &mut Program) {
    let mut found: Vec<Option<Box<Discriminator>>> = vec![None; program.lists.len()];
    for instr in &program.code {
        if let Instr::AnyOf(l) | Instr::OneOf(l) = *instr {
            if let Some(slot) = found.get_mut(l.index()) {
                if slot.is_none() {
                    *slot = discriminate(program, program.list(l)).map(Box::new);
                }
            }
        }
    }
    program.discriminators = found;
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::bytecode::Instr;
    use crate::{CompileOptions, compile};

    /// Each discriminated `anyOf`/`oneOf` of `schema`: its property and
    /// values, in code order.
    fn discriminators(schema: Value) -> Vec<(String, Vec<String>)> {
        let program = compile(&schema, &CompileOptions::default()).expect("compiles");
        let mut found = Vec::new();
        for instr in &program.code {
            if let Instr::AnyOf(l) | Instr::OneOf(l) = *instr {
                if let Some(d) = program.discriminator(l) {
                    let mut values: Vec<String> = d.values.keys().map(str::to_string).collect();
                    values.sort();
                    found.push((d.property.to_string(), values));
                }
            }
        }
        found
    }

    #[test]
    fn nested_alternatives_pin_the_union_of_their_values() {
        let found = discriminators(json!({"oneOf": [
            {"properties": {"kind": {"const": "a"}}},
            {"oneOf": [{"properties": {"kind": {"enum": ["b", "c"]}}}, {"properties": {"kind": {"const": "d"}}}]}
        ]}));
        let values = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(found, [("kind".into(), values(&["a", "b", "c", "d"])), ("kind".into(), values(&["b", "c", "d"]))]);
        // One alternative that pins nothing leaves the nested list unpinned.
        let found = discriminators(json!({"oneOf": [
            {"properties": {"kind": {"const": "a"}}},
            {"properties": {"kind": {"const": "e"}}},
            {"anyOf": [{"properties": {"kind": {"const": "b"}}}, {"required": ["x"]}]}
        ]}));
        assert_eq!(found, [("kind".into(), values(&["a", "e"]))]);
    }

    #[test]
    fn only_string_constants_pin() {
        // `const: null` admits a value no string pin names: not a pin.
        let pinned_to_null = json!({"properties": {"a": {"const": null}}});
        assert_eq!(discriminators(json!({"anyOf": [pinned_to_null, pinned_to_null]})), []);
        // Under `allOf`, a value must pass every member: the string pin of
        // one still holds (the other, pinning nothing, only rejects more).
        let both = json!({"allOf": [{"properties": {"a": {"const": 1}}}, {"properties": {"a": {"const": "x"}}}]});
        let found = discriminators(json!({"anyOf": [both, {"properties": {"a": {"const": "y"}}}]}));
        assert_eq!(found, [("a".to_string(), vec!["x".to_string(), "y".to_string()])]);
        // In one schema beside a string `enum`, a non-string `const` leaves
        // the property unpinned.
        let mixed = json!({"properties": {"a": {"const": 1, "enum": ["x", 1]}}});
        assert_eq!(discriminators(json!({"anyOf": [mixed, mixed]})), []);
        // The string pins still discriminate; the other alternative pins
        // nothing.
        let found = discriminators(json!({"oneOf": [
            {"properties": {"a": {"const": "x"}}},
            {"properties": {"a": {"enum": ["y"]}}},
            {"properties": {"a": {"const": 1}}}
        ]}));
        assert_eq!(found, [("a".to_string(), vec!["x".to_string(), "y".to_string()])]);
    }

    #[test]
    fn the_most_selective_property_is_chosen() {
        // Every alternative pins both; `format` leaves all three candidates
        // for each value, `in` one.
        let alternative =
            |place: &str| json!({"properties": {"format": {"enum": ["csv", "ssv", "pipes"]}, "in": {"const": place}}});
        let found =
            discriminators(json!({"oneOf": [alternative("query"), alternative("header"), alternative("path")]}));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "in");
    }
}
