//! Automata built on a pattern's first match.
//!
//! Compiling a pattern checks it: it is parsed and lowered within the
//! limits, and a pattern for the linear engine is held to
//! [`RegexLimits::nfa_size_limit`] by a bound on its NFA's size
//! ([`nfa_size`](super::nfa_size)). What then matches it is built when
//! it first matches: its DFA's [`table`](super::table) if that fits,
//! else `regex-automata`'s meta regex (or, for a fast path, the fast path
//! again). That is most of a pattern's compilation (a cron pattern whose
//! DFA does not fit took 0.9 M instructions to find so, then 0.6 M for
//! its meta regex; `^\S+@\S+\.\S+$`'s table 0.4 M after a 0.2 M NFA), and
//! an instance reaches few of a schema's patterns: one never matched
//! costs only its check. A pattern whose bound is over [`LAZY_BOUND`]
//! has its NFA built to check it, and its matcher with it, at compile
//! time.
//!
//! Invariants:
//! - A pattern's matcher is built at most once: concurrent first matches
//!   wait for one build (a `OnceLock`), later ones read it.
//! - The build is bounded like compilation: the table by its work bound,
//!   the meta regex by the NFA bound checked at compile time. It parses
//!   and lowers the pattern again (a few thousand instructions), which
//!   succeeds as it did then.
//! - The build does not fail a checked pattern: the meta regex gets four
//!   times the NFA size limit (its NFAs hold capture states and include a
//!   reverse NFA, which the bound does not count). Should a build still
//!   fail, each match of the pattern reports [`MatchLimitExceeded`] (the
//!   answer unknown, as when a backtracking budget runs out): never a
//!   wrong answer, never a panic.

use std::sync::OnceLock;

use regex_automata::meta;
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_syntax::hir::Hir;

use super::fast::FastPath;
use super::nfa_size::nfa_bytes_bound;
use super::parse;
use super::table::TableDfa;
use super::{
    Engine, MatchLimitExceeded, RegexCompiler, RegexError, RegexErrorKind, RegexLimits, lower, program_too_big,
};

/// Heap bytes a determinized pattern's table may take.
pub(super) const SMALL_DFA_BYTES: usize = 16 << 10;

/// Estimated heap bytes a meta regex and one fresh match cache hold per
/// byte of [`nfa_bytes_bound`], for [`Lazy::memory_bound`]: on the
/// tests' patterns, the meta regex and its cache held 3.1 to 5.6 times
/// the NFA's bytes, and the bound counted 3 to 14 times them.
const META_BYTES_PER_BOUND_BYTE: usize = 2;

/// The largest [`nfa_bytes_bound`] of a pattern whose matcher waits for
/// its first match. A larger pattern (a wide Unicode class repeated:
/// `\p{L}[\p{L}\p{N}]{3}` took 1.6 ms to build its meta regex) has its NFA
/// built at compile time to check its size, and its matcher with it: a
/// first match then never pays more than a small pattern's build (at
/// most a few hundred microseconds: the 388 distinct patterns of the
/// benchmark schemas and corpus took 1.5 ms in all, 173 µs the most).
const LAZY_BOUND: usize = 64 << 10;

/// Fuel the VM charges for a match that builds its pattern's matcher (see
/// [`Regex::is_match_with`](super::Regex::is_match_with)): a build takes
/// tens to hundreds of microseconds (about 60 µs each for 2,000 patterns
/// like `^\S+@\S+\.c7$`), the time the VM takes for tens of thousands of
/// units, and a charge above the deadline's chunk reads the clock. So a
/// document that reaches many unbuilt patterns spends fuel for them, and
/// a deadline stops it between two builds.
pub const BUILD_FUEL: u64 = 1 << 15;

/// The pattern's NFA without capture states, within the NFA size limit,
/// built by `compiler` (one kept for many patterns, or a fresh one).
pub(super) fn build_nfa(
    compiler: &mut thompson::Compiler,
    hir: &Hir,
    limits: &RegexLimits,
) -> Result<thompson::NFA, RegexError> {
    compiler
        .configure(
            thompson::Config::new().which_captures(WhichCaptures::None).nfa_size_limit(Some(limits.nfa_size_limit)),
        )
        .build_from_hir(hir)
        .map_err(|e| rejected(e.size_limit(), &e))
}

/// The error of a linear engine's build that failed: over the size limit
/// `size_limit` if it says so.
fn rejected(size_limit: Option<usize>, error: &dyn std::fmt::Display) -> RegexError {
    match size_limit {
        Some(limit) => program_too_big(limit),
        None => {
            RegexError::new(RegexErrorKind::Unsupported, 0, format!("the linear engine rejected the pattern: {error}"))
        }
    }
}

/// The meta regex of `hir` under `limits` (the linear engine's matcher
/// when no table answers).
pub(super) fn build_meta(hir: &Hir, limits: &RegexLimits) -> Result<meta::Regex, RegexError> {
    let config = meta::Config::new()
        .which_captures(WhichCaptures::Implicit)
        .nfa_size_limit(Some(limits.nfa_size_limit))
        .onepass_size_limit(Some(limits.nfa_size_limit))
        .dfa(false)
        .hybrid_cache_capacity(limits.cache_capacity);
    meta::Builder::new().configure(config).build_from_hir(hir).map_err(|e| rejected(e.size_limit(), &e))
}

/// `pattern` parsed and lowered (for tests: a build parses it itself, as
/// it was parsed when compiled).
#[cfg(test)]
fn lowered(pattern: &str, limits: &RegexLimits) -> Option<Hir> {
    let ast = parse::parse(pattern, super::parse_limits(limits)).ok()?;
    lower::to_hir(&ast).ok()
}

/// The table of `pattern`'s DFA, if it fits ([`TableDfa::determinize`]).
#[cfg(test)]
pub(super) fn table_of(pattern: &str, limits: &RegexLimits) -> Option<Box<TableDfa>> {
    table_of_hir(&lowered(pattern, limits)?, limits)
}

/// The table of a lowered pattern's DFA, if it fits ([`TableDfa::determinize`]).
fn table_of_hir(hir: &Hir, limits: &RegexLimits) -> Option<Box<TableDfa>> {
    let nfa = build_nfa(&mut thompson::Compiler::new(), hir, limits).ok()?;
    TableDfa::determinize(&nfa, SMALL_DFA_BYTES).map(Box::new)
}

/// What `cell` holds, built by `build` if it holds nothing yet and
/// `may_build` allows it (else `MatchLimitExceeded`, nothing built).
#[inline(always)]
fn built<T>(
    cell: &OnceLock<T>,
    mut may_build: impl FnMut() -> bool,
    build: impl FnOnce() -> T,
) -> Result<&T, MatchLimitExceeded> {
    match cell.get() {
        Some(built) => Ok(built),
        None if may_build() => Ok(cell.get_or_init(build)),
        None => Err(MatchLimitExceeded),
    }
}

/// A pattern whose matcher its first match builds: a fast path with
/// pieces ([`FastPath::has_pieces`]), matched by its DFA's table or, if
/// that does not fit, by the fast path again (the one found at compile
/// time is not kept); or a pattern of the linear engine, matched by its
/// table or its meta regex.
#[derive(Debug)]
pub(super) struct Lazy {
    kind: Kind,
    limits: RegexLimits,
    /// [`Lazy::memory_bound`].
    memory_bound: usize,
    built: OnceLock<Built>,
}

/// Which engine a [`Lazy`] pattern is on.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// A fast path with pieces, of `scans` scans ([`FastPath::scans`]):
    /// its cost per byte, charged for the table too, which may not fit.
    FastPath { scans: u64 },
    /// The linear engine. With `leftmost`, matches are found by a
    /// leftmost-first search (see `Matcher::Lazy`), and no table is tried.
    Linear { leftmost: bool },
}

/// What a [`Lazy`] pattern matches with, once built.
#[derive(Debug)]
enum Built {
    Table(Box<TableDfa>),
    Fast(FastPath),
    Meta(meta::Regex),
    /// No matcher could be built (see the module docs).
    Failed,
}

impl Lazy {
    /// The pattern whose fast path is `fast`, its matcher not built yet.
    pub(super) fn fast_path(fast: &FastPath, limits: &RegexLimits) -> Lazy {
        let table = SMALL_DFA_BYTES + std::mem::size_of::<TableDfa>();
        Lazy {
            kind: Kind::FastPath { scans: fast.scans() },
            limits: limits.clone(),
            memory_bound: table.max(fast.memory_usage()),
            built: OnceLock::new(),
        }
    }

    /// A pattern of the linear engine lowered to `hir`, checked against
    /// the NFA size limit: by [`nfa_bytes_bound`] if that is at most
    /// [`LAZY_BOUND`] (its matcher then built on first match), else by
    /// building its NFA with `compiler` and its matcher with it.
    pub(super) fn linear(
        hir: &Hir,
        leftmost: bool,
        limits: &RegexLimits,
        compiler: &mut RegexCompiler,
    ) -> Result<Lazy, RegexError> {
        let kind = Kind::Linear { leftmost };
        let bound = usize::try_from(nfa_bytes_bound(hir)).unwrap_or(usize::MAX);
        if bound <= LAZY_BOUND.min(limits.nfa_size_limit) {
            // What the first match builds: the larger of a table and the
            // meta regex with its cache (estimated).
            let table = if leftmost { 0 } else { SMALL_DFA_BYTES + std::mem::size_of::<TableDfa>() };
            let memory_bound = table.max(bound.saturating_mul(META_BYTES_PER_BOUND_BYTE));
            return Ok(Lazy { kind, limits: limits.clone(), memory_bound, built: OnceLock::new() });
        }
        // A leftmost search tries no table: its meta regex checks its size.
        let nfa = if leftmost { None } else { Some(build_nfa(compiler.nfa(), hir, limits)?) };
        let built = match nfa.and_then(|nfa| TableDfa::determinize(&nfa, SMALL_DFA_BYTES)) {
            Some(table) => Built::Table(Box::new(table)),
            None => Built::Meta(build_meta(hir, limits)?),
        };
        let memory_bound = built.memory_usage();
        Ok(Lazy { kind, limits: limits.clone(), memory_bound, built: OnceLock::from(built) })
    }

    /// Whether `pattern` (this pattern) matches in `haystack`, asking
    /// `may_build` before building the matcher (see
    /// [`Regex::is_match_with`](super::Regex::is_match_with)).
    #[inline]
    pub(super) fn is_match(
        &self,
        pattern: &str,
        haystack: &str,
        may_build: impl FnMut() -> bool,
    ) -> Result<bool, MatchLimitExceeded> {
        match built(&self.built, may_build, || self.build(pattern))? {
            Built::Table(table) => Ok(table.is_match(haystack.as_bytes())),
            Built::Fast(fast) => Ok(fast.is_match(haystack)),
            Built::Meta(re) if matches!(self.kind, Kind::Linear { leftmost: true }) => Ok(re.find(haystack).is_some()),
            Built::Meta(re) => Ok(re.is_match(haystack)),
            Built::Failed => Err(MatchLimitExceeded),
        }
    }

    /// The table if it fits (and the search is not leftmost), else the
    /// fast path again or the meta regex (under four times the NFA size
    /// limit).
    fn build(&self, pattern: &str) -> Built {
        let Ok(ast) = parse::parse(pattern, super::parse_limits(&self.limits)) else { return Built::Failed };
        match self.kind {
            Kind::FastPath { .. } => {
                let table = lower::to_hir(&ast).ok().and_then(|hir| table_of_hir(&hir, &self.limits));
                match (table, FastPath::detect(&ast)) {
                    (Some(table), _) => Built::Table(table),
                    (None, Ok(Some(fast))) => Built::Fast(fast),
                    (None, _) => Built::Failed,
                }
            }
            Kind::Linear { leftmost } => {
                let Ok(hir) = lower::to_hir(&ast) else { return Built::Failed };
                let limits =
                    RegexLimits { nfa_size_limit: self.limits.nfa_size_limit.saturating_mul(4), ..self.limits.clone() };
                if !leftmost && let Some(table) = table_of_hir(&hir, &limits) {
                    return Built::Table(table);
                }
                build_meta(&hir, &limits).map_or(Built::Failed, Built::Meta)
            }
        }
    }

    /// The engine the pattern is on.
    pub(super) fn engine(&self) -> Engine {
        match self.kind {
            Kind::FastPath { .. } => Engine::Fast,
            Kind::Linear { .. } => Engine::Linear,
        }
    }

    /// The fast path's scans, charged per byte whichever matches; `None`
    /// on the linear engine.
    pub(super) fn scans(&self) -> Option<u64> {
        match self.kind {
            Kind::FastPath { scans } => Some(scans),
            Kind::Linear { .. } => None,
        }
    }

    /// Whether the matcher is built, and is a table (for tests).
    #[cfg(test)]
    pub(super) fn table_built(&self) -> Option<bool> {
        self.built.get().map(|b| matches!(b, Built::Table(_)))
    }

    /// Heap bytes held at most: what was built, or the larger of a table
    /// and an estimate of the meta regex with one match cache (or the fast
    /// path).
    pub(super) fn memory_bound(&self) -> usize {
        self.memory_bound
    }

    /// Heap bytes held now: what is built.
    #[cfg(test)]
    pub(super) fn memory_now(&self) -> usize {
        self.built.get().map_or(0, Built::memory_usage)
    }
}

impl Built {
    /// Heap bytes held: the table, the fast path, or the meta regex with
    /// one fresh match cache.
    fn memory_usage(&self) -> usize {
        match self {
            Built::Table(table) => table.memory_usage(),
            Built::Fast(fast) => fast.memory_usage(),
            Built::Meta(re) => re.memory_usage().saturating_add(re.create_cache().memory_usage()),
            Built::Failed => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Regex;
    use super::super::parse::ParseLimits;
    use super::*;

    fn lazy_linear(pattern: &str) -> Lazy {
        let limits = RegexLimits::default();
        let ast = parse::parse(pattern, super::super::parse_limits(&limits)).unwrap();
        let leftmost = ast.root.has_not_word_boundary();
        Lazy::linear(&lower::to_hir(&ast).unwrap(), leftmost, &limits, &mut RegexCompiler::new())
            .unwrap_or_else(|e| panic!("{pattern}: {e}"))
    }

    /// Compiling builds no matcher (but for a large pattern); the first
    /// match builds the table if it fits, else the meta regex (always for
    /// a leftmost search), and later matches use it.
    #[test]
    fn the_first_match_builds_the_matcher() {
        let cron = r"^((@(hourly|daily))|((((\d+,)+\d+|(\d+|\*)(\/|-)\d+|\d+|\*) ?){5,6}))$";
        for (pattern, table, yes, no) in [
            (r"^\d{4}-\d{2}-\d{2}$", true, "2024-05-17", "2024-5-17"),
            (r"^\S+@\S+\.\S+$", true, "a@b.c", "a b@c.d"),
            (cron, false, "*/5 * * * *", "* * *"),
            (r"(?:\B|é)x", false, "éx", "x"),
        ] {
            let lazy = lazy_linear(pattern);
            assert_eq!(lazy.table_built(), None, "{pattern}");
            assert_eq!(lazy.is_match(pattern, yes, || true), Ok(true), "{pattern} on {yes}");
            assert_eq!(lazy.table_built(), Some(table), "{pattern}");
            assert_eq!(lazy.is_match(pattern, no, || true), Ok(false), "{pattern} on {no}");
        }
        // A pattern over the lazy bound is built at compile time.
        let long = format!("^{}$", "[a-z][0-9]".repeat(200));
        for (pattern, table) in [(r"\p{L}[\p{L}\p{N}]{2}", false), (&*long, true)] {
            let lazy = lazy_linear(pattern);
            assert_eq!(lazy.table_built(), Some(table), "{}", &pattern[..20]);
            assert_eq!(lazy.memory_bound(), lazy.memory_now(), "{}", &pattern[..20]);
        }
        let fast = Regex::new("^[a-z]+(-[a-z]+)*$", &RegexLimits::default()).unwrap();
        let super::super::Matcher::Lazy(lazy) = &fast.matcher else { panic!("{:?}", fast.matcher) };
        assert_eq!(lazy.table_built(), None);
        assert_eq!(fast.is_match("ab-cd"), Ok(true));
        assert_eq!(lazy.table_built(), Some(true));
        assert_eq!(fast.is_match("ab-"), Ok(false));
    }

    /// A fast path whose table does not fit answers by itself.
    #[test]
    fn a_fast_path_without_its_table_answers_itself() {
        let pattern = r"^\p{L}+(-\p{L}+)*$";
        let fast = Regex::new(pattern, &RegexLimits::default()).unwrap();
        assert_eq!(fast.engine(), Engine::Fast);
        assert!(!fast.has_table(), "{pattern}");
        assert_eq!(fast.is_match("été-ab"), Ok(true));
        assert_eq!(fast.is_match("été-"), Ok(false));
    }

    /// A match refused its build builds nothing and reports
    /// `MatchLimitExceeded`; the next one allowed builds.
    #[test]
    fn a_refused_build_builds_nothing() {
        let pattern = r"^\d{4}-\d{2}-\d{2}$";
        let lazy = lazy_linear(pattern);
        let mut asked = 0;
        assert_eq!(
            lazy.is_match(pattern, "2024-05-17", || {
                asked += 1;
                false
            }),
            Err(MatchLimitExceeded)
        );
        assert_eq!((asked, lazy.table_built()), (1, None));
        assert_eq!(
            lazy.is_match(pattern, "2024-05-17", || {
                asked += 1;
                true
            }),
            Ok(true)
        );
        assert_eq!(
            lazy.is_match(pattern, "2024-05-1", || {
                asked += 1;
                false
            }),
            Ok(false)
        );
        assert_eq!((asked, lazy.table_built()), (2, Some(true)));
    }

    /// Threads matching one pattern for the first time at once get the
    /// same answers, from one build.
    #[test]
    fn concurrent_first_matches_agree() {
        for pattern in [r"^\d{4}-\d{2}-\d{2}$", r"^((\d+,)+\d+ ?){5,6}$"] {
            let re = Regex::new(pattern, &RegexLimits::default()).unwrap();
            let re = &re;
            let answers: Vec<_> = std::thread::scope(|scope| {
                let threads: Vec<_> = (0..4)
                    .map(|i| {
                        scope.spawn(move || {
                            (
                                re.is_match("2024-05-17"),
                                re.is_match(if i % 2 == 0 { "1,2 3,4 5,6 7,8 9,0" } else { "x" }),
                            )
                        })
                    })
                    .collect();
                threads.into_iter().map(|t| t.join().unwrap()).collect()
            });
            for (i, (date, other)) in answers.into_iter().enumerate() {
                let expected = Regex::new(pattern, &RegexLimits::default()).unwrap();
                assert_eq!(date, expected.is_match("2024-05-17"), "{pattern}");
                assert_eq!(other, expected.is_match(if i % 2 == 0 { "1,2 3,4 5,6 7,8 9,0" } else { "x" }), "{pattern}");
            }
        }
    }

    /// A build that cannot make a matcher (here: given a text that does
    /// not parse in place of its pattern's) answers every match with
    /// `MatchLimitExceeded`, never a verdict, on either engine.
    #[test]
    fn a_failed_build_fails_closed() {
        let cron = r"^(((\d+,)+\d+|\d+|\*) ?){5,6}$";
        let lazy = lazy_linear(cron);
        // The table does not fit, so the meta regex is built from the
        // text given.
        assert_eq!(lazy.is_match("(", "1 2 3 4 5", || true), Err(MatchLimitExceeded));
        assert_eq!(lazy.is_match(cron, "1 2 3 4 5", || true), Err(MatchLimitExceeded));
        // So does a fast path's.
        let pattern = "^[a-z]+(-[a-z]+)*$";
        let fast = FastPath::detect(&parse::parse(pattern, ParseLimits::NONE).unwrap()).unwrap().unwrap();
        let lazy = Lazy::fast_path(&fast, &RegexLimits::default());
        assert_eq!(lazy.is_match("(", "ab-cd", || true), Err(MatchLimitExceeded));
        assert_eq!(lazy.is_match(pattern, "ab-cd", || true), Err(MatchLimitExceeded));
    }

    /// The memory bound counted at compile time covers what the first
    /// match builds, on patterns of every shape (tables, Unicode classes,
    /// counted repetitions, tables that do not fit, leftmost searches).
    #[test]
    fn the_memory_bound_covers_the_built_matcher() {
        let patterns = [
            r"^3\.\d+$",
            r"^\d{4}-\d{2}-\d{2}$",
            r"^\S+@\S+\.\S+$",
            r"^[\S]+@[\S]+\.[\S]{2,}$",
            r"^\$\{\{(.|[\r\n])*\}\}$",
            r"^((@(hourly|daily|weekly))|((((\d+,)+\d+|(\d+|\*)(\/|-)\d+|\d+|\*) ?){5,6}))$",
            r"(a|b)*a(a|b){12}",
            r"^([a-z]+=[^,]*,?){1,10}$",
            r"\p{L}[\p{L}\p{N}]{20}\p{Lu}",
            r"^\p{L}{20}$",
            r"^.{1,64}$",
            r"^[^\s]{1,3}é$",
            r"(?:\B|é)",
            r"\bfoo\b",
            r"[a-z]+-[0-9]+",
            r"^(\w+\.)*\w+$",
            &"abcdefgh".repeat(250),
            &"[a-z][0-9]".repeat(200),
            &format!("^({})$", (0..300).map(|i| format!("w{i}")).collect::<Vec<_>>().join("|")),
        ];
        let mut ratios = Vec::new();
        for pattern in patterns {
            let lazy = lazy_linear(pattern);
            assert!(lazy.is_match(pattern, "x", || true).is_ok(), "{pattern}");
            let now = lazy.memory_now();
            assert!(lazy.memory_bound() >= now, "{pattern}: bound {} < {now} held", lazy.memory_bound());
            if lazy.table_built() == Some(false) {
                let hir = lowered(pattern, &RegexLimits::default()).unwrap();
                let nfa =
                    build_nfa(&mut thompson::Compiler::new(), &hir, &RegexLimits::default()).unwrap().memory_usage();
                ratios.push((pattern.chars().take(40).collect::<String>(), now as f64 / nfa as f64));
            }
        }
        println!("meta regex and cache bytes per NFA byte: {ratios:?}");
    }
}
