//! Retrieval of documents that a reference names but nobody registered.
//!
//! The compiler does no I/O. By default only the root schema, the
//! documents registered with `resource(uri, value)` and the embedded
//! meta-schemas resolve; any other external reference is a
//! [`CompileErrorKind::UnresolvableReference`](crate::CompileErrorKind).
//! A caller may opt in to retrieval by putting [`Retrieve`] implementations
//! in [`Retrieval::retrievers`]; the `schemavm` crate provides an HTTP(S)
//! and a file retriever. The registry asks them (in order) only for a
//! document URI that is neither registered, embedded nor the `$id` of a
//! resource inside a known document, and only while compiling: validation
//! never retrieves anything.
//!
//! Per build, each URI is retrieved at most once (later references use the
//! crawled document), each retriever supplies at most
//! [`Retrieve::max_documents`] documents, and every attempt is reported
//! to [`Retrieval::on_fetch`]. A retrieved document is subject to the same
//! compile [`Limits`](crate::Limits) as a registered one. `$schema` URIs are
//! never retrieved: a custom meta-schema must be registered.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::uri::AbsoluteUri;

/// How many documents a retriever supplies to one build unless it says
/// otherwise.
pub const DEFAULT_MAX_DOCUMENTS: usize = 64;

/// A source of documents for references that nothing registered: HTTP,
/// files, a database, embedded assets...
///
/// Implementations must be cheap to share between threads; one value
/// serves every build made with the options holding it.
pub trait Retrieve: Send + Sync {
    /// The document at `uri` (an absolute URI without fragment), or why it
    /// cannot be had. Return [`RetrieveErrorKind::Unsupported`] for URIs
    /// this retriever does not handle at all, so the next retriever is
    /// asked.
    fn retrieve(&self, uri: &AbsoluteUri) -> Result<Retrieved, RetrieveError>;

    /// Whether this retriever handles `uri` at all (by default, every
    /// URI). A retriever that does not is skipped without counting
    /// against its [`Retrieve::max_documents`].
    fn supports(&self, uri: &AbsoluteUri) -> bool {
        let _ = uri;
        true
    }

    /// Most documents this retriever may supply to one build (default
    /// [`DEFAULT_MAX_DOCUMENTS`]).
    fn max_documents(&self) -> usize {
        DEFAULT_MAX_DOCUMENTS
    }

    /// A short name for messages and the fetch log (`http`, `files`, ...).
    fn name(&self) -> &str {
        "custom"
    }
}

impl<T: Retrieve + ?Sized> Retrieve for Arc<T> {
    fn retrieve(&self, uri: &AbsoluteUri) -> Result<Retrieved, RetrieveError> {
        (**self).retrieve(uri)
    }
    fn supports(&self, uri: &AbsoluteUri) -> bool {
        (**self).supports(uri)
    }
    fn max_documents(&self) -> usize {
        (**self).max_documents()
    }
    fn name(&self) -> &str {
        (**self).name()
    }
}

impl<T: Retrieve + ?Sized> Retrieve for Box<T> {
    fn retrieve(&self, uri: &AbsoluteUri) -> Result<Retrieved, RetrieveError> {
        (**self).retrieve(uri)
    }
    fn supports(&self, uri: &AbsoluteUri) -> bool {
        (**self).supports(uri)
    }
    fn max_documents(&self) -> usize {
        (**self).max_documents()
    }
    fn name(&self) -> &str {
        (**self).name()
    }
}

/// A retrieved document.
#[derive(Debug, Clone)]
pub struct Retrieved {
    /// The document.
    pub document: Value,
    /// Its size in bytes as read, when the retriever knows it (for the
    /// fetch log).
    pub bytes: Option<u64>,
}

impl From<Value> for Retrieved {
    fn from(document: Value) -> Self {
        Retrieved { document, bytes: None }
    }
}

/// Why a document could not be retrieved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RetrieveErrorKind {
    /// The retriever does not handle this kind of URI (another retriever
    /// may).
    Unsupported,
    /// The URI is outside what the retriever may reach: not on the
    /// allowlist, a scheme not allowed, a path outside the file root.
    NotAllowed,
    /// The host resolved to an address that is refused (loopback,
    /// link-local, private, unique-local, multicast, unspecified, ...).
    ForbiddenAddress,
    /// The host name could not be resolved.
    Resolve,
    /// The connection (or TLS handshake) failed.
    Connect,
    /// No complete answer within the timeout.
    Timeout,
    /// The server answered with a status other than 200.
    Status,
    /// The server redirected and the redirect was not followed.
    Redirect,
    /// The document is larger than the size limit.
    TooLarge,
    /// The content is not JSON.
    NotJson,
    /// There is no such document (e.g. a missing file).
    NotFound,
    /// The build already retrieved as many documents as allowed.
    TooManyDocuments,
    /// Another I/O failure.
    Io,
    /// Any other failure (for caller-defined retrievers).
    Other,
}

/// A retrieval failure: its kind and a message for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetrieveError {
    kind: RetrieveErrorKind,
    message: String,
}

impl RetrieveError {
    /// An error of `kind`; `message` says what happened, e.g. `HTTP 404
    /// Not Found`.
    pub fn new(kind: RetrieveErrorKind, message: impl Into<String>) -> RetrieveError {
        RetrieveError { kind, message: message.into() }
    }

    /// The class of failure.
    pub fn kind(&self) -> RetrieveErrorKind {
        self.kind
    }

    /// What happened.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for RetrieveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RetrieveError {}

/// One retrieval attempt, as reported to [`Retrieval::on_fetch`].
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct FetchRecord<'r> {
    /// The document URI.
    pub uri: &'r str,
    /// The location of the reference that needed it (a bare `#/pointer`
    /// in a root schema without `$id`, as in compile errors).
    pub referrer: &'r str,
    /// The [`Retrieve::name`] of the retriever that handled the URI (or
    /// whose `max_documents` refused it).
    pub retriever: &'r str,
    /// Bytes read, when known.
    pub bytes: Option<u64>,
    /// Time the retriever took.
    pub elapsed: Duration,
    /// `None` on success, else the failure.
    pub error: Option<&'r RetrieveError>,
}

/// A fetch-log callback.
pub type FetchLog = Arc<dyn Fn(&FetchRecord<'_>) + Send + Sync>;

/// The retrieval configuration of [`CompileOptions`](crate::CompileOptions):
/// empty (the default) means no retrieval at all.
#[derive(Clone, Default)]
pub struct Retrieval {
    /// Retrievers, asked in order; the first that does not answer
    /// [`RetrieveErrorKind::Unsupported`] decides.
    pub retrievers: Vec<Arc<dyn Retrieve>>,
    /// Called after every retrieval attempt.
    pub on_fetch: Option<FetchLog>,
}

impl fmt::Debug for Retrieval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.retrievers.iter().map(|r| r.name()).collect();
        f.debug_struct("Retrieval").field("retrievers", &names).field("on_fetch", &self.on_fetch.is_some()).finish()
    }
}

impl Retrieval {
    /// Whether any retriever is configured.
    pub fn is_enabled(&self) -> bool {
        !self.retrievers.is_empty()
    }
}

/// Documents retrieved during one build. They must outlive the registry
/// that borrows them, so the build owns this and lends it out; values are
/// never moved once stored (append-only chunks of write-once cells).
pub(crate) struct Arena {
    first: Chunk,
}

struct Chunk {
    slots: Box<[OnceCell<Value>]>,
    next: OnceCell<Box<Chunk>>,
}

impl Chunk {
    fn with_capacity(n: usize) -> Chunk {
        Chunk { slots: (0..n).map(|_| OnceCell::new()).collect(), next: OnceCell::new() }
    }
}

impl Default for Arena {
    fn default() -> Self {
        Arena { first: Chunk::with_capacity(4) }
    }
}

impl Arena {
    /// Stores `value` and lends it for as long as the arena lives. Chunks
    /// double in size, so the chain stays short.
    fn alloc(&self, value: Value) -> &Value {
        let mut chunk = &self.first;
        loop {
            if let Some(slot) = chunk.slots.iter().find(|s| s.get().is_none()) {
                return slot.get_or_init(|| value);
            }
            let size = chunk.slots.len().saturating_mul(2);
            chunk = chunk.next.get_or_init(|| Box::new(Chunk::with_capacity(size)));
        }
    }
}

/// The retrieval state of one build: configuration, storage, counts and
/// cache.
pub(crate) struct Session<'a> {
    config: &'a Retrieval,
    arena: &'a Arena,
    /// Documents supplied so far, by retriever index.
    counts: Vec<usize>,
    /// Every URI asked for, with its outcome.
    cache: HashMap<AbsoluteUri, Result<&'a Value, RetrieveError>>,
}

impl<'a> Session<'a> {
    pub(crate) fn new(config: &'a Retrieval, arena: &'a Arena) -> Session<'a> {
        Session { config, arena, counts: vec![0; config.retrievers.len()], cache: HashMap::new() }
    }

    /// The document at `uri`: `Ok(None)` when retrieval is off, else what
    /// the first retriever handling the URI gave. `referrer` is the
    /// location of the reference, for the fetch log.
    pub(crate) fn fetch(&mut self, uri: &AbsoluteUri, referrer: &str) -> Result<Option<&'a Value>, RetrieveError> {
        if !self.config.is_enabled() {
            return Ok(None);
        }
        if let Some(cached) = self.cache.get(uri) {
            return cached.clone().map(Some);
        }
        let outcome = self.fetch_uncached(uri, referrer);
        self.cache.insert(uri.clone(), outcome.clone());
        outcome.map(Some)
    }

    fn fetch_uncached(&mut self, uri: &AbsoluteUri, referrer: &str) -> Result<&'a Value, RetrieveError> {
        let mut unsupported = Vec::new();
        for (i, retriever) in self.config.retrievers.iter().enumerate() {
            if !retriever.supports(uri) {
                unsupported.push(format!("{}: does not handle {}", retriever.name(), scheme_of(uri)));
                continue;
            }
            let count = self.counts.get(i).copied().unwrap_or(usize::MAX);
            let start = Instant::now();
            let result = if count >= retriever.max_documents() {
                Err(RetrieveError::new(
                    RetrieveErrorKind::TooManyDocuments,
                    format!(
                        "this build already retrieved {count} documents through the {} retriever, its \
                         max_documents; raise it or register the documents with ValidatorOptions::resource",
                        retriever.name()
                    ),
                ))
            } else {
                retriever.retrieve(uri)
            };
            let elapsed = start.elapsed();
            if let Err(e) = &result {
                if e.kind() == RetrieveErrorKind::Unsupported {
                    unsupported.push(format!("{}: {}", retriever.name(), e.message()));
                    continue;
                }
            }
            let bytes = result.as_ref().ok().and_then(|r| r.bytes);
            if let Some(log) = &self.config.on_fetch {
                log(&FetchRecord {
                    uri: uri.as_str(),
                    referrer: referrer.strip_prefix(crate::error::DEFAULT_BASE_URI).unwrap_or(referrer),
                    retriever: retriever.name(),
                    bytes,
                    elapsed,
                    error: result.as_ref().err(),
                });
            }
            let retrieved = result?;
            if let Some(c) = self.counts.get_mut(i) {
                *c = c.saturating_add(1);
            }
            return Ok(self.arena.alloc(retrieved.document));
        }
        let mut message = format!("no configured retriever handles this URI ({})", unsupported.join("; "));
        if uri.as_str().starts_with(crate::error::DEFAULT_BASE_URI) {
            message.push_str(
                "; it is a relative reference in a schema without an absolute $id: give the schema \
                 an $id or write the reference as an absolute URI",
            );
        }
        Err(RetrieveError::new(RetrieveErrorKind::Unsupported, message))
    }
}

/// `scheme:` URIs, for messages.
fn scheme_of(uri: &AbsoluteUri) -> String {
    match uri.as_str().split_once(':') {
        Some((scheme, _)) => format!("{scheme}: URIs"),
        None => "this URI".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::Mutex;

    #[test]
    fn arena_keeps_every_value_in_place() {
        let arena = Arena::default();
        let refs: Vec<&Value> = (0..100).map(|i| arena.alloc(json!(i))).collect();
        for (i, r) in refs.iter().enumerate() {
            assert_eq!(**r, json!(i));
        }
    }

    struct Counting {
        calls: Mutex<Vec<String>>,
        max: usize,
    }

    impl Retrieve for Counting {
        fn supports(&self, uri: &AbsoluteUri) -> bool {
            !uri.as_str().starts_with("tag:")
        }
        fn retrieve(&self, uri: &AbsoluteUri) -> Result<Retrieved, RetrieveError> {
            if let Ok(mut calls) = self.calls.lock() {
                calls.push(uri.to_string());
            }
            if uri.as_str().starts_with("urn:") {
                return Err(RetrieveError::new(RetrieveErrorKind::Unsupported, "urn: is not mine"));
            }
            Ok(Retrieved { document: json!({"type": "integer"}), bytes: Some(18) })
        }
        fn max_documents(&self) -> usize {
            self.max
        }
        fn name(&self) -> &str {
            "counting"
        }
    }

    #[test]
    fn session_caches_counts_and_logs() {
        let counting = Arc::new(Counting { calls: Mutex::new(Vec::new()), max: 2 });
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = log.clone();
        let config = Retrieval {
            retrievers: vec![counting.clone()],
            on_fetch: Some(Arc::new(move |r: &FetchRecord<'_>| {
                if let Ok(mut l) = sink.lock() {
                    l.push((r.uri.to_string(), r.bytes, r.error.map(|e| e.kind())));
                }
            })),
        };
        let arena = Arena::default();
        let mut session = Session::new(&config, &arena);
        let uri = |s: &str| AbsoluteUri::parse(s).unwrap();
        let err = session.fetch(&uri("urn:x"), "#").unwrap_err();
        assert_eq!(err.kind(), RetrieveErrorKind::Unsupported);
        assert!(err.message().contains("counting: urn: is not mine"), "{err}");
        let err = session.fetch(&uri("tag:x"), "#").unwrap_err();
        assert_eq!(err.kind(), RetrieveErrorKind::Unsupported);
        assert!(err.message().contains("counting: does not handle tag: URIs"), "{err}");
        assert!(session.fetch(&uri("https://a.example/1"), "#").unwrap().is_some());
        assert!(session.fetch(&uri("https://a.example/1"), "#").unwrap().is_some());
        assert!(session.fetch(&uri("https://a.example/2"), "#").unwrap().is_some());
        let err = session.fetch(&uri("https://a.example/3"), "#").unwrap_err();
        assert_eq!(err.kind(), RetrieveErrorKind::TooManyDocuments);
        assert_eq!(counting.calls.lock().unwrap().len(), 3, "cached URIs are not asked again");
        let log = log.lock().unwrap();
        assert_eq!(log.len(), 3, "{log:?}");
        assert_eq!(log[0], ("https://a.example/1".to_string(), Some(18), None), "unsupported URIs are not logged");
        assert_eq!(log[2].2, Some(RetrieveErrorKind::TooManyDocuments));
    }

    #[test]
    fn disabled_session_retrieves_nothing() {
        let config = Retrieval::default();
        let arena = Arena::default();
        let mut session = Session::new(&config, &arena);
        assert!(session.fetch(&AbsoluteUri::parse("https://a.example/").unwrap(), "#").unwrap().is_none());
    }
}
