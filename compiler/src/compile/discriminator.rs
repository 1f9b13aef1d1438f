//! Discriminated `anyOf`/`oneOf`: when the alternatives each pin one
//! property to string constants (`"resourceType": {"const": "Patient"}`,
//! `"type": {"enum": ["Point"]}`), an object instance carrying that
//! property can only match the alternatives admitting its value, so the
//! VM evaluates just those.
//!
//! An alternative *pins* property `p` to values `S` when, at its own
//! location (through `$ref` and `allOf` only), an object keyword applies a
//! schema to `p` that is a `const` or an all-string `enum` (possibly behind
//! `$ref`/`allOf`): if the instance has `p` with a value outside `S`, the
//! alternative fails. Alternatives that pin nothing stay candidates for
//! every value.

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
            _ => {}
        }
    }
    result
}

/// The string constants a schema admits, if it is a `const` or an
/// all-string `enum` (behind `$ref`/`allOf`).
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
            Instr::Const(v) => match program.value(v).as_str() {
                Some(s) => narrow(vec![s]),
                None => narrow(Vec::new()),
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
            Instr::AllOf(l) => {
                for &n in program.list(l) {
                    candidate_properties(program, n, hops + 1, out);
                }
            }
            _ => {}
        }
    }
}

/// Per alternative: the values it pins the property to, if any.
type Pins<'p> = Vec<Option<Vec<&'p str>>>;

/// The best discriminator of an alternatives list, if one pins at least
/// two alternatives.
fn discriminate(program: &Program, list: &[NodeId]) -> Option<Discriminator> {
    let mut names = Vec::new();
    for &branch in list.iter().take(4) {
        candidate_properties(program, branch, 0, &mut names);
    }
    let mut best: Option<(usize, &str, Pins<'_>)> = None;
    for name in names {
        let per_branch: Pins<'_> = list.iter().map(|&b| pinned(program, b, name, 0)).collect();
        let pinned_count = per_branch.iter().filter(|p| p.is_some()).count();
        if pinned_count >= 2 && best.as_ref().is_none_or(|(c, _, _)| pinned_count > *c) {
            best = Some((pinned_count, name, per_branch));
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
