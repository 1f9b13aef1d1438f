//! Validation errors: where the instance fails, which keyword, and why.

use std::fmt;
use std::mem::ManuallyDrop;

use std::sync::{Arc, OnceLock};

use serde_json::{Number, Value};

use schemavm_compiler::Format;
use schemavm_compiler::value::{JsonType, TypeSet};

use crate::location::{InlinePath, InstanceLocation, LocationText, Mark, PathSegment, TextWriter};
use crate::message::MessageOptions;

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

impl Exhausted {
    /// What happened, in a few words (`the fuel budget ran out`).
    pub fn description(self) -> &'static str {
        match self {
            Exhausted::Fuel => "the fuel budget ran out",
            Exhausted::Deadline => "the deadline passed",
            Exhausted::Depth => "evaluation nested too deeply",
            Exhausted::Regex => "a regular expression hit its backtracking limit",
        }
    }

    /// The setting that raises the limit (`Budget::fuel`).
    pub fn setting(self) -> &'static str {
        match self {
            Exhausted::Fuel => "Budget::fuel",
            Exhausted::Deadline => "Budget::deadline",
            Exhausted::Depth => "Budget::max_depth",
            Exhausted::Regex => "Limits::regex.backtrack_limit",
        }
    }
}

impl fmt::Display for Exhausted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (raise {})", self.description(), self.setting())
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
        /// The format name, as the schema writes it.
        format: String,
        /// The built-in format that checked it (`None` for a format
        /// defined with [`ValidatorOptions::format`](crate::ValidatorOptions::format),
        /// which may also override a built-in name).
        builtin: Option<Format>,
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
        /// The properties the schema declares (shared by the errors of
        /// one object schema).
        allowed: std::sync::Arc<[String]>,
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
///
/// `Display` renders `<instance path>: <message>` under the
/// [`MessageOptions`] the error carries (those of the
/// [`Validator`](crate::Validator) that found it): instance values masked
/// or not, the whole text cut to a maximum length.
#[derive(Clone, PartialEq)]
pub struct ValidationError(pub(crate) ManuallyDrop<Box<ErrorData>>);

impl fmt::Debug for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ValidationError").field(&**self.0).finish()
    }
}

impl Drop for ValidationError {
    /// Gives the box back to this thread's pool of error boxes.
    fn drop(&mut self) {
        // SAFETY: `self.0` is taken exactly once, here, and never used
        // again: `drop` runs once and `self` is gone after it. Nothing
        // else takes `self.0` out (it is only read and written through
        // `Deref`/`DerefMut`), so the box is still initialized.
        let data = unsafe { ManuallyDrop::take(&mut self.0) };
        crate::error_pool::give(data);
    }
}

/// An error as recorded: its locations in one buffer (inline when short),
/// its kind and found value possibly not built yet (see [`Pending`],
/// [`Seen`]), so that recording an error allocates only its box.
#[derive(Clone)]
pub(crate) struct ErrorData {
    /// The instance location, built on first use from `inline` (or given
    /// when the error is made). Boxed, like the other caches, so that an
    /// error fits in 256 bytes.
    instance_location: OnceLock<Box<InstanceLocation>>,
    /// The instance location as recorded, when short (else the root, and
    /// `instance_location` is set).
    inline: InlinePath,
    /// The keyword location, the absolute keyword location and the keys of
    /// `inline`, in one buffer.
    locations: LocationText,
    /// Where the keyword location ends in `locations` (a character
    /// boundary), or with `keyword_in_absolute` where it starts.
    keyword_end: u32,
    /// Whether the keyword location is the absolute keyword location's
    /// tail, from `keyword_end` (see [`KeywordText::InAbsolute`]), rather
    /// than the text before it.
    keyword_in_absolute: bool,
    kind: Detail,
    found: Seen,
    pub(crate) options: MessageOptions,
}

/// How [`ValidationError::record`] finds the keyword location in the
/// text written.
#[derive(Debug, Clone, Copy)]
pub(crate) enum KeywordText {
    /// It comes first and ends at the mark; the absolute keyword location
    /// follows it.
    First(Mark),
    /// The absolute keyword location comes first, and the keyword location
    /// is its tail from the mark: they are one text when the fragment of
    /// the absolute location is the path the evaluation took (no
    /// reference crossed), as it is for most errors.
    InAbsolute(Mark),
}

/// An error's kind, given or to be built from a [`Pending`] on first use.
#[derive(Clone)]
pub(crate) enum Detail {
    Ready(ErrorKind),
    Pending(Pending, OnceLock<Box<ErrorKind>>),
    /// [`ErrorKind::Enum`] of these values (the first [`ENUM_SHOWN`] are
    /// listed). (Not a [`Pending`]: with two more kinds, a pending kind
    /// would no longer fit where an error keeps it.)
    Enum(Arc<[Value]>, OnceLock<Box<ErrorKind>>),
    /// [`ErrorKind::Format`] of a built-in format named as it is (not
    /// overridden by a custom one).
    Format(Format, OnceLock<Box<ErrorKind>>),
}

/// An error kind recorded without allocating, built into its
/// [`ErrorKind`] when asked for.
#[derive(Debug, Clone)]
pub(crate) enum Pending {
    /// [`ErrorKind::Type`].
    Type {
        /// The accepted types.
        expected: TypeSet,
        /// The instance's type.
        found: JsonType,
    },
    /// [`ErrorKind::UnexpectedProperty`], reported at the property: its
    /// name is the last key of the instance location.
    UnexpectedProperty {
        /// `additionalProperties` or `unevaluatedProperties`.
        keyword: &'static str,
        /// The properties the schema declares.
        allowed: Arc<[String]>,
    },
}

/// Most enum values an [`ErrorKind::Enum`] lists.
pub(crate) const ENUM_SHOWN: usize = 20;

/// Whether a JSON number owns nothing on the heap (it does with
/// serde_json's `arbitrary_precision`).
const NUMBERS_OWN_NOTHING: bool = !std::mem::needs_drop::<Number>();

/// Whether dropping `value` would free nothing.
fn scalar_owns_nothing(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(_) => true,
        Value::Number(_) => NUMBERS_OWN_NOTHING,
        Value::String(_) | Value::Array(_) | Value::Object(_) => false,
    }
}

impl ErrorKind {
    /// Whether dropping this kind would free nothing: its fields are
    /// numbers, flags, keywords or scalar values. Kinds not listed here
    /// are taken to own memory.
    #[inline]
    fn owns_nothing(&self) -> bool {
        match self {
            ErrorKind::False
            | ErrorKind::MinLength { .. }
            | ErrorKind::MaxLength { .. }
            | ErrorKind::MinItems { .. }
            | ErrorKind::MaxItems { .. }
            | ErrorKind::UniqueItems { .. }
            | ErrorKind::Contains { .. }
            | ErrorKind::UnexpectedItem { .. }
            | ErrorKind::MinProperties { .. }
            | ErrorKind::MaxProperties { .. }
            | ErrorKind::AnyOf { .. }
            | ErrorKind::OneOfNone { .. }
            | ErrorKind::Not
            | ErrorKind::ErrorLimit { .. }
            | ErrorKind::BudgetExceeded { .. } => true,
            ErrorKind::Minimum { limit, .. } | ErrorKind::Maximum { limit, .. } => scalar_owns_nothing(limit),
            ErrorKind::MultipleOf { divisor } => scalar_owns_nothing(divisor),
            ErrorKind::Const { expected } => scalar_owns_nothing(expected),
            _ => false,
        }
    }
}

impl Detail {
    /// Whether dropping this detail would free nothing.
    #[inline]
    fn owns_nothing(&self) -> bool {
        match self {
            Detail::Ready(kind) => kind.owns_nothing(),
            Detail::Pending(Pending::Type { .. }, built) | Detail::Format(_, built) => built.get().is_none(),
            Detail::Pending(Pending::UnexpectedProperty { .. }, _) | Detail::Enum(..) => false,
        }
    }
}

impl From<ErrorKind> for Detail {
    fn from(kind: ErrorKind) -> Detail {
        Detail::Ready(kind)
    }
}

impl Detail {
    /// [`Detail::Enum`] of `values`, built when asked for.
    pub(crate) fn enumerated(values: Arc<[Value]>) -> Detail {
        Detail::Enum(values, OnceLock::new())
    }

    /// [`Detail::Format`] of `format`, built when asked for.
    pub(crate) fn format(format: Format) -> Detail {
        Detail::Format(format, OnceLock::new())
    }
}

impl From<Pending> for Detail {
    fn from(pending: Pending) -> Detail {
        Detail::Pending(pending, OnceLock::new())
    }
}

/// The value an error is about, given or to be previewed on first use.
#[derive(Clone)]
pub(crate) enum Seen {
    /// Given (or none).
    Ready(Option<Found>),
    /// A number, previewed with [`Found::number`] when asked for.
    Number(Number, OnceLock<Box<Found>>),
    /// None, but the buffer of an earlier string preview kept (empty) for
    /// the next one, in a box that waits in the pool.
    Spare(String),
}

/// Longest buffer (in bytes) a [`Seen::Spare`] keeps: room for any
/// preview of [`FOUND_CHARS`] characters.
const SPARE_CAPACITY: usize = 4 * FOUND_CHARS;

/// The value an error is about, as reported: a string is previewed into
/// the buffer the error's box may keep ([`Seen::Spare`]).
pub(crate) enum Shown<'a> {
    /// Given (or none).
    Seen(Seen),
    /// A string.
    Text(&'a str),
}

impl<'a> Shown<'a> {
    /// Any value: a number previewed when asked for, a string into the
    /// error's buffer.
    #[inline]
    pub(crate) fn of(value: &'a Value) -> Shown<'a> {
        match value {
            Value::Number(n) => Shown::Seen(Seen::from(n)),
            Value::String(s) => Shown::Text(s),
            _ => Shown::Seen(Seen::Ready(Some(Found::of(value)))),
        }
    }
}

impl From<Option<Found>> for Shown<'_> {
    fn from(found: Option<Found>) -> Self {
        Shown::Seen(Seen::Ready(found))
    }
}

impl From<&Number> for Shown<'_> {
    fn from(n: &Number) -> Self {
        Shown::Seen(Seen::from(n))
    }
}

impl Seen {
    /// Whether dropping this value would free nothing.
    #[inline]
    fn owns_nothing(&self) -> bool {
        match self {
            Seen::Ready(found) => found.is_none(),
            Seen::Number(_, preview) => NUMBERS_OWN_NOTHING && preview.get().is_none(),
            Seen::Spare(_) => false,
        }
    }

    /// Drops this value, without a call to its drop glue if it owns
    /// nothing.
    #[inline(always)]
    fn discard(self) {
        if self.owns_nothing() {
            std::mem::forget(self);
        } else {
            drop(self);
        }
    }

    /// What a pooled box keeps of this value: the buffer of a string
    /// preview, emptied, if not too long (the rest is dropped).
    fn into_spare(self) -> Seen {
        match self {
            Seen::Ready(Some(Found::String { start: mut buffer, .. })) | Seen::Spare(mut buffer)
                if buffer.capacity() <= SPARE_CAPACITY =>
            {
                buffer.clear();
                Seen::Spare(buffer)
            }
            _ => Seen::Ready(None),
        }
    }
}

impl From<Option<Found>> for Seen {
    fn from(found: Option<Found>) -> Seen {
        Seen::Ready(found)
    }
}

impl From<&Number> for Seen {
    fn from(n: &Number) -> Seen {
        Seen::Number(n.clone(), OnceLock::new())
    }
}

impl ErrorData {
    /// Where the keyword location ends in `locations`.
    fn keyword_end(&self) -> usize {
        self.keyword_end as usize
    }

    /// Where the absolute keyword location ends in `locations`.
    fn absolute_end(&self) -> usize {
        self.locations.len().saturating_sub(self.inline.keys_len()).max(self.keyword_end())
    }

    pub(crate) fn instance_location(&self) -> &InstanceLocation {
        self.instance_location.get_or_init(|| {
            Box::new(self.inline.build(self.locations.as_str().get(self.absolute_end()..).unwrap_or_default()))
        })
    }

    /// How many segments the instance location has.
    pub(crate) fn instance_depth(&self) -> usize {
        self.instance_location.get().map_or(self.inline.depth(), |l| l.segments().len())
    }

    /// Replaces the instance location.
    pub(crate) fn set_instance_location(&mut self, location: InstanceLocation) {
        let end = self.absolute_end();
        self.locations.edit(|text| text.truncate(end));
        self.inline = InlinePath::default();
        self.instance_location = OnceLock::from(Box::new(location));
    }

    /// Where the keyword location is in `locations`.
    fn keyword_range(&self) -> std::ops::Range<usize> {
        if self.keyword_in_absolute { self.keyword_end()..self.absolute_end() } else { 0..self.keyword_end() }
    }

    /// Where the absolute keyword location is in `locations`.
    fn absolute_range(&self) -> std::ops::Range<usize> {
        let start = if self.keyword_in_absolute { 0 } else { self.keyword_end() };
        start..self.absolute_end()
    }

    fn keyword_location(&self) -> &str {
        self.locations.as_str().get(self.keyword_range()).unwrap_or_default()
    }

    fn absolute_keyword_location(&self) -> &str {
        self.locations.as_str().get(self.absolute_range()).unwrap_or_default()
    }

    /// Puts `prefix` before the keyword location, laying the text out as
    /// the keyword location, then the absolute one (then the instance
    /// keys), in one edit however the keyword location was kept.
    pub(crate) fn prefix_keyword_location(&mut self, prefix: &str) {
        let range = self.keyword_range();
        let in_absolute = self.keyword_in_absolute;
        self.locations.edit(|text| {
            // Kept inside the absolute location: copied out before it.
            let keyword =
                if in_absolute { text.get(range.clone()).unwrap_or_default().to_string() } else { String::new() };
            text.insert_str(0, &keyword);
            text.insert_str(0, prefix);
        });
        self.keyword_end = u32::try_from(prefix.len() + range.len()).unwrap_or(0);
        self.keyword_in_absolute = false;
    }

    /// Removes the first `len` bytes of the keyword location (all of it if
    /// it is shorter or `len` is not a character boundary).
    pub(crate) fn strip_keyword_location(&mut self, len: usize) {
        if self.keyword_in_absolute {
            // Laid out apart first.
            self.prefix_keyword_location("");
        }
        let text = self.locations.as_str();
        let end = self.keyword_end();
        let cut = if len <= end && text.is_char_boundary(len) { len } else { end };
        self.locations.edit(|text| text.replace_range(..cut, ""));
        self.keyword_end = u32::try_from(end - cut).unwrap_or(0);
    }

    pub(crate) fn kind(&self) -> &ErrorKind {
        match &self.kind {
            Detail::Ready(kind) => kind,
            Detail::Pending(pending, built) => built.get_or_init(|| {
                Box::new(match pending {
                    Pending::Type { expected, found } => {
                        ErrorKind::Type { expected: expected.iter().collect(), found: *found }
                    }
                    Pending::UnexpectedProperty { keyword, allowed } => {
                        let name = match self.instance_location().segments().last() {
                            Some(PathSegment::Key(name)) => name.clone(),
                            _ => String::new(),
                        };
                        ErrorKind::UnexpectedProperty { keyword, name, allowed: allowed.clone() }
                    }
                })
            }),
            Detail::Enum(values, built) => built.get_or_init(|| {
                Box::new(ErrorKind::Enum {
                    allowed: values.iter().take(ENUM_SHOWN).cloned().collect(),
                    total: values.len(),
                })
            }),
            Detail::Format(format, built) => built.get_or_init(|| {
                Box::new(ErrorKind::Format { format: format.name().to_string(), builtin: Some(*format) })
            }),
        }
    }

    /// Whether the kind is `type` (without building it).
    pub(crate) fn is_type(&self) -> bool {
        match &self.kind {
            Detail::Ready(kind) => matches!(kind, ErrorKind::Type { .. }),
            Detail::Pending(pending, _) => matches!(pending, Pending::Type { .. }),
            Detail::Enum(..) | Detail::Format(..) => false,
        }
    }

    /// Whether the kind is `const` or `enum` (without building it).
    pub(crate) fn is_const_or_enum(&self) -> bool {
        matches!(&self.kind, Detail::Ready(ErrorKind::Const { .. } | ErrorKind::Enum { .. }) | Detail::Enum(..))
    }

    pub(crate) fn found(&self) -> Option<&Found> {
        match &self.found {
            Seen::Ready(found) => found.as_ref(),
            Seen::Number(n, preview) => Some(preview.get_or_init(|| Box::new(Found::number(n)))),
            Seen::Spare(_) => None,
        }
    }

    /// A blank error in a box from the pool, or in one allocated first,
    /// then filled: the value is written into the box, not built on the
    /// stack and copied in.
    #[inline(always)]
    fn boxed() -> Box<ErrorData> {
        match crate::error_pool::take() {
            Some(data) => data,
            None => Box::write(Box::new_uninit(), ErrorData::blank()),
        }
    }

    /// An error of kind [`ErrorKind::False`] with no locations yet.
    #[inline(always)]
    fn blank() -> ErrorData {
        ErrorData {
            instance_location: OnceLock::new(),
            inline: InlinePath::default(),
            locations: LocationText::default(),
            keyword_end: 0,
            keyword_in_absolute: false,
            kind: Detail::Ready(ErrorKind::False),
            found: Seen::Ready(None),
            options: MessageOptions::default(),
        }
    }

    /// Makes the error [`ErrorData::blank`] again, dropping what it owns
    /// on the heap (its caches, long location text, kind and found
    /// value, except the buffer of a string preview, kept as a
    /// [`Seen::Spare`]), so that its box can wait in the pool and be
    /// filled again as a new one. Only the fields that differ are
    /// written: most errors own nothing but their inline text.
    #[inline]
    pub(crate) fn clear(&mut self) {
        drop(self.instance_location.take());
        self.locations.clear();
        self.inline = InlinePath::default();
        self.keyword_end = 0;
        self.keyword_in_absolute = false;
        // Most kinds and found values own nothing on the heap: forgetting
        // them spares the call to their drop glue.
        if self.kind.owns_nothing() {
            std::mem::forget(std::mem::replace(&mut self.kind, Detail::Ready(ErrorKind::False)));
        } else {
            self.kind = Detail::Ready(ErrorKind::False);
        }
        let old = std::mem::replace(&mut self.found, Seen::Ready(None));
        if old.owns_nothing() {
            std::mem::forget(old);
        } else {
            // `Seen::Ready(None)` owns nothing: skip its drop.
            std::mem::forget(std::mem::replace(&mut self.found, old.into_spare()));
        }
        self.options = MessageOptions::default();
    }
}

impl fmt::Debug for ErrorData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ErrorData")
            .field("instance_location", self.instance_location())
            .field("keyword_location", &self.keyword_location())
            .field("absolute_keyword_location", &self.absolute_keyword_location())
            .field("kind", self.kind())
            .field("found", &self.found())
            .field("options", &self.options)
            .finish()
    }
}

impl PartialEq for ErrorData {
    fn eq(&self, other: &Self) -> bool {
        self.instance_location() == other.instance_location()
            && self.keyword_location() == other.keyword_location()
            && self.absolute_keyword_location() == other.absolute_keyword_location()
            && self.kind() == other.kind()
            && self.found() == other.found()
            && self.options == other.options
    }
}

impl ValidationError {
    /// An error (of kind [`ErrorKind::False`] until
    /// [`ValidationError::describe`]d) whose locations `write` puts in
    /// place: into the text, its keyword location and its absolute
    /// keyword location as the [`KeywordText`] it returns says, then the
    /// keys of the instance location recorded into the path. `write` also
    /// returns, if the instance location did not fit in the path, the
    /// location built. Written in place, nothing read back right after it
    /// is written (which would stall on the stores).
    #[inline(always)]
    pub(crate) fn record(
        write: impl FnOnce(&mut TextWriter<'_>, &mut InlinePath) -> (KeywordText, Option<InstanceLocation>),
    ) -> ValidationError {
        let mut data = ErrorData::boxed();
        let ErrorData { inline, locations, .. } = &mut *data;
        let mut text = TextWriter::fill(locations);
        let (keyword, built) = write(&mut text, inline);
        let (mark, in_absolute) = match keyword {
            KeywordText::First(end) => (end, false),
            KeywordText::InAbsolute(start) => (start, true),
        };
        let keyword_end = mark.position().min(text.len());
        text.finish();
        data.keyword_end = u32::try_from(keyword_end).unwrap_or(0);
        data.keyword_in_absolute = in_absolute;
        if let Some(location) = built {
            data.inline = InlinePath::default();
            data.instance_location = OnceLock::from(Box::new(location));
        }
        ValidationError(ManuallyDrop::new(data))
    }

    /// This error, an [`ErrorKind::UnexpectedProperty`] recorded at its
    /// member, about the sibling member `key` instead: the same keyword
    /// locations and kind, the last key of the instance location
    /// replaced. None unless the error is one as recorded (its instance
    /// location inline, its kind pending, no found value): the caller
    /// records it afresh then.
    #[inline]
    pub(crate) fn for_sibling(&self, key: &str) -> Option<ValidationError> {
        let from = &**self.0;
        let Detail::Pending(Pending::UnexpectedProperty { keyword, allowed }, _) = &from.kind else {
            return None;
        };
        if !matches!(from.found, Seen::Ready(None)) {
            return None;
        }
        // A location given whole (not inline) leaves `inline` empty: no
        // last key, no copy.
        let (inline, old) = from.inline.with_last_key(key.len())?;
        let keep = from.locations.len().checked_sub(old)?;
        let mut data = ErrorData::boxed();
        if !data.locations.copy_with_tail(&from.locations, keep, key) {
            crate::error_pool::give(data);
            return None;
        }
        data.inline = inline;
        data.keyword_end = from.keyword_end;
        data.keyword_in_absolute = from.keyword_in_absolute;
        data.options = from.options;
        let mut error = ValidationError(ManuallyDrop::new(data));
        error.describe(Pending::UnexpectedProperty { keyword, allowed: allowed.clone() }, None);
        Some(error)
    }

    /// This error, found by a detached evaluation at its root, re-rooted
    /// under `base` (a new error, not described): `base`'s keyword
    /// location before its own, `base`'s instance location instead of the
    /// root. Written into a new box as any error is, where editing this
    /// one would move its text out of line twice. The error itself if its
    /// instance location is not the root (the caller edits it then).
    pub(crate) fn rerooted(mut self, base: &ValidationError) -> Result<ValidationError, ValidationError> {
        if self.0.instance_depth() != 0 {
            return Err(self);
        }
        let (from, base) = (&**self.0, &**base.0);
        // `base`'s instance location is inline unless it was built when
        // recorded (then `inline` is empty, and the location not the root).
        let built = base.instance_location.get().filter(|l| base.inline.depth() == 0 && !l.segments().is_empty());
        // Each text read once (reading an inline one checks it is UTF-8).
        let (own, base_text) = (from.locations.as_str(), base.locations.as_str());
        let own_keyword = own.get(from.keyword_range()).unwrap_or_default();
        let own_absolute = own.get(from.absolute_range()).unwrap_or_default();
        let base_keys = base_text.get(base.absolute_end()..).unwrap_or_default();
        let base_keyword = base_text.get(base.keyword_range()).unwrap_or_default();
        let mut error = ValidationError::record(|text, path| {
            text.push_str(base_keyword);
            text.push_str(own_keyword);
            let keyword_end = text.mark();
            text.push_str(own_absolute);
            if built.is_none() {
                text.push_str(base_keys);
                *path = base.inline;
            }
            (KeywordText::First(keyword_end), built.map(|l| (**l).clone()))
        });
        let data = &mut *self.0;
        std::mem::swap(&mut error.0.kind, &mut data.kind);
        std::mem::swap(&mut error.0.found, &mut data.found);
        error.0.options = data.options;
        Ok(error)
    }

    /// Sets what the error is and the value it is about. (Done by the
    /// caller after [`ValidationError::record`], when the stores that
    /// built `kind` are done.)
    #[inline(always)]
    pub(crate) fn describe<'a>(&mut self, kind: impl Into<Detail>, found: impl Into<Shown<'a>>) {
        let old = std::mem::replace(&mut self.0.kind, kind.into());
        if matches!(old, Detail::Ready(ErrorKind::False)) {
            // Owns nothing: skip the out-of-line drop.
            std::mem::forget(old);
        }
        let found = match found.into() {
            Shown::Seen(seen) => seen,
            Shown::Text(s) => match std::mem::replace(&mut self.0.found, Seen::Ready(None)) {
                Seen::Spare(buffer) => Seen::Ready(Some(Found::string_into(s, buffer))),
                old => {
                    old.discard();
                    Seen::Ready(Some(Found::string(s)))
                }
            },
        };
        let old = std::mem::replace(&mut self.0.found, found);
        if matches!(old, Seen::Ready(None)) {
            // Owns nothing: skip the out-of-line drop.
            std::mem::forget(old);
        }
    }

    /// Where in the instance.
    pub fn instance_location(&self) -> &InstanceLocation {
        self.0.instance_location()
    }
    /// The keyword's evaluation path from the root schema, through `$ref`s
    /// (a JSON Pointer, e.g. `/properties/a/$ref/type`).
    pub fn keyword_location(&self) -> &str {
        self.0.keyword_location()
    }
    /// The keyword's absolute location: its resource's URI and a JSON
    /// Pointer fragment.
    pub fn absolute_keyword_location(&self) -> &str {
        self.0.absolute_keyword_location()
    }
    /// What is wrong, with details.
    pub fn kind(&self) -> &ErrorKind {
        self.0.kind()
    }
    /// The instance value the error is about, for the kinds that compare
    /// a value (`const`, `enum`, numeric bounds, `multipleOf`, `pattern`,
    /// `format`).
    pub fn found(&self) -> Option<&Found> {
        self.0.found()
    }
    /// Whether this error reports an exhausted budget rather than an
    /// invalid instance.
    pub fn is_budget_exceeded(&self) -> bool {
        matches!(self.0.kind, Detail::Ready(ErrorKind::BudgetExceeded { .. }))
    }
    /// How this error renders its messages.
    pub fn message_options(&self) -> MessageOptions {
        self.0.options
    }
    /// The same error, rendered under other options (e.g. unmasked for a
    /// log, masked for a model).
    pub fn with_message_options(mut self, options: MessageOptions) -> ValidationError {
        self.0.options = options;
        self
    }
}

/// Longest string prefix, in characters, a [`Found`] keeps.
const FOUND_CHARS: usize = 60;

/// The instance value an error is about, as much of it as a message may
/// show: a short preview of a scalar (strings and numbers cut at 60
/// characters) and the size of a string, array or object.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Found {
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean(bool),
    /// A number, as its JSON text (cut at 60 characters).
    Number(String),
    /// A string.
    String {
        /// Its first characters (at most 60).
        start: String,
        /// Its length in characters.
        length: usize,
    },
    /// An array.
    Array {
        /// How many items it has.
        items: usize,
    },
    /// An object.
    Object {
        /// How many properties it has.
        properties: usize,
    },
}

impl Found {
    /// The preview of any value.
    pub fn of(value: &Value) -> Found {
        match value {
            Value::Null => Found::Null,
            Value::Bool(b) => Found::Boolean(*b),
            Value::Number(n) => Found::number(n),
            Value::String(s) => Found::string(s),
            Value::Array(a) => Found::Array { items: a.len() },
            Value::Object(o) => Found::Object { properties: o.len() },
        }
    }

    /// The preview of a string (without building a [`Value`]).
    pub fn string(s: &str) -> Found {
        Found::string_into(s, String::new())
    }

    /// [`Found::string`], the preview copied into `buffer` (empty).
    fn string_into(s: &str, mut buffer: String) -> Found {
        // The preview is copied as one slice (collecting it char by char
        // grew the string several times).
        // At most `FOUND_CHARS` bytes is at most as many characters: no
        // cut to look for.
        let (start, length) = match (s.len() > FOUND_CHARS).then(|| s.char_indices().nth(FOUND_CHARS)).flatten() {
            Some((cut, _)) => (s.get(..cut).unwrap_or_default(), s.chars().count()),
            // An ASCII string has as many characters as bytes.
            None => (s, if s.is_ascii() { s.len() } else { s.chars().count() }),
        };
        buffer.push_str(start);
        Found::String { start: buffer, length }
    }

    /// The preview of a number.
    pub fn number(n: &serde_json::Number) -> Found {
        use std::fmt::Write as _;
        // Most numbers fit; writing to a `String` cannot fail.
        let mut text = String::with_capacity(24);
        let _ = write!(text, "{n}");
        match text.char_indices().nth(FOUND_CHARS) {
            Some((cut, _)) => Found::Number(format!("{}…", text.get(..cut).unwrap_or_default())),
            None => Found::Number(text),
        }
    }
}

impl std::error::Error for ValidationError {}
#[cfg(test)]
mod tests {
    use super::*;

    /// Recording an error copies it into its box: kept within 256 bytes,
    /// the copy is a few vector moves.
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn an_error_fits_in_256_bytes() {
        assert!(std::mem::size_of::<ErrorData>() <= 256, "{}", std::mem::size_of::<ErrorData>());
    }

    /// Keyword and absolute keyword locations, whether the keyword was
    /// reached through no reference (one text, the keyword location the
    /// absolute one's tail), through one, or in an embedded resource; and
    /// after the edits that re-root errors.
    #[test]
    fn keyword_locations_with_and_without_references() {
        let v = crate::Validator::new(&serde_json::json!({
            "properties": {
                "deep": {"properties": {"deeper": {"properties": {"deepest": {"properties": {"x": {"type": "string"}}}}}}},
                "viaRef": {"$ref": "#/$defs/n"},
                "embedded": {"$id": "https://example.com/e", "properties": {"y": {"minimum": 3}}},
                "names": {"propertyNames": {"maxLength": 1}},
                "tilde~/": {"const": 1}
            },
            "$defs": {"n": {"type": "number"}}
        }))
        .unwrap();
        let instance = serde_json::json!({
            "deep": {"deeper": {"deepest": {"x": 1}}},
            "viaRef": "a",
            "embedded": {"y": 1},
            "names": {"ab": 1},
            "tilde~/": 2
        });
        let mut errors: Vec<_> = v
            .iter_errors(&instance)
            .map(|e| (e.keyword_location().to_string(), e.absolute_keyword_location().to_string()))
            .collect();
        errors.sort();
        let base = schemavm_compiler::error::DEFAULT_BASE_URI;
        let same = |k: &str| (k.to_string(), format!("{base}#{k}"));
        let deep = "/properties/deep/properties/deeper/properties/deepest/properties/x/type";
        let mut expected = vec![
            same(deep),
            (
                "/properties/embedded/properties/y/minimum".to_string(),
                "https://example.com/e#/properties/y/minimum".to_string(),
            ),
            same("/properties/names/propertyNames"),
            same("/properties/names/propertyNames/maxLength"),
            same("/properties/tilde~0~1/const"),
            ("/properties/viaRef/$ref/type".to_string(), format!("{base}#/$defs/n/type")),
        ];
        expected.sort();
        assert_eq!(errors, expected);
        // The edits that re-root errors (memoized, adopted) lay a keyword
        // location kept inside the absolute one out apart, and keep the
        // other locations.
        let mut error = v.iter_errors(&instance).find(|e| e.keyword_location() == deep).unwrap();
        let (absolute, at) = (error.absolute_keyword_location().to_string(), error.instance_location().to_pointer());
        error.0.prefix_keyword_location("/allOf/0");
        assert_eq!(error.keyword_location(), format!("/allOf/0{deep}"));
        error.0.strip_keyword_location("/allOf/0".len());
        assert_eq!(error.keyword_location(), deep);
        let mut stripped = v.iter_errors(&instance).find(|e| e.keyword_location() == deep).unwrap();
        stripped.0.strip_keyword_location("/properties/deep".len());
        assert_eq!(stripped.keyword_location(), &deep["/properties/deep".len()..]);
        for e in [&error, &stripped] {
            assert_eq!((e.absolute_keyword_location(), e.instance_location().to_pointer()), (&*absolute, at.clone()));
        }
    }

    /// The errors of a property name are re-rooted at the object: the
    /// `propertyNames` keyword location before theirs, the object's
    /// instance location (inline or, when long, built) as theirs.
    #[test]
    fn property_name_errors_are_rerooted_at_the_object() {
        let v = crate::Validator::new(&serde_json::json!({
            "$id": "https://example.com/s",
            "properties": {"a": {"items": {"items": {"items": {"items": {"items": {"propertyNames": {"maxLength": 1}}}}}}}},
            "propertyNames": {"$ref": "#/definitions/short"},
            "definitions": {"short": {"maxLength": 2}}
        }))
        .unwrap();
        let instance = serde_json::json!({"abc": 1, "a": [[[[[{"xy": 1}]]]]]});
        let errors: Vec<_> = v
            .iter_errors(&instance)
            .map(|e| {
                let at = e.instance_location().to_pointer();
                (e.keyword_location().to_string(), e.absolute_keyword_location().to_string(), at)
            })
            .collect();
        let row = |k: &str, a: &str, at: &str| (k.to_string(), format!("https://example.com/s#{a}"), at.to_string());
        let deep = "/properties/a/items/items/items/items/items/propertyNames";
        assert_eq!(
            errors,
            [
                row("/propertyNames", "/propertyNames", "/abc"),
                row("/propertyNames/$ref/maxLength", "/definitions/short/maxLength", ""),
                row(deep, deep, "/a/0/0/0/0/0/xy"),
                row(&format!("{deep}/maxLength"), &format!("{deep}/maxLength"), "/a/0/0/0/0/0"),
            ]
        );
    }

    /// A string's preview is its first [`FOUND_CHARS`] characters (not
    /// bytes), with the whole length in characters.
    #[test]
    fn a_string_preview_keeps_whole_characters() {
        let preview = |s: &str| match Found::string(s) {
            Found::String { start, length } => (start, length),
            other => panic!("{other:?}"),
        };
        assert_eq!(preview(""), (String::new(), 0));
        assert_eq!(preview("héllo"), ("héllo".to_string(), 5));
        let long = "é".repeat(FOUND_CHARS + 3);
        assert_eq!(preview(&long), ("é".repeat(FOUND_CHARS), FOUND_CHARS + 3));
        let exact = "日".repeat(FOUND_CHARS);
        assert_eq!(preview(&exact), (exact.clone(), FOUND_CHARS));
    }
}
