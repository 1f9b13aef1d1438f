//! Exact arithmetic on JSON numbers.
//!
//! `serde_json` keeps a number as `u64`, `i64` or `f64` — or, with its
//! `arbitrary_precision` feature (enabled by schemavm's
//! `arbitrary-precision` feature), as the literal text. [`Num`] holds
//! either form so that comparisons are exact across representations (no
//! rounding through `f64`) and `multipleOf` is decided on the decimal
//! value a number denotes (for an `f64`, the shortest decimal that
//! round-trips): `0.3` is a multiple of `0.1`, `1e308` of `1e-308`, and
//! nothing overflows.
//!
//! Without `arbitrary-precision`, integers beyond 64 bits arrive as
//! `f64`: they compare by their `f64` value, and draft-04 (where `1.0` is
//! not an integer) cannot tell `1e52` from a 53-digit integer literal.
//! With it, every literal is kept exactly ([`Num::Dec`]).

use std::cmp::Ordering;
use std::hash::Hasher;

use serde_json::Number;

/// Most significant digits of a `multipleOf` divisor (so the remainder
/// arithmetic fits in 128 bits).
pub const MAX_DIVISOR_DIGITS: usize = 37;

/// A JSON number in a form that compares exactly.
#[derive(Debug, Clone, PartialEq)]
pub enum Num {
    /// An integer written without fraction or exponent, held exactly.
    Int(i128),
    /// A binary floating-point value (finite).
    Float(f64),
    /// An exact decimal (only with `arbitrary-precision`).
    Dec(Box<Dec>),
}

/// `±digits × 10^exponent`, normalized: `digits` has no leading or
/// trailing zeros (empty for zero).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dec {
    negative: bool,
    digits: Box<[u8]>,
    exponent: i64,
    /// Written without fraction or exponent (draft-04's integer).
    lexical_integer: bool,
}

/// Exponents are clamped to this magnitude (no real value needs more;
/// arithmetic on them stays far from overflow).
const EXPONENT_BOUND: i64 = 1 << 40;

impl Dec {
    /// Parses a JSON number literal; `None` if it is not one.
    pub fn parse(text: &str) -> Option<Dec> {
        let (negative, rest) = match text.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, text),
        };
        let (mantissa, exp) = match rest.find(['e', 'E']) {
            Some(i) => (rest.get(..i)?, Some(rest.get(i + 1..)?)),
            None => (rest, None),
        };
        let (int_part, frac_part) = match mantissa.split_once('.') {
            Some((i, f)) => (i, Some(f)),
            None => (mantissa, None),
        };
        let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !all_digits(int_part) || frac_part.is_some_and(|f| !all_digits(f)) {
            return None;
        }
        let mut exponent: i64 = match exp {
            None => 0,
            Some(e) => {
                let (sign, digits) = match e.as_bytes().first() {
                    Some(b'-') => (-1, e.get(1..)?),
                    Some(b'+') => (1, e.get(1..)?),
                    _ => (1, e),
                };
                if !all_digits(digits) {
                    return None;
                }
                let mut v: i64 = 0;
                for b in digits.bytes() {
                    v = (v * 10 + i64::from(b - b'0')).min(EXPONENT_BOUND);
                }
                sign * v
            }
        };
        let frac = frac_part.unwrap_or("");
        exponent -= frac.len() as i64;
        let mut digits: Vec<u8> =
            int_part.bytes().chain(frac.bytes()).map(|b| b - b'0').skip_while(|d| *d == 0).collect();
        while digits.last() == Some(&0) {
            digits.pop();
            exponent += 1;
        }
        if digits.is_empty() {
            exponent = 0;
        }
        Some(Dec {
            negative: negative && !digits.is_empty(),
            digits: digits.into_boxed_slice(),
            exponent: exponent.clamp(-EXPONENT_BOUND, EXPONENT_BOUND),
            lexical_integer: frac_part.is_none() && exp.is_none(),
        })
    }

    fn from_small(negative: bool, mantissa: u128, exponent: i64) -> Dec {
        let digits: Vec<u8> =
            if mantissa == 0 { Vec::new() } else { mantissa.to_string().bytes().map(|b| b - b'0').collect() };
        let mut d = Dec { negative, digits: digits.into_boxed_slice(), exponent, lexical_integer: false };
        d.normalize();
        d
    }

    fn normalize(&mut self) {
        let mut digits = self.digits.to_vec();
        while digits.last() == Some(&0) {
            digits.pop();
            self.exponent += 1;
        }
        let lead = digits.iter().take_while(|d| **d == 0).count();
        digits.drain(..lead);
        if digits.is_empty() {
            self.exponent = 0;
            self.negative = false;
        }
        self.digits = digits.into_boxed_slice();
    }

    fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    fn compare(&self, other: &Dec) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => return Ordering::Equal,
            (true, false) => {
                return if other.negative { Ordering::Greater } else { Ordering::Less };
            }
            (false, true) => {
                return if self.negative { Ordering::Less } else { Ordering::Greater };
            }
            _ => {}
        }
        if self.negative != other.negative {
            return if self.negative { Ordering::Less } else { Ordering::Greater };
        }
        // Same sign: compare magnitudes by leading exponent, then digits.
        let lead = |d: &Dec| d.exponent + d.digits.len() as i64;
        let magnitude = lead(self).cmp(&lead(other)).then_with(|| self.digits.cmp(&other.digits));
        if self.negative { magnitude.reverse() } else { magnitude }
    }

    /// The value as `u128 × 10^exponent`, if the digits fit.
    fn small(&self) -> Option<(u128, i64)> {
        if self.digits.len() > 38 {
            return None;
        }
        let mut m: u128 = 0;
        for d in self.digits.iter() {
            m = m.checked_mul(10)?.checked_add(u128::from(*d))?;
        }
        Some((m, self.exponent))
    }
}

impl Num {
    /// Converts a `serde_json` number.
    #[inline]
    pub fn from_json(n: &Number) -> Num {
        #[cfg(feature = "arbitrary-precision")]
        {
            let text = n.as_str();
            if let Ok(i) = text.parse::<i128>() {
                return Num::Int(i);
            }
            if let Some(d) = Dec::parse(text) {
                return Num::Dec(Box::new(d));
            }
        }
        if let Some(u) = n.as_u64() {
            Num::Int(i128::from(u))
        } else if let Some(i) = n.as_i64() {
            Num::Int(i128::from(i))
        } else {
            Num::Float(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    /// Whether the value is a mathematical integer (`1.0` is).
    #[inline]
    pub fn is_integer(&self) -> bool {
        match self {
            Num::Int(_) => true,
            Num::Float(f) => is_integral(*f),
            Num::Dec(d) => d.exponent >= 0,
        }
    }

    /// Whether the number was written as an integer (no fraction, no
    /// exponent): draft-04's notion of `integer`.
    pub fn is_lexical_integer(&self) -> bool {
        match self {
            Num::Int(_) => true,
            Num::Float(_) => false,
            Num::Dec(d) => d.lexical_integer,
        }
    }

    /// A non-negative integer value as a count (huge values saturate).
    pub fn as_count(&self) -> Option<u64> {
        match self {
            Num::Int(i) => u64::try_from(*i).ok(),
            Num::Float(f) if *f >= 0.0 && is_integral(*f) => Some(if *f >= 1.8e19 { u64::MAX } else { *f as u64 }),
            Num::Dec(d) if !d.negative && d.exponent >= 0 => Some(
                d.small()
                    .and_then(|(m, e)| m.checked_mul(10u128.checked_pow(u32::try_from(e).ok()?)?))
                    .and_then(|v| u64::try_from(v).ok())
                    .unwrap_or(u64::MAX),
            ),
            _ => None,
        }
    }

    /// Digits of work an operation on this number costs (for fuel).
    #[inline]
    pub fn work(&self) -> u64 {
        match self {
            Num::Dec(d) => 1 + d.digits.len() as u64 / 8,
            _ => 1,
        }
    }

    /// Significant decimal digits.
    pub fn significant_digits(&self) -> usize {
        self.decimal().map_or(0, |d| d.digits.len())
    }

    fn decimal(&self) -> Option<Dec> {
        match self {
            Num::Int(i) => Some(Dec::from_small(*i < 0, i.unsigned_abs(), 0)),
            Num::Float(f) => {
                let (m, e) = shortest_decimal(*f)?;
                Some(Dec::from_small(*f < 0.0, m, e))
            }
            Num::Dec(d) => Some((**d).clone()),
        }
    }

    /// Exact comparison. NaN (which JSON cannot express) orders below everything.
    #[inline]
    pub fn compare(&self, other: &Num) -> Ordering {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => a.cmp(b),
            (Num::Float(a), Num::Float(b)) => a.partial_cmp(b).unwrap_or_else(|| nan_order(*a, *b)),
            (Num::Int(a), Num::Float(b)) => cmp_int_float(*a, *b),
            (Num::Float(a), Num::Int(b)) => cmp_int_float(*b, *a).reverse(),
            (Num::Dec(a), Num::Dec(b)) => a.compare(b),
            _ => match (self.decimal(), other.decimal()) {
                (Some(a), Some(b)) => a.compare(&b),
                (None, Some(_)) => Ordering::Less,
                (Some(_), None) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            },
        }
    }

    /// Whether `self` is an integer multiple of `divisor` (positive, at
    /// most [`MAX_DIVISOR_DIGITS`] significant digits), on exact decimal
    /// values.
    ///
    /// A small function ahead of the general one, for its shortcut: a
    /// float that is not integral is never a multiple of an integer, as its
    /// shortest decimal X is not an integer either (the float nearest an
    /// integer n is integral: n itself below 2^53, every float is integral
    /// above), and X = k·b would be one.
    #[inline(never)]
    pub fn is_multiple_of(&self, divisor: &Num) -> bool {
        if let (Num::Float(x), Num::Int(_)) = (self, divisor) {
            // `is_integral` below 2^52, the rest is left to the general
            // path.
            let a = x.abs();
            if a < TWO_POW_52 && (a + TWO_POW_52) - TWO_POW_52 != a {
                return false;
            }
        }
        self.is_multiple_of_exactly(divisor)
    }

    /// [`Num::is_multiple_of`] past its inline shortcut.
    #[inline(never)]
    fn is_multiple_of_exactly(&self, divisor: &Num) -> bool {
        match (self, divisor) {
            (Num::Int(a), Num::Int(b)) => return int_multiple(*a, *b),
            // Below 2^53 an integral float's shortest decimal is the
            // integer itself (the floats around it are at most 1 apart, so
            // no other integer rounds to it, and any decimal that is not an
            // integer has more digits).
            (Num::Float(x), Num::Int(b)) if is_integral(*x) && x.abs() < TWO_POW_53 => {
                return int_multiple(*x as i128, *b);
            }
            _ => {}
        }
        if let Some((b, scale)) = divisor.scaled_u64() {
            match self {
                Num::Float(x) => {
                    if let Some(verdict) = float_multiple_at_scale(*x, b, scale) {
                        return verdict;
                    }
                }
                // i · 10^scale is a multiple of b (b ≠ 0) when it fits a word.
                Num::Int(i) => {
                    let scaled = u64::try_from(i.unsigned_abs())
                        .ok()
                        .and_then(|a| a.checked_mul(*POWERS_OF_TEN_U64.get(scale)?));
                    if let Some(scaled) = scaled {
                        return b != 0 && scaled % b == 0;
                    }
                }
                Num::Dec(_) => {}
            }
        }
        if quotient_rules_out(self, divisor) {
            return false;
        }
        if let (Some((a, a_exp)), Some((b, b_exp))) = (self.decimal_u64(), divisor.decimal_u64()) {
            return scaled_multiple(a, a_exp, b, b_exp);
        }
        let Some((b, b_exp)) = divisor.small_normalized() else {
            return false;
        };
        if b == 0 || b >= 10u128.pow(MAX_DIVISOR_DIGITS as u32) {
            return false;
        }
        let (a_rem, a_zero, a_exp) = match self.small_normalized() {
            Some((a, e)) => (a % b, a == 0, e),
            None => match self {
                Num::Dec(d) => {
                    // a mod b, streaming the digits (r·10 + 9 < 2^127).
                    let r = d.digits.iter().fold(0u128, |r, digit| (r * 10 + u128::from(*digit)) % b);
                    (r, d.is_zero(), d.exponent)
                }
                _ => return false,
            },
        };
        if a_zero {
            return true;
        }
        // value = (a / b) · 10^k with a, b free of trailing zeros: for
        // k < 0 the quotient is never an integer.
        let k = a_exp - b_exp;
        if k < 0 {
            return false;
        }
        mul_mod(a_rem, pow_mod(10, k as u64, b), b) == 0
    }

    /// The magnitude as `mantissa × 10^exponent` with a machine-word
    /// mantissa free of trailing zeros, for an integer or a float (a
    /// float's shortest decimal has at most 17 digits).
    #[inline]
    fn decimal_u64(&self) -> Option<(u64, i64)> {
        let (m, e) = match self {
            Num::Int(i) => (u64::try_from(i.unsigned_abs()).ok()?, 0),
            Num::Float(f) => {
                let (m, e) = shortest_decimal(*f)?;
                (u64::try_from(m).ok()?, e)
            }
            Num::Dec(_) => return None,
        };
        Some(strip_zeros(m, e))
    }

    /// The magnitude as `b × 10^-scale` with `scale` in `0..=22` (the
    /// powers of ten an `f64` holds exactly) and `b` a machine word, for
    /// an integer or a float.
    #[inline]
    fn scaled_u64(&self) -> Option<(u64, usize)> {
        match self {
            Num::Int(i) => Some((u64::try_from(i.unsigned_abs()).ok()?, 0)),
            Num::Float(f) => {
                let (m, e) = shortest_decimal(*f)?;
                let m = u64::try_from(m).ok()?;
                match usize::try_from(-e) {
                    Ok(scale) => (scale < POWERS_OF_TEN.len()).then_some((m, scale)),
                    // An integer with `e` trailing zeros.
                    Err(_) => Some((m.checked_mul(10u64.checked_pow(u32::try_from(e).ok()?)?)?, 0)),
                }
            }
            Num::Dec(_) => None,
        }
    }

    /// `(mantissa, exponent)` with no trailing zeros in the mantissa, if
    /// the value fits.
    fn small_normalized(&self) -> Option<(u128, i64)> {
        let (mut m, mut e) = match self {
            Num::Int(i) => (i.unsigned_abs(), 0),
            Num::Float(f) => shortest_decimal(*f)?,
            Num::Dec(d) => d.small()?,
        };
        while m != 0 && m % 10 == 0 {
            m /= 10;
            e += 1;
        }
        Some((m, e))
    }

    /// Feeds a hash consistent with [`Num::compare`] equality.
    pub fn hash_into<H: Hasher>(&self, h: &mut H) {
        if self.is_integer() {
            let as_int = match self {
                Num::Int(i) => Some(*i),
                Num::Float(f) if f.abs() < 1.7e38 => Some(*f as i128),
                Num::Dec(d) => d.small().and_then(|(m, e)| {
                    let p = 10u128.checked_pow(u32::try_from(e).ok()?)?;
                    let v = i128::try_from(m.checked_mul(p)?).ok()?;
                    Some(if d.negative { -v } else { v })
                }),
                Num::Float(_) => None,
            };
            if let Some(i) = as_int {
                h.write_u8(0);
                h.write_i128(i);
                return;
            }
        }
        match self.decimal() {
            Some(d) => {
                h.write_u8(1);
                h.write_u8(u8::from(d.negative));
                h.write(&d.digits);
                h.write_i64(d.exponent);
            }
            None => h.write_u8(2),
        }
    }
}

impl std::fmt::Display for Num {
    /// The number as a JSON literal.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Num::Int(i) => write!(f, "{i}"),
            Num::Float(x) => write!(f, "{x}"),
            Num::Dec(d) => {
                if d.negative {
                    f.write_str("-")?;
                }
                if d.digits.is_empty() {
                    return f.write_str("0");
                }
                for digit in d.digits.iter() {
                    write!(f, "{digit}")?;
                }
                if d.exponent != 0 {
                    write!(f, "e{}", d.exponent)?;
                }
                Ok(())
            }
        }
    }
}

/// Whether `f` is a finite integer. Every finite float of magnitude 2^52
/// or more is one. (Cheaper than `f64::fract`, a library call on baseline
/// x86-64.)
#[inline]
fn is_integral(f: f64) -> bool {
    let a = f.abs();
    // Below 2^52, adding 2^52 rounds to the nearest integer (the floats in
    // [2^52, 2^53) are the integers), which is `a` itself exactly when `a`
    // is one; the subtraction is exact. (No saturating float-to-integer
    // cast.)
    if a < TWO_POW_52 { (a + TWO_POW_52) - TWO_POW_52 == a } else { a.is_finite() }
}

fn nan_order(a: f64, b: f64) -> Ordering {
    a.is_nan().cmp(&b.is_nan()).reverse()
}

const TWO_POW_127: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;

fn cmp_int_float(i: i128, f: f64) -> Ordering {
    if f.is_nan() {
        return Ordering::Greater;
    }
    if f >= TWO_POW_127 {
        return Ordering::Less;
    }
    if f < -TWO_POW_127 {
        return Ordering::Greater;
    }
    // The cast truncates toward zero, and |f| < 2^127 makes it exact;
    // converting back is exact too (either |f| < 2^53, or f is integral
    // already). Cheaper than `f64::trunc`, a library call on baseline
    // x86-64.
    let ti = f as i128;
    let t = ti as f64;
    match i.cmp(&ti) {
        Ordering::Equal => {
            if f > t {
                Ordering::Less
            } else if f < t {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        }
        other => other,
    }
}

/// Whether the integer `a` is a multiple of `b` (never of 0).
#[inline]
fn int_multiple(a: i128, b: i128) -> bool {
    // 64-bit division when both fit: much cheaper than 128-bit.
    match (i64::try_from(a), i64::try_from(b)) {
        (Ok(a), Ok(b)) => b != 0 && a.checked_rem(b).is_none_or(|r| r == 0),
        // `checked_rem` fails only for 0 and for `MIN / -1` (a multiple).
        _ => b != 0 && a.checked_rem(b).is_none_or(|r| r == 0),
    }
}

const TWO_POW_49: f64 = 562_949_953_421_312.0;
const TWO_POW_52: f64 = 4_503_599_627_370_496.0;
const TWO_POW_53: f64 = 9_007_199_254_740_992.0;

/// The value as the nearest `f64`, for an integer or a float (`None` for
/// a [`Num::Dec`]). Within 2^-53 of it, relatively, unless it is 0: an
/// integer converts to the nearest float, and a float is the nearest float
/// to its shortest decimal.
#[inline]
fn approximate(n: &Num) -> Option<f64> {
    match n {
        Num::Int(i) => Some(*i as f64),
        Num::Float(f) => Some(*f),
        Num::Dec(_) => None,
    }
}

/// Whether the float quotient proves that `x` is not a multiple of `d`
/// (`false`: it may be one, and the exact test decides).
///
/// Let X and D be the exact decimal values, x and d their nearest floats
/// ([`approximate`]), both normal, and q = fl(x / d) normal too. Then
/// x = X(1+e₁), d = D(1+e₂), q = (x/d)(1+e₃) with |eᵢ| ≤ u = 2^-53 (a
/// normal result of a correctly rounded operation). If X = k·D for an
/// integer k (≠ 0, as x ≠ 0), q = k(1+e₁)(1+e₃)/(1+e₂), so |q − k| <
/// 4u·|k| and |k| < 2|q|: q is within 8u·|q| < 1e-15·|q| of the integer
/// k, so within that of its nearest integer. A q farther than 1e-9·max(1,
/// |q|) from every integer therefore rules the multiple out. (Below 2^52,
/// `q - trunc(q)` is exact, and so is `1 - frac` when it is the smaller;
/// from 2^52 on every float is an integer and nothing is ruled out.)
#[inline]
fn quotient_rules_out(x: &Num, d: &Num) -> bool {
    let (Some(x), Some(d)) = (approximate(x), approximate(d)) else {
        return false;
    };
    if !x.is_normal() || !d.is_normal() {
        return false;
    }
    let q = (x / d).abs();
    if !q.is_normal() || q >= TWO_POW_52 {
        return false;
    }
    let frac = q - (q as i64) as f64;
    frac.min(1.0 - frac) > 1e-9 * q.max(1.0)
}

/// Whether the float `x` is a multiple of `b × 10^-scale` (`scale ≤ 22`),
/// found at that one scale: `None` if |x| · 10^scale is 2^49 or more (the
/// general test decides).
///
/// Let X be the shortest decimal of x and I the interval of reals that
/// round to x. As in [`short_decimal`] (2), at this scale I · 10^scale
/// holds at most one integer, and if it holds one, that is m = round(|x| ·
/// 10^scale), and `m / 10^scale` converts back to |x| exactly when m ·
/// 10^-scale ∈ I. If X is a multiple, X · 10^scale = n · b is an integer in
/// I · 10^scale, so the check passes: a failed check rules the multiple
/// out. If it passes, m · 10^-scale is a candidate at this scale; the
/// coarsest candidate, which is X ([`short_decimal`] (3), (4)), is one at
/// this scale too, so X = m · 10^-scale, a multiple exactly when b divides
/// m.
#[inline]
fn float_multiple_at_scale(x: f64, b: u64, scale: usize) -> Option<bool> {
    let p = *POWERS_OF_TEN.get(scale)?;
    let x = x.abs();
    let y = x * p;
    if y.is_nan() || y >= TWO_POW_49 {
        return None;
    }
    let (m, integer) = nearest_integer(y);
    Some(integer / p == x && b != 0 && m % b == 0)
}

/// `m × 10^e` with the trailing zeros of `m` moved into `e`.
#[inline]
fn strip_zeros(mut m: u64, mut e: i64) -> (u64, i64) {
    while m != 0 && m % 10 == 0 {
        m /= 10;
        e += 1;
    }
    (m, e)
}

/// Whether `a × 10^a_exp` is an integer multiple of `b × 10^b_exp`, for
/// mantissas free of trailing zeros (never of 0).
///
/// The quotient is (a / b) · 10^k with k = a_exp − b_exp. For k < 0 it is
/// never an integer (b · n = a · 10^-k would end in a zero). Otherwise,
/// with b = 2^s · 5^t · r and r prime to 10, b divides a · 10^k = a · 2^k
/// · 5^k exactly when r divides a, 2^s divides a · 2^k and 5^t divides
/// a · 5^k: machine-word operations only, where the remainder of a · 10^k
/// would need 128 bits or more.
fn scaled_multiple(a: u64, a_exp: i64, b: u64, b_exp: i64) -> bool {
    if b == 0 {
        return false;
    }
    if a == 0 {
        return true;
    }
    let k = a_exp.saturating_sub(b_exp);
    if k < 0 {
        return false;
    }
    // Usually a · 10^k fits a word: one remainder.
    if let Some(scaled) = usize::try_from(k).ok().and_then(|k| a.checked_mul(*POWERS_OF_TEN_U64.get(k)?)) {
        return scaled % b == 0;
    }
    let s = b.trailing_zeros();
    let mut r = b >> s;
    let mut t = 0i64;
    while r % 5 == 0 {
        r /= 5;
        t += 1;
    }
    if a % r != 0 || i64::from(s) > k.saturating_add(i64::from(a.trailing_zeros())) {
        return false;
    }
    // At most 27 factors of 5 in a word.
    let mut fives = a;
    for _ in k..t {
        if fives % 5 != 0 {
            return false;
        }
        fives /= 5;
    }
    true
}

/// 10^0 ..= 10^22, the powers of ten an `f64` holds exactly.
const POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// The integer nearest `y` (0 ≤ y < 2^52), as a word and as a float:
/// y + 2^52 lies in [2^52, 2^53), where floats are the integers, so the
/// addition rounds y to its nearest integer, and the subtraction and the
/// difference of the bit patterns are exact. (No float-to-integer cast,
/// which saturates in several instructions.)
#[inline(always)]
fn nearest_integer(y: f64) -> (u64, f64) {
    let shifted = y + TWO_POW_52;
    (shifted.to_bits().wrapping_sub(TWO_POW_52.to_bits()), shifted - TWO_POW_52)
}

/// 10^0 ..= 10^19, the powers of ten a `u64` holds.
const POWERS_OF_TEN_U64: [u64; 20] = {
    let mut powers = [1u64; 20];
    let mut i = 1;
    while i < powers.len() {
        powers[i] = powers[i - 1] * 10;
        i += 1;
    }
    powers
};

/// The shortest decimal of a positive float `x`, found without digit
/// generation when it has few digits: the first `m × 10^-j` (j = 0, 1,
/// ...) that converts back to `x`, while x · 10^j < 2^49 and 10^j is
/// exact. `None`: the general algorithm decides.
///
/// Why the answer is exact. Let I be the interval of reals that round to
/// x (width at most ulp(x) ≤ 2^-52·x). (1) The check is exact: m < 2^49
/// and 10^j ≤ 10^22 are exact floats, so `m as f64 / 10^j` is m·10^-j
/// correctly rounded, and equals x exactly when m·10^-j ∈ I. (2) At a
/// scale j tried, I · 10^j is narrower than 2^-52·2^49 = 1/8, so holds at
/// most one integer, within 1/16 of x·10^j; y = fl(x·10^j) is within
/// 2^-53·2^49 = 1/16 of x·10^j, so within 1/8 of that integer, and
/// [`nearest_integer`] finds it: if any m·10^-j lies in I, this m is
/// found. (A subnormal x has x·10^22 < 1/2: m is 0,
/// and never checks.)
/// (3) A candidate at a scale coarser than j is one at scale j too, so
/// the first j found gives the coarsest candidate c = m·10^-j. (4) c is
/// the value of the shortest decimal: let c' ∈ I have no more significant
/// digits than c, with 10^L ≤ c < 10^(L+1). If c' ≥ 10^L, its last digit
/// is no finer than c's, so c' is a candidate at scale j and equals c by
/// (2). If c' < 10^L, then 10^L ∈ I (between c' and c), a candidate at
/// scale j, so c = 10^L has one digit, and so would c' ≤ 0.9 · 10^L —
/// too far from c for I.
#[inline]
fn short_decimal(x: f64) -> Option<(u64, i64)> {
    for (j, p) in (0i64..).zip(POWERS_OF_TEN) {
        let y = x * p;
        if y.is_nan() || y >= TWO_POW_49 {
            return None;
        }
        let (m, integer) = nearest_integer(y);
        if integer / p == x {
            return Some((m, -j));
        }
    }
    None
}

/// The shortest decimal `(mantissa, exponent)` that round-trips to `|f|`.
fn shortest_decimal(f: f64) -> Option<(u128, i64)> {
    if !f.is_finite() {
        return None;
    }
    let x = f.abs();
    if x == 0.0 {
        return Some((0, 0));
    }
    if let Some((m, e)) = short_decimal(x) {
        return Some((u128::from(m), e));
    }
    shortest_decimal_by_formatting(x)
}

/// [`shortest_decimal`] by formatting `x` (core's shortest round-trip
/// digits) and reading the text back.
#[inline(never)]
fn shortest_decimal_by_formatting(x: f64) -> Option<(u128, i64)> {
    let mut buf = StackString::default();
    use std::fmt::Write;
    write!(buf, "{:e}", x).ok()?;
    let text = buf.as_str()?;
    let (digits, exp) = text.split_once('e')?;
    let exp: i64 = exp.parse().ok()?;
    let (int_part, frac_part) = digits.split_once('.').unwrap_or((digits, ""));
    let mut mantissa: u128 = 0;
    for b in int_part.bytes().chain(frac_part.bytes()) {
        mantissa = mantissa.checked_mul(10)?.checked_add(u128::from(b.checked_sub(b'0')?))?;
    }
    Some((mantissa, exp - frac_part.len() as i64))
}

/// `(x · y) mod m` without overflow, for `x, y < m < 2^127`.
fn mul_mod(x: u128, y: u128, m: u128) -> u128 {
    if let Some(p) = x.checked_mul(y) {
        return p % m;
    }
    let (mut result, mut base, mut y) = (0u128, x % m, y);
    while y > 0 {
        if y & 1 == 1 {
            result = (result + base) % m;
        }
        base = (base + base) % m;
        y >>= 1;
    }
    result
}

/// `base^exp mod m`.
fn pow_mod(base: u128, mut exp: u64, m: u128) -> u128 {
    let mut result = 1 % m;
    let mut b = base % m;
    while exp > 0 {
        if exp & 1 == 1 {
            result = mul_mod(result, b, m);
        }
        b = mul_mod(b, b, m);
        exp >>= 1;
    }
    result
}

/// A fixed-capacity UTF-8 buffer for formatting a float without allocating.
#[derive(Default)]
struct StackString {
    buf: [u8; 32],
    len: usize,
}

impl StackString {
    fn as_str(&self) -> Option<&str> {
        std::str::from_utf8(self.buf.get(..self.len)?).ok()
    }
}

impl std::fmt::Write for StackString {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(std::fmt::Error)?;
        let dst = self.buf.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// A positive machine-integer divisor with a multiplication-only
/// divisibility test (Granlund and Montgomery; Hacker's Delight 10-17):
/// for `m = d * 2^k` with `d` odd, `a` is a multiple of `m` exactly when
/// `a * d⁻¹ mod 2^64`, rotated right by `k`, is at most `(2^64 - 1) / m`.
/// A hardware division costs tens of cycles; this costs one multiply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Divisor {
    /// The inverse of the odd part of the divisor, modulo 2^64.
    inverse: u64,
    /// The divisor's trailing zero bits.
    shift: u32,
    /// `u64::MAX / divisor`.
    limit: u64,
}

impl Divisor {
    /// The test for multiples of `m`; `None` for 0.
    pub fn new(m: u64) -> Option<Divisor> {
        if m == 0 {
            return None;
        }
        let shift = m.trailing_zeros();
        let odd = m >> shift;
        // Newton's iteration doubles the correct low bits: `odd` is its own
        // inverse modulo 8 (3 bits), five steps give 96 ≥ 64.
        let mut inverse = odd;
        for _ in 0..5 {
            inverse = inverse.wrapping_mul(2u64.wrapping_sub(odd.wrapping_mul(inverse)));
        }
        Some(Divisor { inverse, shift, limit: u64::MAX / m })
    }

    /// Whether `a` is a multiple of the divisor.
    #[inline]
    pub fn divides(&self, a: u64) -> bool {
        a.wrapping_mul(self.inverse).rotate_right(self.shift) <= self.limit
    }
}

#[cfg(test)]
mod divisor_tests {
    use super::Divisor;
    use proptest::prelude::*;

    #[test]
    fn divides_exactly_the_multiples() {
        assert_eq!(Divisor::new(0), None);
        for m in (1..=300u64).chain([1 << 32, (1 << 63) + 1, u64::MAX, u64::MAX - 1, 3 << 40]) {
            let d = Divisor::new(m).expect("positive");
            for a in (0..=1000u64).chain([u64::MAX, u64::MAX - 1, m, m.wrapping_mul(7), m.wrapping_sub(1)]) {
                assert_eq!(d.divides(a), a % m == 0, "{a} % {m}");
            }
        }
    }

    proptest! {
        #[test]
        fn agrees_with_the_remainder(m in 1u64.., a: u64, k in 0u64..1000) {
            let d = Divisor::new(m).expect("positive");
            prop_assert_eq!(d.divides(a), a % m == 0);
            let multiple = m.wrapping_mul(k);
            prop_assert_eq!(d.divides(multiple), multiple % m == 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Num {
        Num::Dec(Box::new(Dec::parse(s).unwrap()))
    }

    #[test]
    fn exact_comparison_across_representations() {
        assert_eq!(Num::Int(1).compare(&Num::Float(1.0)), Ordering::Equal);
        assert_eq!(Num::Int(9_007_199_254_740_993).compare(&Num::Float(9_007_199_254_740_992.0)), Ordering::Greater);
        assert_eq!(Num::Int(-1).compare(&Num::Float(-0.5)), Ordering::Less);
        assert_eq!(Num::Int(i128::from(u64::MAX)).compare(&Num::Float(1e300)), Ordering::Less);
        assert_eq!(Num::Float(-1e300).compare(&Num::Int(i128::from(i64::MIN))), Ordering::Less);
    }

    #[test]
    fn integral_floats_without_fract() {
        for (f, integral) in [
            (0.0, true),
            (-0.0, true),
            (1.0, true),
            (-3.0, true),
            (0.5, false),
            (-2.5, false),
            (4_503_599_627_370_495.5, false),
            (9_007_199_254_740_992.0, true),
            (1e300, true),
            (-1e300, true),
            (f64::INFINITY, false),
            (f64::NAN, false),
            (f64::MIN_POSITIVE, false),
        ] {
            assert_eq!(is_integral(f), integral, "{f}");
            assert_eq!(is_integral(f), f.is_finite() && f.fract() == 0.0, "{f}");
        }
        assert_eq!(Num::Int(-1).compare(&Num::Float(-1.5)), Ordering::Greater);
        assert_eq!(Num::Int(2).compare(&Num::Float(1.5)), Ordering::Greater);
        assert_eq!(Num::Int(1).compare(&Num::Float(1.5)), Ordering::Less);
    }

    #[test]
    fn decimals_compare_exactly() {
        let a = dec("-972783798187987123879878123.18878137");
        let b = dec("-972783798187987123879878123.188781371");
        assert_eq!(b.compare(&a), Ordering::Less);
        assert_eq!(dec("1.0").compare(&Num::Int(1)), Ordering::Equal);
        assert_eq!(dec("1e2").compare(&Num::Int(100)), Ordering::Equal);
        assert_eq!(dec("0.5").compare(&Num::Float(0.5)), Ordering::Equal);
        assert_eq!(dec("-0.0").compare(&Num::Int(0)), Ordering::Equal);
        assert_eq!(
            dec("12345678910111213141516171819202122232425262728293031").compare(&dec("1.2e52")),
            Ordering::Greater
        );
        assert_eq!(dec("1e-5").compare(&dec("0.00001")), Ordering::Equal);
    }

    #[test]
    fn lexical_integers() {
        assert!(dec("12345678910111213141516171819202122232425262728293031").is_lexical_integer());
        assert!(!dec("1.0").is_lexical_integer());
        assert!(dec("1.0").is_integer());
        assert!(!dec("1e2").is_lexical_integer());
        assert!(dec("1e2").is_integer());
        assert!(!dec("1.5").is_integer());
        assert!(!Num::Float(1.0).is_lexical_integer());
    }

    #[test]
    fn multiple_of_is_exact_on_decimals() {
        assert!(Num::Float(0.3).is_multiple_of(&Num::Float(0.1)));
        assert!(Num::Float(0.0075).is_multiple_of(&Num::Float(0.0001)));
        assert!(!Num::Float(0.00751).is_multiple_of(&Num::Float(0.0001)));
        assert!(Num::Float(1e308).is_multiple_of(&Num::Float(1e-308)));
        assert!(!Num::Float(1e300).is_multiple_of(&Num::Float(0.123456789)));
        assert!(Num::Int(10).is_multiple_of(&Num::Float(2.5)));
        assert!(!Num::Int(7).is_multiple_of(&Num::Int(2)));
        assert!(Num::Float(4.0).is_multiple_of(&Num::Int(2)));
        assert!(Num::Int(0).is_multiple_of(&Num::Float(0.3)));
        assert!(!Num::Float(1e-300).is_multiple_of(&Num::Int(3)));
        assert!(!Num::Float(2.5).is_multiple_of(&Num::Int(5)));
        assert!(Num::Int(i128::from(u64::MAX)).is_multiple_of(&Num::Int(i128::from(u64::MAX))));
        assert!(dec("123456789012345678901234567890123456789012345678900").is_multiple_of(&Num::Int(100)));
        assert!(!dec("123456789012345678901234567890123456789012345678901").is_multiple_of(&Num::Int(2)));
        assert!(dec("1e1000000000").is_multiple_of(&Num::Int(5)));
        assert!(!dec("1e1000000000").is_multiple_of(&Num::Int(7)));
        assert!(dec("0.3").is_multiple_of(&dec("0.1")));
    }

    /// The exact test the fast paths must agree with: both values through
    /// formatted shortest digits, then 128-bit remainders.
    fn reference_multiple(x: &Num, d: &Num) -> bool {
        let parts = |n: &Num| -> Option<(u128, i64)> {
            let (mut m, mut e) = match n {
                Num::Int(i) => (i.unsigned_abs(), 0),
                Num::Float(f) if *f == 0.0 => (0, 0),
                Num::Float(f) if f.is_finite() => shortest_decimal_by_formatting(f.abs())?,
                _ => return None,
            };
            while m != 0 && m % 10 == 0 {
                m /= 10;
                e += 1;
            }
            Some((m, e))
        };
        let (Some((a, ae)), Some((b, be))) = (parts(x), parts(d)) else { return false };
        if b == 0 {
            return false;
        }
        if a == 0 {
            return true;
        }
        ae >= be && mul_mod(a % b, pow_mod(10, (ae - be) as u64, b), b) == 0
    }

    #[test]
    fn multiple_of_edge_cases() {
        let cases: &[(Num, Num, bool)] = &[
            (Num::Float(0.0075), Num::Float(0.0001), true),
            (Num::Float(0.0075), Num::Float(0.001), false),
            (Num::Float(0.3), Num::Float(0.1), true),
            (Num::Float(0.1 + 0.2), Num::Float(0.1), false),
            (Num::Float(-0.3), Num::Float(0.1), true),
            (Num::Float(-7.5), Num::Float(2.5), true),
            (Num::Float(-7.4), Num::Float(2.5), false),
            (Num::Float(127.5), Num::Float(2.5), true),
            (Num::Int(125), Num::Float(2.5), true),
            (Num::Float(112.2), Num::Float(2.5), false),
            (Num::Float(212.4), Num::Int(5), false),
            (Num::Float(212.0), Num::Int(5), false),
            (Num::Float(215.0), Num::Int(5), true),
            (Num::Float(-215.0), Num::Int(5), true),
            (Num::Float(0.0), Num::Int(5), true),
            (Num::Float(-0.0), Num::Float(0.3), true),
            (Num::Float(1e308), Num::Float(1e-308), true),
            (Num::Float(1e-308), Num::Float(1e308), false),
            (Num::Float(1e-308), Num::Float(1e-308), true),
            (Num::Float(3e-308), Num::Float(1e-308), true),
            (Num::Float(5e-324), Num::Float(5e-324), true),
            (Num::Float(1e-320), Num::Float(5e-324), true),
            (Num::Float(1e-320), Num::Float(3e-323), false),
            (Num::Float(1e-320), Num::Float(1e-321), true),
            (Num::Float(1e308), Num::Int(7), false),
            (Num::Float(1e308), Num::Int(5), true),
            (Num::Float(1e22), Num::Int(1 << 22), true),
            (Num::Float(1e23), Num::Int(3), false),
            (Num::Float(9_007_199_254_740_992.0), Num::Int(2), true),
            (Num::Float(9_007_199_254_740_992.0), Num::Int(1_000), false),
            // 2^60's shortest decimal is 1152921504606847e3.
            (Num::Float(1_152_921_504_606_846_976.0), Num::Int(1_000), true),
            (Num::Float(1_152_921_504_606_846_976.0), Num::Int(1 << 20), false),
            (Num::Float(12_345_678_901_234_567_890.0), Num::Float(0.1), true),
            (Num::Float(1e300), Num::Float(0.123456789), false),
            (Num::Float(19.99), Num::Float(0.01), true),
            (Num::Float(4.5e15), Num::Float(0.5), true),
            (Num::Float(4.5e15 + 0.5), Num::Float(0.5), true),
            (Num::Float(4.5e15 + 0.5), Num::Int(1), false),
            (Num::Int(i128::MAX), Num::Float(1e-5), true),
            (Num::Int(-i128::MAX), Num::Int(i128::MAX), true),
            (Num::Int(i128::MIN), Num::Int(2), true),
            (Num::Int(10), Num::Int(0), false),
            (Num::Float(1.0), Num::Float(0.0), false),
            (Num::Float(f64::INFINITY), Num::Int(1), false),
            (Num::Float(f64::NAN), Num::Float(0.5), false),
            (Num::Float(0.000_012_3), Num::Float(1e-7), true),
            (Num::Float(1.2e21), Num::Float(1e-7), true),
            (Num::Float(1e-7), Num::Float(1e-8), true),
            (Num::Float(1e-7), Num::Float(3e-8), false),
        ];
        for (x, d, expected) in cases {
            assert_eq!(x.is_multiple_of(d), *expected, "{x:?} multipleOf {d:?}");
            if x.compare(x).is_eq() {
                assert_eq!(reference_multiple(x, d), *expected, "reference: {x:?} multipleOf {d:?}");
            }
        }
    }

    #[test]
    fn short_decimals_match_formatting() {
        for x in [
            1.0,
            0.1,
            0.3,
            0.1 + 0.2,
            112.2,
            127.5,
            2.5,
            1e22,
            1e-22,
            5e-324,
            f64::MIN_POSITIVE,
            f64::MAX,
            562_949_953_421_311.0,
            562_949_953_421_312.0,
            56_294_995_342_131.25,
            0.999_999_999_999_999_9,
            9.5,
            99.99,
        ] {
            assert_eq!(shortest_decimal(x), shortest_decimal_by_formatting(x), "{x:e}");
        }
    }

    proptest::proptest! {
        #[test]
        fn shortest_decimal_agrees_on_any_float(bits: u64) {
            let x = f64::from_bits(bits).abs();
            proptest::prop_assume!(x.is_finite() && x != 0.0);
            let fast = short_decimal(x).map(|(m, e)| {
                let (m, e) = strip_zeros(m, e);
                (u128::from(m), e)
            });
            let slow = shortest_decimal_by_formatting(x).map(|(m, e)| {
                let (m, e) = strip_zeros(u64::try_from(m).expect("17 digits"), e);
                (u128::from(m), e)
            });
            if fast.is_some() {
                proptest::prop_assert_eq!(fast, slow, "{:e}", x);
            }
        }

        #[test]
        fn shortest_decimal_agrees_on_short_decimals(m in 1u64..1_000_000_000_000_000, j in 0usize..30) {
            let x = format!("{m}e-{j}").parse::<f64>().expect("a float");
            let fast = shortest_decimal(x).map(|(m, e)| strip_zeros(u64::try_from(m).expect("a word"), e));
            let slow = shortest_decimal_by_formatting(x)
                .map(|(m, e)| strip_zeros(u64::try_from(m).expect("a word"), e));
            proptest::prop_assert_eq!(fast, slow, "{:e}", x);
        }

        #[test]
        fn multiple_of_agrees_with_the_reference(
            a in -1_000_000_000_000i64..1_000_000_000_000,
            a_scale in 0usize..30,
            b in 1u64..100_000,
            b_scale in 0usize..30,
            k in -50i64..50,
            int_a: bool,
            int_b: bool,
        ) {
            let x = |m: i64, scale: usize, int: bool| {
                if int && scale == 0 { Num::Int(i128::from(m)) } else { Num::Float(format!("{m}e-{scale}").parse().expect("a float")) }
            };
            let d = x(b as i64, b_scale, int_b);
            // An arbitrary value, and a multiple k·d built in decimal.
            let arbitrary = x(a, a_scale, int_a);
            let multiple = x(k * b as i64, b_scale, int_a);
            for v in [arbitrary, multiple] {
                proptest::prop_assert_eq!(v.is_multiple_of(&d), reference_multiple(&v, &d), "{:?} multipleOf {:?}", v, d);
            }
        }

        #[test]
        fn integral_agrees_with_fract(bits: u64) {
            let f = f64::from_bits(bits);
            proptest::prop_assert_eq!(is_integral(f), f.is_finite() && f.fract() == 0.0, "{:e}", f);
            let g = (bits % (1 << 54)) as f64 / 2.0;
            proptest::prop_assert_eq!(is_integral(g), g.fract() == 0.0, "{:e}", g);
        }

        #[test]
        fn multiple_of_agrees_on_any_floats(x_bits: u64, d_bits: u64) {
            let (x, d) = (f64::from_bits(x_bits), f64::from_bits(d_bits).abs());
            proptest::prop_assume!(x.is_finite() && d.is_finite() && d != 0.0);
            let (x, d) = (Num::Float(x), Num::Float(d));
            proptest::prop_assert_eq!(x.is_multiple_of(&d), reference_multiple(&x, &d));
        }
    }

    #[test]
    fn parses_literals() {
        assert_eq!(
            Dec::parse("-0012.3400e+2"),
            Some(Dec { negative: true, digits: vec![1, 2, 3, 4].into(), exponent: 0, lexical_integer: false })
        );
        assert_eq!(Dec::parse("abc"), None);
        assert_eq!(Dec::parse("1."), None);
        assert_eq!(Dec::parse("1e"), None);
        assert!(Dec::parse("1e99999999999999999999999").is_some());
    }

    #[test]
    fn hashing_agrees_with_equality() {
        use std::hash::{BuildHasher, RandomState};
        let s = RandomState::new();
        let h = |n: &Num| {
            let mut hasher = s.build_hasher();
            n.hash_into(&mut hasher);
            hasher.finish()
        };
        assert_eq!(h(&Num::Int(1)), h(&Num::Float(1.0)));
        assert_eq!(h(&Num::Int(100)), h(&dec("1e2")));
        assert_eq!(h(&Num::Float(0.5)), h(&dec("0.50")));
        assert_ne!(h(&Num::Float(0.5)), h(&Num::Float(0.25)));
    }

    #[test]
    fn displays_as_json() {
        assert_eq!(dec("-12.50").to_string(), "-125e-1");
        assert_eq!(dec("0").to_string(), "0");
        assert_eq!(Num::Int(-3).to_string(), "-3");
    }

    #[test]
    fn counts() {
        assert_eq!(Num::Int(3).as_count(), Some(3));
        assert_eq!(Num::Float(2.0).as_count(), Some(2));
        assert_eq!(Num::Float(2.5).as_count(), None);
        assert_eq!(Num::Int(-1).as_count(), None);
        assert_eq!(dec("1e100").as_count(), Some(u64::MAX));
        assert_eq!(dec("2.0").as_count(), Some(2));
    }
}
