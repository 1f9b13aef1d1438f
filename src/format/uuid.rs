//! `uuid`: the RFC 4122 string representation, `8-4-4-4-12` hexadecimal
//! digits in either case. Version and variant nibbles are not restricted.

/// Whether `s` is a UUID in `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` form.
pub fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

#[cfg(test)]
mod tests {
    use super::is_uuid;

    #[test]
    fn uuids() {
        assert!(is_uuid("00000000-0000-0000-0000-000000000000"));
        assert!(is_uuid("2EB8AA08-aa98-11EA-b4aa-73B441D16380"));
        assert!(!is_uuid("2eb8aa08-aa98-11ea-b4aa-73b441d1638"));
        assert!(!is_uuid("2eb8aa08-aa98-11ea-b4aa-73b441d163800"));
        assert!(!is_uuid("2eb8aa08aa98-11ea-b4aa-73b441d163800"));
        assert!(!is_uuid("{2eb8aa08-aa98-11ea-b4aa-73b441d16380}"));
        assert!(!is_uuid("2eb8aa08-aa98-11ea-b4aa-73b441d1638g"));
        assert!(!is_uuid("2eb8aa08-aa98-11ea-b4aa-73b441d1638১"));
    }
}
