//! Drives the Bowtie harness binary with a recorded session and checks
//! every answer.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

#[test]
fn recorded_session() {
    let session = include_str!("bowtie/session.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_bowtie-schemavm"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the harness starts");
    child.stdin.take().expect("stdin").write_all(session.as_bytes()).expect("commands are written");
    let out = child.wait_with_output().expect("the harness exits");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let answers: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each answer is JSON"))
        .collect();
    assert_eq!(answers.len(), 7, "{answers:?}");
    let start = &answers[0];
    assert_eq!(start["ready"], json!(true));
    assert_eq!(start["version"], json!(1));
    assert_eq!(start["implementation"]["name"], json!("schemavm"));
    assert_eq!(start["implementation"]["language"], json!("rust"));
    let dialects = start["implementation"]["dialects"].as_array().expect("dialects");
    assert_eq!(dialects.len(), 5);
    assert!(dialects.contains(&json!("https://json-schema.org/draft/2020-12/schema")));
    assert_eq!(answers[1], json!({"ok": true}));
    assert_eq!(answers[2], json!({"seq": 1, "results": [{"valid": true}, {"valid": false}]}));
    assert_eq!(answers[3], json!({"ok": true}));
    assert_eq!(answers[4], json!({"seq": 2, "results": [{"valid": true}, {"valid": false}]}));
    assert_eq!(answers[5]["seq"], json!(3));
    assert_eq!(answers[5]["errored"], json!(true));
    let message = answers[5]["context"]["message"].as_str().expect("message");
    assert!(message.contains("http://example.com/missing.json"), "{message}");
    assert_eq!(answers[6], json!({"ok": false}));
}

#[test]
fn protocol_violations_fail_the_harness() {
    let mut h = schemavm_test_suite::bowtie::Harness::new();
    assert!(h.handle(r#"{"cmd": "run", "seq": 1, "case": {}}"#).is_err(), "run before start");
    assert!(h.handle("not json").is_err());
    assert!(h.handle(r#"{"cmd": "start", "version": 2}"#).is_err());
    assert!(h.handle(r#"{"cmd": "start", "version": 1}"#).is_ok());
    assert!(h.handle(r#"{"cmd": "explode"}"#).is_err());
    assert_eq!(h.handle(r#"{"cmd": "stop"}"#), Ok(schemavm_test_suite::bowtie::Reply::Stop));
}
