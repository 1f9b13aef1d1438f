//! The keywords some supported draft defines, as a closed set, and a
//! table of one schema object's keywords built in one pass over it.
//!
//! Lowering and crawling ask a schema object for dozens of keywords;
//! looking each up in the object's map costs a string search per
//! keyword, most of them absent. [`KeywordTable::of`] instead classifies
//! each key the object has once, after which a keyword is an array slot.

use serde_json::{Map, Value};

macro_rules! keywords {
    ($($variant:ident = $name:literal,)*) => {
        /// A keyword some supported draft defines.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) enum Kw {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
        }

        impl Kw {
            /// Every keyword, in declaration order (`Kw::ALL[kw as usize] == kw`).
            const ALL: [Kw; [$($name),*].len()] = [$(Kw::$variant),*];

            /// How many keywords there are.
            const COUNT: usize = Kw::ALL.len();

            /// The keyword as written in a schema.
            pub(crate) fn name(self) -> &'static str {
                match self {
                    $(Kw::$variant => $name,)*
                }
            }

            /// The keyword named `name`, if a supported draft defines it.
            pub(crate) fn from_name(name: &str) -> Option<Kw> {
                match name {
                    $($name => Some(Kw::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

keywords! {
    Schema = "$schema",
    Id = "$id",
    LegacyId = "id",
    Ref = "$ref",
    Defs = "$defs",
    Definitions = "definitions",
    Anchor = "$anchor",
    DynamicAnchor = "$dynamicAnchor",
    DynamicRef = "$dynamicRef",
    RecursiveAnchor = "$recursiveAnchor",
    RecursiveRef = "$recursiveRef",
    Vocabulary = "$vocabulary",
    Comment = "$comment",
    Type = "type",
    Enum = "enum",
    Const = "const",
    MultipleOf = "multipleOf",
    Maximum = "maximum",
    ExclusiveMaximum = "exclusiveMaximum",
    Minimum = "minimum",
    ExclusiveMinimum = "exclusiveMinimum",
    MaxLength = "maxLength",
    MinLength = "minLength",
    Pattern = "pattern",
    Items = "items",
    PrefixItems = "prefixItems",
    AdditionalItems = "additionalItems",
    Contains = "contains",
    MinContains = "minContains",
    MaxContains = "maxContains",
    MaxItems = "maxItems",
    MinItems = "minItems",
    UniqueItems = "uniqueItems",
    Properties = "properties",
    PatternProperties = "patternProperties",
    AdditionalProperties = "additionalProperties",
    PropertyNames = "propertyNames",
    Required = "required",
    DependentRequired = "dependentRequired",
    DependentSchemas = "dependentSchemas",
    Dependencies = "dependencies",
    MaxProperties = "maxProperties",
    MinProperties = "minProperties",
    AllOf = "allOf",
    AnyOf = "anyOf",
    OneOf = "oneOf",
    Not = "not",
    If = "if",
    Then = "then",
    Else = "else",
    UnevaluatedItems = "unevaluatedItems",
    UnevaluatedProperties = "unevaluatedProperties",
    Format = "format",
    ContentEncoding = "contentEncoding",
    ContentMediaType = "contentMediaType",
    ContentSchema = "contentSchema",
    Title = "title",
    Description = "description",
    Default = "default",
    Examples = "examples",
    Deprecated = "deprecated",
    ReadOnly = "readOnly",
    WriteOnly = "writeOnly",
}

// Sets of keywords are `u64` bit sets.
const _: () = assert!(Kw::COUNT <= 64);

impl Kw {
    /// The keyword's bit in a keyword set.
    #[inline]
    pub(crate) fn bit(self) -> u64 {
        1 << (self as u32)
    }
}

/// The known keywords of one schema object, by [`Kw`].
pub(crate) struct KeywordTable<'a> {
    values: [Option<&'a Value>; Kw::COUNT],
    /// The keywords present, as a set.
    present: u64,
    unknown: bool,
}

impl<'a> KeywordTable<'a> {
    /// Classifies every key of `obj`.
    pub(crate) fn of(obj: &'a Map<String, Value>) -> KeywordTable<'a> {
        let mut table = KeywordTable { values: [None; Kw::COUNT], present: 0, unknown: false };
        for (key, value) in obj {
            match Kw::from_name(key) {
                Some(kw) => {
                    if let Some(slot) = table.values.get_mut(kw as usize) {
                        *slot = Some(value);
                        table.present |= kw.bit();
                    }
                }
                None => table.unknown = true,
            }
        }
        table
    }

    /// The keywords present.
    pub(crate) fn present(&self) -> impl Iterator<Item = Kw> {
        let mut rest = self.present;
        std::iter::from_fn(move || {
            let i = rest.trailing_zeros();
            rest &= rest.wrapping_sub(1);
            Kw::ALL.get(i as usize).copied()
        })
    }

    /// The value of keyword `kw`, if the object has it.
    #[inline]
    pub(crate) fn get(&self, kw: Kw) -> Option<&'a Value> {
        self.values.get(kw as usize).copied().flatten()
    }

    /// Whether the object has keyword `kw`.
    #[inline]
    pub(crate) fn has(&self, kw: Kw) -> bool {
        self.get(kw).is_some()
    }

    /// Whether the object has a key no supported draft defines.
    pub(crate) fn has_unknown(&self) -> bool {
        self.unknown
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn names_round_trip() {
        for name in ["$schema", "id", "items", "writeOnly", "unevaluatedProperties"] {
            assert_eq!(Kw::from_name(name).map(Kw::name), Some(name));
        }
        assert_eq!(Kw::from_name("x-custom"), None);
    }

    #[test]
    fn table_classifies_keys() {
        let schema = json!({"type": "string", "x-y": 1, "minLength": 2});
        let table = KeywordTable::of(schema.as_object().unwrap());
        assert_eq!(table.get(Kw::Type), Some(&json!("string")));
        assert!(table.has(Kw::MinLength));
        assert!(!table.has(Kw::MaxLength));
        assert!(table.has_unknown());
    }
}
