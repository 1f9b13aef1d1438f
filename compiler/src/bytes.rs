//! Byte strings read a word at a time: the loads that key signatures,
//! fingerprints and scans share, and a comparison of short strings
//! without `memcmp`.
//!
//! Every load is bounds-checked and yields 0 outside the slice, so no
//! caller can read past its bytes; callers that need a whole word check
//! the length first.

/// The eight bytes of `bytes` from `at`, little-endian (0 unless all are
/// inside the slice).
#[inline(always)]
pub fn word(bytes: &[u8], at: usize) -> u64 {
    bytes.get(at..).and_then(<[u8]>::first_chunk).map_or(0, |w| u64::from_le_bytes(*w))
}

/// The four bytes of `bytes` from `at`, little-endian (0 unless all are
/// inside the slice).
#[inline(always)]
pub fn half(bytes: &[u8], at: usize) -> u64 {
    bytes.get(at..).and_then(<[u8]>::first_chunk).map_or(0, |w| u64::from(u32::from_le_bytes(*w)))
}

/// Whether byte strings `a` and `b` are equal: short ones (most object
/// keys) compared by a few overlapping word loads, inline, where a call
/// to `memcmp` costs more than the comparison; long ones by `memcmp`. Out
/// of line, so that the lookups it serves stay small where they are
/// inlined.
#[inline(never)]
pub fn equal(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        // The first, middle and last bytes are every byte: no call.
        0..=3 => a.first() == b.first() && a.get(n / 2) == b.get(n / 2) && a.last() == b.last(),
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        8..=WORDS_INLINE_MAX => {
            // Words from the start, the last one ending at the end
            // (overlapping the one before).
            let mut at = 0;
            while at + 8 < n {
                if word(a, at) != word(b, at) {
                    return false;
                }
                at += 8;
            }
            word(a, n - 8) == word(b, n - 8)
        }
        _ => a == b,
    }
}

/// Longer byte strings are compared by `memcmp`.
const WORDS_INLINE_MAX: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_read_little_endian_and_nothing_outside() {
        let b = b"abcdefghij";
        assert_eq!(word(b, 0), u64::from_le_bytes(*b"abcdefgh"));
        assert_eq!(word(b, 2), u64::from_le_bytes(*b"cdefghij"));
        assert_eq!(word(b, 3), 0);
        assert_eq!(word(b, usize::MAX), 0);
        assert_eq!(half(b, 6), u64::from(u32::from_le_bytes(*b"ghij")));
        assert_eq!(half(b, 7), 0);
    }

    #[test]
    fn byte_strings_of_every_short_length_compare_exactly() {
        for n in 0..=80usize {
            let a: Vec<u8> = (0..n).map(|i| (i * 31 % 251) as u8).collect();
            assert!(equal(&a, &a.clone()), "{n}");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(!equal(&a, &b), "{n} {at}");
            }
            assert!(n == 0 || !equal(&a, &a[..n - 1]));
        }
    }
}
