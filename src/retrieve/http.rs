//! [`HttpRetriever`]: allowlisted HTTP(S) retrieval, built on ureq.
//!
//! For each document (and each redirect hop, when redirects are
//! followed): the URL is parsed strictly and matched against the
//! allowlist; the host is resolved once (system DNS in a helper thread
//! bounded by the timeout, or the caller's [`ResolveFn`]); every address
//! is checked ([`super::address::refused`]); then ureq
//! is given a resolver that answers only with those checked addresses,
//! no proxy, no automatic redirects, one deadline for connect, TLS and
//! reading, and a body limit enforced while the body streams in.

use std::fmt;
use std::io;
use std::net::{IpAddr, Ipv6Addr, SocketAddr, ToSocketAddrs};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use schemavm_compiler::retrieve::{DEFAULT_MAX_DOCUMENTS, Retrieve, RetrieveError, RetrieveErrorKind, Retrieved};
use schemavm_compiler::uri::{AbsoluteUri, UriRef, percent_decode};
use ureq::config::Config;
use ureq::http::Uri;
use ureq::unversioned::resolver::{ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

use super::{DEFAULT_MAX_BYTES, address, parse_json};

/// A host-name lookup: `(host, port)` to addresses. The answers are
/// checked like those of the system resolver.
pub type ResolveFn = Arc<dyn Fn(&str, u16) -> io::Result<Vec<SocketAddr>> + Send + Sync>;

/// Most addresses kept from one lookup (ureq's own limit).
const MAX_ADDRESSES: usize = 16;

/// Retrieves `http(s)` URIs on an allowlist. Made by
/// [`Retriever::http`](super::Retriever::http); fetches nothing until
/// prefixes are [allowed](HttpRetriever::allow).
///
/// Defaults: timeout 10 s (connect and read together), `max_bytes` 1 MiB,
/// `max_documents` 64, no redirects, non-public addresses refused.
#[derive(Clone)]
pub struct HttpRetriever {
    allow: Vec<Result<Location, String>>,
    timeout: Duration,
    max_bytes: u64,
    max_documents: usize,
    redirects: u32,
    allow_private: bool,
    resolve: Option<ResolveFn>,
}

impl fmt::Debug for HttpRetriever {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let allow: Vec<String> = self
            .allow
            .iter()
            .map(|a| match a {
                Ok(l) => l.url(),
                Err(e) => format!("invalid: {e}"),
            })
            .collect();
        f.debug_struct("HttpRetriever")
            .field("allow", &allow)
            .field("timeout", &self.timeout)
            .field("max_bytes", &self.max_bytes)
            .field("max_documents", &self.max_documents)
            .field("follow_redirects", &self.redirects)
            .field("allow_private_addresses", &self.allow_private)
            .field("custom_resolver", &self.resolve.is_some())
            .finish()
    }
}

impl HttpRetriever {
    pub(crate) fn new() -> HttpRetriever {
        HttpRetriever {
            allow: Vec::new(),
            timeout: Duration::from_secs(10),
            max_bytes: DEFAULT_MAX_BYTES,
            max_documents: DEFAULT_MAX_DOCUMENTS,
            redirects: 0,
            allow_private: false,
            resolve: None,
        }
    }

    /// Allows URLs under `prefix`: `scheme://host[:port][/path-prefix]`.
    /// The scheme, host and port must match exactly (`https://h/` admits
    /// neither `http://h/` nor `https://h:8443/`); the path must equal the
    /// prefix or continue it at a `/` (a prefix ending in `/` admits
    /// everything below it). `http` is admitted only by entries that
    /// name `http://`. Repeatable. An invalid entry makes every
    /// retrieval fail with a message naming it.
    pub fn allow(mut self, prefix: impl AsRef<str>) -> Self {
        let prefix = prefix.as_ref();
        let entry = Location::parse(prefix).and_then(|l| {
            if l.query.is_some() || prefix.contains('#') {
                Err("an allowlist entry has no query or fragment")
            } else {
                Ok(l)
            }
        });
        self.allow.push(entry.map_err(|why| format!("the allowlist entry {prefix:?} is invalid: {why}")));
        self
    }

    /// Time allowed for each document, from name lookup through connect,
    /// TLS, request and reading the whole body, redirects included
    /// (default 10 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Largest body read, in bytes (default 1 MiB); enforced while
    /// reading, and up front when the server declares a larger length.
    pub fn max_bytes(mut self, bytes: u64) -> Self {
        self.max_bytes = bytes;
        self
    }

    /// Most documents one build may fetch (default 64).
    pub fn max_documents(mut self, n: usize) -> Self {
        self.max_documents = n;
        self
    }

    /// Follows up to `hops` redirects per document (default 0: a redirect
    /// is an error). Each target is checked against the allowlist and the
    /// address rules again.
    pub fn follow_redirects(mut self, hops: u32) -> Self {
        self.redirects = hops;
        self
    }

    /// Allows connecting to loopback, private, link-local and other
    /// non-public addresses (for tests and trusted internal networks).
    pub fn allow_private_addresses(mut self) -> Self {
        self.allow_private = true;
        self
    }

    /// Looks host names up with `resolve` instead of the system resolver
    /// (e.g. a fixed table); the answers are still checked, and the
    /// connection still goes only to them.
    pub fn resolve_with(
        mut self,
        resolve: impl Fn(&str, u16) -> io::Result<Vec<SocketAddr>> + Send + Sync + 'static,
    ) -> Self {
        self.resolve = Some(Arc::new(resolve));
        self
    }

    /// Parses `text` and checks it against the allowlist.
    fn admit(&self, text: &str) -> Result<Location, RetrieveError> {
        let not_allowed = |message: String| RetrieveError::new(RetrieveErrorKind::NotAllowed, message);
        if let Some(Err(invalid)) = self.allow.iter().find(|a| a.is_err()) {
            return Err(not_allowed(invalid.clone()));
        }
        let location = Location::parse(text).map_err(|why| not_allowed(format!("{text} is refused: {why}")))?;
        if self.allow.iter().flatten().any(|entry| entry.admits(&location)) {
            return Ok(location);
        }
        let allowed: Vec<String> = self.allow.iter().flatten().map(Location::url).collect();
        let mut message = if allowed.is_empty() {
            format!(
                "{text} is not on the http retriever's allowlist, which is empty (add URL prefixes with \
                 HttpRetriever::allow)"
            )
        } else {
            format!("{text} is not on the http retriever's allowlist ({})", allowed.join(", "))
        };
        if location.scheme == "http" {
            let as_https =
                Location { scheme: "https", port: if location.port == 80 { 443 } else { location.port }, ..location };
            if self.allow.iter().flatten().any(|entry| entry.admits(&as_https)) {
                message.push_str("; plain http is refused unless an allowlist entry names http:// explicitly");
            }
        }
        Err(not_allowed(message))
    }

    /// The checked addresses of `location`'s host.
    fn addresses(&self, location: &Location, deadline: Instant) -> Result<Vec<SocketAddr>, RetrieveError> {
        let host = location.bare_host();
        let literal = host.parse::<IpAddr>().ok();
        let mut found = match literal {
            Some(ip) => vec![SocketAddr::new(ip, location.port)],
            None => self.lookup(host, location.port, deadline)?,
        };
        let mut seen = std::collections::HashSet::new();
        found.retain(|a| seen.insert(*a));
        if found.is_empty() {
            return Err(RetrieveError::new(RetrieveErrorKind::Resolve, format!("{host} has no address")));
        }
        if !self.allow_private {
            for a in &found {
                if let Some(why) = address::refused(a.ip()) {
                    let what = match literal {
                        Some(ip) => format!("{ip} is {why}"),
                        None => format!("{host} resolves to {}, {why}", a.ip()),
                    };
                    return Err(RetrieveError::new(
                        RetrieveErrorKind::ForbiddenAddress,
                        format!(
                            "{what}: refused (HttpRetriever::allow_private_addresses() allows non-public \
                             addresses)"
                        ),
                    ));
                }
            }
        }
        found.truncate(MAX_ADDRESSES);
        Ok(found)
    }

    /// One lookup, in a helper thread so the deadline bounds it.
    fn lookup(&self, host: &str, port: u16, deadline: Instant) -> Result<Vec<SocketAddr>, RetrieveError> {
        let remaining = remaining(deadline, self.timeout)?;
        let (tx, rx) = mpsc::sync_channel(1);
        let name = host.to_string();
        let custom = self.resolve.clone();
        thread::Builder::new()
            .name("schemavm-dns".into())
            .spawn(move || {
                let answer = match custom {
                    Some(f) => f(&name, port),
                    None => (name.as_str(), port).to_socket_addrs().map(Iterator::collect),
                };
                let _ = tx.send(answer);
            })
            .map_err(|e| RetrieveError::new(RetrieveErrorKind::Io, format!("cannot start a lookup of {host}: {e}")))?;
        match rx.recv_timeout(remaining) {
            Ok(Ok(addrs)) => Ok(addrs),
            Ok(Err(e)) => Err(RetrieveError::new(RetrieveErrorKind::Resolve, format!("cannot resolve {host}: {e}"))),
            Err(mpsc::RecvTimeoutError::Timeout) => Err(timed_out(self.timeout)),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                Err(RetrieveError::new(RetrieveErrorKind::Resolve, format!("the lookup of {host} failed")))
            }
        }
    }

    /// Sends the request to the checked addresses only.
    fn request(
        &self,
        location: &Location,
        addrs: Vec<SocketAddr>,
        deadline: Instant,
    ) -> Result<ureq::http::Response<ureq::Body>, RetrieveError> {
        let url = location.url();
        // ureq parses the URL again: it must see the host and port we checked.
        let parsed: Uri = url.parse().map_err(|e| {
            RetrieveError::new(RetrieveErrorKind::NotAllowed, format!("{url} is refused: not a valid URL ({e})"))
        })?;
        let (host, port) = host_port(&parsed);
        if host.as_deref() != Some(location.bare_host()) || port != Some(location.port) {
            return Err(RetrieveError::new(RetrieveErrorKind::NotAllowed, format!("{url} is refused: ambiguous host")));
        }
        let config = Config::builder()
            .proxy(None)
            .max_redirects(0)
            .http_status_as_error(false)
            .timeout_global(Some(remaining(deadline, self.timeout)?))
            .user_agent(concat!("schemavm/", env!("CARGO_PKG_VERSION")))
            .accept("application/schema+json, application/json")
            .build();
        let pinned = Pinned { host: location.bare_host().to_string(), port: location.port, addrs };
        let agent = ureq::Agent::with_parts(config, DefaultConnector::new(), pinned);
        agent.get(&url).call().map_err(|e| self.transport_error(&url, e))
    }

    fn transport_error(&self, url: &str, e: ureq::Error) -> RetrieveError {
        match e {
            ureq::Error::Timeout(_) => timed_out(self.timeout),
            ureq::Error::Io(io) if matches!(io.kind(), io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock) => {
                timed_out(self.timeout)
            }
            ureq::Error::BodyExceedsLimit(_) => too_large(url, self.max_bytes),
            ureq::Error::Io(io) => {
                let kind = match io.kind() {
                    io::ErrorKind::ConnectionRefused
                    | io::ErrorKind::ConnectionReset
                    | io::ErrorKind::ConnectionAborted
                    | io::ErrorKind::HostUnreachable
                    | io::ErrorKind::NetworkUnreachable => RetrieveErrorKind::Connect,
                    _ => RetrieveErrorKind::Io,
                };
                let what = if kind == RetrieveErrorKind::Connect { "cannot connect to" } else { "I/O error with" };
                RetrieveError::new(kind, format!("{what} {url}: {io}"))
            }
            ureq::Error::ConnectionFailed | ureq::Error::HostNotFound => {
                RetrieveError::new(RetrieveErrorKind::Connect, format!("cannot connect to {url}: {e}"))
            }
            ureq::Error::Tls(_) | ureq::Error::Rustls(_) => {
                RetrieveError::new(RetrieveErrorKind::Connect, format!("TLS with {url} failed: {e}"))
            }
            other => RetrieveError::new(RetrieveErrorKind::Io, format!("HTTP error with {url}: {other}")),
        }
    }

    /// Fetches one document, following redirects as configured.
    fn fetch(&self, uri: &AbsoluteUri) -> Result<Retrieved, RetrieveError> {
        let deadline = Instant::now().checked_add(self.timeout).unwrap_or_else(far_future);
        let mut location = self.admit(uri.as_str())?;
        let mut hops = 0;
        loop {
            let addrs = self.addresses(&location, deadline)?;
            let response = self.request(&location, addrs, deadline)?;
            let status = response.status();
            let url = location.url();
            if status.is_redirection() && status.as_u16() != 304 {
                let target = response.headers().get("location").and_then(|v| v.to_str().ok()).ok_or_else(|| {
                    RetrieveError::new(
                        RetrieveErrorKind::Redirect,
                        format!("{url} answered HTTP {} without a usable Location header", status.as_u16()),
                    )
                })?;
                if self.redirects == 0 {
                    return Err(RetrieveError::new(
                        RetrieveErrorKind::Redirect,
                        format!(
                            "{url} redirects (HTTP {}) to {target}; redirects are not followed \
                             (HttpRetriever::follow_redirects(n) follows up to n, each checked against the \
                             allowlist)",
                            status.as_u16()
                        ),
                    ));
                }
                if hops >= self.redirects {
                    return Err(RetrieveError::new(
                        RetrieveErrorKind::Redirect,
                        format!("{uri}: more than {} redirects (the last to {target})", self.redirects),
                    ));
                }
                let base = AbsoluteUri::parse(&url)
                    .map_err(|e| RetrieveError::new(RetrieveErrorKind::Redirect, format!("{url}: {}", e.reason)))?;
                let (next, _fragment) = base.resolve(target).map_err(|e| {
                    RetrieveError::new(
                        RetrieveErrorKind::Redirect,
                        format!("{url} redirects to {target:?}, which is not a URI reference: {}", e.reason),
                    )
                })?;
                location = self.admit(next.as_str()).map_err(|e| {
                    RetrieveError::new(e.kind(), format!("the redirect from {url} to {next} is refused: {e}"))
                })?;
                hops += 1;
                continue;
            }
            if status.as_u16() != 200 {
                let reason = status.canonical_reason().unwrap_or("");
                return Err(RetrieveError::new(
                    RetrieveErrorKind::Status,
                    format!("{url} answered HTTP {} {reason}", status.as_u16()).trim_end().to_string(),
                ));
            }
            let content_type = response.headers().get("content-type").and_then(|v| v.to_str().ok()).map(str::to_string);
            if response.body().content_length().is_some_and(|n| n > self.max_bytes) {
                return Err(too_large(&url, self.max_bytes));
            }
            let bytes = response
                .into_body()
                .into_with_config()
                .limit(self.max_bytes)
                .read_to_vec()
                .map_err(|e| self.transport_error(&url, e))?;
            let document = parse_json(uri, &bytes, content_type.as_deref())?;
            return Ok(Retrieved { document, bytes: u64::try_from(bytes.len()).ok() });
        }
    }
}

impl Retrieve for HttpRetriever {
    fn supports(&self, uri: &AbsoluteUri) -> bool {
        let s = uri.as_str();
        s.starts_with("https:") || s.starts_with("http:")
    }

    fn retrieve(&self, uri: &AbsoluteUri) -> Result<Retrieved, RetrieveError> {
        if !self.supports(uri) {
            return Err(RetrieveError::new(RetrieveErrorKind::Unsupported, "only http: and https: URIs"));
        }
        self.fetch(uri)
    }

    fn max_documents(&self) -> usize {
        self.max_documents
    }

    fn name(&self) -> &str {
        "http"
    }
}

/// A resolver that answers only for the checked host, with the checked
/// addresses, so nothing is looked up twice (no DNS rebinding between the
/// check and the connection).
#[derive(Debug)]
struct Pinned {
    host: String,
    port: u16,
    addrs: Vec<SocketAddr>,
}

impl Resolver for Pinned {
    fn resolve(&self, uri: &Uri, _config: &Config, _timeout: NextTimeout) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let (host, port) = host_port(uri);
        if host.as_deref() != Some(self.host.as_str()) || port != Some(self.port) {
            return Err(ureq::Error::HostNotFound);
        }
        let mut out = self.empty();
        for a in self.addrs.iter().take(MAX_ADDRESSES) {
            out.push(*a);
        }
        if out.is_empty() {
            return Err(ureq::Error::HostNotFound);
        }
        Ok(out)
    }
}

/// The host (lowercase, IPv6 without brackets) and port ureq sees in `uri`.
fn host_port(uri: &Uri) -> (Option<String>, Option<u16>) {
    let host = uri.host().map(|h| h.trim_start_matches('[').trim_end_matches(']').to_ascii_lowercase());
    let port = uri.port_u16().or(match uri.scheme_str() {
        Some("https") => Some(443),
        Some("http") => Some(80),
        _ => None,
    });
    (host, port)
}

fn remaining(deadline: Instant, timeout: Duration) -> Result<Duration, RetrieveError> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() { Err(timed_out(timeout)) } else { Ok(left) }
}

fn far_future() -> Instant {
    let now = Instant::now();
    now.checked_add(Duration::from_secs(365 * 24 * 3600)).unwrap_or(now)
}

fn timed_out(timeout: Duration) -> RetrieveError {
    RetrieveError::new(
        RetrieveErrorKind::Timeout,
        format!("no complete answer within the timeout ({} ms, connect and read together)", timeout.as_millis()),
    )
}

fn too_large(url: &str, max: u64) -> RetrieveError {
    RetrieveError::new(RetrieveErrorKind::TooLarge, format!("{url}: the body exceeds max_bytes ({max} bytes)"))
}

/// An `http(s)` URL, strictly parsed: what the allowlist and the request
/// both use.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Location {
    scheme: &'static str,
    /// Lowercase; an IPv6 literal in brackets, in canonical form.
    host: String,
    port: u16,
    path: String,
    query: Option<String>,
}

impl Location {
    fn parse(text: &str) -> Result<Location, &'static str> {
        let r = UriRef::parse(text).map_err(|e| e.reason)?;
        let scheme = match r.scheme.map(str::to_ascii_lowercase).as_deref() {
            Some("https") => "https",
            Some("http") => "http",
            _ => return Err("not an http:// or https:// URL"),
        };
        let authority = r.authority.filter(|a| !a.is_empty()).ok_or("it has no host")?;
        if authority.contains('@') {
            return Err("user information (user@host) is not allowed");
        }
        let (host, port) = split_host_port(authority)?;
        let port = match port {
            None | Some("") => default_port(scheme),
            Some(p) if p.bytes().all(|b| b.is_ascii_digit()) => match p.parse::<u16>() {
                Ok(n) if n > 0 => n,
                _ => return Err("the port is out of range"),
            },
            Some(_) => return Err("the port is not a number"),
        };
        let path = if r.path.is_empty() { "/" } else { r.path };
        for segment in path.split('/') {
            let decoded = percent_decode(segment).ok_or("the path has a malformed %-escape")?;
            if decoded == "." || decoded == ".." || decoded.contains(['/', '\\']) {
                return Err("the path has a dot segment or an encoded separator");
            }
        }
        Ok(Location { scheme, host, port, path: path.to_string(), query: r.query.map(str::to_string) })
    }

    fn bare_host(&self) -> &str {
        self.host.trim_start_matches('[').trim_end_matches(']')
    }

    fn admits(&self, target: &Location) -> bool {
        self.scheme == target.scheme
            && self.host == target.host
            && self.port == target.port
            && (if self.path.ends_with('/') {
                target.path.starts_with(&self.path)
            } else {
                target.path == self.path
                    || target.path.strip_prefix(&self.path).is_some_and(|rest| rest.starts_with('/'))
            })
    }

    fn url(&self) -> String {
        let mut out = format!("{}://{}", self.scheme, self.host);
        if self.port != default_port(self.scheme) {
            out.push_str(&format!(":{}", self.port));
        }
        out.push_str(&self.path);
        if let Some(q) = &self.query {
            out.push('?');
            out.push_str(q);
        }
        out
    }
}

fn default_port(scheme: &str) -> u16 {
    if scheme == "https" { 443 } else { 80 }
}

fn split_host_port(authority: &str) -> Result<(String, Option<&str>), &'static str> {
    if let Some(rest) = authority.strip_prefix('[') {
        let (inside, after) = rest.split_once(']').ok_or("the IPv6 literal is not closed")?;
        let ip: Ipv6Addr = inside.parse().map_err(|_| "the IPv6 literal is invalid")?;
        let port = match after {
            "" => None,
            _ => Some(after.strip_prefix(':').ok_or("unexpected text after the IPv6 literal")?),
        };
        return Ok((format!("[{ip}]"), port));
    }
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (authority, None),
    };
    if host.is_empty() || !host.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.') {
        return Err("the host must be an ASCII name or IP address (no %-escapes; write IDNs in punycode)");
    }
    Ok((host.to_ascii_lowercase(), port))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(s: &str) -> Location {
        Location::parse(s).unwrap()
    }

    #[test]
    fn parsing_is_strict() {
        assert_eq!(loc("HTTPS://Schemas.Example.COM").url(), "https://schemas.example.com/");
        assert_eq!(loc("https://h:443/a").url(), "https://h/a");
        assert_eq!(loc("http://[0:0::1]:8080/x?y=1").url(), "http://[::1]:8080/x?y=1");
        for bad in [
            "ftp://h/",
            "https:///x",
            "https://user@h/",
            "https://h@evil.example/",
            "https://h:99999/",
            "https://h:0/",
            "https://h:x/",
            "https://h%2eevil/",
            "https://h\u{e9}/",
            "https://[::1/",
            "https://[::1]x/",
            "https://h/a/%2e%2e/b",
            "https://h/a/%2E/b",
            "https://h/a%2fb",
            "https://h/a%5cb",
            "https://h/a%zz",
        ] {
            assert!(Location::parse(bad).is_err(), "{bad} must be refused");
        }
    }

    #[test]
    fn prefixes_match_whole_segments() {
        let entry = loc("https://h/schemas");
        assert!(entry.admits(&loc("https://h/schemas")));
        assert!(entry.admits(&loc("https://h/schemas/a.json")));
        assert!(!entry.admits(&loc("https://h/schemas-evil/a.json")));
        assert!(!entry.admits(&loc("https://h/other")));
        let entry = loc("https://h/schemas/");
        assert!(entry.admits(&loc("https://h/schemas/a.json")));
        assert!(!entry.admits(&loc("https://h/schemas")));
        let root = loc("https://h");
        assert!(root.admits(&loc("https://h/anything?q=1")));
        assert!(!root.admits(&loc("http://h/anything")), "https entries do not admit http");
        assert!(!root.admits(&loc("https://h:8443/anything")), "ports must match");
        assert!(!root.admits(&loc("https://h.evil.example/")), "hosts must match exactly");
        assert!(!root.admits(&loc("https://sub.h/")), "no subdomains");
    }

    #[test]
    fn invalid_entries_fail_every_retrieval() {
        let r = HttpRetriever::new().allow("https://ok.example/").allow("ftp://x/");
        let err = r.admit("https://ok.example/a.json").unwrap_err();
        assert_eq!(err.kind(), RetrieveErrorKind::NotAllowed);
        assert!(err.message().contains("\"ftp://x/\" is invalid"), "{err}");
        let err = HttpRetriever::new().allow("https://h/?q").admit("https://h/").unwrap_err();
        assert!(err.message().contains("no query or fragment"), "{err}");
    }

    #[test]
    fn every_answer_is_checked_before_connecting() {
        // No I/O: the lookup is a fixed table, and the refusal comes first.
        let r = HttpRetriever::new()
            .allow("https://schemas.test/")
            .resolve_with(|_, p| Ok(vec![SocketAddr::from(([8, 8, 8, 8], p)), SocketAddr::from(([10, 1, 2, 3], p))]));
        let deadline = Instant::now() + Duration::from_secs(5);
        let err = r.addresses(&loc("https://schemas.test/a.json"), deadline).unwrap_err();
        assert_eq!(err.kind(), RetrieveErrorKind::ForbiddenAddress);
        assert_eq!(
            err.message(),
            "schemas.test resolves to 10.1.2.3, a private (10.0.0.0/8) address: refused \
             (HttpRetriever::allow_private_addresses() allows non-public addresses)"
        );
        let r = HttpRetriever::new()
            .resolve_with(|_, p| Ok(vec![SocketAddr::from(([8, 8, 8, 8], p)), SocketAddr::from(([8, 8, 8, 8], p))]));
        let ok = r.addresses(&loc("https://schemas.test/a.json"), deadline).unwrap();
        assert_eq!(ok, [SocketAddr::from(([8, 8, 8, 8], 443))], "deduplicated");
        let err = HttpRetriever::new().addresses(&loc("https://169.254.169.254/latest/"), deadline).unwrap_err();
        assert_eq!(
            err.message(),
            "169.254.169.254 is a link-local (169.254.0.0/16, cloud metadata) address: refused \
             (HttpRetriever::allow_private_addresses() allows non-public addresses)"
        );
    }

    #[test]
    fn plain_http_needs_its_own_entry() {
        let r = HttpRetriever::new().allow("https://h/");
        let err = r.admit("http://h/a.json").unwrap_err();
        assert!(err.message().contains("plain http is refused"), "{err}");
        assert!(HttpRetriever::new().allow("http://h/").admit("http://h/a.json").is_ok());
    }
}
