//! JSON Pointers (RFC 6901): building, escaping and walking.

use serde_json::Value;

/// Escapes one reference token (`~` → `~0`, `/` → `~1`).
pub fn escape(token: &str) -> std::borrow::Cow<'_, str> {
    if needs_escape(token) { escaped_pieces(token).collect::<String>().into() } else { token.into() }
}

/// The escaped reference token of `token` in pieces (runs of plain
/// text, `~0` and `~1`), for writers that append them without building
/// the token.
pub fn escaped_pieces(token: &str) -> impl Iterator<Item = &str> {
    let mut rest = token;
    std::iter::from_fn(move || {
        let piece = match rest.find(['~', '/']) {
            None if rest.is_empty() => return None,
            None => rest,
            Some(0) => {
                let escaped = if rest.starts_with('~') { "~0" } else { "~1" };
                rest = rest.get(1..).unwrap_or_default();
                return Some(escaped);
            }
            Some(at) => rest.get(..at).unwrap_or_default(),
        };
        rest = rest.get(piece.len()..).unwrap_or_default();
        Some(piece)
    })
}

/// An array index as a reference token, written without allocating.
pub(crate) struct IndexToken {
    digits: [u8; 20],
    start: usize,
}

impl IndexToken {
    /// The token for index `i`.
    pub(crate) fn new(mut i: usize) -> IndexToken {
        let mut token = IndexToken { digits: [b'0'; 20], start: 20 };
        loop {
            token.start -= 1;
            if let Some(d) = token.digits.get_mut(token.start) {
                *d = b'0' + (i % 10) as u8;
            }
            i /= 10;
            if i == 0 || token.start == 0 {
                return token;
            }
        }
    }

    /// The decimal digits.
    pub(crate) fn as_str(&self) -> &str {
        self.digits.get(self.start..).and_then(|d| std::str::from_utf8(d).ok()).unwrap_or("")
    }
}

/// Splits a pointer into unescaped tokens; `None` if it is not a pointer
/// (non-empty and not starting with `/`, or a bad `~` escape).
pub fn tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/').map(unescape).collect()
}

fn unescape(token: &str) -> Option<String> {
    if !token.contains('~') {
        return Some(token.to_string());
    }
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Steps from `value` into the child named by one unescaped `token`.
pub fn step<'a>(value: &'a Value, token: &str) -> Option<&'a Value> {
    match value {
        Value::Object(map) => map.get(token),
        Value::Array(items) => items.get(array_index(token)?),
        _ => None,
    }
}

/// An RFC 6901 array index: digits, no leading zero.
fn array_index(token: &str) -> Option<usize> {
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) || (token.len() > 1 && token.starts_with('0')) {
        return None;
    }
    token.parse().ok()
}

/// Appends one token, escaped, to a pointer.
pub fn push(pointer: &mut String, token: &str) {
    pointer.push('/');
    if needs_escape(token) {
        pointer.extend(escaped_pieces(token));
    } else {
        pointer.push_str(token);
    }
}

/// Whether `token` holds a `~` or `/` (eight bytes at a time, the last
/// word overlapping the one before: keywords and property names rarely
/// do).
pub fn needs_escape(token: &str) -> bool {
    /// Whether a byte of `x` is zero.
    fn has_zero(x: u64) -> bool {
        x.wrapping_sub(0x0101_0101_0101_0101) & !x & 0x8080_8080_8080_8080 != 0
    }
    let (tilde, slash) = (u64::from_ne_bytes([b'~'; 8]), u64::from_ne_bytes([b'/'; 8]));
    let bytes = token.as_bytes();
    let n = bytes.len();
    if n < 8 {
        return bytes.iter().any(|&b| b == b'~' || b == b'/');
    }
    let holds = |at: usize| {
        let x = bytes.get(at..at + 8).and_then(|w| w.try_into().ok()).map_or(0, u64::from_ne_bytes);
        has_zero(x ^ tilde) || has_zero(x ^ slash)
    };
    let mut at = 0;
    while at + 8 < n {
        if holds(at) {
            return true;
        }
        at += 8;
    }
    holds(n - 8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn index_tokens_are_decimal() {
        for i in [0, 7, 10, 99, 12345, usize::MAX] {
            assert_eq!(IndexToken::new(i).as_str(), i.to_string());
        }
    }

    #[test]
    fn escapes_are_found_at_every_position_and_length() {
        for n in 0..40 {
            let plain = "k".repeat(n);
            assert!(!needs_escape(&plain), "{n}");
            for at in 0..n {
                for special in ['~', '/'] {
                    let mut token: Vec<char> = plain.chars().collect();
                    token[at] = special;
                    let token: String = token.into_iter().collect();
                    assert!(needs_escape(&token), "{token}");
                }
            }
        }
        assert!(!needs_escape("é€𝄞 unicode, no escapes"));
        assert!(needs_escape("é€𝄞 unicode, then a ~"));
    }

    #[test]
    fn tokens_unescape() {
        assert_eq!(tokens("").unwrap(), Vec::<String>::new());
        assert_eq!(tokens("/a~1b/c~0d/").unwrap(), vec!["a/b", "c~d", ""]);
        assert_eq!(tokens("a"), None);
        assert_eq!(tokens("/a~2"), None);
    }

    #[test]
    fn steps_objects_and_arrays() {
        let v = json!({"a": [1, {"b": 2}]});
        let a = step(&v, "a").unwrap();
        assert_eq!(step(a, "1").and_then(|x| step(x, "b")), Some(&json!(2)));
        assert_eq!(step(a, "01"), None);
        assert_eq!(step(a, "-"), None);
    }

    #[test]
    fn tokens_escape_in_pieces() {
        let cases = [
            ("", ""),
            ("a", "a"),
            ("~", "~0"),
            ("/", "~1"),
            ("~1", "~01"),
            ("a/b~c", "a~1b~0c"),
            ("//~~", "~1~1~0~0"),
            ("^/", "^~1"),
            ("^\\~1/", "^\\~01~1"),
            ("é/€~𝄞", "é~1€~0𝄞"),
            ("x~", "x~0"),
        ];
        for (token, escaped) in cases {
            assert_eq!(escape(token), escaped, "{token}");
            assert_eq!(escaped_pieces(token).collect::<String>(), escaped, "{token}");
            assert_eq!(unescape(escaped).as_deref(), Some(token), "{token}");
        }
    }

    #[test]
    fn escape_round_trip() {
        let mut p = String::new();
        push(&mut p, "a/b~c");
        assert_eq!(p, "/a~1b~0c");
        assert_eq!(tokens(&p).unwrap(), vec!["a/b~c"]);
    }
}
