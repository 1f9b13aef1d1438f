//! schemavm-compiler: JSON Schema documents in, schemavm bytecode out.
//!
//! The pipeline:
//!
//! 1. [`registry`]: the documents (root schema, caller-registered
//!    resources, embedded meta-schemas), their resources, anchors and
//!    dialects. No I/O: documents nobody registered are asked of the
//!    caller's [`retrieve::Retrieve`] implementations, if any.
//! 2. `compile`: lowering of every reachable subschema into a node of
//!    fused instructions ([`bytecode`]), references resolved to direct
//!    node calls; then whole-program analysis.
//! 3. The `schemavm` crate's VM runs the [`Program`].

// Module docs walk through the pipeline with links to its private stages
// (rendered with `cargo doc --document-private-items`).
#![allow(rustdoc::private_intra_doc_links)]

pub mod bytecode;
pub mod bytes;
mod compile;
pub mod draft;
pub mod error;
pub mod format;
pub mod hash;
mod keyword;
pub mod lookup;
pub mod metaschema;
pub mod number;
pub mod options;
pub mod pointer;
pub mod regex;
mod registry;
pub mod retrieve;
pub mod uri;
pub mod value;

pub use bytecode::Program;
pub use compile::{CheckedSchema, check_depth, compile, compile_checked};
pub use draft::{Draft, Vocabularies};
pub use error::{CompileError, CompileErrorKind};
pub use format::Format;
pub use options::{CompileOptions, Limits};
pub use retrieve::{FetchRecord, Retrieval, Retrieve, RetrieveError, RetrieveErrorKind, Retrieved};
