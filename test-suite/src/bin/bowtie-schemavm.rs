//! The Bowtie harness binary: speaks Bowtie's protocol on stdin/stdout.

use std::io::{stdin, stdout};
use std::process::ExitCode;

fn main() -> ExitCode {
    match schemavm_test_suite::bowtie::serve(stdin().lock(), stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bowtie-schemavm: {e}");
            ExitCode::FAILURE
        }
    }
}
