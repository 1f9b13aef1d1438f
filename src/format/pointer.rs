//! JSON Pointers: `json-pointer` (RFC 6901) and `relative-json-pointer`
//! (draft-bhutton-relative-json-pointer-00, the revision JSON Schema
//! 2020-12 cites; earlier revisions lack only the index manipulation).

/// Whether `s` is an RFC 6901 JSON Pointer: `*( "/" reference-token )`,
/// where `~` only appears escaped as `~0` or `~1`.
pub fn is_json_pointer(s: &str) -> bool {
    (s.is_empty() || s.starts_with('/')) && tildes_escaped(s.as_bytes())
}

/// Whether every `~` in `b` is followed by `0` or `1`.
fn tildes_escaped(b: &[u8]) -> bool {
    let mut bytes = b.iter();
    while let Some(&c) = bytes.next() {
        if c == b'~' && !matches!(bytes.next(), Some(b'0' | b'1')) {
            return false;
        }
    }
    true
}

/// Whether `s` is a relative JSON pointer:
///
/// ```text
/// relative-json-pointer = non-negative-integer [ index-manipulation ] ( json-pointer / "#" )
/// index-manipulation    = ( "+" / "-" ) non-negative-integer
/// non-negative-integer  = "0" / %x31-39 *DIGIT
/// ```
pub fn is_relative_json_pointer(s: &str) -> bool {
    let Some(rest) = strip_non_negative_integer(s.as_bytes()) else {
        return false;
    };
    let rest = match rest {
        [b'+' | b'-', adjustment @ ..] => match strip_non_negative_integer(adjustment) {
            Some(rest) => rest,
            None => return false,
        },
        _ => rest,
    };
    match rest {
        [] => true,
        [b'#'] => true,
        [b'/', ..] => tildes_escaped(rest),
        _ => false,
    }
}

/// What follows a leading `non-negative-integer` (ASCII digits, no
/// leading zero), if `b` starts with one.
#[inline]
fn strip_non_negative_integer(b: &[u8]) -> Option<&[u8]> {
    match b {
        // A digit after a leading zero is left to the caller to reject.
        [b'0', rest @ ..] => Some(rest),
        [b'1'..=b'9', rest @ ..] => {
            let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
            rest.get(digits..)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{is_json_pointer, is_relative_json_pointer};
    use crate::format::reference::pointer as reference;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        /// The byte-level parser agrees with the previous one.
        #[test]
        fn differential(s in "[0-9]{0,3}([+-][0-9]{0,3})?[#/~01a١+-]{0,4}") {
            prop_assert_eq!(is_relative_json_pointer(&s), reference::is_relative_json_pointer(&s), "{:?}", s);
        }
    }

    #[test]
    fn json_pointer() {
        for ok in ["", "/", "//", "/a~0b~1c", "/~01", "/ü/😀", "/a/-", "/%25"] {
            assert!(is_json_pointer(ok), "{ok:?}");
        }
        for bad in ["a", "#/a", "/~", "/~2", "/a~", "/~~0", " /"] {
            assert!(!is_json_pointer(bad), "{bad:?}");
        }
    }

    #[test]
    fn relative_json_pointer() {
        for ok in ["0", "0#", "1/a", "10/", "120/a~1b", "0//", "0+1/a", "2-10#", "1-0"] {
            assert!(is_relative_json_pointer(ok), "{ok:?}");
        }
        for bad in ["", "#", "/a", "01", "00#", "-1", "+1", "1##", "1#/a", "1a", "1~0", "١"] {
            assert!(!is_relative_json_pointer(bad), "{bad:?}");
        }
    }
}
