//! `cargo bench -p schemavm-benches`: schemavm, jsonschema and boon side
//! by side on `../shared/bench-data/cases.json` (`is_valid` per instance,
//! compile per schema), then a table of medians and ratios read back from
//! this run's criterion estimates.
//!
//! `SCHEMAVM_BENCH_QUICK=1` shortens measurement (for a smoke run).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::Criterion;
use schemavm_benches::{Peer, cases, data_dir};

fn main() {
    let dir = match data_dir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let cases = match cases(&dir) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/criterion");
    let mut c = Criterion::default().output_directory(&out).configure_from_args();
    if std::env::var_os("SCHEMAVM_BENCH_QUICK").is_some() {
        c = c.warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1)).sample_size(10);
    }
    let mut rows = Vec::new();
    for case in &cases {
        let compiled: Vec<_> = Peer::ALL.iter().map(|p| (*p, p.compile(&case.schema))).collect();
        for (instance_name, instance) in &case.instances {
            let group_name = format!("is_valid-{}-{}", case.name, instance_name);
            let mut group = c.benchmark_group(&group_name);
            let mut verdicts = Vec::new();
            for (peer, v) in &compiled {
                match v {
                    Ok(v) => {
                        verdicts.push((peer.name(), v.is_valid(instance)));
                        group.bench_function(peer.name(), |b| b.iter(|| v.is_valid(black_box(instance))));
                    }
                    Err(e) => eprintln!("{group_name}: {} does not compile the schema: {e}", peer.name()),
                }
            }
            group.finish();
            rows.push((group_name, verdicts));
        }
        let group_name = format!("compile-{}", case.name);
        let mut group = c.benchmark_group(&group_name);
        group.sample_size(10);
        for peer in Peer::ALL {
            if peer.compile(&case.schema).is_ok() {
                group.bench_function(peer.name(), |b| b.iter(|| peer.compile(black_box(&case.schema)).is_ok()));
            }
        }
        group.finish();
        rows.push((group_name, Vec::new()));
    }
    c.final_summary();
    print_table(&out, &rows);
}

/// The median estimate, in nanoseconds, criterion recorded for a benchmark.
fn median_ns(out: &Path, group: &str, function: &str) -> Option<f64> {
    let path: PathBuf = out.join(group).join(function).join("new").join("estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v.get("median")?.get("point_estimate")?.as_f64()
}

fn human(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.1} ns")
    }
}

fn print_table(out: &Path, rows: &[(String, Vec<(&str, bool)>)]) {
    println!("\n| benchmark | valid | schemavm | jsonschema | boon | jsonschema / schemavm | boon / schemavm |");
    println!("|---|---|---|---|---|---|---|");
    let mut log_sum = 0.0;
    let mut n = 0;
    for (group, verdicts) in rows {
        let t: Vec<Option<f64>> = Peer::ALL.iter().map(|p| median_ns(out, group, p.name())).collect();
        let cell = |x: Option<f64>| x.map(human).unwrap_or_else(|| "—".into());
        let ratio = |x: Option<f64>| match (x, t.first().copied().flatten()) {
            (Some(peer), Some(ours)) if ours > 0.0 => format!("{:.2}×", peer / ours),
            _ => "—".into(),
        };
        let valid = match verdicts.first() {
            None => "".to_string(),
            Some((_, v)) => {
                let agree = verdicts.iter().all(|(_, x)| x == v);
                if agree { v.to_string() } else { format!("{v} (peers disagree: {verdicts:?})") }
            }
        };
        if let (true, Some(Some(ours)), Some(Some(js))) = (group.starts_with("is_valid"), t.first(), t.get(1)) {
            log_sum += (js / ours).ln();
            n += 1;
        }
        println!(
            "| {group} | {valid} | {} | {} | {} | {} | {} |",
            cell(t.first().copied().flatten()),
            cell(t.get(1).copied().flatten()),
            cell(t.get(2).copied().flatten()),
            ratio(t.get(1).copied().flatten()),
            ratio(t.get(2).copied().flatten()),
        );
    }
    if n > 0 {
        println!("\ngeometric mean of jsonschema / schemavm over is_valid cases: {:.2}×", (log_sum / n as f64).exp());
    }
}
