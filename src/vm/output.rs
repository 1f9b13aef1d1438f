//! Output units, recorded only in the [`Annotate`](super::Annotate) mode:
//! for every subschema evaluation, where it ran (evaluation path, node,
//! instance location), whether it passed, the errors its keywords
//! reported, and the annotations its applicators produced (`properties`
//! names, `items`, `contains` indices, ...). Static annotations (`title`,
//! ...) stay in the program and are joined in when rendering.
//!
//! Units live in one flat list in evaluation order (a unit before the
//! units of its subschemas), each naming its parent, so building and
//! dropping them never recurses. Every unit and annotation costs fuel in
//! proportion to its size, so the budget bounds the memory they take.

use serde_json::Value;

use schemavm_compiler::bytecode::NodeId;

use super::{InstanceStep, Mode, Vm, render_keyword_path};
use crate::error::{Exhausted, ValidationError};

/// The evaluation of one subschema at one instance location.
#[derive(Debug, Clone)]
pub(crate) struct Unit {
    /// The enclosing unit (`None` for the root).
    pub(crate) parent: Option<usize>,
    pub(crate) node: NodeId,
    pub(crate) valid: bool,
    /// The keyword path from the root schema, through references.
    pub(crate) evaluation_path: String,
    /// The instance location, as a JSON Pointer.
    pub(crate) instance_location: String,
    /// The instance is a string (the content keywords annotate only
    /// strings).
    pub(crate) string_instance: bool,
    /// Errors of this subschema's own keywords.
    pub(crate) errors: Vec<ValidationError>,
    /// Annotations of its applicators, by keyword.
    pub(crate) annotations: Vec<(&'static str, Value)>,
}

/// The units of one evaluation and the ones still open (innermost last).
#[derive(Debug, Default)]
pub(crate) struct Units {
    pub(crate) list: Vec<Unit>,
    open: Vec<usize>,
}

/// Fuel charged per unit and per annotation, on top of their text.
const UNIT_FUEL: u64 = std::mem::size_of::<Unit>() as u64;
const ANNOTATION_FUEL: u64 = std::mem::size_of::<(&str, Value)>() as u64;

impl<'p, 'v, M: Mode> Vm<'p, 'v, M> {
    /// Starts the unit of node `id` at the current locations.
    pub(super) fn open_unit(&mut self, id: NodeId, v: &Value) -> Result<(), Exhausted> {
        let evaluation_path = render_keyword_path(&self.keyword_path);
        let mut instance_location = String::new();
        for step in &self.instance_path {
            match step {
                InstanceStep::Key(k) => schemavm_compiler::pointer::push(&mut instance_location, k),
                InstanceStep::Index(i) => {
                    instance_location.push('/');
                    instance_location.push_str(&i.to_string());
                }
            }
        }
        self.meter.charge(UNIT_FUEL + (evaluation_path.len() + instance_location.len()) as u64)?;
        let parent = self.units.open.last().copied();
        self.units.open.push(self.units.list.len());
        self.units.list.push(Unit {
            parent,
            node: id,
            valid: false,
            evaluation_path,
            instance_location,
            string_instance: v.is_string(),
            errors: Vec::new(),
            annotations: Vec::new(),
        });
        Ok(())
    }

    /// Finishes the innermost unit.
    pub(super) fn close_unit(&mut self, valid: bool) {
        if let Some(unit) = self.units.open.pop().and_then(|i| self.units.list.get_mut(i)) {
            unit.valid = valid;
        }
    }

    /// Records an error in the innermost unit (bounded by
    /// `Budget::max_errors`, like every recorded error).
    pub(super) fn unit_error(&mut self, error: &ValidationError) {
        if let Some(unit) = self.innermost() {
            unit.errors.push(error.clone());
        }
    }

    /// Adds `item` to the list annotation of `keyword` in the innermost
    /// unit (`properties` names, `contains` indices).
    pub(super) fn annotate_item(&mut self, keyword: &'static str, item: Value) -> Result<(), Exhausted> {
        self.meter.charge(ANNOTATION_FUEL + item.as_str().map_or(0, str::len) as u64)?;
        if let Some(unit) = self.innermost() {
            match unit.annotations.iter_mut().find(|(k, _)| *k == keyword) {
                Some((_, Value::Array(list))) => list.push(item),
                Some((_, other)) => *other = Value::Array(vec![item]),
                None => unit.annotations.push((keyword, Value::Array(vec![item]))),
            }
        }
        Ok(())
    }

    /// Sets the annotation of `keyword` in the innermost unit (`items`:
    /// `true`, `prefixItems`: the last index applied).
    pub(super) fn annotate(&mut self, keyword: &'static str, value: Value) -> Result<(), Exhausted> {
        self.meter.charge(ANNOTATION_FUEL)?;
        if let Some(unit) = self.innermost() {
            match unit.annotations.iter_mut().find(|(k, _)| *k == keyword) {
                Some((_, slot)) => *slot = value,
                None => unit.annotations.push((keyword, value)),
            }
        }
        Ok(())
    }

    /// The finished units (after the root evaluation).
    pub(crate) fn take_units(&mut self) -> Vec<Unit> {
        std::mem::take(&mut self.units.list)
    }

    fn innermost(&mut self) -> Option<&mut Unit> {
        let i = *self.units.open.last()?;
        self.units.list.get_mut(i)
    }
}
