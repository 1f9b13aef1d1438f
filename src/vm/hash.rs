//! A fast hasher for the VM's internal tables, whose keys are node ids,
//! interned scope ids and instance addresses: none chosen by the input,
//! so a keyed (DoS-resistant) hash buys nothing there.

use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-rotate hashing of machine words.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct WordHasher(u64);

const K: u64 = 0x9e37_79b9_7f4a_7c15;

impl Hasher for WordHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 31)
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(26) ^ n).wrapping_mul(K);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// The `BuildHasher` of [`WordHasher`]: free to create (no allocation, no
/// thread-local seed).
pub(crate) type WordState = BuildHasherDefault<WordHasher>;
