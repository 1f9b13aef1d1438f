//! `schemavm::mcp::ToolSet`: listings of both revisions, every lint rule,
//! argument and result checks, `x-mcp-header`, schema sharing.

use schemavm::mcp::{Rejection, Severity, Strictness, ToolSet};
use serde_json::{Map, Value, json};

/// A tool that draws no diagnostic at all.
fn clean(name: &str) -> Value {
    json!({
        "name": name,
        "description": "Does one thing.",
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "additionalProperties": false},
    })
}

/// `clean(name)` with `key` set to `value`.
fn with(name: &str, key: &str, value: Value) -> Value {
    let mut tool = clean(name);
    tool[key] = value;
    tool
}

/// The (severity, rule, pointer) of every diagnostic of one tool list.
fn findings(tools: Value) -> Vec<(Severity, &'static str, String)> {
    ToolSet::from_value(&tools).diagnostics().iter().map(|d| (d.severity, d.rule, d.pointer.clone())).collect()
}

/// `depth` objects, each with `leaf` (nested) as its property `a`; built
/// by hand, since `json!` would copy the value at every level.
fn nest(depth: usize, leaf: Value) -> Value {
    (0..depth).fold(leaf, |inner, _| {
        let mut properties = Map::new();
        properties.insert("a".to_string(), inner);
        let mut schema = Map::new();
        schema.insert("type".to_string(), json!("object"));
        schema.insert("properties".to_string(), Value::Object(properties));
        Value::Object(schema)
    })
}

fn one(severity: Severity, rule: &'static str, pointer: &str) -> Vec<(Severity, &'static str, String)> {
    vec![(severity, rule, pointer.to_string())]
}

#[test]
fn both_revisions_pages_and_plain_arrays_are_read() {
    let old = json!({"tools": [clean("a"), clean("b")], "nextCursor": "2"});
    let new = json!({"tools": [clean("c")], "ttlMs": 60000, "cacheScope": "private", "resultType": "complete"});
    let new_only = ToolSet::from_value(&new);
    assert_eq!((new_only.names().collect::<Vec<_>>(), new_only.ttl_ms()), (vec!["c"], 60000));
    let pages = ToolSet::from_value(&json!([old, new]));
    assert_eq!(pages.names().collect::<Vec<_>>(), ["a", "b", "c"]);
    assert_eq!(pages.ttl_ms(), 0, "a 2025-11-25 page has no ttlMs: 0");
    let appended = ToolSet::builder().listing(&new).listing(&json!([clean("d")])).build();
    assert_eq!(appended.names().collect::<Vec<_>>(), ["c", "d"]);
    let response = ToolSet::from_value(&json!({"jsonrpc": "2.0", "id": 1, "result": new}));
    assert_eq!(response.names().collect::<Vec<_>>(), ["c"]);
    assert!(pages.diagnostics().is_empty() && response.diagnostics().is_empty());
    assert_eq!(findings(json!({"tools": 3})), one(Severity::Error, "listing", "/tools"));
    assert_eq!(findings(json!("tools")), one(Severity::Error, "listing", ""));
    assert_eq!(findings(json!({"jsonrpc": "2.0", "id": 1, "error": {}})), one(Severity::Error, "listing", "/error"));
}

#[test]
fn name_rules_are_errors() {
    use Severity::Error;
    let mut nameless = clean("x");
    nameless.as_object_mut().map(|t| t.remove("name"));
    assert_eq!(findings(json!([nameless])), one(Error, "tool-name", ""));
    assert_eq!(findings(json!([with("x", "name", json!(""))])), one(Error, "tool-name", "/name"));
    assert_eq!(findings(json!([with("x", "name", json!(7))])), one(Error, "tool-name", "/name"));
    assert_eq!(findings(json!([clean(&"n".repeat(128))])), []);
    assert_eq!(findings(json!([clean(&"n".repeat(129))])), one(Error, "tool-name", "/name"));
    assert_eq!(findings(json!([clean("get weather")])), one(Error, "tool-name", "/name"));
    assert_eq!(findings(json!([clean("wetter_ü")])), one(Error, "tool-name", "/name"));
    assert_eq!(findings(json!([clean("A-z_0.9")])), []);
    let dup = ToolSet::from_value(&json!([clean("x"), with("x", "description", json!("second"))]));
    assert_eq!(dup.diagnostics().len(), 1);
    let d = &dup.diagnostics()[0];
    assert_eq!((d.rule, d.index, d.tool.as_deref()), ("duplicate-name", Some(1), Some("x")));
    assert_eq!(dup.names().collect::<Vec<_>>(), ["x"]);
    assert_eq!(ToolSet::from_value(&json!([7])).diagnostics()[0].rule, "tool");
}

#[test]
fn input_schema_rules_are_errors() {
    use Severity::Error;
    let mut missing = clean("x");
    missing.as_object_mut().map(|t| t.remove("inputSchema"));
    assert_eq!(findings(json!([missing])), one(Error, "input-schema", ""));
    assert_eq!(findings(json!([with("x", "inputSchema", Value::Null)])), one(Error, "input-schema", "/inputSchema"));
    assert_eq!(findings(json!([with("x", "inputSchema", json!(true))])), one(Error, "input-schema", "/inputSchema"));
    assert_eq!(
        findings(json!([with("x", "inputSchema", json!({"type": "array", "additionalProperties": false}))])),
        one(Error, "input-schema", "/inputSchema")
    );
    let draft3 =
        json!({"$schema": "http://json-schema.org/draft-03/schema#", "type": "object", "additionalProperties": false});
    assert_eq!(findings(json!([with("x", "inputSchema", draft3)])), one(Error, "schema-dialect", "/inputSchema"));
    let draft7 =
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "additionalProperties": false});
    assert_eq!(findings(json!([with("x", "inputSchema", draft7)])), []);
    let remote = json!({"type": "object", "additionalProperties": false,
                        "properties": {"a": {"$ref": "https://example.com/a.json"}}});
    let set = ToolSet::from_value(&json!([with("x", "inputSchema", remote)]));
    assert_eq!(set.diagnostics().len(), 1);
    assert_eq!((set.diagnostics()[0].rule, set.diagnostics()[0].pointer.as_str()), ("schema-compile", "/inputSchema"));
    // The tool stays listed; a call says its definition is at fault.
    let Err(Rejection::ToolError(result)) = set.check_arguments("x", &json!({})) else { panic!("not refused") };
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    assert!(
        text.starts_with("The tool's schema could not be compiled, so the call was not made (tool \"x\"): "),
        "{text}"
    );
    let deep = nest(300, json!({"type": "string"}));
    let mut deep_tool = with("x", "inputSchema", deep);
    deep_tool["inputSchema"]["additionalProperties"] = json!(false);
    assert_eq!(findings(json!([deep_tool])), one(Error, "schema-compile", "/inputSchema"));
    let regex = json!({"type": "object", "additionalProperties": false, "properties": {"a": {"pattern": "(["}}});
    assert_eq!(findings(json!([with("x", "inputSchema", regex)])), one(Error, "schema-compile", "/inputSchema"));
    let null_input = ToolSet::from_value(&json!([with("x", "inputSchema", Value::Null)]));
    let Err(Rejection::ToolError(result)) = null_input.check_arguments("x", &json!({})) else { panic!() };
    assert_eq!(
        result["content"][0]["text"],
        "The tool's schema is missing or not an object schema, so the call was not made. \
         This is a problem with the tool's definition, not with the arguments."
    );
}

#[test]
fn output_schema_rules_are_warnings() {
    use Severity::Warning;
    let closed = json!({"type": "object", "properties": {"data": {"type": "object", "additionalProperties": false}},
                        "allOf": [{"unevaluatedProperties": false}]});
    let set = ToolSet::from_value(&json!([with("x", "outputSchema", closed)]));
    let d = &set.diagnostics()[0];
    assert_eq!(
        (d.severity, d.rule, d.pointer.as_str()),
        (Warning, "closed-output-schema", "/outputSchema/allOf/0/unevaluatedProperties")
    );
    assert!(d.message.contains("(and 1 more place)"), "{}", d.message);
    assert_eq!(set.diagnostics().len(), 1);
    assert_eq!(
        findings(json!([with("x", "outputSchema", json!({"type": "array", "items": {"type": "string"}}))])),
        one(Warning, "output-schema-root", "/outputSchema")
    );
    assert_eq!(findings(json!([with("x", "outputSchema", json!({"type": "object"}))])), []);
    // `false` as a value is not a schema keyword.
    assert_eq!(
        findings(json!([with(
            "x",
            "outputSchema",
            json!({"type": "object", "properties": {"f": {"const": {"additionalProperties": false}}}})
        )])),
        []
    );
    assert_eq!(findings(json!([with("x", "outputSchema", json!({"type": "object", "minimum": "x"}))])).len(), 1);
}

#[test]
fn structured_output_without_its_text_duplicate_is_a_warning() {
    let set = ToolSet::from_value(&json!([with("x", "outputSchema", json!({"type": "array"}))]));
    let bare = json!({"content": [], "structuredContent": [1, 2]});
    let warned = set.lint_result("x", &bare);
    assert_eq!(
        warned.iter().map(|d| (d.severity, d.rule)).collect::<Vec<_>>(),
        [(Severity::Warning, "structured-text-duplicate")]
    );
    let duplicated = json!({"content": [{"type": "text", "text": "[1, 2]"}], "structuredContent": [1, 2]});
    assert!(set.lint_result("x", &duplicated).is_empty());
    let object = json!({"content": [], "structuredContent": {"a": 1}});
    assert!(set.lint_result("x", &object).is_empty());
}

#[test]
fn advice_is_info() {
    use Severity::Info;
    assert_eq!(
        findings(json!([with("x", "description", json!("  "))])),
        one(Info, "missing-description", "/description")
    );
    let composed =
        json!({"type": "object", "additionalProperties": false, "oneOf": [{"required": ["a"]}, {"required": ["b"]}]});
    assert_eq!(
        findings(json!([with("x", "inputSchema", composed)])),
        one(Info, "top-level-composition", "/inputSchema/oneOf")
    );
    let open = json!({"type": "object", "properties": {"a": {}}});
    assert_eq!(findings(json!([with("x", "inputSchema", open)])), one(Info, "open-input-schema", "/inputSchema"));
    let unevaluated = json!({"type": "object", "unevaluatedProperties": false});
    assert_eq!(findings(json!([with("x", "inputSchema", unevaluated)])), []);
}

/// The `x-mcp-header` findings of a tool whose `inputSchema` is `schema`,
/// and whether the tool stayed usable.
fn header_findings(schema: Value) -> (Vec<String>, bool) {
    let set = ToolSet::from_value(&json!([with("x", "inputSchema", schema), clean("other")]));
    assert!(set.contains("other"), "the rest of the list stays usable");
    let found = set.diagnostics().iter().filter(|d| d.rule == "x-mcp-header").map(|d| d.pointer.clone()).collect();
    (found, set.contains("x"))
}

fn object(properties: Value) -> Value {
    json!({"type": "object", "properties": properties, "additionalProperties": false})
}

#[test]
fn broken_header_annotations_exclude_the_tool() {
    let ok = object(json!({"region": {"type": "string", "x-mcp-header": "Region"},
                           "o": {"type": "object", "properties": {"n": {"type": "integer", "x-mcp-header": "N"}}},
                           "b": {"type": "boolean", "x-mcp-header": "Dry-Run"}}));
    assert_eq!(header_findings(ok), (vec![], true));
    let at = |p: &str| (vec![format!("/inputSchema{p}/x-mcp-header")], false);
    let bad = [
        (json!({"r": {"type": "string", "x-mcp-header": ""}}), "/properties/r"),
        (json!({"r": {"type": "string", "x-mcp-header": 3}}), "/properties/r"),
        (json!({"r": {"type": "string", "x-mcp-header": "Re gion"}}), "/properties/r"),
        (json!({"r": {"type": "string", "x-mcp-header": "Région"}}), "/properties/r"),
        (json!({"r": {"type": "string", "x-mcp-header": "A\r\nB"}}), "/properties/r"),
        (json!({"r": {"type": "number", "x-mcp-header": "R"}}), "/properties/r"),
        (json!({"r": {"type": "object", "x-mcp-header": "R"}}), "/properties/r"),
        (json!({"r": {"x-mcp-header": "R"}}), "/properties/r"),
        (json!({"r": {"type": ["string", "null"], "x-mcp-header": "R"}}), "/properties/r"),
        (json!({"r": {"type": "array", "items": {"type": "string", "x-mcp-header": "R"}}}), "/properties/r/items"),
        (json!({"r": {"oneOf": [{"type": "string", "x-mcp-header": "R"}]}}), "/properties/r/oneOf/0"),
    ];
    for (properties, pointer) in bad {
        assert_eq!(header_findings(object(properties.clone())), at(pointer), "{properties}");
    }
    let dup = object(
        json!({"a": {"type": "string", "x-mcp-header": "Region"}, "b": {"type": "string", "x-mcp-header": "REGION"}}),
    );
    assert_eq!(header_findings(dup), at("/properties/b"));
    let root = json!({"type": "object", "x-mcp-header": "Root", "additionalProperties": false});
    assert_eq!(header_findings(root), at(""));
    let defs = json!({"type": "object", "additionalProperties": false, "properties": {"r": {"$ref": "#/$defs/r"}},
                      "$defs": {"r": {"type": "string", "x-mcp-header": "R"}}});
    assert_eq!(header_findings(defs), at("/$defs/r"));
    let conditional = json!({"type": "object", "additionalProperties": false,
                             "if": {"properties": {"r": {"type": "string", "x-mcp-header": "R"}}}});
    assert_eq!(header_findings(conditional), at("/if/properties/r"));
    // A property named like the keyword is not an annotation.
    assert_eq!(header_findings(object(json!({"x-mcp-header": {"type": "string"}}))), (vec![], true));
    let set = ToolSet::from_value(&json!([with(
        "x",
        "inputSchema",
        object(json!({"r": {"type": "number", "x-mcp-header": "R"}}))
    )]));
    assert_eq!(set.excluded().collect::<Vec<_>>(), ["x"]);
    assert_eq!(set.diagnostics()[0].severity, Severity::Warning);
    let unknown = set.check_arguments("x", &json!({})).unwrap_err();
    assert_eq!(unknown, Rejection::Protocol(json!({"code": -32602, "message": "Unknown tool: x"})));
}

/// The contract's example tool.
fn issues() -> ToolSet {
    ToolSet::from_value(&json!({"tools": [{
        "name": "search_issues",
        "description": "Searches issues.",
        "inputSchema": {
            "type": "object",
            "properties": {"query": {"type": "string"}, "state": {"enum": ["open", "closed", "all"]}, "limit": {"type": "integer"}},
            "required": ["query"],
            "additionalProperties": false,
        },
        "outputSchema": {
            "type": "object",
            "properties": {"total": {"type": "integer"}, "items": {"type": "array", "items": {"type": "object",
                "properties": {"id": {"type": "integer"}}, "required": ["id"], "additionalProperties": false}}},
            "required": ["total"],
            "additionalProperties": false,
        },
    }]}))
}

#[test]
fn arguments_are_checked_per_channel() {
    let set = issues();
    assert_eq!(set.check_arguments("search_issues", &json!({"query": "crash", "state": "open"})), Ok(()));
    assert_eq!(
        set.check_arguments("nope", &json!({})),
        Err(Rejection::Protocol(json!({"code": -32602, "message": "Unknown tool: nope"})))
    );
    let long = "n".repeat(5000);
    let Err(Rejection::Protocol(error)) = set.check_arguments(&long, &json!({})) else { panic!() };
    assert!(error["message"].as_str().is_some_and(|m| m.len() < 200), "the echoed name is bounded");
    assert_eq!(
        set.check_arguments("search_issues", &json!(["crash"])).map_err(Rejection::into_value),
        Err(json!({"resultType": "complete", "isError": true, "content": [{"type": "text",
            "text": "Invalid arguments: $: the arguments must be an object of named parameters (got an array)"}]}))
    );
    let Err(Rejection::ToolError(result)) =
        set.check_arguments("search_issues", &json!({"query": "crash", "state": "pending", "sort": "newest"}))
    else {
        panic!("not refused")
    };
    assert_eq!(
        result["content"][0]["text"],
        "Invalid arguments: $.sort: unknown property; allowed: limit, query, state; \
         $.state: must be one of [\"open\",\"closed\",\"all\"] (got \"pending\")"
    );
}

#[test]
fn structured_content_is_checked_strictly_or_leniently() {
    let set = issues();
    let check = |result: Value, strictness| set.check_structured("search_issues", &result, strictness);
    let extra = json!({"content": [], "structuredContent": {"total": 1, "items": [{"id": 1, "url": "u"}], "page": 2}});
    let error = check(extra.clone(), Strictness::Strict).unwrap_err();
    assert_eq!(error["code"], -32602);
    assert_eq!(
        error["message"],
        "Structured content does not match the tool's output schema (tool \"search_issues\"): \
         $.items[0].url: unknown property; allowed: id; $.page: unknown property; allowed: items, total"
    );
    assert_eq!(check(extra, Strictness::Lenient), Ok(()));
    // Lenient still enforces what is declared.
    let wrong = json!({"structuredContent": {"total": "1", "items": [{"url": "u"}], "page": 2}});
    let error = check(wrong, Strictness::Lenient).unwrap_err();
    assert_eq!(
        error["message"],
        "Structured content does not match the tool's output schema (tool \"search_issues\"): \
         $.items[0]: missing required property \"id\"; $.total: must be an integer (got a string)"
    );
    assert_eq!(check(json!({"isError": true, "content": []}), Strictness::Strict), Ok(()));
    let missing = check(json!({"content": []}), Strictness::Strict).unwrap_err();
    assert_eq!(
        missing,
        json!({"code": -32602, "message": "Tool \"search_issues\" has an output schema but did not return structured content"})
    );
    assert_eq!(check(json!([]), Strictness::Strict).unwrap_err()["code"], -32602);
    assert_eq!(
        set.check_structured("nope", &json!({}), Strictness::Strict).unwrap_err()["message"],
        "Unknown tool: nope"
    );
    let no_output = ToolSet::from_value(&json!([clean("x")]));
    assert_eq!(no_output.check_structured("x", &json!({"structuredContent": 1}), Strictness::Strict), Ok(()));
}

fn header_tool() -> ToolSet {
    ToolSet::from_value(&json!([with(
        "x",
        "inputSchema",
        object(json!({
            "region": {"type": "string", "x-mcp-header": "Region"},
            "count": {"type": "integer", "x-mcp-header": "Count"},
            "dry": {"type": "boolean", "x-mcp-header": "Dry-Run"},
            "opts": {"type": "object", "properties": {"tenant": {"type": "string", "x-mcp-header": "Tenant"}}},
        }))
    )]))
}

#[test]
fn header_values_are_mirrored_and_encoded() {
    let set = header_tool();
    let headers =
        set.headers_for("x", &json!({"region": "eu-west", "count": 3, "dry": false, "opts": {"tenant": "acme"}}));
    assert_eq!(
        headers.unwrap(),
        [
            ("Mcp-Param-Count", "3"),
            ("Mcp-Param-Dry-Run", "false"),
            ("Mcp-Param-Tenant", "acme"),
            ("Mcp-Param-Region", "eu-west")
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()))
    );
    let encoded = |region: &str| set.headers_for("x", &json!({"region": region})).unwrap()[0].1.clone();
    assert_eq!(encoded("Zürich"), "=?base64?WsO8cmljaA==?=");
    assert_eq!(encoded(" padded"), "=?base64?IHBhZGRlZA==?=");
    assert_eq!(encoded("tab\t"), "=?base64?dGFiCQ==?=");
    assert_eq!(encoded("a\r\nb"), "=?base64?YQ0KYg==?=");
    assert_eq!(encoded("=?base64?x?="), "=?base64?PT9iYXNlNjQ/eD89?=");
    assert_eq!(encoded("in side"), "in side");
    assert!(set.headers_for("x", &json!({"region": null})).unwrap().is_empty());
    assert_eq!(set.headers_for("nope", &json!({})).unwrap_err()["code"], -32602);
    assert_eq!(schemavm::mcp::decode_header_value("=?base64?WsO8cmljaA==?=").as_deref(), Some("Zürich"));
    assert_eq!(schemavm::mcp::decode_header_value("=?base64?***?="), None);
}

#[test]
fn header_body_mismatches_are_32020() {
    let set = header_tool();
    let args = json!({"region": "Zürich", "count": 3});
    let check = |headers: &[(&str, &str)]| set.check_headers("x", headers.iter().copied(), &args);
    assert_eq!(
        check(&[("mcp-param-region", "=?base64?WsO8cmljaA==?="), ("MCP-PARAM-COUNT", "3"), ("Other", "x")]),
        Ok(())
    );
    let message = |headers: &[(&str, &str)]| {
        let error = check(headers).unwrap_err();
        assert_eq!(error["code"], -32020);
        error["message"].as_str().unwrap_or_default().to_string()
    };
    let region = ("Mcp-Param-Region", "=?base64?WsO8cmljaA==?=");
    assert_eq!(message(&[region]), "Header mismatch: Mcp-Param-Count is missing (arguments.count)");
    assert_eq!(
        message(&[region, ("Mcp-Param-Count", "4")]),
        "Header mismatch: Mcp-Param-Count does not match the argument (arguments.count)"
    );
    assert_eq!(
        message(&[region, ("Mcp-Param-Count", "3"), ("Mcp-Param-Dry-Run", "true")]),
        "Header mismatch: Mcp-Param-Dry-Run is sent but the argument is absent, null or not a primitive (arguments.dry)"
    );
    assert_eq!(
        message(&[region, region, ("Mcp-Param-Count", "3")]),
        "Header mismatch: Mcp-Param-Region is sent more than once (arguments.region)"
    );
    assert_eq!(
        message(&[("Mcp-Param-Region", "=?base64?!!?="), ("Mcp-Param-Count", "3")]),
        "Header mismatch: Mcp-Param-Region is not valid Base64 of UTF-8 text (arguments.region)"
    );
    assert_eq!(set.check_headers("nope", [], &args).unwrap_err()["code"], -32602);
}

#[test]
fn a_tool_set_is_send_and_sync_and_shares_identical_schemas() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<ToolSet>();
    let output = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    let tools =
        json!([with("a", "outputSchema", output.clone()), with("b", "outputSchema", output.clone()), clean("c"),]);
    let set = ToolSet::from_value(&tools);
    assert_eq!((set.distinct_schemas(), set.compilations()), (2, 2));
    let result = json!({"structuredContent": {"n": 1}});
    for name in ["a", "b", "a"] {
        assert_eq!(set.check_structured(name, &result, Strictness::Lenient), Ok(()));
        assert_eq!(set.check_structured(name, &result, Strictness::Strict), Ok(()));
    }
    assert_eq!(set.compilations(), 3, "one lenient compilation for the shared output schema");
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| assert!(set.check_arguments("c", &json!({"q": "x"})).is_ok()));
        }
    });
}

#[test]
fn six_hundred_tools_compile_each_distinct_schema_once() {
    const TOOLS: usize = 600;
    const INPUTS: usize = 40;
    const OUTPUTS: usize = 25;
    let tools: Vec<Value> = (0..TOOLS)
        .map(|i| {
            json!({
                "name": format!("tool_{i:03}"),
                "description": format!("Tool number {i}."),
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "pattern": format!("^[a-z]{{{}}}-[0-9]+$", i % INPUTS + 1)},
                        "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                        "filter": {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
                    },
                    "required": ["id"],
                    "additionalProperties": false,
                },
                "outputSchema": {
                    "type": "object",
                    "properties": {
                        "total": {"type": "integer", "minimum": i % OUTPUTS},
                        "data": {"type": "array", "items": {"$ref": "#/$defs/row"}},
                    },
                    "required": ["total"],
                    "$defs": {"row": {"type": "object", "properties": {"id": {"type": "string"}, "score": {"type": "number"}}}},
                },
            })
        })
        .collect();
    let pages: Vec<Value> = tools.chunks(100).map(|page| json!({"tools": page, "ttlMs": 1000})).collect();
    let listing = json!(pages);
    let start = std::time::Instant::now();
    let set = ToolSet::from_value(&listing);
    let elapsed = start.elapsed();
    eprintln!(
        "linted {TOOLS} tools ({} distinct schemas, {} compilations) in {elapsed:?}",
        set.distinct_schemas(),
        set.compilations()
    );
    assert!(set.diagnostics().is_empty(), "{:?}", set.diagnostics().first());
    assert_eq!(set.names().count(), TOOLS);
    assert_eq!(set.distinct_schemas(), INPUTS + OUTPUTS);
    assert_eq!(set.compilations(), INPUTS + OUTPUTS);
    let result = json!({"structuredContent": {"total": 30, "data": [{"id": "a", "extra": true}]}});
    for i in 0..TOOLS {
        assert_eq!(set.check_structured(&format!("tool_{i:03}"), &result, Strictness::Lenient), Ok(()));
    }
    assert_eq!(set.compilations(), INPUTS + 2 * OUTPUTS);
}

#[test]
fn hostile_lists_stay_bounded() {
    // Far deeper than any limit: rejected by the depth check, walked no
    // deeper than the compiler would go, never hashed.
    let deep = nest(3000, json!({"type": "string", "x-mcp-header": "Deep"}));
    let mut input = clean("deep");
    input["inputSchema"] = deep.clone();
    let mut output = clean("deep2");
    output["outputSchema"] = deep;
    let set = ToolSet::from_value(&Value::Array(vec![input, output]));
    let rules: Vec<&str> = set.diagnostics().iter().map(|d| d.rule).collect();
    assert_eq!(rules, ["open-input-schema", "schema-compile", "schema-compile"]);
    assert_eq!(set.check_known("deep"), Ok(()));
    assert_eq!(set.check_known("nope").unwrap_err()["message"], "Unknown tool: nope");
    // Many tools with one name: linear, one kept.
    let many: Vec<Value> = (0..20_000).map(|_| clean("same")).collect();
    let set = ToolSet::from_value(&Value::Array(many));
    assert_eq!((set.names().count(), set.diagnostics().len(), set.distinct_schemas()), (1, 19_999, 1));
}
