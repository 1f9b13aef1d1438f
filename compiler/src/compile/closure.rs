//! The properties a schema's in-place subschemas evaluate, when they are
//! known statically: how the boolean path resolves `unevaluatedProperties`
//! next to a `$ref` or an `allOf`.
//!
//! `unevaluatedProperties` applies to the properties that neither its
//! sibling keywords nor the subschemas applied in place (`$ref`, `allOf`,
//! `anyOf`, `if`, ...) evaluated, and in general that set is only known
//! while validating: the VM tracks it
//! ([`NodeFlags::TRACKS_PROPERTIES`](crate::bytecode::NodeFlags::TRACKS_PROPERTIES)).
//! Most schemas that use it, though (OpenAPI 3.1's, a `$ref` to a
//! `patternProperties: {"^x-": true}` beside each object's own
//! properties), apply only *conjunctive* subschemas in place: `$ref` and
//! `allOf`, down through theirs. When such a schema passes, each of those
//! passed, and what they evaluated is exactly the properties their
//! `properties` name and their `patternProperties` match (or every
//! property, under an `additionalProperties` or `unevaluatedProperties` of
//! theirs). When one fails, the schema fails whatever
//! `unevaluatedProperties` says. So for the verdict, the keyword is
//! `additionalProperties` over the union of those names and patterns, and
//! the boolean path runs it that way, untracked.
//!
//! A conditional applicator (`anyOf`, `oneOf`, `if`/`then`/`else`,
//! `dependentSchemas`, schema `dependencies`) changes nothing when what
//! its subschemas may evaluate is evaluated anyway: names the schema's own
//! keywords or its conjunctive closure name or match, patterns written
//! the same (`"oneOf": [{"required": ["a"]}, {"required": ["b"]}]`, an
//! `if` on a declared property). Any other, and a dynamic reference
//! anywhere, makes the set depend on the instance: the node stays tracked.
//! Errors and output units always come from the tracked code
//! ([`Program::tracked_code`](crate::Program::tracked_code)): a failing
//! subschema's annotations are dropped, which can change what
//! `unevaluatedProperties` reports beside it.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::Lowerer;
use super::schema::Keywords;
use crate::keyword::Kw;
use crate::regex::Regex;
use crate::registry::SchemaInfo;

/// Most schemas one closure visits; past it the node stays tracked.
const CLOSURE_SCHEMAS_MAX: usize = 64;

/// Most names (and, apart, patterns) one closure collects, each of what
/// it evaluates and what it may: past them the node stays tracked (a
/// resolved node's object instruction holds every name and pattern of its
/// closure, so an unbounded closure would let a schema that names one
/// large definition from many places multiply its size).
const CLOSURE_NAMES_MAX: usize = 256;
const CLOSURE_PATTERNS_MAX: usize = 32;

/// The work all closures of one compilation may do together (keywords,
/// names and patterns read, subschemas queued, names matched against
/// patterns), so that a schema of many nodes each naming the same large
/// schemas costs bounded time and memory (the names read bound the names
/// the resolved nodes hold, about 250 bytes each: at most 16 MiB); past
/// it, nodes stay tracked. OpenAPI 3.1's schema spends 340.
pub(super) const CLOSURE_WORK_MAX: usize = 1 << 16;

/// What the subschemas a schema applies in place evaluate whenever they
/// all pass.
#[derive(Debug, Default)]
pub(super) struct EvaluatedClosure<'a> {
    /// Names of their `properties`.
    pub(super) names: Vec<&'a str>,
    /// Their `patternProperties`, as written and compiled.
    pub(super) patterns: Vec<(&'a str, Arc<Regex>)>,
    /// One of them evaluates every property (`additionalProperties`,
    /// `unevaluatedProperties`).
    pub(super) all: bool,
}

/// Keywords that apply subschemas in place only under a condition on the
/// instance.
const CONDITIONAL: &[Kw] = &[Kw::AnyOf, Kw::OneOf, Kw::If, Kw::Then, Kw::Else, Kw::DependentSchemas, Kw::Dependencies];

/// How a subschema of the closure applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Applies {
    /// Wherever the schema passes: what it evaluates is evaluated.
    Always,
    /// Under a condition: what it evaluates may be.
    Maybe,
}

/// What the conditional subschemas of a closure may evaluate.
#[derive(Debug, Default)]
struct MaybeEvaluated<'a> {
    names: Vec<&'a str>,
    patterns: Vec<&'a str>,
    all: bool,
}

impl<'a> Lowerer<'a, '_> {
    /// The closure of the subschemas the schema `k` applies in place, when
    /// what they evaluate is static (see the module docs); `None` if it
    /// depends on the instance, or a reference or pattern in it does not
    /// resolve or compile (lowering reports that).
    pub(super) fn evaluated_closure(&mut self, k: &Keywords<'a, '_>) -> Option<EvaluatedClosure<'a>> {
        let mut closure = EvaluatedClosure::default();
        let mut maybe = MaybeEvaluated::default();
        let mut work = Vec::new();
        self.in_place(k, Applies::Always, &mut work)?;
        let mut seen: Vec<(*const Value, Applies)> = Vec::new();
        while let Some((value, info, applies)) = work.pop() {
            let key = (value as *const Value, applies);
            if seen.contains(&key) {
                continue;
            }
            if seen.len() >= CLOSURE_SCHEMAS_MAX {
                return None;
            }
            seen.push(key);
            let obj = match value {
                Value::Bool(_) => continue,
                Value::Object(obj) => obj,
                _ => return None,
            };
            let k = Keywords::new(obj, &info);
            // (Not objects: lowering reports them.)
            let names = map_of(k.get(Kw::Properties))?;
            let patterns = map_of(k.get(Kw::PatternProperties))?;
            let len = |m: Option<&Map<String, Value>>| m.map_or(0, Map::len);
            self.spend_closure_work(obj.len() + len(names) + len(patterns))?;
            let names = names.into_iter().flat_map(|m| m.keys().map(String::as_str));
            let patterns = patterns.into_iter().flat_map(|m| m.keys().map(String::as_str));
            // Up to draft-07, `$ref` makes its siblings inert.
            if !(k.draft().ref_overrides_siblings() && k.get(Kw::Ref).is_some()) {
                let all = k.get(Kw::AdditionalProperties).is_some() || k.get(Kw::UnevaluatedProperties).is_some();
                match applies {
                    Applies::Always if all => {
                        closure.all = true;
                        return Some(closure);
                    }
                    Applies::Always => {
                        closure.names.extend(names);
                        for pattern in patterns {
                            let regex = self.regex(pattern, &info, &["patternProperties", pattern]).ok()?;
                            closure.patterns.push((pattern, regex));
                        }
                    }
                    Applies::Maybe => {
                        maybe.all |= all;
                        maybe.names.extend(names);
                        maybe.patterns.extend(patterns);
                    }
                }
            }
            self.in_place(&k, applies, &mut work)?;
            let names = closure.names.len().max(maybe.names.len());
            let patterns = closure.patterns.len().max(maybe.patterns.len());
            if names > CLOSURE_NAMES_MAX || patterns > CLOSURE_PATTERNS_MAX {
                return None;
            }
        }
        // The names `covers` may match against patterns.
        let own_patterns = k.get(Kw::PatternProperties).and_then(Value::as_object).map_or(0, |o| o.len());
        self.spend_closure_work(maybe.names.len().saturating_mul(closure.patterns.len() + own_patterns))?;
        self.covers(k, &closure, &maybe).then_some(closure)
    }

    /// Takes `units` from the compilation's [`CLOSURE_WORK_MAX`]; `None`
    /// once it is spent.
    fn spend_closure_work(&mut self, units: usize) -> Option<()> {
        self.closure_work = self.closure_work.checked_sub(units)?;
        Some(())
    }

    /// Whether everything `maybe` holds is evaluated anyway, by the
    /// schema `k`'s own keywords or its closure's.
    fn covers(&self, k: &Keywords<'a, '_>, closure: &EvaluatedClosure<'a>, maybe: &MaybeEvaluated<'a>) -> bool {
        let own_names = k.get(Kw::Properties).and_then(Value::as_object);
        let own_patterns = k.get(Kw::PatternProperties).and_then(Value::as_object);
        let pattern_known = |p: &str| {
            closure.patterns.iter().any(|(known, _)| *known == p) || own_patterns.is_some_and(|o| o.contains_key(p))
        };
        let name_known = |name: &str| {
            if closure.names.contains(&name) || own_names.is_some_and(|o| o.contains_key(name)) {
                return true;
            }
            let own = own_patterns.into_iter().flat_map(|o| o.keys()).map(|p| self.regexes.get(p.as_str()));
            let closure = closure.patterns.iter().map(|(_, regex)| Some(regex));
            // A pattern of this schema's own is compiled before its
            // `unevaluatedProperties` (and a pattern that fails to compile
            // fails the compilation).
            own.chain(closure).any(|regex| regex.is_some_and(|r| matches!(r.is_match(name), Ok(true))))
        };
        !maybe.all && maybe.patterns.iter().all(|p| pattern_known(p)) && maybe.names.iter().all(|n| name_known(n))
    }

    /// Queues the subschemas `k` applies in place (`$ref`'s target, `allOf`
    /// as `applies`, the conditional ones as [`Applies::Maybe`]); `None`
    /// if it has a dynamic reference.
    fn in_place(
        &mut self,
        k: &Keywords<'a, '_>,
        applies: Applies,
        work: &mut Vec<(&'a Value, SchemaInfo, Applies)>,
    ) -> Option<()> {
        if let Some(reference) = k.get(Kw::Ref) {
            let (value, info) = self.ref_target(k.info, reference.as_str()?, false).ok()?;
            work.push((value, info, applies));
            if k.draft().ref_overrides_siblings() {
                return Some(());
            }
        }
        if k.get(Kw::DynamicRef).is_some() || k.get(Kw::RecursiveRef).is_some() {
            return None;
        }
        for kw in [Kw::AllOf].into_iter().chain(CONDITIONAL.iter().copied()) {
            let Some(value) = k.get(kw) else { continue };
            let applies = if kw == Kw::AllOf { applies } else { Applies::Maybe };
            self.spend_closure_work(match value {
                Value::Array(list) => list.len(),
                Value::Object(map) => map.len(),
                _ => 1,
            })?;
            // A subschema's own info if it starts a resource, else its
            // parent's: the same resource and dialect, and the location
            // (which would be written afresh on every walk) only names
            // errors, which the walk drops.
            let mut push =
                |sub: &'a Value| work.push((sub, self.registry.info(sub).copied().unwrap_or(*k.info), applies));
            match value {
                Value::Array(list) => list.iter().for_each(&mut push),
                // `dependentSchemas`, `dependencies` (whose arrays of names
                // apply no subschema).
                Value::Object(map) if matches!(kw, Kw::DependentSchemas | Kw::Dependencies) => {
                    map.values().filter(|sub| !sub.is_array()).for_each(&mut push);
                }
                sub => push(sub),
            }
        }
        Some(())
    }
}

/// A keyword's object value (`Some(None)` if it is absent); `None` if it
/// is not an object.
fn map_of(value: Option<&Value>) -> Option<Option<&Map<String, Value>>> {
    match value {
        None => Some(None),
        Some(v) => v.as_object().map(Some),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::bytecode::{Instr, NodeFlags};
    use crate::{CompileOptions, compile};

    /// The root's code and tracked code, as instruction keywords, and
    /// whether its code tracks properties.
    fn root_code(schema: Value) -> (Vec<&'static str>, Option<Vec<&'static str>>, bool) {
        let program = compile(&schema, &CompileOptions::default()).expect("compiles");
        let root = program.node(program.root());
        let names = |code: &[Instr]| code.iter().map(Instr::keyword).collect::<Vec<_>>();
        (
            names(program.code_of(root)),
            program.tracked_code(program.root()).map(names),
            root.flags().contains(NodeFlags::TRACKS_PROPERTIES),
        )
    }

    #[test]
    fn conjunctive_closures_resolve_statically() {
        let schema = json!({
            "properties": {"a": true},
            "$ref": "#/$defs/ext",
            "allOf": [{"properties": {"b": true}}, {"$ref": "#/$defs/c"}],
            "unevaluatedProperties": false,
            "$defs": {
                "ext": {"patternProperties": {"^x-": true}},
                "c": {"properties": {"c": {"type": "string"}}}
            }
        });
        let (code, tracked, tracks) = root_code(schema);
        assert_eq!(code, ["object checks", "allOf", "$ref"]);
        assert_eq!(tracked.as_deref(), Some(&["object checks", "allOf", "$ref", "unevaluatedProperties"][..]));
        assert!(!tracks);
    }

    #[test]
    fn a_closure_that_evaluates_everything_drops_the_keyword() {
        let schema = json!({"$ref": "#/$defs/open", "unevaluatedProperties": false,
                            "$defs": {"open": {"additionalProperties": {"type": "string"}}}});
        let (code, tracked, tracks) = root_code(schema);
        assert_eq!(code, ["$ref"]);
        assert_eq!(tracked.as_deref(), Some(&["$ref", "unevaluatedProperties"][..]));
        assert!(!tracks);
    }

    #[test]
    fn conditionals_that_evaluate_nothing_new_resolve_statically() {
        let schema = json!({
            "properties": {"a": true, "b": true},
            "oneOf": [{"required": ["a"]}, {"required": ["b"]}],
            "if": {"properties": {"a": {"const": 1}}},
            "then": {"patternProperties": {"^x-": true}, "properties": {"x-y": false}},
            "dependentSchemas": {"b": {"properties": {"c": true}}},
            "$ref": "#/$defs/ext",
            "unevaluatedProperties": false,
            "$defs": {"ext": {"patternProperties": {"^x-": true}, "allOf": [{"properties": {"c": true}}]}}
        });
        let (code, tracked, tracks) = root_code(schema);
        assert_eq!(code.last(), Some(&"$ref"));
        assert_eq!(tracked.as_ref().and_then(|t| t.last()), Some(&"unevaluatedProperties"));
        assert!(!tracks);
    }

    #[test]
    fn conditional_applicators_keep_tracking() {
        for schema in [
            json!({"anyOf": [{"properties": {"a": true}}], "unevaluatedProperties": false}),
            json!({"$ref": "#/$defs/a", "unevaluatedProperties": false,
                   "$defs": {"a": {"allOf": [{"if": {"required": ["a"]}, "then": {"properties": {"b": true}}}]}}}),
            json!({"allOf": [{"dependentSchemas": {"a": {"properties": {"b": true}}}}], "unevaluatedProperties": false}),
            json!({"$dynamicRef": "#/$defs/a", "unevaluatedProperties": false,
                   "$defs": {"a": {"properties": {"a": true}}}}),
        ] {
            let (code, tracked, tracks) = root_code(schema.clone());
            assert_eq!(code.last(), Some(&"unevaluatedProperties"), "{schema}");
            assert!(tracked.is_none() && tracks, "{schema}");
        }
    }

    #[test]
    fn closures_are_bounded_per_node_and_per_compilation() {
        let wide: serde_json::Map<String, Value> = (0..300).map(|i| (format!("p{i}"), json!(true))).collect();
        let (_, tracked, tracks) = root_code(json!({"$ref": "#/$defs/wide", "unevaluatedProperties": false,
                                                    "$defs": {"wide": {"properties": wide}}}));
        assert!(tracked.is_none() && tracks, "a closure of 300 names stays tracked");
        // 2,000 nodes each naming a definition of 200 properties: the
        // first resolve statically, until the compilation's budget is
        // spent (about 200 units each: 2^16 / 200 = 327).
        let names: serde_json::Map<String, Value> = (0..200).map(|i| (format!("p{i}"), json!(true))).collect();
        let users: serde_json::Map<String, Value> = (0..2000)
            .map(|i| (format!("u{i}"), json!({"$ref": "#/$defs/d", "unevaluatedProperties": false})))
            .collect();
        let schema = json!({"properties": users, "$defs": {"d": {"properties": names}}});
        let program = compile(&schema, &CompileOptions::default()).expect("compiles");
        let resolved = (0..program.node_count())
            .filter(|&i| program.tracked_code(crate::bytecode::NodeId(i as u32)).is_some())
            .count();
        assert!((250..350).contains(&resolved), "{resolved} nodes resolved");
    }

    #[test]
    fn older_drafts_follow_only_the_ref() {
        // The draft-07 target's `$ref` makes its `properties` inert: `b`
        // stays unevaluated.
        let schema = json!({
            "$ref": "#/$defs/old", "unevaluatedProperties": false,
            "$defs": {"old": {"$schema": "http://json-schema.org/draft-07/schema#", "$id": "http://x.test/old",
                              "allOf": [{"$ref": "#/definitions/a", "properties": {"b": true}}],
                              "definitions": {"a": {"properties": {"a": true}}}}}
        });
        let program = compile(&schema, &CompileOptions::default()).expect("compiles");
        let object = program.code_of(program.node(program.root())).iter().find_map(|i| match i {
            Instr::Object(o) => Some(program.operands().object(*o)),
            _ => None,
        });
        let names: Vec<&str> = object.map(|o| o.names.keys().collect()).unwrap_or_default();
        assert_eq!(names, ["a"]);
    }
}
