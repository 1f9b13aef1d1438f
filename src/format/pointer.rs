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
    let Some(rest) = strip_non_negative_integer(s) else {
        return false;
    };
    let rest = match rest.strip_prefix(['+', '-']) {
        Some(adjustment) => match strip_non_negative_integer(adjustment) {
            Some(rest) => rest,
            None => return false,
        },
        None => rest,
    };
    rest == "#" || is_json_pointer(rest)
}

/// What follows a leading `non-negative-integer` (ASCII digits, no
/// leading zero), if `s` starts with one.
fn strip_non_negative_integer(s: &str) -> Option<&str> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let (number, rest) = s.split_at_checked(digits)?;
    (number == "0" || (!number.is_empty() && !number.starts_with('0'))).then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::{is_json_pointer, is_relative_json_pointer};

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
