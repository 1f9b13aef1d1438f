//! Static annotations: the keyword values a schema contributes as
//! annotations where it passes (`title`, `description`, `default`,
//! `examples`, `deprecated`, `readOnly`, `writeOnly`, `format`, the
//! content keywords, and keywords no supported draft defines). They are
//! kept in a side table of the program, only for nodes that have any;
//! nothing on the validation paths reads them.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::Lowerer;
use crate::bytecode::{Annotation, NodeId};
use crate::draft::{Draft, Vocabularies};
use crate::keyword::{KeywordTable, Kw};
use crate::registry::SchemaInfo;

/// Annotation keywords: the first draft defining each, its vocabulary,
/// and whether it annotates string instances only.
const ANNOTATING: &[(Kw, Draft, Vocabularies, bool)] = &[
    (Kw::Title, Draft::Draft4, Vocabularies::META_DATA, false),
    (Kw::Description, Draft::Draft4, Vocabularies::META_DATA, false),
    (Kw::Default, Draft::Draft4, Vocabularies::META_DATA, false),
    (Kw::Examples, Draft::Draft6, Vocabularies::META_DATA, false),
    (Kw::ReadOnly, Draft::Draft7, Vocabularies::META_DATA, false),
    (Kw::WriteOnly, Draft::Draft7, Vocabularies::META_DATA, false),
    (Kw::Deprecated, Draft::Draft201909, Vocabularies::META_DATA, false),
    (Kw::ContentEncoding, Draft::Draft7, Vocabularies::CONTENT, true),
    (Kw::ContentMediaType, Draft::Draft7, Vocabularies::CONTENT, true),
    (Kw::ContentSchema, Draft::Draft201909, Vocabularies::CONTENT, true),
];

impl Lowerer<'_, '_> {
    /// Records the static annotations of schema object `obj` (whose
    /// keywords are `table`), compiled as node `id`, if it has any.
    pub(super) fn collect_annotations(
        &mut self,
        id: NodeId,
        obj: &Map<String, Value>,
        table: &KeywordTable<'_>,
        info: &SchemaInfo,
    ) {
        if self.options.skip_annotations {
            return;
        }
        let set = static_annotations(obj, table, info);
        if !set.is_empty() {
            self.annotations.push((id, set.into_boxed_slice()));
        }
    }
}

/// The static annotations of one schema object in its dialect: the
/// annotation keywords in [`ANNOTATING`] order, `format`, then the
/// keywords no supported draft defines (every other known keyword is
/// compiled, or is an identifier, or holds subschemas).
fn static_annotations(obj: &Map<String, Value>, table: &KeywordTable<'_>, info: &SchemaInfo) -> Vec<Annotation> {
    let d = info.dialect;
    // Up to draft-07, `$ref` makes its siblings inert.
    if d.draft.ref_overrides_siblings() && table.has(Kw::Ref) {
        return Vec::new();
    }
    let mut set = Vec::new();
    let mut add = |keyword: Cow<'static, str>, value: &Value, strings_only: bool| {
        // Each annotation is a distinct key: `obj.len()` bounds them (the
        // caller boxes the set, dropping what is left).
        if set.capacity() == 0 {
            set.reserve_exact(obj.len());
        }
        set.push(Annotation { keyword, value: value.clone(), strings_only });
    };
    for &(keyword, since, vocab, strings_only) in ANNOTATING {
        // `contentSchema` means nothing without `contentMediaType`.
        let applies = d.draft >= since
            && d.vocab.contains(vocab)
            && (keyword != Kw::ContentSchema || table.has(Kw::ContentMediaType));
        if let Some(v) = table.get(keyword).filter(|_| applies) {
            add(Cow::Borrowed(keyword.name()), v, strings_only);
        }
    }
    if let Some(v @ Value::String(_)) = table.get(Kw::Format).filter(|_| Lowerer::active(d, Kw::Format)) {
        add(Cow::Borrowed(Kw::Format.name()), v, false);
    }
    if table.has_unknown() {
        for (k, v) in obj {
            if Kw::from_name(k).is_none() {
                add(Cow::Owned(k.clone()), v, false);
            }
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
