//! Compile errors: what went wrong, where in the schema, and what would be
//! accepted instead.

use std::fmt;

use crate::regex::RegexError;
use crate::retrieve::RetrieveError;

/// The URI given to a root schema that has no `$id`. Locations in it are
/// shown as bare fragments (`#/properties/a`).
pub const DEFAULT_BASE_URI: &str = "json-schema:///";

/// A schema that could not be compiled.
#[derive(Debug, Clone)]
pub struct CompileError {
    kind: CompileErrorKind,
    location: String,
}

/// The class of a [`CompileError`], with its details.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum CompileErrorKind {
    /// The schema does not conform to its meta-schema; each entry is one
    /// meta-schema violation, already rendered.
    InvalidSchema {
        /// The meta-schema the schema was checked against.
        meta_schema: String,
        /// The violations, e.g. `/minimum: must be a number (got "abc")`.
        errors: Vec<String>,
    },
    /// `$schema` names a meta-schema that is neither a supported draft nor a
    /// registered resource.
    UnknownDialect {
        /// The `$schema` value.
        uri: String,
    },
    /// A meta-schema requires a vocabulary schemavm does not implement.
    UnknownVocabulary {
        /// The vocabulary URI.
        uri: String,
    },
    /// A `$ref` (or `$dynamicRef`, `$recursiveRef`, `$schema`) target that
    /// no registered document or anchor provides.
    UnresolvableReference {
        /// The reference as written.
        reference: String,
        /// The absolute URI it resolved to.
        resolved: String,
    },
    /// A reference to a document that no registered document provides and
    /// that the configured retrievers could not (or would not) retrieve.
    RetrievalFailed {
        /// The reference as written.
        reference: String,
        /// The document URI that was asked for.
        uri: String,
        /// Why retrieval failed.
        error: RetrieveError,
    },
    /// A keyword whose value has the wrong shape.
    InvalidKeyword {
        /// The keyword.
        keyword: String,
        /// What would be accepted, e.g. `a non-negative integer`.
        expected: &'static str,
    },
    /// A string that should be a URI reference and is not.
    InvalidUri {
        /// The text.
        value: String,
        /// Why it is not a URI reference.
        reason: &'static str,
    },
    /// A `pattern` or `patternProperties` key that is not a valid ECMA-262
    /// regular expression, or exceeds a regex limit.
    InvalidRegex {
        /// The pattern.
        pattern: String,
        /// What the regex compiler reported.
        error: RegexError,
    },
    /// A `format` name schemavm does not know, in strict-formats mode.
    UnknownFormat {
        /// The format name.
        name: String,
    },
    /// Two different schemas claim the same identifier.
    DuplicateResource {
        /// The identifier.
        uri: String,
    },
    /// The schema exceeds one of the compile-time [`Limits`](crate::Limits).
    LimitExceeded {
        /// Which limit.
        limit: &'static str,
        /// The value the schema reaches (or a lower bound of it).
        bound: u64,
        /// The configured maximum.
        max: u64,
    },
    /// A cycle of references that never descends into the instance
    /// (`{"$ref": "#"}`): evaluation would never end.
    UnguardedRecursion {
        /// The schema locations on the cycle, in order.
        cycle: Vec<String>,
    },
}

impl CompileError {
    /// An error of `kind` at `location` (`<uri>#<json-pointer>`).
    pub fn new(kind: CompileErrorKind, location: impl Into<String>) -> CompileError {
        CompileError { kind, location: location.into() }
    }

    /// The class of the error, with its details.
    pub fn kind(&self) -> &CompileErrorKind {
        &self.kind
    }

    /// Where in the schema the error is: an absolute URI with a JSON
    /// Pointer fragment (root schemas without `$id` use `json-schema:///`).
    pub fn location(&self) -> &str {
        &self.location
    }

    /// The location as the user wrote it: a bare `#/pointer` for the root
    /// schema without `$id`.
    pub fn display_location(&self) -> &str {
        self.location.strip_prefix(DEFAULT_BASE_URI).unwrap_or(&self.location)
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.display_location();
        match &self.kind {
            CompileErrorKind::InvalidSchema { meta_schema, errors } => {
                write!(f, "schema is invalid against its meta-schema {meta_schema}: ")?;
                for (i, e) in errors.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    f.write_str(e)?;
                }
                Ok(())
            }
            CompileErrorKind::UnknownDialect { uri } => write!(
                f,
                "{at}: unknown $schema {uri:?}: use one of the supported drafts \
                 (draft-04, -06, -07, 2019-09, 2020-12) or register the meta-schema with \
                 ValidatorOptions::resource"
            ),
            CompileErrorKind::UnknownVocabulary { uri } => write!(
                f,
                "{at}: the meta-schema requires vocabulary {uri:?}, which schemavm does not \
                 implement (mark it false in $vocabulary to make it optional)"
            ),
            CompileErrorKind::UnresolvableReference { reference, resolved } => write!(
                f,
                "{at}: cannot resolve reference {reference:?} (resolved to {resolved}): no \
                 registered document or anchor has that URI; register the document with \
                 ValidatorOptions::resource(uri, document), or enable a retriever that may fetch \
                 it with ValidatorOptions::retriever (schemavm never fetches references on its own)"
            ),
            CompileErrorKind::RetrievalFailed { reference, uri, error } => {
                write!(f, "{at}: cannot retrieve {uri} (for reference {reference:?}): {error}")
            }
            CompileErrorKind::InvalidKeyword { keyword, expected } => {
                write!(f, "{at}: invalid value for {keyword:?}: expected {expected}")
            }
            CompileErrorKind::InvalidUri { value, reason } => {
                write!(f, "{at}: {value:?} is not a valid URI reference: {reason}")
            }
            CompileErrorKind::InvalidRegex { pattern, error } => {
                write!(f, "{at}: invalid regular expression {pattern:?}: {error}")
            }
            CompileErrorKind::UnknownFormat { name } => write!(
                f,
                "{at}: unknown format {name:?} (strict formats are on: register it with \
                 ValidatorOptions::format or turn strict_formats off)"
            ),
            CompileErrorKind::DuplicateResource { uri } => {
                write!(f, "{at}: two different schemas have the identifier {uri:?}")
            }
            CompileErrorKind::LimitExceeded { limit, bound, max } => write!(
                f,
                "{at}: schema exceeds the {limit} limit ({bound} > {max}); raise it with \
                 ValidatorOptions::limits(Limits {{ {limit}: .., ..Default::default() }}) if the \
                 schema is trusted"
            ),
            CompileErrorKind::UnguardedRecursion { cycle } => write!(
                f,
                "{at}: unguarded recursion: the references {} form a cycle that never \
                 descends into the instance, so evaluation would never end",
                cycle.join(" -> ")
            ),
        }
    }
}

impl std::error::Error for CompileError {}
