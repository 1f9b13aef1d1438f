//! Validation errors: where the instance fails, which keyword, and why.

use std::fmt;

use serde_json::Value;

use schemavm_compiler::value::JsonType;

use crate::location::InstanceLocation;

/// Why an evaluation stopped before reaching a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exhausted {
    /// The fuel budget ran out.
    Fuel,
    /// The wall-clock deadline passed.
    Deadline,
    /// Evaluation nested deeper than the depth limit.
    Depth,
    /// A regular expression hit its backtracking limit.
    Regex,
}

impl fmt::Display for Exhausted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Exhausted::Fuel => "the fuel budget ran out (raise Budget::fuel)",
            Exhausted::Deadline => "the deadline passed (raise Budget::deadline)",
            Exhausted::Depth => "evaluation nested too deeply (raise Budget::max_depth)",
            Exhausted::Regex => "a regular expression hit its backtracking limit (raise Limits::regex.backtrack_limit)",
        })
    }
}

/// The class of a [`ValidationError`], with its details.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The `false` schema: nothing is valid here.
    False,
    /// `type`.
    Type {
        /// The accepted types.
        expected: Vec<JsonType>,
        /// The instance's type.
        found: JsonType,
    },
    /// `const`.
    Const {
        /// The required value.
        expected: Value,
    },
    /// `enum`.
    Enum {
        /// The accepted values (at most 20 shown).
        allowed: Vec<Value>,
        /// How many values the enum has.
        total: usize,
    },
    /// `minimum` / `exclusiveMinimum`.
    Minimum {
        /// The bound.
        limit: Value,
        /// Whether the bound itself is excluded.
        exclusive: bool,
    },
    /// `maximum` / `exclusiveMaximum`.
    Maximum {
        /// The bound.
        limit: Value,
        /// Whether the bound itself is excluded.
        exclusive: bool,
    },
    /// `multipleOf`.
    MultipleOf {
        /// The divisor.
        divisor: Value,
    },
    /// `minLength`.
    MinLength {
        /// The minimum, in characters.
        limit: u64,
        /// The string's length, in characters.
        length: u64,
    },
    /// `maxLength`.
    MaxLength {
        /// The maximum, in characters.
        limit: u64,
        /// The string's length, in characters.
        length: u64,
    },
    /// `pattern`.
    Pattern {
        /// The regular expression.
        pattern: String,
    },
    /// Asserted `format`.
    Format {
        /// The format name.
        format: String,
    },
    /// Asserted `contentEncoding`.
    ContentEncoding {
        /// The encoding.
        encoding: String,
    },
    /// Asserted `contentMediaType`.
    ContentMediaType {
        /// The media type.
        media_type: String,
    },
    /// `minItems`.
    MinItems {
        /// The minimum.
        limit: u64,
        /// The array's length.
        count: u64,
    },
    /// `maxItems`.
    MaxItems {
        /// The maximum.
        limit: u64,
        /// The array's length.
        count: u64,
    },
    /// `uniqueItems`.
    UniqueItems {
        /// Index of the first of two equal items.
        first: usize,
        /// Index of the second.
        second: usize,
    },
    /// `contains` with `minContains`/`maxContains`.
    Contains {
        /// Required minimum of matching items.
        min: u64,
        /// Allowed maximum of matching items.
        max: Option<u64>,
        /// Matching items found.
        count: u64,
    },
    /// An item no `items`/`prefixItems`/... admits (`additionalItems` or
    /// `unevaluatedItems` is `false`).
    UnexpectedItem {
        /// `additionalItems`, `items` or `unevaluatedItems`.
        keyword: &'static str,
    },
    /// `required`.
    Required {
        /// The missing property.
        missing: String,
    },
    /// `dependentRequired` / `dependencies`.
    DependentRequired {
        /// The property whose presence requires `missing`.
        property: String,
        /// The missing property.
        missing: String,
    },
    /// `minProperties`.
    MinProperties {
        /// The minimum.
        limit: u64,
        /// The object's size.
        count: u64,
    },
    /// `maxProperties`.
    MaxProperties {
        /// The maximum.
        limit: u64,
        /// The object's size.
        count: u64,
    },
    /// A property the schema does not allow (`additionalProperties` or
    /// `unevaluatedProperties` is `false`).
    UnexpectedProperty {
        /// `additionalProperties` or `unevaluatedProperties`.
        keyword: &'static str,
        /// The property name.
        name: String,
        /// The properties the schema declares.
        allowed: Vec<String>,
    },
    /// `propertyNames` rejected a name (the name's own errors follow).
    PropertyName {
        /// The property name.
        name: String,
    },
    /// `anyOf`: no alternative matched (the closest one's errors follow).
    AnyOf {
        /// How many alternatives there are.
        alternatives: usize,
        /// The alternative that came closest, whose errors are reported.
        closest: Option<usize>,
    },
    /// `oneOf`: no alternative matched (the closest one's errors follow).
    OneOfNone {
        /// How many alternatives there are.
        alternatives: usize,
        /// The alternative that came closest, whose errors are reported.
        closest: Option<usize>,
    },
    /// `oneOf`: several alternatives matched.
    OneOfMultiple {
        /// The indices of the matching alternatives.
        matched: Vec<usize>,
    },
    /// `not`: the subschema matched.
    Not,
    /// More errors were found than `Budget::max_errors`; the rest are not
    /// listed (the instance is invalid either way).
    ErrorLimit {
        /// The limit.
        max: usize,
    },
    /// The evaluation stopped before a verdict: the instance was NOT
    /// validated.
    BudgetExceeded {
        /// What ran out.
        reason: Exhausted,
        /// Fuel used before stopping.
        fuel_used: u64,
    },
}

/// One way an instance fails its schema. (Boxed inside, so results
/// carrying it stay one pointer wide.)
#[derive(Debug, Clone, PartialEq)]
pub struct ValidationError(pub(crate) Box<ErrorData>);

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ErrorData {
    pub(crate) instance_location: InstanceLocation,
    pub(crate) keyword_location: String,
    pub(crate) absolute_keyword_location: String,
    pub(crate) kind: ErrorKind,
    pub(crate) found: Option<String>,
}

impl ValidationError {
    pub(crate) fn new(data: ErrorData) -> ValidationError {
        ValidationError(Box::new(data))
    }

    /// Where in the instance.
    pub fn instance_location(&self) -> &InstanceLocation {
        &self.0.instance_location
    }
    /// The keyword's evaluation path from the root schema, through `$ref`s
    /// (a JSON Pointer, e.g. `/properties/a/$ref/type`).
    pub fn keyword_location(&self) -> &str {
        &self.0.keyword_location
    }
    /// The keyword's absolute location: its resource's URI and a JSON
    /// Pointer fragment.
    pub fn absolute_keyword_location(&self) -> &str {
        &self.0.absolute_keyword_location
    }
    /// What is wrong, with details.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }
    /// Whether this error reports an exhausted budget rather than an
    /// invalid instance.
    pub fn is_budget_exceeded(&self) -> bool {
        matches!(self.0.kind, ErrorKind::BudgetExceeded { .. })
    }
    /// The message without the location prefix.
    pub fn message(&self) -> String {
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = fmt::write(&mut s, format_args!("{}", Message(self)));
        s
    }
}

/// A short JSON rendering of a value for messages.
pub(crate) fn preview(value: &Value) -> String {
    const MAX: usize = 60;
    let text = match value {
        Value::Array(a) => return format!("an array of {} items", a.len()),
        Value::Object(o) => return format!("an object with {} properties", o.len()),
        v => v.to_string(),
    };
    if text.chars().count() > MAX {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}…")
    } else {
        text
    }
}

fn json_list(values: &[Value]) -> String {
    let parts: Vec<String> = values.iter().map(Value::to_string).collect();
    format!("[{}]", parts.join(","))
}

struct Message<'a>(&'a ValidationError);

impl fmt::Display for Message<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.0;
        match &e.0.kind {
            ErrorKind::False => f.write_str("no value is allowed here")?,
            ErrorKind::Type { expected, found } => {
                let names: Vec<&str> = expected.iter().map(|t| t.name()).collect();
                let article = |t: &str| {
                    if t.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }
                };
                match names.as_slice() {
                    [one] => write!(f, "must be {} {one}", article(one))?,
                    _ => write!(f, "must be one of the types {}", names.join(", "))?,
                }
                write!(f, " (got {} {found})", article(found.name()))?;
                return Ok(());
            }
            ErrorKind::Const { expected } => write!(f, "must be {expected}")?,
            ErrorKind::Enum { allowed, total } => {
                write!(f, "must be one of {}", json_list(allowed))?;
                if *total > allowed.len() {
                    write!(f, " (and {} more)", total - allowed.len())?;
                }
            }
            ErrorKind::Minimum { limit, exclusive } => {
                write!(f, "must be {} {limit}", if *exclusive { "greater than" } else { "at least" })?
            }
            ErrorKind::Maximum { limit, exclusive } => {
                write!(f, "must be {} {limit}", if *exclusive { "less than" } else { "at most" })?
            }
            ErrorKind::MultipleOf { divisor } => write!(f, "must be a multiple of {divisor}")?,
            ErrorKind::MinLength { limit, length } => {
                return write!(f, "must be at least {limit} characters long (got {length})");
            }
            ErrorKind::MaxLength { limit, length } => {
                return write!(f, "must be at most {limit} characters long (got {length})");
            }
            ErrorKind::Pattern { pattern } => write!(f, "must match the pattern {pattern:?}")?,
            ErrorKind::Format { format } => write!(f, "must be a valid {format}")?,
            ErrorKind::ContentEncoding { encoding } => write!(f, "must be {encoding}-encoded")?,
            ErrorKind::ContentMediaType { media_type } => write!(f, "must be a valid {media_type} document")?,
            ErrorKind::MinItems { limit, count } => {
                return write!(f, "must have at least {limit} items (got {count})");
            }
            ErrorKind::MaxItems { limit, count } => {
                return write!(f, "must have at most {limit} items (got {count})");
            }
            ErrorKind::UniqueItems { first, second } => {
                return write!(f, "items must be unique (items {first} and {second} are equal)");
            }
            ErrorKind::Contains { min, max, count } => {
                return match (min, max) {
                    (_, Some(max)) if count > max => {
                        write!(f, "must contain at most {max} matching items (got {count})")
                    }
                    (1, _) if *count == 0 => write!(f, "must contain at least one matching item"),
                    _ => write!(f, "must contain at least {min} matching items (got {count})"),
                };
            }
            ErrorKind::UnexpectedItem { keyword } => {
                return write!(f, "unexpected item (not allowed by {keyword})");
            }
            ErrorKind::Required { missing } => {
                return write!(f, "missing required property {missing:?}");
            }
            ErrorKind::DependentRequired { property, missing } => {
                return write!(f, "missing property {missing:?}, required when {property:?} is present");
            }
            ErrorKind::MinProperties { limit, count } => {
                return write!(f, "must have at least {limit} properties (got {count})");
            }
            ErrorKind::MaxProperties { limit, count } => {
                return write!(f, "must have at most {limit} properties (got {count})");
            }
            ErrorKind::UnexpectedProperty { allowed, .. } => {
                f.write_str("unknown property")?;
                if !allowed.is_empty() {
                    write!(f, "; allowed: {}", allowed.join(", "))?;
                }
                return Ok(());
            }
            ErrorKind::PropertyName { name } => return write!(f, "property name {name:?} is not allowed"),
            ErrorKind::AnyOf { alternatives, closest } | ErrorKind::OneOfNone { alternatives, closest } => {
                write!(f, "matched none of {alternatives} alternatives")?;
                if matches!(e.0.kind, ErrorKind::OneOfNone { .. }) {
                    f.write_str(" (exactly one must match)")?;
                }
                if let Some(i) = closest {
                    write!(f, "; closest is #{i}")?;
                }
                return Ok(());
            }
            ErrorKind::OneOfMultiple { matched } => {
                let list: Vec<String> = matched.iter().map(|i| format!("#{i}")).collect();
                return write!(f, "must match exactly one alternative, but matched {}", list.join(" and "));
            }
            ErrorKind::Not => f.write_str("must not match the schema in \"not\"")?,
            ErrorKind::ErrorLimit { max } => {
                return write!(f, "more errors than the error limit ({max}); the rest are not listed");
            }
            ErrorKind::BudgetExceeded { reason, fuel_used } => {
                return write!(f, "not validated: {reason} after {fuel_used} units of fuel");
            }
        }
        if let Some(found) = &e.0.found {
            write!(f, " (got {found})")?;
        }
        Ok(())
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.0.instance_location, Message(self))
    }
}

impl std::error::Error for ValidationError {}
