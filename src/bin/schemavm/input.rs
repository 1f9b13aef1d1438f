//! Reading JSON documents with errors that name the file and position.

use serde_json::Value;

/// Reads and parses a JSON file (`-` is standard input).
pub fn read_json(path: &str) -> Result<Value, String> {
    let text = if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| format!("<stdin>: cannot read: {e}"))?;
        s
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?
    };
    // serde_json's message ends with the line and column.
    serde_json::from_str(&text).map_err(|e| format!("{path}: malformed JSON: {e}"))
}
