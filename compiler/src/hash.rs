//! The compiler's hashers.
//!
//! * [`IdHasher`]: a cheap, unkeyed hasher for tables keyed by values
//!   schemavm creates itself: node and resource indices, interned scope
//!   ids, and addresses of parsed documents' or instances' values (the
//!   compiler's tables and the VM's memo). None is chosen by the schema's
//!   text, so a keyed hash buys nothing there.
//! * [`TextMap`]/[`TextSet`]: tables keyed by text from the schema (JSON
//!   Pointers, property names, URIs, patterns) or by what it determines
//!   (the sets of NFA states a pattern's DFA is built from), hashed by
//!   foldhash with a seed drawn per table. A schema cannot aim collisions
//!   at a seed it does not know, and each table lives for one compilation,
//!   so there is no long-running state to study; foldhash hashes a short
//!   string in a few multiplies, where the standard library's SipHash took
//!   about 7% of a large schema's compile time (fhir's).
//! * [`ValueState`]: the keyed hash of instance values (`uniqueItems` over
//!   many items), foldhash again with a seed drawn per evaluation: an
//!   instance cannot aim collisions at it either, and a collision only
//!   costs an equality test, charged as fuel. The table of those hashes is
//!   an [`IdMap`]: its keys are outputs of the keyed hash already.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Folded-multiply hashing of machine words: each word is mixed in by a
/// 64×64→128-bit multiply whose halves are XORed together, so low and
/// high input bits both reach every output bit (addresses, whose low bits
/// are alignment zeros, spread over the buckets).
#[derive(Debug, Default, Clone, Copy)]
pub struct IdHasher(u64);

/// An odd constant with well-spread bits (the golden ratio in 64 bits).
const MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;

impl IdHasher {
    #[inline]
    fn mix(&mut self, word: u64) {
        let product = u128::from(self.0 ^ word) * u128::from(MULTIPLIER);
        self.0 = (product as u64) ^ ((product >> 64) as u64);
    }
}

impl Hasher for IdHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word.iter_mut().zip(chunk).for_each(|(w, b)| *w = *b);
            self.mix(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.mix(u64::from(n));
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.mix(n);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.mix(n as u64);
    }
}

/// The `BuildHasher` of [`IdHasher`]: free to create (no seed).
pub type IdState = BuildHasherDefault<IdHasher>;

/// A `HashMap` hashed by [`IdHasher`], for keys schemavm creates.
pub type IdMap<K, V> = HashMap<K, V, IdState>;

/// A `HashMap` keyed by text from the schema, with a per-table seed.
pub type TextMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// A `HashSet` of text from the schema, with a per-table seed.
pub type TextSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;

/// The keyed hash of instance values; `default()` draws a new seed.
pub type ValueState = foldhash::fast::RandomState;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn aligned_addresses_spread_over_low_bits() {
        let state = BuildHasherDefault::<IdHasher>::default();
        let buckets: std::collections::HashSet<u64> = (0..256u64).map(|i| state.hash_one(i * 64) & 255).collect();
        assert!(buckets.len() > 128, "{} distinct buckets", buckets.len());
    }
}
