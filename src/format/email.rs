//! E-mail addresses: `email` (RFC 5321 section 4.1.2 `Mailbox`) and
//! `idn-email` (RFC 6531 section 3.3, which adds UTF-8 to the local part
//! and U-labels to the domain).
//!
//! ```text
//! Mailbox         = Local-part "@" ( Domain / address-literal )
//! Local-part      = Dot-string / Quoted-string
//! Dot-string      = Atom *("." Atom)
//! Quoted-string   = DQUOTE *( qtextSMTP / "\" %d32-126 ) DQUOTE
//! address-literal = "[" ( IPv4-address-literal / "IPv6:" IPv6-addr ) "]"
//! ```
//!
//! `IPv6-addr` is RFC 4291's text form, except that `::` must stand for at
//! least two zero groups.
//!
//! The domain is checked as a `hostname` (`idn-hostname` for `idn-email`).
//! `General-address-literal` requires an IANA-registered tag, and `IPv6`
//! is the only one, so other tags are rejected. The size limits of RFC
//! 5321 section 4.5.3.1 apply: a local part of at most 64 octets and a
//! mailbox of at most 254 (a 256-octet path less its angle brackets).

use super::hostname::{is_hostname, is_idn_hostname};
use super::ip::{is_ipv4, parse_ipv6};

/// Longest local part, in octets.
const MAX_LOCAL_PART: usize = 64;
/// Longest mailbox, in octets.
const MAX_MAILBOX: usize = 254;

/// Whether `s` is an RFC 5321 mailbox.
pub fn is_email(s: &str) -> bool {
    is_mailbox(s, false)
}

/// Whether `s` is an RFC 6531 (internationalized) mailbox.
pub fn is_idn_email(s: &str) -> bool {
    is_mailbox(s, true)
}

fn is_mailbox(s: &str, unicode: bool) -> bool {
    if s.len() > MAX_MAILBOX {
        return false;
    }
    let Some(at) = local_part_len(s.as_bytes(), unicode) else {
        return false;
    };
    let Some((local, domain)) = s.split_at_checked(at) else {
        return false;
    };
    let Some(domain) = domain.strip_prefix('@') else {
        return false;
    };
    if local.len() > MAX_LOCAL_PART {
        return false;
    }
    match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => match literal.split_at_checked(5) {
            // RFC 5321 `IPv6-comp`: "::" stands for at least two groups.
            Some((tag, address)) if tag.eq_ignore_ascii_case("IPv6:") => {
                parse_ipv6(address).is_some_and(|form| !form.compressed || form.groups <= 6)
            }
            _ => is_ipv4(literal),
        },
        None if unicode => is_idn_hostname(domain),
        None => is_hostname(domain),
    }
}

/// `atext` (RFC 5322 section 3.2.3), and for RFC 6531 any non-ASCII byte
/// of a UTF-8 sequence (`UTF8-non-ascii`; the input is valid UTF-8).
fn is_atext(b: u8, unicode: bool) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&b) || unicode && !b.is_ascii()
}

/// `qtextSMTP = %d32-33 / %d35-91 / %d93-126`, plus `UTF8-non-ascii`.
fn is_qtext(b: u8, unicode: bool) -> bool {
    matches!(b, 32..=33 | 35..=91 | 93..=126) || unicode && !b.is_ascii()
}

/// The length of the valid local part at the start of `b`, which must be
/// followed by `@`; `None` if there is no valid local part.
fn local_part_len(b: &[u8], unicode: bool) -> Option<usize> {
    if let Some(quoted) = b.strip_prefix(b"\"") {
        let mut bytes = quoted.iter().enumerate();
        while let Some((i, &c)) = bytes.next() {
            match c {
                // The closing quote; +2 counts both quotes.
                b'"' => return Some(i + 2),
                // quoted-pairSMTP = %d92 %d32-126
                b'\\' => {
                    if !bytes.next().is_some_and(|(_, c)| (32..=126).contains(c)) {
                        return None;
                    }
                }
                c if is_qtext(c, unicode) => {}
                _ => return None,
            }
        }
        return None;
    }
    // Dot-string: atoms of atext separated by single dots.
    let len = b.iter().position(|c| *c == b'@')?;
    let local = b.get(..len)?;
    local
        .split(|c| *c == b'.')
        .all(|atom| !atom.is_empty() && atom.iter().all(|c| is_atext(*c, unicode)))
        .then_some(len)
}

#[cfg(test)]
mod tests {
    use super::{is_email, is_idn_email};

    #[test]
    fn emails() {
        for ok in [
            "a@b",
            "a.b.c@example.com",
            "!#$%&'*+-/=?^_`{|}~@example.com",
            "\"\"@example.com",
            "\"a b\\\"c\\\\\"@example.com",
            "\"a@b\"@example.com",
            "a@[127.0.0.1]",
            "a@[IPv6:::1]",
            "a@[ipv6:1:2:3:4:5:6:7:8]",
            "a@[IPv6:::ffff:1.2.3.4]",
            "a@[IPv6:1:2:3:4:5::8]",
            "a@[IPv6:1::4:5:1.2.3.4]",
            "a@xn--bcher-kva.example",
        ] {
            assert!(is_email(ok), "{ok}");
        }
        let long_local = format!("{}@example.com", "a".repeat(65));
        let long_mailbox = format!("a@{}.com", vec!["b".repeat(63); 4].join("."));
        for bad in [
            "",
            "@",
            "a@",
            "@b",
            "a",
            "a@b@c",
            ".a@b",
            "a.@b",
            "a..b@c",
            "a b@c",
            "\"a\"b@c",
            "\"a@c",
            "\"a\\\u{7f}\"@c",
            "\"a\u{7}\"@c",
            "a@-b",
            "a@b_c",
            "a@b.",
            "a@[127.0.0.256]",
            "a@[::1]",
            "a@[IPv6:127.0.0.1]",
            "a@[IPv6:1:2:3:4:5:6:7::]",
            "a@[IPv6:1::3:4:5:6:7:8]",
            "a@[IPv6:1::3:4:5:6:1.2.3.4]",
            "a@[tag:content]",
            "a@[127.0.0.1",
            "ü@example.com",
            "a@bücher.example",
            "a@xn--x.example",
            long_local.as_str(),
            long_mailbox.as_str(),
        ] {
            assert!(!is_email(bad), "{bad:?}");
        }
    }

    #[test]
    fn idn_emails() {
        for ok in ["ü@bücher.example", "\"ü\"@example.com", "a@例え。テスト", "\u{85}@b", "a@[IPv6:::1]"] {
            assert!(is_idn_email(ok), "{ok}");
        }
        for bad in ["ü@bü_cher", "ü.@b", "a＠b", "a@bü--cher", "\"\\ü\"@b"] {
            assert!(!is_idn_email(bad), "{bad:?}");
        }
    }
}
