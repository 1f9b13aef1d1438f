//! Opt-in `$ref` retrieval: real HTTP over loopback (a small std server
//! started by each test), the file retriever, custom retrievers, and the
//! closed default. Runs in plain `cargo test`: the crate's dev-dependency
//! on itself turns on the `remote` feature for tests.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use schemavm::{CompileError, CompileErrorKind, Limits, RetrieveError, RetrieveErrorKind, Retriever, Validator};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------
// A loopback HTTP/1.1 server: one thread per connection, every request
// recorded (path and Host header).

struct Server {
    addr: SocketAddr,
    requests: Arc<Mutex<Vec<(String, String)>>>,
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let addr = listener.local_addr().unwrap();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (log, halt) = (requests.clone(), stop.clone());
        let handle = thread::spawn(move || {
            for stream in listener.incoming() {
                if halt.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let log = log.clone();
                thread::spawn(move || serve(stream, addr, &log));
            }
        });
        Server { addr, requests, stop, handle: Some(handle) }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn port(&self) -> u16 {
        self.addr.port()
    }

    fn paths(&self) -> Vec<String> {
        self.requests.lock().unwrap().iter().map(|(p, _)| p.clone()).collect()
    }

    fn hosts(&self) -> Vec<String> {
        self.requests.lock().unwrap().iter().map(|(_, h)| h.clone()).collect()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

fn serve(mut stream: TcpStream, addr: SocketAddr, log: &Mutex<Vec<(String, String)>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 16 * 1024 {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return,
        }
    }
    let head = String::from_utf8_lossy(&head).to_string();
    let path = head.split_whitespace().nth(1).unwrap_or("").to_string();
    let host = head
        .lines()
        .find_map(|l| l.strip_prefix("host: ").or_else(|| l.strip_prefix("Host: ")))
        .unwrap_or("")
        .to_string();
    log.lock().unwrap().push((path.clone(), host));
    let json = "application/json";
    let _ = match path.as_str() {
        "/schemas/positive.json" => respond(&mut stream, "200 OK", json, br#"{"type": "integer", "minimum": 1}"#),
        "/schemas/tree.json" => respond(
            &mut stream,
            "200 OK",
            json,
            br##"{"type": "object", "properties": {"value": {"$ref": "leaf.json"},
                 "children": {"type": "array", "items": {"$ref": "#"}}}}"##,
        ),
        "/schemas/leaf.json" => respond(&mut stream, "200 OK", json, br#"{"type": "string", "maxLength": 3}"#),
        "/schemas/deep.json" => {
            let deep = (0..40).fold(json!({"type": "integer"}), |inner, _| json!({"items": inner}));
            respond(&mut stream, "200 OK", json, deep.to_string().as_bytes())
        }
        p if p.starts_with("/schemas/n") => respond(&mut stream, "200 OK", json, br#"{"type": "number"}"#),
        "/slow" => {
            thread::sleep(Duration::from_secs(3));
            respond(&mut stream, "200 OK", json, b"{}")
        }
        "/drip" => {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[";
            let _ = stream.write_all(head.as_bytes());
            for _ in 0..60 {
                thread::sleep(Duration::from_millis(50));
                if stream.write_all(b" ").is_err() {
                    break;
                }
            }
            Ok(())
        }
        "/big" => {
            // No Content-Length: the client must stop reading by itself.
            let _ =
                stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[");
            let chunk = [b'1', b','].repeat(8 * 1024);
            for _ in 0..128 {
                if stream.write_all(&chunk).is_err() {
                    break;
                }
            }
            let _ = stream.write_all(b"1]");
            Ok(())
        }
        "/big-declared" => {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2097152\r\n\r\n";
            stream.write_all(head.as_bytes())
        }
        "/redirect-out" => redirect(&mut stream, "http://evil.invalid/x.json"),
        "/redirect-in" => redirect(&mut stream, "/schemas/positive.json"),
        "/redirect-loop" => redirect(&mut stream, "/redirect-loop"),
        "/html" => respond(&mut stream, "200 OK", "text/html", b"<html><body>not a schema</body></html>"),
        _ => respond(&mut stream, "404 Not Found", "text/plain", b"no such schema"),
    };
    let _ = addr;
}

fn respond(stream: &mut TcpStream, status: &str, content_type: &str, body: &[u8]) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)
}

fn redirect(stream: &mut TcpStream, to: &str) -> std::io::Result<()> {
    let head = format!("HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    stream.write_all(head.as_bytes())
}

// ---------------------------------------------------------------------------
// Helpers.

/// The HTTP retriever allowed to reach the test server's `/` (loopback,
/// so private addresses are allowed).
fn http_for(server: &Server) -> schemavm::retrieve::HttpRetriever {
    Retriever::http().allow(server.url("/")).allow_private_addresses()
}

fn build_err(options: schemavm::ValidatorOptions, schema: &Value) -> CompileError {
    match options.build(schema) {
        Ok(_) => panic!("{schema} compiled"),
        Err(e) => e,
    }
}

/// The retrieval error inside a compile error, checking the URI.
fn retrieval_error(err: &CompileError, uri: &str) -> RetrieveError {
    match err.kind() {
        CompileErrorKind::RetrievalFailed { uri: u, error, .. } => {
            assert_eq!(u, uri, "{err}");
            error.clone()
        }
        other => panic!("expected RetrievalFailed, got {other:?}: {err}"),
    }
}

fn refs(uri: &str) -> Value {
    json!({"properties": {"a": {"$ref": uri}}})
}

// ---------------------------------------------------------------------------
// The closed default.

#[test]
fn default_options_never_connect_and_name_both_ways_to_allow() {
    let server = Server::start();
    let uri = server.url("/schemas/positive.json");
    let err = Validator::new(&refs(&uri)).unwrap_err();
    assert!(matches!(err.kind(), CompileErrorKind::UnresolvableReference { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        format!(
            "#/properties/a/$ref: cannot resolve reference \"{uri}\" (resolved to {uri}): no registered document \
             or anchor has that URI; register the document with ValidatorOptions::resource(uri, document), or \
             enable a retriever that may fetch it with ValidatorOptions::retriever (schemavm never fetches \
             references on its own)"
        )
    );
    // A fetch log alone enables nothing.
    let logged = Arc::new(AtomicUsize::new(0));
    let counter = logged.clone();
    let options = Validator::options().on_fetch(move |_| {
        counter.fetch_add(1, Ordering::SeqCst);
    });
    let err = build_err(options, &refs(&uri));
    assert!(matches!(err.kind(), CompileErrorKind::UnresolvableReference { .. }), "{err}");
    assert_eq!(logged.load(Ordering::SeqCst), 0);
    // Neither does a retriever for other schemes.
    let dir = TempDir::new("default");
    let err = build_err(Validator::options().retriever(Retriever::files(dir.path())), &refs(&uri));
    let error = retrieval_error(&err, &uri);
    assert_eq!(error.kind(), RetrieveErrorKind::Unsupported);
    assert!(error.message().contains("files: does not handle http: URIs"), "{err}");
    thread::sleep(Duration::from_millis(50));
    assert!(server.paths().is_empty(), "the server saw {:?}", server.paths());
}

#[test]
fn registered_documents_win_over_retrievers() {
    let server = Server::start();
    let uri = server.url("/schemas/positive.json");
    let fetched = Arc::new(AtomicUsize::new(0));
    let counter = fetched.clone();
    let v = Validator::options()
        .resource(uri.clone(), json!({"type": "string"}))
        .retriever(http_for(&server))
        .on_fetch(move |_| {
            counter.fetch_add(1, Ordering::SeqCst);
        })
        .build(&refs(&uri))
        .unwrap();
    assert!(v.is_valid(&json!({"a": "x"})));
    assert_eq!(fetched.load(Ordering::SeqCst), 0);
    assert!(server.paths().is_empty());
}

// ---------------------------------------------------------------------------
// HTTP: what the allowlist admits.

#[test]
fn allowlisted_documents_are_fetched_once_at_compile_time_and_logged() {
    let server = Server::start();
    let log = Arc::new(Mutex::new(Vec::new()));
    let sink = log.clone();
    let positive = server.url("/schemas/positive.json");
    let tree = server.url("/schemas/tree.json");
    let schema = json!({
        "properties": {
            "count": {"$ref": positive},
            "again": {"$ref": format!("{positive}#")},
            "tree": {"$ref": tree}
        }
    });
    let v = Validator::options()
        .retriever(
            Retriever::http()
                .allow(server.url("/schemas/"))
                .allow_private_addresses()
                .timeout(Duration::from_secs(5))
                .max_bytes(1 << 20)
                .max_documents(64),
        )
        .on_fetch(move |r| {
            sink.lock().unwrap().push((
                r.uri.to_string(),
                r.referrer.to_string(),
                r.retriever.to_string(),
                r.bytes,
                r.elapsed,
                r.error.cloned(),
            ));
        })
        .build(&schema)
        .unwrap();
    let mut paths = server.paths();
    paths.sort();
    assert_eq!(paths, ["/schemas/leaf.json", "/schemas/positive.json", "/schemas/tree.json"], "each document once");
    assert!(v.is_valid(&json!({"count": 2, "again": 1, "tree": {"value": "ab", "children": [{"value": "c"}]}})));
    assert!(!v.is_valid(&json!({"count": 0})));
    assert!(!v.is_valid(&json!({"tree": {"children": [{"value": "long"}]}})));
    assert_eq!(server.paths().len(), 3, "validation fetches nothing");
    let log = log.lock().unwrap();
    assert_eq!(log.len(), 3);
    let first = log.iter().find(|r| r.0 == positive).unwrap();
    assert_eq!(first.1, "#/properties/count/$ref");
    assert_eq!(first.2, "http");
    assert_eq!(first.3, Some(br#"{"type": "integer", "minimum": 1}"#.len() as u64));
    assert!(first.4 < Duration::from_secs(5));
    assert_eq!(first.5, None);
    let leaf = log.iter().find(|r| r.0.ends_with("leaf.json")).unwrap();
    assert_eq!(
        leaf.1,
        format!("{tree}#/properties/value/$ref"),
        "the referrer of a nested fetch is in the fetched document"
    );
}

#[test]
fn the_allowlist_admits_exactly_what_it_names() {
    let server = Server::start();
    let other_port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap().local_addr().unwrap().port();
    let options =
        || Validator::options().retriever(Retriever::http().allow(server.url("/schemas")).allow_private_addresses());
    // The prefix itself and below it: admitted.
    assert!(options().build(&refs(&server.url("/schemas/positive.json"))).is_ok());
    for refused in [
        server.url("/schemas-evil/positive.json"),
        server.url("/other/positive.json"),
        format!("http://127.0.0.1:{other_port}/schemas/positive.json"),
        format!("https://127.0.0.1:{}/schemas/positive.json", server.port()),
        format!("http://localhost:{}/schemas/positive.json", server.port()),
        format!("http://127.0.0.1:{}/schemas/%2e%2e/secret.json", server.port()),
        format!("http://user@127.0.0.1:{}/schemas/positive.json", server.port()),
    ] {
        let err = build_err(options(), &refs(&refused));
        let error = retrieval_error(&err, &refused);
        assert_eq!(error.kind(), RetrieveErrorKind::NotAllowed, "{refused}: {err}");
    }
    let err = build_err(options(), &refs(&server.url("/other/x.json")));
    assert_eq!(
        err.to_string(),
        format!(
            "#/properties/a/$ref: cannot retrieve {0}/other/x.json (for reference \"{0}/other/x.json\"): \
             {0}/other/x.json is not on the http retriever's allowlist ({0}/schemas)",
            server.url("")
        )
    );
    // An empty allowlist admits nothing.
    let err =
        build_err(Validator::options().retriever(Retriever::http()), &refs(&server.url("/schemas/positive.json")));
    assert!(err.to_string().contains("allowlist, which is empty"), "{err}");
    assert_eq!(server.paths(), ["/schemas/positive.json"], "refused URIs are never requested");
}

#[test]
fn plain_http_needs_an_http_entry() {
    let server = Server::start();
    let https_only = Retriever::http().allow(format!("https://127.0.0.1:{}/", server.port())).allow_private_addresses();
    let uri = server.url("/schemas/positive.json");
    let err = build_err(Validator::options().retriever(https_only), &refs(&uri));
    let error = retrieval_error(&err, &uri);
    assert_eq!(error.kind(), RetrieveErrorKind::NotAllowed);
    assert!(
        error.message().ends_with("plain http is refused unless an allowlist entry names http:// explicitly"),
        "{err}"
    );
    assert!(server.paths().is_empty());
}

// ---------------------------------------------------------------------------
// HTTP: addresses.

#[test]
fn private_addresses_are_refused_without_the_opt_in() {
    let server = Server::start();
    let port = server.port();
    for (prefix, uri) in [
        (server.url("/"), server.url("/schemas/positive.json")),
        (format!("http://localhost:{port}/"), format!("http://localhost:{port}/schemas/positive.json")),
        (format!("http://[::1]:{port}/"), format!("http://[::1]:{port}/schemas/positive.json")),
        (
            format!("http://[::ffff:127.0.0.1]:{port}/"),
            format!("http://[::ffff:127.0.0.1]:{port}/schemas/positive.json"),
        ),
    ] {
        let err = build_err(Validator::options().retriever(Retriever::http().allow(&prefix)), &refs(&uri));
        let error = retrieval_error(&err, &uri);
        assert_eq!(error.kind(), RetrieveErrorKind::ForbiddenAddress, "{err}");
        assert!(error.message().contains("loopback"), "{err}");
    }
    let uri = server.url("/schemas/positive.json");
    let err = build_err(Validator::options().retriever(Retriever::http().allow(server.url("/"))), &refs(&uri));
    assert_eq!(
        err.to_string(),
        format!(
            "#/properties/a/$ref: cannot retrieve {uri} (for reference \"{uri}\"): 127.0.0.1 is a loopback \
             (127.0.0.0/8) address: refused (HttpRetriever::allow_private_addresses() allows non-public \
             addresses)"
        )
    );
    assert!(server.paths().is_empty(), "nothing connected: {:?}", server.paths());
    // With the opt-in, the same reference resolves.
    assert!(Validator::options().retriever(http_for(&server)).build(&refs(&uri)).is_ok());
    assert_eq!(server.paths().len(), 1);
}

#[test]
fn names_are_resolved_once_and_the_connection_goes_to_the_checked_address() {
    let server = Server::start();
    let port = server.port();
    let lookups = Arc::new(AtomicUsize::new(0));
    let counter = lookups.clone();
    // A rebinding resolver: the first answer is the test server, any later
    // one a loopback address where nothing listens.
    let rebinding = move |host: &str, p: u16| {
        assert_eq!(host, "schemas.test");
        let n = counter.fetch_add(1, Ordering::SeqCst);
        let ip = if n == 0 { Ipv4Addr::LOCALHOST } else { Ipv4Addr::new(127, 0, 0, 2) };
        Ok(vec![SocketAddr::from((ip, p))])
    };
    let uri = format!("http://schemas.test:{port}/schemas/positive.json");
    let v = Validator::options()
        .retriever(
            Retriever::http()
                .allow(format!("http://schemas.test:{port}/schemas/"))
                .allow_private_addresses()
                .resolve_with(rebinding),
        )
        .build(&refs(&uri))
        .unwrap();
    assert!(v.is_valid(&json!({"a": 5})));
    assert_eq!(lookups.load(Ordering::SeqCst), 1, "one lookup per document");
    assert_eq!(
        server.hosts(),
        [format!("schemas.test:{port}")],
        "the request carried the name, went to the checked address"
    );

    // Every answer is checked: one refused address refuses the host.
    let mixed = |_: &str, p: u16| Ok(vec![SocketAddr::from(([127, 0, 0, 1], p)), SocketAddr::from(([10, 1, 2, 3], p))]);
    let err = build_err(
        Validator::options()
            .retriever(Retriever::http().allow(format!("http://schemas.test:{port}/")).resolve_with(mixed)),
        &refs(&uri),
    );
    assert_eq!(retrieval_error(&err, &uri).kind(), RetrieveErrorKind::ForbiddenAddress, "{err}");
    let failing = |_: &str, _: u16| Err(std::io::Error::new(std::io::ErrorKind::NotFound, "no such host"));
    let err = build_err(
        Validator::options()
            .retriever(Retriever::http().allow(format!("http://schemas.test:{port}/")).resolve_with(failing)),
        &refs(&uri),
    );
    let error = retrieval_error(&err, &uri);
    assert_eq!(error.kind(), RetrieveErrorKind::Resolve, "{err}");
    assert_eq!(error.message(), "cannot resolve schemas.test: no such host");
    assert_eq!(server.paths().len(), 1);
}

// ---------------------------------------------------------------------------
// HTTP: failure modes.

#[test]
fn slow_servers_time_out() {
    let server = Server::start();
    for path in ["/slow", "/drip"] {
        let uri = server.url(path);
        let start = Instant::now();
        let err = build_err(
            Validator::options().retriever(http_for(&server).timeout(Duration::from_millis(300))),
            &refs(&uri),
        );
        assert!(start.elapsed() < Duration::from_secs(2), "{path} took {:?}", start.elapsed());
        let error = retrieval_error(&err, &uri);
        assert_eq!(error.kind(), RetrieveErrorKind::Timeout, "{path}: {err}");
        assert_eq!(error.message(), "no complete answer within the timeout (300 ms, connect and read together)");
    }
    // A slow name lookup counts too.
    let uri = "http://schemas.test/slow-dns.json";
    let err = build_err(
        Validator::options().retriever(
            Retriever::http().allow("http://schemas.test/").timeout(Duration::from_millis(200)).resolve_with(|_, _| {
                thread::sleep(Duration::from_secs(1));
                Ok(Vec::new())
            }),
        ),
        &refs(uri),
    );
    assert_eq!(retrieval_error(&err, uri).kind(), RetrieveErrorKind::Timeout, "{err}");
}

#[test]
fn oversized_bodies_are_cut_off() {
    let server = Server::start();
    for path in ["/big", "/big-declared"] {
        let uri = server.url(path);
        let err = build_err(Validator::options().retriever(http_for(&server).max_bytes(1024)), &refs(&uri));
        let error = retrieval_error(&err, &uri);
        assert_eq!(error.kind(), RetrieveErrorKind::TooLarge, "{path}: {err}");
        assert_eq!(error.message(), format!("{uri}: the body exceeds max_bytes (1024 bytes)"));
    }
}

#[test]
fn redirects_are_refused_unless_followed_and_every_hop_is_checked() {
    let server = Server::start();
    let out = server.url("/redirect-out");
    let err = build_err(Validator::options().retriever(http_for(&server)), &refs(&out));
    let error = retrieval_error(&err, &out);
    assert_eq!(error.kind(), RetrieveErrorKind::Redirect, "{err}");
    assert_eq!(
        error.message(),
        format!(
            "{out} redirects (HTTP 302) to http://evil.invalid/x.json; redirects are not followed \
             (HttpRetriever::follow_redirects(n) follows up to n, each checked against the allowlist)"
        )
    );
    // Followed: the hop to a host not on the allowlist is refused.
    let err = build_err(Validator::options().retriever(http_for(&server).follow_redirects(3)), &refs(&out));
    let error = retrieval_error(&err, &out);
    assert_eq!(error.kind(), RetrieveErrorKind::NotAllowed, "{err}");
    assert_eq!(
        error.message(),
        format!(
            "the redirect from {out} to http://evil.invalid/x.json is refused: http://evil.invalid/x.json is not \
             on the http retriever's allowlist ({})",
            server.url("/")
        )
    );
    // A hop inside the allowlist is followed...
    let inside = server.url("/redirect-in");
    let v = Validator::options().retriever(http_for(&server).follow_redirects(1)).build(&refs(&inside)).unwrap();
    assert!(v.is_valid(&json!({"a": 1})) && !v.is_valid(&json!({"a": 0})));
    // ...but not without the opt-in, and never more than n times.
    let err = build_err(Validator::options().retriever(http_for(&server)), &refs(&inside));
    assert_eq!(retrieval_error(&err, &inside).kind(), RetrieveErrorKind::Redirect);
    let looping = server.url("/redirect-loop");
    let err = build_err(Validator::options().retriever(http_for(&server).follow_redirects(2)), &refs(&looping));
    let error = retrieval_error(&err, &looping);
    assert_eq!(error.kind(), RetrieveErrorKind::Redirect);
    assert_eq!(error.message(), format!("{looping}: more than 2 redirects (the last to /redirect-loop)"));
    assert!(!server.paths().iter().any(|p| p.contains("x.json")), "{:?}", server.paths());
}

#[test]
fn non_json_and_error_statuses_are_clear_errors() {
    let server = Server::start();
    let html = server.url("/html");
    let err = build_err(Validator::options().retriever(http_for(&server)), &refs(&html));
    let error = retrieval_error(&err, &html);
    assert_eq!(error.kind(), RetrieveErrorKind::NotJson, "{err}");
    assert_eq!(
        error.message(),
        format!("the content of {html} (content type \"text/html\") is not JSON: expected value at line 1 column 1")
    );
    let missing = server.url("/schemas/missing.json");
    let err = build_err(Validator::options().retriever(http_for(&server)), &refs(&missing));
    let error = retrieval_error(&err, &missing);
    assert_eq!(error.kind(), RetrieveErrorKind::Status, "{err}");
    assert_eq!(error.message(), format!("{missing} answered HTTP 404 Not Found"));
    // A closed port: a connection error.
    let closed = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap().local_addr().unwrap().port();
    let uri = format!("http://127.0.0.1:{closed}/x.json");
    let err = build_err(
        Validator::options()
            .retriever(Retriever::http().allow(format!("http://127.0.0.1:{closed}/")).allow_private_addresses()),
        &refs(&uri),
    );
    let error = retrieval_error(&err, &uri);
    assert_eq!(error.kind(), RetrieveErrorKind::Connect, "{err}");
    assert!(error.message().starts_with(&format!("cannot connect to {uri}: ")), "{err}");
}

#[test]
fn documents_per_build_are_capped() {
    let server = Server::start();
    let schema = json!({"allOf": [
        {"$ref": server.url("/schemas/n1.json")},
        {"$ref": server.url("/schemas/n2.json")},
        {"$ref": server.url("/schemas/n3.json")}
    ]});
    let err = build_err(Validator::options().retriever(http_for(&server).max_documents(2)), &schema);
    let third = match err.kind() {
        CompileErrorKind::RetrievalFailed { uri, .. } => uri.clone(),
        other => panic!("{other:?}: {err}"),
    };
    assert!(third.starts_with(&server.url("/schemas/n")), "{err}");
    let error = retrieval_error(&err, &third);
    assert_eq!(error.kind(), RetrieveErrorKind::TooManyDocuments);
    assert_eq!(
        error.message(),
        "this build already retrieved 2 documents through the http retriever, its max_documents; raise it or \
         register the documents with ValidatorOptions::resource"
    );
    assert_eq!(server.paths().len(), 2);
    // The cap is per build: a second build fetches again.
    let options = Validator::options().retriever(http_for(&server).max_documents(3));
    options.build(&schema).unwrap();
    options.build(&schema).unwrap();
    assert_eq!(server.paths().len(), 8);
}

#[test]
fn compile_limits_apply_to_fetched_documents() {
    let server = Server::start();
    let uri = server.url("/schemas/deep.json");
    let limits = Limits { max_schema_depth: 20, ..Limits::default() };
    let err = build_err(Validator::options().limits(limits).retriever(http_for(&server)), &refs(&uri));
    assert!(matches!(err.kind(), CompileErrorKind::LimitExceeded { limit: "max_schema_depth", .. }), "{err}");
    assert!(Validator::options().retriever(http_for(&server)).build(&refs(&uri)).is_ok());
}

// ---------------------------------------------------------------------------
// Files.

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "schemavm-remote-{}-{name}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir.canonicalize().unwrap())
    }

    fn path(&self) -> &Path {
        &self.0
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn file_uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

#[test]
fn files_under_the_root_resolve() {
    let dir = TempDir::new("files");
    let root = dir.path().join("root");
    dir.write("root/main.json", r#"{"$ref": "defs/positive.json"}"#);
    dir.write("root/defs/positive.json", r#"{"type": "integer", "minimum": 1}"#);
    let main = file_uri(&root.join("main.json"));
    let schema = json!({"$id": file_uri(&root.join("schema.json")), "properties": {"a": {"$ref": "main.json"}}});
    let v = Validator::options().retriever(Retriever::files(&root)).build(&schema).unwrap();
    assert!(v.is_valid(&json!({"a": 3})) && !v.is_valid(&json!({"a": 0})));
    assert!(Validator::options().retriever(Retriever::files(&root)).build(&refs(&main)).is_ok());
}

#[test]
fn the_file_root_cannot_be_escaped() {
    let dir = TempDir::new("escape");
    let root = dir.path().join("root");
    dir.write("root/ok.json", r#"{"type": "integer"}"#);
    dir.write("root/page.html", "<html></html>");
    dir.write("root/big.json", &format!("[{}1]", "1,".repeat(2048)));
    dir.write("outside/secret.json", r#"{"secret": true}"#);
    dir.write("root-evil/secret.json", r#"{"secret": true}"#);
    std::fs::create_dir_all(root.join("dir.json")).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.path().join("outside/secret.json"), root.join("link.json")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("outside"), root.join("linkdir")).unwrap();
    }
    let options = || Validator::options().retriever(Retriever::files(&root).max_bytes(1024));
    let root_text = root.display().to_string();
    let mut outside = vec![
        format!("file://{root_text}/../outside/secret.json"),
        format!("file://{root_text}/%2e%2e/outside/secret.json"),
        format!("file://{root_text}/sub/%2E%2E/%2e%2e/outside/secret.json"),
        format!("file://{root_text}-evil/secret.json"),
        "file:///etc/passwd".to_string(),
        format!("file://{root_text}/../outside/missing.json"),
    ];
    if cfg!(unix) {
        outside.push(format!("file://{root_text}/link.json"));
        outside.push(format!("file://{root_text}/linkdir/secret.json"));
    }
    for uri in &outside {
        let err = build_err(options(), &refs(uri));
        let resolved = match err.kind() {
            CompileErrorKind::RetrievalFailed { uri, .. } => uri.clone(),
            other => panic!("{other:?}: {err}"),
        };
        let error = retrieval_error(&err, &resolved);
        assert_eq!(error.kind(), RetrieveErrorKind::NotAllowed, "{uri}: {err}");
        assert!(error.message().ends_with(&format!("is outside the file retriever's root {root_text}")), "{err}");
    }
    let cases = [
        ("missing.json", RetrieveErrorKind::NotFound),
        ("dir.json", RetrieveErrorKind::NotAllowed),
        ("page.html", RetrieveErrorKind::NotJson),
        ("big.json", RetrieveErrorKind::TooLarge),
    ];
    for (name, kind) in cases {
        let uri = file_uri(&root.join(name));
        let err = build_err(options(), &refs(&uri));
        assert_eq!(retrieval_error(&err, &uri).kind(), kind, "{name}: {err}");
    }
    let uri = file_uri(&root.join("missing.json"));
    let error = retrieval_error(&build_err(options(), &refs(&uri)), &uri);
    assert!(error.message().starts_with(&format!("cannot read {uri}: ")), "{error}");
    let uri = file_uri(&root.join("big.json"));
    assert_eq!(
        build_err(options(), &refs(&uri)).to_string(),
        format!(
            "#/properties/a/$ref: cannot retrieve {uri} (for reference \"{uri}\"): {uri} is larger than max_bytes (1024 bytes)"
        )
    );
    let uri = format!("file://{root_text}/../outside/secret.json");
    assert_eq!(
        build_err(options(), &refs(&uri)).to_string(),
        format!(
            "#/properties/a/$ref: cannot retrieve file://{0}/outside/secret.json (for reference \"{uri}\"): \
             file://{0}/outside/secret.json is outside the file retriever's root {root_text}",
            dir.path().display()
        )
    );
    assert!(options().build(&refs(&file_uri(&root.join("ok.json")))).is_ok());
}

// ---------------------------------------------------------------------------
// Custom and combined retrievers.

#[test]
fn custom_retrievers_and_combinations() {
    let server = Server::start();
    let dir = TempDir::new("combined");
    let local = dir.write("local.json", r#"{"type": "string"}"#);
    let assets: HashMap<&str, Value> = HashMap::from([("urn:schemas:flag", json!({"type": "boolean"}))]);
    let assets = Retriever::from_fn("assets", move |uri| match uri.as_str() {
        s if !s.starts_with("urn:") => Err(RetrieveError::new(RetrieveErrorKind::Unsupported, "only urn:")),
        s => assets
            .get(s)
            .cloned()
            .ok_or_else(|| RetrieveError::new(RetrieveErrorKind::NotFound, format!("no asset {s}"))),
    });
    let schema = json!({"properties": {
        "flag": {"$ref": "urn:schemas:flag"},
        "name": {"$ref": file_uri(&local)},
        "count": {"$ref": server.url("/schemas/positive.json")}
    }});
    let names = Arc::new(Mutex::new(Vec::new()));
    let sink = names.clone();
    let options = Validator::options()
        .retriever(assets)
        .retriever(Retriever::files(dir.path()))
        .retriever(http_for(&server))
        .on_fetch(move |r| sink.lock().unwrap().push(r.retriever.to_string()));
    let v = options.build(&schema).unwrap();
    assert!(v.is_valid(&json!({"flag": true, "name": "x", "count": 1})));
    assert!(!v.is_valid(&json!({"flag": 1})));
    let mut names = names.lock().unwrap().clone();
    names.sort();
    assert_eq!(names, ["assets", "files", "http"]);
    let err = build_err(options.clone(), &refs("urn:schemas:missing"));
    assert_eq!(
        err.to_string(),
        "#/properties/a/$ref: cannot retrieve urn:schemas:missing (for reference \"urn:schemas:missing\"): no asset \
         urn:schemas:missing"
    );
    let err = build_err(options, &refs("tag:example.com,2026:x"));
    assert_eq!(
        err.to_string(),
        "#/properties/a/$ref: cannot retrieve tag:example.com,2026:x (for reference \"tag:example.com,2026:x\"): no \
         configured retriever handles this URI (assets: only urn:; files: does not handle tag: URIs; http: does not \
         handle tag: URIs)"
    );
}

#[test]
fn relative_references_without_an_id_say_how_to_fix_them() {
    let dir = TempDir::new("relative");
    let err = build_err(Validator::options().retriever(Retriever::files(dir.path())), &refs("other.json"));
    assert!(err.to_string().contains("give the schema an $id or write the reference as an absolute URI"), "{err}");
}

#[test]
fn ref_remote_documents_still_resolve_by_registration_only() {
    // The official suite's refRemote documents are served from
    // http://localhost:1234/; registered, they resolve with or without a
    // retriever, and nothing is fetched.
    let integer = ("http://localhost:1234/integer.json", json!({"type": "integer"}));
    let schema = json!({"$ref": "http://localhost:1234/integer.json"});
    let fetched = Arc::new(AtomicUsize::new(0));
    let counter = fetched.clone();
    for options in [
        Validator::options(),
        Validator::options().retriever(Retriever::http().allow("http://localhost:1234/")).on_fetch(move |_| {
            counter.fetch_add(1, Ordering::SeqCst);
        }),
    ] {
        let v = options.resource(integer.0, integer.1.clone()).build(&schema).unwrap();
        assert!(v.is_valid(&json!(1)) && !v.is_valid(&json!("a")));
    }
    assert_eq!(fetched.load(Ordering::SeqCst), 0);
}
