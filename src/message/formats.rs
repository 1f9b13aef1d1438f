//! A short human name and a valid example for every built-in `format`,
//! for messages like `must be a date-time (RFC 3339), e.g.
//! "2025-08-08T10:00:00Z"`.

use schemavm_compiler::Format;

/// How a message names a format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FormatDescription {
    /// What the value must be, with its article (`a date-time (RFC 3339)`).
    pub(crate) name: &'static str,
    /// A valid value.
    pub(crate) example: &'static str,
}

/// The description of a built-in format.
pub(crate) fn describe(format: Format) -> FormatDescription {
    let (name, example) = match format {
        Format::DateTime => ("a date-time (RFC 3339)", "2025-08-08T10:00:00Z"),
        Format::Date => ("a date (RFC 3339 full-date)", "2025-08-08"),
        Format::Time => ("a time with a UTC offset (RFC 3339 full-time)", "10:00:00Z"),
        Format::Duration => ("a duration (ISO 8601)", "P1DT12H"),
        Format::Email => ("an email address", "user@example.com"),
        Format::IdnEmail => ("an email address (internationalized)", "josé@example.com"),
        Format::Hostname => ("a hostname", "api.example.com"),
        Format::IdnHostname => ("a hostname (internationalized)", "bücher.example"),
        Format::Ipv4 => ("an IPv4 address", "192.0.2.1"),
        Format::Ipv6 => ("an IPv6 address", "2001:db8::1"),
        Format::Uri => ("an absolute URI", "https://example.com/path"),
        Format::UriReference => ("a URI reference", "/path?query=1"),
        Format::Iri => ("an absolute IRI", "https://example.com/café"),
        Format::IriReference => ("an IRI reference", "/café"),
        Format::UriTemplate => ("a URI template (RFC 6570)", "https://example.com/items/{id}"),
        Format::Uuid => ("a UUID", "123e4567-e89b-12d3-a456-426614174000"),
        Format::JsonPointer => ("a JSON Pointer", "/items/0/name"),
        Format::RelativeJsonPointer => ("a relative JSON Pointer", "1/name"),
        Format::Regex => ("a regular expression (ECMA-262)", "^[a-z]+$"),
    };
    FormatDescription { name, example }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_is_valid_for_its_format() {
        for f in Format::ALL {
            let d = describe(f);
            assert!(crate::format::check(f, d.example), "{}: {:?}", f.name(), d.example);
            assert!(d.name.starts_with("a ") || d.name.starts_with("an "), "{}", d.name);
        }
    }

    #[test]
    fn examples_do_not_pass_every_other_format() {
        // An example that any format accepts would teach nothing.
        let uuid = describe(Format::Uuid).example;
        assert!(!crate::format::check(Format::DateTime, uuid));
        assert!(!crate::format::check(Format::Email, describe(Format::Hostname).example));
    }
}
