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
//!
//! Once a subschema has reported an error, or a subschema it applies
//! through a keyword that needs every application to pass (`properties`,
//! `items`, `allOf`, `$ref`, ...; not `anyOf`, `oneOf`, `not`, `if`,
//! `contains`) has failed, it has failed, and nothing it applies
//! afterwards can contribute an annotation. Of those later evaluations,
//! the ones of subschemas the compiler memoizes (reachable more than once
//! at a location) run as in `Collect` (memoized, shortcuts on, their
//! errors added to the failed unit) instead of getting units of their
//! own. Without this, the failing alternatives of a recursive `oneOf`
//! would re-evaluate the same subschemas at every level, exponentially;
//! a passing evaluation still records everything, and the repeats the
//! spec's output formats would list are bounded by the fuel they cost.

use serde_json::Value;

use schemavm_compiler::bytecode::{NodeFlags, NodeId};

use super::{Evaluated, Flow, InstanceStep, KeywordStep, Mode, Stop, Vm, render_keyword_path};
use crate::error::ValidationError;

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
    /// It is known to fail already, or an enclosing unit was when it
    /// started (see the module documentation).
    failed: bool,
    below_failure: bool,
}

/// The units of one evaluation and the ones still open (innermost last).
#[derive(Debug, Default)]
pub(crate) struct Units {
    pub(crate) list: Vec<Unit>,
    open: Vec<usize>,
    /// Evaluating below a failed unit: no units, no annotations.
    suspended: bool,
}

/// Applicators that fail when a subschema they apply fails.
const CONJUNCTIVE: &[&str] = &[
    "properties",
    "patternProperties",
    "additionalProperties",
    "items",
    "prefixItems",
    "additionalItems",
    "allOf",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "dependentSchemas",
    "dependencies",
    "then",
    "else",
    "unevaluatedProperties",
    "unevaluatedItems",
];

/// Fuel charged per unit and per annotation, on top of their text.
const UNIT_FUEL: u64 = std::mem::size_of::<Unit>() as u64;
const ANNOTATION_FUEL: u64 = std::mem::size_of::<(&str, Value)>() as u64;

impl<'p, 'v, M: Mode> Vm<'p, 'v, M> {
    /// Whether output units and annotations are being recorded right now.
    #[inline(always)]
    pub(super) fn annotating(&self) -> bool {
        M::ANNOTATE && M::units(&self.units).is_some_and(|u| !u.suspended)
    }

    /// Whether node `id` may be evaluated more than once at a location
    /// (the compiler memoizes it) and would be applied now below a unit
    /// that has failed already.
    #[inline]
    pub(super) fn after_failure(&self, id: NodeId) -> bool {
        M::units(&self.units).is_some_and(|units| !units.suspended && units.innermost().is_some_and(Unit::failing))
            && self.program.node(id).flags().contains(NodeFlags::MEMO)
    }

    /// Evaluates node `id` with unit recording suspended (see the module
    /// documentation).
    #[inline(never)]
    pub(super) fn without_units<const TRACK: bool>(&mut self, id: NodeId, v: &'v Value, ev: &mut Evaluated) -> Flow {
        let mark = self.errors.len();
        self.suspend(true);
        let result = self.node::<TRACK>(id, v, ev);
        self.suspend(false);
        // The errors `Collect` keeps (not those of `anyOf`/`oneOf`
        // alternatives it dropped) belong to the failed unit.
        let kept = self.errors.get(mark..).unwrap_or_default();
        if let Some(unit) = M::units_mut(&mut self.units).and_then(Units::innermost_mut) {
            unit.errors.extend_from_slice(kept);
        }
        result
    }

    fn suspend(&mut self, yes: bool) {
        if let Some(units) = M::units_mut(&mut self.units) {
            units.suspended = yes;
        }
    }

    /// [`Vm::quietly`] for a subschema applied through `keyword` (and at
    /// `instance`, if given) whose errors are never shown (`not`, `if`,
    /// `contains`); while annotating, one step further along the paths, so
    /// its output unit is placed right.
    #[inline(always)]
    pub(super) fn quietly_at<R>(
        &mut self,
        keyword: &'static str,
        instance: Option<InstanceStep<'v>>,
        f: impl FnOnce(&mut Self) -> R,
    ) -> R {
        if self.annotating() {
            self.descend(&[KeywordStep::Word(keyword)], instance, |vm| vm.quietly(f))
        } else {
            self.quietly(f)
        }
    }

    /// Starts the unit of node `id` at the current locations.
    pub(super) fn open_unit(&mut self, id: NodeId, v: &Value) -> Result<(), Stop> {
        let evaluation_path = render_keyword_path(&self.keyword_path);
        let mut instance_location = String::new();
        for step in self.instance_path.iter() {
            match step {
                InstanceStep::Key(k) => schemavm_compiler::pointer::push(&mut instance_location, k),
                InstanceStep::Index(i) => {
                    instance_location.push('/');
                    instance_location.push_str(&i.to_string());
                }
            }
        }
        self.meter.charge(UNIT_FUEL + (evaluation_path.len() + instance_location.len()) as u64)?;
        let Some(units) = M::units_mut(&mut self.units) else { return Ok(()) };
        let parent = units.open.last().copied();
        let below_failure = units.innermost().is_some_and(Unit::failing);
        units.open.push(units.list.len());
        units.list.push(Unit {
            parent,
            node: id,
            valid: false,
            evaluation_path,
            instance_location,
            string_instance: v.is_string(),
            errors: Vec::new(),
            annotations: Vec::new(),
            failed: false,
            below_failure,
        });
        Ok(())
    }

    /// Finishes the innermost unit; a failure fails its parent too if it
    /// was applied through a keyword that needs it to pass.
    pub(super) fn close_unit(&mut self, valid: bool) {
        let Some(units) = M::units_mut(&mut self.units) else { return };
        let Some(i) = units.open.pop() else { return };
        let Some(unit) = units.list.get_mut(i) else { return };
        unit.valid = valid;
        if valid {
            return;
        }
        let (path, parent) = (std::mem::take(&mut unit.evaluation_path), unit.parent);
        if let Some(p) = parent.and_then(|p| units.list.get_mut(p)) {
            let applicator = path.get(p.evaluation_path.len()..).unwrap_or_default().split('/').nth(1);
            p.failed |= applicator.is_some_and(|k| CONJUNCTIVE.contains(&k));
        }
        if let Some(unit) = units.list.get_mut(i) {
            unit.evaluation_path = path;
        }
    }

    /// Records an error in the innermost unit (bounded by
    /// `Budget::max_errors`, like every recorded error). While suspended,
    /// [`Vm::without_units`] adds the errors when it is done.
    pub(super) fn unit_error(&mut self, error: &ValidationError) {
        if let Some(unit) = self.recording_unit() {
            unit.errors.push(error.clone());
            unit.failed = true;
        }
    }

    /// Adds `item` to the list annotation of `keyword` in the innermost
    /// unit (`properties` names, `contains` indices).
    pub(super) fn annotate_item(&mut self, keyword: &'static str, item: Value) -> Result<(), Stop> {
        if !self.annotating() {
            return Ok(());
        }
        self.meter.charge(ANNOTATION_FUEL + item.as_str().map_or(0, str::len) as u64)?;
        if let Some(unit) = self.recording_unit() {
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
    pub(super) fn annotate(&mut self, keyword: &'static str, value: Value) -> Result<(), Stop> {
        if !self.annotating() {
            return Ok(());
        }
        self.meter.charge(ANNOTATION_FUEL)?;
        if let Some(unit) = self.recording_unit() {
            match unit.annotations.iter_mut().find(|(k, _)| *k == keyword) {
                Some((_, slot)) => *slot = value,
                None => unit.annotations.push((keyword, value)),
            }
        }
        Ok(())
    }

    /// The finished units (after the root evaluation).
    pub(crate) fn take_units(&mut self) -> Vec<Unit> {
        M::units_mut(&mut self.units).map(|u| std::mem::take(&mut u.list)).unwrap_or_default()
    }

    /// The innermost open unit, unless recording is suspended.
    fn recording_unit(&mut self) -> Option<&mut Unit> {
        M::units_mut(&mut self.units).filter(|u| !u.suspended).and_then(Units::innermost_mut)
    }
}

impl Units {
    fn innermost(&self) -> Option<&Unit> {
        self.list.get(*self.open.last()?)
    }

    fn innermost_mut(&mut self) -> Option<&mut Unit> {
        self.list.get_mut(*self.open.last()?)
    }
}

impl Unit {
    /// It failed, or an enclosing unit had when it started.
    fn failing(&self) -> bool {
        self.failed || self.below_failure
    }
}
