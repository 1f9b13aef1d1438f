//! URI references per RFC 3986: parsing, resolution against a base, and
//! the light normalization schemavm applies to resource identifiers.
//!
//! Identifiers in JSON Schema (`$id`, `$ref`, `$schema`, ...) are URI
//! references. Resolution follows RFC 3986 §5.2 exactly (including
//! `remove_dot_segments`); normalization lowercases the scheme and host and
//! gives `http`/`https` URIs with an empty path the path `/`, so that
//! `http://example.com` and `http://example.com/` name one resource.
//!
//! The parser is total: every string splits into components (the generic
//! RFC 3986 appendix B decomposition). Strings with characters a URI can't
//! contain (controls, spaces) are rejected by [`UriRef::parse`].

use std::fmt;

/// A parsed URI reference, borrowing the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UriRef<'a> {
    /// Scheme without the trailing `:`.
    pub scheme: Option<&'a str>,
    /// Authority without the leading `//`.
    pub authority: Option<&'a str>,
    /// Path (possibly empty).
    pub path: &'a str,
    /// Query without the leading `?`.
    pub query: Option<&'a str>,
    /// Fragment without the leading `#`.
    pub fragment: Option<&'a str>,
}

/// A string that is not a URI reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriError {
    /// The offending text.
    pub text: String,
    /// Why it was rejected.
    pub reason: &'static str,
}

impl fmt::Display for UriError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a URI reference: {}", self.text, self.reason)
    }
}

impl<'a> UriRef<'a> {
    /// Splits `text` into URI components.
    pub fn parse(text: &'a str) -> Result<UriRef<'a>, UriError> {
        if let Some(c) = text.chars().find(|c| c.is_control() || *c == ' ') {
            let reason = if c == ' ' { "contains a space" } else { "contains a control character" };
            return Err(UriError { text: text.to_string(), reason });
        }
        let (rest, fragment) = match text.split_once('#') {
            Some((r, f)) => (r, Some(f)),
            None => (text, None),
        };
        let (rest, query) = match rest.split_once('?') {
            Some((r, q)) => (r, Some(q)),
            None => (rest, None),
        };
        let (scheme, rest) = match rest.find(':') {
            Some(i) if i > 0 && rest[..i].find('/').is_none() && is_scheme(&rest[..i]) => {
                (Some(&rest[..i]), &rest[i + 1..])
            }
            _ => (None, rest),
        };
        let (authority, path) = match rest.strip_prefix("//") {
            Some(after) => {
                let end = after.find('/').unwrap_or(after.len());
                (Some(&after[..end]), &after[end..])
            }
            None => (None, rest),
        };
        Ok(UriRef { scheme, authority, path, query, fragment })
    }

    /// Whether the reference has a scheme (is an absolute URI, possibly with fragment).
    pub fn is_absolute(&self) -> bool {
        self.scheme.is_some()
    }

    /// The reference without its fragment, as text.
    pub fn without_fragment(&self) -> String {
        let mut out = String::new();
        recompose(&mut out, self.scheme, self.authority, self.path, self.query);
        out
    }
}

fn is_scheme(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

fn recompose(out: &mut String, scheme: Option<&str>, authority: Option<&str>, path: &str, query: Option<&str>) {
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
}

/// An absolute URI without a fragment, normalized: the identity of a schema
/// resource or document.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AbsoluteUri(String);

impl AbsoluteUri {
    /// Parses an absolute URI (a fragment, if any, must be empty and is dropped).
    pub fn parse(text: &str) -> Result<AbsoluteUri, UriError> {
        let r = UriRef::parse(text)?;
        if !r.is_absolute() {
            return Err(UriError { text: text.to_string(), reason: "it has no scheme" });
        }
        Ok(AbsoluteUri::from_parts(r.scheme, r.authority, r.path, r.query))
    }

    fn from_parts(scheme: Option<&str>, authority: Option<&str>, path: &str, query: Option<&str>) -> AbsoluteUri {
        let scheme_lc = scheme.map(str::to_ascii_lowercase);
        let authority_lc = authority.map(normalize_authority);
        let is_http = matches!(scheme_lc.as_deref(), Some("http" | "https"));
        let path = remove_dot_segments(path);
        let path = if path.is_empty() && authority.is_some() && is_http { "/".to_string() } else { path };
        let mut out = String::new();
        recompose(&mut out, scheme_lc.as_deref(), authority_lc.as_deref(), &path, query);
        AbsoluteUri(out)
    }

    /// The URI text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Resolves `reference` against this base (RFC 3986 §5.2.2), returning
    /// the target without fragment and the fragment, if any.
    pub fn resolve<'r>(&self, reference: &'r str) -> Result<(AbsoluteUri, Option<&'r str>), UriError> {
        let r = UriRef::parse(reference)?;
        // The base is normalized and was produced by this module, so it parses.
        let b = UriRef::parse(&self.0)?;
        let target = if r.scheme.is_some() {
            AbsoluteUri::from_parts(r.scheme, r.authority, r.path, r.query)
        } else if r.authority.is_some() {
            AbsoluteUri::from_parts(b.scheme, r.authority, r.path, r.query)
        } else if r.path.is_empty() {
            AbsoluteUri::from_parts(b.scheme, b.authority, b.path, r.query.or(b.query))
        } else if r.path.starts_with('/') {
            AbsoluteUri::from_parts(b.scheme, b.authority, r.path, r.query)
        } else {
            let merged = merge(b.authority.is_some(), b.path, r.path);
            AbsoluteUri::from_parts(b.scheme, b.authority, &merged, r.query)
        };
        Ok((target, r.fragment))
    }

    /// This URI with `#fragment` appended (the fragment is written as given).
    pub fn with_fragment(&self, fragment: &str) -> String {
        let mut out = String::with_capacity(self.len_with_fragment(fragment));
        self.push_with_fragment(fragment, &mut out);
        out
    }

    /// The length of [`AbsoluteUri::with_fragment`].
    pub fn len_with_fragment(&self, fragment: &str) -> usize {
        self.0.len().saturating_add(1).saturating_add(fragment.len())
    }

    /// Appends [`AbsoluteUri::with_fragment`] to `out`.
    pub fn push_with_fragment(&self, fragment: &str, out: &mut String) {
        out.push_str(&self.0);
        out.push('#');
        out.push_str(fragment);
    }
}

impl fmt::Display for AbsoluteUri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn normalize_authority(authority: &str) -> String {
    match authority.rsplit_once('@') {
        Some((user, host)) => format!("{user}@{}", host.to_ascii_lowercase()),
        None => authority.to_ascii_lowercase(),
    }
}

/// RFC 3986 §5.2.3.
fn merge(base_has_authority: bool, base_path: &str, ref_path: &str) -> String {
    if base_has_authority && base_path.is_empty() {
        return format!("/{ref_path}");
    }
    match base_path.rfind('/') {
        Some(i) => format!("{}{}", &base_path[..=i], ref_path),
        None => ref_path.to_string(),
    }
}

/// RFC 3986 §5.2.4, over whole segments.
fn remove_dot_segments(path: &str) -> String {
    if !path.contains('.') {
        return path.to_string();
    }
    let absolute = path.starts_with('/');
    let mut out: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').collect();
    let last = segments.len().saturating_sub(1);
    let mut trailing_slash = false;
    for (i, seg) in segments.iter().enumerate() {
        if i == 0 && absolute {
            continue;
        }
        match *seg {
            "." => trailing_slash = i == last,
            ".." => {
                out.pop();
                trailing_slash = i == last;
            }
            s => {
                out.push(s);
                trailing_slash = false;
            }
        }
    }
    let mut result = String::with_capacity(path.len());
    if absolute {
        result.push('/');
    }
    result.push_str(&out.join("/"));
    if trailing_slash && !result.ends_with('/') {
        result.push('/');
    }
    result
}

/// Decodes `%XX` escapes; `None` if an escape is malformed or the bytes
/// are not UTF-8.
pub fn percent_decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_string());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hi = hex_value(*bytes.get(i + 1)?)?;
            let lo = hex_value(*bytes.get(i + 2)?)?;
            out.push(hi * 16 + lo);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn hex_value(b: u8) -> Option<u8> {
    char::from(b).to_digit(16).and_then(|d| u8::try_from(d).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(base: &str, r: &str) -> String {
        let base = AbsoluteUri::parse(base).unwrap();
        let (uri, frag) = base.resolve(r).unwrap();
        match frag {
            Some(f) => uri.with_fragment(f),
            None => uri.to_string(),
        }
    }

    #[test]
    fn rfc3986_normal_examples() {
        let base = "http://a/b/c/d;p?q";
        for (r, want) in [
            ("g:h", "g:h"),
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g/"),
            ("?y", "http://a/b/c/d;p?y"),
            ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("g#s", "http://a/b/c/g#s"),
            (";x", "http://a/b/c/;x"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("./", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../g", "http://a/g"),
        ] {
            assert_eq!(resolve(base, r), want, "resolving {r:?}");
        }
    }

    #[test]
    fn rfc3986_abnormal_examples() {
        let base = "http://a/b/c/d;p?q";
        for (r, want) in [
            ("../../../g", "http://a/g"),
            ("/./g", "http://a/g"),
            ("/../g", "http://a/g"),
            ("g.", "http://a/b/c/g."),
            (".g", "http://a/b/c/.g"),
            ("./../g", "http://a/b/g"),
            ("g/./h", "http://a/b/c/g/h"),
            ("g/../h", "http://a/b/c/h"),
        ] {
            assert_eq!(resolve(base, r), want, "resolving {r:?}");
        }
    }

    #[test]
    fn urns_and_normalization() {
        assert_eq!(
            resolve("urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed", "#/$defs/bar"),
            "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#/$defs/bar"
        );
        assert_eq!(resolve("HTTP://Example.COM", "#x"), "http://example.com/#x");
        assert_eq!(resolve("http://localhost:1234/a/b.json", "c.json"), "http://localhost:1234/a/c.json");
    }

    #[test]
    fn rejects_spaces_and_controls() {
        assert!(UriRef::parse("a b").is_err());
        assert!(UriRef::parse("a\u{1}").is_err());
        assert!(AbsoluteUri::parse("relative/path").is_err());
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("a%25b%22").as_deref(), Some("a%b\""));
        assert_eq!(percent_decode("%zz"), None);
        assert_eq!(percent_decode("%4"), None);
    }
}
