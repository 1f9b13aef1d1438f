//! Whole-program checks after lowering.
//!
//! * Unguarded recursion: a cycle of in-place applications (`$ref`,
//!   `allOf`, `not`, `if`, dynamic references, dependent schemas, ...)
//!   that never moves to a child of the instance would evaluate forever;
//!   it is a compile error naming the cycle.
//! * Node flags: nodes with no instructions always pass; nodes starting
//!   with [`Instr::Fail`] always fail; nodes that never descend into the
//!   instance or recurse are [`NodeFlags::CHEAP`].

use crate::bytecode::*;
use crate::error::{CompileError, CompileErrorKind};

/// Runs the checks and sets node flags.
pub(super) fn check_and_flag(program: &mut Program) -> Result<(), CompileError> {
    for node in &mut program.nodes {
        if node.code_start == node.code_end {
            node.flags.insert(NodeFlags::ALWAYS_VALID);
        } else if program.code.get(node.code_start as usize) == Some(&Instr::Fail) {
            node.flags.insert(NodeFlags::ALWAYS_INVALID);
        }
    }
    find_unguarded_cycle(program)?;
    mark_cheap(program);
    Ok(())
}

/// Rounds of the cheapness fixpoint; nodes not proven cheap by then are
/// treated as expensive (the safe default).
const CHEAP_ROUNDS: usize = 8;

/// Flags nodes whose instructions are all scalar checks, or in-place
/// applications of nodes already known to be cheap.
fn mark_cheap(program: &mut Program) {
    for _ in 0..CHEAP_ROUNDS {
        let mut changed = false;
        for i in 0..program.nodes.len() {
            let id = NodeId(i as u32);
            if program.node(id).flags.contains(NodeFlags::CHEAP) {
                continue;
            }
            let cheap_node = |n: NodeId| program.node(n).flags.contains(NodeFlags::CHEAP);
            let cheap = program.code(id).iter().all(|instr| match *instr {
                Instr::Fail | Instr::Type(_) | Instr::Const(_) | Instr::Enum(_) | Instr::Number(_) => true,
                Instr::String(_) => true,
                Instr::Ref(n) | Instr::Not(n) => cheap_node(n),
                Instr::AllOf(l) | Instr::AnyOf(l) | Instr::OneOf(l) => program.list(l).iter().all(|n| cheap_node(*n)),
                Instr::Cond(c) => {
                    let c = program.cond(c);
                    cheap_node(c.test) && c.then.is_none_or(cheap_node) && c.otherwise.is_none_or(cheap_node)
                }
                _ => false,
            });
            if cheap {
                if let Some(node) = program.nodes.get_mut(i) {
                    node.flags.insert(NodeFlags::CHEAP);
                }
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

/// The nodes `id` applies to the same instance location.
pub(crate) fn in_place_successors(program: &Program, id: NodeId, out: &mut Vec<NodeId>) {
    out.clear();
    for instr in program.code(id) {
        match *instr {
            Instr::AllOf(l) | Instr::AnyOf(l) | Instr::OneOf(l) => out.extend_from_slice(program.list(l)),
            Instr::Not(n) | Instr::Ref(n) => out.push(n),
            Instr::Cond(c) => {
                let c = program.cond(c);
                out.push(c.test);
                out.extend(c.then);
                out.extend(c.otherwise);
            }
            Instr::DynamicRef(d) => {
                let d = program.dynamic_ref(d);
                out.push(d.fallback);
                for r in &program.resources {
                    match &d.anchor {
                        Some(name) => {
                            out.extend(r.dynamic_anchors.iter().filter(|(n, _)| n == name).map(|(_, node)| *node))
                        }
                        None => out.extend(r.recursive_anchor),
                    }
                }
            }
            Instr::Object(o) => {
                for e in program.object(o).entries.iter() {
                    out.extend_from_slice(&e.dependent_schemas);
                }
            }
            _ => {}
        }
    }
}

fn find_unguarded_cycle(program: &Program) -> Result<(), CompileError> {
    #[derive(Clone, Copy, PartialEq)]
    enum Color {
        White,
        Grey,
        Black,
    }
    let n = program.nodes.len();
    let mut color = vec![Color::White; n];
    let mut succ = Vec::new();
    // Explicit DFS stack: (node, its successors, next successor index).
    let mut stack: Vec<(NodeId, Vec<NodeId>, usize)> = Vec::new();
    for start in 0..n {
        if color.get(start) != Some(&Color::White) {
            continue;
        }
        let start = NodeId(start as u32);
        in_place_successors(program, start, &mut succ);
        stack.push((start, succ.clone(), 0));
        if let Some(c) = color.get_mut(start.index()) {
            *c = Color::Grey;
        }
        while let Some(top) = stack.last_mut() {
            let (node, next) = match top.1.get(top.2) {
                Some(next) => {
                    top.2 += 1;
                    (top.0, *next)
                }
                None => {
                    let done = top.0;
                    stack.pop();
                    if let Some(c) = color.get_mut(done.index()) {
                        *c = Color::Black;
                    }
                    continue;
                }
            };
            let _ = node;
            match color.get(next.index()) {
                Some(Color::White) => {
                    in_place_successors(program, next, &mut succ);
                    stack.push((next, succ.clone(), 0));
                    if let Some(c) = color.get_mut(next.index()) {
                        *c = Color::Grey;
                    }
                }
                Some(Color::Grey) => {
                    let begin = stack.iter().position(|(id, _, _)| *id == next).unwrap_or(0);
                    let mut cycle: Vec<String> =
                        stack[begin..].iter().map(|(id, _, _)| program.node(*id).location().to_string()).collect();
                    cycle.push(program.node(next).location().to_string());
                    let at = cycle.first().cloned().unwrap_or_default();
                    return Err(CompileError::new(CompileErrorKind::UnguardedRecursion { cycle }, at));
                }
                _ => {}
            }
        }
    }
    Ok(())
}
