//! [`KeyTable`]: a fixed set of strings built at compile time, looked up
//! with instance keys at run time.
//!
//! Small tables (the common case for `properties`) are scanned linearly,
//! comparing lengths before bytes; larger ones use open addressing with
//! linear probing at load factor ≤ 1/2. The table never changes after
//! construction, so an instance key can only probe the clusters the
//! schema's own keys formed: lookups stay O(longest cluster) whatever the
//! instance.

/// Tables up to this size are scanned instead of hashed.
const LINEAR_MAX: usize = 8;

/// An immutable string → index map.
#[derive(Debug, Clone, Default)]
pub struct KeyTable {
    keys: Box<[Box<str>]>,
    /// Open-addressing slots holding `index + 1` (0 = empty); empty for
    /// linear tables.
    slots: Box<[u32]>,
    mask: usize,
}

impl KeyTable {
    /// Builds a table; `keys` must be distinct. Index `i` is `keys[i]`.
    pub fn new(keys: Vec<Box<str>>) -> KeyTable {
        let keys = keys.into_boxed_slice();
        if keys.len() <= LINEAR_MAX {
            return KeyTable { keys, slots: Box::new([]), mask: 0 };
        }
        let size = (keys.len() * 2).next_power_of_two();
        let mask = size - 1;
        let mut slots = vec![0u32; size];
        for (i, k) in keys.iter().enumerate() {
            let mut pos = hash(k.as_bytes()) as usize & mask;
            loop {
                match slots.get_mut(pos) {
                    Some(slot) if *slot == 0 => {
                        *slot = u32::try_from(i + 1).unwrap_or(u32::MAX);
                        break;
                    }
                    _ => pos = (pos + 1) & mask,
                }
            }
        }
        KeyTable { keys, slots: slots.into_boxed_slice(), mask }
    }

    /// The index of `key`, if present.
    #[inline]
    pub fn find(&self, key: &str) -> Option<u32> {
        if self.slots.is_empty() {
            return self
                .keys
                .iter()
                .position(|k| k.len() == key.len() && k.as_bytes() == key.as_bytes())
                .map(|i| i as u32);
        }
        let mut pos = hash(key.as_bytes()) as usize & self.mask;
        loop {
            let slot = *self.slots.get(pos)?;
            if slot == 0 {
                return None;
            }
            let index = slot - 1;
            if self.keys.get(index as usize).is_some_and(|k| **k == *key) {
                return Some(index);
            }
            pos = (pos + 1) & self.mask;
        }
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The key at `index`.
    #[inline]
    pub fn key(&self, index: u32) -> Option<&str> {
        self.keys.get(index as usize).map(|k| &**k)
    }

    /// All keys, by index.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.keys.iter().map(|k| &**k)
    }
}

/// A fast, non-cryptographic byte hash (multiply–rotate over 8-byte words).
#[inline]
fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h: u64 = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        for (d, s) in w.iter_mut().zip(rest) {
            *d = *s;
        }
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
    }
    h ^ (h >> 29)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(n: usize) -> KeyTable {
        KeyTable::new((0..n).map(|i| format!("key{i}").into_boxed_str()).collect())
    }

    #[test]
    fn finds_every_key_small_and_large() {
        for n in [0, 1, 5, 8, 9, 100, 1000] {
            let t = table(n);
            for i in 0..n {
                assert_eq!(t.find(&format!("key{i}")), Some(i as u32));
            }
            assert_eq!(t.find("missing"), None);
            assert_eq!(t.find(""), None);
        }
    }

    #[test]
    fn keys_are_reported_back() {
        let t = table(20);
        assert_eq!(t.key(3), Some("key3"));
        assert_eq!(t.key(20), None);
        assert_eq!(t.keys().count(), 20);
    }
}
