//! Opt-in retrieval of `$ref` documents nobody registered.
//!
//! By default schemavm does no I/O: only the embedded meta-schemas and the
//! documents registered with [`ValidatorOptions::resource`](crate::ValidatorOptions::resource)
//! resolve, and any other external reference is a
//! [`CompileErrorKind::UnresolvableReference`](crate::CompileErrorKind). A
//! caller may add retrievers with
//! [`ValidatorOptions::retriever`](crate::ValidatorOptions::retriever):
//!
//! - [`Retriever::http`] (feature `remote`): `http(s)` URIs on an
//!   allowlist, with address checks, timeouts and size limits;
//! - [`Retriever::files`]: `file:` URIs under one directory;
//! - [`Retriever::from_fn`] or any [`Retrieve`] implementation (a
//!   database, embedded assets).
//!
//! Retrieval happens only while a schema compiles, at most once per
//! document per build; a failure is a
//! [`CompileErrorKind::RetrievalFailed`](crate::CompileErrorKind) naming
//! the URI, the referring location and what went wrong. `$schema` URIs are
//! never retrieved (register custom meta-schemas).

#[cfg(feature = "remote")]
pub mod address;
mod files;
#[cfg(feature = "remote")]
mod http;

use std::fmt;
use std::path::PathBuf;

use serde_json::Value;

pub use files::FileRetriever;
#[cfg(feature = "remote")]
pub use http::{HttpRetriever, ResolveFn};
pub use schemavm_compiler::retrieve::{
    DEFAULT_MAX_DOCUMENTS, FetchRecord, Retrieve, RetrieveError, RetrieveErrorKind, Retrieved,
};
pub use schemavm_compiler::uri::AbsoluteUri;

/// Largest document the built-in retrievers read unless told otherwise
/// (1 MiB).
pub const DEFAULT_MAX_BYTES: u64 = 1 << 20;

/// Constructors of the built-in retrievers.
#[derive(Debug, Clone, Copy)]
pub struct Retriever;

impl Retriever {
    /// An HTTP(S) retriever that fetches nothing until URL prefixes are
    /// [allowed](HttpRetriever::allow).
    #[cfg(feature = "remote")]
    pub fn http() -> HttpRetriever {
        HttpRetriever::new()
    }

    /// A retriever of `file:` URIs under `root` (after resolving `..` and
    /// symbolic links).
    pub fn files(root: impl Into<PathBuf>) -> FileRetriever {
        FileRetriever::new(root.into())
    }

    /// A retriever from a function, e.g. over a database or embedded
    /// assets. Return [`RetrieveErrorKind::Unsupported`] for URIs it does
    /// not handle (so another retriever is asked) and
    /// [`RetrieveErrorKind::NotFound`] for missing documents.
    ///
    /// ```
    /// use schemavm::{RetrieveError, RetrieveErrorKind, Retriever, Validator};
    /// use serde_json::json;
    ///
    /// let assets = Retriever::from_fn("assets", |uri| match uri.as_str() {
    ///     "urn:example:id" => Ok(json!({"type": "integer", "minimum": 1})),
    ///     other => Err(RetrieveError::new(RetrieveErrorKind::NotFound, format!("no asset {other}"))),
    /// });
    /// let v = Validator::options().retriever(assets).build(&json!({"$ref": "urn:example:id"}))?;
    /// assert!(v.is_valid(&json!(3)) && !v.is_valid(&json!(0)));
    /// # Ok::<(), schemavm::CompileError>(())
    /// ```
    pub fn from_fn<F>(name: impl Into<String>, f: F) -> FnRetriever<F>
    where
        F: Fn(&AbsoluteUri) -> Result<Value, RetrieveError> + Send + Sync,
    {
        FnRetriever { name: name.into(), f, max_documents: DEFAULT_MAX_DOCUMENTS }
    }
}

/// A retriever made of a function ([`Retriever::from_fn`]).
pub struct FnRetriever<F> {
    name: String,
    f: F,
    max_documents: usize,
}

impl<F> FnRetriever<F> {
    /// Most documents one build may take from it (default 64).
    pub fn max_documents(mut self, n: usize) -> Self {
        self.max_documents = n;
        self
    }
}

impl<F> fmt::Debug for FnRetriever<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FnRetriever").field("name", &self.name).field("max_documents", &self.max_documents).finish()
    }
}

impl<F> Retrieve for FnRetriever<F>
where
    F: Fn(&AbsoluteUri) -> Result<Value, RetrieveError> + Send + Sync,
{
    fn retrieve(&self, uri: &AbsoluteUri) -> Result<Retrieved, RetrieveError> {
        (self.f)(uri).map(Retrieved::from)
    }

    fn max_documents(&self) -> usize {
        self.max_documents
    }

    fn name(&self) -> &str {
        &self.name
    }
}

/// Parses retrieved bytes as JSON, with an error that says where it broke.
fn parse_json(uri: &AbsoluteUri, bytes: &[u8], content_type: Option<&str>) -> Result<Value, RetrieveError> {
    serde_json::from_slice(bytes).map_err(|e| {
        let what = match content_type {
            Some(t) => format!(" (content type {t:?})"),
            None => String::new(),
        };
        RetrieveError::new(RetrieveErrorKind::NotJson, format!("the content of {uri}{what} is not JSON: {e}"))
    })
}
