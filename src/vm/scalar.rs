//! Instructions on one value: `type`, `const`, `enum`, number and string
//! checks, content.

use serde_json::{Number, Value};

use schemavm_compiler::bytecode::{ContentChecks, EnumId, EnumSet, FormatCheck, NumberChecks, StringChecks, ValueId};
use schemavm_compiler::number::Num;
use schemavm_compiler::value::{self, JsonType, TypeSet};

use super::{Flow, Mode, NUMBER_BASE_FUEL, Vm};
use crate::error::{ErrorKind, Exhausted, Found, Pending};

/// Most enum values quoted in an error message.
const ENUM_SHOWN: usize = 20;

/// A number for an error message, as JSON.
fn number_value(n: &Num) -> Value {
    match n {
        Num::Int(i) => {
            if let Ok(u) = u64::try_from(*i) {
                Value::from(u)
            } else if let Ok(s) = i64::try_from(*i) {
                Value::from(s)
            } else {
                n.to_string().parse::<Number>().map(Value::Number).unwrap_or(Value::Null)
            }
        }
        Num::Float(f) => Number::from_f64(*f).map(Value::Number).unwrap_or(Value::Null),
        Num::Dec(_) => n.to_string().parse::<Number>().map(Value::Number).unwrap_or(Value::Null),
    }
}

/// Whether an instance comparing `order` to a limit meets the bound: a
/// lower or an upper one, excluding the limit itself or not.
fn meets_bound(order: std::cmp::Ordering, lower: bool, exclusive: bool) -> bool {
    match (lower, exclusive) {
        (true, false) => order.is_ge(),
        (true, true) => order.is_gt(),
        (false, false) => order.is_le(),
        (false, true) => order.is_lt(),
    }
}

impl<'p, 'v, M: Mode> Vm<'p, 'v, M> {
    #[inline]
    pub(super) fn check_type(&mut self, types: TypeSet, v: &'v Value) -> Flow {
        if types.admits(v, self.strict_integers) {
            return Ok(true);
        }
        if self.collecting() {
            let found = match JsonType::of(v) {
                JsonType::Integer if self.program.flags().strict_integers && !(v.is_u64() || v.is_i64()) => {
                    JsonType::Number
                }
                t => t,
            };
            self.report(&["type"], Pending::Type { expected: types, found }, None);
        }
        Ok(false)
    }

    /// The `type` fused into an instruction (`fused`), for a value the
    /// instruction's own checks do not settle it for: a value of another
    /// kind, or of its kind when the type lacks it.
    #[cold]
    pub(super) fn required_kind(&mut self, fused: Option<TypeSet>, v: &'v Value) -> Flow {
        match fused {
            Some(types) => self.check_type(types, v),
            None => Ok(true),
        }
    }

    #[inline(never)]
    pub(super) fn check_const(&mut self, id: ValueId, v: &'v Value) -> Flow {
        let expected = self.program.value(id);
        self.meter.charge(1)?;
        if value::equal(expected, v) {
            return Ok(true);
        }
        if self.collecting() {
            self.report(&["const"], ErrorKind::Const { expected: expected.clone() }, Some(Found::of(v)));
        }
        Ok(false)
    }

    #[inline(never)]
    pub(super) fn check_enum(&mut self, id: EnumId, v: &'v Value) -> Flow {
        let set = self.program.enum_set(id);
        // The usual case first: a string with no type to check and no
        // error to record is one lookup, ahead of the general path's
        // type, charge and value comparisons (kept out of line).
        if let (false, Value::String(s)) = (self.collecting(), v) {
            if set.type_fused.is_none() || set.type_implied() {
                return Ok(set.strings.find(s).is_some());
            }
        }
        self.check_enum_fully(set, v)
    }

    /// [`Vm::check_enum`] past its string shortcut.
    #[inline(never)]
    fn check_enum_fully(&mut self, set: &'p EnumSet, v: &'v Value) -> Flow {
        let mut typed = true;
        if let Some(types) = set.type_fused.filter(|_| self.collecting() || !set.type_implied()) {
            typed = self.check_type(types, v)?;
            if !typed && !self.collecting() {
                return Ok(false);
            }
        }
        let found = match v {
            Value::String(s) => set.strings.find(s).is_some(),
            _ if set.all_strings => false,
            _ => {
                self.meter.charge(set.values.len() as u64)?;
                set.values.iter().any(|e| value::equal(e, v))
            }
        };
        if !found && self.collecting() {
            let allowed = set.values.iter().take(ENUM_SHOWN).cloned().collect();
            self.report(&["enum"], ErrorKind::Enum { allowed, total: set.values.len() }, Some(Found::of(v)));
        }
        Ok(found && typed)
    }

    /// The number checks on `n` (the number of `v`), with an `integer`
    /// type fused in if [`NumberChecks::integers_only`]. (An integer in
    /// the machine range is decided by [`Vm::number_instr`] unless errors
    /// are recorded.)
    #[inline]
    pub(super) fn check_number(&mut self, c: &'p NumberChecks, n: &'v Number, v: &'v Value) -> Flow {
        if !self.collecting() {
            if c.integers_only && !TypeSet::single(JsonType::Integer).admits(v, self.strict_integers) {
                return Ok(false);
            }
            if let (Some(bounds), Some(f)) = (c.float_bounds, float_value(n)) {
                // Constant work: the base unit the caller charged.
                return Ok(bounds.admits(f));
            }
        }
        // Recording: the type error first, then the bounds'.
        let typed = !c.integers_only || self.required_kind(c.type_fused, v)?;
        let x = Num::from_json(n);
        // The work past the base unit the caller charged.
        self.meter.charge(x.work().saturating_sub(NUMBER_BASE_FUEL))?;
        if !self.collecting() {
            return Ok(typed && c.admits(&x));
        }
        Ok(self.report_number(c, n, &x)? && typed)
    }

    /// The number checks again, reporting each failure (only while
    /// errors are recorded).
    #[cold]
    fn report_number(&mut self, c: &'p NumberChecks, n: &'v Number, x: &Num) -> Flow {
        debug_assert!(self.collecting());
        let (min_kw, max_kw) =
            if c.draft4_exclusive { ("minimum", "maximum") } else { ("exclusiveMinimum", "exclusiveMaximum") };
        // Each bound on its own (not a loop over an array of them, which
        // built all four first).
        let mut valid = self.report_bound(c.minimum.as_ref(), "minimum", false, true, n, x);
        valid &= self.report_bound(c.exclusive_minimum.as_ref(), min_kw, true, true, n, x);
        valid &= self.report_bound(c.maximum.as_ref(), "maximum", false, false, n, x);
        valid &= self.report_bound(c.exclusive_maximum.as_ref(), max_kw, true, false, n, x);
        if let Some(divisor) = c.multiple_of.as_ref().filter(|d| !x.is_multiple_of(d)) {
            valid = false;
            self.report(&["multipleOf"], ErrorKind::MultipleOf { divisor: number_value(divisor) }, n);
        }
        Ok(valid)
    }

    /// Whether `x` (the number `n`) meets one bound of
    /// [`Vm::report_number`] (`None`: there is none), reporting it if not.
    #[inline(always)]
    fn report_bound(
        &mut self,
        limit: Option<&'p Num>,
        keyword: &'static str,
        exclusive: bool,
        lower: bool,
        n: &'v Number,
        x: &Num,
    ) -> bool {
        let Some(limit) = limit else { return true };
        if meets_bound(x.compare(limit), lower, exclusive) {
            return true;
        }
        let limit = number_value(limit);
        let kind =
            if lower { ErrorKind::Minimum { limit, exclusive } } else { ErrorKind::Maximum { limit, exclusive } };
        self.report(&[keyword], kind, n);
        false
    }

    #[inline(always)]
    pub(super) fn check_string(&mut self, c: &'p StringChecks, s: &'v str) -> Flow {
        let mut valid = true;
        // A string has at most as many characters as bytes and at least a
        // quarter as many, so most length checks need no count.
        let bytes = s.len() as u64;
        let mut counted: Option<u64> = None;
        let mut chars = || *counted.get_or_insert_with(|| s.chars().count() as u64);
        if let Some(min) = c.min_length {
            let short = bytes < min || (bytes < min.saturating_mul(4) && chars() < min);
            if short {
                valid = false;
                if !self.collecting() {
                    return Ok(false);
                }
                let length = chars();
                self.report(&["minLength"], ErrorKind::MinLength { limit: min, length }, None);
            }
        }
        if let Some(max) = c.max_length {
            if bytes > max && chars() > max {
                valid = false;
                if !self.collecting() {
                    return Ok(false);
                }
                let length = chars();
                self.report(&["maxLength"], ErrorKind::MaxLength { limit: max, length }, None);
            }
        }
        if let Some(id) = c.pattern {
            let regex = self.program.regex(id);
            self.meter.charge(regex.cost(s.len()))?;
            let matched = regex.is_match(s).map_err(|_| self.meter.stop(Exhausted::Regex))?;
            if !matched {
                valid = false;
                if !self.collecting() {
                    return Ok(false);
                }
                self.report(
                    &["pattern"],
                    ErrorKind::Pattern { pattern: regex.pattern().to_string() },
                    Some(Found::string(s)),
                );
            }
        }
        if let Some((check, name)) = &c.format {
            self.meter.charge(1 + s.len() as u64 / 16)?;
            let ok = match check {
                FormatCheck::Builtin(f) => crate::format::check(*f, s),
                FormatCheck::Custom(i) => self.formats.check(*i, s),
            };
            if !ok {
                valid = false;
                if self.collecting() {
                    self.report(
                        &["format"],
                        ErrorKind::Format {
                            format: name.to_string(),
                            builtin: match check {
                                FormatCheck::Builtin(f) => Some(*f),
                                FormatCheck::Custom(_) => None,
                            },
                        },
                        Some(Found::string(s)),
                    );
                }
            }
        }
        Ok(valid)
    }

    pub(super) fn check_content(&mut self, c: &'p ContentChecks, s: &'v str) -> Flow {
        self.meter.charge(1 + s.len() as u64 / 16)?;
        let decoded;
        let bytes: &[u8] = if c.base64 {
            match crate::format::content::decode_base64(s) {
                Some(b) => {
                    decoded = b;
                    &decoded
                }
                None => {
                    if self.collecting() {
                        self.report(
                            &["contentEncoding"],
                            ErrorKind::ContentEncoding { encoding: "base64".into() },
                            None,
                        );
                    }
                    return Ok(false);
                }
            }
        } else {
            s.as_bytes()
        };
        if !c.json {
            return Ok(true);
        }
        let parsed: Option<Value> = serde_json::from_slice(bytes).ok();
        let Some(document) = parsed else {
            if self.collecting() {
                self.report(
                    &["contentMediaType"],
                    ErrorKind::ContentMediaType { media_type: "application/json".into() },
                    None,
                );
            }
            return Ok(false);
        };
        let Some(schema) = c.schema else {
            return Ok(true);
        };
        let (ok, errors) = self.detached(schema, &document)?;
        if !ok && self.collecting() {
            let adopted = self.adopt(&["contentSchema"], errors);
            self.errors.extend(adopted);
        }
        Ok(ok)
    }
}

/// The value of a number held as a float (`None` for integers, and with
/// `arbitrary-precision`, where the text may hold more digits than an
/// `f64`).
#[inline]
fn float_value(n: &serde_json::Number) -> Option<f64> {
    if cfg!(feature = "arbitrary-precision") || !n.is_f64() {
        return None;
    }
    n.as_f64()
}
