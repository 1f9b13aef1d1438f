//! Instructions on one value: `type`, `const`, `enum`, number and string
//! checks, content.

use serde_json::{Number, Value};

use schemavm_compiler::bytecode::{
    ContentChecks, EnumId, EnumSet, FormatCheck, NumberChecks, NumberKeyword, StringChecks, ValueId,
};
use schemavm_compiler::number::Num;
use schemavm_compiler::regex::{BUILD_FUEL, Regex};
use schemavm_compiler::value::{self, JsonType, TypeSet};

use super::budget::Fuel;
use super::{Flow, Mode, NUMBER_BASE_FUEL, Vm};
use crate::error::{Detail, ErrorKind, Exhausted, Pending, Shown};
use crate::format::CustomFormats;

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
        let expected = self.ops.value(id);
        if const_passes(expected, v, &mut self.meter)? {
            return Ok(true);
        }
        if self.collecting() {
            self.report(&["const"], ErrorKind::Const { expected: expected.clone() }, Shown::of(v));
        }
        Ok(false)
    }

    #[inline(never)]
    pub(super) fn check_enum(&mut self, id: EnumId, v: &'v Value) -> Flow {
        let set = self.ops.enum_set(id);
        if !self.collecting() {
            return enum_passes(set, v, self.strict_integers, &mut self.meter);
        }
        self.report_enum(set, v)
    }

    /// [`Vm::check_enum`] while errors are recorded.
    #[cold]
    #[inline(never)]
    fn report_enum(&mut self, set: &'p EnumSet, v: &'v Value) -> Flow {
        let typed = match set.type_fused {
            Some(types) => self.check_type(types, v)?,
            None => true,
        };
        let found = enum_contains(set, v, &mut self.meter)?;
        if !found {
            self.report(&["enum"], Detail::enumerated(set.values.clone()), Shown::of(v));
        }
        Ok(found && typed)
    }

    /// The number checks on `n` (the number of `v`) while errors are
    /// recorded, with an `integer` type fused in if
    /// [`NumberChecks::integers_only`] (the type error first, then the
    /// bounds'). Without recording, [`number_passes`] decides.
    pub(super) fn check_number(&mut self, c: &'p NumberChecks, n: &'v Number, v: &'v Value) -> Flow {
        let typed = !c.integers_only || self.required_kind(c.type_fused, v)?;
        let x = Num::from_json(n);
        // The work past the base unit the caller charged.
        self.meter.charge(x.work().saturating_sub(NUMBER_BASE_FUEL))?;
        Ok(self.report_number(c, n, &x)? && typed)
    }

    /// The number checks again, reporting each failure (only while
    /// errors are recorded).
    #[cold]
    fn report_number(&mut self, c: &'p NumberChecks, n: &'v Number, x: &Num) -> Flow {
        debug_assert!(self.collecting());
        let mut valid = true;
        for (keyword, limit) in c.keywords() {
            let (exclusive, lower) = match keyword {
                NumberKeyword::Minimum => (false, true),
                NumberKeyword::ExclusiveMinimum => (true, true),
                NumberKeyword::Maximum => (false, false),
                NumberKeyword::ExclusiveMaximum => (true, false),
                NumberKeyword::MultipleOf => {
                    if !x.is_multiple_of(limit) {
                        valid = false;
                        self.report(&["multipleOf"], ErrorKind::MultipleOf { divisor: number_value(limit) }, n);
                    }
                    continue;
                }
            };
            let name = match (c.draft4_exclusive && exclusive, lower) {
                (true, true) => "minimum",
                (true, false) => "maximum",
                (false, _) => keyword.name(),
            };
            valid &= self.report_bound(limit, name, exclusive, lower, n, x);
        }
        Ok(valid)
    }

    /// Whether `x` (the number `n`) meets one bound of
    /// [`Vm::report_number`], reporting it under `keyword` if not.
    #[inline(always)]
    fn report_bound(
        &mut self,
        limit: &'p Num,
        keyword: &'static str,
        exclusive: bool,
        lower: bool,
        n: &'v Number,
        x: &Num,
    ) -> bool {
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
        if !self.collecting() {
            return string_passes(c, s, self.formats, &mut self.meter);
        }
        self.report_string(c, s)
    }

    /// [`Vm::check_string`] while errors are recorded: every check runs,
    /// each failure reported.
    #[cold]
    #[inline(never)]
    fn report_string(&mut self, c: &'p StringChecks, s: &'v str) -> Flow {
        let mut valid = true;
        let mut length = Length::of(s);
        if let Some(min) = c.min_length.filter(|&min| length.below(min)) {
            valid = false;
            let length = length.chars();
            self.report(&["minLength"], ErrorKind::MinLength { limit: min, length }, None);
        }
        if let Some(max) = c.max_length.filter(|&max| length.above(max)) {
            valid = false;
            let length = length.chars();
            self.report(&["maxLength"], ErrorKind::MaxLength { limit: max, length }, None);
        }
        if let Some(regex) = &c.pattern {
            if !pattern_matches(regex, s, &mut self.meter)? {
                valid = false;
                self.report(&["pattern"], ErrorKind::Pattern { pattern: regex.pattern().to_string() }, Shown::Text(s));
            }
        }
        if let Some(check) = &c.format {
            if !format_passes(check, self.formats, s, &mut self.meter)? {
                valid = false;
                let kind = match check {
                    // The name is the format's own: built when asked for.
                    FormatCheck::Builtin(f) => Detail::format(*f),
                    FormatCheck::Custom(custom) => {
                        ErrorKind::Format { format: custom.name.to_string(), builtin: None }.into()
                    }
                };
                self.report(&["format"], kind, Shown::Text(s));
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

/// Whether `v` equals `const` value `expected` (one unit of fuel).
#[inline(always)]
pub(super) fn const_passes(expected: &Value, v: &Value, fuel: &mut impl Fuel) -> Flow {
    fuel.charge(1)?;
    Ok(value::equal(expected, v))
}

/// Whether `v` passes `enum` set `set` (with its fused `type`), nothing
/// recorded. A string with no type to check is one lookup.
#[inline(always)]
pub(super) fn enum_passes(set: &EnumSet, v: &Value, strict_integers: bool, fuel: &mut impl Fuel) -> Flow {
    if let Value::String(s) = v {
        if set.type_fused.is_none() || set.type_implied() {
            return Ok(set.strings.find(s).is_some());
        }
    }
    typed_enum_passes(set, v, strict_integers, fuel)
}

/// [`enum_passes`] past its string shortcut (out of line: the shortcut's
/// callers stay small).
#[inline(never)]
fn typed_enum_passes(set: &EnumSet, v: &Value, strict_integers: bool, fuel: &mut impl Fuel) -> Flow {
    if let Some(types) = set.type_fused.filter(|_| !set.type_implied()) {
        if !types.admits(v, strict_integers) {
            return Ok(false);
        }
    }
    enum_contains(set, v, fuel)
}

/// Whether `v` is one of `set`'s values (its type aside): a string or a
/// machine integer by lookup (an integer compared with each member too
/// when some are other numbers), any other value by comparison with each
/// member (a unit of fuel each).
#[inline]
fn enum_contains(set: &EnumSet, v: &Value, fuel: &mut impl Fuel) -> Flow {
    Ok(match v {
        Value::String(s) => set.strings.find(s).is_some(),
        _ if set.all_strings => false,
        Value::Number(n) if !set.other_numbers && n.as_i64().is_some() => {
            n.as_i64().is_some_and(|i| set.integers.binary_search(&i).is_ok())
        }
        _ => {
            fuel.charge(set.values.len() as u64)?;
            set.values.iter().any(|e| value::equal(e, v))
        }
    })
}

/// Whether machine integer `i` passes number checks `c` that decide
/// integers by a range (`lo..=hi`) and a divisor alone.
#[inline(always)]
pub(super) fn integer_passes(c: &NumberChecks, (lo, hi): (i64, i64), i: i64) -> bool {
    lo <= i && i <= hi && c.integer_multiple.is_none_or(|m| m.divides(i.unsigned_abs()))
}

/// Whether `v` passes number checks `c`, nothing recorded: values of
/// other types by the fused `type`, integers in the machine range and
/// floats against float bounds in constant work, other numbers exactly
/// (charging the work past the base unit, which the caller charged).
#[inline(always)]
pub(super) fn number_passes(c: &NumberChecks, v: &Value, strict_integers: bool, fuel: &mut impl Fuel) -> Flow {
    let Value::Number(n) = v else {
        return Ok(fused_admits(c.type_fused, v, strict_integers));
    };
    if let (Some(range), Some(i)) = (c.integer_range, n.as_i64()) {
        return Ok(integer_passes(c, range, i));
    }
    if c.integers_only && !TypeSet::single(JsonType::Integer).admits(v, strict_integers) {
        return Ok(false);
    }
    if let (Some(bounds), Some(f)) = (c.float_bounds, float_value(n)) {
        // Constant work: the base unit.
        return Ok(bounds.admits(f));
    }
    let x = Num::from_json(n);
    fuel.charge(x.work().saturating_sub(NUMBER_BASE_FUEL))?;
    Ok(c.admits(&x))
}

/// Whether string `s` passes string checks `c`, nothing recorded: the
/// length bounds, then the pattern, then the format, stopping at the
/// first failure.
#[inline(always)]
pub(super) fn string_passes(c: &StringChecks, s: &str, formats: &CustomFormats, fuel: &mut impl Fuel) -> Flow {
    if !string_length_passes(c, s) {
        return Ok(false);
    }
    if let Some(regex) = &c.pattern {
        if !pattern_matches(regex, s, fuel)? {
            return Ok(false);
        }
    }
    match &c.format {
        Some(check) => format_passes(check, formats, s, fuel),
        None => Ok(true),
    }
}

/// Whether string `s` is within the length bounds of `c`.
#[inline(always)]
pub(super) fn string_length_passes(c: &StringChecks, s: &str) -> bool {
    let mut length = Length::of(s);
    !(c.min_length.is_some_and(|min| length.below(min)) || c.max_length.is_some_and(|max| length.above(max)))
}

/// Whether a value of another kind than an instruction checks passes the
/// `type` fused into it (`None`: no `type` was fused, every kind passes),
/// on the boolean path.
#[inline(always)]
pub(super) fn fused_admits(fused: Option<TypeSet>, v: &Value, strict_integers: bool) -> bool {
    fused.is_none_or(|types| types.admits(v, strict_integers))
}

/// Whether `regex` matches `s`, charged by the haystack's length and the
/// program's size, and [`BUILD_FUEL`] if the match builds the pattern's
/// matcher; a regex that gives up (backtrack limit) stops the evaluation.
/// (Always inlined: the regex's [shortcut](schemavm_compiler::regex::Regex::is_match)
/// decides most names and values, in fewer instructions than a call.)
#[inline(always)]
pub(super) fn pattern_matches(regex: &Regex, s: &str, fuel: &mut impl Fuel) -> Flow {
    fuel.charge(regex.cost(s.len()))?;
    let mut build = Ok(());
    let matched = regex.is_match_with(s, || {
        build = fuel.charge(BUILD_FUEL);
        build.is_ok()
    });
    build?;
    matched.map_err(|_| fuel.stop(Exhausted::Regex))
}

/// Whether `s` is valid for format check `check`, charged by length.
#[inline(always)]
fn format_passes(check: &FormatCheck, formats: &CustomFormats, s: &str, fuel: &mut impl Fuel) -> Flow {
    fuel.charge(1 + s.len() as u64 / 16)?;
    Ok(match check {
        FormatCheck::Builtin(f) => crate::format::check(*f, s),
        FormatCheck::Custom(custom) => formats.check(custom.index, s),
    })
}

/// A string's length against `minLength` / `maxLength`: a string has at
/// most as many characters as bytes and at least a quarter as many, so
/// most bounds are settled by the byte length; the characters are counted
/// at most once, when one is not.
struct Length<'s> {
    s: &'s str,
    chars: Option<u64>,
}

impl<'s> Length<'s> {
    // Always inlined, the count out of line: the `Length` then lives in
    // registers, and a string with no length bound stores nothing.
    #[inline(always)]
    fn of(s: &'s str) -> Length<'s> {
        Length { s, chars: None }
    }

    /// The length in characters.
    #[inline(always)]
    fn chars(&mut self) -> u64 {
        let s = self.s;
        *self.chars.get_or_insert_with(|| count_chars(s))
    }

    /// Shorter than `min` characters.
    #[inline(always)]
    fn below(&mut self, min: u64) -> bool {
        let bytes = self.s.len() as u64;
        bytes < min || (bytes < min.saturating_mul(4) && self.chars() < min)
    }

    /// Longer than `max` characters.
    #[inline(always)]
    fn above(&mut self, max: u64) -> bool {
        let bytes = self.s.len() as u64;
        bytes > max && (bytes > max.saturating_mul(4) || self.chars() > max)
    }
}

/// The characters of `s`, counted ([`Length::chars`]).
#[inline(never)]
fn count_chars(s: &str) -> u64 {
    s.chars().count() as u64
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

#[cfg(test)]
mod tests {
    use super::Length;

    /// The byte-length shortcuts give the character count's verdicts.
    #[test]
    fn lengths_are_counted_in_characters() {
        for s in ["", "a", "ab", "abcdefghi", "日本語", "é", "😀😀", "😀😀😀", "a😀", "😀aaaaaaaa"] {
            let chars = s.chars().count() as u64;
            for bound in 0..12 {
                assert_eq!(Length::of(s).above(bound), chars > bound, "{s:?} above {bound}");
                assert_eq!(Length::of(s).below(bound), chars < bound, "{s:?} below {bound}");
            }
        }
    }
}
