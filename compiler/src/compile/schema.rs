//! Lowering one schema object: each keyword to its instruction (or to a
//! field of a fused instruction), with the keyword's value checked.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::names::Names;
use super::{Lowerer, internal};
use crate::bytecode::*;
use crate::draft::Draft;
use crate::error::{CompileError, CompileErrorKind};
use crate::format::Format;
use crate::keyword::{KeywordTable, Kw};
use crate::number::Num;
use crate::regex::Regex;
use crate::registry::{SchemaInfo, Target};
use crate::value::{self, JsonType, TypeSet};

/// Keywords that apply subschemas to the same instance location.
const IN_PLACE: u64 = Kw::set(&[
    Kw::AllOf,
    Kw::AnyOf,
    Kw::OneOf,
    Kw::If,
    Kw::DependentSchemas,
    Kw::Dependencies,
    Kw::Ref,
    Kw::DynamicRef,
    Kw::RecursiveRef,
]);

// The keywords each `lower_*` family reads: a schema with none of them
// skips the family (most schemas use one or two of them).
const NUMBER: u64 = Kw::set(&[Kw::Minimum, Kw::Maximum, Kw::ExclusiveMinimum, Kw::ExclusiveMaximum, Kw::MultipleOf]);
const STRING: u64 = Kw::set(&[Kw::MinLength, Kw::MaxLength, Kw::Pattern, Kw::Format]);
const ARRAY: u64 = Kw::set(&[
    Kw::MinItems,
    Kw::MaxItems,
    Kw::UniqueItems,
    Kw::PrefixItems,
    Kw::Items,
    Kw::AdditionalItems,
    Kw::Contains,
    Kw::MinContains,
    Kw::MaxContains,
    Kw::UnevaluatedItems,
]);
const OBJECT: u64 = Kw::set(&[
    Kw::Properties,
    Kw::Required,
    Kw::DependentRequired,
    Kw::DependentSchemas,
    Kw::Dependencies,
    Kw::PatternProperties,
    Kw::AdditionalProperties,
    Kw::PropertyNames,
    Kw::UnevaluatedProperties,
    Kw::MinProperties,
    Kw::MaxProperties,
]);
const COMBINATORS: u64 = Kw::set(&[Kw::AllOf, Kw::AnyOf, Kw::OneOf, Kw::Not, Kw::If, Kw::Then, Kw::Else]);
const CONTENT: u64 = Kw::set(&[Kw::ContentEncoding, Kw::ContentMediaType, Kw::ContentSchema]);
const DYNAMIC_REFS: u64 = Kw::set(&[Kw::DynamicRef, Kw::RecursiveRef]);

/// The keywords of one schema object that are in force in its dialect.
pub(super) struct Keywords<'a, 'i> {
    table: KeywordTable<'a>,
    /// The keywords present that apply in the dialect, as a set.
    active: u64,
    pub(super) info: &'i SchemaInfo,
}

impl<'a, 'i> Keywords<'a, 'i> {
    pub(super) fn new(obj: &'a Map<String, Value>, info: &'i SchemaInfo) -> Self {
        let table = KeywordTable::of(obj);
        let active = table.present().filter(|kw| Lowerer::active(info.dialect, *kw)).fold(0, |set, kw| set | kw.bit());
        Keywords { table, active, info }
    }

    pub(super) fn get(&self, kw: Kw) -> Option<&'a Value> {
        if self.active & kw.bit() != 0 { self.table.get(kw) } else { None }
    }

    /// Whether one keyword of `set` is in force.
    fn any(&self, set: u64) -> bool {
        self.active & set != 0
    }
    pub(super) fn draft(&self) -> Draft {
        self.info.dialect.draft
    }
}

fn invalid(at: String, keyword: &str, expected: &'static str) -> CompileError {
    CompileError::new(CompileErrorKind::InvalidKeyword { keyword: keyword.to_string(), expected }, at)
}

fn as_num(v: &Value) -> Option<Num> {
    match v {
        Value::Number(n) => Some(Num::from_json(n)),
        _ => None,
    }
}

/// A non-negative integer (`2.0` counts; huge values saturate).
fn as_count(v: &Value) -> Option<u64> {
    as_num(v)?.as_count()
}

impl<'a> Lowerer<'a, '_> {
    /// Appends the instructions of one schema; returns the node's flags.
    /// Also records the node's static annotations.
    pub(super) fn lower(&mut self, id: NodeId, value: &'a Value, info: &SchemaInfo) -> Result<NodeFlags, CompileError> {
        let start = self.code.len();
        let obj = match value {
            Value::Bool(true) => return Ok(NodeFlags::ALWAYS_VALID),
            Value::Bool(false) => {
                self.code.push(Instr::Fail);
                return Ok(NodeFlags::ALWAYS_INVALID);
            }
            Value::Object(obj) => obj,
            _ => {
                return Err(invalid(self.registry.location(info), "(schema)", "a schema: an object or a boolean"));
            }
        };
        let k = Keywords::new(obj, info);
        let mut flags = NodeFlags::default();
        if k.draft().ref_overrides_siblings() {
            if let Some(r) = k.get(Kw::Ref) {
                self.lower_ref(&k, r)?;
                return Ok(flags);
            }
        }
        self.lower_type(&k)?;
        self.lower_const_enum(&k)?;
        self.lower_number(&k)?;
        self.lower_string(&k)?;
        let in_place = k.any(IN_PLACE);
        let unevaluated_items = self.lower_array(&k, in_place)?;
        let unevaluated_props = self.lower_object(&k, in_place)?;
        self.lower_combinators(&k)?;
        if !k.draft().ref_overrides_siblings() {
            if let Some(r) = k.get(Kw::Ref) {
                self.lower_ref(&k, r)?;
            }
        }
        self.lower_dynamic_refs(&k)?;
        self.lower_content(&k)?;
        if let Some(node) = unevaluated_items {
            flags.insert(NodeFlags::TRACKS_ITEMS);
            self.code.push(Instr::UnevaluatedItems(node));
        }
        let tracked = match unevaluated_props {
            Unevaluated::None => None,
            Unevaluated::Tracked(node) => {
                flags.insert(NodeFlags::TRACKS_PROPERTIES);
                self.code.push(Instr::UnevaluatedProperties(node));
                None
            }
            Unevaluated::Static { node, quiet, tracked } => {
                let code = self.code.get(start..).unwrap_or_default();
                let mut twin: Vec<Instr> = code
                    .iter()
                    .filter_map(|instr| match *instr {
                        Instr::Object(o) if Some(o) == quiet => tracked.map(Instr::Object),
                        other => Some(other),
                    })
                    .collect();
                twin.push(Instr::UnevaluatedProperties(node));
                Some(twin)
            }
        };
        self.fuse_type(start);
        if let Some(twin) = tracked {
            // Fused the same way, in place at the end of the code, then
            // set aside until the program is built.
            let at = self.code.len();
            self.code.extend(twin);
            self.fuse_type(at);
            let twin = self.code.split_off(at);
            self.tracked.push((id, twin));
        }
        self.collect_annotations(id, obj, &k.table, info);
        Ok(flags)
    }

    /// Folds a `type` naming one kind into that kind's fused instruction
    /// (`{"type": "array", "minItems": 2}` becomes one instruction that
    /// also rejects non-arrays), or any `type` into an `enum` that follows
    /// it (`{"type": "string", "enum": [...]}`), saving a dispatch per
    /// evaluation.
    fn fuse_type(&mut self, start: usize) {
        let Some(code) = self.code.get(start..) else { return };
        let Some((pos, types)) = code.iter().enumerate().find_map(|(i, instr)| match instr {
            Instr::Type(t) => Some((i, *t)),
            _ => None,
        }) else {
            return;
        };
        let numbers = TypeSet::single(JsonType::Number).with(JsonType::Integer);
        let fused = code.iter().find_map(|instr| {
            let slot = match *instr {
                Instr::Array(x) if types == TypeSet::single(JsonType::Array) => {
                    &mut self.arrays.get_mut(x.index())?.type_fused
                }
                Instr::Object(x) if types == TypeSet::single(JsonType::Object) => {
                    &mut self.objects.get_mut(x.index())?.type_fused
                }
                Instr::String(x) if types == TypeSet::single(JsonType::String) => {
                    &mut self.strings.get_mut(x.index())?.type_fused
                }
                Instr::Number(x) if types == numbers => &mut self.numbers.get_mut(x.index())?.type_fused,
                _ => return None,
            };
            *slot = Some(types);
            Some(())
        });
        // Else any `type` into the instruction right after it (the type
        // error, if any, then comes first, as before): an `enum`, or the
        // instruction of a kind the type has (`{"type": "integer",
        // "minimum": 1}`, `{"type": ["string", "null"], "maxLength": 9}`).
        let fused = fused.or_else(|| {
            let slot = match *code.get(pos + 1)? {
                Instr::Enum(e) => &mut self.enums.get_mut(e.index())?.type_fused,
                Instr::Number(x) if types.contains(JsonType::Number) || types.contains(JsonType::Integer) => {
                    let c = self.numbers.get_mut(x.index())?;
                    c.integers_only = !types.contains(JsonType::Number);
                    &mut c.type_fused
                }
                Instr::String(x) if types.contains(JsonType::String) => {
                    &mut self.strings.get_mut(x.index())?.type_fused
                }
                Instr::Array(x) if types.contains(JsonType::Array) => &mut self.arrays.get_mut(x.index())?.type_fused,
                Instr::Object(x) if types.contains(JsonType::Object) => {
                    &mut self.objects.get_mut(x.index())?.type_fused
                }
                _ => return None,
            };
            *slot = Some(types);
            Some(())
        });
        if fused.is_some() {
            self.code.remove(start + pos);
        }
    }

    /// A `$ref`: its target's node, resolved once per (resource,
    /// reference) however many schemas repeat it.
    fn lower_ref(&mut self, k: &Keywords<'a, '_>, r: &'a Value) -> Result<(), CompileError> {
        let id = match r {
            Value::String(reference) => {
                let (value, info) = self.ref_target(k.info, reference, true)?;
                self.node(Target { value, info, dynamic_anchor: None })?
            }
            _ => return Err(invalid(self.at(k.info, "$ref"), "$ref", "a URI reference string")),
        };
        self.code.push(Instr::Ref(id));
        Ok(())
    }

    /// The schema `$ref` string `reference` of the subschema `info`
    /// resolves to, resolved once per (resource, reference) for lowering
    /// and [`super::closure`]'s walks. Its errors name the keyword's
    /// location if `located` (else none: the walks drop them).
    pub(super) fn ref_target(
        &mut self,
        info: &SchemaInfo,
        reference: &'a str,
        located: bool,
    ) -> Result<(&'a Value, SchemaInfo), CompileError> {
        let key = (info.resource, reference);
        if let Some(target) = self.ref_targets.get(&key) {
            return Ok(*target);
        }
        let at = if located { self.at(info, "$ref") } else { String::new() };
        let target = self.registry.resolve(info.resource, reference, &at)?;
        self.ref_targets.insert(key, (target.value, target.info));
        Ok((target.value, target.info))
    }

    fn lower_dynamic_refs(&mut self, k: &Keywords<'a, '_>) -> Result<(), CompileError> {
        if !k.any(DYNAMIC_REFS) {
            return Ok(());
        }
        if let Some(r) = k.get(Kw::DynamicRef) {
            let at = self.at(k.info, "$dynamicRef");
            let Value::String(reference) = r else {
                return Err(invalid(at, "$dynamicRef", "a URI reference string"));
            };
            let target = self.registry.resolve(k.info.resource, reference, &at)?;
            let anchor = target.dynamic_anchor.clone();
            // The root's resource is the outermost of every dynamic scope:
            // if it defines the anchor, the target is static.
            let outermost = anchor.as_deref().and_then(|name| self.registry.dynamic_anchor(self.root_resource, name));
            let fallback = self.node(target)?;
            match (anchor, outermost) {
                (Some(_), Some(outermost)) => {
                    let id = self.node(outermost)?;
                    self.code.push(Instr::Ref(id));
                }
                (Some(name), None) => {
                    self.dynamic_names.insert(name.clone());
                    self.push_dynamic_ref(Some(name), fallback, "$dynamicRef")?;
                }
                (None, _) => self.code.push(Instr::Ref(fallback)),
            }
        }
        if let Some(r) = k.get(Kw::RecursiveRef) {
            let at = self.at(k.info, "$recursiveRef");
            let Value::String(reference) = r else {
                return Err(invalid(at, "$recursiveRef", "a URI reference string"));
            };
            let target: Target<'a> = self.registry.resolve(k.info.resource, reference, &at)?;
            let recursive = target.info.pointer.is_empty()
                && self.registry.resource(target.info.resource).is_some_and(|r| r.recursive_anchor);
            let fallback = self.node(target)?;
            let outermost = self
                .registry
                .resource(self.root_resource)
                .filter(|r| recursive && r.recursive_anchor)
                .and_then(|_| self.registry.resource_root(self.root_resource));
            match outermost {
                Some(root) => {
                    let id = self.node(root)?;
                    self.code.push(Instr::Ref(id));
                }
                None if recursive => {
                    self.uses_recursive_ref = true;
                    self.push_dynamic_ref(None, fallback, "$recursiveRef")?;
                }
                None => self.code.push(Instr::Ref(fallback)),
            }
        }
        Ok(())
    }

    fn push_dynamic_ref(
        &mut self,
        anchor: Option<String>,
        fallback: NodeId,
        keyword: &'static str,
    ) -> Result<(), CompileError> {
        let id = DynamicRefId(u32::try_from(self.dynamic_refs.len()).map_err(|_| internal("dynamic refs"))?);
        self.dynamic_refs.push(DynamicRef { anchor: anchor.map(String::into_boxed_str), fallback, keyword });
        self.code.push(Instr::DynamicRef(id));
        Ok(())
    }

    fn lower_type(&mut self, k: &Keywords<'a, '_>) -> Result<(), CompileError> {
        let Some(t) = k.get(Kw::Type) else {
            return Ok(());
        };
        let at = || self.at(k.info, "type");
        let expected = "a type name (null, boolean, integer, number, string, array, object) or an array of them";
        let mut set = TypeSet::EMPTY;
        match t {
            Value::String(name) => {
                set = set.with(JsonType::from_name(name).ok_or_else(|| invalid(at(), "type", expected))?);
            }
            Value::Array(names) => {
                for name in names {
                    let t =
                        name.as_str().and_then(JsonType::from_name).ok_or_else(|| invalid(at(), "type", expected))?;
                    set = set.with(t);
                }
            }
            _ => return Err(invalid(at(), "type", expected)),
        }
        if set.contains(JsonType::Number) {
            set = set.with(JsonType::Integer);
        }
        self.code.push(Instr::Type(set));
        Ok(())
    }

    /// Rejects a `const`/`enum` value (keyword `kw` of subschema `info`)
    /// over the size or depth limits (before it is cloned, which recurses).
    fn check_constant(&mut self, v: &Value, info: &SchemaInfo, kw: &str) -> Result<(), CompileError> {
        let limits = &self.options.limits;
        let depth = value::depth_at_most(v, limits.max_schema_depth);
        if depth > limits.max_schema_depth {
            return Err(CompileError::new(
                CompileErrorKind::LimitExceeded {
                    limit: "max_schema_depth",
                    bound: depth as u64,
                    max: limits.max_schema_depth as u64,
                },
                self.at(info, kw),
            ));
        }
        let remaining = limits.max_const_size.saturating_sub(self.const_size);
        let size = value::size_at_most(v, remaining);
        self.const_size = self.const_size.saturating_add(size);
        if size > remaining {
            return Err(CompileError::new(
                CompileErrorKind::LimitExceeded {
                    limit: "max_const_size",
                    bound: self.const_size as u64,
                    max: limits.max_const_size as u64,
                },
                self.at(info, kw),
            ));
        }
        Ok(())
    }

    fn lower_const_enum(&mut self, k: &Keywords<'a, '_>) -> Result<(), CompileError> {
        if let Some(c) = k.get(Kw::Const) {
            self.check_constant(c, k.info, "const")?;
            let id = ValueId(u32::try_from(self.values.len()).map_err(|_| internal("values"))?);
            self.values.push(c.clone());
            self.code.push(Instr::Const(id));
        }
        if let Some(e) = k.get(Kw::Enum) {
            let Value::Array(items) = e else {
                return Err(invalid(self.at(k.info, "enum"), "enum", "an array of values"));
            };
            let max = self.options.limits.max_enum_values;
            if items.len() > max {
                return Err(CompileError::new(
                    CompileErrorKind::LimitExceeded {
                        limit: "max_enum_values",
                        bound: items.len() as u64,
                        max: max as u64,
                    },
                    self.at(k.info, "enum"),
                ));
            }
            self.check_constant(e, k.info, "enum")?;
            let id = EnumId(u32::try_from(self.enums.len()).map_err(|_| internal("enums"))?);
            self.enums.push(EnumSet::new(items.clone()));
            self.code.push(Instr::Enum(id));
        }
        Ok(())
    }

    fn lower_number(&mut self, k: &Keywords<'a, '_>) -> Result<(), CompileError> {
        if !k.any(NUMBER) {
            return Ok(());
        }
        let mut c = NumberChecks::default();
        let num = |kw: Kw| -> Result<Option<Num>, CompileError> {
            match k.get(kw) {
                None => Ok(None),
                Some(v) => {
                    as_num(v).map(Some).ok_or_else(|| invalid(self.at(k.info, kw.name()), kw.name(), "a number"))
                }
            }
        };
        let mut minimum = num(Kw::Minimum)?;
        let mut maximum = num(Kw::Maximum)?;
        let (exclusive_minimum, exclusive_maximum) = if k.draft() == Draft::Draft4 {
            let flag = |kw: Kw| -> Result<bool, CompileError> {
                match k.get(kw) {
                    None => Ok(false),
                    Some(Value::Bool(b)) => Ok(*b),
                    Some(_) => Err(invalid(self.at(k.info, kw.name()), kw.name(), "a boolean (draft-04)")),
                }
            };
            let exclusive_minimum = if flag(Kw::ExclusiveMinimum)? { minimum.take() } else { None };
            let exclusive_maximum = if flag(Kw::ExclusiveMaximum)? { maximum.take() } else { None };
            c.draft4_exclusive = exclusive_minimum.is_some() || exclusive_maximum.is_some();
            (exclusive_minimum, exclusive_maximum)
        } else {
            (num(Kw::ExclusiveMinimum)?, num(Kw::ExclusiveMaximum)?)
        };
        let multiple_of = num(Kw::MultipleOf)?;
        if let Some(m) = &multiple_of {
            if m.compare(&Num::Int(0)).is_le() {
                return Err(invalid(self.at(k.info, "multipleOf"), "multipleOf", "a number greater than 0"));
            }
            if m.significant_digits() > crate::number::MAX_DIVISOR_DIGITS {
                return Err(invalid(
                    self.at(k.info, "multipleOf"),
                    "multipleOf",
                    "a number with at most 37 significant digits",
                ));
            }
        }
        let values = [minimum, exclusive_minimum, maximum, exclusive_maximum, multiple_of];
        for (keyword, value) in NumberKeyword::ALL.into_iter().zip(values) {
            if value.is_some() {
                c.set(keyword, value);
            }
        }
        if !c.keywords().is_empty() {
            let id = NumberId(u32::try_from(self.numbers.len()).map_err(|_| internal("numbers"))?);
            c.seal();
            self.numbers.push(c);
            self.code.push(Instr::Number(id));
        }
        Ok(())
    }

    fn count(&self, k: &Keywords<'a, '_>, kw: Kw) -> Result<Option<u64>, CompileError> {
        match k.get(kw) {
            None => Ok(None),
            Some(v) => as_count(v)
                .map(Some)
                .ok_or_else(|| invalid(self.at(k.info, kw.name()), kw.name(), "a non-negative integer")),
        }
    }

    fn lower_string(&mut self, k: &Keywords<'a, '_>) -> Result<(), CompileError> {
        if !k.any(STRING) {
            return Ok(());
        }
        let mut c = StringChecks {
            min_length: self.count(k, Kw::MinLength)?,
            max_length: self.count(k, Kw::MaxLength)?,
            ..Default::default()
        };
        if let Some(p) = k.get(Kw::Pattern) {
            let Value::String(pattern) = p else {
                return Err(invalid(self.at(k.info, "pattern"), "pattern", "a regular expression string"));
            };
            c.pattern = Some(self.regex(pattern, k.info, &["pattern"])?);
        }
        if let Some(f) = k.get(Kw::Format) {
            let Value::String(name) = f else {
                return Err(invalid(self.at(k.info, "format"), "format", "a format name string"));
            };
            let vocab = k.info.dialect.vocab;
            let asserted = vocab.contains(crate::draft::Vocabularies::FORMAT_ASSERTION)
                || self.options.assert_formats.unwrap_or(k.draft() <= Draft::Draft7);
            let custom = self.options.custom_formats.iter().position(|n| n == name);
            let check = match (custom, Format::from_name(name)) {
                (Some(i), _) => {
                    let index = u32::try_from(i).map_err(|_| internal("formats"))?;
                    Some(FormatCheck::Custom(Box::new(CustomFormat { index, name: name.as_str().into() })))
                }
                (None, Some(f)) => Some(FormatCheck::Builtin(f)),
                (None, None) if self.options.strict_formats => {
                    let at = self.at(k.info, "format");
                    return Err(CompileError::new(CompileErrorKind::UnknownFormat { name: name.clone() }, at));
                }
                (None, None) => None,
            };
            if asserted {
                c.format = check;
            }
        }
        if c.min_length.is_some() || c.max_length.is_some() || c.pattern.is_some() || c.format.is_some() {
            let id = StringId(u32::try_from(self.strings.len()).map_err(|_| internal("strings"))?);
            self.strings.push(c);
            self.code.push(Instr::String(id));
        }
        Ok(())
    }

    fn schema_list(&mut self, k: &Keywords<'a, '_>, kw: Kw) -> Result<Option<Vec<NodeId>>, CompileError> {
        let Some(v) = k.get(kw) else { return Ok(None) };
        let Value::Array(items) = v else {
            return Err(invalid(self.at(k.info, kw.name()), kw.name(), "an array of schemas"));
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            out.push(self.schema_at(k, &[kw.name(), crate::pointer::IndexToken::new(i).as_str()], item)?);
        }
        Ok(Some(out))
    }

    fn schema_at(&mut self, k: &Keywords<'a, '_>, path: &[&str], v: &'a Value) -> Result<NodeId, CompileError> {
        if !(v.is_object() || v.is_boolean()) {
            let mut at = self.registry.location(k.info);
            for p in path {
                crate::pointer::push(&mut at, p);
            }
            return Err(invalid(at, path.first().copied().unwrap_or(""), "a schema: an object or a boolean"));
        }
        self.child(k.info, path, v)
    }

    fn schema(&mut self, k: &Keywords<'a, '_>, kw: Kw) -> Result<Option<NodeId>, CompileError> {
        match k.get(kw) {
            None => Ok(None),
            Some(v) => self.schema_at(k, &[kw.name()], v).map(Some),
        }
    }

    /// The subschema for undeclared properties (`additionalProperties`,
    /// `unevaluatedProperties`), left out when
    /// [`CompileOptions::allow_undeclared_properties`](crate::CompileOptions)
    /// is set and it rejects every value.
    fn rest_schema(&mut self, k: &Keywords<'a, '_>, kw: Kw) -> Result<Option<NodeId>, CompileError> {
        if self.options.allow_undeclared_properties && k.get(kw).is_some_and(rejects_all) {
            return Ok(None);
        }
        self.schema(k, kw)
    }

    /// Lowers array keywords; returns the `unevaluatedItems` node when it
    /// must be tracked at run time.
    fn lower_array(&mut self, k: &Keywords<'a, '_>, in_place: bool) -> Result<Option<NodeId>, CompileError> {
        if !k.any(ARRAY) {
            return Ok(None);
        }
        let mut c = ArrayChecks {
            min_items: self.count(k, Kw::MinItems)?,
            max_items: self.count(k, Kw::MaxItems)?,
            prefix_keyword: "prefixItems",
            rest_keyword: "items",
            ..Default::default()
        };
        c.unique_items = match k.get(Kw::UniqueItems) {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                return Err(invalid(self.at(k.info, "uniqueItems"), "uniqueItems", "a boolean"));
            }
        };
        if k.draft() >= Draft::Draft202012 {
            if let Some(prefix) = self.schema_list(k, Kw::PrefixItems)? {
                c.prefix = prefix.into_boxed_slice();
            }
            c.rest = self.schema(k, Kw::Items)?;
        } else {
            match k.get(Kw::Items) {
                Some(Value::Array(_)) => {
                    c.prefix = self.schema_list(k, Kw::Items)?.unwrap_or_default().into_boxed_slice();
                    c.prefix_keyword = "items";
                    c.rest = self.schema(k, Kw::AdditionalItems)?;
                    c.rest_keyword = "additionalItems";
                }
                Some(_) => c.rest = self.schema(k, Kw::Items)?,
                None => {}
            }
        }
        if let Some(node) = self.schema(k, Kw::Contains)? {
            let since_2019 = k.draft() >= Draft::Draft201909;
            let min = if since_2019 { self.count(k, Kw::MinContains)?.unwrap_or(1) } else { 1 };
            let max = if since_2019 { self.count(k, Kw::MaxContains)? } else { None };
            c.contains = Some(Contains { node, min, max, annotates: k.draft() >= Draft::Draft202012 });
        }
        let mut tracked = None;
        if let Some(node) = self.schema(k, Kw::UnevaluatedItems)? {
            let contains_annotates = c.contains.is_some_and(|c| c.annotates);
            if in_place || contains_annotates {
                tracked = Some(node);
            } else if c.rest.is_none() {
                c.rest = Some(node);
                c.rest_keyword = "unevaluatedItems";
            }
        }
        let used = c.min_items.is_some()
            || c.max_items.is_some()
            || c.unique_items
            || !c.prefix.is_empty()
            || c.rest.is_some()
            || c.contains.is_some();
        if used {
            let id = ArrayId(u32::try_from(self.arrays.len()).map_err(|_| internal("arrays"))?);
            self.arrays.push(c);
            self.code.push(Instr::Array(id));
        }
        Ok(tracked)
    }

    /// Lowers object keywords; returns what `unevaluatedProperties`
    /// leaves for the end of the node.
    fn lower_object(&mut self, k: &Keywords<'a, '_>, in_place: bool) -> Result<Unevaluated, CompileError> {
        if !k.any(OBJECT) {
            return Ok(Unevaluated::None);
        }
        let mut table = EntryTable::default();
        if let Some(props) = k.get(Kw::Properties) {
            let Value::Object(map) = props else {
                return Err(invalid(self.at(k.info, "properties"), "properties", "an object of schemas"));
            };
            table.reserve(map.len());
            for (name, schema) in map {
                let node = self.schema_at(k, &["properties", name], schema)?;
                let i = table.index(name);
                if let Some(e) = table.entries.get_mut(i as usize) {
                    e.schema = Some(node);
                }
            }
        }
        let mut required = Vec::new();
        if let Some(req) = k.get(Kw::Required) {
            let names = string_list(req)
                .ok_or_else(|| invalid(self.at(k.info, "required"), "required", "an array of property names"))?;
            required.reserve_exact(names.len());
            for name in names {
                let e = table.index(name);
                if let Some(entry) = table.entries.get_mut(e as usize) {
                    if !entry.required {
                        entry.required = true;
                        required.push(e);
                    }
                }
            }
        }
        let mut dependents = Vec::new();
        for kw in [Kw::DependentRequired, Kw::DependentSchemas, Kw::Dependencies] {
            let Some(deps) = k.get(kw) else { continue };
            let kw = kw.name();
            let Value::Object(map) = deps else {
                return Err(invalid(self.at(k.info, kw), kw, "an object"));
            };
            for (name, dep) in map {
                let trigger = table.index(name);
                // A trigger's first dependency boxes its `dependencies` (a
                // search of `dependents` per trigger was quadratic).
                let new_trigger = table.entries.get(trigger as usize).is_some_and(|e| e.dependencies.is_none());
                match dep {
                    Value::Array(_) if kw != "dependentSchemas" => {
                        let names = string_list(dep)
                            .ok_or_else(|| invalid(self.at(k.info, kw), kw, "arrays of property names"))?;
                        let indices: Vec<u32> = names.into_iter().map(|n| table.index(n)).collect();
                        if let Some(e) = table.entries.get_mut(trigger as usize) {
                            let d = e.dependencies.get_or_insert_default();
                            d.required = d.required.iter().copied().chain(indices).collect();
                        }
                    }
                    Value::Object(_) | Value::Bool(_) if kw != "dependentRequired" => {
                        let node = self.schema_at(k, &[kw, name], dep)?;
                        if let Some(e) = table.entries.get_mut(trigger as usize) {
                            let d = e.dependencies.get_or_insert_default();
                            d.schemas = d.schemas.iter().copied().chain([node]).collect();
                        }
                    }
                    _ => {
                        let expected = match kw {
                            "dependentRequired" => "arrays of property names",
                            "dependentSchemas" => "schemas",
                            _ => "arrays of property names or schemas",
                        };
                        return Err(invalid(self.at(k.info, kw), kw, expected));
                    }
                }
                if new_trigger {
                    dependents.push(trigger);
                }
            }
        }
        let mut patterns = Vec::new();
        if let Some(pp) = k.get(Kw::PatternProperties) {
            let Value::Object(map) = pp else {
                return Err(invalid(self.at(k.info, "patternProperties"), "patternProperties", "an object of schemas"));
            };
            for (pattern, schema) in map {
                let regex = self.regex(pattern, k.info, &["patternProperties", pattern])?;
                let node = self.schema_at(k, &["patternProperties", pattern], schema)?;
                patterns.push((regex, node));
            }
        }
        let static_patterns = self.match_names_statically(&mut table, &patterns);
        let mut additional = self.rest_schema(k, Kw::AdditionalProperties)?;
        let mut additional_unevaluated = false;
        let property_names = self.schema(k, Kw::PropertyNames)?;
        let mut unevaluated = self.rest_schema(k, Kw::UnevaluatedProperties)?;
        if let (Some(node), false) = (unevaluated, in_place) {
            // Without in-place subschemas, only this schema's keywords
            // evaluate properties.
            if additional.is_none() {
                additional = Some(node);
                additional_unevaluated = true;
            }
            unevaluated = None;
        }
        let parts = ObjectParts {
            table,
            required,
            dependents,
            patterns,
            static_patterns,
            additional,
            additional_unevaluated,
            property_names,
            min_properties: self.count(k, Kw::MinProperties)?,
            max_properties: self.count(k, Kw::MaxProperties)?,
        };
        let Some(node) = unevaluated else {
            self.append_object(parts, true)?;
            return Ok(Unevaluated::None);
        };
        let Some(closure) = self.evaluated_closure(k) else {
            self.append_object(parts, true)?;
            return Ok(Unevaluated::Tracked(node));
        };
        // With an `additionalProperties` of its own, or one in the closure,
        // the schema evaluates every property wherever it passes:
        // `unevaluatedProperties` has nothing left to check, and both codes
        // share the object instruction.
        if parts.additional.is_some() || closure.all {
            let shared = self.append_object(parts, true)?;
            return Ok(Unevaluated::Static { node, quiet: shared, tracked: shared });
        }
        let mut quiet = parts.clone();
        let evaluated = self.node(Target { value: &EVALUATED, info: *k.info, dynamic_anchor: None })?;
        quiet.table.reserve(closure.names.len());
        for name in closure.names {
            let i = quiet.table.index(name);
            if let Some(entry) = quiet.table.entries.get_mut(i as usize) {
                entry.schema.get_or_insert(evaluated);
            }
        }
        quiet.patterns.extend(closure.patterns.into_iter().map(|(_, regex)| (regex, evaluated)));
        quiet.static_patterns = self.match_names_statically(&mut quiet.table, &quiet.patterns);
        quiet.additional = Some(node);
        quiet.additional_unevaluated = true;
        let tracked = self.push_object_checks(parts, true)?;
        let quiet = self.append_object(quiet, false)?;
        Ok(Unevaluated::Static { node, quiet, tracked })
    }

    /// [`Lowerer::push_object_checks`], and the instruction appended to the
    /// node's code.
    fn append_object(&mut self, parts: ObjectParts<'a>, reported: bool) -> Result<Option<ObjectId>, CompileError> {
        let id = self.push_object_checks(parts, reported)?;
        if let Some(id) = id {
            self.code.push(Instr::Object(id));
        }
        Ok(id)
    }

    /// Builds the object instruction's operands from `parts`, unless they
    /// check nothing. `reported`: errors may come from them (not so for
    /// the boolean path's object of a static `unevaluatedProperties`, which
    /// then keeps no list of declared names for messages).
    fn push_object_checks(&mut self, p: ObjectParts<'a>, reported: bool) -> Result<Option<ObjectId>, CompileError> {
        let scans = p.table.entries.iter().any(|e| e.schema.is_some())
            || !p.patterns.is_empty()
            || p.additional.is_some()
            || p.property_names.is_some();
        let used = scans
            || !p.required.is_empty()
            || !p.dependents.is_empty()
            || p.min_properties.is_some()
            || p.max_properties.is_some();
        if !used {
            return Ok(None);
        }
        let id = ObjectId(u32::try_from(self.objects.len()).map_err(|_| internal("objects"))?);
        let names = p.table.names.table();
        // Listed only where a property can be unknown (`additional`),
        // and then by the first error that lists them.
        let lists_declared = reported && p.additional.is_some() && p.table.entries.iter().any(|e| e.schema.is_some());
        let mut checks = ObjectChecks {
            type_fused: None,
            names,
            entries: p.table.entries.into_boxed_slice(),
            required: p.required.into_boxed_slice(),
            // The nodes as they are, until the node entries say which
            // ones only forward (`analysis::set_entries`).
            patterns: p
                .patterns
                .into_iter()
                .map(|(regex, node)| PatternProperty { regex, node, quick: node })
                .collect(),
            static_patterns: p.static_patterns,
            additional_quick: p.additional.unwrap_or_default(),
            additional: p.additional,
            additional_check: QuickCheck::Deferred,
            additional_unevaluated: p.additional_unevaluated,
            property_names: p.property_names,
            extras: ObjectExtras {
                dependents: p.dependents.into_boxed_slice(),
                lists_declared,
                declared: std::sync::OnceLock::new(),
                min_properties: p.min_properties.unwrap_or(0),
                max_properties: p.max_properties.unwrap_or(u64::MAX),
            }
            .boxed(),
            scans,
            quiet_scan: scans,
            passing_sizes: (0, u64::MAX),
        };
        checks.summarize_entries();
        self.objects.push(checks);
        Ok(Some(id))
    }

    fn lower_combinators(&mut self, k: &Keywords<'a, '_>) -> Result<(), CompileError> {
        if !k.any(COMBINATORS) {
            return Ok(());
        }
        for (kw, make) in
            [(Kw::AllOf, Instr::AllOf as fn(ListId) -> Instr), (Kw::AnyOf, Instr::AnyOf), (Kw::OneOf, Instr::OneOf)]
        {
            if let Some(list) = self.schema_list(k, kw)? {
                if list.is_empty() {
                    return Err(invalid(self.at(k.info, kw.name()), kw.name(), "a non-empty array of schemas"));
                }
                let id = self.push_list(list)?;
                self.code.push(make(id));
            }
        }
        if let Some(node) = self.schema(k, Kw::Not)? {
            self.code.push(Instr::Not(node));
        }
        if let Some(test) = self.schema(k, Kw::If)? {
            let then = self.schema(k, Kw::Then)?;
            let otherwise = self.schema(k, Kw::Else)?;
            let id = CondId(u32::try_from(self.conds.len()).map_err(|_| internal("conds"))?);
            self.conds.push(Cond { test, then, otherwise });
            self.code.push(Instr::Cond(id));
        }
        Ok(())
    }

    fn lower_content(&mut self, k: &Keywords<'a, '_>) -> Result<(), CompileError> {
        if !k.any(CONTENT) {
            return Ok(());
        }
        let asserted = self.options.assert_content.unwrap_or(k.draft() == Draft::Draft7);
        if !asserted {
            return Ok(());
        }
        let mut c = ContentChecks::default();
        if let Some(Value::String(enc)) = k.get(Kw::ContentEncoding) {
            c.base64 = enc.eq_ignore_ascii_case("base64");
        }
        if let Some(Value::String(media)) = k.get(Kw::ContentMediaType) {
            let essence = media.split(';').next().unwrap_or("").trim();
            c.json = essence.eq_ignore_ascii_case("application/json");
            if c.json {
                c.schema = self.schema(k, Kw::ContentSchema)?;
            }
        }
        if c.base64 || c.json {
            let id = ContentId(u32::try_from(self.contents.len()).map_err(|_| internal("contents"))?);
            self.contents.push(c);
            self.code.push(Instr::Content(id));
        }
        Ok(())
    }
}

/// Whether a subschema rejects every instance on its face: `false`, or
/// `{"not": {}}`/`{"not": true}` (without a `$ref` that older dialects
/// would let override the `not`).
fn rejects_all(schema: &Value) -> bool {
    match schema {
        Value::Bool(b) => !b,
        Value::Object(obj) => {
            !obj.contains_key("$ref")
                && match obj.get("not") {
                    Some(Value::Bool(b)) => *b,
                    Some(Value::Object(not)) => not.is_empty(),
                    _ => false,
                }
        }
        _ => false,
    }
}

fn string_list(v: &Value) -> Option<Vec<&str>> {
    match v {
        Value::Array(items) => items.iter().map(Value::as_str).collect(),
        _ => None,
    }
}

/// Property names in first-mention order, with their entries.
#[derive(Default, Clone)]
struct EntryTable<'a> {
    names: Names<'a>,
    entries: Vec<PropertyEntry>,
}

/// The pieces of an object instruction's operands, as
/// [`Lowerer::lower_object`] gathers them.
#[derive(Clone)]
struct ObjectParts<'a> {
    table: EntryTable<'a>,
    required: Vec<u32>,
    dependents: Vec<u32>,
    patterns: Vec<(Arc<Regex>, NodeId)>,
    static_patterns: bool,
    additional: Option<NodeId>,
    additional_unevaluated: bool,
    property_names: Option<NodeId>,
    min_properties: Option<u64>,
    max_properties: Option<u64>,
}

/// What `unevaluatedProperties` leaves for the end of its node
/// ([`Lowerer::lower_object`]).
enum Unevaluated {
    /// Nothing: there is none, or it is checked as `additionalProperties`
    /// would be (no subschema applies in place).
    None,
    /// The node tracks evaluated properties; the keyword's node.
    Tracked(NodeId),
    /// Resolved statically for the boolean path (see [`super::closure`]):
    /// the node's object instruction is `quiet`'s (checking the names and
    /// patterns of the in-place closure too); its tracked code has
    /// `tracked`'s instead (the same one where the keyword has nothing to
    /// check) and ends with the keyword's `node`.
    Static { node: NodeId, quiet: Option<ObjectId>, tracked: Option<ObjectId> },
}

/// The subschema standing for the properties an in-place subschema
/// evaluates, in a node's static `unevaluatedProperties`: every value
/// passes it (the subschema itself checks the value). One node for the
/// program, placed (for `explain`) at the first schema that needed it;
/// it never fails, so no error names it.
static EVALUATED: Value = Value::Bool(true);

/// Most regex matches [`Lowerer::match_names_statically`] runs for one
/// object (names × patterns); beyond it names are matched at run time.
const STATIC_MATCHES_MAX: usize = 4096;

impl Lowerer<'_, '_> {
    /// Matches every name of `table` against `patterns` now, so that the
    /// VM need not match a name the schema mentions. Returns false (and
    /// leaves the entries alone) when that is too much work or a pattern
    /// cannot decide within its limits.
    fn match_names_statically(&self, table: &mut EntryTable<'_>, patterns: &[(Arc<Regex>, NodeId)]) -> bool {
        if patterns.is_empty() {
            return true;
        }
        if table.names.len().saturating_mul(patterns.len()) > STATIC_MATCHES_MAX {
            return false;
        }
        let mut matches = Vec::with_capacity(table.names.len());
        for name in table.names.iter() {
            let mut hits = Vec::new();
            for (i, (regex, _)) in patterns.iter().enumerate() {
                match regex.is_match(name) {
                    Ok(true) => hits.push(u32::try_from(i).unwrap_or(u32::MAX)),
                    Ok(false) => {}
                    Err(_) => return false,
                }
            }
            matches.push(hits.into_boxed_slice());
        }
        for (entry, hits) in table.entries.iter_mut().zip(matches) {
            entry.patterns = hits;
        }
        true
    }
}

impl<'a> EntryTable<'a> {
    /// Room for `additional` more names.
    fn reserve(&mut self, additional: usize) {
        self.names.reserve(additional);
        self.entries.reserve_exact(additional);
    }

    fn index(&mut self, name: &'a str) -> u32 {
        let (i, new) = self.names.index(name);
        if new {
            self.entries.push(PropertyEntry::default());
        }
        i
    }
}
