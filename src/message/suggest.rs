//! "Did you mean": the declared property an unknown one most likely
//! misspells.

/// Names longer than this (in characters) get no suggestion, which bounds
/// the work per unknown property.
const MAX_CHARS: usize = 64;

/// The candidate closest to `name`: one equal to it but for case, `_` and
/// `-` (`userId` for `user_id`), else the nearest by optimal string
/// alignment distance (Damerau–Levenshtein with adjacent swaps), at most 1
/// for names of up to 4 characters and 2 for longer ones. Ties go to the
/// earlier candidate.
pub(crate) fn closest_name<'a>(name: &str, candidates: &'a [String]) -> Option<&'a str> {
    let name_chars: Vec<char> = name.chars().collect();
    if name_chars.is_empty() || name_chars.len() > MAX_CHARS {
        return None;
    }
    let folded = fold(name);
    if let Some(same) = candidates.iter().find(|c| fold(c) == folded) {
        return Some(same);
    }
    let limit = if name_chars.len() <= 4 { 1 } else { 2 };
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        let other: Vec<char> = candidate.chars().take(MAX_CHARS + 1).collect();
        if other.len() > MAX_CHARS || other.len().abs_diff(name_chars.len()) > limit {
            continue;
        }
        let d = distance(&name_chars, &other);
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Lower case without `_` and `-`.
fn fold(s: &str) -> String {
    s.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect()
}

/// Optimal string alignment distance: insertions, deletions,
/// substitutions and swaps of adjacent characters.
fn distance(a: &[char], b: &[char]) -> usize {
    // Rows of the table; `at` reads a cell (every read is in range).
    let at = |row: &[usize], k: usize| row.get(k).copied().unwrap_or(usize::MAX / 2);
    let mut two_back: Vec<usize> = Vec::new();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut current = Vec::with_capacity(b.len() + 1);
        current.push(i + 1);
        for (j, &cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            let mut d = (at(&previous, j) + cost).min(at(&previous, j + 1) + 1).min(at(&current, j) + 1);
            if i > 0 && j > 0 && a.get(i - 1) == Some(&cb) && b.get(j - 1) == Some(&ca) {
                d = d.min(at(&two_back, j - 1) + 1);
            }
            current.push(d);
        }
        two_back = std::mem::replace(&mut previous, current);
    }
    at(&previous, b.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn distances() {
        let d = |a: &str, b: &str| distance(&a.chars().collect::<Vec<_>>(), &b.chars().collect::<Vec<_>>());
        assert_eq!(d("qurey", "query"), 1);
        assert_eq!(d("query", "query"), 0);
        assert_eq!(d("limt", "limit"), 1);
        assert_eq!(d("sort", "state"), 3);
        assert_eq!(d("", "abc"), 3);
        assert_eq!(d("ca", "abc"), 3);
    }

    #[test]
    fn suggests_close_names_only() {
        let declared = names(&["query", "state", "limit", "user_id"]);
        assert_eq!(closest_name("qurey", &declared), Some("query"));
        assert_eq!(closest_name("limits", &declared), Some("limit"));
        assert_eq!(closest_name("State", &declared), Some("state"));
        assert_eq!(closest_name("userId", &declared), Some("user_id"));
        assert_eq!(closest_name("USER-ID", &declared), Some("user_id"));
        assert_eq!(closest_name("sort", &declared), None);
        assert_eq!(closest_name("", &declared), None);
        assert_eq!(closest_name(&"q".repeat(65), &declared), None);
        // Short names allow one edit only.
        assert_eq!(closest_name("lim", &names(&["limit"])), None);
        assert_eq!(closest_name("ab", &names(&["abc"])), Some("abc"));
        // The nearest wins; ties go to the first declared.
        assert_eq!(closest_name("stat", &names(&["start", "state", "stats"])), Some("start"));
        assert_eq!(closest_name("quer", &names(&["queries", "query"])), Some("query"));
    }
}
