//! `x-mcp-header`: tool arguments mirrored into `Mcp-Param-<Name>` HTTP
//! headers, the rules on the annotation, and the value encoding.

use std::collections::HashSet;

use serde_json::{Value, json};

use super::HEADER_MISMATCH;
use super::walk::walk;

/// The prefix of every mirrored argument's header name.
const HEADER_PREFIX: &str = "Mcp-Param-";
/// The wrapping of a Base64-encoded header value.
const BASE64_OPEN: &str = "=?base64?";
const BASE64_CLOSE: &str = "?=";
/// The annotation keyword.
const KEYWORD: &str = "x-mcp-header";

/// A tool argument mirrored into an HTTP header by `x-mcp-header`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderParam {
    /// The annotation's value: the header is `Mcp-Param-<name>`.
    pub name: String,
    /// The property names from the arguments object to the argument.
    pub path: Vec<String>,
}

impl HeaderParam {
    /// The full header name, `Mcp-Param-<name>`.
    pub fn header_name(&self) -> String {
        format!("{HEADER_PREFIX}{}", self.name)
    }

    /// The argument as a header value, if `arguments` has it as a string,
    /// number or boolean (absent, `null`, objects and arrays have none).
    fn value(&self, arguments: &Value) -> Option<String> {
        let value = self.path.iter().try_fold(arguments, |v, key| v.get(key))?;
        match value {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    /// `arguments.a.b` for messages.
    fn argument(&self) -> String {
        let mut s = "arguments".to_string();
        for key in &self.path {
            s.push('.');
            s.push_str(key);
        }
        s
    }
}

/// A broken `x-mcp-header` annotation: where, and what is wrong.
pub(super) struct Violation {
    pub pointer: String,
    pub message: String,
}

/// The header parameters of an `inputSchema`, and every rule an
/// annotation breaks: a non-empty RFC 9110 token, unique ignoring case,
/// on a property of `type` `string`, `integer` or `boolean`, reached from
/// the root through `properties` keys only. `base` is the pointer of the
/// schema in the tool.
pub(super) fn header_params(input_schema: &Value, base: &str) -> (Vec<HeaderParam>, Vec<Violation>) {
    let mut params = Vec::new();
    let mut violations = Vec::new();
    let mut seen = HashSet::new();
    walk(input_schema, base, |site| {
        let Some(annotation) = site.schema.get(KEYWORD) else { return };
        let mut pointer = site.pointer.clone();
        schemavm_compiler::pointer::push(&mut pointer, KEYWORD);
        let mut fail = |message: String| violations.push(Violation { pointer: pointer.clone(), message });
        let path = match &site.chain {
            Some(chain) if !chain.is_empty() => chain,
            Some(_) => return fail("x-mcp-header is on the schema root, not on a property".to_string()),
            None => {
                return fail(
                    "x-mcp-header is on a subschema not reachable from the root through `properties` only \
                     (items, composition keywords, conditionals, $ref or $defs are on the way)"
                        .to_string(),
                );
            }
        };
        let name = match annotation {
            Value::String(name) if !name.is_empty() => name,
            Value::String(_) => return fail("x-mcp-header is empty".to_string()),
            _ => return fail("x-mcp-header is not a string".to_string()),
        };
        if !name.chars().all(is_token_char) {
            return fail(format!("x-mcp-header {} is not an RFC 9110 token", crate::message::quoted(name)));
        }
        if !seen.insert(name.to_ascii_lowercase()) {
            return fail(format!(
                "x-mcp-header {} repeats another header name of this schema (names compare ignoring case)",
                crate::message::quoted(name)
            ));
        }
        match site.schema.get("type").and_then(Value::as_str) {
            Some("string" | "integer" | "boolean") => {}
            Some("number") => return fail("x-mcp-header is on a `number` property".to_string()),
            _ => {
                return fail(
                    "x-mcp-header is on a property whose `type` is not one of \"string\", \"integer\", \"boolean\""
                        .to_string(),
                );
            }
        }
        params.push(HeaderParam { name: name.clone(), path: path.iter().map(|s| s.to_string()).collect() });
    });
    (params, violations)
}

/// An RFC 9110 `tchar`.
fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// A header value as sent: as is, or `=?base64?<Base64 of the UTF-8>?=`
/// when it has non-ASCII or control characters, leading or trailing
/// whitespace, or already looks like an encoded value.
pub fn encode_header_value(value: &str) -> String {
    let edge_space = value.starts_with([' ', '\t']) || value.ends_with([' ', '\t']);
    let unsafe_char = value.chars().any(|c| !(' '..='~').contains(&c));
    let looks_encoded = value.starts_with(BASE64_OPEN) && value.ends_with(BASE64_CLOSE);
    if edge_space || unsafe_char || looks_encoded {
        format!("{BASE64_OPEN}{}{BASE64_CLOSE}", base64_encode(value.as_bytes()))
    } else {
        value.to_string()
    }
}

/// A header value as meant: `=?base64?...?=` decoded (`None` if it is not
/// Base64 of UTF-8), anything else as is.
pub fn decode_header_value(raw: &str) -> Option<String> {
    match raw.strip_prefix(BASE64_OPEN).and_then(|rest| rest.strip_suffix(BASE64_CLOSE)) {
        Some(encoded) => String::from_utf8(base64_decode(encoded)?).ok(),
        None => Some(raw.to_string()),
    }
}

/// The `Mcp-Param-*` headers for `arguments`, in annotation order.
pub(super) fn headers_for(params: &[HeaderParam], arguments: &Value) -> Vec<(String, String)> {
    params.iter().filter_map(|p| Some((p.header_name(), encode_header_value(&p.value(arguments)?)))).collect()
}

/// `Ok` if the `Mcp-Param-*` headers among `headers` agree with
/// `arguments`, else the JSON-RPC `-32020` error. Header names compare
/// ignoring case; a parameter's header must be present exactly when the
/// argument is a string, number or boolean, and decode to its value.
/// Values are not quoted in the message (they may be personal data).
pub(super) fn check_headers<'h>(
    params: &[HeaderParam],
    headers: impl IntoIterator<Item = (&'h str, &'h str)>,
    arguments: &Value,
) -> Result<(), Value> {
    let headers: Vec<(&str, &str)> = headers.into_iter().collect();
    for param in params {
        let full = param.header_name();
        let mut sent = headers.iter().filter(|(name, _)| name.eq_ignore_ascii_case(&full)).map(|(_, v)| *v);
        let (first, second) = (sent.next(), sent.next());
        let problem = match (first, second, param.value(arguments)) {
            (Some(_), Some(_), _) => "is sent more than once",
            (None, _, None) => continue,
            (None, _, Some(_)) => "is missing",
            (Some(_), None, None) => "is sent but the argument is absent, null or not a primitive",
            (Some(raw), None, Some(expected)) => match decode_header_value(raw) {
                None => "is not valid Base64 of UTF-8 text",
                Some(decoded) if decoded == expected => continue,
                Some(_) => "does not match the argument",
            },
        };
        return Err(json!({
            "code": HEADER_MISMATCH,
            "message": format!("Header mismatch: {full} {problem} ({})", param.argument()),
        }));
    }
    Ok(())
}

const BASE64_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard Base64 with padding.
fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let (b0, b1, b2) = (chunk.first().copied(), chunk.get(1).copied(), chunk.get(2).copied());
        let n = (u32::from(b0.unwrap_or(0)) << 16) | (u32::from(b1.unwrap_or(0)) << 8) | u32::from(b2.unwrap_or(0));
        for (i, present) in [true, true, b1.is_some(), b2.is_some()].into_iter().enumerate() {
            let sextet = (n >> (18 - 6 * i)) & 63;
            let digit = BASE64_ALPHABET.get(sextet as usize).copied().filter(|_| present);
            out.push(digit.map_or('=', char::from));
        }
    }
    out
}

/// Decodes standard Base64 (padding required, no whitespace).
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    let quads = bytes.len() / 4;
    for (q, quad) in bytes.chunks(4).enumerate() {
        let padding = quad.iter().rev().take_while(|&&c| c == b'=').count();
        if padding > 2 || (padding > 0 && q + 1 != quads) {
            return None;
        }
        let mut n = 0u32;
        for (i, &c) in quad.iter().enumerate() {
            let sextet = match c {
                b'=' if i >= 4 - padding => 0,
                _ => BASE64_ALPHABET.iter().position(|&a| a == c)? as u32,
            };
            n = (n << 6) | sextet;
        }
        let decoded = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend(decoded.iter().take(3 - padding));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips() {
        for text in ["", "f", "fo", "foo", "foob", "fooba", "foobar", " ü ", "日本"] {
            let encoded = base64_encode(text.as_bytes());
            assert_eq!(base64_decode(&encoded).as_deref(), Some(text.as_bytes()), "{text:?} -> {encoded}");
        }
        assert_eq!(base64_encode(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64_encode(b"fo"), "Zm8=");
        assert_eq!(base64_decode("Zm8"), None);
        assert_eq!(base64_decode("Z=8="), None);
        assert_eq!(base64_decode("Zm8=Zm8="), None);
        assert_eq!(base64_decode("Zm*="), None);
    }
}
