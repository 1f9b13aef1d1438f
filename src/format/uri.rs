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

/// Bit set of ASCII bytes, for the character classes of the grammars.
struct AsciiSet(u128);

impl AsciiSet {
    const fn new(chars: &[u8]) -> AsciiSet {
        let mut bits = 0u128;
        let mut i = 0;
        while i < chars.len() {
            bits |= 1 << chars[i];
            i += 1;
        }
        AsciiSet(bits)
    }

    const fn union(self, other: AsciiSet) -> AsciiSet {
        AsciiSet(self.0 | other.0)
    }

    fn contains(&self, c: char) -> bool {
        c.is_ascii() && self.0 & (1 << c as u32) != 0
    }
}

/// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`, plus
/// `sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="`.
const UNRESERVED_SUB_DELIMS: AsciiSet =
    AsciiSet::new(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=");
/// `userinfo` characters besides `pct-encoded`; also those of `IPvFuture`.
const USERINFO: AsciiSet = UNRESERVED_SUB_DELIMS.union(AsciiSet::new(b":"));
/// `pchar` besides `pct-encoded`, plus the path separator `/`.
const PATH: AsciiSet = UNRESERVED_SUB_DELIMS.union(AsciiSet::new(b":@/"));
/// `query` and `fragment` characters besides `pct-encoded`.
const QUERY: AsciiSet = PATH.union(AsciiSet::new(b"?"));

/// RFC 3987 `ucschar`.
pub fn is_ucschar(c: char) -> bool {
    let c = u32::from(c);
    matches!(c, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF | 0xE1000..=0xEFFFD)
        || (0x10000..=0xDFFFD).contains(&c) && c & 0xFFFF <= 0xFFFD
}

/// RFC 3987 `iprivate`.
pub fn is_iprivate(c: char) -> bool {
    matches!(u32::from(c), 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

/// LRM, RLM, LRE, RLE, PDF, LRO and RLO, which RFC 3987 section 4.1 bars
/// from IRIs although they are `ucschar`s.
fn is_bidi_formatting(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}')
}

/// Consumes the two hex digits following a `%`; false if they are missing.
pub fn take_pct_hex(chars: &mut std::str::Chars<'_>) -> bool {
    matches!((chars.next(), chars.next()), (Some(a), Some(b)) if a.is_ascii_hexdigit() && b.is_ascii_hexdigit())
}

/// Whether every character of `s` is in `ascii`, is part of a
/// `pct-encoded` triplet, or (for IRIs) is a `ucschar` other than a
/// bidirectional formatting character or, where `private` is set, an
/// `iprivate`.
fn all_chars(s: &str, ascii: &AsciiSet, grammar: Grammar, private: bool) -> bool {
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        let ok = if c == '%' {
            take_pct_hex(&mut chars)
        } else if c.is_ascii() {
            ascii.contains(c)
        } else {
            grammar == Grammar::Iri && !is_bidi_formatting(c) && (is_ucschar(c) || private && is_iprivate(c))
        };
        if !ok {
            return false;
        }
    }
    true
}

/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`
fn is_scheme(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

fn is_reference_of(s: &str, grammar: Grammar, require_scheme: bool) -> bool {
    let (rest, fragment) = match s.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (s, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    if !fragment.is_none_or(|f| all_chars(f, &QUERY, grammar, false))
        || !query.is_none_or(|q| all_chars(q, &QUERY, grammar, true))
    {
        return false;
    }
    // A ':' before any '/' ends the scheme. In a relative reference the
    // first path segment may not contain ':' (`path-noscheme`), so a ':'
    // there that does not end a valid scheme makes the reference invalid.
    let hier = match rest.find([':', '/']).and_then(|i| rest.split_at_checked(i)) {
        Some((scheme, colon_rest)) if colon_rest.starts_with(':') => {
            if !is_scheme(scheme) {
                return false;
            }
            colon_rest.get(1..).unwrap_or_default()
        }
        _ if require_scheme => return false,
        _ => rest,
    };
    // hier-part / relative-part: "//" authority path-abempty, or a path
    // (absolute, rootless, no-scheme or empty; none of them starts "//").
    match hier.strip_prefix("//") {
        Some(net) => {
            let (authority, path) = net.split_at(net.find('/').unwrap_or(net.len()));
            is_authority(authority, grammar) && all_chars(path, &PATH, grammar, false)
        }
        None => all_chars(hier, &PATH, grammar, false),
    }
}

/// `authority = [ userinfo "@" ] host [ ":" port ]`
fn is_authority(s: &str, grammar: Grammar) -> bool {
    let host_port = match s.split_once('@') {
        Some((userinfo, host_port)) => {
            if !all_chars(userinfo, &USERINFO, grammar, false) {
                return false;
            }
            host_port
        }
        None => s,
    };
    let (host_ok, port) = match host_port.strip_prefix('[') {
        // IP-literal = "[" ( IPv6address / IPvFuture ) "]"
        Some(literal) => match literal.split_once(']') {
            Some((address, after)) => {
                (is_ipv6(address) || is_ipv_future(address), after.strip_prefix(':').or(after.is_empty().then_some("")))
            }
            None => return false,
        },
        // reg-name (which also covers IPv4address) cannot contain ':'.
        None => match host_port.split_once(':') {
            Some((host, port)) => (all_chars(host, &UNRESERVED_SUB_DELIMS, grammar, false), Some(port)),
            None => (all_chars(host_port, &UNRESERVED_SUB_DELIMS, grammar, false), Some("")),
        },
    };
    // port = *DIGIT
    host_ok && port.is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()))
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
                && address.chars().all(|c| USERINFO.contains(c))
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{Grammar, is_absolute, is_reference};

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
