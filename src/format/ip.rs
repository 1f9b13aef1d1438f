//! IP address syntax: `ipv4` (RFC 2673 dotted quad) and `ipv6` (RFC 4291
//! section 2.2 text forms).
//!
//! These parsers are shared by the e-mail address literals (RFC 5321
//! section 4.1.3) and the URI/IRI `IP-literal` hosts (RFC 3986 section
//! 3.2.2), whose grammars use the same `IPv4address` / `IPv6address` rules.

/// Whether `s` is a dotted-quad IPv4 address: four decimal octets 0-255,
/// without leading zeros (`dec-octet` of RFC 3986).
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

/// `dec-octet`: "0"-"255" in decimal, no leading zero, ASCII digits only.
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
            if !is_ipv4(std::str::from_utf8(rest).ok()?) {
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

    proptest! {
        /// The standard library parses the same RFC 4291 / dotted-quad forms.
        #[test]
        fn agrees_with_std(s in "[0-9a-fA-F:.]{0,24}|(::|[0-9]{1,4}:){1,8}[0-9.]{0,16}") {
            prop_assert_eq!(is_ipv6(&s), s.parse::<Ipv6Addr>().is_ok(), "ipv6 {:?}", s);
            prop_assert_eq!(is_ipv4(&s), s.parse::<Ipv4Addr>().is_ok(), "ipv4 {:?}", s);
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
