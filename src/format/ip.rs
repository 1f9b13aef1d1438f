//! IP address syntax: `ipv4` (RFC 2673 dotted quad) and `ipv6` (RFC 4291
//! section 2.2 text forms).
//!
//! These parsers are shared by the e-mail address literals (RFC 5321
//! section 4.1.3) and the URI/IRI `IP-literal` hosts (RFC 3986 section
//! 3.2.2), whose grammars use the same `IPv4address` / `IPv6address` rules.

/// Whether `s` is a dotted-quad IPv4 address: four decimal octets 0-255,
/// without leading zeros (`dec-octet` of RFC 3986).
pub fn is_ipv4(s: &str) -> bool {
    is_ipv4_bytes(s.as_bytes())
}

/// [`is_ipv4`] on bytes.
fn is_ipv4_bytes(b: &[u8]) -> bool {
    // The longest is "255.255.255.255".
    if b.len() > 15 {
        return false;
    }
    let Some(rest) = take_dec_octet(b) else {
        return false;
    };
    let mut rest = rest;
    for _ in 0..3 {
        match rest {
            [b'.', after @ ..] => match take_dec_octet(after) {
                Some(after) => rest = after,
                None => return false,
            },
            _ => return false,
        }
    }
    rest.is_empty()
}

/// What follows the `dec-octet` ("0"-"255" in decimal, no leading zero,
/// ASCII digits only) at the start of `b`, if there is one. A leading
/// `0` is a whole octet: a digit after it is left for the caller to
/// reject, like one after three digits.
#[inline]
fn take_dec_octet(b: &[u8]) -> Option<&[u8]> {
    match *b {
        [b'0', ref rest @ ..] => Some(rest),
        [d @ b'1'..=b'9', ref rest @ ..] => {
            let mut value = u32::from(d - b'0');
            let mut rest = rest;
            for _ in 0..2 {
                match *rest {
                    [d @ b'0'..=b'9', ref after @ ..] => {
                        value = value * 10 + u32::from(d - b'0');
                        rest = after;
                    }
                    _ => break,
                }
            }
            (value <= 255).then_some(rest)
        }
        _ => None,
    }
}

/// Whether `s` is an IPv6 address in one of the RFC 4291 text forms:
/// eight `h16` groups, at most one `::` standing for one or more zero
/// groups, and optionally a trailing dotted-quad IPv4 address in place of
/// the last two groups. Zone identifiers and prefix lengths are rejected.
pub fn is_ipv6(s: &str) -> bool {
    parse_ipv6(s).is_some()
}

/// How a valid IPv6 address is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ipv6Form {
    /// The 16-bit groups written out (an embedded IPv4 address counts two).
    pub groups: usize,
    /// Whether `::` stands for the missing groups.
    pub compressed: bool,
}

/// Parses an IPv6 address as [`is_ipv6`] does; `None` if it is invalid.
pub fn parse_ipv6(s: &str) -> Option<Ipv6Form> {
    let bytes = s.as_bytes();
    let mut rest = bytes;
    let mut compressed = false;
    if let Some(after) = rest.strip_prefix(b"::") {
        compressed = true;
        rest = after;
        if rest.is_empty() {
            return Some(Ipv6Form { groups: 0, compressed });
        }
    }
    // 16-bit groups seen so far (an embedded IPv4 address counts as two).
    let mut groups = 0usize;
    loop {
        let hex_len = rest.iter().take_while(|b| b.is_ascii_hexdigit()).count();
        if rest.get(hex_len) == Some(&b'.') {
            // The embedded IPv4 address must be the rest of the string.
            if !is_ipv4_bytes(rest) {
                return None;
            }
            groups += 2;
            break;
        }
        if hex_len == 0 || hex_len > 4 {
            return None;
        }
        groups += 1;
        if groups > 8 {
            return None;
        }
        rest = rest.get(hex_len..)?;
        match rest {
            [] => break,
            [b':', b':', after @ ..] => {
                if compressed {
                    return None;
                }
                compressed = true;
                rest = after;
                if rest.is_empty() {
                    break;
                }
            }
            [b':', after @ ..] if !after.is_empty() => rest = after,
            _ => return None,
        }
    }
    let valid = if compressed { groups <= 7 } else { groups == 8 };
    valid.then_some(Ipv6Form { groups, compressed })
}

#[cfg(test)]
mod tests {
    use std::net::{Ipv4Addr, Ipv6Addr};

    use proptest::prelude::*;

    use super::{is_ipv4, is_ipv6};
    use crate::format::reference::ip as reference;

    proptest! {
        /// The standard library parses the same RFC 4291 / dotted-quad forms.
        #[test]
        fn agrees_with_std(s in "[0-9a-fA-F:.]{0,24}|(::|[0-9]{1,4}:){1,8}[0-9.]{0,16}") {
            prop_assert_eq!(is_ipv6(&s), s.parse::<Ipv6Addr>().is_ok(), "ipv6 {:?}", s);
            prop_assert_eq!(is_ipv4(&s), s.parse::<Ipv4Addr>().is_ok(), "ipv4 {:?}", s);
        }

        /// The one-pass dotted-quad parser agrees with the previous
        /// split-based one.
        #[test]
        fn ipv4_differential(s in "([0-9]{0,4}[.]?){0,5}[0-9a ]?|(25[0-9][.]){3}2[4-6][0-9]|[0-9.]{14,17}") {
            prop_assert_eq!(is_ipv4(&s), reference::is_ipv4(&s), "{:?}", s);
        }
    }

    #[test]
    fn ipv4() {
        for ok in ["0.0.0.0", "255.255.255.255", "192.168.0.1", "10.20.30.40", "249.199.100.9"] {
            assert!(is_ipv4(ok), "{ok}");
        }
        for bad in [
            "",
            "1.2.3",
            "1.2.3.4.5",
            "256.0.0.0",
            "01.2.3.4",
            "1.2.3.04",
            "00.1.1.1",
            "1..2.3",
            ".1.2.3.4",
            "1.2.3.4.",
            "1.2.3.-4",
            "+1.2.3.4",
            "1.2.3.4 ",
            "0x1.2.3.4",
            "1.2.3.260",
            "1.2.3.2555",
            "১.2.3.4",
        ] {
            assert!(!is_ipv4(bad), "{bad:?}");
        }
    }

    #[test]
    fn ipv6() {
        for ok in [
            "::",
            "::1",
            "1::",
            "1:2:3:4:5:6:7:8",
            "1::8",
            "1:2:3:4:5:6:7::",
            "::2:3:4:5:6:7:8",
            "::ffff:192.168.0.1",
            "1:2:3:4:5:6:1.2.3.4",
            "::1.2.3.4",
            "FEDC:BA98:7654:3210:FEDC:BA98:7654:3210",
            "fe80::abcd",
        ] {
            assert!(is_ipv6(ok), "{ok}");
        }
        for bad in [
            "",
            ":",
            ":::",
            "1",
            "1:2:3:4:5:6:7",
            "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7:8::",
            "::1:2:3:4:5:6:7:8",
            "1::2::3",
            "12345::",
            ":1::",
            "1::2:",
            "1:2:3:4:5:6:7:1.2.3.4",
            "1.2.3.4",
            "::1.2.3",
            "::1.2.3.4:5",
            "::ffff:192.168.0.01",
            "fe80::1%eth0",
            "fe80::/64",
            "[::1]",
            "::g",
        ] {
            assert!(!is_ipv6(bad), "{bad:?}");
        }
    }
}
