//! The fused array instruction and `unevaluatedItems`.

use serde_json::Value;
use smallvec::SmallVec;

use schemavm_compiler::bytecode::{ArrayChecks, Contains, ItemTypes, ItemsPlan, NodeFlags, NodeId, Target};
use schemavm_compiler::hash::{IdMap, ValueState};
use schemavm_compiler::value;

use super::budget::Fuel;
use super::{Evaluated, Flow, InstanceStep, KeywordStep, Mode, Stop, Vm};
use crate::error::ErrorKind;

/// Whether every item passes `admits`: a plain loop, always inlined
/// (`Iterator::all` over a closure is not always, and a call costs the
/// few items of a small array more than their checks).
#[inline(always)]
fn all(items: &[Value], admits: impl Fn(&Value) -> bool) -> bool {
    for item in items {
        if !admits(item) {
            return false;
        }
    }
    true
}

/// Whether every item is an array of `min..=max` values passing `admits`,
/// and how many values were visited (items and their members).
#[inline(always)]
fn arrays_of(items: &[Value], min: u64, max: u64, admits: impl Fn(&Value) -> bool) -> (bool, u64) {
    // Whether pairs (coordinates, entries) meet the bounds is known once,
    // here, and a loop is made for each answer.
    if min <= 2 && 2 <= max {
        arrays_of_with::<true>(items, min, max, admits)
    } else {
        arrays_of_with::<false>(items, min, max, admits)
    }
}

/// [`arrays_of`], where `PAIRS` says that pairs meet the bounds: then a
/// pair's members are checked without the loop, and its length not at all.
#[inline(always)]
fn arrays_of_with<const PAIRS: bool>(
    items: &[Value],
    min: u64,
    max: u64,
    admits: impl Fn(&Value) -> bool,
) -> (bool, u64) {
    let mut total = items.len() as u64;
    for item in items {
        let Value::Array(inner) = item else { return (false, total) };
        match inner.as_slice() {
            [a, b] if PAIRS => {
                if !(admits(a) && admits(b)) {
                    return (false, total);
                }
                total += 2;
            }
            all => {
                let n = all.len() as u64;
                if n < min || n > max || !all.iter().all(&admits) {
                    return (false, total);
                }
                total += n;
            }
        }
    }
    (true, total)
}

/// Up to this many items, duplicates are found by pairwise comparison.
const PAIRWISE_MAX: usize = 16;

/// Runs the fused items loop of `plan` on `items`, its fuel charged to
/// `fuel`; `None` if the plan is the general one. The plans without a
/// loop are decided in place; the loops run in a call of their own if
/// `LOOP_CALLED` (the VM's array instruction: most arrays of a large
/// schema have the general plan, and the loops inlined would make it
/// save six registers for them), else in place too (a check that is
/// itself out of line, such as [`plan_passes`]).
#[inline(always)]
fn run_plan<const LOOP_CALLED: bool>(
    plan: ItemsPlan,
    items: &[Value],
    strict: bool,
    fuel: &mut impl Fuel,
) -> Result<Option<bool>, Stop> {
    match plan {
        ItemsPlan::General => Ok(None),
        ItemsPlan::AllPass => Ok(Some(true)),
        ItemsPlan::NonePass => Ok(Some(items.is_empty())),
        ItemsPlan::Types(_) | ItemsPlan::ArraysOfTypes { .. } if LOOP_CALLED => {
            called_loop(plan, items, strict, fuel).map(Some)
        }
        ItemsPlan::Types(_) | ItemsPlan::ArraysOfTypes { .. } => run_loop(plan, items, strict, fuel).map(Some),
    }
}

/// [`run_loop`], out of line.
#[inline(never)]
fn called_loop(plan: ItemsPlan, items: &[Value], strict: bool, fuel: &mut impl Fuel) -> Flow {
    run_loop(plan, items, strict, fuel)
}

/// The loop of a plan that has one (`Types`, `ArraysOfTypes`; the others
/// fail, never asked).
#[inline(always)]
fn run_loop(plan: ItemsPlan, items: &[Value], strict: bool, fuel: &mut impl Fuel) -> Flow {
    match plan {
        ItemsPlan::General | ItemsPlan::AllPass | ItemsPlan::NonePass => Ok(false),
        ItemsPlan::Types(types) => {
            fuel.charge(items.len() as u64)?;
            Ok(match types {
                ItemTypes::Numbers => all(items, Value::is_number),
                ItemTypes::Integers => all(items, |item| value::is_integer(item, strict)),
                ItemTypes::Strings => all(items, Value::is_string),
                ItemTypes::Mixed(types) => all(items, |item| types.admits(item, strict)),
            })
        }
        ItemsPlan::ArraysOfTypes { min, max, types } => {
            let (valid, total) = match types {
                ItemTypes::Numbers => arrays_of(items, min, max, Value::is_number),
                ItemTypes::Integers => arrays_of(items, min, max, |x| value::is_integer(x, strict)),
                ItemTypes::Strings => arrays_of(items, min, max, Value::is_string),
                ItemTypes::Mixed(types) => arrays_of(items, min, max, |x| types.admits(x, strict)),
            };
            if valid {
                fuel.charge(total)?;
            }
            Ok(valid)
        }
    }
}

/// Whether `items` meet `minItems` and `maxItems`.
#[inline(always)]
pub(super) fn within_bounds(c: &ArrayChecks, items: &[Value]) -> bool {
    let len = items.len() as u64;
    c.min_items.is_none_or(|min| len >= min) && c.max_items.is_none_or(|max| len <= max)
}

/// Whether `count` items matching `contains` decide it: enough of them
/// with no `maxContains`, or more than it allows.
#[inline(always)]
pub(super) fn contains_decided(contains: &Contains, count: u64) -> bool {
    match contains.max {
        None => count >= contains.min,
        Some(max) => count > max,
    }
}

/// Whether array checks `c` are decided without a VM on the boolean
/// path: bounds, prefix items whose subschemas are verdicts or bare type
/// checks, the other items (if any) under a fused [`ItemsPlan`], and
/// `uniqueItems`; no `contains`.
pub(super) fn plan_only(c: &ArrayChecks) -> bool {
    c.contains.is_none()
        && (c.rest.is_none() || c.rest_plan != ItemsPlan::General)
        && c.prefix_targets.len() == c.prefix.len()
        && c.prefix_targets.iter().all(|t| matches!(t, Target::Valid | Target::Invalid | Target::Types(_)))
}

/// Whether array checks `c` are settled by an array's length alone: its
/// bounds (`minItems`, `maxItems`, and what the compiler folded into
/// them), no prefix, no items, no `uniqueItems` and (see [`plan_only`])
/// no `contains`.
pub(super) fn size_only(c: &ArrayChecks) -> bool {
    plan_only(c) && c.prefix_targets.is_empty() && c.rest.is_none() && !c.unique_items
}

/// Whether `v` passes array checks `c` that are [`plan_only`], nothing
/// recorded: a value of another kind by the fused `type`, an array by
/// its bounds, prefix and items' plan, charged as the VM's array
/// instruction charges.
pub(super) fn plan_passes(c: &ArrayChecks, v: &Value, strict: bool, fuel: &mut impl Fuel) -> Flow {
    let Value::Array(items) = v else {
        return Ok(super::scalar::fused_admits(c.type_fused, v, strict));
    };
    // The bounds, and no item past the prefix if none may be there. (An
    // array failing the latter fails the VM's items too, later.)
    let (fewest, most) = c.tuple_sizes;
    let len = items.len() as u64;
    if len < fewest || len > most {
        return Ok(false);
    }
    let start = c.prefix_targets.len().min(items.len());
    if start > 0 {
        fuel.charge(start as u64)?;
        for (target, item) in c.prefix_targets.iter().zip(items) {
            let passes = match target {
                Target::Valid => true,
                Target::Types(types) => types.admits(item, strict),
                // `Invalid`, and (never: see `plan_only`) the others.
                _ => false,
            };
            if !passes {
                return Ok(false);
            }
        }
    }
    // (Never the general plan: see `plan_only`.)
    let rest = items.get(start..).unwrap_or_default();
    if c.rest.is_some() && !run_plan::<false>(c.rest_plan, rest, strict, fuel)?.unwrap_or(false) {
        return Ok(false);
    }
    Ok(!c.unique_items || find_duplicate(items, fuel)?.is_none())
}

impl<'p, 'v, M: Mode> Vm<'p, 'v, M> {
    /// The array keywords when nothing is recorded or tracked and every
    /// item meets the same schema (no prefix, no `contains`): bounds,
    /// the items, `uniqueItems`.
    #[inline(always)]
    pub(super) fn uniform_items(&mut self, c: &'p ArrayChecks, items: &'v [Value], ev: &mut Evaluated) -> Flow {
        if !within_bounds(c, items) {
            return Ok(false);
        }
        if let Some(rest) = c.rest {
            let ok = match self.planned_items(c.rest_plan, Some(items))? {
                Some(ok) => ok,
                None => self.rest_items(rest, c.rest_keyword, items, 0, ev)?,
            };
            if !ok {
                return Ok(false);
            }
        }
        if c.unique_items {
            return Ok(find_duplicate(items, &mut self.meter)?.is_none());
        }
        Ok(true)
    }

    /// The array keywords of a [tuple](ArrayChecks::is_tuple) when nothing
    /// is recorded or tracked: bounds, then each item its prefix schema.
    #[inline(always)]
    pub(super) fn tuple_items(&mut self, c: &'p ArrayChecks, items: &'v [Value], ev: &mut Evaluated) -> Flow {
        let len = items.len() as u64;
        let (fewest, most) = c.tuple_sizes;
        if len < fewest || len > most {
            return Ok(false);
        }
        self.meter.charge(c.prefix_targets.len().min(items.len()) as u64)?;
        self.targets_pass(&c.prefix_targets, items, ev)
    }

    /// Whether each of `items` passes its target (the first failure
    /// decides), their fuel charged already: a tuple's items past its
    /// bounds.
    #[inline(always)]
    pub(super) fn targets_pass(&mut self, targets: &'p [Target], items: &'v [Value], ev: &mut Evaluated) -> Flow {
        for (&target, item) in targets.iter().zip(items) {
            if !self.target(target, item, ev)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    pub(super) fn check_array<const TRACK: bool>(
        &mut self,
        c: &'p ArrayChecks,
        items: &'v [Value],
        ev: &mut Evaluated,
    ) -> Flow {
        let len = items.len() as u64;
        let mut valid = true;
        if let Some(min) = c.min_items {
            if len < min {
                valid = false;
                if !self.collecting() {
                    return Ok(false);
                }
                self.report(&["minItems"], ErrorKind::MinItems { limit: min, count: len }, None);
            }
        }
        if let Some(max) = c.max_items {
            if len > max {
                valid = false;
                if !self.collecting() {
                    return Ok(false);
                }
                self.report(&["maxItems"], ErrorKind::MaxItems { limit: max, count: len }, None);
            }
        }
        self.meter.charge(c.prefix.len().min(items.len()) as u64)?;
        for (i, (&node, item)) in c.prefix.iter().zip(items).enumerate() {
            let ok = self.descend_node::<false>(
                &[KeywordStep::Word(c.prefix_keyword), KeywordStep::Index(i)],
                Some(InstanceStep::Index(i)),
                node,
                item,
                ev,
            )?;
            if !ok {
                valid = false;
                if !self.collecting() {
                    return Ok(false);
                }
            }
        }
        if TRACK {
            ev.items_below = ev.items_below.max(c.prefix.len().min(items.len()));
        }
        if M::ANNOTATE && !c.prefix.is_empty() && !items.is_empty() {
            // The largest index applied, or `true` for every item.
            let last = c.prefix.len().min(items.len()).saturating_sub(1);
            let all = c.prefix.len() >= items.len();
            self.annotate(c.prefix_keyword, if all { Value::Bool(true) } else { Value::from(last) })?;
        }
        if let Some(rest) = c.rest {
            let start = c.prefix.len().min(items.len());
            let done = if self.unobserved() { self.planned_items(c.rest_plan, items.get(start..))? } else { None };
            let ok = match done {
                Some(ok) => ok,
                None => self.rest_items(rest, c.rest_keyword, items, start, ev)?,
            };
            if !ok {
                valid = false;
                if !self.collecting() {
                    return Ok(false);
                }
            }
            if TRACK {
                ev.all_items = true;
            }
            if M::ANNOTATE && items.len() > start {
                self.annotate(c.rest_keyword, Value::Bool(true))?;
            }
        }
        if let Some(contains) = c.contains {
            let mut count = 0u64;
            let annotate = TRACK && contains.annotates;
            self.meter.charge(len)?;
            for (i, item) in items.iter().enumerate() {
                let at = Some(InstanceStep::Index(i));
                let ok = self.quietly_at("contains", at, |vm| vm.node::<false>(contains.node, item, ev))?;
                if ok {
                    count += 1;
                    if annotate {
                        ev.items.set(i);
                    }
                    if M::ANNOTATE {
                        self.annotate_item("contains", Value::from(i))?;
                    }
                }
                if contains_decided(&contains, count) && !annotate && self.unobserved() {
                    break;
                }
            }
            let too_few = count < contains.min;
            let too_many = contains.max.is_some_and(|m| count > m);
            if too_few || too_many {
                valid = false;
                if !self.collecting() {
                    return Ok(false);
                }
                let keyword = match (too_few, contains.min) {
                    (true, 1) => "contains",
                    (true, _) => "minContains",
                    (false, _) => "maxContains",
                };
                self.report(&[keyword], ErrorKind::Contains { min: contains.min, max: contains.max, count }, None);
            }
        }
        if c.unique_items {
            if let Some((first, second)) = find_duplicate(items, &mut self.meter)? {
                valid = false;
                if self.collecting() {
                    self.report(&["uniqueItems"], ErrorKind::UniqueItems { first, second }, None);
                }
            }
        }
        Ok(valid)
    }

    /// Runs a fused items loop; `None` if the plan is the general one.
    #[inline]
    fn planned_items(&mut self, plan: ItemsPlan, items: Option<&'v [Value]>) -> Result<Option<bool>, Stop> {
        run_plan::<true>(plan, items.unwrap_or_default(), self.strict_integers, &mut self.meter)
    }

    /// Validates `items[start..]` against `rest` (reported under `keyword`).
    fn rest_items(
        &mut self,
        rest: NodeId,
        keyword: &'static str,
        items: &'v [Value],
        start: usize,
        ev: &mut Evaluated,
    ) -> Flow {
        let node = self.program.node(rest);
        let flags = node.flags();
        if (flags.contains(NodeFlags::ALWAYS_VALID) && !self.annotating()) || items.len() <= start {
            return Ok(true);
        }
        let rest_items = items.get(start..).unwrap_or_default();
        if flags.contains(NodeFlags::TYPE_ONLY) && self.unobserved() {
            self.meter.charge(rest_items.len() as u64)?;
            let (types, strict) = (node.types(), self.strict_integers);
            return Ok(rest_items.iter().all(|item| types.admits(item, strict)));
        }
        self.meter.charge(rest_items.len() as u64)?;
        if !M::ANNOTATE && self.unobserved() {
            let prepared = self.prepare(rest);
            return self.all_prepared(&prepared, rest_items, ev);
        }
        self.rest_items_observed(rest, flags, keyword, items, start, ev)
    }

    /// [`Vm::rest_items`] while errors or annotations are recorded: one
    /// item at a time, at its location. Out of line: the quiet loops
    /// beside it would make it save more registers.
    #[inline(never)]
    fn rest_items_observed(
        &mut self,
        rest: NodeId,
        flags: NodeFlags,
        keyword: &'static str,
        items: &'v [Value],
        start: usize,
        ev: &mut Evaluated,
    ) -> Flow {
        let mut valid = true;
        for (i, item) in items.iter().enumerate().skip(start) {
            let ok = if flags.contains(NodeFlags::ALWAYS_INVALID) {
                if self.collecting() {
                    self.report_below(i, &[keyword], ErrorKind::UnexpectedItem { keyword }, None);
                }
                false
            } else {
                self.descend_node::<false>(&[KeywordStep::Word(keyword)], Some(InstanceStep::Index(i)), rest, item, ev)?
            };
            if !ok {
                valid = false;
                if !self.collecting() {
                    return Ok(false);
                }
            }
        }
        Ok(valid)
    }

    /// `unevaluatedItems`: items nothing else evaluated must pass `child`.
    /// Runs last in a tracking node, whose `ev` holds what the other
    /// keywords evaluated.
    pub(super) fn unevaluated_items(&mut self, child: NodeId, items: &'v [Value], ev: &mut Evaluated) -> Flow {
        let flags = self.program.node(child).flags();
        let mut valid = true;
        self.meter.charge(items.len() as u64)?;
        for (i, item) in items.iter().enumerate() {
            if ev.has_item(i) {
                continue;
            }
            let ok = if flags.contains(NodeFlags::ALWAYS_INVALID) {
                if self.collecting() {
                    let kind = ErrorKind::UnexpectedItem { keyword: "unevaluatedItems" };
                    self.report_below(i, &["unevaluatedItems"], kind, None);
                }
                false
            } else {
                let seen = &mut *ev;
                let at = Some(InstanceStep::Index(i));
                self.descend_node::<false>(&[KeywordStep::Word("unevaluatedItems")], at, child, item, seen)?
            };
            if !ok {
                valid = false;
                if !self.collecting() {
                    return Ok(false);
                }
            }
        }
        if M::ANNOTATE && (0..items.len()).any(|i| !ev.has_item(i)) {
            self.annotate("unevaluatedItems", Value::Bool(true))?;
        }
        ev.all_items = true;
        Ok(valid)
    }
}

/// The first pair of equal items, if any: pairwise for short arrays,
/// by keyed hash otherwise (never quadratic).
#[inline]
pub(super) fn find_duplicate(items: &[Value], fuel: &mut impl Fuel) -> Result<Option<(usize, usize)>, Stop> {
    match items.len() {
        0 | 1 => Ok(None),
        2..=PAIRWISE_MAX => find_duplicate_pairwise(items, fuel),
        _ => find_duplicate_hashed(items, fuel),
    }
}

/// [`find_duplicate`] for a short array: each pair compared (all
/// charged at once), after fingerprints if some items are arrays or
/// objects. A function of its own: the hashed path's set-up would make
/// it save registers it does not need.
#[inline(never)]
fn find_duplicate_pairwise(items: &[Value], fuel: &mut impl Fuel) -> Result<Option<(usize, usize)>, Stop> {
    fuel.charge((items.len() * items.len() / 2) as u64)?;
    let (mut strings, mut scalars) = (true, true);
    for item in items {
        match item {
            Value::String(_) => {}
            Value::Array(_) | Value::Object(_) => {
                (strings, scalars) = (false, false);
                break;
            }
            _ => strings = false,
        }
    }
    // Arrays of strings (`required`, `enum` lists): compare lengths
    // before bytes, reading the items in place.
    if strings {
        return first_pair(items, |a, b| {
            Ok(matches!((a, b), (Value::String(a), Value::String(b)) if a.len() == b.len() && a == b))
        });
    }
    // Scalars (numbers, mixed kinds): each comparison costs about
    // what a fingerprint would, so none are made.
    if scalars {
        return first_pair(items, |a, b| Ok(value::scalars_equal(a, b)));
    }
    find_duplicate_fingerprinted(items, fuel)
}

/// [`find_duplicate_pairwise`] when arrays or objects are among
/// the items: fingerprints first, full comparison only when they
/// agree. (A plain array: filling it costs less than pushing to a
/// growable one.) Out of line: its array of fingerprints would make
/// the scalar paths set up a frame they do not need.
#[inline(never)]
fn find_duplicate_fingerprinted(items: &[Value], fuel: &mut impl Fuel) -> Result<Option<(usize, usize)>, Stop> {
    let members: usize = items.iter().map(|v| v.as_object().map_or(1, |m| m.len())).sum();
    fuel.charge(members as u64)?;
    const NULL: &Value = &Value::Null;
    let mut printed = [(0u64, NULL); PAIRWISE_MAX];
    for (slot, item) in printed.iter_mut().zip(items) {
        *slot = (value::fingerprint(item), item);
    }
    let printed = printed.get(..items.len()).unwrap_or_default();
    first_pair(printed, |(pa, a), (pb, b)| {
        if pa != pb {
            return Ok(false);
        }
        let (same, work) = value::equal_with_work(a, b);
        fuel.charge(work as u64)?;
        Ok(same)
    })
}

/// The first pair of indices `(i, j)`, `i < j`, of `items` for which
/// `same` holds, pairs taken in order (by remaining slices, not skipping
/// iterators: the loops stay tight in every caller).
#[inline(always)]
fn first_pair<T>(
    items: &[T],
    mut same: impl FnMut(&T, &T) -> Result<bool, Stop>,
) -> Result<Option<(usize, usize)>, Stop> {
    let mut rest = items;
    let mut i = 0;
    while let Some((a, later)) = rest.split_first() {
        for (k, b) in later.iter().enumerate() {
            if same(a, b)? {
                return Ok(Some((i, i + 1 + k)));
            }
        }
        rest = later;
        i += 1;
    }
    Ok(None)
}

/// [`find_duplicate`] for a long array, by keyed hash (never
/// quadratic).
#[inline(never)]
fn find_duplicate_hashed(items: &[Value], fuel: &mut impl Fuel) -> Result<Option<(usize, usize)>, Stop> {
    // A seed of its own per check (see [`ValueState`]); the table of
    // hashes needs no second keyed hash.
    let state = ValueState::default();
    let mut seen: IdMap<u64, SmallVec<[usize; 1]>> = IdMap::with_capacity_and_hasher(items.len(), Default::default());
    for (j, item) in items.iter().enumerate() {
        let (hash, work) = value::hash(item, &state);
        fuel.charge(work as u64)?;
        let bucket = seen.entry(hash).or_default();
        for &i in bucket.iter() {
            let (same, work) = items.get(i).map_or((false, 1), |a| value::equal_with_work(a, item));
            fuel.charge(work as u64)?;
            if same {
                return Ok(Some((i, j)));
            }
        }
        bucket.push(j);
    }
    Ok(None)
}
