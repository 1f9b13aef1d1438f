//! ECMA-262 regular expressions for `pattern`, `patternProperties` and
//! `format: "regex"`.
//!
//! JSON Schema patterns are ECMA-262 regular expressions in unicode mode
//! (the `u` flag), not Rust regex syntax. This module parses them itself and
//! runs them on one of three engines, chosen per pattern:
//!
//! 1. [`fast`]: patterns whose answer needs no automaton (a literal with
//!    anchors, one run of a character set, a greedy sequence of literals,
//!    runs and repeated groups of those after `^` such as
//!    `^[a-z]+(-[a-z]+)*$`, a pattern that always matches, or an
//!    alternation of at most [`fast::MAX_BRANCHES`] of these). A sequence
//!    or an alternation whose DFA is small is matched by that DFA's
//!    [`table`] instead: one lookup per byte beats a scan piece by piece
//!    or branch by branch.
//! 2. The linear engine, `regex-automata`'s meta regex, built from a `Hir`
//!    that [`lower`] constructs with ECMA semantics. It runs every pattern
//!    without lookaround or backreferences in time linear in the haystack.
//!    A pattern whose DFA fits in a few kilobytes (dates, times,
//!    identifiers) is matched by one walk of that DFA's [`table`] instead
//!    (the meta regex is then not built): the meta regex's per-search
//!    set-up costs more than the walk on the short strings such patterns
//!    check.
//!
//! The tables and the meta regexes are built on a pattern's first match,
//! not at compile time ([`lazy`]): they are most of a pattern's
//! compilation, and an instance reaches few of a schema's patterns.
//! Compilation parses, lowers and checks each pattern against the limits
//! (the NFA's size by a bound computed from the `Hir`, [`nfa_size`], or
//! by building it when the bound is over the limit).
//! 3. The backtracking engine, `fancy-regex`, only for patterns that keep
//!    lookaround or backreferences. It is fed syntax generated from the tree
//!    and runs under a step budget: when the budget runs out, [`Regex::is_match`]
//!    returns [`MatchLimitExceeded`] and the answer is unknown. A pattern
//!    whose only lookarounds are lookaheads right after its leading `^`
//!    (`^(?=.*\d)(?!.*\s).{8,}$`) runs instead as a [`conjunction`] of
//!    lookaround-free patterns on the two engines above.
//!
//! Layers: [`parse`] (text to [`ast`], iterative), [`property`] (the ECMA
//! list of Unicode property names), [`lower`] (tree to `Hir` or fancy-regex
//! syntax), [`fast`] (fast paths), [`table`] (small DFAs as tables),
//! [`nfa_size`] (the NFA size bound), [`lazy`] (matchers built on first
//! match), [`conjunction`] (leading lookaheads split into patterns), and
//! this module tying them together.
//!
//! # Limits
//!
//! Every pattern comes from an untrusted schema, so compilation is bounded
//! by [`RegexLimits`]: the pattern length, the group nesting depth (which
//! also bounds the recursion depth of lowering and of the engines'
//! compilers), the product of nested counted repetitions (`(a{0,50}){0,50}`
//! counts 2,500; this bounds how far counted repetitions expand), and the
//! size of the compiled programs. Matching is bounded by construction on the
//! fast and linear engines and by the step budget on the backtracking one.
//!
//! # Cost and memory model
//!
//! [`Regex::cost`] is the fuel the VM charges before a match. The unit is
//! one "position step": examining one haystack position with one element of
//! the program. The program size `m` is the number of tree nodes after
//! expanding counted repetitions (`a{3}` counts 4: three copies and the
//! repetition), capped by the repetition-product limit, and is proportional
//! to the NFA the linear engine builds.
//! * fast paths: `n + 1` for a haystack of `n` bytes (one scan; a sequence
//!   with repeated groups is still one forward pass, see
//!   [`fast::Sequence`]), times the number of branches `b` for an
//!   alternation of fast paths, `(n + 1) * b` with `b <= 16`
//!   ([`fast::MAX_BRANCHES`]): the program size `m` of a fast path is its
//!   number of scans; a fast path that has a table is charged the same
//!   (the table, one lookup per byte, is built on its first match and may
//!   not fit);
//! * linear engine: `(n + 1) * m`, the worst case of the PikeVM the meta
//!   regex falls back to when its lazy DFA cache thrashes (the lazy DFA
//!   itself usually needs about `n` steps);
//! * backtracking engine: `(n + 1) * m + backtrack_limit`, the scans of its
//!   delegated linear sub-programs plus the backtracking step budget;
//! * a conjunction: the sum of its parts' costs.
//!
//! A match that builds a pattern's table or meta regex (its first, see
//! [`lazy`]) asks its caller first ([`Regex::is_match_with`]): the VM
//! charges [`BUILD_FUEL`] for it, and may stop there.
//!
//! [`Regex::memory_usage`] is the heap the compiled pattern holds at rest
//! once it has matched: the pattern text and the fast path's tables
//! (counted exactly), and what the first match builds (counted before it
//! is built, by an estimate above it: a table's byte budget, or the meta
//! regex's programs with one freshly created match cache, from the NFA's
//! size or its bound; see [`lazy`]). Each thread that matches on the meta
//! regex holds such a cache, whose lazy DFA part can grow up to
//! [`RegexLimits::cache_capacity`]. `fancy-regex` does not report
//! its memory, so for the backtracking engine it is an upper-bound
//! estimate from the generated syntax length and the program size,
//! calibrated once with a counting allocator on sample patterns (the
//! estimate was 1 to 16 times the measured heap).

mod ast;
mod conjunction;
mod fast;
mod lazy;
mod lower;
mod nfa_size;
mod parse;
mod property;
#[cfg(test)]
mod suite_tests;
mod table;
#[cfg(test)]
mod tests;

use std::fmt;

use regex_automata::nfa::thompson;

use self::ast::Node;
use self::fast::{FastPath, Shortcut};
pub use self::lazy::BUILD_FUEL;
use self::lazy::Lazy;
use self::parse::ParseLimits;

/// Limits applied while compiling and running one regular expression.
///
/// The defaults accept every real-world pattern we know of while keeping
/// the compile time of the largest accepted pattern in the low milliseconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegexLimits {
    /// Longest accepted pattern, in bytes.
    pub max_pattern_len: usize,
    /// Deepest accepted group nesting (`((a))` is 2). Values above
    /// [`MAX_NESTING_CEILING`] are treated as that ceiling, because the
    /// nesting depth bounds the recursion depth of compilation.
    pub max_nesting: usize,
    /// Largest accepted product of nested counted repetitions along one
    /// path of the pattern (`(a{0,50}){0,50}` is 2,500; `*`, `+` and `?`
    /// count 1, `{n,}` counts `n`).
    pub max_repetition_product: u64,
    /// Size limit of the linear engine's compiled NFA, in bytes.
    pub nfa_size_limit: usize,
    /// Capacity of the lazy DFA cache of each linear program (also of each
    /// sub-program the backtracking engine delegates), in bytes.
    pub cache_capacity: usize,
    /// Backtracking steps allowed per match in the backtracking engine.
    pub backtrack_limit: usize,
    /// Size limit of the backtracking engine's program, in bytes: bounds the
    /// generated syntax, the VM program and each delegated sub-program.
    pub backtrack_size_limit: usize,
}

/// The largest nesting depth [`RegexLimits::max_nesting`] can allow.
pub const MAX_NESTING_CEILING: usize = 256;

impl Default for RegexLimits {
    fn default() -> Self {
        RegexLimits {
            max_pattern_len: 16 * 1024,
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
#[non_exhaustive]
pub enum RegexErrorKind {
    /// The pattern is not valid ECMA-262 unicode-mode syntax.
    Syntax,
    /// The pattern is longer than [`RegexLimits::max_pattern_len`].
    PatternTooLong {
        /// The limit, in bytes.
        limit: usize,
        /// The pattern's length, in bytes.
        actual: usize,
    },
    /// Groups nest deeper than [`RegexLimits::max_nesting`].
    NestingTooDeep {
        /// The limit.
        limit: usize,
        /// The depth reached where the error is reported.
        actual: usize,
    },
    /// Nested counted repetitions multiply past
    /// [`RegexLimits::max_repetition_product`].
    RepetitionProductTooLarge {
        /// The limit.
        limit: u64,
        /// The product reached where the error is reported (saturating).
        actual: u64,
    },
    /// A compiled program exceeds its size limit
    /// ([`RegexLimits::nfa_size_limit`] or
    /// [`RegexLimits::backtrack_size_limit`]).
    ProgramTooBig {
        /// The limit that was exceeded, in bytes.
        limit: usize,
    },
    /// The pattern is valid ECMA-262 but this implementation cannot run it
    /// (a Unicode property missing from the tables, a construct the
    /// backtracking engine rejects, or an engine forced with
    /// [`Regex::with_engine`] that cannot run the pattern).
    Unsupported,
}

/// A pattern that could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegexError {
    kind: RegexErrorKind,
    offset: usize,
    message: String,
}

impl RegexError {
    fn new(kind: RegexErrorKind, offset: usize, message: String) -> RegexError {
        RegexError { kind, offset, message }
    }

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
        let what = match self.kind {
            RegexErrorKind::Syntax => "invalid regular expression",
            RegexErrorKind::Unsupported => "unsupported regular expression",
            _ => "regular expression exceeds a limit",
        };
        write!(f, "{what}: {} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for RegexError {}

/// A match ran out of its step budget: the answer is unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchLimitExceeded;

impl fmt::Display for MatchLimitExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("regular expression match exceeded its backtracking budget")
    }
}

impl std::error::Error for MatchLimitExceeded {}

/// The engine a [`Regex`] runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// A fast path: a pattern that needs no automaton, or one matched by
    /// its small DFA's table (see the module docs).
    Fast,
    /// The linear-time engine (`regex-automata`).
    Linear,
    /// The budgeted backtracking engine (`fancy-regex`).
    Backtracking,
}

/// A compiled ECMA-262 regular expression (unanchored search).
#[derive(Debug)]
pub struct Regex {
    pattern: Box<str>,
    /// A test tried inline before `matcher` (see [`fast::Shortcut`]).
    shortcut: Shortcut,
    matcher: Matcher,
    /// Program size `m` of the cost model.
    program_size: u64,
    /// Fixed part of the cost (the backtracking budget, or 0).
    fixed_cost: u64,
    /// Heap bytes held, computed once.
    memory_usage: usize,
}

#[derive(Debug)]
enum Matcher {
    Fast(FastPath),
    /// A pattern whose matcher its first match builds (see [`lazy`]): a
    /// fast path with pieces ([`FastPath::has_pieces`]), matched by its
    /// DFA's table if it fits, else the fast path; or a pattern of the
    /// linear engine, matched by its table if it fits, else its meta
    /// regex. A linear pattern with `\B` is searched leftmost-first rather
    /// than by `is_match`, and tries no table: an earliest-match search
    /// can stop at an empty `\B` match inside a multi-byte character,
    /// which UTF-8 mode then discards while skipping past a real match
    /// that started before it (`(?:\B|é)` on `"aéa"`).
    Lazy(Box<Lazy>),
    /// Lookaheads at the start and the rest, each a pattern of its own
    /// that must match or must not ([`conjunction`]).
    Conjunction(Box<[(Regex, bool)]>),
    /// The backtracking engine, boxed: its regex is the largest variant
    /// by far, and patterns that need it are rare.
    Backtracking(Box<fancy_regex::Regex>),
}

/// Estimated heap bytes `fancy-regex` holds per byte of generated syntax
/// (see [`Regex::memory_usage`]).
const BACKTRACK_BYTES_PER_SYNTAX_BYTE: usize = 800;

/// Estimated heap bytes `fancy-regex` holds per unit of program size (its
/// delegated sub-programs expand counted repetitions).
const BACKTRACK_BYTES_PER_PROGRAM_UNIT: usize = 100;

/// Estimated bytes of one `fancy-regex` VM instruction, to turn
/// [`RegexLimits::backtrack_size_limit`] into an instruction count.
const BACKTRACK_INSTRUCTION_BYTES: usize = 32;

/// Compiles several patterns, keeping scratch space from one to the next:
/// the NFA compiler of the linear engine's size checks (made only for a
/// pattern whose [`nfa_size`] bound is over the limit), whose table of
/// compiled UTF-8 suffixes (10,000 entries, made when a pattern first has a class beyond
/// ASCII, such as `.` or `\S`) then costs its making and dropping once,
/// not once per pattern (about 120 k instructions each time). Holds no
/// compiled pattern: each [`Regex`] is built from its own text alone.
#[derive(Debug, Default)]
pub struct RegexCompiler {
    nfa: Option<thompson::Compiler>,
}

impl RegexCompiler {
    /// A compiler with no scratch space yet.
    pub fn new() -> RegexCompiler {
        RegexCompiler::default()
    }

    /// The NFA compiler, made on first use.
    fn nfa(&mut self) -> &mut thompson::Compiler {
        self.nfa.get_or_insert_with(thompson::Compiler::new)
    }

    /// [`Regex::new`], reusing this compiler's scratch space.
    pub fn compile(&mut self, pattern: &str, limits: &RegexLimits) -> Result<Regex, RegexError> {
        Regex::build(pattern, limits, None, self)
    }
}

impl Regex {
    /// Compiles `pattern` under `limits`, choosing the engine.
    pub fn new(pattern: &str, limits: &RegexLimits) -> Result<Regex, RegexError> {
        Regex::build(pattern, limits, None, &mut RegexCompiler::new())
    }

    /// Compiles `pattern` for a given engine, failing with
    /// [`RegexErrorKind::Unsupported`] if that engine cannot run it. Used to
    /// compare engines against each other.
    pub fn with_engine(pattern: &str, limits: &RegexLimits, engine: Engine) -> Result<Regex, RegexError> {
        Regex::build(pattern, limits, Some(engine), &mut RegexCompiler::new())
    }

    fn build(
        pattern: &str,
        limits: &RegexLimits,
        engine: Option<Engine>,
        compiler: &mut RegexCompiler,
    ) -> Result<Regex, RegexError> {
        if pattern.len() > limits.max_pattern_len {
            return Err(RegexError::new(
                RegexErrorKind::PatternTooLong { limit: limits.max_pattern_len, actual: pattern.len() },
                limits.max_pattern_len,
                format!("the pattern is {} bytes long, over the limit of {}", pattern.len(), limits.max_pattern_len),
            ));
        }
        let ast = parse::parse(pattern, parse_limits(limits))?;
        let unsupported = |why: &str| RegexError::new(RegexErrorKind::Unsupported, 0, why.into());
        let needs_backtracking = ast.root.needs_backtracking();
        let engine = match engine {
            Some(engine) => engine,
            None if needs_backtracking => {
                let parts = conjunction::split(pattern, &ast);
                if let Some(matcher) = parts.and_then(|parts| Regex::conjunction(&parts, limits, compiler)) {
                    return Ok(Regex::assemble(pattern, &ast, matcher, limits));
                }
                Engine::Backtracking
            }
            None => match FastPath::detect(&ast)? {
                Some(fast) => {
                    let matcher = match fast.has_pieces() {
                        true => Matcher::Lazy(Box::new(Lazy::fast_path(&fast, limits))),
                        false => Matcher::Fast(fast),
                    };
                    return Ok(Regex::assemble(pattern, &ast, matcher, limits));
                }
                None => Engine::Linear,
            },
        };
        let matcher = match engine {
            Engine::Fast => Matcher::Fast(
                FastPath::detect(&ast)?.ok_or_else(|| unsupported("no fast path applies to this pattern"))?,
            ),
            Engine::Linear if needs_backtracking => {
                return Err(unsupported("lookaround and backreferences need the backtracking engine"));
            }
            Engine::Linear => {
                let leftmost = ast.root.has_not_word_boundary();
                let hir = lower::to_hir(&ast)?;
                Matcher::Lazy(Box::new(Lazy::linear(&hir, leftmost, limits, compiler)?))
            }
            Engine::Backtracking => Matcher::Backtracking(Box::new(build_backtracking(&ast, limits)?)),
        };
        Ok(Regex::assemble(pattern, &ast, matcher, limits))
    }

    /// The conjunction of `parts`, if each compiles (without lookaround,
    /// on the fast paths or the linear engine).
    fn conjunction(parts: &[conjunction::Part], limits: &RegexLimits, compiler: &mut RegexCompiler) -> Option<Matcher> {
        let compiled = parts.iter().map(|part| {
            let re = Regex::build(&part.pattern, limits, None, compiler).ok()?;
            (re.engine() != Engine::Backtracking).then_some((re, part.must_match))
        });
        compiled.collect::<Option<Box<[_]>>>().map(Matcher::Conjunction)
    }

    fn assemble(pattern: &str, ast: &ast::Ast, matcher: Matcher, limits: &RegexLimits) -> Regex {
        let (program_size, fixed_cost, matcher_memory) = match &matcher {
            Matcher::Fast(fast) => (fast.scans(), 0, fast.memory_usage()),
            // A fast path with a table is charged as the fast path (the
            // table, one lookup per byte, is built on the first match and
            // may not fit); a linear pattern keeps the linear engine's
            // bound.
            Matcher::Lazy(lazy) => (lazy.scans().unwrap_or_else(|| program_size(&ast.root)), 0, lazy.memory_bound()),
            Matcher::Conjunction(parts) => parts.iter().fold((0u64, 0u64, 0usize), |(size, fixed, memory), (re, _)| {
                (
                    size.saturating_add(re.program_size),
                    fixed.saturating_add(re.fixed_cost),
                    memory.saturating_add(re.memory_usage),
                )
            }),
            Matcher::Backtracking(re) => (
                program_size(&ast.root),
                u64::try_from(limits.backtrack_limit).unwrap_or(u64::MAX),
                backtracking_memory_estimate(re.as_str().len(), program_size(&ast.root))
                    .saturating_add(std::mem::size_of::<fancy_regex::Regex>()),
            ),
        };
        let shortcut = match &matcher {
            Matcher::Fast(fast) => fast.shortcut(),
            _ => Shortcut::None,
        };
        Regex {
            pattern: pattern.into(),
            shortcut,
            matcher,
            program_size,
            fixed_cost,
            memory_usage: matcher_memory.saturating_add(pattern.len()),
        }
    }

    /// Whether the pattern matches anywhere in `haystack` (ECMA semantics).
    ///
    /// Fails only on the backtracking engine, when the match exceeds
    /// [`RegexLimits::backtrack_limit`]: then the answer is unknown.
    ///
    /// The [`Shortcut`] is inlined into the caller; the engines are one
    /// call away. (With the engines' dispatch inlined too, `is_match` was
    /// a call of its own whose frame every match paid, about 20 of the 28
    /// instructions a match decided by the shortcut took.)
    #[inline(always)]
    pub fn is_match(&self, haystack: &str) -> Result<bool, MatchLimitExceeded> {
        self.is_match_with(haystack, || true)
    }

    /// [`Regex::is_match`], asking `may_build` first if this match has to
    /// build the pattern's table or meta regex (its first match does, see
    /// the module docs): if it answers `false`, nothing is built and the
    /// match fails with [`MatchLimitExceeded`]. (The VM charges
    /// [`BUILD_FUEL`] there, so that a deadline or a budget can stop a
    /// document that reaches many patterns between two builds.)
    #[inline(always)]
    pub fn is_match_with(&self, haystack: &str, may_build: impl FnMut() -> bool) -> Result<bool, MatchLimitExceeded> {
        if let Some(answer) = self.shortcut.decide(haystack.as_bytes()) {
            return Ok(answer);
        }
        self.run_matcher(haystack, may_build)
    }

    /// [`Regex::is_match_with`] on the engine, past the shortcut.
    #[inline(never)]
    fn run_matcher(&self, haystack: &str, mut may_build: impl FnMut() -> bool) -> Result<bool, MatchLimitExceeded> {
        match &self.matcher {
            Matcher::Fast(fast) => Ok(fast.is_match(haystack)),
            Matcher::Lazy(lazy) => lazy.is_match(&self.pattern, haystack, may_build),
            Matcher::Conjunction(parts) => {
                for (re, must_match) in parts {
                    if re.part_matches(haystack, &mut may_build)? != *must_match {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Matcher::Backtracking(re) => re.is_match(haystack).map_err(|_| MatchLimitExceeded),
        }
    }

    /// [`Regex::is_match_with`] for a part of a conjunction (one type of
    /// `may_build` for all, where a generic one would nest without end).
    fn part_matches(&self, haystack: &str, may_build: &mut dyn FnMut() -> bool) -> Result<bool, MatchLimitExceeded> {
        self.is_match_with(haystack, may_build)
    }

    /// Fuel to charge before matching a haystack of `haystack_len` bytes
    /// (see the module docs for the model).
    #[inline]
    pub fn cost(&self, haystack_len: usize) -> u64 {
        let positions = u64::try_from(haystack_len).unwrap_or(u64::MAX).saturating_add(1);
        positions.saturating_mul(self.program_size).saturating_add(self.fixed_cost)
    }

    /// Heap bytes the compiled pattern holds once it has matched, at most
    /// (see the module docs).
    pub fn memory_usage(&self) -> usize {
        self.memory_usage
    }

    /// The source pattern.
    #[inline]
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// The engine this pattern runs on.
    pub fn engine(&self) -> Engine {
        match &self.matcher {
            Matcher::Fast(_) => Engine::Fast,
            Matcher::Lazy(lazy) => lazy.engine(),
            Matcher::Conjunction(_) => Engine::Linear,
            Matcher::Backtracking(_) => Engine::Backtracking,
        }
    }
}

#[cfg(test)]
impl Regex {
    /// Whether a DFA's table matches this pattern, built by a first match
    /// if it was not yet.
    fn has_table(&self) -> bool {
        let _ = self.is_match("");
        match &self.matcher {
            Matcher::Lazy(lazy) => lazy.table_built() == Some(true),
            _ => false,
        }
    }
}

/// Checks that `pattern` is valid ECMA-262 unicode-mode syntax (for
/// `format: "regex"`). No limits apply: parsing is iterative and linear in
/// the pattern length, and builds no syntax tree.
pub fn check_syntax(pattern: &str) -> Result<(), RegexError> {
    parse::check(pattern)
}

/// Heap bytes a `fancy-regex` program is estimated to hold. Calibrated with
/// a counting allocator on sample patterns, whose real use (2.4 KB to
/// 0.8 MB) this estimate exceeds by a factor of 1 to 16.
fn backtracking_memory_estimate(syntax_len: usize, program_size: u64) -> usize {
    let by_program = usize::try_from(program_size).unwrap_or(usize::MAX);
    syntax_len
        .saturating_mul(BACKTRACK_BYTES_PER_SYNTAX_BYTE)
        .max(by_program.saturating_mul(BACKTRACK_BYTES_PER_PROGRAM_UNIT))
}

/// The program size `m` of the cost model: tree nodes with counted
/// repetitions expanded, saturating.
fn program_size(node: &Node) -> u64 {
    let children: u64 = node.children().iter().map(program_size).fold(0, u64::saturating_add);
    let copies = match &node.kind {
        ast::NodeKind::Repeat(repeat) => u64::from(repeat.max.unwrap_or(repeat.min).max(1)),
        _ => 1,
    };
    children.saturating_mul(copies).saturating_add(1)
}

/// The parse limits of `limits`.
fn parse_limits(limits: &RegexLimits) -> ParseLimits {
    ParseLimits {
        max_nesting: limits.max_nesting.min(MAX_NESTING_CEILING),
        max_repetition_product: limits.max_repetition_product,
    }
}

fn build_backtracking(ast: &ast::Ast, limits: &RegexLimits) -> Result<fancy_regex::Regex, RegexError> {
    let syntax = lower::to_backtracking_syntax(ast, limits.backtrack_size_limit)?;
    fancy_regex::RegexBuilder::new(&syntax)
        .backtrack_limit(limits.backtrack_limit)
        .delegate_size_limit(limits.backtrack_size_limit)
        .delegate_dfa_size_limit(limits.cache_capacity)
        .delegate_dfa_skip_cache_capacity_check(false)
        .max_prog_size(limits.backtrack_size_limit / BACKTRACK_INSTRUCTION_BYTES)
        .build()
        .map_err(|e| match e {
            fancy_regex::Error::CompileError(inner) => match *inner {
                fancy_regex::CompileError::InnerError(inner) if inner.size_limit().is_some() => {
                    program_too_big(limits.backtrack_size_limit)
                }
                fancy_regex::CompileError::PatternTooComplex | fancy_regex::CompileError::DfaBuildError(..) => {
                    program_too_big(limits.backtrack_size_limit)
                }
                other => RegexError::new(
                    RegexErrorKind::Unsupported,
                    0,
                    format!("the backtracking engine rejected the pattern: {other}"),
                ),
            },
            other => {
                RegexError::new(RegexErrorKind::Unsupported, 0, format!("the backtracking engine failed: {other}"))
            }
        })
}

fn program_too_big(limit: usize) -> RegexError {
    RegexError::new(
        RegexErrorKind::ProgramTooBig { limit },
        0,
        format!("the compiled program exceeds the size limit of {limit} bytes"),
    )
}
