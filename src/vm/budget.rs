//! Fuel, deadline and depth: the bounds every evaluation runs under.
//!
//! Fuel is charged per node entered, per object property and array item
//! visited, per pattern match (by haystack length × program size) and per
//! value hashed or compared. The wall clock is read only on a cold path,
//! once per [`DEADLINE_CHUNK`] units of fuel. Depth counts nested node
//! evaluations; the Rust stack used is measured too, so evaluation stops
//! cleanly long before the thread's stack would overflow.

use std::time::{Duration, Instant};

use crate::error::Exhausted;

/// Nesting levels between two measurements of the stack.
const STACK_CHECK_LEVELS: u32 = 4;

/// Fuel between two reads of the clock when a deadline is set.
const DEADLINE_CHUNK: u64 = 4096;

/// Fuel of a number instruction's constant work, charged by whoever
/// dispatches it (with the node's entry where it can, as one charge); the
/// instruction charges only the work past it (long decimals).
pub(crate) const NUMBER_BASE_FUEL: u64 = 1;

/// Run-time bounds of one evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Units of work allowed.
    pub fuel: u64,
    /// Wall-clock time allowed, if any.
    pub deadline: Option<Duration>,
    /// Deepest nesting of subschema evaluations.
    pub max_depth: u32,
    /// Most bytes of Rust stack the evaluation may use.
    pub max_stack_bytes: usize,
    /// Most errors held by `iter_errors`/`validate` at any moment (further
    /// errors are counted but not kept; the verdict is unaffected). Errors
    /// of `anyOf`/`oneOf` alternatives, once dropped, no longer count.
    pub max_errors: usize,
}

impl Budget {
    /// The default budget.
    pub const DEFAULT: Budget =
        Budget { fuel: 200_000_000, deadline: None, max_depth: 2_000, max_stack_bytes: 1 << 20, max_errors: 1_000 };
}

impl Default for Budget {
    fn default() -> Self {
        Budget::DEFAULT
    }
}

/// What a check charges its fuel to: the VM's [`Meter`], or the [`Tank`]
/// of a root checked without a VM. Scalar checks are written once against
/// it and run both ways.
pub(crate) trait Fuel {
    /// Spends `units`, or stops.
    fn charge(&mut self, units: u64) -> Result<(), Stop>;
    /// Stops the evaluation for `reason`.
    fn stop(&mut self, reason: Exhausted) -> Stop;
}

impl Fuel for Meter {
    #[inline(always)]
    fn charge(&mut self, units: u64) -> Result<(), Stop> {
        Meter::charge(self, units)
    }

    #[inline(always)]
    fn stop(&mut self, reason: Exhausted) -> Stop {
        Meter::stop(self, reason)
    }
}

/// Fuel left for one check made without a VM (a budget without a
/// deadline: nothing is held back, no clock is read). Running out is a
/// [`Stop`] whose reason nobody reads: the boolean path fails closed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tank(pub(crate) u64);

impl Fuel for Tank {
    #[inline(always)]
    fn charge(&mut self, units: u64) -> Result<(), Stop> {
        self.0 = self.0.checked_sub(units).ok_or(Stop)?;
        Ok(())
    }

    #[inline(always)]
    fn stop(&mut self, _reason: Exhausted) -> Stop {
        Stop
    }
}

/// The running account of a [`Budget`].
///
/// With a deadline, fuel is split in two: `left`, spendable before the next
/// cold check, and a reserve, held back so that the clock is read once per
/// [`DEADLINE_CHUNK`] units. A charge is then one subtraction that must not
/// underflow; everything else happens on the cold path.
#[derive(Debug, Clone)]
pub(crate) struct Meter {
    /// Fuel that may be spent before the next cold check (all of it when
    /// there is no deadline).
    left: u64,
    deadline: Option<Deadline>,
    pub(crate) depth: u32,
    max_depth: u32,
    stack_base: usize,
    max_stack: usize,
    /// Why the evaluation stopped, once a [`Stop`] was returned.
    stopped: Option<Exhausted>,
}

/// When a [`Meter`] runs out of time, and the fuel it holds back until it
/// next reads the clock. (Kept together: a meter without a deadline holds
/// nothing back, and is set up with one field fewer.)
#[derive(Debug, Clone, Copy)]
struct Deadline {
    at: Instant,
    reserve: u64,
}

/// An evaluation stopped: its budget ran out, for the reason the meter
/// keeps ([`Meter::reason`]).
///
/// Carrying no data, it makes the VM's results one byte
/// (`Result<bool, Stop>` uses `bool`'s spare values), returned in one
/// register and tested with one comparison: results pass straight up
/// through calls in tail position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stop;

/// The address of a local, as a measure of the stack pointer. (Taking
/// the address keeps the local in this frame; passing it through
/// `black_box` as well cost a store and a load per measurement.)
#[inline(always)]
fn stack_address() -> usize {
    let marker = 0u8;
    std::ptr::addr_of!(marker) as usize
}

impl Meter {
    pub(crate) fn new(budget: &Budget) -> Meter {
        let deadline = budget.deadline.and_then(|d| Instant::now().checked_add(d));
        Meter::with(budget, stack_address(), deadline.map(|at| Deadline { at, reserve: 0 }))
    }

    /// The meter of `budget` measuring the stack from `stack_base`, due by
    /// `deadline`.
    #[inline(always)]
    fn with(budget: &Budget, stack_base: usize, deadline: Option<Deadline>) -> Meter {
        let mut meter = Meter {
            left: 0,
            deadline,
            depth: 0,
            max_depth: budget.max_depth,
            stack_base,
            max_stack: budget.max_stack_bytes,
            stopped: None,
        };
        meter.refill(budget.fuel);
        meter
    }

    /// The meter of an evaluation under `budget`, which has no deadline,
    /// starting now with `fuel` left (its stack measured from here): the
    /// start of the boolean path, whose first charges are known before
    /// any evaluation.
    #[inline(always)]
    pub(crate) fn started(budget: &Budget, fuel: u64) -> Meter {
        debug_assert!(budget.deadline.is_none() && fuel <= budget.fuel);
        Meter {
            left: fuel,
            deadline: None,
            depth: 0,
            stack_base: stack_address(),
            stopped: None,
            max_depth: budget.max_depth,
            max_stack: budget.max_stack_bytes,
        }
    }

    /// Splits `total` fuel into the spendable part and the reserve.
    fn refill(&mut self, total: u64) {
        match &mut self.deadline {
            Some(deadline) => {
                self.left = total.min(DEADLINE_CHUNK);
                deadline.reserve = total - self.left;
            }
            None => self.left = total,
        }
    }

    /// Fuel held back until the next cold check.
    fn reserve(&self) -> u64 {
        self.deadline.map_or(0, |d| d.reserve)
    }

    /// Takes `units` of fuel.
    #[inline(always)]
    pub(crate) fn charge(&mut self, units: u64) -> Result<(), Stop> {
        match self.left.checked_sub(units) {
            Some(left) => {
                self.left = left;
                Ok(())
            }
            None => self.cold_charge(units),
        }
    }

    /// A charge beyond `left`: take it from the reserve (reading the clock
    /// if there is a deadline), or run out.
    #[cold]
    fn cold_charge(&mut self, units: u64) -> Result<(), Stop> {
        // Both parts come from the budget's fuel: the sum cannot overflow.
        let total = self.left + self.reserve();
        let Some(total) = total.checked_sub(units) else {
            self.refill(0);
            return Err(self.stop(Exhausted::Fuel));
        };
        self.refill(total);
        if let Some(d) = self.deadline {
            if Instant::now() >= d.at {
                return Err(self.stop(Exhausted::Deadline));
            }
        }
        Ok(())
    }

    /// Enters one nesting level. The stack is measured every
    /// [`STACK_CHECK_LEVELS`] levels: between two measurements it grows by
    /// a few frames at most, a small fraction of any sensible limit.
    #[inline(always)]
    pub(crate) fn enter(&mut self) -> Result<(), Stop> {
        self.depth += 1;
        if self.depth > self.max_depth
            || (self.depth % STACK_CHECK_LEVELS == 0 && stack_address().abs_diff(self.stack_base) > self.max_stack)
        {
            self.depth -= 1;
            return Err(self.stop(Exhausted::Depth));
        }
        self.charge(1)
    }

    /// Leaves one nesting level (entered before: the depth is positive).
    #[inline(always)]
    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.wrapping_sub(1);
    }

    /// Stops the evaluation for `reason`.
    #[cold]
    pub(crate) fn stop(&mut self, reason: Exhausted) -> Stop {
        self.stopped = Some(reason);
        Stop
    }

    /// Why the evaluation stopped (after a [`Stop`]; every `Stop` is made
    /// by [`Meter::stop`], which records it).
    pub(crate) fn reason(&self) -> Exhausted {
        debug_assert!(self.stopped.is_some(), "no Stop was returned");
        self.stopped.unwrap_or(Exhausted::Fuel)
    }

    /// Fuel used so far (all of it once it ran out) of `budget`, the
    /// budget this meter was made for. (Not kept in the meter: one field
    /// fewer to set up per evaluation.)
    pub(crate) fn used(&self, budget: &Budget) -> u64 {
        budget.fuel.saturating_sub(self.left + self.reserve())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuel_runs_out() {
        let budget = Budget { fuel: 10, ..Budget::default() };
        let mut m = Meter::new(&budget);
        assert!(m.charge(4).is_ok());
        assert_eq!(m.used(&budget), 4);
        assert!(m.charge(6).is_ok());
        assert_eq!(m.charge(1), Err(Stop));
        assert_eq!(m.reason(), Exhausted::Fuel);
        assert_eq!(m.used(&budget), 10);
    }

    #[test]
    fn deadline_is_checked() {
        let mut m = Meter::new(&Budget { deadline: Some(Duration::ZERO), ..Budget::default() });
        let mut result = Ok(());
        for _ in 0..10 {
            result = m.charge(DEADLINE_CHUNK);
            if result.is_err() {
                break;
            }
        }
        assert_eq!(result, Err(Stop));
        assert_eq!(m.reason(), Exhausted::Deadline);
    }

    #[test]
    fn depth_is_bounded() {
        let mut m = Meter::new(&Budget { max_depth: 2, ..Budget::default() });
        assert!(m.enter().is_ok());
        assert!(m.enter().is_ok());
        assert_eq!(m.enter(), Err(Stop));
        assert_eq!(m.reason(), Exhausted::Depth);
        m.leave();
        assert!(m.enter().is_ok());
    }
}
