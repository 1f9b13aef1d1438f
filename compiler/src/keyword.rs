//! The keywords some supported draft defines, as a closed set, and a
//! table of one schema object's keywords built in one pass over it.
//!
//! Lowering and crawling ask a schema object for dozens of keywords;
//! looking each up in the object's map costs a string search per
//! keyword, most of them absent. [`KeywordTable::of`] instead classifies
//! each key the object has once, after which finding a keyword reads one
//! byte and one slot.

use serde_json::{Map, Value};
use smallvec::SmallVec;

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
    pub(crate) const fn bit(self) -> u64 {
        1 << (self as u32)
    }

    /// The set of `keywords` (evaluated at compile time).
    pub(crate) const fn set(keywords: &[Kw]) -> u64 {
        let (mut set, mut i) = (0, 0);
        while i < keywords.len() {
            set |= keywords[i].bit();
            i += 1;
        }
        set
    }
}

/// The known keywords of one schema object, by [`Kw`].
///
/// The values are kept in the object's order, and a byte per keyword
/// says where (a table of every keyword's value would be over 60 mostly
/// empty slots, cleared and moved for each of a large schema's objects).
pub(crate) struct KeywordTable<'a> {
    values: SmallVec<[&'a Value; 12]>,
    /// Per keyword: one more than its value's index, or 0 if absent.
    slots: [u8; Kw::COUNT],
    /// The keywords present, as a set.
    present: u64,
    unknown: bool,
}

impl<'a> KeywordTable<'a> {
    /// Classifies every key of `obj`.
    pub(crate) fn of(obj: &'a Map<String, Value>) -> KeywordTable<'a> {
        let mut table = KeywordTable { values: SmallVec::new(), slots: [0; Kw::COUNT], present: 0, unknown: false };
        for (key, value) in obj {
            match Kw::from_name(key) {
                Some(kw) => {
                    // Each name is one keyword's: a keyword appears once.
                    let Some(slot) = table.slots.get_mut(kw as usize) else { continue };
                    let Ok(index) = u8::try_from(table.values.len() + 1) else { continue };
                    *slot = index;
                    table.values.push(value);
                    table.present |= kw.bit();
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
        let slot = usize::from(*self.slots.get(kw as usize)?);
        self.values.get(slot.checked_sub(1)?).copied()
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

    /// Every keyword's value is found, whatever the order of the
    /// object's keys (a `Map` is sorted by name, not by keyword).
    #[test]
    fn table_keeps_every_keyword_value() {
        let schema = json!({
            "writeOnly": 0, "$schema": 1, "type": 2, "items": 3, "minLength": 4, "title": 5,
            "$id": 6, "unevaluatedProperties": 7, "x": 8, "properties": 9, "allOf": 10,
            "required": 11, "not": 12, "enum": 13, "const": 14
        });
        let obj = schema.as_object().unwrap();
        let table = KeywordTable::of(obj);
        for (name, value) in obj {
            match Kw::from_name(name) {
                Some(kw) => assert_eq!(table.get(kw), Some(value), "{name}"),
                None => assert_eq!(name, "x"),
            }
        }
        assert_eq!(table.present().count(), 14);
        assert!(!table.has(Kw::MaxLength));
        assert_eq!(table.get(Kw::MaxLength), None);
    }
}
