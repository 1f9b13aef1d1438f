//! Content checks for `contentEncoding` and `contentMediaType`.
//!
//! Only the names schemavm can assert are recognised: the `base64`
//! encoding (RFC 4648 section 4) and the `application/json` media type
//! (RFC 8259). The JSON check is iterative, so deeply nested input cannot
//! exhaust the stack.

/// A `contentEncoding` schemavm knows how to decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContentEncoding {
    /// `base64`: RFC 4648 section 4, standard alphabet, padded.
    Base64,
}

impl ContentEncoding {
    /// The encoding named by a `contentEncoding` value (case-insensitive,
    /// as MIME `Content-Transfer-Encoding` names are), if known.
    pub fn from_name(name: &str) -> Option<ContentEncoding> {
        name.eq_ignore_ascii_case("base64").then_some(ContentEncoding::Base64)
    }

    /// Decodes `value`; `None` if it is not valid in this encoding.
    pub fn decode(self, value: &str) -> Option<Vec<u8>> {
        match self {
            ContentEncoding::Base64 => decode_base64(value),
        }
    }
}

/// A `contentMediaType` schemavm knows how to check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContentMediaType {
    /// `application/json` (RFC 8259).
    Json,
}

impl ContentMediaType {
    /// The media type named by a `contentMediaType` value, if known.
    /// Type and subtype compare case-insensitively and parameters such as
    /// `; charset=utf-8` are ignored (RFC 2045 section 5.1).
    pub fn from_name(name: &str) -> Option<ContentMediaType> {
        let essence = name.split(';').next().unwrap_or_default().trim_matches([' ', '\t']);
        essence.eq_ignore_ascii_case("application/json").then_some(ContentMediaType::Json)
    }

    /// Whether `bytes` are a document of this media type.
    pub fn matches(self, bytes: &[u8]) -> bool {
        match self {
            ContentMediaType::Json => is_json(bytes),
        }
    }
}

/// The value of a base64 alphabet byte, or `None`.
fn base64_value(b: u8) -> Option<u32> {
    let v = match b {
        b'A'..=b'Z' => b - b'A',
        b'a'..=b'z' => b - b'a' + 26,
        b'0'..=b'9' => b - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    };
    Some(u32::from(v))
}

/// Decodes RFC 4648 base64 (standard alphabet, padding rules exactly as
/// RFC 4648 §4, no whitespace) — None if invalid.
///
/// The length must be a multiple of four; `=` may only end the last
/// quantum (`xx==` or `xxx=`); and the unused bits of a padded quantum
/// must be zero (the canonical encoding, RFC 4648 section 3.5).
pub fn decode_base64(value: &str) -> Option<Vec<u8>> {
    let bytes = value.as_bytes();
    if bytes.len() % 4 != 0 {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    let mut quanta = bytes.chunks_exact(4).peekable();
    while let Some(quantum) = quanta.next() {
        let last = quanta.peek().is_none();
        let &[a, b, c, d] = quantum else {
            return None;
        };
        let (a, b) = (base64_value(a)?, base64_value(b)?);
        // How many of the quantum's three bytes it encodes.
        let (c, d, len) = match (c, d) {
            (b'=', b'=') if last => (0, 0, 1),
            (c, b'=') if last => (base64_value(c)?, 0, 2),
            (c, d) => (base64_value(c)?, base64_value(d)?, 3),
        };
        let [_, b0, b1, b2] = (a << 18 | b << 12 | c << 6 | d).to_be_bytes();
        let decoded = [b0, b1, b2];
        let (kept, pad_bits) = decoded.split_at_checked(len)?;
        if pad_bits.iter().any(|byte| *byte != 0) {
            return None;
        }
        out.extend_from_slice(kept);
    }
    Some(out)
}

/// Whether `bytes` are one JSON document (RFC 8259), for contentMediaType
/// "application/json": UTF-8, one value surrounded by optional whitespace.
///
/// Runs in linear time with an explicit stack of open containers (one
/// byte per nesting level), so any depth is handled without recursion.
/// `\u` escapes are checked against the grammar only, which admits an
/// escaped lone surrogate.
pub fn is_json(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    JsonChecker { bytes: text.as_bytes(), pos: 0, open: Vec::new() }.document()
}

struct JsonChecker<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// The closing bracket of every open container, innermost last.
    open: Vec<u8>,
}

impl JsonChecker<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        let hit = self.peek() == Some(b);
        self.pos += usize::from(hit);
        hit
    }

    fn document(mut self) -> bool {
        loop {
            // A value; an opened non-empty container continues the loop
            // with its first element.
            self.skip_ws();
            match self.peek() {
                Some(open @ (b'[' | b'{')) => {
                    self.pos += 1;
                    let close = if open == b'[' { b']' } else { b'}' };
                    self.skip_ws();
                    if !self.eat(close) {
                        self.open.push(close);
                        if close == b'}' && !self.member_name() {
                            return false;
                        }
                        continue;
                    }
                }
                _ => {
                    if !self.scalar() {
                        return false;
                    }
                }
            }
            // After a complete value: close containers until a `,` starts
            // the next element, or the document ends.
            loop {
                self.skip_ws();
                let Some(&close) = self.open.last() else {
                    return self.pos == self.bytes.len();
                };
                if self.eat(close) {
                    self.open.pop();
                    continue;
                }
                if !self.eat(b',') || (close == b'}' && !self.member_name()) {
                    return false;
                }
                break;
            }
        }
    }

    /// `string name-separator` of an object member.
    fn member_name(&mut self) -> bool {
        self.skip_ws();
        if !(self.eat(b'"') && self.string_body()) {
            return false;
        }
        self.skip_ws();
        self.eat(b':')
    }

    /// A string, number or literal at the current position.
    fn scalar(&mut self) -> bool {
        match self.peek() {
            Some(b'"') => {
                self.pos += 1;
                self.string_body()
            }
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => false,
        }
    }

    fn literal(&mut self, word: &[u8]) -> bool {
        let hit = self.bytes.get(self.pos..).is_some_and(|rest| rest.starts_with(word));
        self.pos += if hit { word.len() } else { 0 };
        hit
    }

    /// `number = [ minus ] int [ frac ] [ exp ]`
    fn number(&mut self) -> bool {
        self.eat(b'-');
        if !self.eat(b'0') && self.digits() == 0 {
            return false;
        }
        if self.eat(b'.') && self.digits() == 0 {
            return false;
        }
        if self.eat(b'e') || self.eat(b'E') {
            let _sign = self.eat(b'+') || self.eat(b'-');
            if self.digits() == 0 {
                return false;
            }
        }
        true
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - start
    }

    /// The rest of a string after its opening quote, through the closing
    /// quote. Input is known to be UTF-8, so only ASCII needs checking.
    fn string_body(&mut self) -> bool {
        while let Some(b) = self.peek() {
            self.pos += 1;
            match b {
                b'"' => return true,
                b'\\' => {
                    let ok = match self.peek() {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                            self.pos += 1;
                            true
                        }
                        Some(b'u') => {
                            self.pos += 1;
                            let hex = self.bytes.get(self.pos..self.pos + 4);
                            self.pos += 4;
                            hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
                        }
                        _ => false,
                    };
                    if !ok {
                        return false;
                    }
                }
                0x00..=0x1F => return false,
                _ => {}
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::{ContentEncoding, ContentMediaType, decode_base64, is_json};

    #[test]
    fn base64() {
        assert_eq!(decode_base64(""), Some(vec![]));
        assert_eq!(decode_base64("Zg=="), Some(b"f".to_vec()));
        assert_eq!(decode_base64("Zm8="), Some(b"fo".to_vec()));
        assert_eq!(decode_base64("Zm9v"), Some(b"foo".to_vec()));
        assert_eq!(decode_base64("Zm9vYmFy"), Some(b"foobar".to_vec()));
        assert_eq!(decode_base64("+/+/"), Some(vec![0xFB, 0xFF, 0xBF]));
        for bad in [
            "Zg", "Zg=", "Zg===", "Z===", "====", "Zm9", "Zg==Zg==", "Zm=v", "Zh==", "Zm9=", "Zm8 ", " Zm8", "Zm\n8=",
            "Zm-_", "Zm8=\n", "Zm8%",
        ] {
            assert_eq!(decode_base64(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn json() {
        for ok in [
            "0",
            "-0",
            "1.5e+3",
            "-12E-2",
            "\"\"",
            "\"\\u00e9\\n\"",
            "\"é\"",
            "true",
            " null ",
            "[]",
            "{}",
            "[1,[2,{\"a\":[]}],3]",
            "{\"a\":1,\"b\":{\"c\":null}}",
            "\t[ 1 , 2 ]\r\n",
            "\"\\ud800\"",
        ] {
            assert!(is_json(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "",
            " ",
            "01",
            "1.",
            ".5",
            "-",
            "1e",
            "+1",
            "[",
            "]",
            "[1,]",
            "[,1]",
            "{\"a\"}",
            "{\"a\":}",
            "{\"a\":1,}",
            "{1:2}",
            "{\"a\" 1}",
            "[1 2]",
            "1 2",
            "tru",
            "nul",
            "\"a",
            "\"\\x\"",
            "\"\\u12\"",
            "\"\t\"",
            "{:}",
            "[}",
            "{]",
            "{\"a\":1]",
            "NaN",
            "'a'",
            "[1]]",
        ] {
            assert!(!is_json(bad.as_bytes()), "{bad:?}");
        }
        assert!(!is_json(b"\"\xff\""));
    }

    #[test]
    fn deep_json_is_bounded() {
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        assert!(is_json(deep.as_bytes()));
        assert!(!is_json("[".repeat(100_000).as_bytes()));
        let objects = "{\"a\":".repeat(50_000) + "1" + &"}".repeat(50_000);
        assert!(is_json(objects.as_bytes()));
    }

    #[test]
    fn names() {
        assert_eq!(ContentEncoding::from_name("base64"), Some(ContentEncoding::Base64));
        assert_eq!(ContentEncoding::from_name("BASE64"), Some(ContentEncoding::Base64));
        assert_eq!(ContentEncoding::from_name("base32"), None);
        assert_eq!(ContentEncoding::Base64.decode("e30="), Some(b"{}".to_vec()));
        assert_eq!(ContentMediaType::from_name("application/json"), Some(ContentMediaType::Json));
        assert_eq!(ContentMediaType::from_name("Application/JSON; charset=utf-8"), Some(ContentMediaType::Json));
        assert_eq!(ContentMediaType::from_name("application/json ;charset=\"utf-8\""), Some(ContentMediaType::Json));
        assert_eq!(ContentMediaType::from_name("application/jsonx"), None);
        assert_eq!(ContentMediaType::from_name("text/plain"), None);
        assert!(ContentMediaType::Json.matches(b"{}"));
    }
}
