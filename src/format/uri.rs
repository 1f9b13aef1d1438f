//! URIs and IRIs: `uri`, `uri-reference` (RFC 3986 section 3 and 4.1),
//! `iri`, `iri-reference` (RFC 3987 section 2.2).
//!
//! One single-pass parser serves the four formats: an IRI is a URI whose
//! unreserved characters also include `ucschar`, and whose query may also
//! hold `iprivate` characters. The character classes are shared with the
//! `uri-template` checker.

use super::ip::is_ipv6;

/// Which grammar a reference is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grammar {
    /// RFC 3986: ASCII only.
    Uri,
    /// RFC 3987: `ucschar` and (in queries) `iprivate` allowed too.
    Iri,
}

/// Whether `s` is an absolute URI/IRI (`URI` / `IRI`: a scheme is required).
pub fn is_absolute(s: &str, grammar: Grammar) -> bool {
    is_reference_of(s, grammar, true)
}

/// Whether `s` is a URI/IRI reference (`URI-reference` / `IRI-reference`).
pub fn is_reference(s: &str, grammar: Grammar) -> bool {
    is_reference_of(s, grammar, false)
}

/// Character classes of the grammars, as bit flags per ASCII byte (non-ASCII
/// bytes have none).
mod class {
    /// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"` and
    /// `sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="`.
    pub const UNRESERVED_SUB_DELIMS: u8 = 1;
    pub const COLON: u8 = 2;
    pub const AT: u8 = 4;
    pub const SLASH: u8 = 8;
    pub const QUESTION: u8 = 16;
    /// `ALPHA / DIGIT / "+" / "-" / "."`: the characters of a scheme.
    pub const SCHEME: u8 = 32;

    /// `reg-name` characters besides `pct-encoded`.
    pub const HOST: u8 = UNRESERVED_SUB_DELIMS;
    /// `userinfo` characters besides `pct-encoded`; also those of `IPvFuture`.
    pub const USERINFO: u8 = UNRESERVED_SUB_DELIMS | COLON;
    /// `segment-nz-nc` characters besides `pct-encoded`: the first segment of
    /// a relative path, which may not hold `:`.
    pub const SEGMENT_NC: u8 = UNRESERVED_SUB_DELIMS | AT;
    /// `pchar` besides `pct-encoded`, plus the path separator `/`.
    pub const PATH: u8 = UNRESERVED_SUB_DELIMS | COLON | AT | SLASH;
    /// `query` and `fragment` characters besides `pct-encoded`.
    pub const QUERY: u8 = PATH | QUESTION;

    const fn table() -> [u8; 256] {
        let mut t = [0u8; 256];
        let mut c = 0;
        while c < 128 {
            let b = c as u8;
            if b.is_ascii_alphanumeric() {
                t[c] = UNRESERVED_SUB_DELIMS | SCHEME;
            }
            c += 1;
        }
        let others = b"-._~!$&'()*+,;=";
        let mut i = 0;
        while i < others.len() {
            t[others[i] as usize] |= UNRESERVED_SUB_DELIMS;
            i += 1;
        }
        t[b'+' as usize] |= SCHEME;
        t[b'-' as usize] |= SCHEME;
        t[b'.' as usize] |= SCHEME;
        t[b':' as usize] = COLON;
        t[b'@' as usize] = AT;
        t[b'/' as usize] = SLASH;
        t[b'?' as usize] = QUESTION;
        t
    }

    const TABLE: [u8; 256] = table();

    /// The flags of byte `b` (none for non-ASCII bytes).
    #[inline(always)]
    pub fn of(b: u8) -> u8 {
        // In bounds for every byte.
        TABLE[usize::from(b)]
    }
}

/// RFC 3987 `ucschar`.
#[inline]
pub(super) fn is_ucschar(c: u32) -> bool {
    matches!(c, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF | 0xE1000..=0xEFFFD)
        || (0x10000..=0xDFFFD).contains(&c) && c & 0xFFFF <= 0xFFFD
}

/// RFC 3987 `iprivate`.
#[inline]
pub(super) fn is_iprivate(c: u32) -> bool {
    matches!(c, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

/// LRM, RLM, LRE, RLE, PDF, LRO and RLO, which RFC 3987 section 4.1 bars
/// from IRIs although they are `ucschar`s.
fn is_bidi_formatting(c: u32) -> bool {
    matches!(c, 0x200E | 0x200F | 0x202A..=0x202E)
}

/// The non-ASCII character starting at `b[i]` (`b` is valid UTF-8 and `i`
/// at a character boundary): its code point and UTF-8 length.
#[inline]
pub(super) fn decode_utf8(b: &[u8], i: usize) -> Option<(u32, usize)> {
    let cont = |c: u8| u32::from(c & 0x3F);
    match *b.get(i..)? {
        [c0 @ 0xC0..=0xDF, c1, ..] => Some((u32::from(c0 & 0x1F) << 6 | cont(c1), 2)),
        [c0 @ 0xE0..=0xEF, c1, c2, ..] => Some((u32::from(c0 & 0x0F) << 12 | cont(c1) << 6 | cont(c2), 3)),
        [c0 @ 0xF0..=0xF7, c1, c2, c3, ..] => {
            Some((u32::from(c0 & 0x07) << 18 | cont(c1) << 12 | cont(c2) << 6 | cont(c3), 4))
        }
        _ => None,
    }
}

/// Advances from `b[i]` over characters in the ASCII class `set`,
/// `pct-encoded` triplets and (for IRIs) `ucschar`s other than the
/// bidirectional formatting characters, and, where `private` is set,
/// `iprivate`s. Returns the index of the first ASCII byte not in `set`
/// (or `b.len()`); `None` at a malformed triplet or a non-ASCII character
/// the grammar does not allow.
#[inline(always)]
fn scan(b: &[u8], mut i: usize, set: u8, grammar: Grammar, private: bool) -> Option<usize> {
    loop {
        while b.get(i).is_some_and(|&c| class::of(c) & set != 0) {
            i += 1;
        }
        match b.get(i) {
            Some(b'%') => match b.get(i + 1..i + 3) {
                Some([h, l]) if h.is_ascii_hexdigit() && l.is_ascii_hexdigit() => i += 3,
                _ => return None,
            },
            Some(0x80..) => {
                // A run of them (as in words of most scripts).
                i += scan_non_ascii(b, i, grammar, private)?;
                while b.get(i).is_some_and(|&c| c >= 0x80) {
                    i += scan_non_ascii(b, i, grammar, private)?;
                }
            }
            _ => return Some(i),
        }
    }
}

/// The length of the allowed non-ASCII character at `b[i]`; `None` if the
/// grammar does not allow it there.
///
/// Two-byte sequences (U+0080 to U+07FF) are `ucschar`s from U+00A0 on;
/// three-byte sequences with lead bytes E0 to ED (U+0800 to U+D7FF, as
/// valid UTF-8 has no surrogates) all are, but for the bidirectional
/// formatting characters (E2 80 8E, E2 80 8F, E2 80 AA to E2 80 AE). The
/// rest is decoded.
#[inline(always)]
fn scan_non_ascii(b: &[u8], i: usize, grammar: Grammar, private: bool) -> Option<usize> {
    if grammar == Grammar::Uri {
        return None;
    }
    match *b.get(i..)? {
        [0xC3..=0xDF, ..] => Some(2),
        [0xC2, c1, ..] => (c1 >= 0xA0).then_some(2),
        [0xE2, 0x80, 0x8E | 0x8F | 0xAA..=0xAE, ..] => None,
        [0xE0..=0xED, ..] => Some(3),
        _ => decode_non_ascii(b, i, private),
    }
}

/// [`scan_non_ascii`] for the characters from U+E000 on.
#[inline(never)]
fn decode_non_ascii(b: &[u8], i: usize, private: bool) -> Option<usize> {
    let (c, len) = decode_utf8(b, i)?;
    (!is_bidi_formatting(c) && (is_ucschar(c) || private && is_iprivate(c))).then_some(len)
}

/// Whether `b[i]` ends a component: the end of input, `?` or `#`, or also
/// `/` after an authority.
fn ends_authority(b: &[u8], i: usize) -> bool {
    matches!(b.get(i), None | Some(b'/' | b'?' | b'#'))
}

/// One pass, left to right: scheme, hier-part / relative-part, query,
/// fragment.
fn is_reference_of(s: &str, grammar: Grammar, require_scheme: bool) -> bool {
    parse_reference(s.as_bytes(), grammar, require_scheme).is_some()
}

fn parse_reference(b: &[u8], grammar: Grammar, require_scheme: bool) -> Option<()> {
    // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
    let scheme_len = b.iter().position(|&c| class::of(c) & class::SCHEME == 0).unwrap_or(b.len());
    let (mut i, relative) = if b.get(scheme_len) == Some(&b':') {
        if !b.first().is_some_and(u8::is_ascii_alphabetic) {
            // A ':' before any '/' that does not end a valid scheme.
            return None;
        }
        (scheme_len + 1, false)
    } else if require_scheme {
        return None;
    } else {
        (0, true)
    };
    // hier-part / relative-part: "//" authority path-abempty, or a path
    // (absolute, rootless, no-scheme or empty; none of them starts "//").
    if b.get(i..).is_some_and(|r| r.starts_with(b"//")) {
        i = authority(b, i + 2, grammar)?;
    } else if relative {
        // path-noscheme: the first segment may not contain ':'.
        i = scan(b, i, class::SEGMENT_NC, grammar, false)?;
        if b.get(i) == Some(&b':') {
            return None;
        }
    }
    i = scan(b, i, class::PATH, grammar, false)?;
    if b.get(i) == Some(&b'?') {
        i = scan(b, i + 1, class::QUERY, grammar, true)?;
    }
    if b.get(i) == Some(&b'#') {
        i = scan(b, i + 1, class::QUERY, grammar, false)?;
    }
    (i == b.len()).then_some(())
}

/// `authority = [ userinfo "@" ] host [ ":" port ]`, from `b[start]`;
/// returns the index of the `/`, `?`, `#` or end that follows it.
fn authority(b: &[u8], start: usize, grammar: Grammar) -> Option<usize> {
    // Without userinfo, this scans the whole reg-name host.
    let i = scan(b, start, class::HOST, grammar, false)?;
    let host = match b.get(i) {
        Some(b'@') => i + 1,
        Some(b':') => {
            // A port, or a userinfo containing ':'.
            let j = scan(b, i + 1, class::USERINFO, grammar, false)?;
            if b.get(j) != Some(&b'@') {
                return port(b, i + 1);
            }
            j + 1
        }
        Some(b'[') if i == start => start,
        _ => return ends_authority(b, i).then_some(i),
    };
    host_port(b, host, grammar)
}

/// `host [ ":" port ]` from `b[start]`, after a userinfo; returns the index
/// of the `/`, `?`, `#` or end that follows.
fn host_port(b: &[u8], start: usize, grammar: Grammar) -> Option<usize> {
    let i = if b.get(start) == Some(&b'[') {
        // IP-literal = "[" ( IPv6address / IPvFuture ) "]"
        let len = b.get(start + 1..)?.iter().position(|&c| matches!(c, b']' | b'/' | b'?' | b'#'))?;
        let end = start + 1 + len;
        let address = std::str::from_utf8(b.get(start + 1..end)?).ok()?;
        if b.get(end) != Some(&b']') || !(is_ipv6(address) || is_ipv_future(address)) {
            return None;
        }
        end + 1
    } else {
        scan(b, start, class::HOST, grammar, false)?
    };
    match b.get(i) {
        Some(b':') => port(b, i + 1),
        _ => ends_authority(b, i).then_some(i),
    }
}

/// `port = *DIGIT` from `b[start]`, which must end the authority.
fn port(b: &[u8], start: usize) -> Option<usize> {
    let digits = b.get(start..)?.iter().take_while(|c| c.is_ascii_digit()).count();
    let i = start + digits;
    ends_authority(b, i).then_some(i)
}

/// `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`
fn is_ipv_future(s: &str) -> bool {
    let Some(rest) = s.strip_prefix(['v', 'V']) else {
        return false;
    };
    match rest.split_once('.') {
        Some((version, address)) => {
            !version.is_empty()
                && version.bytes().all(|b| b.is_ascii_hexdigit())
                && !address.is_empty()
                && address.bytes().all(|c| class::of(c) & class::USERINFO != 0)
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{Grammar, is_absolute, is_reference};
    use crate::format::reference::uri as reference;

    /// Every answer of the one-pass parser agrees with the previous,
    /// split-based checker.
    fn agrees(s: &str) -> Result<(), TestCaseError> {
        for grammar in [Grammar::Uri, Grammar::Iri] {
            prop_assert_eq!(
                is_absolute(s, grammar),
                reference::is_absolute(s, grammar),
                "absolute {:?} {:?}",
                grammar,
                s
            );
            prop_assert_eq!(
                is_reference(s, grammar),
                reference::is_reference(s, grammar),
                "reference {:?} {:?}",
                grammar,
                s
            );
        }
        Ok(())
    }

    /// The byte-level fast paths for non-ASCII characters agree with the
    /// code point ranges at each of their boundaries, in every component.
    #[test]
    fn non_ascii_boundaries() {
        let mut points: Vec<u32> = vec![
            0x80, 0x9F, 0xA0, 0xFF, 0x7FF, 0x800, 0x2000, 0x200D, 0x200E, 0x200F, 0x2010, 0x2029, 0x202A, 0x202E,
            0x202F, 0xCFFF, 0xD000, 0xD7FF, 0xE000, 0xF8FF, 0xF900, 0xFDCF, 0xFDD0, 0xFDEF, 0xFDF0, 0xFFEF, 0xFFF0,
            0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x1FFFD, 0x1FFFE, 0xDFFFD, 0xE0000, 0xE1000, 0xEFFFD, 0xEFFFE, 0xF0000,
            0xFFFFD, 0xFFFFE, 0x100000, 0x10FFFD, 0x10FFFF,
        ];
        points.extend((0x80..0x3000).step_by(7));
        for c in points.into_iter().filter_map(char::from_u32) {
            for template in ["http://h/X", "http://h/?X", "http://h/#X", "http://X/", "http://X@h/", "X", "X:b", "//X"]
            {
                agrees(&template.replace('X', &c.to_string()))
                    .unwrap_or_else(|e| panic!("U+{:04X}: {e}", u32::from(c)));
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn differential(s in r"([a-z]{0,3}:)?(//)?([a-zA-Z0-9:@/?#%\\\[\]. v_+{-]|[\x{80}-\x{10FFFF}]|\x{200F}|%[0-9a-fA-F]{2}){0,16}") {
            agrees(&s)?;
        }

        #[test]
        fn differential_authority(
            s in r"(h:)?//([a-z:%]{0,4}@)?(\[([0-9a-fA-F:.v]{0,10})\]|[a-z0-9%.:ü\x{E000}]{0,6})(:[0-9a]{0,3})?([/?#][a-z/?#:@\x{E000}\x{200E}]{0,4})?"
        ) {
            agrees(&s)?;
        }
    }

    #[test]
    fn uris() {
        for ok in [
            "http://example.com",
            "http://a",
            "http://",
            "file:///etc/hosts",
            "urn:isbn:0451450523",
            "mailto:a@b.c",
            "http://u:p@h:80/p?q#f",
            "http://[v1.x:y]/",
            "http://[::1]:8080",
            "http://[::1]:",
            "http://h:/",
            "s:",
            "a+b-c.d:x",
            "http://h/?#",
            "http://h/p%2F?q=%C3%BC#%20",
            "http://h/a?b/c?d#e/f?g",
        ] {
            assert!(is_absolute(ok, Grammar::Uri), "{ok}");
        }
        for bad in [
            "",
            "/a",
            "//h",
            "a",
            ":a",
            "1a:b",
            "a_b:c",
            "http://h/ä",
            "http://h/a b",
            "http://h/%",
            "http://h/%2",
            "http://h/%2g",
            "http://h#a#b",
            "http://[::1",
            "http://[::1]x",
            "http://[1.2.3.4]",
            "http://[v.x]",
            "http://[v1.]",
            "http://h:8a",
            "http://a@b@c",
            "http://h/[x]",
            "http://h/a\\b",
            "http://h/{x}",
        ] {
            assert!(!is_absolute(bad, Grammar::Uri), "{bad:?}");
        }
    }

    #[test]
    fn references() {
        for ok in ["", "a", "./a:b", "a/b:c", "/a:b", "//h", "//", "?q", "#f", "../x", "a?b:c", "a#b:c"] {
            assert!(is_reference(ok, Grammar::Uri), "{ok:?}");
        }
        for bad in ["a:b:c d", ":", ":a", "1:b", "a b", "//h:x", "#a#", "\\"] {
            assert!(!is_reference(bad, Grammar::Uri), "{bad:?}");
        }
    }

    #[test]
    fn iris() {
        assert!(is_absolute("http://ñ.example/ü?ö#é", Grammar::Iri));
        assert!(is_absolute("http://h/?q=\u{E000}", Grammar::Iri));
        assert!(!is_absolute("http://h/\u{E000}", Grammar::Iri));
        assert!(!is_absolute("http://h/#\u{E000}", Grammar::Iri));
        assert!(!is_absolute("http://h/\u{FFFE}", Grammar::Iri));
        assert!(!is_absolute("http://h/\u{1FFFF}", Grammar::Iri));
        assert!(!is_absolute("http://h/\u{85}", Grammar::Iri));
        assert!(!is_absolute("http://[ü::1]/", Grammar::Iri));
        assert!(!is_absolute("http://h/a\u{200F}b", Grammar::Iri));
        assert!(!is_absolute("http://h/?\u{202E}", Grammar::Iri));
        assert!(is_reference("ü", Grammar::Iri));
        assert!(!is_reference("ü", Grammar::Uri));
    }
}
