//! IDNA2008 U-label rules (RFC 5891 section 4.2.3 and RFC 5892).
//!
//! The `idna` crate implements UTS #46, which accepts code points that
//! IDNA2008 disallows (its `NV8`/`XV8` sets, e.g. U+302E or U+0640) and has
//! no CONTEXTO rules. This module fills that gap: it derives each code
//! point's IDNA2008 property with the algorithm of RFC 5892 section 3
//! from Unicode data (`icu_properties`), and applies the hyphen, leading
//! combining mark and CONTEXTO rules. CONTEXTJ (the joiner rules) and the
//! Bidi rule (RFC 5893) are checked by the `idna` crate's UTS #46
//! processing, which the caller runs on the whole name.

use icu_properties::props::{
    ChangesWhenNfkcCasefolded, DefaultIgnorableCodePoint, GeneralCategory, HangulSyllableType, NoncharacterCodePoint,
    Script, WhiteSpace,
};
use icu_properties::{CodePointMapData, CodePointSetData};

/// The IDNA2008 derived property of a code point (RFC 5892 section 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Property {
    /// Allowed anywhere.
    Pvalid,
    /// Allowed where a CONTEXTJ rule holds (the joiners U+200C, U+200D).
    ContextJ,
    /// Allowed where a CONTEXTO rule holds.
    ContextO,
    /// Never allowed (DISALLOWED or UNASSIGNED).
    Disallowed,
}

/// RFC 5892 section 3, in its order of precedence.
fn property(c: char) -> Property {
    match c {
        // 2.6 Exceptions (F)
        '\u{DF}' | '\u{3C2}' | '\u{6FD}' | '\u{6FE}' | '\u{F0B}' | '\u{3007}' => Property::Pvalid,
        '\u{B7}' | '\u{375}' | '\u{5F3}' | '\u{5F4}' | '\u{30FB}' | '\u{660}'..='\u{669}' | '\u{6F0}'..='\u{6F9}' => {
            Property::ContextO
        }
        '\u{640}' | '\u{7FA}' | '\u{302E}' | '\u{302F}' | '\u{3031}'..='\u{3035}' | '\u{303B}' => Property::Disallowed,
        // 2.9 LDH (J)
        'a'..='z' | '0'..='9' | '-' => Property::Pvalid,
        // 2.8 JoinControl (H)
        '\u{200C}' | '\u{200D}' => Property::ContextJ,
        _ => derived(c),
    }
}

/// The rules of RFC 5892 section 3 after the exceptions, LDH and joiners.
fn derived(c: char) -> Property {
    let category = CodePointMapData::<GeneralCategory>::new().get(c);
    let disallowed = category == GeneralCategory::Unassigned // 2.11 Unassigned (J)
        // 2.2 Unstable (B): NFKC_Casefold(cp) != cp
        || CodePointSetData::new::<ChangesWhenNfkcCasefolded>().contains(c)
        // 2.3 IgnorableProperties (C)
        || CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
        || CodePointSetData::new::<WhiteSpace>().contains(c)
        || CodePointSetData::new::<NoncharacterCodePoint>().contains(c)
        // 2.4 IgnorableBlocks (D): Combining Diacritical Marks for Symbols,
        // Musical Symbols, Ancient Greek Musical Notation
        || matches!(c, '\u{20D0}'..='\u{20FF}' | '\u{1D100}'..='\u{1D24F}')
        // 2.5 OldHangulJamo (I)
        || matches!(
            CodePointMapData::<HangulSyllableType>::new().get(c),
            HangulSyllableType::LeadingJamo | HangulSyllableType::VowelJamo | HangulSyllableType::TrailingJamo
        );
    // 2.1 LetterDigits (A)
    let letter_digit = matches!(
        category,
        GeneralCategory::LowercaseLetter
            | GeneralCategory::UppercaseLetter
            | GeneralCategory::OtherLetter
            | GeneralCategory::DecimalNumber
            | GeneralCategory::ModifierLetter
            | GeneralCategory::NonspacingMark
            | GeneralCategory::SpacingMark
    );
    if !disallowed && letter_digit { Property::Pvalid } else { Property::Disallowed }
}

/// Whether `c` may appear in a U-label at all: PVALID, CONTEXTJ or CONTEXTO.
pub fn is_idna2008_code_point(c: char) -> bool {
    property(c) != Property::Disallowed
}

fn is_combining_mark(c: char) -> bool {
    matches!(
        CodePointMapData::<GeneralCategory>::new().get(c),
        GeneralCategory::NonspacingMark | GeneralCategory::SpacingMark | GeneralCategory::EnclosingMark
    )
}

fn script(c: Option<char>) -> Option<Script> {
    c.map(|c| CodePointMapData::<Script>::new().get(c))
}

/// Whether `label` (non-empty, already split from its name) is a valid
/// U-label apart from CONTEXTJ and Bidi: no leading or trailing hyphen,
/// no `--` in the third and fourth positions, no leading combining mark,
/// only PVALID code points plus CONTEXTJ/CONTEXTO ones whose CONTEXTO
/// rule (RFC 5892 appendix A.3-A.9) holds.
pub fn is_u_label(label: &str) -> bool {
    let mut chars = label.chars();
    let first = chars.next();
    let (third, fourth) = (chars.nth(1), chars.next());
    if first.is_none_or(is_combining_mark)
        || first == Some('-')
        || label.ends_with('-')
        || (third == Some('-') && fourth == Some('-'))
    {
        return false;
    }
    let mut has_arabic_indic = false;
    let mut has_extended_arabic_indic = false;
    let mut has_kana_han = false;
    let mut has_katakana_middle_dot = false;
    let mut previous: Option<char> = None;
    let mut chars = label.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        let ok = match property(c) {
            Property::Pvalid | Property::ContextJ => true,
            Property::Disallowed => false,
            Property::ContextO => match c {
                // A.3 MIDDLE DOT: between two 'l'.
                '\u{B7}' => previous == Some('l') && next == Some('l'),
                // A.4 GREEK LOWER NUMERAL SIGN (KERAIA): followed by Greek.
                '\u{375}' => script(next) == Some(Script::Greek),
                // A.5, A.6 HEBREW PUNCTUATION GERESH / GERSHAYIM: after Hebrew.
                '\u{5F3}' | '\u{5F4}' => script(previous) == Some(Script::Hebrew),
                // A.7 KATAKANA MIDDLE DOT: checked once the label is read.
                '\u{30FB}' => {
                    has_katakana_middle_dot = true;
                    true
                }
                // A.8, A.9 ARABIC-INDIC / EXTENDED ARABIC-INDIC DIGITS: not
                // mixed, checked once the label is read.
                '\u{660}'..='\u{669}' => {
                    has_arabic_indic = true;
                    true
                }
                _ => {
                    has_extended_arabic_indic = true;
                    true
                }
            },
        };
        if !ok {
            return false;
        }
        has_kana_han |= matches!(script(Some(c)), Some(Script::Hiragana | Script::Katakana | Script::Han));
        previous = Some(c);
    }
    !(has_arabic_indic && has_extended_arabic_indic) && (has_kana_han || !has_katakana_middle_dot)
}

#[cfg(test)]
mod tests {
    use super::{Property, is_u_label, property};

    #[test]
    fn derived_properties() {
        for c in ['a', 'z', '0', '-', 'é', 'ß', 'ς', 'ü', '실', '丈', 'ぁ', '\u{301}', '\u{94D}'] {
            assert_eq!(property(c), Property::Pvalid, "{c:?}");
        }
        for c in [
            'A',
            '_',
            ' ',
            '.',
            'Ü',
            '\u{212A}',
            '\u{FF41}',
            '\u{AD}',
            '\u{FFFF}',
            '\u{640}',
            '\u{302E}',
            '\u{3031}',
            '\u{20D0}',
            '\u{1100}',
            '\u{2665}',
            '\u{E000}',
            '\u{10FFFF}',
            '\u{378}',
        ] {
            assert_eq!(property(c), Property::Disallowed, "{c:?}");
        }
        assert_eq!(property('\u{200D}'), Property::ContextJ);
        assert_eq!(property('\u{B7}'), Property::ContextO);
    }

    #[test]
    fn labels() {
        for ok in ["bücher", "l·l", "α͵β", "א׳ב", "・ぁ", "ァ・", "٠١", "۰۱", "a-b", "ab-c"] {
            assert!(is_u_label(ok), "{ok}");
        }
        for bad in [
            "-ü", "ü-", "üb--c", "\u{301}a", "a·b", "·l", "l·", "α͵", "α͵a", "׳", "a׳", "・", "a・b", "٠۰", "a_ü",
            "Bücher",
        ] {
            assert!(!is_u_label(bad), "{bad}");
        }
    }
}
