//! The fused object instruction and `unevaluatedProperties`.
//!
//! One pass over the instance's properties looks each name up in the
//! schema's [`KeyTable`](schemavm_compiler::lookup::KeyTable) and applies
//! `properties`, `patternProperties`, `additionalProperties` and
//! `propertyNames`. Property schemas flagged
//! [`NodeFlags::CHEAP`] are checked during the pass; the others are
//! deferred to a second pass, after `required` and the dependency checks,
//! so a failing discriminator or missing property rejects the object
//! before any large sibling is walked (which matters most inside
//! `oneOf`/`anyOf`). The second pass looks the names up again rather than
//! remembering them, so the scan never allocates.

use serde_json::{Map, Value};
use smallvec::SmallVec;

use schemavm_compiler::bytecode::{
    Entry, Instr, NodeFlags, NodeId, ObjectChecks, PresenceList, PropertyEntry, QuickCheck, QuickEntry, StringChecks,
};
use schemavm_compiler::value::{self, JsonType};

use super::budget::Fuel;
use super::scalar::pattern_matches;
use super::{Evaluated, Flow, InstanceStep, KeywordStep, Mode, Spare, Stop, Vm, member};
use crate::error::ErrorKind;

/// Deferred `properties` checks kept in a buffer during a quiet scan;
/// beyond it, a second pass looks the names up again.
const DEFERRED_INLINE: usize = 8;

/// A `propertyNames` check a quiet scan applies to the names directly.
#[derive(Clone, Copy)]
enum NameCheck<'p> {
    /// Every name passes, or none does.
    Always(bool),
    /// The names must pass these string checks.
    String(&'p StringChecks),
}

/// Whether an entry's `properties` schema is checked on `value` in the
/// first pass.
fn checked_early(entry: &PropertyEntry, value: &Value) -> bool {
    entry.check.in_place(value)
}

impl<'p, 'v, M: Mode> Vm<'p, 'v, M> {
    /// The object keywords on `map` (the object `whole`). Inlined into
    /// its one caller, the object instruction, which its scans make large
    /// enough that the compiler would otherwise keep it apart.
    #[inline(always)]
    pub(super) fn check_object<const TRACK: bool>(
        &mut self,
        c: &'p ObjectChecks,
        map: &'v Map<String, Value>,
        whole: &'v Value,
        ev: &mut Evaluated,
    ) -> Flow {
        let len = map.len() as u64;
        let mut valid = true;
        let (min_properties, max_properties) = (c.min_properties(), c.max_properties());
        if len < min_properties {
            valid = false;
            if !self.collecting() {
                return Ok(false);
            }
            self.report(&["minProperties"], ErrorKind::MinProperties { limit: min_properties, count: len }, None);
        }
        if len > max_properties {
            valid = false;
            if !self.collecting() {
                return Ok(false);
            }
            self.report(&["maxProperties"], ErrorKind::MaxProperties { limit: max_properties, count: len }, None);
        }
        let mut required_seen = 0usize;
        let mut deferred = 0usize;
        if c.scans || TRACK {
            self.meter.charge(len)?;
            self.forget_sibling();
            for (i, (key, value)) in map.iter().enumerate() {
                let (ok, evaluated, required) = self.property(c, key, value, ev, &mut deferred)?;
                required_seen += usize::from(required);
                if TRACK && evaluated {
                    ev.props.set(i);
                }
                if !ok {
                    valid = false;
                    if !self.collecting() {
                        return Ok(false);
                    }
                }
            }
            self.forget_sibling();
        } else {
            // The count as `required_found` makes it, written out here:
            // calling it changed this loop's code enough to cost citm 2%.
            for &r in c.required.iter() {
                self.meter.charge(1)?;
                if c.names.key(r).is_some_and(|name| map.contains_key(name)) {
                    required_seen += 1;
                }
            }
        }
        if required_seen < c.required.len() {
            valid = false;
            if !self.collecting() {
                return Ok(false);
            }
            for &r in c.required.iter() {
                if let Some(name) = c.names.key(r).filter(|name| !map.contains_key(*name)) {
                    self.report(&["required"], ErrorKind::Required { missing: name.to_string() }, None);
                }
            }
        }
        if !c.dependents().is_empty() && !self.dependencies::<TRACK>(c, map, whole, ev)? {
            valid = false;
            if !self.collecting() {
                return Ok(false);
            }
        }
        if deferred > 0 && !self.deferred_properties(c, map, deferred, 0, ev)? {
            valid = false;
        }
        Ok(valid)
    }

    /// The object keywords when no error is recorded and nothing is
    /// tracked: the size bounds, then a quiet scan; `None` when the
    /// names need the general path ([`Vm::scan_quietly_with_names`]).
    #[inline(always)]
    pub(super) fn check_object_quietly(
        &mut self,
        c: &'p ObjectChecks,
        map: &'v Map<String, Value>,
        whole: &'v Value,
        ev: &mut Evaluated,
    ) -> Option<Flow> {
        let len = map.len() as u64;
        let (fewest, most) = c.passing_sizes;
        if len < fewest || len > most {
            return Some(Ok(false));
        }
        if c.property_names.is_none() {
            return Some(self.scan_quietly(c, map, whole, ev));
        }
        self.scan_quietly_with_names(c, map, whole, ev)
    }

    /// The object keywords when no error is recorded and nothing is
    /// tracked, for an object of a passing size
    /// ([`ObjectChecks::passing_sizes`]): one tight pass, expensive
    /// `properties` schemas deferred (the first [`DEFERRED_INLINE`] in a
    /// buffer, any more by a second lookup pass), nothing allocated.
    #[inline(always)]
    fn scan_quietly(
        &mut self,
        c: &'p ObjectChecks,
        map: &'v Map<String, Value>,
        whole: &'v Value,
        ev: &mut Evaluated,
    ) -> Flow {
        // A loop for objects with `patternProperties` and one without
        // (most): the latter holds no pattern code and tests nothing for
        // it. Objects with dependencies (few) have their loops out of line.
        if !c.dependents().is_empty() {
            return self.scan_quietly_dependents(c, map, whole, ev);
        }
        self.scan_quietly_by_patterns::<false>(c, map, whole, ev)
    }

    /// [`Vm::scan_quietly`] for an object with dependencies.
    #[inline(never)]
    fn scan_quietly_dependents(
        &mut self,
        c: &'p ObjectChecks,
        map: &'v Map<String, Value>,
        whole: &'v Value,
        ev: &mut Evaluated,
    ) -> Flow {
        self.scan_quietly_by_patterns::<true>(c, map, whole, ev)
    }

    /// [`Vm::scan_quietly_with`] chosen by whether the object has
    /// `patternProperties`.
    #[inline(always)]
    fn scan_quietly_by_patterns<const DEPENDENTS: bool>(
        &mut self,
        c: &'p ObjectChecks,
        map: &'v Map<String, Value>,
        whole: &'v Value,
        ev: &mut Evaluated,
    ) -> Flow {
        if c.patterns.is_empty() {
            self.scan_quietly_with::<false, DEPENDENTS>(c, map, whole, ev)
        } else {
            self.scan_quietly_with::<true, DEPENDENTS>(c, map, whole, ev)
        }
    }

    /// [`Vm::scan_quietly`], for an object with `patternProperties` if
    /// `PATTERNS`, with dependencies if `DEPENDENTS`. A name with
    /// dependencies is seen in the scan's lookup (its quick entry's
    /// [`QuickEntry::TRIGGER`]), so an object without any such name is
    /// not searched for them.
    #[inline(always)]
    fn scan_quietly_with<const PATTERNS: bool, const DEPENDENTS: bool>(
        &mut self,
        c: &'p ObjectChecks,
        map: &'v Map<String, Value>,
        whole: &'v Value,
        ev: &mut Evaluated,
    ) -> Flow {
        let mut required_seen = 0usize;
        // The first deferred property sits in `first` (most objects defer
        // at most one), the next ones in `buffer`, which never spills:
        // pushed only below its inline capacity (and, unlike an array, not
        // written until used).
        let mut first: Option<(NodeId, &'v Value)> = None;
        let mut buffer: SmallVec<[(NodeId, &'v Value); DEFERRED_INLINE]> = SmallVec::new();
        let mut deferred = 0usize;
        // The flags of the names found (only `TRIGGER` is read).
        let mut flags_seen = 0u8;
        if c.quiet_scan {
            self.meter.charge(map.len() as u64)?;
            for (key, value) in map {
                let mut matched = false;
                let found = c.names.find_with_payload(key);
                if let Some((_, entry)) = found {
                    required_seen += usize::from(entry.required());
                    if DEPENDENTS {
                        flags_seen |= entry.flags();
                    }
                    if let Some(node) = entry.schema() {
                        matched = true;
                        match entry.check {
                            QuickCheck::Valid => {}
                            QuickCheck::Invalid => return Ok(false),
                            QuickCheck::Types(types) => {
                                if !types.admits(value, self.strict_integers) {
                                    return Ok(false);
                                }
                            }
                            QuickCheck::Integers => {
                                if !value::is_integer(value, self.strict_integers) {
                                    return Ok(false);
                                }
                            }
                            QuickCheck::Early => {
                                if !self.node::<false>(node, value, ev)? {
                                    return Ok(false);
                                }
                            }
                            QuickCheck::EmptyArrayPasses if matches!(value, Value::Array(a) if a.is_empty()) => {}
                            QuickCheck::EmptyObjectPasses if matches!(value, Value::Object(m) if m.is_empty()) => {}
                            QuickCheck::Deferred | QuickCheck::EmptyArrayPasses | QuickCheck::EmptyObjectPasses => {
                                if deferred == 0 {
                                    first = Some((node, value));
                                } else if deferred < DEFERRED_INLINE {
                                    buffer.push((node, value));
                                }
                                deferred += 1;
                            }
                        }
                    }
                }
                if PATTERNS {
                    match found.filter(|_| c.static_patterns) {
                        // A name the schema mentions that no pattern
                        // matches: nothing to look up.
                        Some((_, entry)) if !entry.has_patterns() => {}
                        Some((index, _)) => {
                            let own = c.entries.get(index as usize).map_or(&[][..], |e| &e.patterns);
                            for pattern in own.iter().filter_map(|&i| c.patterns.get(i as usize)) {
                                matched = true;
                                if !self.node_compact::<false>(pattern.quick, value, ev)? {
                                    return Ok(false);
                                }
                            }
                        }
                        None => {
                            for pattern in c.patterns.iter() {
                                if pattern_matches(&pattern.regex, key, &mut self.meter)? {
                                    matched = true;
                                    if !self.node_compact::<false>(pattern.quick, value, ev)? {
                                        return Ok(false);
                                    }
                                }
                            }
                        }
                    }
                }
                if let (false, Some(_)) = (matched, c.additional) {
                    let node = c.additional_quick;
                    // The leaves as `QuickCheck::leaf_verdict` decides
                    // them, written out: through its `Option`, citm ran
                    // 1.8% more instructions.
                    let ok = match c.additional_check {
                        QuickCheck::Valid => true,
                        QuickCheck::Invalid => false,
                        QuickCheck::Types(types) => types.admits(value, self.strict_integers),
                        QuickCheck::Integers => value::is_integer(value, self.strict_integers),
                        QuickCheck::Early
                        | QuickCheck::Deferred
                        | QuickCheck::EmptyArrayPasses
                        | QuickCheck::EmptyObjectPasses => self.node::<false>(node, value, ev)?,
                    };
                    if !ok {
                        return Ok(false);
                    }
                }
            }
        } else {
            // The count as `required_found` makes it, written out here:
            // calling it changed this loop's code enough to cost citm 2%.
            for &r in c.required.iter() {
                if c.names.key(r).is_some_and(|name| member(map, name).is_some()) {
                    required_seen += 1;
                }
            }
            self.meter.charge(c.required.len() as u64)?;
            // (No lookups gathered the flags: any name may be present.)
            flags_seen = QuickEntry::TRIGGER;
        }
        if required_seen < c.required.len() {
            return Ok(false);
        }
        if DEPENDENTS && flags_seen & QuickEntry::TRIGGER != 0 && !self.dependencies::<false>(c, map, whole, ev)? {
            return Ok(false);
        }
        if let Some((node, value)) = first {
            if !self.node::<false>(node, value, ev)? {
                return Ok(false);
            }
        }
        // Most objects defer at most one property: the buffer, empty
        // then, is not even looked at.
        if deferred > 1 {
            for &(node, value) in buffer.iter() {
                if !self.node::<false>(node, value, ev)? {
                    return Ok(false);
                }
            }
            if deferred > DEFERRED_INLINE {
                return self.deferred_properties(c, map, deferred, DEFERRED_INLINE, ev);
            }
        }
        Ok(true)
    }

    /// A quiet scan of an object with `propertyNames`, when the names can
    /// be checked as strings ([`Vm::name_check`]); `None` otherwise (the
    /// general path evaluates the names' node per name).
    #[inline(never)]
    fn scan_quietly_with_names(
        &mut self,
        c: &'p ObjectChecks,
        map: &'v Map<String, Value>,
        whole: &'v Value,
        ev: &mut Evaluated,
    ) -> Option<Flow> {
        let check = self.name_check(c.property_names?)?;
        let names = match check {
            NameCheck::Always(all) => Ok(all || map.is_empty()),
            NameCheck::String(checks) => (|| {
                // One node evaluation per name, as the general path charges.
                self.meter.charge(map.len() as u64)?;
                for key in map.keys() {
                    if !self.check_string(checks, key)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            })(),
        };
        Some(match names {
            Ok(true) => self.scan_quietly(c, map, whole, ev),
            other => other,
        })
    }

    /// How a quiet scan can check names against `propertyNames` node
    /// `node` without building a string value per name: when the node
    /// decides by type alone or is one string instruction. `None` for any
    /// other node (the general path evaluates it per name).
    fn name_check(&self, node: NodeId) -> Option<NameCheck<'p>> {
        let program = self.program;
        let n = program.node(node);
        match n.entry() {
            Entry::Valid | Entry::QuietValid => Some(NameCheck::Always(true)),
            Entry::Invalid => Some(NameCheck::Always(false)),
            Entry::Types => Some(NameCheck::Always(n.types().contains(JsonType::String))),
            Entry::Direct | Entry::Single => match program.code_of(n) {
                [Instr::String(id)] => Some(NameCheck::String(self.ops.string(*id))),
                _ => None,
            },
            _ => None,
        }
    }

    /// The second pass: the `properties` schemas the first pass skipped,
    /// after the first `done` of them (checked already).
    fn deferred_properties(
        &mut self,
        c: &'p ObjectChecks,
        map: &'v Map<String, Value>,
        mut remaining: usize,
        mut done: usize,
        ev: &mut Evaluated,
    ) -> Flow {
        let mut valid = true;
        remaining -= done.min(remaining);
        for (key, value) in map {
            if remaining == 0 {
                break;
            }
            let Some(idx) = c.names.find(key) else {
                continue;
            };
            let (Some(entry), Some(name)) = (c.entries.get(idx as usize), c.names.key(idx)) else {
                continue;
            };
            let Some(node) = entry.schema.filter(|_| !checked_early(entry, value)) else {
                continue;
            };
            if done > 0 {
                done -= 1;
                continue;
            }
            let ok = self.descend_node::<false>(
                &[KeywordStep::Word("properties"), KeywordStep::Name(name)],
                Some(InstanceStep::Key(key)),
                node,
                value,
                ev,
            )?;
            if !ok {
                valid = false;
                if !self.collecting() {
                    return Ok(false);
                }
            }
            remaining -= 1;
        }
        Ok(valid)
    }

    /// `dependentRequired`, `dependentSchemas` and `dependencies`.
    fn dependencies<const TRACK: bool>(
        &mut self,
        c: &'p ObjectChecks,
        map: &'v Map<String, Value>,
        whole: &'v Value,
        ev: &mut Evaluated,
    ) -> Flow {
        let mut valid = true;
        for &trigger in c.dependents() {
            let (Some(name), Some(entry)) = (c.names.key(trigger), c.entries.get(trigger as usize)) else {
                continue;
            };
            if !map.contains_key(name) {
                continue;
            }
            self.meter.charge(1)?;
            for &d in entry.dependent_required() {
                if let Some(missing) = c.names.key(d).filter(|m| !map.contains_key(*m)) {
                    valid = false;
                    if !self.collecting() {
                        return Ok(false);
                    }
                    let kind =
                        ErrorKind::DependentRequired { property: name.to_string(), missing: missing.to_string() };
                    self.report(&[KeywordStep::Word("dependentRequired"), KeywordStep::Name(name)], kind, None);
                }
            }
            let schemas = entry.dependent_schemas().iter().map(|&schema| (KeywordStep::Name(name), schema));
            if !self.all_pass::<TRACK>("dependentSchemas", schemas, whole, ev)? {
                valid = false;
                if !self.collecting() {
                    return Ok(false);
                }
            }
        }
        Ok(valid)
    }

    /// Checks one property against `properties` (deferring expensive
    /// schemas), `patternProperties`, `additionalProperties` and
    /// `propertyNames`. Returns (valid so far, evaluated by one of the
    /// first three, is a required name).
    #[inline(always)]
    fn property(
        &mut self,
        c: &'p ObjectChecks,
        key: &'v str,
        value: &'v Value,
        ev: &mut Evaluated,
        deferred: &mut usize,
    ) -> Result<(bool, bool, bool), Stop> {
        let mut valid = true;
        let mut evaluated = false;
        let mut required = false;
        let at = Some(InstanceStep::Key(key));
        let mut known = None;
        if let Some(idx) = c.names.find(key) {
            if let (Some(entry), Some(name)) = (c.entries.get(idx as usize), c.names.key(idx)) {
                known = Some(entry).filter(|_| c.static_patterns);
                required = entry.required;
                if let Some(node) = entry.schema {
                    evaluated = true;
                    if M::ANNOTATE {
                        self.annotate_item("properties", Value::String(key.to_string()))?;
                    }
                    if checked_early(entry, value) {
                        valid &= self.descend_node::<false>(
                            &[KeywordStep::Word("properties"), KeywordStep::Name(name)],
                            at,
                            node,
                            value,
                            ev,
                        )?;
                        if !valid && !self.collecting() {
                            return Ok((false, evaluated, required));
                        }
                    } else {
                        *deferred += 1;
                    }
                }
            }
        }
        // Most objects have no `patternProperties`: their loop, out of
        // line, costs them nothing.
        if !c.patterns.is_empty() {
            let (ok, matched) = self.pattern_properties(c, known, key, value, ev)?;
            evaluated |= matched;
            valid &= ok;
            if !valid && !self.collecting() {
                return Ok((false, evaluated, required));
            }
        }
        if !evaluated {
            if let Some(node) = c.additional {
                evaluated = true;
                if M::ANNOTATE {
                    self.annotate_item(c.additional_keyword(), Value::String(key.to_string()))?;
                }
                valid &= self.extra_property(c, node, key, value, ev)?;
                if !valid && !self.collecting() {
                    return Ok((false, evaluated, required));
                }
            }
        }
        if let Some(node) = c.property_names {
            // The name is checked as a string value; the VM keeps one
            // buffer for it, so this allocates at most once per validation.
            let mut name = self.name_scratch.take().unwrap_or_else(|| Box::new(Value::String(String::new())));
            match &mut *name {
                Value::String(buf) => {
                    buf.clear();
                    buf.push_str(key);
                }
                other => *other = Value::String(key.to_string()),
            }
            let checked = self.descend(&[KeywordStep::Word("propertyNames")], at, |vm| vm.detached(node, &name));
            self.name_scratch = Spare::some(name);
            let (ok, errors) = checked?;
            if !ok {
                valid = false;
                if self.collecting() {
                    let kind = ErrorKind::PropertyName { name: key.to_string() };
                    self.report_below(key, &["propertyNames"], kind, None);
                    let adopted = self.adopt(&["propertyNames"], errors);
                    self.errors.extend(adopted);
                }
            }
        }
        Ok((valid, evaluated, required))
    }

    /// `patternProperties` for one property (`known`: its `properties`
    /// entry when the patterns it matches were found statically). Returns
    /// (valid, matched some pattern); the first failure ends it unless
    /// errors are recorded.
    #[inline(never)]
    fn pattern_properties(
        &mut self,
        c: &'p ObjectChecks,
        known: Option<&'p PropertyEntry>,
        key: &'v str,
        value: &'v Value,
        ev: &mut Evaluated,
    ) -> Result<(bool, bool), Stop> {
        let mut valid = true;
        let mut matched = false;
        for (i, pattern) in c.patterns.iter().enumerate() {
            let (regex, node) = (&*pattern.regex, pattern.node);
            let hit = match known {
                Some(entry) => entry.patterns.contains(&u32::try_from(i).unwrap_or(u32::MAX)),
                None => pattern_matches(regex, key, &mut self.meter)?,
            };
            if !hit {
                continue;
            }
            if M::ANNOTATE && !matched {
                self.annotate_item("patternProperties", Value::String(key.to_string()))?;
            }
            matched = true;
            valid &= self.descend_node::<false>(
                &[KeywordStep::Word("patternProperties"), KeywordStep::Name(regex.pattern())],
                Some(InstanceStep::Key(key)),
                node,
                value,
                ev,
            )?;
            if !valid && !self.collecting() {
                break;
            }
        }
        Ok((valid, matched))
    }

    /// A property no `properties`/`patternProperties` entry covers, checked
    /// against `node` (the `additionalProperties` schema, or a statically
    /// resolved `unevaluatedProperties`).
    fn extra_property(
        &mut self,
        c: &'p ObjectChecks,
        node: NodeId,
        key: &'v str,
        value: &'v Value,
        ev: &mut Evaluated,
    ) -> Flow {
        let keyword = c.additional_keyword();
        let at = Some(InstanceStep::Key(key));
        if self.program.node(node).flags().contains(NodeFlags::ALWAYS_INVALID) {
            if self.collecting() {
                self.report_unknown(keyword, || c.declared(), key);
            }
            return Ok(false);
        }
        self.descend_node::<false>(&[KeywordStep::Word(keyword)], at, node, value, ev)
    }

    /// `unevaluatedProperties`: properties nothing else evaluated must
    /// pass `child`. Runs last in a tracking node, whose `ev` holds what
    /// the other keywords evaluated.
    pub(super) fn unevaluated_properties(
        &mut self,
        child: NodeId,
        map: &'v Map<String, Value>,
        ev: &mut Evaluated,
    ) -> Flow {
        let flags = self.program.node(child).flags();
        let mut valid = true;
        self.meter.charge(map.len() as u64)?;
        self.forget_sibling();
        for (i, (key, value)) in map.iter().enumerate() {
            if ev.props.get(i) {
                continue;
            }
            let at = Some(InstanceStep::Key(key));
            let ok = if flags.contains(NodeFlags::ALWAYS_INVALID) {
                if self.collecting() {
                    self.report_unknown("unevaluatedProperties", Default::default, key);
                }
                false
            } else {
                let seen = &mut *ev;
                self.descend_node::<false>(&[KeywordStep::Word("unevaluatedProperties")], at, child, value, seen)?
            };
            if ok {
                ev.props.set(i);
                if M::ANNOTATE {
                    self.annotate_item("unevaluatedProperties", Value::String(key.to_string()))?;
                }
            } else {
                valid = false;
                if !self.collecting() {
                    return Ok(false);
                }
            }
        }
        self.forget_sibling();
        Ok(valid)
    }
}

/// Whether object checks `c` are sizes and `required` only: no property
/// needs a scan (see [`ObjectChecks::quiet_scan`]), or only the empty
/// object has a passing size (`additionalProperties: false` and nothing
/// declared: it has no member to scan), and there are no dependencies.
/// [`counts_pass`] decides them without a VM.
pub(super) fn counts_only(c: &ObjectChecks) -> bool {
    (!c.quiet_scan || c.passing_sizes.1 == 0) && c.dependents().is_empty()
}

/// Objects with at most this many members per alternative are decided
/// by [`presence_passes`]; larger ones by the alternatives one at a time,
/// each looking its names up (a few alternatives, a long object).
pub(super) const PRESENCE_MEMBERS_PER_ALTERNATIVE: usize = 2;

/// Whether object `map` passes an `anyOf` (`any`) or `oneOf` of
/// required-only alternatives, [`PresenceList`] `p`, from the names it
/// has: a unit of fuel per member looked up, and per alternative when
/// each requires a set of names.
pub(super) fn presence_passes(p: &PresenceList, any: bool, map: &Map<String, Value>, fuel: &mut impl Fuel) -> Flow {
    fuel.charge(map.len() as u64)?;
    let Some(sets) = &p.sets else {
        // Each alternative requires one name: count the alternatives the
        // object's names pass.
        let mut passed = 0u64;
        for key in map.keys() {
            if let Some((_, alone)) = p.names.find_with_payload(key) {
                passed += u64::from(alone);
                if any || passed > 1 {
                    return Ok(any);
                }
            }
        }
        return Ok(!any && passed == 1);
    };
    let mut present = [0u64; PresenceList::MOST_NAMES / 64];
    for key in map.keys() {
        if let Some(i) = p.names.find(key) {
            if let Some(word) = present.get_mut(i as usize / 64) {
                *word |= 1 << (i % 64);
            }
        }
    }
    let has = |i: u8| present.get(usize::from(i) / 64).is_some_and(|word| word >> (i % 64) & 1 == 1);
    fuel.charge(sets.len() as u64)?;
    let mut passed = 0usize;
    for set in sets.iter() {
        if set.iter().all(|&i| has(i)) {
            passed += 1;
            if any || passed > 1 {
                return Ok(any);
            }
        }
    }
    Ok(!any && passed == 1)
}

/// Whether object checks `c` are settled by an object's size alone:
/// [`counts_only`], no `required` names.
pub(super) fn size_only(c: &ObjectChecks) -> bool {
    counts_only(c) && c.required.is_empty()
}

/// Whether `v` passes object checks `c` that are [`counts_only`], nothing
/// recorded: a value of another kind by the fused `type`, an object by
/// its size and the `required` names it has (a unit of fuel per name, as
/// the VM's scan charges).
pub(super) fn counts_pass(c: &ObjectChecks, v: &Value, strict_integers: bool, fuel: &mut impl Fuel) -> Flow {
    let map = match sized_object(c, v, strict_integers) {
        Ok(map) => map,
        Err(verdict) => return Ok(verdict),
    };
    let found = required_found(c, map);
    fuel.charge(c.required.len() as u64)?;
    Ok(found == c.required.len())
}

/// `v` as an object of a size that can pass `c`, or the verdict when
/// that alone decides: a value of another kind by the fused `type`, an
/// object of another size fails. (The first steps of the direct roots'
/// object checks, and all of a [`size_only`] one's.)
#[inline(always)]
pub(super) fn sized_object<'v>(
    c: &ObjectChecks,
    v: &'v Value,
    strict_integers: bool,
) -> Result<&'v Map<String, Value>, bool> {
    let Value::Object(map) = v else {
        return Err(super::scalar::fused_admits(c.type_fused, v, strict_integers));
    };
    let len = map.len() as u64;
    let (fewest, most) = c.passing_sizes;
    if len < fewest || len > most {
        return Err(false);
    }
    Ok(map)
}

/// Whether object checks `c` need a scan, and every check it makes is a
/// leaf: `properties` and `additionalProperties` schemas that are
/// verdicts or bare type checks ([`QuickCheck::Valid`],
/// [`QuickCheck::Invalid`], [`QuickCheck::Types`]), and no
/// `patternProperties`, `propertyNames` or dependencies (which
/// [`counts_only`] checks do without a scan). [`leaf_scan_passes`]
/// decides them without a VM: the small objects of tool arguments and
/// configuration are often of this shape.
pub(super) fn leaf_scan_only(c: &ObjectChecks) -> bool {
    let leaf = QuickCheck::is_leaf;
    c.quiet_scan
        && c.patterns.is_empty()
        && c.property_names.is_none()
        && c.dependents().is_empty()
        && (c.additional.is_none() || leaf(c.additional_check))
        && c.entries.iter().all(|e| e.schema.is_none() || leaf(e.check))
}

/// Whether `v` passes object checks `c` that are [`leaf_scan_only`],
/// nothing recorded, as the VM's quiet scan decides them: a value of
/// another kind by the fused `type`, an object by its size, then each
/// member (a unit of fuel per member, charged before the scan) by its
/// `properties` schema or else `additionalProperties`, then the
/// `required` names it has.
pub(super) fn leaf_scan_passes(c: &ObjectChecks, v: &Value, strict_integers: bool, fuel: &mut impl Fuel) -> Flow {
    let map = match sized_object(c, v, strict_integers) {
        Ok(map) => map,
        Err(verdict) => return Ok(verdict),
    };
    fuel.charge(map.len() as u64)?;
    let mut required_seen = 0usize;
    for (key, value) in map {
        let check = match c.names.find_with_payload(key) {
            Some((_, entry)) => {
                required_seen += usize::from(entry.required());
                match entry.schema() {
                    Some(_) => entry.check,
                    None if c.additional.is_some() => c.additional_check,
                    None => QuickCheck::Valid,
                }
            }
            None if c.additional.is_some() => c.additional_check,
            None => QuickCheck::Valid,
        };
        // (Only leaves in a leaf scan.)
        if check.leaf_verdict(value, strict_integers) == Some(false) {
            return Ok(false);
        }
    }
    Ok(required_seen >= c.required.len())
}

/// How many of `c`'s `required` names `map` has.
#[inline]
fn required_found(c: &ObjectChecks, map: &Map<String, Value>) -> usize {
    if c.required.is_empty() {
        return 0;
    }
    c.required.iter().filter(|&&r| c.names.key(r).is_some_and(|name| map.contains_key(name))).count()
}
