//! Exact arithmetic on JSON numbers.
//!
//! `serde_json` keeps a number as `u64`, `i64` or `f64`. Comparisons here
//! are exact across those representations (no rounding through `f64`), and
//! `multipleOf` is decided on the decimal value each number denotes (the
//! shortest decimal that round-trips, for `f64`), so `0.3` is a multiple of
//! `0.1`, `1e308` is a multiple of `1e-308`, and nothing overflows.

use std::cmp::Ordering;

use serde_json::Number;

/// A JSON number in a form that compares exactly.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// An integer held exactly.
    Int(i128),
    /// A binary floating-point value (finite).
    Float(f64),
}

impl Num {
    /// Converts a `serde_json` number.
    pub fn from_json(n: &Number) -> Num {
        if let Some(u) = n.as_u64() {
            Num::Int(i128::from(u))
        } else if let Some(i) = n.as_i64() {
            Num::Int(i128::from(i))
        } else {
            Num::Float(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    /// Whether the value is a mathematical integer (`1.0` is).
    pub fn is_integer(self) -> bool {
        match self {
            Num::Int(_) => true,
            Num::Float(f) => f.is_finite() && f.fract() == 0.0,
        }
    }

    /// Exact comparison. NaN (which JSON cannot express) orders below everything.
    pub fn compare(self, other: Num) -> Ordering {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => a.cmp(&b),
            (Num::Float(a), Num::Float(b)) => a.partial_cmp(&b).unwrap_or_else(|| nan_order(a, b)),
            (Num::Int(a), Num::Float(b)) => cmp_int_float(a, b),
            (Num::Float(a), Num::Int(b)) => cmp_int_float(b, a).reverse(),
        }
    }

    /// Whether `self` is an integer multiple of `divisor` (which must be
    /// non-zero), on exact decimal values.
    pub fn is_multiple_of(self, divisor: Num) -> bool {
        if let (Num::Int(a), Num::Int(b)) = (self, divisor) {
            return b != 0 && a % b == 0;
        }
        match (Decimal::of(self), Decimal::of(divisor)) {
            (Some(a), Some(b)) => a.is_multiple_of(b),
            _ => false,
        }
    }
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
    let t = f.trunc();
    // |t| < 2^127 and t is integral, so the conversion is exact.
    let ti = t as i128;
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

/// `mantissa × 10^exponent`, sign dropped (divisibility ignores it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Decimal {
    mantissa: u128,
    exponent: i32,
}

impl Decimal {
    fn of(n: Num) -> Option<Decimal> {
        match n {
            Num::Int(i) => Some(Decimal { mantissa: i.unsigned_abs(), exponent: 0 }),
            Num::Float(f) => Decimal::of_f64(f),
        }
    }

    /// The shortest decimal that round-trips to `f`.
    fn of_f64(f: f64) -> Option<Decimal> {
        if !f.is_finite() {
            return None;
        }
        let mut buf = StackString::default();
        use std::fmt::Write;
        write!(buf, "{:e}", f.abs()).ok()?;
        let text = buf.as_str()?;
        let (digits, exp) = text.split_once('e')?;
        let exp: i32 = exp.parse().ok()?;
        let (int_part, frac_part) = digits.split_once('.').unwrap_or((digits, ""));
        let mut mantissa: u128 = 0;
        for b in int_part.bytes().chain(frac_part.bytes()) {
            mantissa = mantissa.checked_mul(10)?.checked_add(u128::from(b.checked_sub(b'0')?))?;
        }
        let frac_len = i32::try_from(frac_part.len()).ok()?;
        Some(Decimal { mantissa, exponent: exp - frac_len })
    }

    fn is_multiple_of(self, divisor: Decimal) -> bool {
        let (a, b) = (self.mantissa, divisor.mantissa);
        if b == 0 {
            return false;
        }
        if a == 0 {
            return true;
        }
        let k = i64::from(self.exponent) - i64::from(divisor.exponent);
        if k >= 0 {
            // b | a·10^k  ⇔  (a mod b)·10^k ≡ 0 (mod b)
            let mut r = a % b;
            let mut steps = 0;
            while r != 0 && steps < k {
                // r < b ≤ u128::MAX / 10 is not guaranteed for huge b; use wide steps.
                r = mul_mod(r, 10, b);
                steps += 1;
            }
            r == 0
        } else {
            // b·10^(-k) | a: impossible once the divisor exceeds a.
            let mut m = b;
            for _ in 0..(-k) {
                match m.checked_mul(10) {
                    Some(next) if next <= a => m = next,
                    _ => return false,
                }
            }
            a % m == 0
        }
    }
}

/// `(x · y) mod m` without overflow, for `x < m`.
fn mul_mod(x: u128, y: u128, m: u128) -> u128 {
    match x.checked_mul(y) {
        Some(p) => p % m,
        None => {
            // Double-and-add; y is small (10), so this is a few steps.
            let mut result = 0u128;
            let mut base = x % m;
            let mut y = y;
            while y > 0 {
                if y & 1 == 1 {
                    result = add_mod(result, base, m);
                }
                base = add_mod(base, base, m);
                y >>= 1;
            }
            result
        }
    }
}

fn add_mod(a: u128, b: u128, m: u128) -> u128 {
    // a, b < m
    if a >= m - b { a - (m - b) } else { a + b }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn n(v: serde_json::Value) -> Num {
        match v {
            serde_json::Value::Number(n) => Num::from_json(&n),
            _ => panic!("not a number"),
        }
    }

    #[test]
    fn exact_comparison_across_representations() {
        assert_eq!(Num::Int(1).compare(Num::Float(1.0)), Ordering::Equal);
        assert_eq!(Num::Int(9_007_199_254_740_993).compare(Num::Float(9_007_199_254_740_992.0)), Ordering::Greater);
        assert_eq!(Num::Int(-1).compare(Num::Float(-0.5)), Ordering::Less);
        assert_eq!(Num::Int(i128::from(u64::MAX)).compare(Num::Float(1e300)), Ordering::Less);
        assert_eq!(Num::Float(-1e300).compare(Num::Int(i128::from(i64::MIN))), Ordering::Less);
        assert_eq!(n(serde_json::json!(18446744073709551615u64)).compare(n(serde_json::json!(18446744073709551600u64))), Ordering::Greater);
    }

    #[test]
    fn multiple_of_is_exact_on_decimals() {
        assert!(Num::Float(0.3).is_multiple_of(Num::Float(0.1)));
        assert!(Num::Float(0.0075).is_multiple_of(Num::Float(0.0001)));
        assert!(!Num::Float(0.00751).is_multiple_of(Num::Float(0.0001)));
        assert!(Num::Float(1e308).is_multiple_of(Num::Float(1e-308)));
        assert!(!Num::Float(1e300).is_multiple_of(Num::Float(0.123456789)));
        assert!(Num::Int(10).is_multiple_of(Num::Float(2.5)));
        assert!(!Num::Int(7).is_multiple_of(Num::Int(2)));
        assert!(Num::Float(4.0).is_multiple_of(Num::Int(2)));
        assert!(Num::Int(0).is_multiple_of(Num::Float(0.3)));
        assert!(!Num::Float(1e-300).is_multiple_of(Num::Int(3)));
        assert!(Num::Int(i128::from(u64::MAX)).is_multiple_of(Num::Int(i128::from(u64::MAX))));
    }

    #[test]
    fn integers() {
        assert!(Num::Float(1.0).is_integer());
        assert!(!Num::Float(1.5).is_integer());
        assert!(Num::Float(1e300).is_integer());
    }

    #[test]
    fn decimal_of_float() {
        assert_eq!(Decimal::of_f64(0.1), Some(Decimal { mantissa: 1, exponent: -1 }));
        assert_eq!(Decimal::of_f64(1234.5), Some(Decimal { mantissa: 12345, exponent: -1 }));
        assert_eq!(Decimal::of_f64(1e308), Some(Decimal { mantissa: 1, exponent: 308 }));
    }
}
