//! [`FileRetriever`]: `file:` references under one directory.

use std::fs;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

use schemavm_compiler::retrieve::{DEFAULT_MAX_DOCUMENTS, Retrieve, RetrieveError, RetrieveErrorKind, Retrieved};
use schemavm_compiler::uri::{AbsoluteUri, UriRef, percent_decode};

use super::{DEFAULT_MAX_BYTES, parse_json};

/// Retrieves `file:` URIs whose path, after resolving `..` and symbolic
/// links, lies under a root directory. Made by
/// [`Retriever::files`](super::Retriever::files).
///
/// A path outside the root is refused without touching the file system
/// beyond the root (so a schema can't probe which files exist
/// elsewhere); a path inside it that is a symbolic link leading out is
/// refused after canonicalization. Only regular files are read, at most
/// `max_bytes` of them. The root is trusted: it should not be writable by
/// whoever writes the schemas (a concurrent swap of a directory for a
/// symbolic link between the check and the open is not guarded against).
#[derive(Debug, Clone)]
pub struct FileRetriever {
    root: PathBuf,
    max_bytes: u64,
    max_documents: usize,
}

impl FileRetriever {
    pub(crate) fn new(root: PathBuf) -> FileRetriever {
        FileRetriever { root, max_bytes: DEFAULT_MAX_BYTES, max_documents: DEFAULT_MAX_DOCUMENTS }
    }

    /// Largest file read, in bytes (default 1 MiB).
    pub fn max_bytes(mut self, bytes: u64) -> Self {
        self.max_bytes = bytes;
        self
    }

    /// Most files one build may read (default 64).
    pub fn max_documents(mut self, n: usize) -> Self {
        self.max_documents = n;
        self
    }

    /// The file path a `file:` URI names, percent-decoded.
    fn path_of(uri: &AbsoluteUri) -> Result<PathBuf, RetrieveError> {
        let refuse = |why: &str| RetrieveError::new(RetrieveErrorKind::NotAllowed, format!("{uri}: {why}"));
        let parts = UriRef::parse(uri.as_str()).map_err(|e| refuse(e.reason))?;
        match parts.authority {
            None | Some("") => {}
            Some(host) if host.eq_ignore_ascii_case("localhost") => {}
            Some(_) => return Err(refuse("file URIs naming another host are not supported")),
        }
        if parts.query.is_some() {
            return Err(refuse("file URIs with a query are not supported"));
        }
        let decoded = percent_decode(parts.path).ok_or_else(|| refuse("the path has a malformed %-escape"))?;
        if decoded.contains('\0') {
            return Err(refuse("the path contains a NUL byte"));
        }
        // `file:///C:/x` names `C:/x` on Windows.
        #[cfg(windows)]
        let decoded = match decoded.strip_prefix('/') {
            Some(rest) if rest.as_bytes().get(1) == Some(&b':') => rest.to_string(),
            _ => decoded,
        };
        let path = PathBuf::from(decoded);
        if !path.is_absolute() {
            return Err(refuse("the path is not absolute"));
        }
        Ok(path)
    }
}

/// `path` with `.` and `..` removed lexically (no file-system access).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

impl Retrieve for FileRetriever {
    fn supports(&self, uri: &AbsoluteUri) -> bool {
        uri.as_str().starts_with("file:")
    }

    fn retrieve(&self, uri: &AbsoluteUri) -> Result<Retrieved, RetrieveError> {
        if !self.supports(uri) {
            return Err(RetrieveError::new(RetrieveErrorKind::Unsupported, "only file: URIs"));
        }
        let root = fs::canonicalize(&self.root).map_err(|e| {
            RetrieveError::new(
                RetrieveErrorKind::NotFound,
                format!("the file retriever's root {} is not usable: {e}", self.root.display()),
            )
        })?;
        let outside = || {
            RetrieveError::new(
                RetrieveErrorKind::NotAllowed,
                format!("{uri} is outside the file retriever's root {}", root.display()),
            )
        };
        let path = Self::path_of(uri)?;
        // Before touching the file system: the path as written must be under
        // the root, as given or canonical.
        let written = lexical(&path);
        let given = std::path::absolute(&self.root).map(|p| lexical(&p)).unwrap_or_else(|_| root.clone());
        if !written.starts_with(&root) && !written.starts_with(&given) {
            return Err(outside());
        }
        let real = fs::canonicalize(&written).map_err(|e| io_error(uri, &e))?;
        if !real.starts_with(&root) {
            return Err(outside());
        }
        let meta = fs::metadata(&real).map_err(|e| io_error(uri, &e))?;
        if !meta.is_file() {
            return Err(RetrieveError::new(RetrieveErrorKind::NotAllowed, format!("{uri} is not a regular file")));
        }
        if meta.len() > self.max_bytes {
            return Err(too_large(uri, self.max_bytes));
        }
        let file = fs::File::open(&real).map_err(|e| io_error(uri, &e))?;
        let mut bytes = Vec::new();
        file.take(self.max_bytes.saturating_add(1)).read_to_end(&mut bytes).map_err(|e| io_error(uri, &e))?;
        if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > self.max_bytes {
            return Err(too_large(uri, self.max_bytes));
        }
        let document = parse_json(uri, &bytes, None)?;
        Ok(Retrieved { document, bytes: u64::try_from(bytes.len()).ok() })
    }

    fn max_documents(&self) -> usize {
        self.max_documents
    }

    fn name(&self) -> &str {
        "files"
    }
}

fn too_large(uri: &AbsoluteUri, max: u64) -> RetrieveError {
    RetrieveError::new(RetrieveErrorKind::TooLarge, format!("{uri} is larger than max_bytes ({max} bytes)"))
}

fn io_error(uri: &AbsoluteUri, e: &io::Error) -> RetrieveError {
    let kind = match e.kind() {
        io::ErrorKind::NotFound => RetrieveErrorKind::NotFound,
        _ => RetrieveErrorKind::Io,
    };
    RetrieveError::new(kind, format!("cannot read {uri}: {e}"))
}
