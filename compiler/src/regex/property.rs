//! Unicode property names for `\p{..}` and `\P{..}`, exactly as ECMA-262
//! lists them.
//!
//! ECMA-262 matches property names and values case-sensitively and without
//! the loose matching (ignoring case, `_`, `-` and spaces) that `regex-syntax`
//! applies, so every name is validated here first. Only a validated,
//! canonical name is ever handed to `regex-syntax`, which supplies the code
//! point set (see [`Property::class`]).
//!
//! Trade-off: the sets come from `regex-syntax`'s Unicode tables, so their
//! Unicode version is that crate's. A name ECMA lists but `regex-syntax` does
//! not know (`Changes_When_NFKC_Casefolded`) is valid syntax for
//! [`super::check_syntax`] but fails to compile with
//! [`super::RegexErrorKind::Unsupported`].

use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, HirKind, Literal};

use super::lower::complement;

/// A validated Unicode property, holding its canonical name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Property {
    /// A `General_Category` value (also written alone, e.g. `\p{Lu}`).
    GeneralCategory(&'static str),
    /// `Script=` / `sc=`.
    Script(&'static str),
    /// `Script_Extensions=` / `scx=`.
    ScriptExtensions(&'static str),
    /// A binary property (e.g. `\p{Alphabetic}`).
    Binary(&'static str),
}

impl Property {
    /// Validates the text between the braces of `\p{..}`; `None` if ECMA-262
    /// does not list it.
    pub fn parse(text: &str) -> Option<Property> {
        match text.split_once('=') {
            Some((name, value)) => match name {
                "General_Category" | "gc" => canonical(GENERAL_CATEGORIES, value).map(Property::GeneralCategory),
                "Script" | "sc" => canonical(SCRIPTS, value).map(Property::Script),
                "Script_Extensions" | "scx" => canonical(SCRIPTS, value).map(Property::ScriptExtensions),
                _ => None,
            },
            None => canonical(GENERAL_CATEGORIES, text)
                .map(Property::GeneralCategory)
                .or_else(|| canonical(BINARY_PROPERTIES, text).map(Property::Binary)),
        }
    }

    /// The code points with this property that UTF-8 text can hold, from
    /// `regex-syntax`'s tables; `None` if `regex-syntax` does not know the
    /// property.
    pub fn class(self) -> Option<ClassUnicode> {
        let query = match self {
            // Only surrogates, or no code point at all: nothing in UTF-8 text.
            Property::GeneralCategory("Surrogate")
            | Property::Script("Katakana_Or_Hiragana")
            | Property::ScriptExtensions("Katakana_Or_Hiragana") => {
                return Some(ClassUnicode::empty());
            }
            // The code points no script claims (`Script_Extensions` defaults
            // to `Script`, so both are the same set).
            Property::Script("Unknown") | Property::ScriptExtensions("Unknown") => {
                let mut claimed = ClassUnicode::empty();
                for &(script, _) in SCRIPTS {
                    if !matches!(script, "Unknown" | "Katakana_Or_Hiragana") {
                        claimed.union(&Property::Script(script).class()?);
                    }
                }
                return Some(complement(&claimed));
            }
            Property::GeneralCategory(value) => format!(r"\p{{gc={value}}}"),
            Property::Script(value) => format!(r"\p{{sc={value}}}"),
            Property::ScriptExtensions(value) => format!(r"\p{{scx={value}}}"),
            Property::Binary(name) => format!(r"\p{{{name}}}"),
        };
        let hir = regex_syntax::Parser::new().parse(&query).ok()?;
        match hir.into_kind() {
            HirKind::Class(Class::Unicode(class)) => Some(class),
            // A one-character set comes back as a literal.
            HirKind::Literal(Literal(bytes)) => {
                let c = std::str::from_utf8(&bytes).ok()?.chars().next()?;
                Some(ClassUnicode::new([ClassUnicodeRange::new(c, c)]))
            }
            _ => None,
        }
    }
}

/// A list of canonical names, each with its aliases.
type NameTable = &'static [(&'static str, &'static [&'static str])];

/// The canonical (first) name of the table entry that lists `name`.
fn canonical(table: &'static [(&'static str, &'static [&'static str])], name: &str) -> Option<&'static str> {
    table.iter().find(|(long, aliases)| *long == name || aliases.contains(&name)).map(|&(long, _)| long)
}

/// `General_Category` values with their aliases.
const GENERAL_CATEGORIES: NameTable = &[
    ("Cased_Letter", &["LC"]),
    ("Close_Punctuation", &["Pe"]),
    ("Connector_Punctuation", &["Pc"]),
    ("Control", &["Cc", "cntrl"]),
    ("Currency_Symbol", &["Sc"]),
    ("Dash_Punctuation", &["Pd"]),
    ("Decimal_Number", &["Nd", "digit"]),
    ("Enclosing_Mark", &["Me"]),
    ("Final_Punctuation", &["Pf"]),
    ("Format", &["Cf"]),
    ("Initial_Punctuation", &["Pi"]),
    ("Letter", &["L"]),
    ("Letter_Number", &["Nl"]),
    ("Line_Separator", &["Zl"]),
    ("Lowercase_Letter", &["Ll"]),
    ("Mark", &["M", "Combining_Mark"]),
    ("Math_Symbol", &["Sm"]),
    ("Modifier_Letter", &["Lm"]),
    ("Modifier_Symbol", &["Sk"]),
    ("Nonspacing_Mark", &["Mn"]),
    ("Number", &["N"]),
    ("Open_Punctuation", &["Ps"]),
    ("Other", &["C"]),
    ("Other_Letter", &["Lo"]),
    ("Other_Number", &["No"]),
    ("Other_Punctuation", &["Po"]),
    ("Other_Symbol", &["So"]),
    ("Paragraph_Separator", &["Zp"]),
    ("Private_Use", &["Co"]),
    ("Punctuation", &["P", "punct"]),
    ("Separator", &["Z"]),
    ("Space_Separator", &["Zs"]),
    ("Spacing_Mark", &["Mc"]),
    ("Surrogate", &["Cs"]),
    ("Symbol", &["S"]),
    ("Titlecase_Letter", &["Lt"]),
    ("Unassigned", &["Cn"]),
    ("Uppercase_Letter", &["Lu"]),
];

/// Binary properties with their aliases.
const BINARY_PROPERTIES: NameTable = &[
    ("ASCII", &[]),
    ("ASCII_Hex_Digit", &["AHex"]),
    ("Alphabetic", &["Alpha"]),
    ("Any", &[]),
    ("Assigned", &[]),
    ("Bidi_Control", &["Bidi_C"]),
    ("Bidi_Mirrored", &["Bidi_M"]),
    ("Case_Ignorable", &["CI"]),
    ("Cased", &[]),
    ("Changes_When_Casefolded", &["CWCF"]),
    ("Changes_When_Casemapped", &["CWCM"]),
    ("Changes_When_Lowercased", &["CWL"]),
    ("Changes_When_NFKC_Casefolded", &["CWKCF"]),
    ("Changes_When_Titlecased", &["CWT"]),
    ("Changes_When_Uppercased", &["CWU"]),
    ("Dash", &[]),
    ("Default_Ignorable_Code_Point", &["DI"]),
    ("Deprecated", &["Dep"]),
    ("Diacritic", &["Dia"]),
    ("Emoji", &[]),
    ("Emoji_Component", &["EComp"]),
    ("Emoji_Modifier", &["EMod"]),
    ("Emoji_Modifier_Base", &["EBase"]),
    ("Emoji_Presentation", &["EPres"]),
    ("Extended_Pictographic", &["ExtPict"]),
    ("Extender", &["Ext"]),
    ("Grapheme_Base", &["Gr_Base"]),
    ("Grapheme_Extend", &["Gr_Ext"]),
    ("Hex_Digit", &["Hex"]),
    ("IDS_Binary_Operator", &["IDSB"]),
    ("IDS_Trinary_Operator", &["IDST"]),
    ("ID_Continue", &["IDC"]),
    ("ID_Start", &["IDS"]),
    ("Ideographic", &["Ideo"]),
    ("Join_Control", &["Join_C"]),
    ("Logical_Order_Exception", &["LOE"]),
    ("Lowercase", &["Lower"]),
    ("Math", &[]),
    ("Noncharacter_Code_Point", &["NChar"]),
    ("Pattern_Syntax", &["Pat_Syn"]),
    ("Pattern_White_Space", &["Pat_WS"]),
    ("Quotation_Mark", &["QMark"]),
    ("Radical", &[]),
    ("Regional_Indicator", &["RI"]),
    ("Sentence_Terminal", &["STerm"]),
    ("Soft_Dotted", &["SD"]),
    ("Terminal_Punctuation", &["Term"]),
    ("Unified_Ideograph", &["UIdeo"]),
    ("Uppercase", &["Upper"]),
    ("Variation_Selector", &["VS"]),
    ("White_Space", &["space"]),
    ("XID_Continue", &["XIDC"]),
    ("XID_Start", &["XIDS"]),
];

/// Script values (`Script=`, `sc=`, `Script_Extensions=`, `scx=`): each
/// long name with its ISO 15924 short aliases, as in Unicode's
/// PropertyValueAliases.txt.
const SCRIPTS: NameTable = &[
    ("Adlam", &["Adlm"]),
    ("Ahom", &[]),
    ("Anatolian_Hieroglyphs", &["Hluw"]),
    ("Arabic", &["Arab"]),
    ("Armenian", &["Armn"]),
    ("Avestan", &["Avst"]),
    ("Balinese", &["Bali"]),
    ("Bamum", &["Bamu"]),
    ("Bassa_Vah", &["Bass"]),
    ("Batak", &["Batk"]),
    ("Bengali", &["Beng"]),
    ("Bhaiksuki", &["Bhks"]),
    ("Bopomofo", &["Bopo"]),
    ("Brahmi", &["Brah"]),
    ("Braille", &["Brai"]),
    ("Buginese", &["Bugi"]),
    ("Buhid", &["Buhd"]),
    ("Canadian_Aboriginal", &["Cans"]),
    ("Carian", &["Cari"]),
    ("Caucasian_Albanian", &["Aghb"]),
    ("Chakma", &["Cakm"]),
    ("Cham", &[]),
    ("Cherokee", &["Cher"]),
    ("Chorasmian", &["Chrs"]),
    ("Common", &["Zyyy"]),
    ("Coptic", &["Copt", "Qaac"]),
    ("Cuneiform", &["Xsux"]),
    ("Cypriot", &["Cprt"]),
    ("Cypro_Minoan", &["Cpmn"]),
    ("Cyrillic", &["Cyrl"]),
    ("Deseret", &["Dsrt"]),
    ("Devanagari", &["Deva"]),
    ("Dives_Akuru", &["Diak"]),
    ("Dogra", &["Dogr"]),
    ("Duployan", &["Dupl"]),
    ("Egyptian_Hieroglyphs", &["Egyp"]),
    ("Elbasan", &["Elba"]),
    ("Elymaic", &["Elym"]),
    ("Ethiopic", &["Ethi"]),
    ("Garay", &["Gara"]),
    ("Georgian", &["Geor"]),
    ("Glagolitic", &["Glag"]),
    ("Gothic", &["Goth"]),
    ("Grantha", &["Gran"]),
    ("Greek", &["Grek"]),
    ("Gujarati", &["Gujr"]),
    ("Gunjala_Gondi", &["Gong"]),
    ("Gurmukhi", &["Guru"]),
    ("Gurung_Khema", &["Gukh"]),
    ("Han", &["Hani"]),
    ("Hangul", &["Hang"]),
    ("Hanifi_Rohingya", &["Rohg"]),
    ("Hanunoo", &["Hano"]),
    ("Hatran", &["Hatr"]),
    ("Hebrew", &["Hebr"]),
    ("Hiragana", &["Hira"]),
    ("Imperial_Aramaic", &["Armi"]),
    ("Inherited", &["Qaai", "Zinh"]),
    ("Inscriptional_Pahlavi", &["Phli"]),
    ("Inscriptional_Parthian", &["Prti"]),
    ("Javanese", &["Java"]),
    ("Kaithi", &["Kthi"]),
    ("Kannada", &["Knda"]),
    ("Katakana", &["Kana"]),
    ("Katakana_Or_Hiragana", &["Hrkt"]),
    ("Kawi", &[]),
    ("Kayah_Li", &["Kali"]),
    ("Kharoshthi", &["Khar"]),
    ("Khitan_Small_Script", &["Kits"]),
    ("Khmer", &["Khmr"]),
    ("Khojki", &["Khoj"]),
    ("Khudawadi", &["Sind"]),
    ("Kirat_Rai", &["Krai"]),
    ("Lao", &["Laoo"]),
    ("Latin", &["Latn"]),
    ("Lepcha", &["Lepc"]),
    ("Limbu", &["Limb"]),
    ("Linear_A", &["Lina"]),
    ("Linear_B", &["Linb"]),
    ("Lisu", &[]),
    ("Lycian", &["Lyci"]),
    ("Lydian", &["Lydi"]),
    ("Mahajani", &["Mahj"]),
    ("Makasar", &["Maka"]),
    ("Malayalam", &["Mlym"]),
    ("Mandaic", &["Mand"]),
    ("Manichaean", &["Mani"]),
    ("Marchen", &["Marc"]),
    ("Masaram_Gondi", &["Gonm"]),
    ("Medefaidrin", &["Medf"]),
    ("Meetei_Mayek", &["Mtei"]),
    ("Mende_Kikakui", &["Mend"]),
    ("Meroitic_Cursive", &["Merc"]),
    ("Meroitic_Hieroglyphs", &["Mero"]),
    ("Miao", &["Plrd"]),
    ("Modi", &[]),
    ("Mongolian", &["Mong"]),
    ("Mro", &["Mroo"]),
    ("Multani", &["Mult"]),
    ("Myanmar", &["Mymr"]),
    ("Nabataean", &["Nbat"]),
    ("Nag_Mundari", &["Nagm"]),
    ("Nandinagari", &["Nand"]),
    ("New_Tai_Lue", &["Talu"]),
    ("Newa", &[]),
    ("Nko", &["Nkoo"]),
    ("Nushu", &["Nshu"]),
    ("Nyiakeng_Puachue_Hmong", &["Hmnp"]),
    ("Ogham", &["Ogam"]),
    ("Ol_Chiki", &["Olck"]),
    ("Ol_Onal", &["Onao"]),
    ("Old_Hungarian", &["Hung"]),
    ("Old_Italic", &["Ital"]),
    ("Old_North_Arabian", &["Narb"]),
    ("Old_Permic", &["Perm"]),
    ("Old_Persian", &["Xpeo"]),
    ("Old_Sogdian", &["Sogo"]),
    ("Old_South_Arabian", &["Sarb"]),
    ("Old_Turkic", &["Orkh"]),
    ("Old_Uyghur", &["Ougr"]),
    ("Oriya", &["Orya"]),
    ("Osage", &["Osge"]),
    ("Osmanya", &["Osma"]),
    ("Pahawh_Hmong", &["Hmng"]),
    ("Palmyrene", &["Palm"]),
    ("Pau_Cin_Hau", &["Pauc"]),
    ("Phags_Pa", &["Phag"]),
    ("Phoenician", &["Phnx"]),
    ("Psalter_Pahlavi", &["Phlp"]),
    ("Rejang", &["Rjng"]),
    ("Runic", &["Runr"]),
    ("Samaritan", &["Samr"]),
    ("Saurashtra", &["Saur"]),
    ("Sharada", &["Shrd"]),
    ("Shavian", &["Shaw"]),
    ("Siddham", &["Sidd"]),
    ("SignWriting", &["Sgnw"]),
    ("Sinhala", &["Sinh"]),
    ("Sogdian", &["Sogd"]),
    ("Sora_Sompeng", &["Sora"]),
    ("Soyombo", &["Soyo"]),
    ("Sundanese", &["Sund"]),
    ("Sunuwar", &["Sunu"]),
    ("Syloti_Nagri", &["Sylo"]),
    ("Syriac", &["Syrc"]),
    ("Tagalog", &["Tglg"]),
    ("Tagbanwa", &["Tagb"]),
    ("Tai_Le", &["Tale"]),
    ("Tai_Tham", &["Lana"]),
    ("Tai_Viet", &["Tavt"]),
    ("Takri", &["Takr"]),
    ("Tamil", &["Taml"]),
    ("Tangsa", &["Tnsa"]),
    ("Tangut", &["Tang"]),
    ("Telugu", &["Telu"]),
    ("Thaana", &["Thaa"]),
    ("Thai", &[]),
    ("Tibetan", &["Tibt"]),
    ("Tifinagh", &["Tfng"]),
    ("Tirhuta", &["Tirh"]),
    ("Todhri", &["Todr"]),
    ("Toto", &[]),
    ("Tulu_Tigalari", &["Tutg"]),
    ("Ugaritic", &["Ugar"]),
    ("Unknown", &["Zzzz"]),
    ("Vai", &["Vaii"]),
    ("Vithkuqi", &["Vith"]),
    ("Wancho", &["Wcho"]),
    ("Warang_Citi", &["Wara"]),
    ("Yezidi", &["Yezi"]),
    ("Yi", &["Yiii"]),
    ("Zanabazar_Square", &["Zanb"]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_sensitive_and_strict() {
        assert_eq!(Property::parse("Lu"), Some(Property::GeneralCategory("Uppercase_Letter")));
        assert_eq!(Property::parse("digit"), Some(Property::GeneralCategory("Decimal_Number")));
        assert_eq!(Property::parse("gc=Lu"), Some(Property::GeneralCategory("Uppercase_Letter")));
        assert_eq!(Property::parse("General_Category=Letter"), Some(Property::GeneralCategory("Letter")));
        assert_eq!(Property::parse("sc=Grek"), Some(Property::Script("Greek")));
        assert_eq!(Property::parse("Script=Greek"), Some(Property::Script("Greek")));
        assert_eq!(Property::parse("scx=Latn"), Some(Property::ScriptExtensions("Latin")));
        assert_eq!(Property::parse("Script_Extensions=Qaai"), Some(Property::ScriptExtensions("Inherited")));
        assert_eq!(Property::parse("Alpha"), Some(Property::Binary("Alphabetic")));
        for bad in [
            "lu",
            "LU",
            "letter",
            "Greek",
            "sc=greek",
            "sc=GREK",
            "Script=Lu",
            "gc=Greek",
            "alpha",
            "Is_Alpha",
            "Uppercase Letter",
            "Uppercase-Letter",
            "L&",
            "",
            "=",
            "sc=",
            "Block=Basic_Latin",
            "Alphabetic=Yes",
        ] {
            assert_eq!(Property::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn every_listed_name_resolves_except_the_documented_gap() {
        let mut missing = Vec::new();
        type Make = fn(&'static str) -> Property;
        let tables: [(NameTable, Make); 4] = [
            (GENERAL_CATEGORIES, Property::GeneralCategory),
            (SCRIPTS, Property::Script),
            (SCRIPTS, Property::ScriptExtensions),
            (BINARY_PROPERTIES, Property::Binary),
        ];
        for (table, make) in tables {
            for &(name, _) in table {
                if make(name).class().is_none() {
                    missing.push(name);
                }
            }
        }
        assert_eq!(missing, ["Changes_When_NFKC_Casefolded"]);
    }

    #[test]
    fn classes_have_the_expected_members() {
        let contains = |p: Property, c: char| {
            p.class().is_some_and(|class| class.ranges().iter().any(|r| r.start() <= c && c <= r.end()))
        };
        assert!(contains(Property::Script("Greek"), 'α'));
        assert!(!contains(Property::Script("Greek"), 'a'));
        assert!(contains(Property::GeneralCategory("Decimal_Number"), '٣'));
        assert!(contains(Property::Binary("Any"), '\u{10FFFF}'));
        assert!(contains(Property::Binary("ASCII"), '\u{7F}'));
        assert!(!contains(Property::Binary("ASCII"), '\u{80}'));
        assert!(contains(Property::GeneralCategory("Line_Separator"), '\u{2028}'));
        assert!(!contains(Property::GeneralCategory("Line_Separator"), '\u{2029}'));
        assert!(contains(Property::Script("Unknown"), '\u{378}'));
        assert!(contains(Property::ScriptExtensions("Unknown"), '\u{E000}'));
        assert!(!contains(Property::Script("Unknown"), 'a'));
        assert!(!contains(Property::Script("Unknown"), '\u{300}'), "Inherited");
        assert_eq!(Property::GeneralCategory("Surrogate").class(), Some(ClassUnicode::empty()));
    }
}
