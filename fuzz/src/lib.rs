//! Shared code of the schemavm fuzz targets: the invariants every target
//! checks ([`check_instance`]), input splitting, and the structure-aware
//! generators of the `structured` target ([`generate`]).

pub mod divergence;
pub mod generate;

use schemavm::{Budget, Draft, ErrorKind, ValidationError, Validator};
use serde_json::{Value, json};

/// The verdict of one validation under the default budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The instance is valid.
    Valid,
    /// The instance is invalid.
    Invalid,
    /// The default budget ran out (fuel, depth, deadline or regex limit).
    Exhausted,
}

/// The instances `compile_bytes` validates against every schema that compiles.
pub fn fixed_instances() -> Vec<Value> {
    vec![
        Value::Null,
        json!(0),
        json!(1.5),
        json!(""),
        json!("a"),
        json!([]),
        json!([1, [2]]),
        json!({}),
        json!({"a": {"b": [1, "x"]}}),
    ]
}

/// A draft chosen by one input byte.
pub fn draft_from_byte(b: u8) -> Draft {
    Draft::ALL[usize::from(b) % Draft::ALL.len()]
}

/// Splits `data` at its first NUL byte (which valid JSON text never
/// contains): the schema before, the instance after. Without a NUL the
/// instance is empty (and will not parse).
pub fn split_schema_instance(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}

/// Compiles `schema` with default options and again with `draft` as the
/// dialect for schemas without `$schema`. Returns the validators that
/// compiled. Compilation must not panic; its result must be deterministic.
pub fn compile_both(schema: &Value, draft: Draft) -> Vec<Validator> {
    let mut out = Vec::new();
    let first = Validator::new(schema);
    // Determinism of compilation: the same verdict and the same error.
    let again = Validator::new(schema);
    match (&first, &again) {
        (Ok(_), Ok(_)) => {}
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "compile error is not deterministic"),
        _ => panic!("compilation is not deterministic: {first:?} vs {again:?}"),
    }
    if let Ok(v) = first {
        out.push(v);
    }
    if let Ok(v) = Validator::options().draft(draft).build(schema) {
        out.push(v);
    }
    out
}

/// Checks that `error`, a budget-exceeded error, reports no more fuel
/// used than was given.
fn check_exhaustion(error: &ValidationError, fuel: u64) {
    match error.kind() {
        ErrorKind::BudgetExceeded { fuel_used, .. } => {
            assert!(*fuel_used <= fuel, "fuel_used {fuel_used} > fuel {fuel}: {error:?}");
        }
        other => panic!("is_budget_exceeded() but kind is {other:?}"),
    }
}

/// Validates `instance` in every way the public API offers and checks the
/// invariants that must hold between them:
///
/// * no panic (libFuzzer reports one);
/// * `is_valid(i) == validate(i).is_ok()` (both under the default budget;
///   an exhausted budget makes `is_valid` false and `validate` an error);
/// * when no budget ran out, `iter_errors(i)` is empty exactly when
///   `is_valid(i)`, and `validate`'s error is `iter_errors`' first;
/// * a budget-exceeded error only ever comes last in `iter_errors` and
///   reports `fuel_used <= fuel`;
/// * determinism: the same verdict and the same errors every time;
/// * under a small fuel budget (`small_fuel`), `validate_with` either
///   reports `BudgetExceeded` with `fuel_used <= small_fuel`, or reaches
///   the same verdict (and the same first error) as the default budget.
pub fn check_instance(v: &Validator, instance: &Value, small_fuel: u64) -> Verdict {
    let default_fuel = Budget::default().fuel;
    let valid = v.is_valid(instance);
    let validated = v.validate(instance);
    assert_eq!(valid, validated.is_ok(), "is_valid = {valid} but validate = {validated:?}");
    let exhausted = matches!(&validated, Err(e) if e.is_budget_exceeded());
    if let Err(e) = &validated
        && e.is_budget_exceeded()
    {
        check_exhaustion(e, default_fuel);
    }

    let errors: Vec<ValidationError> = v.iter_errors(instance).collect();
    for (i, e) in errors.iter().enumerate() {
        if e.is_budget_exceeded() {
            assert_eq!(i + 1, errors.len(), "a budget-exceeded error is not the last one: {errors:?}");
            check_exhaustion(e, default_fuel);
        }
    }
    let errors_exhausted = errors.last().is_some_and(ValidationError::is_budget_exceeded);
    if !exhausted && !errors_exhausted {
        assert_eq!(
            errors.is_empty(),
            valid,
            "iter_errors().next().is_none() != is_valid ({valid}); errors: {errors:?}"
        );
        if let Err(e) = &validated {
            assert_eq!(Some(e), errors.first(), "validate's error is not iter_errors' first");
        }
    }

    // Determinism.
    assert_eq!(valid, v.is_valid(instance), "is_valid is not deterministic");
    assert_eq!(validated, v.validate(instance), "validate is not deterministic");
    let errors_again: Vec<ValidationError> = v.iter_errors(instance).collect();
    assert_eq!(errors, errors_again, "iter_errors is not deterministic");

    // A small budget.
    let budget = Budget { fuel: small_fuel, ..Budget::default() };
    let small = v.validate_with(instance, &budget);
    match &small {
        Err(e) if e.is_budget_exceeded() => check_exhaustion(e, small_fuel),
        Ok(()) => assert!(valid, "valid under fuel {small_fuel} but not under the default budget: {validated:?}"),
        Err(e) => {
            assert!(!valid, "invalid under fuel {small_fuel} ({e:?}) but valid under the default budget");
            if !exhausted {
                assert_eq!(Some(e), validated.as_ref().err(), "first error differs under fuel {small_fuel}");
            }
        }
    }
    assert_eq!(small, v.validate_with(instance, &budget), "validate_with is not deterministic");

    if exhausted {
        Verdict::Exhausted
    } else if valid {
        Verdict::Valid
    } else {
        Verdict::Invalid
    }
}

/// A small fuel budget derived from the input, so runs explore budgets
/// from 0 up to a few thousand units.
pub fn small_fuel(data: &[u8]) -> u64 {
    let h = data.iter().fold(0u64, |h, &b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
    h % 4_000
}
