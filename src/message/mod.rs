//! Messages: the text of a [`ValidationError`], written for whoever must
//! correct the instance, often a language model.
//!
//! A message says what is wrong and what would be accepted, in a few
//! words: `must be one of ["open","closed","all"] (got "pending")`,
//! `unknown property; did you mean "query"?`, `must be a date-time (RFC
//! 3339), e.g. "2025-08-08T10:00:00Z" (got "tomorrow")`. Every error
//! carries the [`MessageOptions`] of the validator that found it, so every
//! rendering (its `Display`, [`ValidationError::message`], the CLI and the
//! [`mcp`](crate::mcp) shapes) masks instance values and caps lengths the
//! same way.
//!
//! What masking hides: the instance's values (`(got "hunter2")` becomes
//! `(got a string of 7 characters)`). What it keeps: the schema's own
//! values (`const`, `enum`, bounds, patterns, declared property names),
//! sizes and types, and the instance location, property names included
//! (a model needs to know where the mistake is).

mod formats;
mod suggest;

use std::borrow::Cow;
use std::fmt::{self, Write as _};

use serde_json::Value;

use schemavm_compiler::value::JsonType;

use crate::error::{ErrorKind, Found, ValidationError};

pub(crate) use suggest::closest_name;

/// How error messages are rendered. Set with
/// [`ValidatorOptions::mask_values`](crate::ValidatorOptions::mask_values)
/// and [`ValidatorOptions::max_message_len`](crate::ValidatorOptions::max_message_len);
/// every [`ValidationError`] carries the options of its validator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MessageOptions {
    /// Never echo instance values: `(got a string of 12 characters)`,
    /// `(got a number)`, `(got an object with 3 properties)`.
    pub mask_values: bool,
    /// The longest rendering of one error (location and message), in
    /// bytes of UTF-8; longer ones are cut at a character boundary and end
    /// with `…` (included in the length). `None`: no limit.
    pub max_len: Option<usize>,
}

impl MessageOptions {
    /// The default: values echoed, no length limit.
    pub const DEFAULT: MessageOptions = MessageOptions { mask_values: false, max_len: None };
}

/// Most declared property names listed after `allowed:`.
const ALLOWED_NAMES: usize = 20;
/// Most characters of the `allowed:` list.
const ALLOWED_CHARS: usize = 200;
/// Most characters of a schema value (`const`, `enum` member, pattern)
/// quoted in a message.
const SCHEMA_VALUE_CHARS: usize = 100;

/// `text` cut to at most `max` bytes, at a character boundary, ending with
/// `…` when cut (the ellipsis counts; below 3 bytes there is no room for
/// it).
pub(crate) fn truncate(text: &str, max: usize) -> Cow<'_, str> {
    if text.len() <= max {
        return Cow::Borrowed(text);
    }
    const ELLIPSIS: &str = "…";
    let room = if max >= ELLIPSIS.len() { max - ELLIPSIS.len() } else { max };
    let mut cut = room;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let head = text.get(..cut).unwrap_or_default();
    if max >= ELLIPSIS.len() { Cow::Owned(format!("{head}{ELLIPSIS}")) } else { Cow::Borrowed(head) }
}

/// `text` under an optional limit.
fn capped(text: String, max: Option<usize>) -> String {
    match max {
        Some(max) => truncate(&text, max).into_owned(),
        None => text,
    }
}

/// `n` and the noun, singular or plural: `1 item`, `3 items`.
pub(crate) fn count(n: impl Into<u64>, singular: &str, plural: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { singular } else { plural })
}

/// A schema value as JSON, cut at [`SCHEMA_VALUE_CHARS`] characters.
fn schema_value(value: &Value) -> String {
    schema_text(&value.to_string())
}

/// Schema text, cut at [`SCHEMA_VALUE_CHARS`] characters.
fn schema_text(text: &str) -> String {
    match text.char_indices().nth(SCHEMA_VALUE_CHARS) {
        Some((cut, _)) => format!("{}…", text.get(..cut).unwrap_or_default()),
        None => text.to_string(),
    }
}

/// Largest exponent written out in full by [`plain_number`].
const PLAIN_EXPONENT: i32 = 20;

/// A schema number as a message shows it: exponent notation (`15e-1`,
/// how exact decimals are kept) written out (`1.5`) unless the exponent
/// is large.
fn number_text(value: &Value) -> String {
    match value {
        Value::Number(n) => plain_number(&n.to_string()),
        other => other.to_string(),
    }
}

/// `text` (a JSON number) without its exponent, if it has a small one.
fn plain_number(text: &str) -> String {
    let Some((mantissa, exponent)) = text.split_once(['e', 'E']) else {
        return text.to_string();
    };
    let Some(exponent) = exponent.parse::<i32>().ok().filter(|e| e.abs() <= PLAIN_EXPONENT) else {
        return text.to_string();
    };
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    // Where the decimal point falls in `digits`.
    let point = int.len() as i32 + exponent;
    let (whole, fraction) = if point <= 0 {
        ("0".to_string(), format!("{}{digits}", "0".repeat(point.unsigned_abs() as usize)))
    } else {
        let at = point as usize;
        match (digits.get(..at), digits.get(at..)) {
            (Some(w), Some(f)) => (w.to_string(), f.to_string()),
            _ => (format!("{digits}{}", "0".repeat(at.saturating_sub(digits.len()))), String::new()),
        }
    };
    let whole = whole.trim_start_matches('0');
    let fraction = fraction.trim_end_matches('0');
    let whole = if whole.is_empty() { "0" } else { whole };
    if fraction.is_empty() { format!("{sign}{whole}") } else { format!("{sign}{whole}.{fraction}") }
}

/// A string as a JSON string literal.
pub(crate) fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

/// A type with its article: `a string`, `an integer`, `null`.
fn type_phrase(t: JsonType) -> String {
    match t.name() {
        "null" => "null".to_string(),
        name if name.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("an {name}"),
        name => format!("a {name}"),
    }
}

/// `a, b or c`.
fn either(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// How a message shows the instance value.
struct Shown<'a> {
    found: &'a Found,
    masked: bool,
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.found, self.masked) {
            (Found::Null, _) => f.write_str("null"),
            (Found::Boolean(_), true) => f.write_str("a boolean"),
            (Found::Boolean(b), false) => write!(f, "{b}"),
            (Found::Number(_), true) => f.write_str("a number"),
            (Found::Number(text), false) => f.write_str(text),
            (Found::String { length, .. }, true) => {
                write!(f, "a string of {}", count(*length as u64, "character", "characters"))
            }
            (Found::String { start, length }, false) => {
                f.write_str(&quoted(start))?;
                if *length > start.chars().count() { f.write_str("…") } else { Ok(()) }
            }
            (Found::Array { items }, _) => write!(f, "an array of {}", count(*items as u64, "item", "items")),
            (Found::Object { properties }, _) => {
                write!(f, "an object with {}", count(*properties as u64, "property", "properties"))
            }
        }
    }
}

/// The declared names after `allowed:`, bounded in count and length.
fn allowed_list(names: &[String]) -> String {
    let mut out = String::new();
    let mut shown = 0;
    for name in names {
        let item = if crate::location::is_identifier(name) { name.clone() } else { quoted(name) };
        let too_long = out.chars().count() + item.chars().count() > ALLOWED_CHARS;
        if shown == ALLOWED_NAMES || (shown > 0 && too_long) {
            break;
        }
        if shown > 0 {
            out.push_str(", ");
        }
        out.push_str(&schema_text(&item));
        shown += 1;
    }
    if shown < names.len() {
        let _ = write!(out, ", … ({} more)", names.len() - shown);
    }
    out
}

impl ErrorKind {
    /// For an unknown property: the declared property it most likely
    /// misspells (Damerau–Levenshtein distance at most 2, 1 for names of
    /// up to 4 characters, or equal but for case, `_` and `-`).
    pub fn suggestion(&self) -> Option<&str> {
        match self {
            ErrorKind::UnexpectedProperty { name, allowed, .. } => closest_name(name, allowed),
            _ => None,
        }
    }
}

/// Writes the message of `e` (without the location), unbounded.
fn write_message(out: &mut String, e: &ValidationError) -> fmt::Result {
    let masked = e.0.options.mask_values;
    match e.kind() {
        ErrorKind::False => out.push_str("no value is allowed here"),
        ErrorKind::Type { expected, found } => {
            let names: Vec<String> = expected.iter().map(|t| type_phrase(*t)).collect();
            return write!(out, "must be {} (got {})", either(&names), type_phrase(*found));
        }
        ErrorKind::Const { expected } => write!(out, "must be {}", schema_value(expected))?,
        ErrorKind::Enum { allowed, total } => {
            let values: Vec<String> = allowed.iter().map(schema_value).collect();
            write!(out, "must be one of [{}]", values.join(","))?;
            if *total > allowed.len() {
                write!(out, " (and {} more)", total - allowed.len())?;
            }
        }
        ErrorKind::Minimum { limit, exclusive } => {
            write!(out, "must be {} {}", if *exclusive { "greater than" } else { "at least" }, number_text(limit))?
        }
        ErrorKind::Maximum { limit, exclusive } => {
            write!(out, "must be {} {}", if *exclusive { "less than" } else { "at most" }, number_text(limit))?
        }
        ErrorKind::MultipleOf { divisor } => write!(out, "must be a multiple of {}", number_text(divisor))?,
        ErrorKind::MinLength { limit, length } => {
            let got = count(*length, "character", "characters");
            return write!(out, "must be at least {} long (got {got})", count(*limit, "character", "characters"));
        }
        ErrorKind::MaxLength { limit, length } => {
            let got = count(*length, "character", "characters");
            return write!(out, "must be at most {} long (got {got})", count(*limit, "character", "characters"));
        }
        ErrorKind::Pattern { pattern } => write!(out, "must match the pattern {}", schema_text(&quoted(pattern)))?,
        ErrorKind::Format { format, builtin } => match builtin {
            Some(f) => {
                let d = formats::describe(*f);
                write!(out, "must be {}, e.g. {}", d.name, quoted(d.example))?;
            }
            None => write!(out, "must match the format {}", schema_text(&quoted(format)))?,
        },
        ErrorKind::ContentEncoding { encoding } => write!(out, "must be {encoding}-encoded")?,
        ErrorKind::ContentMediaType { media_type } => write!(out, "must be a valid {media_type} document")?,
        ErrorKind::MinItems { limit, count: n } => {
            return write!(out, "must have at least {} (got {n})", count(*limit, "item", "items"));
        }
        ErrorKind::MaxItems { limit, count: n } => {
            return write!(out, "must have at most {} (got {n})", count(*limit, "item", "items"));
        }
        ErrorKind::UniqueItems { first, second } => {
            return write!(out, "items must be unique (items {first} and {second} are equal)");
        }
        ErrorKind::Contains { min, max, count: n } => {
            return match (min, max) {
                (_, Some(max)) if n > max => {
                    write!(out, "must contain at most {} (got {n})", count(*max, "matching item", "matching items"))
                }
                (1, _) if *n == 0 => write!(out, "must contain at least one matching item"),
                _ => write!(out, "must contain at least {} (got {n})", count(*min, "matching item", "matching items")),
            };
        }
        ErrorKind::UnexpectedItem { keyword } => {
            return write!(out, "unexpected item (not allowed by {keyword})");
        }
        ErrorKind::Required { missing } => return write!(out, "missing required property {}", quoted(missing)),
        ErrorKind::DependentRequired { property, missing } => {
            return write!(out, "missing property {}, required when {} is present", quoted(missing), quoted(property));
        }
        ErrorKind::MinProperties { limit, count: n } => {
            return write!(out, "must have at least {} (got {n})", count(*limit, "property", "properties"));
        }
        ErrorKind::MaxProperties { limit, count: n } => {
            return write!(out, "must have at most {} (got {n})", count(*limit, "property", "properties"));
        }
        ErrorKind::UnexpectedProperty { allowed, .. } => {
            out.push_str("unknown property");
            match e.kind().suggestion() {
                Some(name) => write!(out, "; did you mean {}?", quoted(name))?,
                None if !allowed.is_empty() => write!(out, "; allowed: {}", allowed_list(allowed))?,
                None => {}
            }
            return Ok(());
        }
        ErrorKind::PropertyName { name } => return write!(out, "property name {} is not allowed", quoted(name)),
        ErrorKind::AnyOf { alternatives, closest } | ErrorKind::OneOfNone { alternatives, closest } => {
            write!(out, "matched none of {alternatives} alternatives")?;
            if matches!(e.kind(), ErrorKind::OneOfNone { .. }) {
                out.push_str(" (exactly one must match)");
            }
            if let Some(i) = closest {
                write!(out, "; closest is #{i}")?;
            }
            return Ok(());
        }
        ErrorKind::OneOfMultiple { matched } => {
            let list: Vec<String> = matched.iter().map(|i| format!("#{i}")).collect();
            let list = match list.as_slice() {
                [init @ .., last] if !init.is_empty() => format!("{} and {last}", init.join(", ")),
                _ => list.join(""),
            };
            return write!(out, "must match exactly one alternative, but matched {list}");
        }
        ErrorKind::Not => out.push_str("must not match the schema in \"not\""),
        ErrorKind::ErrorLimit { max } => {
            return write!(out, "more errors than the error limit ({max}); the rest are not listed");
        }
        ErrorKind::BudgetExceeded { reason, fuel_used } => {
            return write!(
                out,
                "not validated: {} after {} (raise {})",
                reason.description(),
                count(*fuel_used, "unit of fuel", "units of fuel"),
                reason.setting()
            );
        }
    }
    if let Some(found) = e.found() {
        write!(out, " (got {})", Shown { found, masked })?;
    }
    Ok(())
}

impl ValidationError {
    /// The message without the location prefix, under the error's
    /// [`MessageOptions`].
    pub fn message(&self) -> String {
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = write_message(&mut s, self);
        capped(s, self.0.options.max_len)
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = format!("{}: ", self.0.instance_location());
        write_message(&mut s, self)?;
        f.write_str(&capped(s, self.0.options.max_len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_respects_the_limit_and_char_boundaries() {
        assert_eq!(truncate("short", 10), "short");
        assert_eq!(truncate("abcdefgh", 6), "abc…");
        assert_eq!(truncate("abcdefgh", 6).len(), 6);
        // "é" is 2 bytes: a cut inside it moves back.
        assert_eq!(truncate("éééé", 6), "é…");
        assert_eq!(truncate("日本語テキスト", 8), "日…");
        assert_eq!(truncate("abcdef", 2), "ab");
        assert_eq!(truncate("日本", 2), "");
        assert_eq!(truncate("abc", 0), "");
        for max in 0..40 {
            let t = truncate("a😀b日c€d", max);
            assert!(t.len() <= max || t == "a😀b日c€d", "{max}: {t}");
        }
    }

    #[test]
    fn found_values_show_or_mask() {
        let show = |v: serde_json::Value, masked| Shown { found: &Found::of(&v), masked }.to_string();
        assert_eq!(show(serde_json::json!("pending"), false), r#""pending""#);
        assert_eq!(show(serde_json::json!("pending"), true), "a string of 7 characters");
        assert_eq!(show(serde_json::json!("x"), true), "a string of 1 character");
        assert_eq!(show(serde_json::json!(120), false), "120");
        assert_eq!(show(serde_json::json!(1.5), true), "a number");
        assert_eq!(show(serde_json::json!(true), false), "true");
        assert_eq!(show(serde_json::json!(false), true), "a boolean");
        assert_eq!(show(serde_json::json!(null), true), "null");
        assert_eq!(show(serde_json::json!([1]), false), "an array of 1 item");
        assert_eq!(show(serde_json::json!({"a": 1, "b": 2, "c": 3}), true), "an object with 3 properties");
        let long = "x".repeat(100);
        assert_eq!(show(serde_json::json!(long), false), format!("\"{}\"…", "x".repeat(60)));
    }

    #[test]
    fn allowed_lists_are_bounded() {
        let names: Vec<String> = (0..30).map(|i| format!("field_{i}")).collect();
        let list = allowed_list(&names);
        assert!(list.ends_with(", … (10 more)"), "{list}");
        let long: Vec<String> = (0..5).map(|i| format!("{i}{}", "n".repeat(90))).collect();
        let list = allowed_list(&long);
        assert!(list.ends_with("(3 more)") && list.chars().count() < 260, "{list}");
        assert_eq!(allowed_list(&["a b".to_string(), "c".to_string()]), r#""a b", c"#);
    }

    #[test]
    fn schema_numbers_are_written_out() {
        for (text, plain) in [
            ("15e-1", "1.5"),
            ("5e-1", "0.5"),
            ("1e3", "1000"),
            ("1E+2", "100"),
            ("-25e-3", "-0.025"),
            ("1.5e2", "150"),
            ("1.25e1", "12.5"),
            ("1e-7", "0.0000001"),
            ("0e5", "0"),
            ("1e300", "1e300"),
            ("12", "12"),
            ("-0.5", "-0.5"),
        ] {
            assert_eq!(plain_number(text), plain, "{text}");
        }
        assert_eq!(number_text(&serde_json::json!(50)), "50");
    }

    #[test]
    fn type_lists_read_naturally() {
        let phrases: Vec<String> =
            [JsonType::String, JsonType::Integer, JsonType::Null].into_iter().map(type_phrase).collect();
        assert_eq!(either(&phrases), "a string, an integer or null");
        assert_eq!(either(&phrases[..1]), "a string");
    }
}
