//! The MCP shape: many small documents against a few small schemas.
//!
//! Ten tool `inputSchema`s written the way MCP servers publish them, and
//! [`CALLS`] argument objects spread over them, generated from the schemas
//! by a fixed linear congruential generator (the same documents on every
//! run and machine). About one call in ten is made invalid by a mutation
//! that certainly breaks its schema; the rest are valid by construction.
//!
//! The generator understands the keywords these schemas use: `const`,
//! `enum`, `examples` (taken verbatim; every `pattern` comes with matching
//! examples), `oneOf` (one branch), `type`, `format` (email, date,
//! date-time, uri, uuid), numeric and length bounds, `multipleOf`,
//! `uniqueItems`, `properties`/`required`, and map-like objects
//! (`additionalProperties` schema, keys from `propertyNames`).

use std::collections::HashSet;

use serde_json::{Map, Value, json};

/// How many argument objects [`calls`] generates.
pub const CALLS: usize = 1_000;

/// One `tools/call`: which tool, its arguments, and whether the
/// generator made them valid.
#[derive(Debug, Clone)]
pub struct Call {
    /// Index into [`tools`].
    pub tool: usize,
    /// The `arguments` object.
    pub arguments: Value,
    /// Valid by construction (`false`: mutated to break the schema).
    pub valid: bool,
}

/// The ten tool input schemas.
pub fn tools() -> Vec<Value> {
    let word_path = json!({"type": "string", "pattern": "^(/[A-Za-z0-9._-]+)+$",
        "examples": ["/home/dev/project/src/main.rs", "/var/log/syslog", "/etc/hosts", "/tmp/report.csv",
                     "/srv/data/users.json", "/home/dev/notes.md"]});
    vec![
        json!({
            "type": "object",
            "description": "Search files in the workspace for a text query.",
            "properties": {
                "query": {"type": "string", "minLength": 1, "maxLength": 200},
                "path": word_path.clone(),
                "max_results": {"type": "integer", "minimum": 1, "maximum": 500},
                "case_sensitive": {"type": "boolean"},
                "file_types": {"type": "array", "uniqueItems": true, "maxItems": 4,
                               "items": {"enum": ["rs", "py", "js", "ts", "md", "json", "toml"]}}
            },
            "required": ["query"],
            "additionalProperties": false
        }),
        json!({
            "type": "object",
            "description": "Read a file, optionally a range of its lines.",
            "properties": {
                "path": word_path.clone(),
                "offset": {"type": "integer", "minimum": 0, "maximum": 100000},
                "limit": {"type": "integer", "minimum": 1, "maximum": 10000},
                "encoding": {"type": "string", "enum": ["utf-8", "latin1", "base64"]}
            },
            "required": ["path"],
            "additionalProperties": false
        }),
        json!({
            "type": "object",
            "description": "Open an issue in a repository.",
            "properties": {
                "repo": {"type": "string", "pattern": "^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$",
                         "examples": ["schemavm/schemavm", "rust-lang/rust", "serde-rs/json", "tokio-rs/tokio"]},
                "title": {"type": "string", "minLength": 1, "maxLength": 256},
                "body": {"type": "string", "maxLength": 65536},
                "labels": {"type": "array", "maxItems": 5, "items": {"type": "string", "minLength": 1}},
                "assignees": {"type": "array", "maxItems": 3,
                              "items": {"type": "string", "pattern": "^[a-z0-9-]+$",
                                        "examples": ["alice", "bob-dev", "carol42", "dave"]}},
                "priority": {"type": "string", "enum": ["low", "medium", "high", "urgent"]},
                "due_date": {"type": "string", "format": "date"}
            },
            "required": ["repo", "title"]
        }),
        json!({
            "type": "object",
            "description": "Send an email.",
            "properties": {
                "to": {"type": "array", "minItems": 1, "maxItems": 4, "items": {"type": "string", "format": "email"}},
                "cc": {"type": "array", "maxItems": 3, "items": {"type": "string", "format": "email"}},
                "subject": {"type": "string", "minLength": 1, "maxLength": 200},
                "body": {"type": "string"},
                "attachments": {
                    "type": "array",
                    "maxItems": 2,
                    "items": {
                        "type": "object",
                        "properties": {
                            "filename": {"type": "string", "minLength": 1},
                            "mime_type": {"type": "string", "pattern": "^[a-z]+/[a-z0-9.+-]+$",
                                          "examples": ["text/plain", "application/pdf", "image/png", "text/csv"]},
                            "size_bytes": {"type": "integer", "minimum": 0, "maximum": 10485760}
                        },
                        "required": ["filename", "mime_type"],
                        "additionalProperties": false
                    }
                },
                "send_at": {"type": "string", "format": "date-time"}
            },
            "required": ["to", "subject", "body"],
            "additionalProperties": false
        }),
        json!({
            "type": "object",
            "description": "Run a read-only SQL query.",
            "properties": {
                "sql": {"type": "string", "minLength": 1,
                        "examples": ["SELECT * FROM users WHERE id = $1", "SELECT count(*) FROM orders",
                                     "SELECT name, email FROM customers WHERE country = $1 LIMIT $2"]},
                "params": {"type": "array", "maxItems": 3, "items": {"type": ["string", "number", "boolean", "null"]}},
                "database": {"type": "string", "enum": ["main", "analytics", "archive"]},
                "timeout_ms": {"type": "integer", "minimum": 100, "maximum": 60000},
                "read_only": {"type": "boolean"}
            },
            "required": ["sql"]
        }),
        json!({
            "type": "object",
            "description": "Weather forecast for a city or coordinates.",
            "properties": {
                "location": {
                    "oneOf": [
                        {
                            "type": "object",
                            "properties": {
                                "city": {"type": "string", "minLength": 1},
                                "country": {"type": "string", "pattern": "^[A-Z]{2}$",
                                            "examples": ["DE", "FR", "US", "JP", "BR"]}
                            },
                            "required": ["city"],
                            "additionalProperties": false
                        },
                        {
                            "type": "object",
                            "properties": {
                                "lat": {"type": "number", "minimum": -90, "maximum": 90},
                                "lon": {"type": "number", "minimum": -180, "maximum": 180}
                            },
                            "required": ["lat", "lon"],
                            "additionalProperties": false
                        }
                    ]
                },
                "units": {"type": "string", "enum": ["metric", "imperial"]},
                "days": {"type": "integer", "minimum": 1, "maximum": 14}
            },
            "required": ["location"],
            "additionalProperties": false
        }),
        json!({
            "type": "object",
            "description": "Schedule a meeting.",
            "properties": {
                "title": {"type": "string", "minLength": 1, "maxLength": 120},
                "start": {"type": "string", "format": "date-time"},
                "duration_minutes": {"type": "integer", "minimum": 15, "maximum": 480, "multipleOf": 15},
                "attendees": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 4,
                    "items": {
                        "type": "object",
                        "properties": {"email": {"type": "string", "format": "email"}, "optional": {"type": "boolean"}},
                        "required": ["email"]
                    }
                },
                "location": {
                    "type": "object",
                    "properties": {"room": {"type": "string"}, "video_link": {"type": "string", "format": "uri"}}
                },
                "recurrence": {
                    "type": "object",
                    "properties": {
                        "frequency": {"enum": ["daily", "weekly", "monthly"]},
                        "count": {"type": "integer", "minimum": 1, "maximum": 52}
                    },
                    "required": ["frequency"],
                    "additionalProperties": false
                }
            },
            "required": ["title", "start", "duration_minutes", "attendees"],
            "additionalProperties": false
        }),
        json!({
            "type": "object",
            "description": "Make an HTTP request.",
            "properties": {
                "url": {"type": "string", "format": "uri", "pattern": "^https?://"},
                "method": {"type": "string", "enum": ["GET", "POST", "PUT", "PATCH", "DELETE"]},
                "headers": {
                    "type": "object",
                    "maxProperties": 8,
                    "propertyNames": {"examples": ["Accept", "Content-Type", "Authorization", "User-Agent", "X-Request-Id"]},
                    "additionalProperties": {"type": "string"}
                },
                "body": {"type": ["string", "object", "null"]},
                "timeout_s": {"type": "number", "exclusiveMinimum": 0, "maximum": 120},
                "follow_redirects": {"type": "boolean"},
                "idempotency_key": {"type": "string", "format": "uuid"}
            },
            "required": ["url", "method"]
        }),
        json!({
            "type": "object",
            "description": "Resize or crop a stored image.",
            "properties": {
                "image_id": {"type": "string", "pattern": "^img_[0-9a-f]{8}$",
                             "examples": ["img_0a1b2c3d", "img_deadbeef", "img_12345678", "img_cafe0042"]},
                "width": {"type": "integer", "minimum": 1, "maximum": 8192},
                "height": {"type": "integer", "minimum": 1, "maximum": 8192},
                "format": {"type": "string", "enum": ["png", "jpeg", "webp"]},
                "quality": {"type": "integer", "minimum": 1, "maximum": 100},
                "crop": {
                    "type": "object",
                    "properties": {
                        "x": {"type": "integer", "minimum": 0, "maximum": 4096},
                        "y": {"type": "integer", "minimum": 0, "maximum": 4096},
                        "w": {"type": "integer", "minimum": 1, "maximum": 4096},
                        "h": {"type": "integer", "minimum": 1, "maximum": 4096}
                    },
                    "required": ["x", "y", "w", "h"],
                    "additionalProperties": false
                }
            },
            "required": ["image_id"],
            "additionalProperties": false
        }),
        json!({
            "type": "object",
            "description": "Run a shell command in the sandbox.",
            "properties": {
                "command": {"type": "string", "minLength": 1,
                            "examples": ["ls", "cargo", "git", "grep", "python3", "make"]},
                "args": {"type": "array", "maxItems": 4, "items": {"type": "string"}},
                "cwd": word_path,
                "env": {
                    "type": "object",
                    "propertyNames": {"pattern": "^[A-Z_][A-Z0-9_]*$",
                                      "examples": ["PATH", "HOME", "RUST_LOG", "CI", "LANG", "TERM"]},
                    "additionalProperties": {"type": "string"}
                },
                "timeout_s": {"type": "integer", "minimum": 1, "maximum": 3600},
                "shell": {"type": "string", "enum": ["bash", "sh", "zsh"]}
            },
            "required": ["command"],
            "additionalProperties": false
        }),
    ]
}

/// [`CALLS`] distinct calls spread over `tools` (as returned by [`tools`]).
pub fn calls(tools: &[Value]) -> Vec<Call> {
    let mut rng = Lcg(0x5eed_0f5c_4e3a);
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(CALLS);
    while out.len() < CALLS {
        let tool = rng.below(tools.len());
        let mut arguments = generate(&tools[tool], &mut rng);
        let valid = rng.below(10) != 0;
        if !valid {
            break_schema(&tools[tool], &mut arguments, &mut rng);
        }
        if seen.insert((tool, arguments.to_string())) {
            out.push(Call { tool, arguments, valid });
        }
    }
    out
}

/// Knuth's MMIX linear congruential generator.
struct Lcg(u64);

impl Lcg {
    /// A number in `0..n` (`n > 0`), from the high bits.
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }

    /// An integer in `lo..=hi`.
    fn between(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }

    /// One of `items`.
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const WORDS: [&str; 24] = [
    "alpha", "build", "cache", "delta", "error", "fix", "graph", "index", "json", "kernel", "latency", "merge", "node",
    "order", "parser", "query", "report", "schema", "test", "update", "vector", "weekly", "yaml", "zone",
];

const DOMAINS: [&str; 4] = ["example.com", "example.org", "mail.test", "corp.example"];

/// A value valid against `schema`.
fn generate(schema: &Value, rng: &mut Lcg) -> Value {
    let get = |k: &str| schema.get(k);
    if let Some(c) = get("const") {
        return c.clone();
    }
    if let Some(Value::Array(options)) = get("enum").or_else(|| get("examples")) {
        return rng.pick(options).clone();
    }
    if let Some(Value::Array(branches)) = get("oneOf") {
        return generate(rng.pick(branches), rng);
    }
    let ty = match get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(types)) => rng.pick(types).as_str().unwrap_or("null"),
        _ if get("properties").is_some() => "object",
        _ => "string",
    };
    let int = |k: &str, default: i64| get(k).and_then(Value::as_i64).unwrap_or(default);
    match ty {
        "null" => Value::Null,
        "boolean" => Value::Bool(rng.below(2) == 0),
        "integer" => {
            let step = int("multipleOf", 1);
            let (lo, hi) = (int("minimum", 0), int("maximum", 1_000));
            json!(rng.between(lo.div_euclid(step) + i64::from(lo % step != 0), hi.div_euclid(step)) * step)
        }
        "number" => {
            // Steps of 1/100 strictly inside the bounds (exclusive ones included).
            let (lo, hi) = (int("minimum", int("exclusiveMinimum", 0)), int("maximum", 1_000));
            json!(rng.between(lo * 100 + 1, hi * 100 - 1) as f64 / 100.0)
        }
        "string" => Value::String(string(schema, rng)),
        "array" => {
            let lo = int("minItems", 0);
            let hi = int("maxItems", lo + 3).min(lo + 3);
            let items = get("items").cloned().unwrap_or(json!({}));
            let mut list: Vec<Value> = (0..rng.between(lo, hi)).map(|_| generate(&items, rng)).collect();
            if get("uniqueItems") == Some(&Value::Bool(true)) {
                let mut seen = HashSet::new();
                list.retain(|v| seen.insert(v.to_string()));
            }
            Value::Array(list)
        }
        _ => Value::Object(object(schema, rng)),
    }
}

/// An object valid against `schema`: every required property, about half
/// of the optional ones, or for a map-like schema up to three entries.
fn object(schema: &Value, rng: &mut Lcg) -> Map<String, Value> {
    let required: Vec<&str> =
        schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let mut out = Map::new();
    if let Some(Value::Object(properties)) = schema.get("properties") {
        for (name, sub) in properties {
            if required.contains(&name.as_str()) || rng.below(2) == 0 {
                out.insert(name.clone(), generate(sub, rng));
            }
        }
    } else if let Some(values @ Value::Object(_)) = schema.get("additionalProperties") {
        let names = schema.get("propertyNames").cloned().unwrap_or(json!({}));
        for _ in 0..rng.below(4) {
            let name = string(&names, rng);
            out.insert(name, generate(values, rng));
        }
    }
    out
}

/// A string valid against the string schema `schema`.
fn string(schema: &Value, rng: &mut Lcg) -> String {
    if let Some(Value::Array(examples)) = schema.get("examples") {
        return rng.pick(examples).as_str().unwrap_or_default().to_string();
    }
    let (month, day, hour, minute) = (rng.between(1, 12), rng.between(1, 28), rng.between(0, 23), rng.between(0, 59));
    match schema.get("format").and_then(Value::as_str) {
        Some("email") => format!("{}.{}@{}", rng.pick(&WORDS), rng.pick(&WORDS), rng.pick(&DOMAINS)),
        Some("date") => format!("2026-{month:02}-{day:02}"),
        Some("date-time") => format!("2026-{month:02}-{day:02}T{hour:02}:{minute:02}:00Z"),
        Some("uri") => format!("https://{}/{}/{}?page={day}", rng.pick(&DOMAINS), rng.pick(&WORDS), rng.pick(&WORDS)),
        Some("uuid") => format!("{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}", rng.below(1 << 30), month, day, hour, minute),
        _ => {
            let max = schema.get("maxLength").and_then(Value::as_u64).unwrap_or(u64::MAX) as usize;
            let words: Vec<&str> = (0..rng.between(1, 5)).map(|_| *rng.pick(&WORDS)).collect();
            let mut s = words.join(" ");
            s.truncate(max);
            s
        }
    }
}

/// Makes `arguments` (an object valid against the object schema `schema`)
/// invalid: a missing required property, a property of a wrong type or
/// outside its enum, or an unknown property where none are allowed.
fn break_schema(schema: &Value, arguments: &mut Value, rng: &mut Lcg) {
    let Value::Object(args) = arguments else { return };
    let properties = schema.get("properties").and_then(Value::as_object);
    // (property, None to remove it or the value to set)
    let mut ways: Vec<(String, Option<Value>)> = Vec::new();
    for name in schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
        ways.push((name.to_string(), None));
    }
    for name in args.keys() {
        let Some(property) = properties.and_then(|p| p.get(name)) else { continue };
        match property.get("type").and_then(Value::as_str) {
            Some("string") => ways.push((name.clone(), Some(json!(42)))),
            Some(_) => ways.push((name.clone(), Some(json!("42")))),
            None if property.get("enum").is_some() => ways.push((name.clone(), Some(json!("not-an-option")))),
            None => {}
        }
    }
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
        ways.push(("unexpected".to_string(), Some(json!(true))));
    }
    match rng.pick(&ways).clone() {
        (name, None) => args.remove(&name),
        (name, Some(value)) => args.insert(name, value),
    };
}
