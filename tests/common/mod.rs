//! Running the `schemavm` binary from the crate root, for the CLI tests.

use std::path::Path;
use std::process::{Command, Output};

/// Runs `schemavm ARGS` with the crate root as working directory.
pub fn schemavm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_schemavm"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .output()
        .expect("the schemavm binary runs")
}

/// Standard output, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
