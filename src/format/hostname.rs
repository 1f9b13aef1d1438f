//! Host names: `hostname` (RFC 1123 section 2.1, with IDNA2008 A-labels)
//! and `idn-hostname` (RFC 5890-5893).
//!
//! A `hostname` is ASCII, at most 253 octets, made of labels that are:
//!
//! * RFC 1123 labels: letters, digits and hyphens, 1-63 octets, neither
//!   starting nor ending with a hyphen (so `ab--cd` is allowed);
//! * or, when starting `xn--` (any case), A-labels: the Punycode must
//!   decode to a non-ASCII string that encodes back to the same label
//!   (RFC 5891 section 5.4) and that is a valid U-label
//!   ([`super::idna2008::is_u_label`]). A name with an A-label must also
//!   pass the `idna` crate's UTS #46 ToASCII, which checks the joiner
//!   (CONTEXTJ) rules and the Bidi rule (RFC 5893).
//!
//! An `idn-hostname` may hold U-labels too, separated by `.` or by the
//! full stops U+3002, U+FF0E and U+FF61 (RFC 3490 section 3.1). Its code
//! points must be ASCII letters, digits and hyphens or IDNA2008 PVALID or
//! CONTEXT code points; UTS #46 ToASCII then normalizes the name to NFC,
//! maps the full stops and converts U-labels to A-labels, and its ASCII
//! form must be a valid `hostname`. So every `hostname` is an
//! `idn-hostname`, and both formats check U-labels in exactly one way.

use std::borrow::Cow;

use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};

use super::idna2008::{is_idna2008_code_point, is_u_label};

/// Longest name, in octets of its ASCII form (RFC 1034 section 3.1,
/// without the trailing dot).
const MAX_NAME: usize = 253;
/// Longest label, in octets of its ASCII form.
const MAX_LABEL: usize = 63;
/// Longest input that could still be a valid `idn-hostname`. Each code
/// point of the NFC form takes at least one octet of the ASCII form, and
/// stands for at most four input code points (the longest canonical
/// decomposition) of at most four UTF-8 bytes each; the code points that
/// UTS #46 would drop are rejected before.
const MAX_IDN_INPUT: usize = MAX_NAME * 4 * 4;

/// Whether `s` is a valid `hostname`: RFC 1123 labels and A-labels.
pub fn is_hostname(s: &str) -> bool {
    match check_ascii_name(s) {
        Some(false) => true,
        Some(true) => a_labels_valid(s) && uts46_to_ascii(s).is_some(),
        None => false,
    }
}

/// Whether `s` is a valid `idn-hostname`: RFC 1123 labels, A-labels and
/// U-labels.
pub fn is_idn_hostname(s: &str) -> bool {
    s.len() <= MAX_IDN_INPUT
        && s.chars().all(|c| {
            c.is_ascii_alphanumeric()
                || matches!(c, '-' | '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
                || !c.is_ascii() && is_idna2008_code_point(c)
        })
        && uts46_to_ascii(s).is_some_and(|ascii| match check_ascii_name(&ascii) {
            Some(has_a_label) => !has_a_label || a_labels_valid(&ascii),
            None => false,
        })
}

/// UTS #46 ToASCII (non-transitional, STD3 rules, DNS lengths checked;
/// hyphens are left to [`check_ascii_name`]).
pub(super) fn uts46_to_ascii(s: &str) -> Option<Cow<'_, str>> {
    Uts46::new().to_ascii(s.as_bytes(), AsciiDenyList::STD3, Hyphens::Allow, DnsLength::Verify).ok()
}

/// Whether each ASCII byte is a letter, digit or hyphen (`ldh`).
const LDH: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = (c as u8).is_ascii_alphanumeric() || c as u8 == b'-';
        c += 1;
    }
    t
};

/// Checks an ASCII name's length and labels, each an RFC 1123 label: 1-63
/// letters, digits and inner hyphens. `Some(true)` if they are valid and
/// one has the ACE prefix `xn--` (then [`a_labels_valid`] must check it),
/// `Some(false)` if they are valid without, else `None`. One pass, and
/// calls nothing: the common path needs no stack frame.
fn check_ascii_name(s: &str) -> Option<bool> {
    let b = s.as_bytes();
    if b.len() > MAX_NAME {
        return None;
    }
    let mut has_a_label = false;
    let mut rest = b;
    loop {
        let mut len = 0;
        while rest.get(len).is_some_and(|&c| LDH[usize::from(c)]) {
            len += 1;
        }
        let (label, after) = rest.split_at_checked(len)?;
        match label {
            [] | [b'-', ..] | [.., b'-'] => return None,
            _ if len > MAX_LABEL => return None,
            [x, n, b'-', b'-', ..] if x.eq_ignore_ascii_case(&b'x') && n.eq_ignore_ascii_case(&b'n') => {
                has_a_label = true
            }
            _ => {}
        }
        match after {
            [] => return Some(has_a_label),
            [b'.', next @ ..] => rest = next,
            _ => return None,
        }
    }
}

/// Whether every label of a name that passed [`check_ascii_name`] and has
/// the ACE prefix `xn--` (any case) is a valid A-label.
#[cold]
#[inline(never)]
fn a_labels_valid(s: &str) -> bool {
    s.split('.').all(|label| match label.split_at_checked(4) {
        Some((prefix, punycode)) if prefix.eq_ignore_ascii_case("xn--") => is_a_label(punycode),
        _ => true,
    })
}

/// Whether the LDH label `xn--` + `punycode` is a valid A-label.
#[inline(never)]
pub(super) fn is_a_label(punycode: &str) -> bool {
    let mut lower = [0u8; MAX_LABEL];
    let Some(lower) = lower.get_mut(..punycode.len()) else {
        return false;
    };
    lower.copy_from_slice(punycode.as_bytes());
    lower.make_ascii_lowercase();
    let Ok(lower) = std::str::from_utf8(lower) else {
        return false;
    };
    let Some(u_label) = idna::punycode::decode_to_string(lower) else {
        return false;
    };
    !u_label.is_ascii()
        && idna::punycode::encode_str(&u_label).is_some_and(|again| again == lower)
        && is_u_label(&u_label)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{is_hostname, is_idn_hostname};
    use crate::format::reference::hostname as reference;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        /// The one-pass label scan agrees with the previous split-based one.
        #[test]
        fn differential(s in "((([xX][nN]--)?[a-z0-9-]{0,5}|xn--bcher-kva|XN--ihqwcrb4cv8a8dqg056pqjye)[._ ü]?){0,4}|[a-z.-]{60,70}|(a{1,9}[.]){25,30}") {
            prop_assert_eq!(is_hostname(&s), reference::is_hostname(&s), "{:?}", s);
        }
    }

    #[test]
    fn hostnames() {
        let label63 = "a".repeat(63);
        let name253 = [label63.as_str(); 4].join(".").get(..253).map(str::to_owned).unwrap_or_default();
        for ok in [
            "a",
            "example.com",
            "EXAMPLE.COM",
            "1.2.3.4",
            "a-b.c--d",
            "xn--bcher-kva.example",
            "XN--BCHER-KVA.example",
            label63.as_str(),
            name253.as_str(),
        ] {
            assert!(is_hostname(ok), "{ok}");
        }
        let label64 = "a".repeat(64);
        let name254 = format!("{name253}a");
        for bad in [
            "",
            ".",
            "a.",
            ".a",
            "a..b",
            "-a",
            "a-",
            "a_b",
            "a b",
            "bücher.example",
            "xn--",
            "xn--bcher",
            "xn--bcher-kva-",
            "xn--abc-",
            "xn--ls8h-",
            label64.as_str(),
            name254.as_str(),
        ] {
            assert!(!is_hostname(bad), "{bad:?}");
        }
    }

    #[test]
    fn idn_hostnames() {
        for ok in [
            "bücher.example",
            "Bücher.example",
            "例え。テスト",
            "xn--bcher-kva.例え",
            "ab--cd.example",
            "münchen",
            "EXAMPLE.COM",
            "cafe\u{301}.example",
            "e\u{301}--x",
            "\u{915}\u{94D}\u{200D}\u{937}",
            "xn--ihqwcrb4cv8a8dqg056pqjye",
        ] {
            assert!(is_idn_hostname(ok), "{ok}");
        }
        for bad in [
            "",
            "bücher..example",
            "bü_cher",
            "-bücher",
            "bü--cher",
            "bücher.",
            "BÜCHER",
            "\u{AD}bücher",
            "a\u{200D}b",
            "ab\u{200C}",
            "a\u{2665}",
            "xn--bcher-kva.-x",
            "\u{FF41}bc",
            "a\u{AD}b",
            "xn--bcher-kva.a_b",
            "e\u{301}x--y",
            "\u{5D0}.0a",
            "xn--a",
        ] {
            assert!(!is_idn_hostname(bad), "{bad:?}");
        }
    }
}
