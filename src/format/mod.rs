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

use self::uri::Grammar;

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
/// One indirect call of the format's checker (a `match` returning a
/// function pointer, which the compiler makes a table of addresses),
/// inlined into the caller: no jump table and no tail call between the
/// instruction and the checker, and no checker inlined into the dispatch
/// (which would make every format pay for the largest one's register
/// saves).
#[inline]
pub fn check(format: Format, value: &str) -> bool {
    checker(format)(value)
}

/// The checker of `format`, as a function pointer (the compiler makes
/// this match a table of addresses; always inlined, so that it is a load).
#[inline(always)]
fn checker(format: Format) -> fn(&str) -> bool {
    match format {
        Format::DateTime => datetime::is_date_time,
        Format::Date => datetime::is_date,
        Format::Time => datetime::is_time,
        Format::Duration => datetime::is_duration,
        Format::Email => email::is_email,
        Format::IdnEmail => email::is_idn_email,
        Format::Hostname => hostname::is_hostname,
        Format::IdnHostname => hostname::is_idn_hostname,
        Format::Ipv4 => ip::is_ipv4,
        Format::Ipv6 => ip::is_ipv6,
        Format::Uri => |v| uri::is_absolute(v, Grammar::Uri),
        Format::UriReference => |v| uri::is_reference(v, Grammar::Uri),
        Format::Iri => |v| uri::is_absolute(v, Grammar::Iri),
        Format::IriReference => |v| uri::is_reference(v, Grammar::Iri),
        Format::UriTemplate => uri_template::is_uri_template,
        Format::Uuid => uuid::is_uuid,
        Format::JsonPointer => pointer::is_json_pointer,
        Format::RelativeJsonPointer => pointer::is_relative_json_pointer,
        Format::Regex => |v| schemavm_compiler::regex::check_syntax(v).is_ok(),
    }
}
