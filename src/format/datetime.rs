//! RFC 3339 dates and times: `date-time`, `date` (`full-date`), `time`
//! (`full-time`) and `duration` (appendix A).
//!
//! ABNF literals are case-insensitive (RFC 5234 section 2.3), so the `T`
//! and `Z` of a date-time and the designators of a duration may be lower
//! case, as RFC 3339 section 5.6 also notes.

/// Whether `s` is an RFC 3339 `date-time`: `full-date "T" full-time`.
pub fn is_date_time(s: &str) -> bool {
    match s.as_bytes().split_at_checked(10) {
        Some((date, [b'T' | b't', time @ ..])) => parse_date(date) && parse_full_time(time),
        _ => false,
    }
}

/// Whether `s` is an RFC 3339 `full-date`: `YYYY-MM-DD`, with the day
/// within its month (leap years per the Gregorian calendar).
pub fn is_date(s: &str) -> bool {
    parse_date(s.as_bytes())
}

/// Whether `s` is an RFC 3339 `full-time`: `hh:mm:ss[.frac]` followed by
/// `Z` or a numeric offset `±hh:mm`. A leap second (`:60`) is accepted only
/// where the time, shifted to UTC, is 23:59:60.
pub fn is_time(s: &str) -> bool {
    parse_full_time(s.as_bytes())
}

/// Bytes 4 and 7 of a `full-date`: the dashes of `YYYY-MM-DD`.
const DATE_DASHES: u64 = 0xFF00_00FF_0000_0000;
/// Bytes 2 and 5 of a `partial-time`: the colons of `hh:mm:ss`.
const TIME_COLONS: u64 = 0x0000_FF00_00FF_0000;

fn parse_date(b: &[u8]) -> bool {
    let Some((&head, &[d1, d2])) = b.split_first_chunk::<8>() else {
        return false;
    };
    let Some(v) = digits_around(u64::from_le_bytes(head), DATE_DASHES, b'-') else {
        return false;
    };
    let (Some(d1), Some(d2)) = (digit(d1), digit(d2)) else {
        return false;
    };
    let month = byte(v, 5) * 10 + byte(v, 6);
    let day = d1 * 10 + d2;
    if !(1..=12).contains(&month) || day == 0 {
        return false;
    }
    // Every month has 28 days; only longer days need the month and year.
    day <= 28 || {
        let year = byte(v, 0) * 1000 + byte(v, 1) * 100 + byte(v, 2) * 10 + byte(v, 3);
        day <= days_in_month(year, month)
    }
}

/// The value of an ASCII digit.
#[inline(always)]
fn digit(c: u8) -> Option<u32> {
    let v = c.wrapping_sub(b'0');
    (v <= 9).then_some(u32::from(v))
}

/// Byte `i` (little-endian) of `v`.
#[inline(always)]
fn byte(v: u64, i: u32) -> u32 {
    u32::from((v >> (8 * i)) as u8)
}

/// Checks eight bytes at once (read little-endian into `w`): those under
/// `separators` must be `separator`, all others ASCII digits. Returns the
/// digits' values in place (the separators' bytes zero).
#[inline(always)]
fn digits_around(w: u64, separators: u64, separator: u8) -> Option<u64> {
    const HIGH: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    const SIXES: u64 = 0x0606_0606_0606_0606;
    if w & separators != u64::from_le_bytes([separator; 8]) & separators {
        return None;
    }
    let x = (w & !separators) | (ZEROS & separators);
    // A byte is a digit iff its high nibble is 3 and its low one at most
    // 9, so that adding 6 leaves the high nibble alone. (Once every high
    // nibble is 3, no addition carries into the next byte.)
    (x & HIGH == ZEROS && (x.wrapping_add(SIXES)) & HIGH == ZEROS).then(|| x - ZEROS)
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn parse_full_time(b: &[u8]) -> bool {
    let Some((&head, rest)) = b.split_first_chunk::<8>() else {
        return false;
    };
    let Some(v) = digits_around(u64::from_le_bytes(head), TIME_COLONS, b':') else {
        return false;
    };
    let (hour, minute, second) =
        (byte(v, 0) * 10 + byte(v, 1), byte(v, 3) * 10 + byte(v, 4), byte(v, 6) * 10 + byte(v, 7));
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    // time-secfrac = "." 1*DIGIT
    let rest = match rest {
        [b'.', frac @ ..] => {
            let n = frac.iter().take_while(|d| d.is_ascii_digit()).count();
            match frac.get(n..) {
                Some(after) if n > 0 => after,
                _ => return false,
            }
        }
        _ => rest,
    };
    // time-offset = "Z" / ("+" / "-") time-hour ":" time-minute
    let offset_minutes = match *rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), oh1, oh2, b':', om1, om2] => {
            let (Some(oh1), Some(oh2), Some(om1), Some(om2)) = (digit(oh1), digit(oh2), digit(om1), digit(om2)) else {
                return false;
            };
            let (oh, om) = (oh1 * 10 + oh2, om1 * 10 + om2);
            if oh > 23 || om > 59 {
                return false;
            }
            let minutes = (oh * 60 + om) as i32;
            if sign == b'+' { minutes } else { -minutes }
        }
        _ => return false,
    };
    if second == 60 {
        // Local time minus the offset gives UTC; it must be 23:59.
        let utc = ((hour * 60 + minute) as i32 - offset_minutes).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

/// Whether `s` is an RFC 3339 appendix A `duration`:
///
/// ```text
/// duration = "P" (dur-date / dur-time / dur-week)
/// dur-date = (dur-day / dur-month / dur-year) [dur-time]
/// dur-time = "T" (dur-hour / dur-minute / dur-second)
/// ```
///
/// Each of `dur-year`, `dur-month`, `dur-hour`, `dur-minute` may only be
/// followed by the next smaller unit, so the date units form a contiguous
/// run of `Y M D` and the time units of `H M S`; weeks stand alone.
pub fn is_duration(s: &str) -> bool {
    let Some(body) = s.strip_prefix(['P', 'p']) else {
        return false;
    };
    let (date, time) = match body.split_once(['T', 't']) {
        Some((date, time)) => (date, Some(time)),
        None => (body, None),
    };
    if let Some(weeks) = date.strip_suffix(['W', 'w']) {
        // dur-week = 1*DIGIT "W", alone.
        return time.is_none() && !weeks.is_empty() && weeks.bytes().all(|b| b.is_ascii_digit());
    }
    let date_ok = units_in_order(date.as_bytes(), b"YMD");
    match time {
        // "T" must be followed by at least one time element.
        Some(time) => date_ok && !time.is_empty() && units_in_order(time.as_bytes(), b"HMS"),
        None => date_ok && !date.is_empty(),
    }
}

/// Whether `b` is a sequence of `1*DIGIT unit` elements whose units form a
/// contiguous run of `units` (e.g. `Y`, `YM`, `MD`, but not `YD`). Empty
/// input is accepted; the caller decides whether an element is required.
fn units_in_order(b: &[u8], units: &[u8; 3]) -> bool {
    let mut previous: Option<usize> = None;
    let mut rest = b;
    while !rest.is_empty() {
        let n = rest.iter().take_while(|d| d.is_ascii_digit()).count();
        let Some((&unit, after)) = rest.get(n..).and_then(<[u8]>::split_first) else {
            return false;
        };
        let Some(index) = units.iter().position(|u| *u == unit.to_ascii_uppercase()) else {
            return false;
        };
        if n == 0 || previous.is_some_and(|p| p + 1 != index) {
            return false;
        }
        previous = Some(index);
        rest = after;
    }
    true
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{DATE_DASHES, TIME_COLONS, byte, digits_around, is_date, is_date_time, is_duration, is_time};
    use crate::format::reference::datetime as reference;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        /// The one-test digit checks agree with the previous digit-by-digit parser.
        #[test]
        fn differential(
            date in "[0-9/]{4}-[0-9/:]{2}-[0-3:][0-9/]|[0-9]{3,5}-[01][0-9]-[0-3][0-9]|(19|20)[0-9]{2}-(0[1-9]|1[0-2])-(2[89]|3[01])|[0-9]{4}-02-29",
            time in "[0-2:/][0-9:/]:[0-6][0-9/]:[0-6:][0-9/](\\.[0-9]{0,3})?([zZ]|[+-][0-2/][0-9:]:[0-6][0-9/]|[+-][0-9]{4}|)?",
            sep in "[Tt ]",
        ) {
            prop_assert_eq!(is_date(&date), reference::is_date(&date), "{:?}", date);
            prop_assert_eq!(is_time(&time), reference::is_time(&time), "{:?}", time);
            let date_time = format!("{date}{sep}{time}");
            prop_assert_eq!(is_date_time(&date_time), reference::is_date_time(&date_time), "{:?}", date_time);
        }
    }

    /// The eight-byte check on every byte value at every position, beside
    /// digits and beside separators.
    #[test]
    fn digits_around_each_byte() {
        for (separators, separator, base) in [(DATE_DASHES, b'-', *b"2020-12-"), (TIME_COLONS, b':', *b"09:59:60")] {
            for position in 0..8 {
                for value in 0..=255u8 {
                    let mut bytes = base;
                    bytes[position] = value;
                    let expected = bytes.iter().enumerate().all(|(i, &c)| {
                        if (separators >> (8 * i)) & 0xFF != 0 { c == separator } else { c.is_ascii_digit() }
                    });
                    let got = digits_around(u64::from_le_bytes(bytes), separators, separator);
                    assert_eq!(got.is_some(), expected, "{bytes:?}");
                    if let Some(v) = got {
                        for (i, &c) in bytes.iter().enumerate() {
                            let want = if c == separator { 0 } else { u32::from(c - b'0') };
                            assert_eq!(byte(v, i as u32), want, "{bytes:?} byte {i}");
                        }
                    }
                }
            }
        }
    }

    /// Every year of the leap-day rule, and every day count of each month.
    #[test]
    fn month_lengths() {
        for year in ["0000", "0004", "0100", "0400", "1900", "2000", "2023", "2024", "9996", "9999"] {
            for month in 1..=12 {
                for day in 27..=32 {
                    let date = format!("{year}-{month:02}-{day:02}");
                    assert_eq!(is_date(&date), reference::is_date(&date), "{date}");
                }
            }
        }
    }

    /// Leap seconds at every offset hour and minute.
    #[test]
    fn leap_seconds() {
        for hour in [0, 1, 12, 22, 23] {
            for minute in [0, 1, 58, 59] {
                for offset in ["Z", "+00:00", "-00:00", "+01:00", "-01:00", "+23:59", "-23:59", "+00:01", "-08:00"] {
                    let time = format!("{hour:02}:{minute:02}:60{offset}");
                    assert_eq!(is_time(&time), reference::is_time(&time), "{time}");
                }
            }
        }
    }

    #[test]
    fn dates() {
        for ok in ["2020-02-29", "2000-02-29", "0000-01-01", "1999-12-31", "2021-04-30"] {
            assert!(is_date(ok), "{ok}");
        }
        for bad in [
            "2021-02-29",
            "1900-02-29",
            "2020-13-01",
            "2020-00-10",
            "2020-01-00",
            "2020-04-31",
            "2020-1-01",
            "20200101",
            "2020-01-01T",
            "",
            "2020-01-0১",
        ] {
            assert!(!is_date(bad), "{bad:?}");
        }
    }

    #[test]
    fn times() {
        for ok in [
            "00:00:00Z",
            "23:59:59.999999999z",
            "23:59:60Z",
            "23:59:60.5+00:00",
            "00:59:60+01:00",
            "15:59:60-08:00",
            "12:00:00-00:00",
            "23:59:59+23:59",
        ] {
            assert!(is_time(ok), "{ok}");
        }
        for bad in [
            "24:00:00Z",
            "23:60:00Z",
            "23:59:61Z",
            "23:58:60Z",
            "23:59:60+01:00",
            "12:00:00",
            "12:00:00.Z",
            "12:00:00+24:00",
            "12:00:00+01:60",
            "12:00:00+0100",
            "12:00:00ZZ",
            "12:00:00 Z",
        ] {
            assert!(!is_time(bad), "{bad:?}");
        }
    }

    #[test]
    fn date_times() {
        assert!(is_date_time("1985-04-12T23:20:50.52Z"));
        assert!(is_date_time("1996-12-19t16:39:57-08:00"));
        assert!(is_date_time("1990-12-31T15:59:60-08:00"));
        assert!(!is_date_time("1990-12-31 15:59:59Z"));
        assert!(!is_date_time("1990-02-30T15:59:59Z"));
        assert!(!is_date_time("1990-12-31T"));
        assert!(!is_date_time("1990-12-31"));
        assert!(!is_date_time("১990-12-31T15:59:59Z"));
    }

    #[test]
    fn durations() {
        for ok in [
            "P1Y", "P1Y2M", "P1Y2M3D", "P2M3D", "P3D", "PT1H", "PT1H2M", "PT1H2M3S", "PT2M3S", "PT3S", "P1DT1S", "P7W",
            "p1y", "P0D",
        ] {
            assert!(is_duration(ok), "{ok}");
        }
        for bad in [
            "", "P", "PT", "P1YT", "P1Y3D", "PT1H3S", "P1W1D", "P1WT1H", "P1", "PT1", "P1H", "PT1D", "P1M1Y", "P1.5Y",
            "P1YY", "P1DT", "PT1HT1M", "1Y", "PW",
        ] {
            assert!(!is_duration(bad), "{bad:?}");
        }
    }
}
