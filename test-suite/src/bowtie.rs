//! A [Bowtie](https://bowtie.report) harness: Bowtie's line-delimited JSON
//! protocol (version 1) over any reader and writer.
//!
//! Commands: `start` (answered with the implementation's metadata),
//! `dialect` (sets the dialect of schemas without `$schema`), `run` (one
//! test case with its `registry`; answered with a verdict per test, or
//! `errored` with the compile error), `stop`.

use std::io::{BufRead, Write};

use serde_json::{Value, json};

use schemavm::{Draft, Validator};

/// The protocol version spoken.
pub const PROTOCOL_VERSION: u64 = 1;

/// A harness session.
#[derive(Debug, Default)]
pub struct Harness {
    started: bool,
    draft: Draft,
}

/// What a command asks the session to do next.
#[derive(Debug, PartialEq)]
pub enum Reply {
    /// Write this response line.
    Respond(Value),
    /// Stop: the session is over.
    Stop,
}

impl Harness {
    /// A new session, waiting for `start`.
    pub fn new() -> Harness {
        Harness::default()
    }

    /// Handles one command line. `Err` is a protocol violation: the
    /// harness should report it and exit.
    pub fn handle(&mut self, line: &str) -> Result<Reply, String> {
        let command: Value = serde_json::from_str(line).map_err(|e| format!("malformed command: {e}"))?;
        let cmd = command.get("cmd").and_then(Value::as_str).ok_or("command without \"cmd\"")?;
        if !self.started && cmd != "start" {
            return Err(format!("{cmd:?} before \"start\""));
        }
        match cmd {
            "start" => {
                let version = command.get("version").and_then(Value::as_u64);
                if version != Some(PROTOCOL_VERSION) {
                    return Err(format!("unsupported protocol version {version:?}"));
                }
                self.started = true;
                Ok(Reply::Respond(json!({
                    "ready": true,
                    "version": PROTOCOL_VERSION,
                    "implementation": implementation(),
                })))
            }
            "dialect" => {
                let uri = command.get("dialect").and_then(Value::as_str).ok_or("dialect without \"dialect\"")?;
                match Draft::from_meta_schema_uri(uri) {
                    Some(d) => {
                        self.draft = d;
                        Ok(Reply::Respond(json!({"ok": true})))
                    }
                    None => Ok(Reply::Respond(json!({"ok": false}))),
                }
            }
            "run" => {
                let seq = command.get("seq").cloned().ok_or("run without \"seq\"")?;
                let case = command.get("case").ok_or("run without \"case\"")?;
                Ok(Reply::Respond(self.run(seq, case)?))
            }
            "stop" => Ok(Reply::Stop),
            other => Err(format!("unknown command {other:?}")),
        }
    }

    fn run(&self, seq: Value, case: &Value) -> Result<Value, String> {
        let schema = case.get("schema").ok_or("case without \"schema\"")?;
        let tests = case.get("tests").and_then(Value::as_array).ok_or("case without \"tests\"")?;
        let mut options = Validator::options().draft(self.draft);
        if let Some(Value::Object(registry)) = case.get("registry") {
            for (uri, doc) in registry {
                options = options.resource(uri.clone(), doc.clone());
            }
        }
        let validator = match options.build(schema) {
            Ok(v) => v,
            Err(e) => {
                return Ok(json!({"seq": seq, "errored": true, "context": {"message": e.to_string()}}));
            }
        };
        let results: Vec<Value> = tests
            .iter()
            .map(|t| {
                let instance = t.get("instance").unwrap_or(&Value::Null);
                match validator.validate(instance) {
                    Ok(()) => json!({"valid": true}),
                    Err(e) if e.is_budget_exceeded() => {
                        json!({"errored": true, "context": {"message": e.to_string()}})
                    }
                    Err(_) => json!({"valid": false}),
                }
            })
            .collect();
        Ok(json!({"seq": seq, "results": results}))
    }
}

fn implementation() -> Value {
    let repository = "https://github.com/schemavm/schemavm";
    json!({
        "language": "rust",
        "name": "schemavm",
        "version": env!("CARGO_PKG_VERSION"),
        "dialects": Draft::ALL.iter().rev().map(|d| d.meta_schema_uri()).collect::<Vec<_>>(),
        "homepage": repository,
        "issues": format!("{repository}/issues"),
        "source": repository,
        "os": std::env::consts::OS,
        "os_version": std::env::consts::ARCH,
    })
}

/// Runs a session over `input` and `output` until `stop` or end of input.
pub fn serve(input: impl BufRead, mut output: impl Write) -> Result<(), String> {
    let mut harness = Harness::new();
    for line in input.lines() {
        let line = line.map_err(|e| format!("reading a command: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        match harness.handle(&line)? {
            Reply::Respond(v) => {
                writeln!(output, "{v}")
                    .and_then(|()| output.flush())
                    .map_err(|e| format!("writing a response: {e}"))?;
            }
            Reply::Stop => return Ok(()),
        }
    }
    Ok(())
}
