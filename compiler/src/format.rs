//! The `format` names schemavm knows how to assert.
//!
//! The compiler maps a `format` keyword's string to a [`Format`]; the VM
//! runs the matching checker (in the `schemavm` crate). Names outside this
//! list are unknown formats: ignored, or a compile error in strict mode.

/// A format defined by one of the supported JSON Schema drafts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// `date-time` (RFC 3339 `date-time`).
    DateTime,
    /// `date` (RFC 3339 `full-date`).
    Date,
    /// `time` (RFC 3339 `full-time`).
    Time,
    /// `duration` (RFC 3339 appendix A, ISO 8601 duration).
    Duration,
    /// `email` (RFC 5321 mailbox).
    Email,
    /// `idn-email` (RFC 6531 mailbox).
    IdnEmail,
    /// `hostname` (RFC 1123).
    Hostname,
    /// `idn-hostname` (RFC 5890, IDNA2008).
    IdnHostname,
    /// `ipv4` (dotted quad, RFC 2673).
    Ipv4,
    /// `ipv6` (RFC 4291).
    Ipv6,
    /// `uri` (RFC 3986, absolute).
    Uri,
    /// `uri-reference` (RFC 3986).
    UriReference,
    /// `iri` (RFC 3987, absolute).
    Iri,
    /// `iri-reference` (RFC 3987).
    IriReference,
    /// `uri-template` (RFC 6570).
    UriTemplate,
    /// `uuid` (RFC 4122).
    Uuid,
    /// `json-pointer` (RFC 6901).
    JsonPointer,
    /// `relative-json-pointer`.
    RelativeJsonPointer,
    /// `regex` (ECMA-262).
    Regex,
}

impl Format {
    /// Every known format, in declaration order.
    pub const ALL: [Format; 19] = [
        Format::DateTime,
        Format::Date,
        Format::Time,
        Format::Duration,
        Format::Email,
        Format::IdnEmail,
        Format::Hostname,
        Format::IdnHostname,
        Format::Ipv4,
        Format::Ipv6,
        Format::Uri,
        Format::UriReference,
        Format::Iri,
        Format::IriReference,
        Format::UriTemplate,
        Format::Uuid,
        Format::JsonPointer,
        Format::RelativeJsonPointer,
        Format::Regex,
    ];

    /// The format for a `format` keyword value, if it is a known one.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The keyword value naming this format.
    pub fn name(self) -> &'static str {
        match self {
            Format::DateTime => "date-time",
            Format::Date => "date",
            Format::Time => "time",
            Format::Duration => "duration",
            Format::Email => "email",
            Format::IdnEmail => "idn-email",
            Format::Hostname => "hostname",
            Format::IdnHostname => "idn-hostname",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Uri => "uri",
            Format::UriReference => "uri-reference",
            Format::Iri => "iri",
            Format::IriReference => "iri-reference",
            Format::UriTemplate => "uri-template",
            Format::Uuid => "uuid",
            Format::JsonPointer => "json-pointer",
            Format::RelativeJsonPointer => "relative-json-pointer",
            Format::Regex => "regex",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Format;

    #[test]
    fn names_round_trip() {
        for f in Format::ALL {
            assert_eq!(Format::from_name(f.name()), Some(f));
        }
        assert_eq!(Format::from_name("color"), None);
    }
}
