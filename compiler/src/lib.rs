//! schemavm-compiler: JSON Schema documents in, schemavm bytecode out.

pub mod format;
pub mod regex;

pub use format::Format;

/// A JSON Schema dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Draft {
    /// JSON Schema draft-04.
    Draft4,
    /// JSON Schema draft-06.
    Draft6,
    /// JSON Schema draft-07.
    Draft7,
    /// JSON Schema 2019-09.
    Draft201909,
    /// JSON Schema 2020-12.
    Draft202012,
}

/// A schema that could not be compiled.
#[derive(Debug, Clone)]
pub struct CompileError {
    message: String,
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CompileError {}

impl CompileError {
    /// Interim constructor used by the skeleton.
    pub fn unimplemented() -> CompileError {
        CompileError { message: "compiler not implemented yet".into() }
    }
}
