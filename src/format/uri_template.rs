//! `uri-template`: the RFC 6570 (level 4) template syntax, section 2.
//!
//! ```text
//! URI-Template  = *( literals / expression )
//! expression    = "{" [ operator ] variable-list "}"
//! operator      = "+" / "#" / "." / "/" / ";" / "?" / "&" / "=" / "," / "!" / "@" / "|"
//! variable-list = varspec *( "," varspec )
//! varspec       = varname [ ":" max-length / "*" ]
//! varname       = varchar *( ["."] varchar )
//! varchar       = ALPHA / DIGIT / "_" / pct-encoded
//! max-length    = %x31-39 0*3DIGIT
//! ```
//!
//! The operators `= , ! @ |` are reserved for future extensions but are
//! part of the ABNF, so they are accepted. Literals follow RFC 6570 with
//! its erratum 6937, which admits the apostrophe.

use super::uri::{decode_utf8, is_iprivate, is_ucschar};

/// Whether each ASCII byte may appear in a literal: any but CTL, SP,
/// DQUOTE, "%", "<", ">", "\\", "^", "`", "{", "|", "}" ("%" starts a
/// `pct-encoded` triplet and "{" an expression, both handled apart).
const LITERAL: [bool; 256] = ascii_table!(c => matches!(c, b'!' | b'#'..=b'$' | b'&'..=b';' | b'=' | b'?'..=b'[' | b']' | b'_' | b'a'..=b'z' | b'~'));

/// `varchar` besides `pct-encoded`: `ALPHA / DIGIT / "_"`.
const VARCHAR: [bool; 256] = ascii_table!(c => c.is_ascii_alphanumeric() || c == b'_');

/// The table of the ASCII bytes that satisfy a predicate, built at compile
/// time.
macro_rules! ascii_table {
    ($c:ident => $test:expr) => {{
        let mut t = [false; 256];
        let mut i = 0;
        while i < 256 {
            let $c = i as u8;
            t[i] = $test;
            i += 1;
        }
        t
    }};
}
use ascii_table;

/// Whether byte `c` is in `table`.
#[inline(always)]
fn in_table(table: &[bool; 256], c: u8) -> bool {
    // In bounds for every byte.
    table[usize::from(c)]
}

/// Whether `b[i..]` starts with a `pct-encoded` triplet.
#[inline(always)]
fn is_pct_encoded(b: &[u8], i: usize) -> bool {
    matches!(b.get(i..i + 3), Some([b'%', h, l]) if h.is_ascii_hexdigit() && l.is_ascii_hexdigit())
}

/// Whether `s` is a syntactically valid URI template. One pass over the
/// bytes.
pub fn is_uri_template(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    loop {
        while b.get(i).is_some_and(|&c| in_table(&LITERAL, c)) {
            i += 1;
        }
        let next = match b.get(i) {
            None => return true,
            Some(b'{') => expression_end(b, i + 1),
            Some(b'%') => is_pct_encoded(b, i).then_some(i + 3),
            Some(0x80..) => literal_non_ascii_len(b, i).map(|len| i + len),
            Some(_) => None,
        };
        match next {
            Some(next) => i = next,
            None => return false,
        }
    }
}

/// The length of the non-ASCII character at `b[i]` if it is a `ucschar`
/// or an `iprivate`. Two-byte sequences (U+0080 to U+07FF) are from U+00A0
/// on, three-byte ones with lead bytes E0 to ED (U+0800 to U+D7FF) all
/// are; the rest is decoded.
#[inline(always)]
fn literal_non_ascii_len(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i..)? {
        [0xC3..=0xDF, ..] => Some(2),
        [0xC2, c1, ..] => (c1 >= 0xA0).then_some(2),
        [0xE0..=0xED, ..] => Some(3),
        _ => {
            let (c, len) = decode_utf8(b, i)?;
            (is_ucschar(c) || is_iprivate(c)).then_some(len)
        }
    }
}

/// Parses an expression from just after its `{`; returns the index after
/// its `}`.
///
/// ```text
/// expression    = "{" [ operator ] variable-list "}"
/// variable-list = varspec *( "," varspec )
/// varspec       = varname [ ":" max-length / "*" ]
/// ```
fn expression_end(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    if matches!(b.get(i), Some(b'+' | b'#' | b'.' | b'/' | b';' | b'?' | b'&' | b'=' | b',' | b'!' | b'@' | b'|')) {
        i += 1;
    }
    loop {
        i = varname_end(b, i)?;
        match b.get(i) {
            // max-length = %x31-39 0*3DIGIT
            Some(b':') => {
                if !matches!(b.get(i + 1), Some(b'1'..=b'9')) {
                    return None;
                }
                i += 2;
                for _ in 0..3 {
                    if b.get(i).is_some_and(u8::is_ascii_digit) {
                        i += 1;
                    }
                }
            }
            Some(b'*') => i += 1,
            _ => {}
        }
        match b.get(i) {
            Some(b',') => i += 1,
            Some(b'}') => return Some(i + 1),
            _ => return None,
        }
    }
}

/// `varname = varchar *( ["."] varchar )` from `b[start]`: non-empty, no
/// leading, trailing or doubled dot. Returns the index after it.
fn varname_end(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    let mut after_dot = true;
    loop {
        match b.get(i) {
            Some(&c) if in_table(&VARCHAR, c) => i += 1,
            Some(b'%') if is_pct_encoded(b, i) => i += 3,
            Some(b'.') if !after_dot => {
                i += 1;
                after_dot = true;
                continue;
            }
            _ => return (!after_dot).then_some(i),
        }
        after_dot = false;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::is_uri_template;
    use crate::format::reference::uri_template as reference;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        /// The one-pass parser agrees with the previous split-based one.
        #[test]
        fn differential(
            s in "([a-z/:%<|}]|%[0-9a-fA-F]{0,2}|\\{[+#./;?&=,!@|*{]?([a-z_0-9.%*:,]|:[0-9]{1,5}|%[0-9a-fA-F]{2}){0,6}\\}?|[\\x{80}-\\x{10FFFF}]){0,6}"
        ) {
            prop_assert_eq!(is_uri_template(&s), reference::is_uri_template(&s), "{:?}", s);
        }
    }

    /// The byte-level fast paths for non-ASCII literals agree with the code
    /// point ranges at their boundaries.
    #[test]
    fn non_ascii_boundaries() {
        let mut points: Vec<u32> = vec![
            0x80, 0x9F, 0xA0, 0x7FF, 0x800, 0x200E, 0x202E, 0xD7FF, 0xE000, 0xF8FF, 0xF900, 0xFDCF, 0xFDD0, 0xFDEF,
            0xFDF0, 0xFFEF, 0xFFF0, 0xFFFF, 0x10000, 0x1FFFD, 0x1FFFE, 0xE1000, 0xEFFFD, 0xEFFFE, 0xF0000, 0xFFFFD,
            0xFFFFE, 0x100000, 0x10FFFD, 0x10FFFE,
        ];
        points.extend((0x80..0x3000).step_by(7));
        for c in points.into_iter().filter_map(char::from_u32) {
            let s = format!("a{c}b");
            assert_eq!(is_uri_template(&s), reference::is_uri_template(&s), "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn templates() {
        for ok in [
            "",
            "abc",
            "{a}",
            "{+a}{#b}{.c}{/d}{;e}{?f}{&g}",
            "{a,b.c,d*,e:1,f:9999}",
            "{%41b}",
            "{=a}",
            "x{a}y{b}z",
            "http://example.com/~{user}/{file*}",
            "a%20b",
            "ü",
            "a'b",
        ] {
            assert!(is_uri_template(ok), "{ok}");
        }
        for bad in [
            "{",
            "}",
            "{}",
            "{+}",
            "{a",
            "a}",
            "{a b}",
            "{a,}",
            "{.a.}",
            "{a..b}",
            "{a:0}",
            "{a:01}",
            "{a:10000}",
            "{a:}",
            "{a:1*}",
            "{a*:1}",
            "{a**}",
            "{{a}}",
            "{a}}",
            "%",
            "%4",
            "%4g",
            "a b",
            "<",
            "\"",
            "\\",
            "^",
            "`",
            "|",
            "\u{7f}",
            "\u{85}",
            "{ü}",
            "{%4}",
            "{++a}",
        ] {
            assert!(!is_uri_template(bad), "{bad:?}");
        }
    }
}
