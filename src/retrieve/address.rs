//! Which IP addresses the HTTP retriever refuses to connect to.
//!
//! Everything that is not ordinary public unicast is refused: a schema
//! reference must not become a way to reach the machine itself, its
//! network, or a cloud metadata service. IPv6 forms that embed an IPv4
//! address (mapped, translated, NAT64, 6to4) are judged by that address;
//! deprecated or tunnelling forms whose target can't be judged are refused.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Why `ip` is refused, or `None` for a public unicast address.
pub fn refused(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => refused_v4(v4),
        IpAddr::V6(v6) => refused_v6(v6),
    }
}

fn refused_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    let why = match (a, b, c) {
        (0, _, _) => "an unspecified (0.0.0.0/8) address",
        (127, _, _) => "a loopback (127.0.0.0/8) address",
        (10, _, _) => "a private (10.0.0.0/8) address",
        (172, 16..=31, _) => "a private (172.16.0.0/12) address",
        (192, 168, _) => "a private (192.168.0.0/16) address",
        (169, 254, _) => "a link-local (169.254.0.0/16, cloud metadata) address",
        (100, 64..=127, _) => "a shared carrier-grade NAT (100.64.0.0/10) address",
        (192, 0, 0) => "an IETF protocol (192.0.0.0/24) address",
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => "a documentation address",
        (198, 18..=19, _) => "a benchmarking (198.18.0.0/15) address",
        (192, 88, 99) => "a 6to4 relay (192.88.99.0/24) address",
        (224..=239, _, _) => "a multicast (224.0.0.0/4) address",
        (240..=255, _, _) => "a reserved or broadcast (240.0.0.0/4) address",
        _ => return None,
    };
    Some(why)
}

fn refused_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let [s0, s1, s2, s3, s4, s5, _, _] = ip.segments();
    let [.., w, x, y, z] = ip.octets();
    let embedded = Ipv4Addr::new(w, x, y, z);
    if ip.is_unspecified() {
        return Some("an unspecified (::) address");
    }
    if ip.is_loopback() {
        return Some("a loopback (::1) address");
    }
    // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated).
    if [s0, s1, s2, s3] == [0; 4] && ((s4, s5) == (0, 0xffff) || (s4, s5) == (0xffff, 0)) {
        return refused_v4(embedded);
    }
    // ::a.b.c.d (IPv4-compatible, deprecated) and the rest of ::/96.
    if [s0, s1, s2, s3, s4, s5] == [0; 6] {
        return Some("an IPv4-compatible (::/96, deprecated) address");
    }
    // 64:ff9b::/96, the well-known NAT64 prefix: judged by its IPv4 part.
    if [s0, s1, s2, s3, s4, s5] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return refused_v4(embedded);
    }
    if (s0, s1) == (0x64, 0xff9b) {
        return Some("a local-use NAT64 (64:ff9b::/32) address");
    }
    // 2002::/16, 6to4: the IPv4 address is in the next 32 bits.
    if s0 == 0x2002 {
        let [p, q] = s1.to_be_bytes();
        let [r, t] = s2.to_be_bytes();
        return refused_v4(Ipv4Addr::new(p, q, r, t));
    }
    let why = match s0 {
        0x0100 if [s1, s2, s3] == [0; 3] => "a discard-only (100::/64) address",
        0x2001 if s1 < 0x0200 => "an IETF protocol or Teredo (2001::/23) address",
        0x2001 if s1 == 0x0db8 => "a documentation (2001:db8::/32) address",
        0x3fff if s1 < 0x1000 => "a documentation (3fff::/20) address",
        _ if s0 & 0xfe00 == 0xfc00 => "a unique-local (fc00::/7) address",
        _ if s0 & 0xffc0 == 0xfe80 => "a link-local (fe80::/10) address",
        _ if s0 & 0xffc0 == 0xfec0 => "a site-local (fec0::/10, deprecated) address",
        _ if s0 & 0xff00 == 0xff00 => "a multicast (ff00::/8) address",
        _ => return None,
    };
    Some(why)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> Option<&'static str> {
        refused(text.parse().unwrap())
    }

    #[test]
    fn refused_ipv4() {
        for ip in [
            "0.0.0.0",
            "0.1.2.3",
            "127.0.0.1",
            "127.255.255.254",
            "10.0.0.1",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "169.254.0.1",
            "100.64.0.1",
            "100.127.255.255",
            "192.0.0.8",
            "192.0.2.1",
            "198.51.100.7",
            "203.0.113.9",
            "198.18.0.1",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
        ] {
            assert!(check(ip).is_some(), "{ip} must be refused");
        }
        assert!(check("169.254.169.254").unwrap().contains("metadata"));
    }

    #[test]
    fn public_ipv4() {
        for ip in
            ["1.1.1.1", "8.8.8.8", "93.184.216.34", "172.15.255.255", "172.32.0.1", "100.63.255.255", "100.128.0.1"]
        {
            assert_eq!(check(ip), None, "{ip} is public");
        }
    }

    #[test]
    fn refused_ipv6() {
        for ip in [
            "::",
            "::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::ffff:10.1.2.3",
            "::ffff:0:192.168.0.1",
            "::127.0.0.1",
            "::8.8.8.8",
            "64:ff9b::7f00:1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b:1::1",
            "2002:7f00:1::1",
            "2002:a9fe:a9fe::1",
            "2001::1",
            "2001:db8::1",
            "3fff::1",
            "100::1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "febf::1",
            "fec0::1",
            "ff02::1",
            "ff0e::1",
        ] {
            assert!(check(ip).is_some(), "{ip} must be refused");
        }
        assert!(check("::ffff:169.254.169.254").unwrap().contains("metadata"));
    }

    #[test]
    fn public_ipv6() {
        for ip in
            ["2606:4700:4700::1111", "2a00:1450:4001::200e", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"]
        {
            assert_eq!(check(ip), None, "{ip} is public");
        }
    }
}
