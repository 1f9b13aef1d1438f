//! Checks known to fail, learnt while collecting errors.
//!
//! While recording errors, each subschema below the root is first checked
//! quietly (see [`Vm::descend_node`](super::Vm)), and evaluated again with
//! recording only if it fails. On a failing path that alone would be
//! quadratic: the quiet check of a node runs its whole subtree down to
//! the first failure, then its recorded evaluation checks each child
//! quietly again, down the same path, and so on at every level.
//!
//! A quiet check that fails unwinds through every subschema on the path
//! to its first failure; the object, array, `anyOf` and `oneOf`
//! instructions among them (the subschemas a document's path runs
//! through) are noted here as failing at their instance value. The
//! recorded evaluation that follows then skips the quiet pre-check of a
//! subschema whose only instruction, past its forwarding `$ref`s (which
//! all have its verdict), is one of those: the path is walked quietly
//! once, not once per level. (Scalar checks are not noted: checking one
//! again costs no more than a lookup.)
//!
//! An instruction is named by its [`Target`], the value by its address,
//! stable for the whole evaluation (values that are not part of the
//! instance are checked by a detached evaluation with a list of its own).
//! The verdict of a subschema at a value is the same wherever it is
//! reached, except under a dynamic scope: programs that keep one note
//! nothing. The list holds the last [`KNOWN_FAILURES`] noted: a forgotten
//! one only costs its quiet check again.

use schemavm_compiler::bytecode::Target;

/// How many failures [`KnownFailures`] remembers.
const KNOWN_FAILURES: usize = 16;

/// The last [`KNOWN_FAILURES`] (subschema, value address) pairs noted as
/// failing, oldest overwritten first. The addresses are kept apart, so
/// that a lookup for a value none failed at (most lookups: the
/// subschemas that pass) scans them alone.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KnownFailures {
    values: [usize; KNOWN_FAILURES],
    targets: [Target; KNOWN_FAILURES],
    /// How many entries are filled.
    len: u8,
    /// Where the next one goes.
    next: u8,
}

impl Default for KnownFailures {
    fn default() -> Self {
        KnownFailures { values: [0; KNOWN_FAILURES], targets: [Target::Valid; KNOWN_FAILURES], len: 0, next: 0 }
    }
}

impl KnownFailures {
    /// Notes that `target` fails at the value at address `value`.
    pub(crate) fn note(&mut self, target: Target, value: usize) {
        let at = usize::from(self.next);
        if let (Some(v), Some(t)) = (self.values.get_mut(at), self.targets.get_mut(at)) {
            (*v, *t) = (value, target);
        }
        self.next = u8::try_from((at + 1) % KNOWN_FAILURES).unwrap_or(0);
        if usize::from(self.len) < KNOWN_FAILURES {
            self.len += 1;
        }
    }

    /// Whether some subschema was noted failing at the value at address
    /// `value`.
    #[inline]
    pub(crate) fn any_at(&self, value: usize) -> bool {
        self.values.get(..usize::from(self.len)).unwrap_or(&[]).contains(&value)
    }

    /// Whether `target` was noted failing at the value at address `value`.
    pub(crate) fn contains(&self, target: Target, value: usize) -> bool {
        let len = usize::from(self.len);
        let values = self.values.get(..len).unwrap_or(&[]);
        values.iter().zip(&self.targets).any(|(&v, &t)| v == value && t == target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_the_last_failures_noted() {
        let mut known = KnownFailures::default();
        assert!(!known.contains(Target::Invalid, 100));
        for i in 0..KNOWN_FAILURES + 3 {
            known.note(Target::Invalid, 100 + i);
        }
        // The three oldest were overwritten; the others are all there.
        for i in 0..3 {
            assert!(!known.contains(Target::Invalid, 100 + i), "{i}");
        }
        for i in 3..KNOWN_FAILURES + 3 {
            assert!(known.contains(Target::Invalid, 100 + i) && known.any_at(100 + i), "{i}");
            assert!(!known.contains(Target::Valid, 100 + i), "{i}: another subschema");
        }
        assert!(known.any_at(100 + KNOWN_FAILURES) && !known.any_at(100));
        assert_eq!(usize::from(known.len), KNOWN_FAILURES);
    }
}
