//! Finds the `anyOf`/`oneOf` lists whose alternatives only require
//! property names, and gives each a [`PresenceList`].
//!
//! An alternative qualifies when, past its forwarding `$ref`s, it is a
//! node that passes everything (`{}`: it requires no name) or a node of
//! one object instruction whose only check on the boolean path is
//! `required` (a fused `type` is allowed: the list is decided this way
//! only for objects, which pass it; so are property schemas that pass
//! everything, as GitHub's workflow steps write
//! `{"properties": {"uses": true}, "required": ["uses"]}`). Its verdict on an object is then "has every name it
//! requires", whatever the node's entry, so the VM's boolean path may
//! decide the whole list from the names an object has.

use super::names::Names;
use crate::bytecode::{Instr, ListEntry, NodeId, ObjectChecks, PresenceList, Program};
use crate::lookup::KeyTable;

/// Gives each `anyOf`/`oneOf` list of required-only alternatives its
/// [`PresenceList`]. Runs once the quick lists are set.
pub(super) fn find(program: &mut Program) {
    super::analyze_lists(program, super::alternatives_of, of_list, |list, presence| list.set_presence(presence));
}

/// The names each alternative of `list` requires, if each only requires
/// names, as a [`PresenceList`].
fn of_list(program: &Program, list: &ListEntry) -> Option<PresenceList> {
    if list.quick.len() < 2 {
        return None;
    }
    let mut names = Names::default();
    let mut sets: Vec<Vec<u32>> = Vec::with_capacity(list.quick.len());
    for &id in list.quick.iter() {
        let mut set: Vec<u32> = required_only(program, id)?.into_iter().map(|name| names.index(name).0).collect();
        set.sort_unstable();
        set.dedup();
        sets.push(set);
    }
    let alternatives = u32::try_from(sets.len()).ok()?;
    let mut table: KeyTable<u32> = names.table();
    if sets.iter().all(|s| s.len() == 1) {
        // Each name's payload: the alternatives that require it alone.
        let mut counts = vec![0u32; names.len()];
        for &i in sets.iter().flatten() {
            if let Some(c) = counts.get_mut(i as usize) {
                *c += 1;
            }
        }
        table.set_payloads(|i| counts.get(i as usize).copied().unwrap_or(0));
        return Some(PresenceList { names: table, sets: None, alternatives });
    }
    // Past `MOST_NAMES` (256) names, an index no longer fits a byte.
    let sets = sets
        .into_iter()
        .map(|s| s.into_iter().map(|i| u8::try_from(i).ok()).collect::<Option<Box<[u8]>>>())
        .collect::<Option<Box<[_]>>>()?;
    Some(PresenceList { names: table, sets: Some(sets), alternatives })
}

/// The names node `id` requires, if requiring them is all it does to an
/// object.
fn required_only(program: &Program, id: NodeId) -> Option<Vec<&str>> {
    let node = program.nodes.get(id.index())?;
    if node.entry.passes_untracked() {
        return Some(Vec::new());
    }
    let &[Instr::Object(object)] = program.code_of(node) else {
        return None;
    };
    let c = program.operands().objects.get(object.index())?;
    if !only_requires(c) {
        return None;
    }
    c.required.iter().map(|&r| c.names.key(r)).collect()
}

/// Whether object checks `c` check nothing but `required` on the boolean
/// path (and the fused `type`, which every object passes): no quiet scan
/// (property schemas that pass everything, such as `{"uses": true}`, need
/// none), no dependencies, no size bounds.
fn only_requires(c: &ObjectChecks) -> bool {
    !c.quiet_scan && c.dependents().is_empty() && c.min_properties() == 0 && c.max_properties() == u64::MAX
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::bytecode::PresenceList;

    /// The presence list of the program's only `anyOf`/`oneOf`.
    fn presence(schema: Value) -> Option<PresenceList> {
        let (p, list) = crate::compile::first_alternatives(&schema);
        p.operands().presence(list?).cloned()
    }

    #[test]
    fn lists_of_single_names_count_each_name() {
        let p = presence(json!({"not": {"anyOf": [
            {"required": ["a"]}, {"required": ["b"]}, {"required": ["a"], "type": "object"}
        ]}}))
        .expect("a presence list");
        assert!(p.sets.is_none());
        assert_eq!(p.alternatives, 3);
        assert_eq!(p.names.find_with_payload("a"), Some((0, 2)));
        assert_eq!(p.names.find_with_payload("b"), Some((1, 1)));
        assert_eq!(p.names.find("c"), None);
    }

    #[test]
    fn lists_of_name_sets_keep_each_set() {
        let p = presence(json!({"oneOf": [{"required": ["a", "b", "a"]}, {"required": ["c"]}, {}]}))
            .expect("a presence list");
        let sets = p.sets.expect("sets");
        assert_eq!(&*sets[0], &[0, 1]);
        assert_eq!(&*sets[1], &[2]);
        assert!(sets[2].is_empty());
    }

    #[test]
    fn property_schemas_that_pass_everything_do_not_count() {
        let p = presence(json!({"oneOf": [
            {"type": "object", "properties": {"uses": true}, "required": ["uses"]},
            {"type": "object", "properties": {"run": {}}, "required": ["run"]}
        ]}));
        assert!(p.is_some_and(|p| p.sets.is_none()));
    }

    #[test]
    fn alternatives_past_forwarding_refs_count() {
        let p = presence(json!({
            "$defs": {"a": {"required": ["a"]}},
            "anyOf": [{"$ref": "#/$defs/a"}, {"required": ["b"]}]
        }));
        assert!(p.is_some());
    }

    #[test]
    fn alternatives_checking_more_than_names_do_not() {
        for other in [
            json!({"required": ["b"], "properties": {"b": {"type": "string"}}}),
            json!({"required": ["b"], "minProperties": 2}),
            json!({"required": ["b"], "maxProperties": 2}),
            json!({"required": ["b"], "additionalProperties": false}),
            json!({"required": ["b"], "propertyNames": {"maxLength": 2}}),
            json!({"required": ["b"], "dependentRequired": {"b": ["c"]}}),
            json!({"type": "object"}),
            json!({"type": "string"}),
            json!(false),
            json!({"required": ["b"], "allOf": [{"required": ["c"]}]}),
        ] {
            let schema = json!({"anyOf": [{"required": ["a"]}, other]});
            assert!(presence(schema.clone()).is_none(), "{schema}");
        }
        assert!(presence(json!({"anyOf": [{"required": ["a"]}]})).is_none(), "one alternative");
    }

    #[test]
    fn sets_of_more_than_256_names_are_left_to_the_vm() {
        let names = |range: std::ops::Range<usize>| range.map(|i| format!("n{i}")).collect::<Vec<_>>();
        let wide = json!({"anyOf": [{"required": names(0..200)}, {"required": names(200..257)}]});
        assert!(presence(wide).is_none());
        let single: Vec<Value> = (0..300).map(|i| json!({"required": [format!("n{i}")]})).collect();
        assert!(presence(json!({"anyOf": single})).is_some(), "single names have no limit");
    }
}
