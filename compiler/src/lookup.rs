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
const LINEAR_MAX: usize = 4;

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
            return self.keys.iter().position(|k| same(k.as_bytes(), key.as_bytes())).map(|i| i as u32);
        }
        let mut pos = hash(key.as_bytes()) as usize & self.mask;
        loop {
            let slot = *self.slots.get(pos)?;
            if slot == 0 {
                return None;
            }
            let index = slot - 1;
            if self.keys.get(index as usize).is_some_and(|k| same(k.as_bytes(), key.as_bytes())) {
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

/// Two words that together hold every byte of a key of up to 16 bytes
/// (overlapping loads of its head and tail); for longer keys, a sample.
#[inline]
fn head_tail(b: &[u8]) -> (u64, u64) {
    let n = b.len();
    let load8 = |at: usize| b.get(at..at + 8).and_then(|s| s.try_into().ok()).map_or(0, u64::from_le_bytes);
    let load4 =
        |at: usize| b.get(at..at + 4).and_then(|s| s.try_into().ok()).map_or(0, |w| u64::from(u32::from_le_bytes(w)));
    let byte = |at: usize| b.get(at).map_or(0, |x| u64::from(*x));
    if n >= 8 {
        (load8(0), load8(n - 8))
    } else if n >= 4 {
        (load4(0), load4(n - 4))
    } else if n > 0 {
        (byte(0) | byte(n / 2) << 8 | byte(n - 1) << 16, 0)
    } else {
        (0, 0)
    }
}

/// A fast, non-cryptographic hash of a key: its length and its first and
/// last bytes, in constant time. (The table is fixed at compile time, so
/// collisions only lengthen the probes the schema's own keys set up; an
/// instance cannot make them longer.)
#[inline]
fn hash(bytes: &[u8]) -> u64 {
    const K1: u64 = 0x9e37_79b9_7f4a_7c15;
    const K2: u64 = 0xc2b2_ae3d_27d4_eb4f;
    let (head, tail) = head_tail(bytes);
    let h = (head ^ bytes.len() as u64).wrapping_mul(K1).rotate_left(29) ^ tail;
    let h = h.wrapping_mul(K2);
    h ^ (h >> 32)
}

/// Byte equality, inline for keys up to 16 bytes.
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && if a.len() <= 16 { head_tail(a) == head_tail(b) } else { a == b }
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
    fn keys_of_every_length_are_told_apart() {
        let keys: Vec<Box<str>> =
            (0..40).map(|n| "ab".repeat(n / 2).chars().take(n).collect::<String>().into()).collect();
        let mut keys = keys;
        keys.dedup();
        let t = KeyTable::new(keys.clone());
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(t.find(k), Some(i as u32), "{k:?}");
        }
        assert_eq!(t.find("abababababababababac"), None);
        assert_eq!(t.find("bbababababababababab"), None);
        assert!(same(b"x-foo", b"x-foo") && !same(b"x-foo", b"x-fop") && !same(b"x-foo", b"x-fo"));
        assert!(same("é".as_bytes(), "é".as_bytes()));
    }

    #[test]
    fn keys_are_reported_back() {
        let t = table(20);
        assert_eq!(t.key(3), Some("key3"));
        assert_eq!(t.key(20), None);
        assert_eq!(t.keys().count(), 20);
    }
}
