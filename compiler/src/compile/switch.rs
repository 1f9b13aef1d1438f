//! Finds the `allOf` lists of `if`/`then` conditions on one property's
//! value, and gives each a [`ConditionSwitch`].
//!
//! A member is such a condition when, past its forwarding `$ref`s, it is
//! a node that runs its one `if`/`then` instruction in place (no depth or
//! memo bookkeeping of its own, which the switch would skip), with no
//! `else`, and whose `if` is one object instruction that only applies a
//! string `const` (or an `enum` of strings) to the property, and may
//! require it. On an object, that `if` passes exactly when the property
//! holds one of those strings, or is absent and not required: the
//! verdict of the member is its `then`'s when it passes, and `true`
//! otherwise. The switch needs two such members on the same property;
//! other members run as they are.

use super::names::Names;
use crate::bytecode::{ConditionSwitch, Entry, Instr, ListEntry, NodeId, ObjectChecks, Program};
use crate::value::{JsonType, TypeSet};

/// One member's condition: the property, the strings its `if` admits,
/// whether it requires the property, and its `then`.
struct Condition<'p> {
    property: &'p str,
    values: Vec<&'p str>,
    required: bool,
    then: Option<NodeId>,
}

/// Gives each `allOf` list of conditions on one property its
/// [`ConditionSwitch`]. Runs once the quick lists are set.
pub(super) fn find(program: &mut Program) {
    let conjunctions = |instr: &Instr| match *instr {
        Instr::AllOf(l) => Some(l),
        _ => None,
    };
    super::analyze_lists(program, conjunctions, of_list, |list, switch| list.set_switch(Some(switch)));
}

/// The switch of an `allOf` list, if at least two members are conditions
/// on the same property (the first such member's).
fn of_list(program: &Program, list: &ListEntry) -> Option<ConditionSwitch> {
    let conditions: Vec<Option<Condition<'_>>> = list.quick.iter().map(|&id| condition(program, id)).collect();
    let property = conditions.iter().flatten().next()?.property;
    // Conditions on another property run as they are.
    let conditions: Vec<Option<Condition<'_>>> =
        conditions.into_iter().map(|c| c.filter(|c| c.property == property)).collect();
    if conditions.iter().flatten().count() < 2 {
        return None;
    }
    let mut values = Names::default();
    let mut slots: Vec<Vec<NodeId>> = Vec::new();
    let mut absent = Vec::new();
    let mut always = Vec::new();
    for (&member, c) in list.quick.iter().zip(&conditions) {
        let Some(c) = c else {
            always.push(member);
            continue;
        };
        // A condition without `then` passes every object.
        let Some(then) = c.then else { continue };
        if !c.required {
            absent.push(then);
        }
        for &v in &c.values {
            let (slot, new) = values.index(v);
            if new {
                slots.push(Vec::new());
            }
            // Two conditions leading to one `then` apply it once.
            if let Some(s) = slots.get_mut(slot as usize).filter(|s| s.last() != Some(&then)) {
                s.push(then);
            }
        }
    }
    Some(ConditionSwitch {
        property: property.into(),
        values: values.table(),
        slots: slots.into_iter().map(Vec::into_boxed_slice).collect(),
        absent: absent.into_boxed_slice(),
        always: always.into_boxed_slice(),
    })
}

/// Node `id` as a condition on one property's value, if it is one.
fn condition(program: &Program, id: NodeId) -> Option<Condition<'_>> {
    let node = program.nodes.get(id.index())?;
    if !matches!(node.entry, Entry::Single | Entry::Direct) {
        return None;
    }
    let &[Instr::Cond(cond)] = program.code_of(node) else {
        return None;
    };
    let cond = program.cond(cond);
    if cond.otherwise.is_some() {
        return None;
    }
    let test = program.nodes.get(cond.test.index())?;
    let &[Instr::Object(object)] = program.code_of(test) else {
        return None;
    };
    let c = program.operands().objects.get(object.index())?;
    let (property, required) = tests_one_property(c)?;
    let schema = c.entries.first()?.schema?;
    Some(Condition { property, values: strings(program, schema)?, required, then: cond.then })
}

/// The one property object checks `c` apply a schema to, and whether
/// they require it, if that is all they do to an object.
fn tests_one_property(c: &ObjectChecks) -> Option<(&str, bool)> {
    let [entry] = &*c.entries else { return None };
    let plain = c.patterns.is_empty()
        && c.additional.is_none()
        && c.property_names.is_none()
        && c.dependents().is_empty()
        && c.min_properties() == 0
        && c.max_properties() == u64::MAX
        && entry.schema.is_some();
    if !plain {
        return None;
    }
    Some((c.names.key(0)?, entry.required))
}

/// The strings a schema admits, if it is exactly a string `const` or an
/// `enum` of strings (with at most a `type` that admits strings).
fn strings(program: &Program, schema: NodeId) -> Option<Vec<&str>> {
    let node = program.nodes.get(schema.index())?;
    match *program.code_of(node) {
        [Instr::Const(v)] => Some(vec![program.operands().value(v).as_str()?]),
        [Instr::Enum(e)] => {
            let set = program.operands().enum_set(e);
            let typed = set.type_fused.is_none_or(|t: TypeSet| t.contains(JsonType::String));
            (set.all_strings && typed).then(|| set.strings.keys().collect())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::bytecode::{ConditionSwitch, Instr, Program};
    use crate::{CompileOptions, compile};

    /// The program and the condition switch of its first `allOf`.
    fn switch(schema: Value) -> (Program, Option<ConditionSwitch>) {
        let p = compile(&schema, &CompileOptions::default()).expect("compiles");
        let list = p.code.iter().find_map(|i| match *i {
            Instr::AllOf(l) => Some(l),
            _ => None,
        });
        let s = list.and_then(|l| p.operands().condition_switch(l).cloned());
        (p, s)
    }

    fn when(value: Value, then: Value) -> Value {
        json!({"if": {"properties": {"type": value}}, "then": then})
    }

    #[test]
    fn conditions_on_one_property_choose_their_then() {
        let (_, s) = switch(json!({"allOf": [
            when(json!({"const": "a"}), json!({"required": ["x"]})),
            when(json!({"enum": ["b", "c", "b"]}), json!({"required": ["y"]})),
            {"if": {"properties": {"type": {"const": "c"}}, "required": ["type"]}, "then": {"required": ["z"]}},
            {"required": ["type"]}
        ]}));
        let s = s.expect("a switch");
        assert_eq!(&*s.property, "type");
        assert_eq!(s.values.keys().collect::<Vec<_>>(), ["a", "b", "c"]);
        assert_eq!(s.slots.iter().map(|slot| slot.len()).collect::<Vec<_>>(), [1, 1, 2]);
        assert_eq!(s.absent.len(), 2, "the required condition does not pass an object without the property");
        assert_eq!(s.always.len(), 1);
    }

    #[test]
    fn other_shapes_are_left_as_they_are() {
        let a = when(json!({"const": "a"}), json!({"required": ["x"]}));
        for other in [
            json!({"if": {"properties": {"type": {"const": "b"}}}, "then": true, "else": {"required": ["y"]}}),
            when(json!({"const": 1}), json!({"required": ["y"]})),
            when(json!({"enum": ["b", 1]}), json!({"required": ["y"]})),
            when(json!({"minLength": 1}), json!({"required": ["y"]})),
            json!({"if": {"properties": {"type": {"const": "b"}}, "minProperties": 2}, "then": {"required": ["y"]}}),
            json!({"if": {"properties": {"type": {"const": "b"}, "k": {"const": "c"}}}, "then": {"required": ["y"]}}),
            json!({"if": {"properties": {"kind": {"const": "b"}}}, "then": {"required": ["y"]}}),
        ] {
            let schema = json!({"allOf": [a, other]});
            assert!(switch(schema.clone()).1.is_none(), "{schema}");
        }
    }
}
