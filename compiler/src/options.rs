//! Compiler configuration: dialect defaults, known documents, format and
//! content handling, and the compile-time [`Limits`].

use serde_json::Value;

use crate::draft::Draft;
use crate::regex::RegexLimits;
use crate::retrieve::Retrieval;

/// Compile-time bounds on a schema. A schema over any of them is rejected
/// with [`CompileErrorKind::LimitExceeded`](crate::CompileErrorKind).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Deepest JSON nesting of a schema document (and of any `const` or
    /// `enum` value in it).
    pub max_schema_depth: usize,
    /// Most compiled subschemas (program nodes).
    pub max_nodes: usize,
    /// Most instructions in the program.
    pub max_instructions: usize,
    /// Most node evaluations one instance location may trigger (after
    /// memoization), through `allOf`/`anyOf`/`oneOf`/`not`/`if`/`then`/
    /// `else`/dependent schemas/`$ref`/`$dynamicRef`.
    pub max_fan_out: u64,
    /// Longest chain of in-place applications (`$ref` to `$ref` to
    /// `allOf` ...) at one instance location.
    pub max_ref_hops: u64,
    /// Most steps the compile-time cost analysis may take.
    pub max_analysis_work: u64,
    /// Most values in one `enum`.
    pub max_enum_values: usize,
    /// Most JSON nodes in one `const` or `enum` (all values together).
    pub max_const_size: usize,
    /// Regular-expression limits (per pattern).
    pub regex: RegexLimits,
    /// Most heap bytes held by all of a schema's compiled patterns.
    pub max_regex_memory: usize,
    /// Most bytes of the subschemas' absolute locations together (each
    /// node keeps its `<base URI>#<JSON pointer>`): deep schemas with long
    /// keys would otherwise make this text grow with the square of their
    /// size. At most 4 GiB, whatever this says.
    pub max_location_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_schema_depth: 256,
            max_nodes: 1_000_000,
            max_instructions: 4_000_000,
            max_fan_out: 100_000,
            max_ref_hops: 512,
            max_analysis_work: 50_000_000,
            max_enum_values: 100_000,
            max_const_size: 1_000_000,
            regex: RegexLimits::default(),
            max_regex_memory: 256 << 20,
            max_location_bytes: 256 << 20,
        }
    }
}

/// How to compile a schema.
#[derive(Debug, Clone, Default)]
pub struct CompileOptions {
    /// The dialect of a root schema without `$schema`.
    pub default_draft: Draft,
    /// Assert `format` (`Some(true)`), only annotate it (`Some(false)`),
    /// or follow the dialect: assert up to draft-07, annotate from
    /// 2019-09. The 2020-12 format-assertion vocabulary always asserts.
    pub assert_formats: Option<bool>,
    /// Reject unknown `format` names instead of ignoring them.
    pub strict_formats: bool,
    /// Caller-defined format names, by registration index; they take
    /// precedence over built-in formats of the same name.
    pub custom_formats: Vec<String>,
    /// Assert `contentEncoding`/`contentMediaType`/`contentSchema`
    /// (`Some`), or follow the dialect (asserted in draft-07 only, whose
    /// suite treats them as assertions; annotations otherwise).
    pub assert_content: Option<bool>,
    /// Documents `$ref` may reach, by absolute URI.
    pub resources: Vec<(String, Value)>,
    /// Retrievers for documents that are not registered (none by default:
    /// no I/O).
    pub retrieval: Retrieval,
    /// Compile-time bounds.
    pub limits: Limits,
    /// Accept undeclared properties: an `additionalProperties` or
    /// `unevaluatedProperties` whose subschema rejects every value
    /// (`false`, or `{"not": {}}`/`{"not": true}`) is left out, so a
    /// property that no `properties` key names and no `patternProperties`
    /// pattern matches passes. Everything else is enforced: declared
    /// properties, `required`, a non-trivial `additionalProperties`
    /// schema (a map's value schema: it declares the other names),
    /// `propertyNames`, `maxProperties`. MCP clients' lenient checking of
    /// `structuredContent`.
    pub allow_undeclared_properties: bool,
    /// Do not keep the values of annotation keywords (`title`,
    /// `description`, `default`, unknown keywords, ...) in the program: a
    /// smaller program, but evaluations then report only the annotations
    /// of applicators (`properties`, `items`, ...).
    pub skip_annotations: bool,
    /// Keep each node's [`NodeCost`](crate::bytecode::NodeCost) in the
    /// program, for [`Program::cost`](crate::Program::cost) (`schemavm
    /// explain`). The bounds are computed and enforced either way; kept,
    /// they take 24 bytes per node.
    pub keep_cost_bounds: bool,
}
