//! The previous, straightforward versions of checkers that were since
//! rewritten for speed, kept to test the rewrites against
//! (`differential` proptests beside each rewritten checker).

#![allow(dead_code)]

pub mod uri {
    use crate::format::ip::is_ipv6;
    use crate::format::uri::Grammar;

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
                Some((address, after)) => (
                    is_ipv6(address) || is_ipv_future(address),
                    after.strip_prefix(':').or(after.is_empty().then_some("")),
                ),
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
}

pub mod hostname {
    use crate::format::hostname::{is_a_label, uts46_to_ascii};

    const MAX_NAME: usize = 253;
    const MAX_LABEL: usize = 63;

    pub fn is_hostname(s: &str) -> bool {
        match check_ascii_name(s) {
            Some(has_a_label) => !has_a_label || uts46_to_ascii(s).is_some(),
            None => false,
        }
    }

    fn check_ascii_name(s: &str) -> Option<bool> {
        if s.len() > MAX_NAME {
            return None;
        }
        let mut has_a_label = false;
        for label in s.split('.') {
            let a_label = a_label_body(label);
            has_a_label |= a_label.is_some();
            if !(is_ldh_label(label) && a_label.is_none_or(is_a_label)) {
                return None;
            }
        }
        Some(has_a_label)
    }

    fn is_ldh_label(label: &str) -> bool {
        let b = label.as_bytes();
        (1..=MAX_LABEL).contains(&b.len())
            && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
            && b.first() != Some(&b'-')
            && b.last() != Some(&b'-')
    }

    fn a_label_body(label: &str) -> Option<&str> {
        match label.split_at_checked(4) {
            Some((prefix, body)) if prefix.eq_ignore_ascii_case("xn--") => Some(body),
            _ => None,
        }
    }
}

pub mod ip {
    pub fn is_ipv4(s: &str) -> bool {
        let mut octets = 0usize;
        for part in s.split('.') {
            octets += 1;
            if octets > 4 || !is_dec_octet(part.as_bytes()) {
                return false;
            }
        }
        octets == 4
    }

    fn is_dec_octet(part: &[u8]) -> bool {
        match part {
            [d] => d.is_ascii_digit(),
            [b'1'..=b'9', d] => d.is_ascii_digit(),
            [b'1', d, e] => d.is_ascii_digit() && e.is_ascii_digit(),
            [b'2', b'0'..=b'4', e] => e.is_ascii_digit(),
            [b'2', b'5', b'0'..=b'5'] => true,
            _ => false,
        }
    }
}

pub mod datetime {
    pub fn is_date_time(s: &str) -> bool {
        match s.as_bytes().split_at_checked(10) {
            Some((date, [b'T' | b't', time @ ..])) => parse_date(date) && parse_full_time(time),
            _ => false,
        }
    }

    pub fn is_date(s: &str) -> bool {
        parse_date(s.as_bytes())
    }

    pub fn is_time(s: &str) -> bool {
        parse_full_time(s.as_bytes())
    }

    fn parse_date(b: &[u8]) -> bool {
        let [y1, y2, y3, y4, b'-', m1, m2, b'-', d1, d2] = *b else {
            return false;
        };
        let (Some(year), Some(month), Some(day)) = (digits(&[y1, y2, y3, y4]), digits(&[m1, m2]), digits(&[d1, d2]))
        else {
            return false;
        };
        (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month)
    }

    fn days_in_month(year: i32, month: i32) -> i32 {
        match month {
            2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        }
    }

    fn digits(b: &[u8]) -> Option<i32> {
        b.iter().try_fold(0i32, |acc, &d| d.is_ascii_digit().then(|| acc * 10 + i32::from(d - b'0')))
    }

    fn field(b: &[u8], max: i32) -> Option<i32> {
        digits(b).filter(|v| *v <= max)
    }

    fn parse_full_time(b: &[u8]) -> bool {
        let Some(([h1, h2, b':', mi1, mi2, b':', s1, s2], rest)) = b.split_first_chunk::<8>() else {
            return false;
        };
        let (Some(hour), Some(minute), Some(second)) =
            (field(&[*h1, *h2], 23), field(&[*mi1, *mi2], 59), field(&[*s1, *s2], 60))
        else {
            return false;
        };
        let rest = match rest.strip_prefix(b".") {
            Some(frac) => {
                let n = frac.iter().take_while(|d| d.is_ascii_digit()).count();
                match frac.get(n..) {
                    Some(after) if n > 0 => after,
                    _ => return false,
                }
            }
            None => rest,
        };
        let offset_minutes = match *rest {
            [b'Z' | b'z'] => 0,
            [sign @ (b'+' | b'-'), oh1, oh2, b':', om1, om2] => {
                let (Some(oh), Some(om)) = (field(&[oh1, oh2], 23), field(&[om1, om2], 59)) else {
                    return false;
                };
                let minutes = oh * 60 + om;
                if sign == b'+' { minutes } else { -minutes }
            }
            _ => return false,
        };
        if second == 60 {
            let utc = (hour * 60 + minute - offset_minutes).rem_euclid(24 * 60);
            return utc == 23 * 60 + 59;
        }
        true
    }
}

pub mod uri_template {
    use super::uri::{is_iprivate, is_ucschar};

    fn take_pct_hex(chars: &mut std::str::Chars<'_>) -> bool {
        matches!((chars.next(), chars.next()), (Some(a), Some(b)) if a.is_ascii_hexdigit() && b.is_ascii_hexdigit())
    }

    /// Whether `s` is a syntactically valid URI template.
    pub fn is_uri_template(s: &str) -> bool {
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            let ok = match c {
                '{' => {
                    let rest = chars.as_str();
                    let Some((expression, after)) = rest.split_once('}') else {
                        return false;
                    };
                    chars = after.chars();
                    is_expression(expression)
                }
                '%' => take_pct_hex(&mut chars),
                // Any ASCII except CTL, SP, DQUOTE, "%", "<", ">", "\", "^",
                // "`", "{", "|", "}".
                '!' | '#'..='$' | '&'..=';' | '=' | '?'..='[' | ']' | '_' | 'a'..='z' | '~' => true,
                c => is_ucschar(c) || is_iprivate(c),
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// Checks the text between `{` and `}`.
    fn is_expression(s: &str) -> bool {
        let list = s.strip_prefix(['+', '#', '.', '/', ';', '?', '&', '=', ',', '!', '@', '|']).unwrap_or(s);
        list.split(',').all(is_varspec)
    }

    fn is_varspec(s: &str) -> bool {
        let (name, max_length) = match s.split_once(':') {
            Some((name, max_length)) => (name, Some(max_length)),
            None => (s.strip_suffix('*').unwrap_or(s), None),
        };
        let max_ok = max_length
            .is_none_or(|m| (1..=4).contains(&m.len()) && !m.starts_with('0') && m.bytes().all(|b| b.is_ascii_digit()));
        max_ok && is_varname(name)
    }

    /// `varname = varchar *( ["."] varchar )`: non-empty, no leading,
    /// trailing or doubled dot.
    fn is_varname(s: &str) -> bool {
        let mut chars = s.chars();
        let mut previous_dot = true;
        while let Some(c) = chars.next() {
            let ok = match c {
                '.' => !previous_dot,
                '%' => take_pct_hex(&mut chars),
                c => c.is_ascii_alphanumeric() || c == '_',
            };
            if !ok {
                return false;
            }
            previous_dot = c == '.';
        }
        !previous_dot
    }
}

pub mod pointer {
    use crate::format::pointer::is_json_pointer;

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

    fn strip_non_negative_integer(s: &str) -> Option<&str> {
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        let (number, rest) = s.split_at_checked(digits)?;
        (number == "0" || (!number.is_empty() && !number.starts_with('0'))).then_some(rest)
    }
}
