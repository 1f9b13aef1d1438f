//! Runs one benchmark case in a loop, for profilers (`perf record`,
//! `valgrind --tool=callgrind`):
//!
//! ```text
//! cargo build --release -p schemavm-benches --bin profile
//! perf record -g target/release/profile geojson canada 200
//! ```
//!
//! Arguments: optionally `--errors` (time `iter_errors`, counting the
//! errors, instead of `is_valid`), `--compile` (time compiling the
//! case's schema, or the MCP shape's ten tool schemas, after one compile
//! outside the loop that does the one-time set-up such as meta-schemas)
//! or `--walk` (time a plain walk of the instance,
//! [`schemavm_benches::walk`], the floor under every peer; no peer), case
//! name (from `cases.json`, `errors.json`, `keyword-NAME` from
//! `keywords.json`, `meta-NAME` for a schema document against its
//! meta-schema, or `mcp` for the MCP shape: every generated call, any
//! instance name), instance name (file stem; `invalid` for an
//! `errors.json` case, `valid`, `invalid`, `invalid-2` … for a keyword
//! case, `schema` for a meta case, any name when compiling), iterations, and optionally the peer (`schemavm`,
//! the default, `jsonschema` or `boon`).

use std::hint::black_box;
use std::time::Instant;

use serde_json::Value;

use schemavm_benches::{Formats, Peer, all_cases, data_dir};

fn main() -> Result<(), String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--walk` times no peer: it has no `Mode`.
    let walk = args.first().is_some_and(|a| a == "--walk");
    let mode = match args.first().map(String::as_str) {
        Some("--errors") => Mode::Errors,
        Some("--compile") => Mode::Compile,
        _ => Mode::IsValid,
    };
    if walk || mode != Mode::IsValid {
        args.remove(0);
    }
    let [case, instance, iterations, rest @ ..] = args.as_slice() else {
        return Err(
            "usage: profile [--errors|--compile|--walk] CASE INSTANCE ITERATIONS [schemavm|jsonschema|boon]".into()
        );
    };
    let iterations: u64 = iterations.parse().map_err(|e| format!("iterations: {e}"))?;
    let peer = match rest.first().map(String::as_str) {
        None | Some("schemavm") => Peer::Schemavm,
        Some("jsonschema") => Peer::Jsonschema,
        Some("boon") => Peer::Boon,
        Some(other) => return Err(format!("unknown peer {other}")),
    };
    if case == "mcp" {
        // The MCP shape: every generated call against its tool's schema.
        let tools = schemavm_benches::mcp::tools();
        let calls = schemavm_benches::mcp::calls(&tools);
        let validators = peer.compile_all(&tools, Formats::Default)?;
        let start = Instant::now();
        let mut count = 0u64;
        if mode == Mode::Compile {
            for _ in 0..iterations {
                count += peer.compile_all(black_box(&tools), Formats::Default).map_or(0, |v| v.len() as u64);
            }
            let per = start.elapsed().as_nanos() as f64 / iterations as f64;
            println!("{} mcp: {per:.0} ns per compile of the {} tools ({count} compiled)", peer.name(), tools.len());
            return Ok(());
        }
        for _ in 0..iterations {
            for call in &calls {
                let v = validators.get(call.tool).ok_or("no such tool")?;
                count += u64::from(v.is_valid(black_box(&call.arguments)));
            }
        }
        let per = start.elapsed().as_nanos() as f64 / iterations as f64;
        println!("{} mcp/{instance}: {per:.0} ns per {} calls ({count} valid in all)", peer.name(), calls.len());
        return Ok(());
    }
    let dir = data_dir()?;
    let all = all_cases(&dir)?;
    let c = all.iter().find(|c| c.name == *case).ok_or(format!("no case {case}"))?;
    // Compiling needs no instance: schema documents (`openapi`,
    // `subresources-*`) have none, and any name is taken for them.
    let no_instance = Value::Null;
    let value = match c.instances.iter().find(|(n, _)| n == instance) {
        Some((_, value)) => value,
        None if mode == Mode::Compile => &no_instance,
        None => return Err(format!("no instance {instance}")),
    };
    if walk {
        let start = Instant::now();
        let count: u64 = (0..iterations).map(|_| schemavm_benches::walk::walk(black_box(value)) as u64).sum();
        let per = start.elapsed().as_nanos() as f64 / iterations as f64;
        println!("walk {case}/{instance}: {per:.0} ns per walk ({count} in all)");
        return Ok(());
    }
    let v = peer.compile_with(&c.schema, c.formats)?;
    let start = Instant::now();
    let mut count = 0u64;
    for _ in 0..iterations {
        count += match mode {
            Mode::IsValid => u64::from(v.is_valid(black_box(value))),
            Mode::Errors => v.error_count(black_box(value)) as u64,
            Mode::Compile => u64::from(peer.compile_with(black_box(&c.schema), c.formats).is_ok()),
        };
    }
    let per = start.elapsed().as_nanos() as f64 / iterations as f64;
    match mode {
        Mode::IsValid => {
            println!("{} {case}/{instance}: {per:.2} ns per is_valid ({count}/{iterations} valid)", peer.name())
        }
        Mode::Errors => {
            println!("{} {case}/{instance}: {per:.1} ns per iter_errors ({count} errors in all)", peer.name())
        }
        Mode::Compile => println!("{} {case}: {per:.0} ns per compile ({count}/{iterations} compiled)", peer.name()),
    }
    Ok(())
}

/// What the loop runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    IsValid,
    Errors,
    Compile,
}
