//! The meta-schemas of every supported draft, embedded in the binary and
//! parsed on first use. They are the JSON Schema project's published
//! documents (see `compiler/metaschemas/README.md`).

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::Value;

use crate::draft::Draft;

/// `(canonical URI without fragment, document text)`.
const SOURCES: &[(&str, &str)] = &[
    ("http://json-schema.org/draft-04/schema", include_str!("../metaschemas/draft4.json")),
    ("http://json-schema.org/draft-06/schema", include_str!("../metaschemas/draft6.json")),
    ("http://json-schema.org/draft-07/schema", include_str!("../metaschemas/draft7.json")),
    ("https://json-schema.org/draft/2019-09/schema", include_str!("../metaschemas/draft2019-09/schema.json")),
    ("https://json-schema.org/draft/2019-09/meta/core", include_str!("../metaschemas/draft2019-09/meta/core.json")),
    (
        "https://json-schema.org/draft/2019-09/meta/applicator",
        include_str!("../metaschemas/draft2019-09/meta/applicator.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/validation",
        include_str!("../metaschemas/draft2019-09/meta/validation.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/meta-data",
        include_str!("../metaschemas/draft2019-09/meta/meta-data.json"),
    ),
    ("https://json-schema.org/draft/2019-09/meta/format", include_str!("../metaschemas/draft2019-09/meta/format.json")),
    (
        "https://json-schema.org/draft/2019-09/meta/content",
        include_str!("../metaschemas/draft2019-09/meta/content.json"),
    ),
    ("https://json-schema.org/draft/2020-12/schema", include_str!("../metaschemas/draft2020-12/schema.json")),
    ("https://json-schema.org/draft/2020-12/meta/core", include_str!("../metaschemas/draft2020-12/meta/core.json")),
    (
        "https://json-schema.org/draft/2020-12/meta/applicator",
        include_str!("../metaschemas/draft2020-12/meta/applicator.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/unevaluated",
        include_str!("../metaschemas/draft2020-12/meta/unevaluated.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/validation",
        include_str!("../metaschemas/draft2020-12/meta/validation.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/meta-data",
        include_str!("../metaschemas/draft2020-12/meta/meta-data.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/format-annotation",
        include_str!("../metaschemas/draft2020-12/meta/format-annotation.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/format-assertion",
        include_str!("../metaschemas/draft2020-12/meta/format-assertion.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/content",
        include_str!("../metaschemas/draft2020-12/meta/content.json"),
    ),
];

fn documents() -> &'static HashMap<&'static str, Value> {
    static DOCS: OnceLock<HashMap<&'static str, Value>> = OnceLock::new();
    DOCS.get_or_init(|| {
        SOURCES.iter().filter_map(|(uri, text)| serde_json::from_str(text).ok().map(|v| (*uri, v))).collect()
    })
}

/// The embedded document with canonical URI `uri` (no fragment).
pub fn document(uri: &str) -> Option<&'static Value> {
    documents().get(uri)
}

/// The meta-schema document of `draft`.
pub fn of_draft(draft: Draft) -> Option<&'static Value> {
    let uri = draft.meta_schema_uri();
    document(uri.strip_suffix('#').unwrap_or(uri))
}

/// Every embedded document URI.
pub fn uris() -> impl Iterator<Item = &'static str> {
    SOURCES.iter().map(|(uri, _)| *uri)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_document_parses() {
        for uri in uris() {
            assert!(document(uri).is_some(), "{uri} does not parse");
        }
        for d in Draft::ALL {
            assert!(of_draft(d).is_some());
        }
    }
}
