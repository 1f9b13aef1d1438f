//! `Validator::evaluate` on the malicious-schema corpus (`fuzz/malicious`):
//! it agrees with `outcome` or stops on its budget, and its output renders
//! (in a test binary of its own, so the heap bound of `tests/corpus.rs` is
//! measured without it).

use std::path::Path;

#[test]
fn evaluate_agrees_and_stays_bounded() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/malicious");
    let cases = schemavm::corpus::load_dir(&dir).expect("the corpus loads");
    let budget = schemavm::Budget { fuel: 20_000_000, ..schemavm::Budget::default() };
    let failures: Vec<String> = cases.iter().filter_map(|c| c.check_evaluate(&budget).err()).collect();
    cases.into_iter().for_each(schemavm::corpus::Case::discard);
    assert!(failures.is_empty(), "{failures:#?}");
}
