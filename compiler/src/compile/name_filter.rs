//! Finds the `anyOf`/`oneOf` lists whose alternatives reject objects by
//! their names, and gives each a [`NameFilter`].
//!
//! For each name some alternative declares (at its own location, through
//! `$ref`, `allOf` and nested lists), the filter records which
//! alternatives admit it ([`discriminator::forbids`] is the test) and, if
//! some alternative requires it ([`discriminator::requires`]), a bit of
//! its own; for every other name, which alternatives admit any name they
//! do not declare (all but those closed by an `additionalProperties` that
//! rejects every value, with no `patternProperties`). A name no
//! alternative declares is declared by none of their object keywords, so
//! the one mask covers them all.
//!
//! A list gets a filter when it rules something out (some alternative
//! rejects a name or requires one) and no cheaper narrowing decides it:
//! a presence list, or a discriminator that pins its property's values
//! (one lookup of one property). A discriminator by presence alone
//! decides a list of two alternatives just as well; from three on, the
//! filter is taken instead (the discriminator stays for the tracked and
//! recording paths).

use super::discriminator::{self, Distinct, Walk};
use crate::bytecode::{ListEntry, NameBits, NameFilter, NodeId, ObjectChecks, Program};
use crate::lookup::KeyTable;
use crate::value::JsonType;

/// Most distinct names a filter is built for: the analysis asks each
/// alternative about each name.
const MOST_NAMES: usize = 256;

/// Gives each `anyOf`/`oneOf` list that qualifies its [`NameFilter`].
/// Runs once the discriminators and presence lists are set.
pub(super) fn find(program: &mut Program) {
    super::analyze_lists(program, super::alternatives_of, of_list, |list, filter| list.set_name_filter(filter));
}

/// The name filter of `list`, if it qualifies (see the module docs).
fn of_list(program: &Program, list: &ListEntry) -> Option<NameFilter> {
    let alternatives = &list.quick;
    if alternatives.len() < 2 || alternatives.len() > NameFilter::MOST_ALTERNATIVES {
        return None;
    }
    if list.by_members.as_deref().is_some_and(|b| b.presence.is_some()) {
        return None;
    }
    let discriminator = list.discriminator();
    if discriminator.is_some_and(|d| !d.values.is_empty()) {
        return None;
    }
    let objects = bits(alternatives, |n| program.node(n).admitted_types().contains(JsonType::Object));
    if objects.count_ones() < if discriminator.is_some() { 3 } else { 2 } {
        return None;
    }
    let mut declared = Distinct::default();
    for (_, &node) in admitting(alternatives, objects) {
        discriminator::object_names(program, node, 0, Walk::Alternatives, &declared_names, &mut declared);
        if declared.list.len() > MOST_NAMES {
            return None;
        }
    }
    let mut per_name = Vec::with_capacity(declared.list.len());
    let mut required = vec![0u64; alternatives.len()];
    let mut next_bit = 0u32;
    for &name in &declared.list {
        let mut entry = NameBits { admitted: objects, required: 0 };
        for (i, &node) in admitting(alternatives, objects) {
            if discriminator::forbids(program, node, name, 0) {
                entry.admitted &= !(1u64 << i);
            }
            if discriminator::requires(program, node, name, 0) {
                if entry.required == 0 {
                    // A 65th required name: the bits run out.
                    entry.required = 1u64.checked_shl(next_bit)?;
                    next_bit += 1;
                }
                if let Some(r) = required.get_mut(i) {
                    *r |= entry.required;
                }
            }
        }
        per_name.push(entry);
    }
    let others = objects & !bits(alternatives, |node| discriminator::closed_to_undeclared(program, node));
    let rules_out = others != objects || next_bit > 0 || per_name.iter().any(|b| b.admitted != objects);
    if !rules_out {
        return None;
    }
    // `declared` holds each name once: index `i` is its `i`th name.
    let mut table: KeyTable<NameBits> = KeyTable::new(declared.list.iter().map(|&n| Box::from(n)).collect());
    table.set_payloads(|i| per_name.get(i as usize).copied().unwrap_or_default());
    Some(NameFilter { names: table, objects, others, required: required.into_boxed_slice() })
}

/// The names object keyword `o` declares or requires.
fn declared_names(o: &ObjectChecks, _depth: usize) -> impl Iterator<Item = &str> {
    o.names.keys()
}

/// Bit `i` set for each alternative `i` that `test` holds for.
fn bits(alternatives: &[NodeId], test: impl Fn(NodeId) -> bool) -> u64 {
    alternatives.iter().enumerate().filter(|&(_, &n)| test(n)).fold(0, |acc, (i, _)| acc | 1u64 << i)
}

/// The alternatives whose bit `mask` sets, with their indices.
fn admitting(alternatives: &[NodeId], mask: u64) -> impl Iterator<Item = (usize, &NodeId)> {
    alternatives.iter().enumerate().filter(move |&(i, _)| mask >> i & 1 == 1)
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::bytecode::NameFilter;

    /// The name filter of the program's first `anyOf`/`oneOf`.
    fn filter(schema: Value) -> Option<NameFilter> {
        let (p, list) = crate::compile::first_alternatives(&schema);
        p.operands().name_filter(list?).cloned()
    }

    /// The candidates `f` leaves for an object with `names`.
    fn candidates(f: &NameFilter, names: &[&str]) -> u64 {
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        f.candidates(names.iter())
    }

    #[test]
    fn closed_wrappers_leave_the_one_naming_the_member() {
        let wrapper = |name: &str| json!({"type": "object", "properties": {name: {"type": "object"}}, "additionalProperties": false});
        let f = filter(json!({"oneOf": [wrapper("step"), wrapper("parallel"), wrapper("stage")]})).expect("a filter");
        assert_eq!(f.objects, 0b111);
        assert_eq!(f.others, 0);
        assert_eq!(candidates(&f, &["step"]), 0b001);
        assert_eq!(candidates(&f, &["stage"]), 0b100);
        assert_eq!(candidates(&f, &["step", "stage"]), 0);
        assert_eq!(candidates(&f, &["other"]), 0);
        assert_eq!(candidates(&f, &[]), 0b111);
    }

    #[test]
    fn required_names_rule_out_the_alternatives_lacking_them() {
        // Two alternatives requiring a name each, one open alternative,
        // and one that admits no object.
        let f = filter(json!({"anyOf": [
            {"required": ["a"]},
            {"required": ["b", "c"], "properties": {"b": {"type": "string"}}},
            {"properties": {"a": {"type": "integer"}}},
            {"type": "string"}
        ]}))
        .expect("a filter");
        assert_eq!(f.objects, 0b0111);
        assert_eq!(f.others, 0b0111);
        assert_eq!(candidates(&f, &[]), 0b0100);
        assert_eq!(candidates(&f, &["a"]), 0b0101);
        assert_eq!(candidates(&f, &["b", "x"]), 0b0100);
        assert_eq!(candidates(&f, &["b", "c", "a"]), 0b0111);
    }

    #[test]
    fn patterns_and_false_schemas_decide_what_is_rejected() {
        let f = filter(json!({"oneOf": [
            // Closed, with a pattern: undeclared names may match it.
            {"properties": {"a": {}}, "patternProperties": {"^x-": {}}, "additionalProperties": false},
            // Open, but `b` is forbidden by its `false` schema.
            {"properties": {"b": false}},
            // Closed through a `$ref` and an `allOf`.
            {"allOf": [{"$ref": "#/$defs/closed"}]}
        ], "$defs": {"closed": {"properties": {"c": {}}, "additionalProperties": false}}}))
        .expect("a filter");
        assert_eq!(f.others, 0b011);
        assert_eq!(candidates(&f, &["a"]), 0b011);
        assert_eq!(candidates(&f, &["b"]), 0b000);
        assert_eq!(candidates(&f, &["c"]), 0b110);
        assert_eq!(candidates(&f, &["x-1"]), 0b011);
    }

    #[test]
    fn lists_other_narrowings_decide_get_none() {
        // Nothing ruled out.
        assert!(filter(json!({"anyOf": [{"properties": {"a": {}}}, {"properties": {"b": {}}}]})).is_none());
        // Required names only: the presence list decides.
        assert!(filter(json!({"oneOf": [{"required": ["a"]}, {"required": ["b"]}, {"required": ["c"]}]})).is_none());
        // A tag's values pin the alternatives: the discriminator decides.
        let tagged = |tag: &str| json!({"properties": {"kind": {"const": tag}, tag: {}}, "required": ["kind"], "additionalProperties": false});
        assert!(filter(json!({"oneOf": [tagged("a"), tagged("b"), tagged("c")]})).is_none());
        // Two alternatives a property's presence splits: its
        // discriminator decides.
        let closed = |name: &str| json!({"properties": {name: {}}, "required": [name], "additionalProperties": false});
        assert!(filter(json!({"oneOf": [closed("a"), closed("b")]})).is_none());
        // From three on, the filter.
        let f = filter(json!({"oneOf": [closed("a"), closed("b"), closed("c")]})).expect("a filter");
        assert_eq!(candidates(&f, &["b"]), 0b010);
        assert_eq!(candidates(&f, &[]), 0);
        // One alternative admitting objects: the type masks decide.
        assert!(filter(json!({"oneOf": [closed("a"), {"type": "string"}]})).is_none());
    }

    #[test]
    fn more_than_64_alternatives_or_required_names_get_none() {
        let closed = |i: usize| json!({"properties": {format!("n{i}"): {}}, "additionalProperties": false});
        assert!(filter(json!({"anyOf": (0..64).map(closed).collect::<Vec<_>>()})).is_some());
        assert!(filter(json!({"anyOf": (0..65).map(closed).collect::<Vec<_>>()})).is_none());
        let names = |range: std::ops::Range<usize>| range.map(|i| format!("r{i}")).collect::<Vec<_>>();
        let wide = |n: usize| {
            json!({"anyOf": [
                {"required": names(0..n), "properties": {"z": {"type": "string"}}},
                {"properties": {"z": false}},
                {"properties": {"y": false}}
            ]})
        };
        assert!(filter(wide(64)).is_some());
        assert!(filter(wide(65)).is_none());
    }
}
