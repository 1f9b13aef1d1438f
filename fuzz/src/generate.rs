//! Structure-aware generators for the `structured` target: JSON Schema
//! documents built from an enum of keywords (nesting, `$defs` with `$ref`s
//! drawn from the defined names, `$dynamicRef`/`$dynamicAnchor`,
//! `$recursiveRef`), and JSON instances, both with numeric edge cases.
//!
//! Every recursive enum lists a non-recursive variant first: `arbitrary`
//! picks the first variant once the input runs out, so generation ends.

use arbitrary::Arbitrary;
use serde_json::{Map, Number, Value};

/// Deepest schema or value nesting emitted; deeper parts become leaves.
const MAX_DEPTH: usize = 10;
/// Most characters of a free-form string.
const MAX_TEXT: usize = 24;

/// Numbers that sit on a representation boundary.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Edge {
    Zero,
    NegZero,
    One,
    NegOne,
    Half,
    Tenth,
    PointThree,
    OneE308,
    FloatMax,
    Denormal,
    MinNormal,
    OneEMinus308,
    NegOneE308,
    I64Min,
    I64Max,
    U64Max,
    TwoPow53,
    TwoPow53Plus1,
    TwoPow64AsFloat,
    NegTwoPow63AsFloat,
    ThreeAsFloat,
    OneE16,
    OneEMinus7,
}

impl Edge {
    fn value(self) -> Number {
        match self {
            Edge::Zero => Number::from(0),
            Edge::NegZero => float(-0.0),
            Edge::One => Number::from(1),
            Edge::NegOne => Number::from(-1),
            Edge::Half => float(0.5),
            Edge::Tenth => float(0.1),
            Edge::PointThree => float(0.3),
            Edge::OneE308 => float(1e308),
            Edge::FloatMax => float(f64::MAX),
            Edge::Denormal => float(5e-324),
            Edge::MinNormal => float(f64::MIN_POSITIVE),
            Edge::OneEMinus308 => float(1e-308),
            Edge::NegOneE308 => float(-1e308),
            Edge::I64Min => Number::from(i64::MIN),
            Edge::I64Max => Number::from(i64::MAX),
            Edge::U64Max => Number::from(u64::MAX),
            Edge::TwoPow53 => Number::from(1u64 << 53),
            Edge::TwoPow53Plus1 => Number::from((1u64 << 53) + 1),
            Edge::TwoPow64AsFloat => float(18446744073709551616.0),
            Edge::NegTwoPow63AsFloat => float(-9223372036854775808.0),
            Edge::ThreeAsFloat => float(3.0),
            Edge::OneE16 => float(1e16),
            Edge::OneEMinus7 => float(1e-7),
        }
    }
}

fn float(f: f64) -> Number {
    Number::from_f64(f).unwrap_or_else(|| Number::from(0))
}

/// A number: an edge case, a small integer, any `i64`/`u64`/`f64`, or a
/// decimal `m * 10^e` across the whole exponent range.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Num {
    Small(i8),
    Edge(Edge),
    Int(i64),
    UInt(u64),
    Float(f64),
    Scaled { mantissa: i16, exponent: i16 },
}

impl Num {
    /// As a JSON number (non-finite floats become 0).
    pub fn value(self) -> Number {
        match self {
            Num::Small(n) => Number::from(n),
            Num::Edge(e) => e.value(),
            Num::Int(n) => Number::from(n),
            Num::UInt(n) => Number::from(n),
            Num::Float(f) => float(f),
            Num::Scaled { mantissa, exponent } => {
                let e = i32::from(exponent % 330);
                float(f64::from(mantissa) * 10f64.powi(e))
            }
        }
    }
}

/// Property names shared by schemas and instances, so they meet.
#[derive(Arbitrary, Debug, Clone)]
pub enum Key {
    A,
    B,
    C,
    Foo,
    Empty,
    Zero,
    Ref,
    Accent,
    Other(String),
}

impl Key {
    fn text(&self) -> String {
        match self {
            Key::A => "a".into(),
            Key::B => "b".into(),
            Key::C => "c".into(),
            Key::Foo => "foo".into(),
            Key::Empty => String::new(),
            Key::Zero => "0".into(),
            Key::Ref => "$ref".into(),
            Key::Accent => "é".into(),
            Key::Other(s) => s.chars().take(MAX_TEXT).collect(),
        }
    }
}

/// A string value.
#[derive(Arbitrary, Debug, Clone)]
pub enum Text {
    Key(Key),
    Format(FormatName),
    Repeat { unit: char, count: u8 },
    Free(String),
}

impl Text {
    fn text(&self) -> String {
        match self {
            Text::Key(k) => k.text(),
            Text::Format(f) => f.sample().into(),
            Text::Repeat { unit, count } => std::iter::repeat_n(*unit, usize::from(*count)).collect(),
            Text::Free(s) => s.chars().take(MAX_TEXT).collect(),
        }
    }
}

/// A JSON value.
#[derive(Arbitrary, Debug, Clone)]
pub enum Json {
    Null,
    Bool(bool),
    Num(Num),
    Str(Text),
    Arr(Vec<Json>),
    Obj(Vec<(Key, Json)>),
}

impl Json {
    /// As a `serde_json::Value`, nesting capped at [`MAX_DEPTH`].
    pub fn value(&self) -> Value {
        self.value_at(0)
    }

    fn value_at(&self, depth: usize) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Num(n) => Value::Number(n.value()),
            Json::Str(t) => Value::String(t.text()),
            _ if depth >= MAX_DEPTH => Value::Null,
            Json::Arr(items) => Value::Array(items.iter().map(|j| j.value_at(depth + 1)).collect()),
            Json::Obj(members) => {
                Value::Object(members.iter().map(|(k, j)| (k.text(), j.value_at(depth + 1))).collect())
            }
        }
    }
}

/// Format names (and one unknown).
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum FormatName {
    DateTime,
    Date,
    Time,
    Duration,
    Email,
    IdnEmail,
    Hostname,
    IdnHostname,
    Ipv4,
    Ipv6,
    Uri,
    UriReference,
    Iri,
    IriReference,
    UriTemplate,
    Uuid,
    JsonPointer,
    RelativeJsonPointer,
    Regex,
    Unknown,
}

impl FormatName {
    fn name(self) -> &'static str {
        match self {
            FormatName::DateTime => "date-time",
            FormatName::Date => "date",
            FormatName::Time => "time",
            FormatName::Duration => "duration",
            FormatName::Email => "email",
            FormatName::IdnEmail => "idn-email",
            FormatName::Hostname => "hostname",
            FormatName::IdnHostname => "idn-hostname",
            FormatName::Ipv4 => "ipv4",
            FormatName::Ipv6 => "ipv6",
            FormatName::Uri => "uri",
            FormatName::UriReference => "uri-reference",
            FormatName::Iri => "iri",
            FormatName::IriReference => "iri-reference",
            FormatName::UriTemplate => "uri-template",
            FormatName::Uuid => "uuid",
            FormatName::JsonPointer => "json-pointer",
            FormatName::RelativeJsonPointer => "relative-json-pointer",
            FormatName::Regex => "regex",
            FormatName::Unknown => "x-unknown",
        }
    }

    /// A string near the format's grammar (valid or almost).
    fn sample(self) -> &'static str {
        match self {
            FormatName::DateTime => "1963-06-19T08:30:06.283185Z",
            FormatName::Date => "2020-02-29",
            FormatName::Time => "23:59:60+00:00",
            FormatName::Duration => "P1Y2M3DT4H5M6S",
            FormatName::Email => "joe.bloggs@example.com",
            FormatName::IdnEmail => "실례@실례.테스트",
            FormatName::Hostname => "www.example.com",
            FormatName::IdnHostname => "xn--ihqwcrb4cv8a8dqg056pqjye",
            FormatName::Ipv4 => "192.168.0.1",
            FormatName::Ipv6 => "::ffff:192.168.0.1",
            FormatName::Uri => "http://foo.bar/?baz=qux#quux",
            FormatName::UriReference => "//foo.bar/?baz=qux#quux",
            FormatName::Iri => "http://ƒøø.ßår/?∂éœ=πîx#πîüx",
            FormatName::IriReference => "#ƒrägmênt",
            FormatName::UriTemplate => "http://example.com/dictionary/{term:1}/{term}",
            FormatName::Uuid => "2EB8AA08-AA98-11EA-B4AA-73B441D16380",
            FormatName::JsonPointer => "/foo/bar~0/baz~1/%a",
            FormatName::RelativeJsonPointer => "0/foo/bar",
            FormatName::Regex => "([abc])+\\s+$",
            FormatName::Unknown => "\u{0}\u{ffff}\u{10ffff}",
        }
    }
}

/// Patterns for `pattern` and `patternProperties`.
#[derive(Arbitrary, Debug, Clone)]
pub enum Pattern {
    Known(u8),
    Key(Key),
    Free(String),
}

const KNOWN_PATTERNS: &[&str] = &[
    "^a",
    "a$",
    "^[a-z]+$",
    "\\d",
    "^(a|b)*$",
    "(?=a)",
    "(a)\\1",
    "\\p{L}",
    ".",
    "^$",
    "é",
    "^\\w+$",
    "[^]",
    "x{2,3}",
    "^(?!foo)",
    "(a+)+$",
    "\\bfoo\\b",
    "[\\u{1F600}-\\u{1F64F}]",
    "^\\$ref$",
    "(?<n>a)\\k<n>",
];

impl Pattern {
    fn text(&self) -> String {
        match self {
            Pattern::Known(i) => KNOWN_PATTERNS[usize::from(*i) % KNOWN_PATTERNS.len()].into(),
            Pattern::Key(k) => regex_escape(&k.text()),
            Pattern::Free(s) => s.chars().take(MAX_TEXT).collect(),
        }
    }
}

fn regex_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if "\\^$.|?*+()[]{}/".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A count (`minLength`, `maxItems`, ...): usually small, sometimes any
/// number (large, negative or fractional, mostly compile errors).
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Count {
    Small(u8),
    Any(Num),
}

impl Count {
    fn value(self) -> Value {
        match self {
            Count::Small(n) => Value::from(n % 8),
            Count::Any(n) => Value::Number(n.value()),
        }
    }
}

/// JSON types.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum TypeName {
    Null,
    Boolean,
    Integer,
    Number,
    String,
    Array,
    Object,
    Bogus,
}

impl TypeName {
    fn name(self) -> &'static str {
        match self {
            TypeName::Null => "null",
            TypeName::Boolean => "boolean",
            TypeName::Integer => "integer",
            TypeName::Number => "number",
            TypeName::String => "string",
            TypeName::Array => "array",
            TypeName::Object => "object",
            TypeName::Bogus => "any",
        }
    }
}

/// Anchor names for `$anchor`, `$dynamicAnchor` and `$dynamicRef`.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Anchor {
    Node,
    Meta,
    Items,
}

impl Anchor {
    fn name(self) -> &'static str {
        match self {
            Anchor::Node => "node",
            Anchor::Meta => "meta",
            Anchor::Items => "items",
        }
    }
}

/// Where a `$ref` points.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum RefTarget {
    /// One of the root's definitions (index modulo their count).
    Def(u8),
    Root,
    Anchor(Anchor),
    /// A definition through its JSON pointer, escaped or not.
    DefPointer(u8),
    PropertiesA,
    ItemsPointer,
    MetaSchema(DraftChoice),
    Unresolvable,
    RelativeToId,
    PercentEncoded,
}

/// Values of `$schema`.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum DraftChoice {
    D4,
    D6,
    D7,
    D2019,
    D2020,
    Unknown,
}

impl DraftChoice {
    fn uri(self) -> &'static str {
        match self {
            DraftChoice::D4 => "http://json-schema.org/draft-04/schema#",
            DraftChoice::D6 => "http://json-schema.org/draft-06/schema#",
            DraftChoice::D7 => "http://json-schema.org/draft-07/schema#",
            DraftChoice::D2019 => "https://json-schema.org/draft/2019-09/schema",
            DraftChoice::D2020 => "https://json-schema.org/draft/2020-12/schema",
            DraftChoice::Unknown => "https://example.com/unknown-meta",
        }
    }

    fn old(self) -> bool {
        matches!(self, DraftChoice::D4 | DraftChoice::D6 | DraftChoice::D7)
    }
}

/// Values of `$id`.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum IdChoice {
    Absolute,
    Relative,
    Fragment,
    Urn,
    Empty,
}

impl IdChoice {
    fn text(self) -> &'static str {
        match self {
            IdChoice::Absolute => "http://example.com/schema.json",
            IdChoice::Relative => "child.json",
            IdChoice::Fragment => "#frag",
            IdChoice::Urn => "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed",
            IdChoice::Empty => "",
        }
    }
}

/// `dependencies` values: a schema or a list of names.
#[derive(Arbitrary, Debug, Clone)]
pub enum Dependency {
    Names(Vec<Key>),
    Schema(Schema),
}

/// A schema.
#[derive(Arbitrary, Debug, Clone)]
pub enum Schema {
    Bool(bool),
    Object(Vec<Keyword>),
}

/// One keyword of a schema object.
#[derive(Arbitrary, Debug, Clone)]
pub enum Keyword {
    Type(Vec<TypeName>),
    Enum(Vec<Json>),
    Const(Json),
    MultipleOf(Num),
    Maximum(Num),
    Minimum(Num),
    ExclusiveMaximum(Num),
    ExclusiveMinimum(Num),
    ExclusiveMaximumBool(bool),
    MaxLength(Count),
    MinLength(Count),
    Pattern(Pattern),
    Format(FormatName),
    MaxItems(Count),
    MinItems(Count),
    UniqueItems(bool),
    MinContains(Count),
    MaxContains(Count),
    MaxProperties(Count),
    MinProperties(Count),
    Required(Vec<Key>),
    Ref(RefTarget),
    DynamicRef(Anchor),
    DynamicAnchor(Anchor),
    Anchor(Anchor),
    RecursiveRef,
    RecursiveAnchor(bool),
    Id(IdChoice),
    Unknown(Key, Json),
    DependentRequired(Vec<(Key, Vec<Key>)>),
    ContentEncoding,
    ContentMediaType,
    Items(Box<Schema>),
    ItemsArray(Vec<Schema>),
    PrefixItems(Vec<Schema>),
    AdditionalItems(Box<Schema>),
    Contains(Box<Schema>),
    Properties(Vec<(Key, Schema)>),
    PatternProperties(Vec<(Pattern, Schema)>),
    AdditionalProperties(Box<Schema>),
    PropertyNames(Box<Schema>),
    DependentSchemas(Vec<(Key, Schema)>),
    Dependencies(Vec<(Key, Dependency)>),
    AllOf(Vec<Schema>),
    AnyOf(Vec<Schema>),
    OneOf(Vec<Schema>),
    Not(Box<Schema>),
    If(Box<Schema>),
    Then(Box<Schema>),
    Else(Box<Schema>),
    UnevaluatedItems(Box<Schema>),
    UnevaluatedProperties(Box<Schema>),
    ContentSchema(Box<Schema>),
    /// Nested definitions (not `$ref` targets by name, but reachable by
    /// `$dynamicRef`/`$anchor` and they exercise resource scoping).
    NestedDefs(Vec<(Anchor, Schema)>),
}

/// A root schema document: an optional `$schema`, definitions that
/// `$ref`s draw their targets from, and the root's own keywords.
#[derive(Arbitrary, Debug, Clone)]
pub struct Root {
    pub draft: Option<DraftChoice>,
    pub id: Option<IdChoice>,
    pub dynamic_anchor: Option<Anchor>,
    pub defs: Vec<Schema>,
    pub body: Vec<Keyword>,
}

/// What the conversion knows of the document.
struct Ctx {
    defs_keyword: &'static str,
    def_names: Vec<String>,
}

impl Root {
    /// The schema document.
    pub fn value(&self) -> Value {
        let old = self.draft.is_some_and(DraftChoice::old);
        let defs_keyword = if old { "definitions" } else { "$defs" };
        let def_names: Vec<String> = (0..self.defs.len().min(6))
            .map(|i| match i {
                0 => "d0".to_string(),
                1 => "node".to_string(),
                2 => "a/b".to_string(),
                3 => "t~x".to_string(),
                4 => "% é".to_string(),
                _ => format!("d{i}"),
            })
            .collect();
        let ctx = Ctx { defs_keyword, def_names };
        let mut map = Map::new();
        if let Some(d) = self.draft {
            map.insert("$schema".into(), Value::from(d.uri()));
        }
        if let Some(id) = self.id {
            map.insert(if old { "id" } else { "$id" }.into(), Value::from(id.text()));
        }
        if let Some(a) = self.dynamic_anchor {
            map.insert("$dynamicAnchor".into(), Value::from(a.name()));
        }
        if !ctx.def_names.is_empty() {
            let defs: Map<String, Value> =
                ctx.def_names.iter().zip(&self.defs).map(|(name, s)| (name.clone(), s.value(&ctx, 1))).collect();
            map.insert(defs_keyword.into(), Value::Object(defs));
        }
        for kw in &self.body {
            kw.insert(&mut map, &ctx, 0);
        }
        Value::Object(map)
    }
}

impl Schema {
    fn value(&self, ctx: &Ctx, depth: usize) -> Value {
        match self {
            Schema::Bool(b) => Value::Bool(*b),
            Schema::Object(_) if depth >= MAX_DEPTH => Value::Bool(true),
            Schema::Object(keywords) => {
                let mut map = Map::new();
                for kw in keywords {
                    kw.insert(&mut map, ctx, depth);
                }
                Value::Object(map)
            }
        }
    }
}

fn pointer_escape(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

fn percent_escape(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

impl RefTarget {
    fn uri(self, ctx: &Ctx) -> String {
        let def = |i: u8| -> Option<&String> {
            (!ctx.def_names.is_empty()).then(|| &ctx.def_names[usize::from(i) % ctx.def_names.len()])
        };
        match self {
            RefTarget::Def(i) => match def(i) {
                Some(name) => format!("#/{}/{}", ctx.defs_keyword, percent_escape(&pointer_escape(name))),
                None => "#".into(),
            },
            RefTarget::DefPointer(i) => match def(i) {
                Some(name) => format!("#/{}/{}", ctx.defs_keyword, pointer_escape(name)),
                None => "#/".into(),
            },
            RefTarget::Root => "#".into(),
            RefTarget::Anchor(a) => format!("#{}", a.name()),
            RefTarget::PropertiesA => "#/properties/a".into(),
            RefTarget::ItemsPointer => "#/items".into(),
            RefTarget::MetaSchema(d) => d.uri().into(),
            RefTarget::Unresolvable => "https://example.com/nowhere.json".into(),
            RefTarget::RelativeToId => "child.json".into(),
            RefTarget::PercentEncoded => "#/%24defs/d0".into(),
        }
    }
}

fn schemas(list: &[Schema], ctx: &Ctx, depth: usize) -> Value {
    Value::Array(list.iter().map(|s| s.value(ctx, depth + 1)).collect())
}

fn keyed_schemas<'a>(list: impl Iterator<Item = (String, &'a Schema)>, ctx: &Ctx, depth: usize) -> Value {
    Value::Object(list.map(|(k, s)| (k, s.value(ctx, depth + 1))).collect())
}

fn names(keys: &[Key]) -> Value {
    Value::Array(keys.iter().map(|k| Value::from(k.text())).collect())
}

impl Keyword {
    fn insert(&self, map: &mut Map<String, Value>, ctx: &Ctx, depth: usize) {
        let num = |n: &Num| Value::Number(n.value());
        let sub = |s: &Schema| s.value(ctx, depth + 1);
        let (key, value): (&str, Value) = match self {
            Keyword::Type(types) => (
                "type",
                match types.as_slice() {
                    [one] => Value::from(one.name()),
                    many => Value::Array(many.iter().map(|t| Value::from(t.name())).collect()),
                },
            ),
            Keyword::Enum(values) => ("enum", Value::Array(values.iter().map(Json::value).collect())),
            Keyword::Const(v) => ("const", v.value()),
            Keyword::MultipleOf(n) => ("multipleOf", num(n)),
            Keyword::Maximum(n) => ("maximum", num(n)),
            Keyword::Minimum(n) => ("minimum", num(n)),
            Keyword::ExclusiveMaximum(n) => ("exclusiveMaximum", num(n)),
            Keyword::ExclusiveMinimum(n) => ("exclusiveMinimum", num(n)),
            Keyword::ExclusiveMaximumBool(b) => ("exclusiveMaximum", Value::Bool(*b)),
            Keyword::MaxLength(c) => ("maxLength", c.value()),
            Keyword::MinLength(c) => ("minLength", c.value()),
            Keyword::Pattern(p) => ("pattern", Value::from(p.text())),
            Keyword::Format(f) => ("format", Value::from(f.name())),
            Keyword::MaxItems(c) => ("maxItems", c.value()),
            Keyword::MinItems(c) => ("minItems", c.value()),
            Keyword::UniqueItems(b) => ("uniqueItems", Value::Bool(*b)),
            Keyword::MinContains(c) => ("minContains", c.value()),
            Keyword::MaxContains(c) => ("maxContains", c.value()),
            Keyword::MaxProperties(c) => ("maxProperties", c.value()),
            Keyword::MinProperties(c) => ("minProperties", c.value()),
            Keyword::Required(keys) => ("required", names(keys)),
            Keyword::Ref(t) => ("$ref", Value::from(t.uri(ctx))),
            Keyword::DynamicRef(a) => ("$dynamicRef", Value::from(format!("#{}", a.name()))),
            Keyword::DynamicAnchor(a) => ("$dynamicAnchor", Value::from(a.name())),
            Keyword::Anchor(a) => ("$anchor", Value::from(a.name())),
            Keyword::RecursiveRef => ("$recursiveRef", Value::from("#")),
            Keyword::RecursiveAnchor(b) => ("$recursiveAnchor", Value::Bool(*b)),
            Keyword::Id(id) => ("$id", Value::from(id.text())),
            Keyword::Unknown(k, v) => {
                map.insert(format!("x-{}", k.text()), v.value());
                return;
            }
            Keyword::DependentRequired(deps) => {
                ("dependentRequired", Value::Object(deps.iter().map(|(k, list)| (k.text(), names(list))).collect()))
            }
            Keyword::ContentEncoding => ("contentEncoding", Value::from("base64")),
            Keyword::ContentMediaType => ("contentMediaType", Value::from("application/json")),
            _ if depth >= MAX_DEPTH => return,
            Keyword::Items(s) => ("items", sub(s)),
            Keyword::ItemsArray(list) => ("items", schemas(list, ctx, depth)),
            Keyword::PrefixItems(list) => ("prefixItems", schemas(list, ctx, depth)),
            Keyword::AdditionalItems(s) => ("additionalItems", sub(s)),
            Keyword::Contains(s) => ("contains", sub(s)),
            Keyword::Properties(props) => {
                ("properties", keyed_schemas(props.iter().map(|(k, s)| (k.text(), s)), ctx, depth))
            }
            Keyword::PatternProperties(props) => {
                ("patternProperties", keyed_schemas(props.iter().map(|(p, s)| (p.text(), s)), ctx, depth))
            }
            Keyword::AdditionalProperties(s) => ("additionalProperties", sub(s)),
            Keyword::PropertyNames(s) => ("propertyNames", sub(s)),
            Keyword::DependentSchemas(props) => {
                ("dependentSchemas", keyed_schemas(props.iter().map(|(k, s)| (k.text(), s)), ctx, depth))
            }
            Keyword::Dependencies(deps) => (
                "dependencies",
                Value::Object(
                    deps.iter()
                        .map(|(k, d)| {
                            let v = match d {
                                Dependency::Names(list) => names(list),
                                Dependency::Schema(s) => sub(s),
                            };
                            (k.text(), v)
                        })
                        .collect(),
                ),
            ),
            Keyword::AllOf(list) => ("allOf", schemas(list, ctx, depth)),
            Keyword::AnyOf(list) => ("anyOf", schemas(list, ctx, depth)),
            Keyword::OneOf(list) => ("oneOf", schemas(list, ctx, depth)),
            Keyword::Not(s) => ("not", sub(s)),
            Keyword::If(s) => ("if", sub(s)),
            Keyword::Then(s) => ("then", sub(s)),
            Keyword::Else(s) => ("else", sub(s)),
            Keyword::UnevaluatedItems(s) => ("unevaluatedItems", sub(s)),
            Keyword::UnevaluatedProperties(s) => ("unevaluatedProperties", sub(s)),
            Keyword::ContentSchema(s) => ("contentSchema", sub(s)),
            Keyword::NestedDefs(defs) => (
                ctx.defs_keyword,
                Value::Object(
                    defs.iter()
                        .map(|(a, s)| {
                            let mut v = sub(s);
                            if let Value::Object(m) = &mut v {
                                m.insert("$dynamicAnchor".into(), Value::from(a.name()));
                            }
                            (format!("n{}", a.name()), v)
                        })
                        .collect(),
                ),
            ),
        };
        match (map.get_mut(key), value) {
            // Nested definitions join the ones already there.
            (Some(Value::Object(existing)), Value::Object(new)) if key == ctx.defs_keyword => existing.extend(new),
            (_, value) => {
                map.insert(key.into(), value);
            }
        }
    }
}
