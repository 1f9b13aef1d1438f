//! ECMA-262 patterns: a pattern and a haystack separated by a NUL byte.
//! When `Regex::new` accepts the pattern, every engine that can run it
//! (fast path, linear, backtracking; forced with `Regex::with_engine`) must
//! give the same answer on the haystack and on strings derived from it,
//! unless one reports `MatchLimitExceeded`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schemavm_compiler::regex::{Engine, Regex, RegexLimits, check_syntax};
use schemavm_fuzz::split_schema_instance;

const MAX_PATTERN: usize = 64;
const MAX_HAYSTACK: usize = 64;

fuzz_target!(|data: &[u8]| {
    let (pattern, haystack) = split_schema_instance(data);
    if pattern.len() > MAX_PATTERN || haystack.len() > MAX_HAYSTACK {
        return;
    }
    let (Ok(pattern), Ok(haystack)) = (std::str::from_utf8(pattern), std::str::from_utf8(haystack)) else {
        return;
    };
    let limits = RegexLimits::default();
    let chosen = Regex::new(pattern, &limits);
    let syntax = check_syntax(pattern);
    if chosen.is_ok() {
        assert!(syntax.is_ok(), "Regex::new accepts {pattern:?} but check_syntax rejects it: {syntax:?}");
    }
    if syntax.is_err() {
        assert!(chosen.is_err(), "check_syntax rejects {pattern:?} but Regex::new accepts it");
    }
    let Ok(chosen) = chosen else { return };

    let mut engines = vec![chosen];
    for engine in [Engine::Fast, Engine::Linear, Engine::Backtracking] {
        if let Ok(re) = Regex::with_engine(pattern, &limits, engine) {
            assert_eq!(re.engine(), engine);
            engines.push(re);
        }
    }

    let mid = haystack.char_indices().nth(haystack.chars().count() / 2).map_or(0, |(i, _)| i);
    let haystacks = [
        haystack.to_string(),
        String::new(),
        haystack.chars().rev().collect(),
        haystack.repeat(2),
        format!("{}\n{}", &haystack[..mid], &haystack[mid..]),
        haystack[..mid].to_string(),
        haystack.to_uppercase(),
        pattern.to_string(),
    ];
    for h in &haystacks {
        let answers: Vec<(Engine, Option<bool>)> =
            engines.iter().map(|re| (re.engine(), re.is_match(h).ok())).collect();
        let known: Vec<&(Engine, Option<bool>)> = answers.iter().filter(|(_, a)| a.is_some()).collect();
        if let Some(first) = known.first() {
            for other in &known[1..] {
                assert_eq!(first.1, other.1, "engines disagree on /{pattern}/ against {h:?}: {answers:?}");
            }
        }
        for re in &engines {
            let _ = re.cost(h.len());
        }
    }
});
