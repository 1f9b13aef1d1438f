//! Static annotations: the keyword values a schema contributes as
//! annotations where it passes (`title`, `description`, `default`,
//! `examples`, `deprecated`, `readOnly`, `writeOnly`, `format`, the
//! content keywords, and keywords no supported draft defines). They are
//! kept in a side table of the program, only for nodes that have any;
//! nothing on the validation paths reads them.

use serde_json::Value;

use super::Lowerer;
use crate::bytecode::{Annotation, NodeId};
use crate::draft::{Draft, Vocabularies};
use crate::registry::SchemaInfo;

/// Every keyword some supported draft defines (the rest are unknown
/// keywords, whose values are annotations).
const KNOWN: &[&str] = &[
    "$schema",
    "$id",
    "id",
    "$ref",
    "$defs",
    "definitions",
    "$anchor",
    "$dynamicAnchor",
    "$dynamicRef",
    "$recursiveAnchor",
    "$recursiveRef",
    "$vocabulary",
    "$comment",
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "items",
    "prefixItems",
    "additionalItems",
    "contains",
    "minContains",
    "maxContains",
    "maxItems",
    "minItems",
    "uniqueItems",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "required",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "maxProperties",
    "minProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Annotation keywords: the first draft defining each, its vocabulary,
/// and whether it annotates string instances only.
const ANNOTATING: &[(&str, Draft, Vocabularies, bool)] = &[
    ("title", Draft::Draft4, Vocabularies::META_DATA, false),
    ("description", Draft::Draft4, Vocabularies::META_DATA, false),
    ("default", Draft::Draft4, Vocabularies::META_DATA, false),
    ("examples", Draft::Draft6, Vocabularies::META_DATA, false),
    ("readOnly", Draft::Draft7, Vocabularies::META_DATA, false),
    ("writeOnly", Draft::Draft7, Vocabularies::META_DATA, false),
    ("deprecated", Draft::Draft201909, Vocabularies::META_DATA, false),
    ("contentEncoding", Draft::Draft7, Vocabularies::CONTENT, true),
    ("contentMediaType", Draft::Draft7, Vocabularies::CONTENT, true),
    ("contentSchema", Draft::Draft201909, Vocabularies::CONTENT, true),
];

impl Lowerer<'_, '_> {
    /// Records the static annotations of schema `value`, compiled as node
    /// `id`, if it has any.
    pub(super) fn collect_annotations(&mut self, id: NodeId, value: &Value, info: &SchemaInfo) {
        if self.options.skip_annotations {
            return;
        }
        let set = static_annotations(value, info);
        if !set.is_empty() {
            self.annotations.push((id, set.into_boxed_slice()));
        }
    }
}

/// The static annotations of one schema object in its dialect.
fn static_annotations(value: &Value, info: &SchemaInfo) -> Vec<Annotation> {
    let Value::Object(obj) = value else { return Vec::new() };
    let d = info.dialect;
    // Up to draft-07, `$ref` makes its siblings inert.
    if d.draft.ref_overrides_siblings() && obj.contains_key("$ref") {
        return Vec::new();
    }
    let mut set = Vec::new();
    let mut add = |keyword: &str, value: &Value, strings_only: bool| {
        set.push(Annotation { keyword: keyword.into(), value: value.clone(), strings_only });
    };
    for &(keyword, since, vocab, strings_only) in ANNOTATING {
        // `contentSchema` means nothing without `contentMediaType`.
        let applies = d.draft >= since
            && d.vocab.contains(vocab)
            && (keyword != "contentSchema" || obj.contains_key("contentMediaType"));
        if let Some(v) = obj.get(keyword).filter(|_| applies) {
            add(keyword, v, strings_only);
        }
    }
    if let Some(v @ Value::String(_)) = obj.get("format").filter(|_| Lowerer::active(d, "format")) {
        add("format", v, false);
    }
    for (k, v) in obj {
        if !KNOWN.contains(&k.as_str()) {
            add(k, v, false);
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::{CompileOptions, compile};

    fn keywords(schema: &serde_json::Value, options: &CompileOptions) -> Vec<String> {
        let program = compile(schema, options).unwrap();
        program.annotations(program.root()).iter().map(|a| a.keyword.to_string()).collect()
    }

    #[test]
    fn collects_by_dialect() {
        let schema = json!({"title": "T", "deprecated": true, "x-y": 1, "type": "string",
                            "contentSchema": {}, "format": "email"});
        let all = keywords(&schema, &CompileOptions::default());
        assert_eq!(all, ["title", "deprecated", "format", "x-y"]);
        let old = CompileOptions { default_draft: crate::Draft::Draft7, ..Default::default() };
        assert_eq!(keywords(&schema, &old), ["title", "format", "x-y"]);
        let none = CompileOptions { skip_annotations: true, ..Default::default() };
        assert!(keywords(&schema, &none).is_empty());
    }

    #[test]
    fn ref_siblings_are_inert_up_to_draft7() {
        let schema = json!({"$ref": "#/definitions/a", "title": "T", "definitions": {"a": {}}});
        let old = CompileOptions { default_draft: crate::Draft::Draft7, ..Default::default() };
        assert!(keywords(&schema, &old).is_empty());
        assert_eq!(keywords(&schema, &CompileOptions::default()), ["title"]);
    }

    #[test]
    fn content_schema_needs_a_media_type() {
        let schema = json!({"contentMediaType": "application/json", "contentSchema": {"type": "number"}});
        let program = compile(&schema, &CompileOptions::default()).unwrap();
        let set = program.annotations(program.root());
        assert_eq!(set.len(), 2);
        assert!(set.iter().all(|a| a.strings_only));
    }
}
