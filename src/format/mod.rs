//! Checkers for the `format` keyword and for `contentEncoding` /
//! `contentMediaType`.
//!
//! [`check`] dispatches a [`Format`] to a hand-written checker. Every
//! checker runs in time linear in its input (bounded further where a format
//! has a length limit), never backtracks, never recurses on input, and
//! never panics. The formats behave the same under every draft: the
//! official test suite's format tests agree across draft4 to draft2020-12.
//!
//! | file | formats |
//! |---|---|
//! | `datetime.rs` | `date-time`, `date`, `time`, `duration` |
//! | `email.rs` | `email`, `idn-email` |
//! | `hostname.rs`, `idna2008.rs` | `hostname`, `idn-hostname` |
//! | `ip.rs` | `ipv4`, `ipv6` (also e-mail and URI host literals) |
//! | `uri.rs` | `uri`, `uri-reference`, `iri`, `iri-reference` |
//! | `uri_template.rs` | `uri-template` |
//! | `uuid.rs` | `uuid` |
//! | `pointer.rs` | `json-pointer`, `relative-json-pointer` |
//! | `content.rs` | `contentEncoding`, `contentMediaType` |
//!
//! `regex` is checked by [`schemavm_compiler::regex::check_syntax`], the
//! ECMA-262 syntax checker shared with `pattern`.

pub mod content;
mod datetime;
mod email;
mod hostname;
mod idna2008;
mod ip;
mod pointer;
mod uri;
mod uri_template;
mod uuid;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use schemavm_compiler::Format;

use crate::FormatFn;

/// A validator's custom format checkers, by their
/// [`FormatCheck::Custom`](schemavm_compiler::bytecode::FormatCheck::Custom)
/// index. (The VM holds one thin reference to it, not a slice.)
pub(crate) struct CustomFormats(Vec<FormatFn>);

impl CustomFormats {
    /// Whether there are no checkers.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The checkers, in index order.
    pub(crate) fn new(checkers: Vec<FormatFn>) -> CustomFormats {
        CustomFormats(checkers)
    }

    /// Whether `value` passes custom format `index` (`false` for an
    /// index with no checker).
    pub(crate) fn check(&self, index: u32, value: &str) -> bool {
        self.0.get(index as usize).is_some_and(|f| f(value))
    }
}

/// Whether `value` is a valid instance of `format`. Linear time in value.len(), no allocation where avoidable.
///
/// Each arm is a tail call of a checker kept out of line, so that the
/// dispatch itself needs no stack frame: a checker inlined here would make
/// every format pay for the largest one's register saves.
pub fn check(format: Format, value: &str) -> bool {
    match format {
        Format::DateTime => out_of_line::date_time(value),
        Format::Date => out_of_line::date(value),
        Format::Time => out_of_line::time(value),
        Format::Duration => out_of_line::duration(value),
        Format::Email => out_of_line::email(value),
        Format::IdnEmail => out_of_line::idn_email(value),
        Format::Hostname => out_of_line::hostname(value),
        Format::IdnHostname => out_of_line::idn_hostname(value),
        Format::Ipv4 => out_of_line::ipv4(value),
        Format::Ipv6 => out_of_line::ipv6(value),
        Format::Uri => out_of_line::uri(value),
        Format::UriReference => out_of_line::uri_reference(value),
        Format::Iri => out_of_line::iri(value),
        Format::IriReference => out_of_line::iri_reference(value),
        Format::UriTemplate => out_of_line::uri_template(value),
        Format::Uuid => out_of_line::uuid(value),
        Format::JsonPointer => out_of_line::json_pointer(value),
        Format::RelativeJsonPointer => out_of_line::relative_json_pointer(value),
        Format::Regex => out_of_line::regex(value),
    }
}

/// The checkers as [`check`] calls them, never inlined into it.
mod out_of_line {
    use super::uri::Grammar;
    use super::{datetime, email, hostname, ip, pointer, uri, uri_template, uuid};

    macro_rules! checkers {
        ($($name:ident => $body:expr;)*) => {$(
            #[inline(never)]
            pub fn $name(value: &str) -> bool {
                $body(value)
            }
        )*};
    }

    checkers! {
        date_time => datetime::is_date_time;
        date => datetime::is_date;
        time => datetime::is_time;
        duration => datetime::is_duration;
        email => email::is_email;
        idn_email => email::is_idn_email;
        hostname => hostname::is_hostname;
        idn_hostname => hostname::is_idn_hostname;
        ipv4 => ip::is_ipv4;
        ipv6 => ip::is_ipv6;
        uri => |v| uri::is_absolute(v, Grammar::Uri);
        uri_reference => |v| uri::is_reference(v, Grammar::Uri);
        iri => |v| uri::is_absolute(v, Grammar::Iri);
        iri_reference => |v| uri::is_reference(v, Grammar::Iri);
        uri_template => uri_template::is_uri_template;
        uuid => uuid::is_uuid;
        json_pointer => pointer::is_json_pointer;
        relative_json_pointer => pointer::is_relative_json_pointer;
        regex => |v| schemavm_compiler::regex::check_syntax(v).is_ok();
    }
}
