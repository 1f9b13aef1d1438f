//! Checking a schema against its meta-schema before compiling it.
//!
//! The five drafts' meta-schemas are compiled once per process and
//! shared. A schema whose `$schema` names a registered custom meta-schema
//! is checked against that document, compiled on the spot.

use std::sync::OnceLock;

use serde_json::Value;

use schemavm_compiler::{CompileError, CompileErrorKind, Draft, metaschema};

use crate::{Validator, ValidatorOptions};

/// Most violations quoted in an invalid-schema error.
const SHOWN: usize = 5;

fn standard(draft: Draft) -> Result<&'static Validator, CompileError> {
    static CACHE: [OnceLock<Result<Validator, CompileError>>; 5] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let index = Draft::ALL.iter().position(|d| *d == draft).unwrap_or(0);
    let slot = CACHE.get(index).ok_or_else(|| missing(draft))?;
    let result = slot.get_or_init(|| {
        let doc = metaschema::of_draft(draft).ok_or_else(|| missing(draft))?;
        Validator::options().draft(draft).assert_formats(false).skip_meta_validation(true).build(doc)
    });
    result.as_ref().map_err(Clone::clone)
}

fn missing(draft: Draft) -> CompileError {
    CompileError::new(CompileErrorKind::UnknownDialect { uri: draft.meta_schema_uri().to_string() }, "")
}

/// Checks `schema` against the meta-schema its `$schema` (or the default
/// draft) selects.
pub(crate) fn check_schema(schema: &Value, options: &ValidatorOptions) -> Result<(), CompileError> {
    let declared = schema.get("$schema").and_then(Value::as_str);
    let custom;
    let (meta, name): (&Validator, String) = match declared {
        Some(uri) => match Draft::from_meta_schema_uri(uri) {
            Some(d) => (standard(d)?, d.meta_schema_uri().to_string()),
            None => {
                let doc = options
                    .compile
                    .resources
                    .iter()
                    .find(|(u, _)| u.trim_end_matches('#') == uri.trim_end_matches('#'))
                    .map(|(_, doc)| doc);
                let Some(doc) = doc else {
                    // Let the compiler report the unknown dialect with its location.
                    return Ok(());
                };
                custom = options.clone().skip_meta_validation(true).assert_formats(false).build(doc)?;
                (&custom, uri.to_string())
            }
        },
        None => {
            let d = options.compile.default_draft;
            (standard(d)?, d.meta_schema_uri().to_string())
        }
    };
    if meta.is_valid(schema) {
        return Ok(());
    }
    let errors: Vec<String> = meta
        .iter_errors(schema)
        .take(SHOWN)
        .map(|e| {
            let at = e.instance_location().to_pointer();
            let at = if at.is_empty() { "(root)".to_string() } else { at };
            format!("{at}: {}", e.message())
        })
        .collect();
    Err(CompileError::new(CompileErrorKind::InvalidSchema { meta_schema: name, errors }, ""))
}
