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

fn parse_date(b: &[u8]) -> bool {
    let [y1, y2, y3, y4, b'-', m1, m2, b'-', d1, d2] = *b else {
        return false;
    };
    let (Some(year), Some(month), Some(day)) = (digits(&[y1, y2, y3, y4]), digits(&[m1, m2]), digits(&[d1, d2])) else {
        return false;
    };
    (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month)
}

fn days_in_month(year: i32, month: i32) -> i32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The decimal value of `b` if every byte is an ASCII digit.
fn digits(b: &[u8]) -> Option<i32> {
    b.iter().try_fold(0i32, |acc, &d| d.is_ascii_digit().then(|| acc * 10 + i32::from(d - b'0')))
}

/// Parses a two-digit field no greater than `max`.
fn field(b: &[u8], max: i32) -> Option<i32> {
    digits(b).filter(|v| *v <= max)
}

fn parse_full_time(b: &[u8]) -> bool {
    let Some(([h1, h2, b':', mi1, mi2, b':', s1, s2], rest)) = b.split_first_chunk::<8>() else {
        return false;
    };
    let (Some(hour), Some(minute), Some(second)) =
        (field(&[*h1, *h2], 23), field(&[*mi1, *mi2], 59), field(&[*s1, *s2], 60))
    else {
        return false;
    };
    // time-secfrac = "." 1*DIGIT
    let rest = match rest.strip_prefix(b".") {
        Some(frac) => {
            let n = frac.iter().take_while(|d| d.is_ascii_digit()).count();
            match frac.get(n..) {
                Some(after) if n > 0 => after,
                _ => return false,
            }
        }
        None => rest,
    };
    // time-offset = "Z" / ("+" / "-") time-hour ":" time-minute
    let offset_minutes = match *rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), oh1, oh2, b':', om1, om2] => {
            let (Some(oh), Some(om)) = (field(&[oh1, oh2], 23), field(&[om1, om2], 59)) else {
                return false;
            };
            let minutes = oh * 60 + om;
            if sign == b'+' { minutes } else { -minutes }
        }
        _ => return false,
    };
    if second == 60 {
        // Local time minus the offset gives UTC; it must be 23:59.
        let utc = (hour * 60 + minute - offset_minutes).rem_euclid(24 * 60);
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
    use super::{is_date, is_date_time, is_duration, is_time};

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
