//! schemavm: JSON Schema compiled to bytecode, run by a bounded VM.
//!
//! SKELETON: the public API surface; bodies land with the core engine.

pub mod format;

use serde_json::Value;

pub use schemavm_compiler::{CompileError, Draft};

/// A compiled schema, ready to validate instances. `Send + Sync`, cheap to clone.
#[derive(Debug, Clone)]
pub struct Validator {
    _private: (),
}

/// Builder for a [`Validator`] with non-default options.
#[derive(Debug, Clone, Default)]
pub struct ValidatorOptions {
    draft: Option<Draft>,
    assert_formats: Option<bool>,
    resources: Vec<(String, Value)>,
}

impl ValidatorOptions {
    /// The dialect used when the schema has no `$schema`.
    pub fn draft(mut self, draft: Draft) -> Self {
        self.draft = Some(draft);
        self
    }
    /// Whether `format` is asserted (true) or only annotated (false).
    pub fn assert_formats(mut self, yes: bool) -> Self {
        self.assert_formats = Some(yes);
        self
    }
    /// Registers a document under `uri` so `$ref`s can reach it (no I/O).
    pub fn resource(mut self, uri: impl Into<String>, document: Value) -> Self {
        self.resources.push((uri.into(), document));
        self
    }
    /// Compiles `schema` with these options.
    pub fn build(&self, _schema: &Value) -> Result<Validator, CompileError> {
        Err(CompileError::unimplemented())
    }
}

/// One way an instance fails its schema.
#[derive(Debug, Clone)]
pub struct ValidationError {
    message: String,
}

impl std::fmt::Display for ValidationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ValidationError {}

impl Validator {
    /// Compiles `schema` with default options.
    pub fn new(schema: &Value) -> Result<Validator, CompileError> {
        Validator::options().build(schema)
    }
    /// Starts a [`ValidatorOptions`] builder.
    pub fn options() -> ValidatorOptions {
        ValidatorOptions::default()
    }
    /// Whether `instance` is valid.
    pub fn is_valid(&self, _instance: &Value) -> bool {
        false
    }
    /// The first error, if any.
    pub fn validate(&self, _instance: &Value) -> Result<(), ValidationError> {
        Err(ValidationError { message: "not implemented".into() })
    }
    /// Every error.
    pub fn iter_errors(&self, _instance: &Value) -> std::vec::IntoIter<ValidationError> {
        Vec::new().into_iter()
    }
}
