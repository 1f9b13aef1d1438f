//! Lookaheads at the start of a pattern, as a conjunction of linear
//! patterns.
//!
//! A pattern such as `^(?=.*[a-z])(?=.*\d)(?!.*\s)[a-z\d]{8,}$` needs the
//! backtracking engine as written, yet each lookahead only asks whether
//! its body matches a prefix of the haystack (the position after `^` is
//! its start), and so does the rest: the pattern matches exactly when
//! `^(?:.*[a-z])` and `^(?:.*\d)` match, `^(?:.*\s)` does not, and
//! `^(?:[a-z\d]{8,}$)` does. Each of those is lookaround-free and runs on
//! the fast paths or the linear engine: in time linear in the haystack,
//! with no backtracking budget to run out, and compiled for a fraction of
//! what `fancy-regex` builds (its delegates determinize a DFA each; that
//! pattern took 3.9 M instructions to compile).
//!
//! The shape split here: a concatenation of `^`, one or more lookaheads
//! (positive or negative), then anything, where no lookahead body nor the
//! rest holds a lookaround or a backreference. Every other pattern that
//! needs lookaround keeps the backtracking engine.

use super::ast::{Assertion, Ast, Node, NodeKind};

/// One pattern of a conjunction, and whether it must match.
#[derive(Debug)]
pub(super) struct Part {
    /// ECMA text of the part: `^(?:BODY)`.
    pub(super) pattern: String,
    /// `true` for a positive lookahead or the rest, `false` for a negative
    /// lookahead.
    pub(super) must_match: bool,
}

/// The parts of `pattern` (parsed as `ast`) if it has the shape above.
pub(super) fn split(pattern: &str, ast: &Ast) -> Option<Vec<Part>> {
    let NodeKind::Concat(nodes) = &ast.root.kind else { return None };
    let (first, rest) = nodes.split_first()?;
    if !matches!(first.kind, NodeKind::Assertion(Assertion::Start)) {
        return None;
    }
    let mut parts = Vec::new();
    for node in rest {
        let NodeKind::LookAround(look) = &node.kind else { break };
        if look.behind || needs_backtracking(&look.sub) {
            return None;
        }
        parts.push(Part { pattern: anchored(pattern, &look.sub, &look.sub)?, must_match: !look.negated });
    }
    let tail = rest.get(parts.len()..).unwrap_or_default();
    if parts.is_empty() || tail.iter().any(needs_backtracking) {
        return None;
    }
    let text = match (tail.first(), tail.last()) {
        (Some(start), Some(end)) => anchored(pattern, start, end)?,
        _ => "^".to_string(),
    };
    parts.push(Part { pattern: text, must_match: true });
    Some(parts)
}

/// `^(?:TEXT)` for the text of `pattern` from `start`'s first byte to
/// `end`'s last.
fn anchored(pattern: &str, start: &Node, end: &Node) -> Option<String> {
    let text = pattern.get(start.span.start..end.span.end)?;
    Some(format!("^(?:{text})"))
}

/// Whether `node` holds a lookaround or a backreference.
fn needs_backtracking(node: &Node) -> bool {
    node.any(|n| matches!(n.kind, NodeKind::LookAround(_) | NodeKind::Backref(_)))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::parse::{ParseLimits, parse};
    use super::super::tests::{haystack_strategy, pattern_strategy};
    use super::super::{Engine, Matcher, Regex, RegexLimits};
    use super::*;

    fn parts(pattern: &str) -> Option<Vec<(String, bool)>> {
        let ast = parse(pattern, ParseLimits::NONE).unwrap();
        split(pattern, &ast).map(|parts| parts.into_iter().map(|p| (p.pattern, p.must_match)).collect())
    }

    #[test]
    fn leading_lookaheads_split_into_anchored_parts() {
        assert_eq!(
            parts(r"^(?=.*[a-z])(?!.*\s)[a-z\d]{8,}$"),
            Some(vec![
                ("^(?:.*[a-z])".to_string(), true),
                (r"^(?:.*\s)".to_string(), false),
                (r"^(?:[a-z\d]{8,}$)".to_string(), true)
            ])
        );
        assert_eq!(
            parts(r"^(?!-)(?=a|b)"),
            Some(vec![("^(?:-)".to_string(), false), ("^(?:a|b)".to_string(), true), ("^".to_string(), true)])
        );
        // Not at the start, behind, nested, or with a backreference: no.
        for pattern in
            [r"a(?=b)", r"(?=a)b", r"^(?<=a)b", r"^(?=a(?=b))c", r"^(?=a)b(?!c)", r"^(?=(a))\1", r"^(?:(?=a))b"]
        {
            assert_eq!(parts(pattern), None, "{pattern}");
        }
    }

    /// A pattern with leading lookaheads runs as their conjunction on the
    /// linear engine.
    #[test]
    fn a_password_rule_runs_on_the_linear_engine() {
        let re = Regex::new(r"^(?=.*[a-z])(?=.*\d)(?!.*\s)[a-z\d]{8,}$", &RegexLimits::default()).unwrap();
        assert!(matches!(re.matcher, Matcher::Conjunction(_)));
        assert_eq!(re.engine(), Engine::Linear);
        for (haystack, expected) in
            [("abcd1234", true), ("abcdefgh", false), ("12345678", false), ("abc 1234", false), ("ab1", false)]
        {
            assert_eq!(re.is_match(haystack), Ok(expected), "{haystack}");
        }
        // Charged for each part, and holding each.
        assert!(re.cost(8) >= 9 * 3);
        assert!(re.memory_usage() > 0);
    }

    proptest! {
        #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(2000) })]

        /// The conjunction agrees with the backtracking engine, which runs
        /// the pattern as written.
        #[test]
        fn conjunctions_agree_with_the_backtracking_engine(
            first in pattern_strategy(),
            second in pattern_strategy(),
            rest in pattern_strategy(),
            negated in any::<(bool, bool)>(),
            haystacks in prop::collection::vec(haystack_strategy(), 8),
        ) {
            let sign = |negated: bool| if negated { "!" } else { "=" };
            let pattern = format!("^(?{}{first})(?{}{second}){rest}", sign(negated.0), sign(negated.1));
            let limits = RegexLimits::default();
            let Ok(re) = Regex::new(&pattern, &limits) else { return Err(TestCaseError::reject("does not compile")) };
            if !matches!(re.matcher, Matcher::Conjunction(_)) {
                return Err(TestCaseError::reject("not a conjunction"));
            }
            let backtracking = Regex::with_engine(&pattern, &limits, Engine::Backtracking).unwrap();
            for haystack in &haystacks {
                if let Ok(expected) = backtracking.is_match(haystack) {
                    prop_assert_eq!(re.is_match(haystack), Ok(expected), "{} on {:?}", pattern, haystack);
                }
            }
        }
    }
}
