//! JSON Schema dialects (drafts) and the vocabularies that make them up.

use std::fmt;

/// A JSON Schema dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Draft {
    /// JSON Schema draft-04.
    Draft4,
    /// JSON Schema draft-06.
    Draft6,
    /// JSON Schema draft-07.
    Draft7,
    /// JSON Schema 2019-09.
    Draft201909,
    /// JSON Schema 2020-12 (the default).
    #[default]
    Draft202012,
}

impl Draft {
    /// Every supported draft, oldest first.
    pub const ALL: [Draft; 5] = [Draft::Draft4, Draft::Draft6, Draft::Draft7, Draft::Draft201909, Draft::Draft202012];

    /// The canonical meta-schema URI of this draft.
    pub fn meta_schema_uri(self) -> &'static str {
        match self {
            Draft::Draft4 => "http://json-schema.org/draft-04/schema#",
            Draft::Draft6 => "http://json-schema.org/draft-06/schema#",
            Draft::Draft7 => "http://json-schema.org/draft-07/schema#",
            Draft::Draft201909 => "https://json-schema.org/draft/2019-09/schema",
            Draft::Draft202012 => "https://json-schema.org/draft/2020-12/schema",
        }
    }

    /// The draft whose meta-schema is `uri` (with or without a trailing
    /// `#`, over `http` or `https`).
    pub fn from_meta_schema_uri(uri: &str) -> Option<Draft> {
        let uri = uri.strip_suffix('#').unwrap_or(uri);
        let rest = uri.strip_prefix("https://").or_else(|| uri.strip_prefix("http://"))?;
        match rest {
            "json-schema.org/draft-04/schema" => Some(Draft::Draft4),
            "json-schema.org/draft-06/schema" => Some(Draft::Draft6),
            "json-schema.org/draft-07/schema" => Some(Draft::Draft7),
            "json-schema.org/draft/2019-09/schema" => Some(Draft::Draft201909),
            "json-schema.org/draft/2020-12/schema" => Some(Draft::Draft202012),
            _ => None,
        }
    }

    /// The keyword that declares a resource's identifier.
    pub fn id_keyword(self) -> &'static str {
        if self == Draft::Draft4 { "id" } else { "$id" }
    }

    /// Whether `$ref` makes its sibling keywords ignored (up to draft-07).
    pub fn ref_overrides_siblings(self) -> bool {
        self <= Draft::Draft7
    }

    /// The vocabularies in force when a schema's meta-schema declares none.
    pub fn default_vocabularies(self) -> Vocabularies {
        match self {
            Draft::Draft201909 | Draft::Draft202012 => Vocabularies::STANDARD,
            _ => Vocabularies::ALL,
        }
    }

    /// A short name, as accepted by the CLI (`4`, `6`, `7`, `2019-09`, `2020-12`).
    pub fn short_name(self) -> &'static str {
        match self {
            Draft::Draft4 => "4",
            Draft::Draft6 => "6",
            Draft::Draft7 => "7",
            Draft::Draft201909 => "2019-09",
            Draft::Draft202012 => "2020-12",
        }
    }

    /// Parses a short name (`4`, `draft4`, `draft-04`, `2019-09`, `2020-12`, ...).
    pub fn from_short_name(name: &str) -> Option<Draft> {
        let n = name.trim_start_matches("draft").trim_start_matches('-');
        match n {
            "4" | "04" => Some(Draft::Draft4),
            "6" | "06" => Some(Draft::Draft6),
            "7" | "07" => Some(Draft::Draft7),
            "2019-09" | "201909" => Some(Draft::Draft201909),
            "2020-12" | "202012" => Some(Draft::Draft202012),
            _ => None,
        }
    }
}

impl fmt::Display for Draft {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Draft::Draft4 => "draft-04",
            Draft::Draft6 => "draft-06",
            Draft::Draft7 => "draft-07",
            Draft::Draft201909 => "2019-09",
            Draft::Draft202012 => "2020-12",
        };
        f.write_str(name)
    }
}

/// A set of vocabularies (2019-09 and later); earlier drafts use
/// [`Vocabularies::ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Vocabularies(u16);

impl Vocabularies {
    /// `$ref`, `$defs`, `$id`, ...: always in force.
    pub const CORE: Vocabularies = Vocabularies(1);
    /// `properties`, `items`, `allOf`, `if`, ...
    pub const APPLICATOR: Vocabularies = Vocabularies(1 << 1);
    /// `unevaluatedProperties`, `unevaluatedItems`.
    pub const UNEVALUATED: Vocabularies = Vocabularies(1 << 2);
    /// `type`, `enum`, `minimum`, `required`, ...
    pub const VALIDATION: Vocabularies = Vocabularies(1 << 3);
    /// `title`, `default`, ... (annotations only).
    pub const META_DATA: Vocabularies = Vocabularies(1 << 4);
    /// `format` as an annotation.
    pub const FORMAT_ANNOTATION: Vocabularies = Vocabularies(1 << 5);
    /// `format` as an assertion.
    pub const FORMAT_ASSERTION: Vocabularies = Vocabularies(1 << 6);
    /// `contentEncoding`, `contentMediaType`, `contentSchema`.
    pub const CONTENT: Vocabularies = Vocabularies(1 << 7);
    /// The standard 2019-09 / 2020-12 meta-schema's set.
    pub const STANDARD: Vocabularies = Vocabularies(0b1011_1111);
    /// Every vocabulary except format assertion (earlier drafts).
    pub const ALL: Vocabularies = Vocabularies(0b1011_1111);

    /// No vocabulary.
    pub const fn empty() -> Vocabularies {
        Vocabularies(0)
    }

    /// Whether every vocabulary of `other` is in `self`.
    pub const fn contains(self, other: Vocabularies) -> bool {
        self.0 & other.0 == other.0
    }

    /// The union of two sets.
    pub const fn union(self, other: Vocabularies) -> Vocabularies {
        Vocabularies(self.0 | other.0)
    }

    /// The vocabulary named by a `$vocabulary` URI, if known.
    pub fn from_uri(uri: &str) -> Option<Vocabularies> {
        let (draft, name) = if let Some(n) = uri.strip_prefix("https://json-schema.org/draft/2020-12/vocab/") {
            (Draft::Draft202012, n)
        } else if let Some(n) = uri.strip_prefix("https://json-schema.org/draft/2019-09/vocab/") {
            (Draft::Draft201909, n)
        } else {
            return None;
        };
        let v = match (draft, name) {
            (_, "core") => Vocabularies::CORE,
            (Draft::Draft201909, "applicator") => Vocabularies::APPLICATOR.union(Vocabularies::UNEVALUATED),
            (_, "applicator") => Vocabularies::APPLICATOR,
            (Draft::Draft202012, "unevaluated") => Vocabularies::UNEVALUATED,
            (_, "validation") => Vocabularies::VALIDATION,
            (_, "meta-data") => Vocabularies::META_DATA,
            (Draft::Draft201909, "format") => Vocabularies::FORMAT_ANNOTATION,
            (Draft::Draft202012, "format-annotation") => Vocabularies::FORMAT_ANNOTATION,
            (Draft::Draft202012, "format-assertion") => Vocabularies::FORMAT_ASSERTION,
            (_, "content") => Vocabularies::CONTENT,
            _ => return None,
        };
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_schema_uris() {
        for d in Draft::ALL {
            assert_eq!(Draft::from_meta_schema_uri(d.meta_schema_uri()), Some(d));
        }
        assert_eq!(Draft::from_meta_schema_uri("http://json-schema.org/draft-07/schema"), Some(Draft::Draft7));
        assert_eq!(
            Draft::from_meta_schema_uri("https://json-schema.org/draft/2020-12/schema#"),
            Some(Draft::Draft202012)
        );
        assert_eq!(Draft::from_meta_schema_uri("http://example.com/schema"), None);
    }

    #[test]
    fn short_names() {
        for d in Draft::ALL {
            assert_eq!(Draft::from_short_name(d.short_name()), Some(d));
        }
        assert_eq!(Draft::from_short_name("draft-07"), Some(Draft::Draft7));
    }

    #[test]
    fn vocabulary_uris() {
        let v = Vocabularies::from_uri("https://json-schema.org/draft/2019-09/vocab/applicator").unwrap();
        assert!(v.contains(Vocabularies::UNEVALUATED));
        assert!(Vocabularies::STANDARD.contains(Vocabularies::CONTENT));
        assert!(!Vocabularies::STANDARD.contains(Vocabularies::FORMAT_ASSERTION));
        assert_eq!(Vocabularies::from_uri("https://example.com/vocab/x"), None);
    }
}
