//! `uri-template`: the RFC 6570 (level 4) template syntax, section 2.
//!
//! ```text
//! URI-Template  = *( literals / expression )
//! expression    = "{" [ operator ] variable-list "}"
//! operator      = "+" / "#" / "." / "/" / ";" / "?" / "&" / "=" / "," / "!" / "@" / "|"
//! variable-list = varspec *( "," varspec )
//! varspec       = varname [ ":" max-length / "*" ]
//! varname       = varchar *( ["."] varchar )
//! varchar       = ALPHA / DIGIT / "_" / pct-encoded
//! max-length    = %x31-39 0*3DIGIT
//! ```
//!
//! The operators `= , ! @ |` are reserved for future extensions but are
//! part of the ABNF, so they are accepted. Literals follow RFC 6570 with
//! its erratum 6937, which admits the apostrophe.

use super::uri::{is_iprivate, is_ucschar, take_pct_hex};

/// Whether `s` is a syntactically valid URI template.
pub fn is_uri_template(s: &str) -> bool {
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        let ok = match c {
            '{' => {
                let rest = chars.as_str();
                let Some((expression, after)) = rest.split_once('}') else {
                    return false;
                };
                chars = after.chars();
                is_expression(expression)
            }
            '%' => take_pct_hex(&mut chars),
            // Any ASCII except CTL, SP, DQUOTE, "%", "<", ">", "\", "^",
            // "`", "{", "|", "}".
            '!' | '#'..='$' | '&'..=';' | '=' | '?'..='[' | ']' | '_' | 'a'..='z' | '~' => true,
            c => is_ucschar(c) || is_iprivate(c),
        };
        if !ok {
            return false;
        }
    }
    true
}

/// Checks the text between `{` and `}`.
fn is_expression(s: &str) -> bool {
    let list = s.strip_prefix(['+', '#', '.', '/', ';', '?', '&', '=', ',', '!', '@', '|']).unwrap_or(s);
    list.split(',').all(is_varspec)
}

fn is_varspec(s: &str) -> bool {
    let (name, max_length) = match s.split_once(':') {
        Some((name, max_length)) => (name, Some(max_length)),
        None => (s.strip_suffix('*').unwrap_or(s), None),
    };
    let max_ok = max_length
        .is_none_or(|m| (1..=4).contains(&m.len()) && !m.starts_with('0') && m.bytes().all(|b| b.is_ascii_digit()));
    max_ok && is_varname(name)
}

/// `varname = varchar *( ["."] varchar )`: non-empty, no leading,
/// trailing or doubled dot.
fn is_varname(s: &str) -> bool {
    let mut chars = s.chars();
    let mut previous_dot = true;
    while let Some(c) = chars.next() {
        let ok = match c {
            '.' => !previous_dot,
            '%' => take_pct_hex(&mut chars),
            c => c.is_ascii_alphanumeric() || c == '_',
        };
        if !ok {
            return false;
        }
        previous_dot = c == '.';
    }
    !previous_dot
}

#[cfg(test)]
mod tests {
    use super::is_uri_template;

    #[test]
    fn templates() {
        for ok in [
            "",
            "abc",
            "{a}",
            "{+a}{#b}{.c}{/d}{;e}{?f}{&g}",
            "{a,b.c,d*,e:1,f:9999}",
            "{%41b}",
            "{=a}",
            "x{a}y{b}z",
            "http://example.com/~{user}/{file*}",
            "a%20b",
            "ü",
            "a'b",
        ] {
            assert!(is_uri_template(ok), "{ok}");
        }
        for bad in [
            "{",
            "}",
            "{}",
            "{+}",
            "{a",
            "a}",
            "{a b}",
            "{a,}",
            "{.a.}",
            "{a..b}",
            "{a:0}",
            "{a:01}",
            "{a:10000}",
            "{a:}",
            "{a:1*}",
            "{a*:1}",
            "{a**}",
            "{{a}}",
            "{a}}",
            "%",
            "%4",
            "%4g",
            "a b",
            "<",
            "\"",
            "\\",
            "^",
            "`",
            "|",
            "\u{7f}",
            "\u{85}",
            "{ü}",
            "{%4}",
            "{++a}",
        ] {
            assert!(!is_uri_template(bad), "{bad:?}");
        }
    }
}
