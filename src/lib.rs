//! schemavm: JSON Schema compiled to bytecode and run by a bounded VM.
//!
//! ```
//! use serde_json::json;
//!
//! let schema = json!({"type": "object", "required": ["query"],
//!                     "properties": {"query": {"type": "string"}}});
//! let validator = schemavm::Validator::new(&schema)?;
//! assert!(validator.is_valid(&json!({"query": "rust"})));
//! let error = validator.validate(&json!({})).unwrap_err();
//! assert_eq!(error.to_string(), r#"$: missing required property "query""#);
//! # Ok::<(), schemavm::CompileError>(())
//! ```
//!
//! Schemas are compiled once ([`Validator::new`], or
//! [`Validator::options`] for non-default settings) by the
//! `schemavm-compiler` crate into a [`Program`];
//! validation runs that program under a [`Budget`] (fuel, optional
//! deadline, depth), so no schema or instance can make it hang or overflow
//! the stack. By default no `$ref` is ever fetched: only documents
//! registered with [`ValidatorOptions::resource`] (and the embedded
//! meta-schemas) resolve. Retrieval is opt-in, at compile time only, through
//! [`ValidatorOptions::retriever`] (see [`retrieve`]): allowlisted HTTP(S)
//! with the `remote` feature, `file:` under a root, or your own source.
//!
//! Errors are written for whoever must fix the instance, often a language
//! model: what is wrong, where, and what would be accepted ([`message`];
//! [`ValidatorOptions::mask_values`] keeps instance values out of them),
//! and [`mcp`] shapes them into MCP tool-call results.
//!
//! [`Validator::evaluate`] records every subschema evaluation with its
//! errors and annotations ([`output`]): an [`Evaluation`] renders the
//! standard output formats ([`OutputFormat`]: `flag`, `basic`, `detailed`,
//! `verbose`, `list`, `hierarchical`) and lists the annotations kept.
//!
//! ```
//! use serde_json::json;
//! use schemavm::OutputFormat;
//!
//! let schema = json!({"properties": {"query": {"type": "string", "title": "Query"}}});
//! let evaluation = schemavm::Validator::new(&schema)?.evaluate(&json!({"query": "rust"}))?;
//! assert_eq!(evaluation.render(OutputFormat::Flag), json!({"valid": true}));
//! let title = evaluation.annotations().find(|a| a.keyword == "title").map(|a| a.value.clone());
//! assert_eq!(title, Some(json!("Query")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod corpus;
pub mod error;
mod error_pool;
mod errors;
pub mod format;
pub mod location;
pub mod mcp;
pub mod message;
mod meta;
pub mod output;
pub mod retrieve;
mod vm;

use std::fmt;
use std::sync::{Arc, OnceLock};

use serde_json::Value;

pub use error::{ErrorKind, Exhausted, Found, ValidationError};
pub use errors::Errors;
pub use location::{InstanceLocation, PathSegment};
pub use message::MessageOptions;
pub use output::{Evaluation, OutputFormat};
pub use retrieve::{FetchRecord, Retrieve, RetrieveError, RetrieveErrorKind, Retriever};
/// The compiler crate, for inspecting programs and embedded documents.
pub use schemavm_compiler as compiler;
pub use schemavm_compiler::{CompileError, CompileErrorKind, Draft, Limits, bytecode};
pub use vm::Budget;

use schemavm_compiler::{CompileOptions, Program};
use vm::{Annotate, Collect, Fast, Stop, Vm};

/// The three outcomes of a validation: an exhausted budget is neither
/// valid nor invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The instance is valid.
    Valid,
    /// The instance is invalid.
    Invalid,
    /// The evaluation stopped before a verdict.
    BudgetExceeded {
        /// What ran out.
        reason: Exhausted,
        /// Fuel used before stopping.
        fuel_used: u64,
    },
}

/// A caller-defined format check.
pub type FormatFn = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// A compiled schema, ready to validate instances. `Send + Sync`; cloning
/// shares the compiled program.
#[derive(Clone)]
pub struct Validator {
    inner: Arc<Compiled>,
}

struct Compiled {
    program: Program,
    /// How `is_valid` starts under the settings' budget.
    quiet: vm::QuietStart,
    /// Shared by every validator built with the default settings (most
    /// are), so that they take no room of their own.
    settings: Arc<Settings>,
}

/// The options a validator keeps past compiling.
struct Settings {
    formats: format::CustomFormats,
    budget: Budget,
    messages: MessageOptions,
}

impl Settings {
    /// Whether these are the default settings.
    fn is_default(&self) -> bool {
        self.formats.is_empty() && self.budget == Budget::DEFAULT && self.messages == MessageOptions::DEFAULT
    }

    /// `self` shared: the one default instance if they are the default.
    fn shared(self) -> Arc<Settings> {
        static DEFAULT: OnceLock<Arc<Settings>> = OnceLock::new();
        if self.is_default() { Arc::clone(DEFAULT.get_or_init(|| Arc::new(self))) } else { Arc::new(self) }
    }
}

impl fmt::Debug for Validator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Validator")
            .field("draft", &self.draft())
            .field("nodes", &self.inner.program.node_count())
            .field("instructions", &self.inner.program.instruction_count())
            .finish()
    }
}

/// Builder for a [`Validator`] with non-default options.
#[derive(Clone, Default)]
pub struct ValidatorOptions {
    compile: CompileOptions,
    formats: Vec<FormatFn>,
    budget: Budget,
    skip_meta_validation: bool,
    messages: MessageOptions,
}

impl fmt::Debug for ValidatorOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ValidatorOptions")
            .field("compile", &self.compile)
            .field("custom_formats", &self.compile.custom_formats)
            .field("budget", &self.budget)
            .field("messages", &self.messages)
            .finish()
    }
}

impl ValidatorOptions {
    /// The dialect used when the schema has no `$schema` (default 2020-12).
    pub fn draft(mut self, draft: Draft) -> Self {
        self.compile.default_draft = draft;
        self
    }

    /// Assert `format` (true) or only annotate it (false). By default
    /// formats are asserted up to draft-07 and annotated from 2019-09
    /// (unless the format-assertion vocabulary is in force).
    pub fn assert_formats(mut self, yes: bool) -> Self {
        self.compile.assert_formats = Some(yes);
        self
    }

    /// Reject schemas that use a `format` schemavm does not know.
    pub fn strict_formats(mut self, yes: bool) -> Self {
        self.compile.strict_formats = yes;
        self
    }

    /// Defines (or overrides) the format `name`.
    pub fn format(mut self, name: impl Into<String>, check: impl Fn(&str) -> bool + Send + Sync + 'static) -> Self {
        let name = name.into();
        match self.compile.custom_formats.iter().position(|n| *n == name) {
            Some(i) => {
                if let Some(slot) = self.formats.get_mut(i) {
                    *slot = Arc::new(check);
                }
            }
            None => {
                self.compile.custom_formats.push(name);
                self.formats.push(Arc::new(check));
            }
        }
        self
    }

    /// Assert `contentEncoding`/`contentMediaType`/`contentSchema` (true)
    /// or only annotate them (false). By default they are asserted in
    /// draft-07 only.
    pub fn assert_content(mut self, yes: bool) -> Self {
        self.compile.assert_content = Some(yes);
        self
    }

    /// Registers a document under `uri` so `$ref`s can reach it (no I/O).
    pub fn resource(mut self, uri: impl Into<String>, document: Value) -> Self {
        self.compile.resources.push((uri.into(), document));
        self
    }

    /// Adds a retriever for referenced documents that are not registered:
    /// [`Retriever::http`] (feature `remote`), [`Retriever::files`],
    /// [`Retriever::from_fn`] or any [`Retrieve`]. Retrievers are asked in
    /// the order added; the first that handles the URI's scheme decides.
    /// Retrieval happens only while compiling, at most once per document
    /// per build; without a retriever (the default) nothing is fetched.
    pub fn retriever(mut self, retriever: impl Retrieve + 'static) -> Self {
        self.compile.retrieval.retrievers.push(Arc::new(retriever));
        self
    }

    /// Calls `log` after every retrieval attempt with the URI, the
    /// referring location, the retriever, bytes read, time taken and the
    /// error, if any.
    pub fn on_fetch(mut self, log: impl Fn(&FetchRecord<'_>) + Send + Sync + 'static) -> Self {
        self.compile.retrieval.on_fetch = Some(Arc::new(log));
        self
    }

    /// Compile-time bounds on the schema.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.compile.limits = limits;
        self
    }

    /// The default run-time budget of every validation.
    pub fn budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }

    /// Never echo instance values in error messages (for secrets and
    /// personal data in front of a model): `(got a string of 12
    /// characters)` instead of `(got "sk-live-0123")`. The schema's own
    /// values (`const`, `enum`, bounds) and the instance location are still
    /// shown. Applies to every rendering: `Display`,
    /// [`ValidationError::message`], [`mcp`].
    pub fn mask_values(mut self, yes: bool) -> Self {
        self.messages.mask_values = yes;
        self
    }

    /// Caps each rendered error (location and message) at `bytes` of
    /// UTF-8, cutting at a character boundary and ending with `…`.
    pub fn max_message_len(mut self, bytes: usize) -> Self {
        self.messages.max_len = Some(bytes);
        self
    }

    /// Keeps at most `n` errors per validation (the budget's
    /// [`Budget::max_errors`]; a later [`ValidatorOptions::budget`]
    /// replaces it). Past the limit, [`Validator::iter_errors`] ends with an
    /// [`ErrorKind::ErrorLimit`] error.
    pub fn max_errors(mut self, n: usize) -> Self {
        self.budget.max_errors = n;
        self
    }

    /// Lenient objects: properties the schema does not declare are
    /// accepted even under `additionalProperties: false` or
    /// `unevaluatedProperties: false`, while everything declared is
    /// enforced (see
    /// [`CompileOptions::allow_undeclared_properties`](schemavm_compiler::CompileOptions::allow_undeclared_properties)
    /// for what counts as declared). The validator is compiled that way:
    /// nothing is filtered after the fact.
    pub fn allow_undeclared_properties(mut self, yes: bool) -> Self {
        self.compile.allow_undeclared_properties = yes;
        self
    }

    /// Skips checking the schema against its meta-schema (for schemas
    /// already known to be valid). Malformed keywords are still compile
    /// errors.
    pub fn skip_meta_validation(mut self, yes: bool) -> Self {
        self.skip_meta_validation = yes;
        self
    }

    /// Do not keep the values of annotation keywords (`title`,
    /// `description`, `default`, `examples`, unknown keywords, ...) in the
    /// compiled program: less memory, but [`Validator::evaluate`] then
    /// reports only the annotations of applicators (`properties`,
    /// `items`, `contains`, ...). Validation is unaffected.
    pub fn skip_annotations(mut self, yes: bool) -> Self {
        self.compile.skip_annotations = yes;
        self
    }

    /// Keep each node's cost bounds in the compiled program, to read them
    /// with [`Program::cost`] (as `schemavm explain` does). They are
    /// computed and enforced either way; kept, they take 24 bytes per
    /// node.
    pub fn keep_cost_bounds(mut self, yes: bool) -> Self {
        self.compile.keep_cost_bounds = yes;
        self
    }

    /// Compiles `schema` with these options.
    pub fn build(&self, schema: &Value) -> Result<Validator, CompileError> {
        let checked =
            schemavm_compiler::check_depth(schema, schemavm_compiler::error::DEFAULT_BASE_URI, &self.compile.limits)?;
        if !self.skip_meta_validation {
            meta::check_schema(schema, self)?;
        }
        let program = schemavm_compiler::compile_checked(checked, &self.compile)?;
        let settings = Settings {
            formats: format::CustomFormats::new(self.formats.clone()),
            budget: self.budget,
            messages: self.messages,
        };
        let quiet = vm::QuietStart::new(&program, &settings.budget);
        let settings = settings.shared();
        Ok(Validator { inner: Arc::new(Compiled { program, quiet, settings }) })
    }
}

impl Validator {
    /// Compiles `schema` with default options.
    pub fn new(schema: &Value) -> Result<Validator, CompileError> {
        Validator::options().build(schema)
    }

    /// Starts a [`ValidatorOptions`] builder.
    pub fn options() -> ValidatorOptions {
        ValidatorOptions::default()
    }

    /// The dialect of the root schema.
    pub fn draft(&self) -> Draft {
        self.inner.program.flags().draft
    }

    /// How this validator's errors render their messages.
    pub fn message_options(&self) -> MessageOptions {
        self.inner.settings.messages
    }

    /// The compiled program (for inspection, e.g. `schemavm explain`).
    pub fn program(&self) -> &Program {
        &self.inner.program
    }

    /// Whether `instance` is valid. An exhausted budget counts as invalid
    /// (fail closed); use [`Validator::outcome`] to tell them apart.
    #[inline]
    pub fn is_valid(&self, instance: &Value) -> bool {
        let c = &*self.inner;
        c.quiet.is_valid(&c.program, || (&c.settings.formats, &c.settings.budget), instance)
    }

    /// Valid, invalid, or not decided within the default budget.
    pub fn outcome(&self, instance: &Value) -> Outcome {
        self.outcome_with(instance, &self.inner.settings.budget)
    }

    /// [`Validator::outcome`] under a per-call budget.
    pub fn outcome_with(&self, instance: &Value, budget: &Budget) -> Outcome {
        let c = &*self.inner;
        let mut vm = Vm::<Fast>::new(&c.program, &c.settings.formats, budget);
        let outcome = match vm.run_root(instance) {
            Ok(true) => Outcome::Valid,
            Ok(false) => Outcome::Invalid,
            Err(Stop) => Outcome::BudgetExceeded { reason: vm.meter.reason(), fuel_used: vm.meter.used(budget) },
        };
        vm.discard();
        outcome
    }

    /// `Ok` if `instance` is valid, else the first error (or a
    /// [`ErrorKind::BudgetExceeded`] error if the budget ran out).
    pub fn validate(&self, instance: &Value) -> Result<(), ValidationError> {
        self.validate_with(instance, &self.inner.settings.budget)
    }

    /// [`Validator::validate`] under a per-call budget.
    pub fn validate_with(&self, instance: &Value, budget: &Budget) -> Result<(), ValidationError> {
        let c = &*self.inner;
        let mut vm = Vm::<Fast>::new(&c.program, &c.settings.formats, budget);
        let result = match vm.run_root(instance) {
            Ok(true) => Ok(()),
            Ok(false) => {
                let mut errors = self.collect(instance, budget);
                // Only the first error is kept, taken out in place (the
                // last one fills its slot); the list goes back to the pool.
                let first = (!errors.is_empty()).then(|| errors.swap_remove(0));
                error_pool::give_list(errors);
                match first {
                    Some(e) => Err(e),
                    None => Err(exhausted_error(Exhausted::Fuel, budget.fuel)),
                }
            }
            Err(Stop) => Err(exhausted_error(vm.meter.reason(), vm.meter.used(budget))),
        };
        vm.discard();
        result.map_err(|e| e.with_message_options(c.settings.messages))
    }

    /// Every error (ending with a [`ErrorKind::BudgetExceeded`] error if
    /// the budget ran out).
    pub fn iter_errors(&self, instance: &Value) -> Errors {
        Errors::new(self.collect(instance, &self.inner.settings.budget))
    }

    /// [`Validator::iter_errors`] under a per-call budget.
    pub fn iter_errors_with(&self, instance: &Value, budget: &Budget) -> Errors {
        Errors::new(self.collect(instance, budget))
    }

    /// Evaluates `instance` recording every subschema evaluation and the
    /// annotations, for the standard output formats
    /// ([`Evaluation::render`]) and [`Evaluation::annotations`]. Slower
    /// than [`Validator::validate`]: every subschema is entered (no
    /// shortcuts), and each output unit costs fuel in proportion to its
    /// size, so the budget also bounds the output's memory. Running out is
    /// `Err`, never a verdict.
    pub fn evaluate(&self, instance: &Value) -> Result<Evaluation, output::BudgetExceeded> {
        self.evaluate_with(instance, &self.inner.settings.budget)
    }

    /// [`Validator::evaluate`] under a per-call budget.
    pub fn evaluate_with(&self, instance: &Value, budget: &Budget) -> Result<Evaluation, output::BudgetExceeded> {
        let c = &*self.inner;
        let mut vm = Vm::<Annotate>::new(&c.program, &c.settings.formats, budget);
        match vm.run_root(instance) {
            Ok(valid) => {
                let mut units = vm.take_units();
                if let Some(root) = units.first_mut().filter(|_| vm.truncated() && !valid) {
                    // As in `iter_errors`: say that the list is cut.
                    root.errors.push(root_error(ErrorKind::ErrorLimit { max: budget.max_errors }));
                }
                Ok(Evaluation::new(self.clone(), valid, units, c.settings.messages))
            }
            Err(Stop) => Err(output::BudgetExceeded { reason: vm.meter.reason(), fuel_used: vm.meter.used(budget) }),
        }
    }

    fn collect(&self, instance: &Value, budget: &Budget) -> Vec<ValidationError> {
        let c = &*self.inner;
        let mut vm = Vm::<Collect>::new(&c.program, &c.settings.formats, budget);
        let result = vm.run_root(instance);
        let mut errors = std::mem::take(&mut vm.errors);
        match result {
            Err(Stop) => errors.push(exhausted_error(vm.meter.reason(), vm.meter.used(budget))),
            Ok(false) if vm.truncated() || errors.is_empty() => {
                errors.push(root_error(ErrorKind::ErrorLimit { max: budget.max_errors }));
            }
            Ok(_) => {}
        }
        vm.discard();
        for e in &mut errors {
            e.0.options = c.settings.messages;
        }
        errors
    }
}

fn exhausted_error(reason: Exhausted, fuel_used: u64) -> ValidationError {
    root_error(ErrorKind::BudgetExceeded { reason, fuel_used })
}

/// An error about the whole evaluation, at the root.
fn root_error(kind: ErrorKind) -> ValidationError {
    let mut error = ValidationError::record(|text, _| (error::KeywordText::First(text.mark()), None));
    error.describe(kind, None);
    error
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn assert_send_sync<T: Send + Sync>() {}

    /// A pattern's first match is charged for building its matcher: a
    /// budget too small for the build runs out before it, and once a
    /// larger one has built it, the small one suffices.
    #[test]
    fn a_patterns_first_match_is_charged_its_build() {
        let v = Validator::new(&json!({"type": "string", "pattern": r"^\S+@\S+\.\S+$"})).unwrap();
        let small = Budget { fuel: 1_000, ..Budget::default() };
        let instance = json!("someone@example.org");
        assert!(matches!(v.outcome_with(&instance, &small), Outcome::BudgetExceeded { reason: Exhausted::Fuel, .. }));
        assert_eq!(v.outcome_with(&instance, &small), v.outcome_with(&instance, &small));
        assert_eq!(v.outcome(&instance), Outcome::Valid);
        assert_eq!(v.outcome_with(&instance, &small), Outcome::Valid);
    }

    #[test]
    fn validator_is_send_sync() {
        assert_send_sync::<Validator>();
    }

    /// Default options are shared by the validators built with them; any
    /// other option is stored per validator, and applied.
    #[test]
    fn only_options_other_than_the_defaults_are_stored() {
        let schema = json!({"format": "even", "maxLength": 1});
        let default = Validator::new(&schema).unwrap().inner.settings.clone();
        let stored =
            |options: ValidatorOptions| !Arc::ptr_eq(&options.build(&schema).unwrap().inner.settings, &default);
        assert!(!stored(Validator::options()));
        assert!(stored(Validator::options().budget(Budget { fuel: 5, ..Budget::default() })));
        assert!(stored(Validator::options().mask_values(true)));
        let even =
            Validator::options().assert_formats(true).format("even", |s| s.len() % 2 == 0).build(&schema).unwrap();
        assert!(!Arc::ptr_eq(&even.inner.settings, &default));
        assert!(!even.is_valid(&json!("a")) && even.is_valid(&json!("")));
        let masked = Validator::options().mask_values(true).build(&schema).unwrap();
        let error = masked.iter_errors(&json!("secret")).next().unwrap().to_string();
        assert!(!error.contains("secret"), "{error}");
        let starved = Validator::options().budget(Budget { fuel: 0, ..Budget::default() }).build(&schema).unwrap();
        assert!(matches!(starved.outcome(&json!("")), Outcome::BudgetExceeded { .. }));
    }

    /// `validate`'s error is the first `iter_errors` finds, however many
    /// there are.
    #[test]
    fn validate_gives_the_first_error() {
        let v = Validator::new(&json!({"items": {"type": "string"}})).unwrap();
        for n in [1, 2, 5] {
            let instance = json!(vec![0; n]);
            let first = v.iter_errors(&instance).next();
            assert_eq!(v.validate(&instance).err(), first);
            assert_eq!(first.map(|e| e.instance_location().to_pointer()).as_deref(), Some("/0"));
        }
    }

    #[test]
    fn basic_validation() {
        let v = Validator::new(
            &json!({"type": "object", "properties": {"a": {"type": "integer", "maximum": 3}}, "required": ["a"]}),
        )
        .unwrap();
        assert!(v.is_valid(&json!({"a": 1})));
        assert!(!v.is_valid(&json!({"a": 4})));
        assert!(!v.is_valid(&json!({})));
        let errors: Vec<String> = v.iter_errors(&json!({"a": "x"})).map(|e| e.to_string()).collect();
        assert_eq!(errors, vec!["$.a: must be an integer (got a string)"]);
    }

    #[test]
    fn dropped_alternative_errors_give_their_count_back() {
        // `x` passes; its first alternative's error, dropped, leaves room
        // in `max_errors` for the errors that are listed.
        let schema =
            json!({"properties": {"x": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}, "required": ["p", "q"]});
        let v = Validator::options().max_errors(2).build(&schema).unwrap();
        for x in [json!(1), json!("s")] {
            let errors: Vec<String> = v.iter_errors(&json!({"x": x})).map(|e| e.to_string()).collect();
            assert_eq!(errors, [r#"$: missing required property "p""#, r#"$: missing required property "q""#]);
        }
        // Failing, the closest alternative's errors are listed and count;
        // the others' are given back. (Six errors are held at the peak:
        // `z`, then both alternatives'.)
        let schema = json!({"anyOf": [{"required": ["a", "b", "c"]}, {"required": ["a", "b"]}], "required": ["z"]});
        let v = Validator::options().max_errors(6).build(&schema).unwrap();
        let errors: Vec<String> = v.iter_errors(&json!({})).map(|e| e.to_string()).collect();
        assert_eq!(
            errors,
            [
                r#"$: missing required property "z""#,
                "$: matched none of 2 alternatives; closest is #1",
                r#"$: missing required property "a""#,
                r#"$: missing required property "b""#,
            ],
        );
    }

    /// The least fuel with which `finishes` decides (a binary search; the
    /// default budget's fuel at most).
    fn least_fuel(finishes: impl Fn(&Budget) -> bool) -> u64 {
        let (mut lo, mut hi) = (0u64, Budget::default().fuel);
        assert!(finishes(&Budget { fuel: hi, ..Budget::default() }));
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if finishes(&Budget { fuel: mid, ..Budget::default() }) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi
    }

    /// The fuel `iter_errors` needs on `instance`, and `is_valid`'s.
    fn recording_and_quiet_fuel(v: &Validator, instance: &Value) -> (u64, u64) {
        let recording = least_fuel(|b| !v.iter_errors_with(instance, b).any(|e| e.is_budget_exceeded()));
        let quiet = least_fuel(|b| !matches!(v.outcome_with(instance, b), Outcome::BudgetExceeded { .. }));
        (recording, quiet)
    }

    /// A `oneOf` of `tags.len()` variants told apart by `tag`, each with
    /// `content` referencing the list again, and `fields` required
    /// integer properties.
    fn tagged_recursion(tags: usize, fields: usize) -> Value {
        let names: Vec<String> = (0..fields).map(|f| format!("f{f}")).collect();
        let variants: Vec<Value> = (0..tags)
            .map(|t| {
                let mut properties = serde_json::Map::new();
                properties.insert("tag".into(), json!({"const": format!("t{t}")}));
                properties.insert("content".into(), json!({"$ref": "#/$defs/D"}));
                for name in &names {
                    properties.insert(name.clone(), json!({"type": "integer", "minimum": 0}));
                }
                let required: Vec<&str> = std::iter::once("tag").chain(names.iter().map(String::as_str)).collect();
                json!({"properties": properties, "required": required})
            })
            .collect();
        json!({"$ref": "#/$defs/D", "$defs": {"D": {"oneOf": variants}}})
    }

    /// `depth` levels of `content`, each tagged `t0` or `t1`, ending in
    /// one tagged `bottom`; each with `fields` fields.
    fn tagged_chain(depth: usize, fields: usize, bottom: &str) -> Value {
        let level = |tag: String, content: Option<Value>| {
            let mut o = serde_json::Map::new();
            o.insert("tag".into(), json!(tag));
            o.extend(content.map(|c| ("content".to_string(), c)));
            o.extend((0..fields).map(|f| (format!("f{f}"), json!(f))));
            Value::Object(o)
        };
        (0..depth).fold(level(bottom.to_string(), None), |x, depth| level(format!("t{}", depth % 2), Some(x)))
    }

    #[test]
    fn recording_discriminated_recursion_takes_linear_fuel() {
        // Recording runs each of the eight variants at every level; the
        // boolean path (not memoized there) runs the one `tag` names. A
        // quiet check while recording still memoizes, so the checks below
        // each level's variants do not walk the rest of the chain again.
        let v = Validator::new(&tagged_recursion(8, 2)).unwrap();
        let fuel = |depth| recording_and_quiet_fuel(&v, &tagged_chain(depth, 2, "none"));
        let ((short, short_quiet), (long, long_quiet)) = (fuel(40), fuel(80));
        assert!(long < short * 5 / 2, "iter_errors: {short} at depth 40, {long} at 80");
        assert!(long_quiet < short_quiet * 5 / 2, "is_valid: {short_quiet} at depth 40, {long_quiet} at 80");
        let errors: Vec<String> = v.iter_errors(&tagged_chain(2, 2, "none")).map(|e| e.to_string()).collect();
        let none = |at: &str, closest: u32| {
            format!("{at}: matched none of 8 alternatives (exactly one must match); closest is #{closest}")
        };
        let tag = r#"$.content.content.tag: must be "t0" (got "none")"#;
        assert_eq!(errors, [none("$", 1), none("$.content", 0), none("$.content.content", 0), tag.to_string()]);
    }

    #[test]
    fn recording_a_failure_deep_in_a_document_walks_its_path_quietly_once() {
        // Each level an object of a wide sibling, checked before a `next`
        // level (so that a level's quiet check costs what its subtree
        // holds), reached through a `$ref`; the deepest `leaf` fails. Recorded,
        // each level would check its `next` quietly first, walking the rest
        // of the path again: quadratic in the depth. The quiet check that
        // fails first notes every level on its way out, and the recording
        // skips their checks.
        let schema = json!({
            "$defs": {
                "level": {
                    "type": "object",
                    "properties": {
                        "next": {"$ref": "#/$defs/level"},
                        "leaf": {"type": "integer"},
                        "a_wide": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}}}
                    }
                }
            },
            "$ref": "#/$defs/level"
        });
        let chain = |depth: usize| {
            let wide: Vec<Value> = (0..20).map(|n| json!({"n": n})).collect();
            (0..depth).fold(json!({"leaf": "x"}), |next, _| json!({"next": next, "a_wide": wide}))
        };
        let v = Validator::new(&schema).unwrap();
        let fuel = |depth| recording_and_quiet_fuel(&v, &chain(depth));
        let ((short, short_quiet), (long, long_quiet)) = (fuel(6), fuel(12));
        // (780 and 1,554; without the notes, 2,730 and 10,062.)
        assert!(long < short * 5 / 2, "iter_errors: {short} at depth 6, {long} at 12");
        assert!(long_quiet < short_quiet * 5 / 2, "is_valid: {short_quiet} at depth 6, {long_quiet} at 12");
        let errors: Vec<String> = v.iter_errors(&chain(2)).map(|e| e.to_string()).collect();
        assert_eq!(errors, ["$.next.next.leaf: must be an integer (got a string)"]);
    }

    #[test]
    fn recording_a_passing_list_runs_no_failing_alternative() {
        // Forty variants of twenty fields each, as the root (evaluated
        // recording from the start) and beside a failing `required` (its
        // node fails quietly, so its keywords are recorded). Recorded, the
        // 39 variants the discriminator rules out would each run, and their
        // `content` too.
        let schema = tagged_recursion(40, 20);
        let (defs, variants) = (&schema["$defs"], &schema["$defs"]["D"]["oneOf"]);
        let root = json!({"$defs": defs, "oneOf": variants});
        let beside = json!({"$defs": defs, "properties": {"x": {"oneOf": variants, "required": ["other"]}}});
        let instance = tagged_chain(1, 20, "t5");
        let quiet = recording_and_quiet_fuel(&Validator::new(&root).unwrap(), &instance).1;
        for (schema, instance, errors) in [(root, instance.clone(), 0), (beside, json!({"x": instance}), 1)] {
            let v = Validator::new(&schema).unwrap();
            assert_eq!(v.iter_errors(&instance).count(), errors);
            let recording = recording_and_quiet_fuel(&v, &instance).0;
            // (Without the list's quiet trial: 7,984 and 7,858, against 262.)
            assert!(recording <= 2 * quiet, "iter_errors {recording}, is_valid {quiet} (the list alone)");
        }
    }

    #[test]
    fn dropped_alternative_errors_give_their_count_back_through_the_memo() {
        // `d11` applies `d0` 2048 times at each location: memoized. Its
        // evaluations drop the errors of `anyOf`'s first alternative.
        let mut defs = serde_json::Map::new();
        defs.insert("d0".into(), json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}));
        for i in 1..12 {
            let previous = format!("#/$defs/d{}", i - 1);
            defs.insert(format!("d{i}"), json!({"allOf": [{"$ref": previous}, {"$ref": previous}]}));
        }
        let schema = json!({"$defs": defs, "properties": {"x": {"$ref": "#/$defs/d11"}}, "required": ["p", "q", "r"]});
        let v = Validator::options().max_errors(3).build(&schema).unwrap();
        for x in [json!(1), json!("s")] {
            let errors: Vec<String> = v.iter_errors(&json!({"x": x})).map(|e| e.to_string()).collect();
            assert_eq!(errors.len(), 3, "{errors:?}");
            assert!(errors.iter().all(|e| e.contains("missing required property")), "{errors:?}");
        }
        assert!(v.iter_errors(&json!({"x": null, "p": 1, "q": 1, "r": 1})).next().is_some());
    }

    #[test]
    fn alternatives_skipped_by_type_keep_the_verdict() {
        // Each alternative admits only its values' kinds; `1.0` equals `1`.
        let v = Validator::new(&json!({"oneOf": [
            {"const": "a"},
            {"enum": [1, null]},
            {"type": "string", "enum": ["x", 2]},
            {"type": "object"}
        ]}))
        .unwrap();
        for (instance, valid) in [
            (json!("a"), true),
            (json!(1), true),
            (json!(1.0), true),
            (json!(null), true),
            (json!("x"), true),
            (json!({}), true),
            (json!(2), false),
            (json!("b"), false),
            (json!([]), false),
            (json!(true), false),
        ] {
            assert_eq!(v.is_valid(&instance), valid, "{instance}");
            assert_eq!(v.iter_errors(&instance).next().is_none(), valid, "{instance}");
        }
    }

    #[test]
    fn types_fused_into_the_next_instruction_keep_errors_and_order() {
        let errors = |schema: Value, instance: Value| -> Vec<String> {
            let v = Validator::new(&schema).unwrap();
            let errors: Vec<String> = v.iter_errors(&instance).map(|e| e.to_string()).collect();
            assert_eq!(v.is_valid(&instance), errors.is_empty(), "{schema} {instance}");
            errors
        };
        let integer = json!({"type": "integer", "minimum": 5});
        assert!(errors(integer.clone(), json!(7)).is_empty());
        assert!(errors(integer.clone(), json!(7.0)).is_empty());
        let e = errors(integer.clone(), json!(2.5));
        assert_eq!(e.len(), 2, "{e:?}");
        assert!(e[0].contains("integer") && e[1].contains('5'), "{e:?}");
        assert_eq!(errors(integer.clone(), json!("7")).len(), 1);
        let strict = json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "integer", "maximum": 9});
        assert_eq!(errors(strict.clone(), json!(7.0)).len(), 1);
        assert!(errors(strict, json!(7)).is_empty());
        let nullable = json!({"type": ["string", "null"], "maxLength": 2, "enum": ["ab", null, "abc"]});
        assert!(errors(nullable.clone(), json!(null)).is_empty());
        assert!(errors(nullable.clone(), json!("ab")).is_empty());
        assert_eq!(errors(nullable.clone(), json!("abc")).len(), 1);
        assert_eq!(errors(nullable, json!(1)).len(), 2);
        let nullable_string = json!({"type": ["string", "null"], "maxLength": 2});
        assert!(errors(nullable_string.clone(), json!(null)).is_empty());
        assert_eq!(errors(nullable_string.clone(), json!("abc")).len(), 1);
        assert_eq!(errors(nullable_string, json!(false)).len(), 1);
        // A type without the instruction's kind is not fused.
        let boolean = json!({"type": "boolean", "pattern": "^t"});
        assert!(errors(boolean.clone(), json!(true)).is_empty());
        assert_eq!(errors(boolean.clone(), json!("true")).len(), 1);
        assert_eq!(errors(boolean, json!("false")).len(), 2);
    }

    #[test]
    fn error_locations_at_every_depth() {
        // Four segments are recorded inline, five are built at once.
        let v = Validator::new(&json!({
            "$id": "https://example.com/s",
            "properties": {"a": {"items": {"properties": {"b~/": {"items": {"type": "array", "items": {"type": "string"}}}}}}}
        }))
        .unwrap();
        for (instance, path, pointer) in [
            (json!({"a": [{"b~/": [[1]]}]}), "$.a[0][\"b~/\"][0][0]", "/a/0/b~0~1/0/0"),
            (json!({"a": [{"b~/": [1]}]}), "$.a[0][\"b~/\"][0]", "/a/0/b~0~1/0"),
        ] {
            let errors: Vec<ValidationError> = v.iter_errors(&instance).collect();
            let [e] = errors.as_slice() else { panic!("{errors:?}") };
            assert_eq!(e.instance_location().to_string(), path);
            assert_eq!(e.instance_location().to_pointer(), pointer);
            assert_eq!(e.clone(), *e);
            let keyword = e.keyword_location();
            assert!(keyword.starts_with("/properties/a/items/properties/b~0~1/"), "{keyword}");
            let absolute = e.absolute_keyword_location();
            assert!(absolute.starts_with("https://example.com/s#/properties/a/items/properties/b~0~1/"), "{absolute}");
        }
    }
}
