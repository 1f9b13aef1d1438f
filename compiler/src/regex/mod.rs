//! ECMA-262 regular expressions for `pattern`, `patternProperties` and
//! `format: "regex"`.
//!
//! PLACEHOLDER: this interim version hands the pattern text to
//! `regex-automata` unchanged. It is replaced by the ECMA-262 parser and
//! lowering described in the module plan (issue 3) before release.

use std::fmt;

/// Limits applied while compiling and running one regular expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegexLimits {
    /// Longest accepted pattern, in bytes.
    pub max_pattern_len: usize,
    /// Deepest accepted group/alternation nesting.
    pub max_nesting: usize,
    /// Largest accepted product of nested counted repetitions.
    pub max_repetition_product: u64,
    /// Size limit of the linear engine's compiled NFA, in bytes.
    pub nfa_size_limit: usize,
    /// Capacity of the linear engine's lazy DFA cache, in bytes.
    pub cache_capacity: usize,
    /// Backtracking steps allowed per match in the backtracking engine.
    pub backtrack_limit: usize,
    /// Size limit of the backtracking engine's program, in bytes.
    pub backtrack_size_limit: usize,
}

impl Default for RegexLimits {
    fn default() -> Self {
        RegexLimits {
            max_pattern_len: 8 * 1024,
            max_nesting: 64,
            max_repetition_product: 10_000,
            nfa_size_limit: 1 << 20,
            cache_capacity: 1 << 20,
            backtrack_limit: 100_000,
            backtrack_size_limit: 1 << 20,
        }
    }
}

/// What went wrong compiling a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegexErrorKind {
    /// The pattern is not valid ECMA-262 syntax.
    Syntax,
    /// The pattern exceeds one of the [`RegexLimits`].
    Limit,
}

/// A pattern that could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegexError {
    kind: RegexErrorKind,
    offset: usize,
    message: String,
}

impl RegexError {
    /// The class of the failure.
    pub fn kind(&self) -> &RegexErrorKind {
        &self.kind
    }
    /// Byte offset in the pattern where the problem was found.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for RegexError {}

/// A match ran out of its step budget: the answer is unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchLimitExceeded;

/// A compiled ECMA-262 regular expression (unanchored search).
#[derive(Debug)]
pub struct Regex {
    pattern: Box<str>,
    inner: regex_automata::meta::Regex,
}

impl Regex {
    /// Compiles `pattern` under `limits`.
    pub fn new(pattern: &str, limits: &RegexLimits) -> Result<Regex, RegexError> {
        if pattern.len() > limits.max_pattern_len {
            return Err(RegexError {
                kind: RegexErrorKind::Limit,
                offset: limits.max_pattern_len,
                message: "pattern too long".into(),
            });
        }
        let inner = regex_automata::meta::Regex::new(pattern).map_err(|e| RegexError {
            kind: RegexErrorKind::Syntax,
            offset: 0,
            message: e.to_string(),
        })?;
        Ok(Regex { pattern: pattern.into(), inner })
    }

    /// Whether the pattern matches anywhere in `haystack`.
    pub fn is_match(&self, haystack: &str) -> Result<bool, MatchLimitExceeded> {
        Ok(self.inner.is_match(haystack))
    }

    /// Fuel to charge before matching a haystack of `haystack_len` bytes.
    pub fn cost(&self, haystack_len: usize) -> u64 {
        haystack_len as u64 + 1
    }

    /// Approximate heap memory held by the compiled pattern, in bytes.
    pub fn memory_usage(&self) -> usize {
        self.inner.memory_usage()
    }

    /// The source pattern.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }
}

/// Checks that `pattern` is valid ECMA-262 syntax (for `format: "regex"`).
pub fn check_syntax(pattern: &str) -> Result<(), RegexError> {
    Regex::new(pattern, &RegexLimits::default()).map(|_| ())
}
