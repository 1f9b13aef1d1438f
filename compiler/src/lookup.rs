//! [`KeyTable`]: a fixed set of strings built at compile time, looked up
//! with instance keys at run time.
//!
//! Each slot can carry a small `Copy` payload (`P`, `()` by default),
//! set after construction: what a lookup's caller needs most often sits
//! beside the key's signature, so a hit reads one slot and no second
//! table.
//!
//! Small tables (the common case for `properties`) are scanned linearly,
//! comparing signatures (length and leading/trailing bytes) before bytes;
//! larger ones use open addressing with linear probing at load factor
//! ≤ 1/2. Each slot holds its key's signature inline, so a probe reads one
//! slot and touches the key itself only for keys longer than 16 bytes.
//! The table never changes after construction, so an instance key can
//! only probe the clusters the schema's own keys formed: lookups stay
//! O(longest cluster) whatever the instance.

use crate::bytes;

/// Tables up to this size are scanned instead of hashed.
const LINEAR_MAX: usize = 8;

/// The length recorded in empty slots; no key's signature has it.
const EMPTY_LEN: u32 = u32::MAX;

/// A key's first and last eight bytes (overlapping loads) with its length
/// (clamped below [`EMPTY_LEN`]): for keys up to 16 bytes, equal
/// signatures mean equal keys.
#[derive(Debug, Clone, Copy)]
struct Signature {
    head: u64,
    tail: u64,
    len: u32,
}

impl Signature {
    #[inline]
    fn of(key: &str) -> Signature {
        let b = key.as_bytes();
        let n = b.len();
        let byte = |at: usize| b.get(at).map_or(0, |x| u64::from(*x));
        let (head, tail) = if n >= 8 {
            (bytes::word(b, 0), bytes::word(b, n - 8))
        } else if n >= 4 {
            (bytes::half(b, 0), bytes::half(b, n - 4))
        } else if n > 0 {
            (byte(0) | byte(n / 2) << 8 | byte(n - 1) << 16, 0)
        } else {
            (0, 0)
        };
        // Clamped below `EMPTY_LEN` in one comparison (the cast is exact
        // after it).
        Signature { head, tail, len: n.min(EMPTY_LEN as usize - 1) as u32 }
    }

    /// Whether equal signatures alone prove equal keys.
    #[inline]
    fn exact(&self) -> bool {
        self.len <= 16
    }

    /// A fast, non-cryptographic hash. (The table is fixed at compile time,
    /// so collisions only lengthen the probes the schema's own keys set up;
    /// an instance cannot make them longer.)
    #[inline]
    fn hash(&self) -> usize {
        const K1: u64 = 0x9e37_79b9_7f4a_7c15;
        const K2: u64 = 0xc2b2_ae3d_27d4_eb4f;
        let h = ((self.head ^ u64::from(self.len)).wrapping_mul(K1) ^ self.tail).wrapping_mul(K2);
        (h >> 32) as usize
    }
}

/// One entry: a key's signature, its index and its payload (an empty
/// slot has the length [`EMPTY_LEN`]). The signature is stored flat so
/// that `len` and `index` share a word: a slot with an eight-byte
/// payload takes 32 bytes.
#[derive(Debug, Clone, Copy)]
struct Slot<P> {
    head: u64,
    tail: u64,
    len: u32,
    index: u32,
    payload: P,
}

impl<P: Copy + Default> Slot<P> {
    fn empty() -> Slot<P> {
        Slot { head: 0, tail: 0, len: EMPTY_LEN, index: 0, payload: P::default() }
    }

    #[inline(always)]
    fn has(&self, sig: &Signature) -> bool {
        self.len == sig.len && self.head == sig.head && self.tail == sig.tail
    }
}

/// An immutable string → index map, with a payload per key.
#[derive(Debug, Clone)]
pub struct KeyTable<P = ()> {
    keys: Box<[Box<str>]>,
    /// Linear tables: one slot per key, in index order. Hashed tables:
    /// the open-addressing slots (a power of two of them).
    slots: Box<[Slot<P>]>,
    /// Slot count minus one for hashed tables; `None` for linear ones.
    mask: Option<usize>,
}

impl<P> Default for KeyTable<P> {
    fn default() -> KeyTable<P> {
        KeyTable { keys: Box::default(), slots: Box::default(), mask: None }
    }
}

impl<P: Copy + Default> KeyTable<P> {
    /// Builds a table; `keys` must be distinct. Index `i` is `keys[i]`;
    /// every payload is `P::default()` until [`KeyTable::set_payloads`].
    pub fn new(keys: Vec<Box<str>>) -> KeyTable<P> {
        let keys = keys.into_boxed_slice();
        let entries = keys.iter().enumerate().map(|(i, k)| {
            let sig = Signature::of(k);
            let index = u32::try_from(i).unwrap_or(u32::MAX);
            Slot { head: sig.head, tail: sig.tail, len: sig.len, index, payload: P::default() }
        });
        if keys.len() <= LINEAR_MAX {
            return KeyTable { slots: entries.collect(), keys, mask: None };
        }
        let size = (keys.len() * 2).next_power_of_two();
        let mask = size - 1;
        let mut slots = vec![Slot::empty(); size];
        for entry in entries {
            let sig = Signature { head: entry.head, tail: entry.tail, len: entry.len };
            let mut pos = sig.hash() & mask;
            loop {
                match slots.get_mut(pos) {
                    Some(slot) if slot.len == EMPTY_LEN => {
                        *slot = entry;
                        break;
                    }
                    _ => pos = (pos + 1) & mask,
                }
            }
        }
        KeyTable { keys, slots: slots.into_boxed_slice(), mask: Some(mask) }
    }

    /// Sets each key's payload to `payload(index)`.
    pub fn set_payloads(&mut self, mut payload: impl FnMut(u32) -> P) {
        for slot in self.slots.iter_mut().filter(|s| s.len != EMPTY_LEN) {
            slot.payload = payload(slot.index);
        }
    }

    /// Whether `slot`, whose signature equals `key`'s, holds `key`.
    #[inline]
    fn confirms(&self, slot: &Slot<P>, key: &str, sig: &Signature) -> bool {
        sig.exact() || self.keys.get(slot.index as usize).is_some_and(|k| bytes::equal(k.as_bytes(), key.as_bytes()))
    }

    /// The index of `key`, if present.
    #[inline(always)]
    pub fn find(&self, key: &str) -> Option<u32> {
        self.find_slot(key).map(|s| s.index)
    }

    /// The index and payload of `key`, if present.
    #[inline(always)]
    pub fn find_with_payload(&self, key: &str) -> Option<(u32, P)> {
        self.find_slot(key).map(|s| (s.index, s.payload))
    }

    /// The slot of `key`. (Always inlined: it runs once per instance
    /// property, and a call's register saves cost as much as the lookup.)
    #[inline(always)]
    fn find_slot(&self, key: &str) -> Option<&Slot<P>> {
        let Some(mask) = self.mask else {
            // An empty table (an object with only `additionalProperties`,
            // a map of names) needs no signature.
            if self.slots.is_empty() {
                return None;
            }
            let sig = Signature::of(key);
            return self.slots.iter().find(|s| s.has(&sig) && self.confirms(s, key, &sig));
        };
        let sig = Signature::of(key);
        let mut pos = sig.hash() & mask;
        loop {
            let slot = self.slots.get(pos)?;
            if slot.has(&sig) {
                if self.confirms(slot, key, &sig) {
                    return Some(slot);
                }
            } else if slot.len == EMPTY_LEN {
                return None;
            }
            pos = (pos + 1) & mask;
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
    fn long_keys_differing_in_one_middle_byte_are_told_apart() {
        for n in 17..=72 {
            let key: String = (0..n).map(|i| char::from(b'a' + (i * 7 % 26) as u8)).collect();
            let table = KeyTable::<()>::new(vec![key.clone().into(), "other".into()]);
            assert_eq!(table.find(&key), Some(0), "{n}");
            for at in 0..n {
                let mut bytes = key.clone().into_bytes();
                bytes[at] = b'A';
                let near = String::from_utf8(bytes).unwrap();
                assert_eq!(table.find(&near), None, "{n} {at}");
            }
        }
    }

    #[test]
    fn keys_of_every_length_are_told_apart() {
        let keys: Vec<Box<str>> =
            (0..40).map(|n| "ab".repeat(n / 2).chars().take(n).collect::<String>().into()).collect();
        let mut keys = keys;
        keys.dedup();
        let t = KeyTable::<()>::new(keys.clone());
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(t.find(k), Some(i as u32), "{k:?}");
        }
        assert_eq!(t.find("abababababababababac"), None);
        assert_eq!(t.find("bbababababababababab"), None);
        let small = KeyTable::<()>::new(vec!["x-foo".into(), "é".into()]);
        assert_eq!(small.find("x-foo"), Some(0));
        assert_eq!(small.find("x-fop"), None);
        assert_eq!(small.find("x-fo"), None);
        assert_eq!(small.find("é"), Some(1));
    }

    #[test]
    fn payloads_come_with_their_keys() {
        for n in [3, 20] {
            let mut t: KeyTable<u64> = KeyTable::new((0..n).map(|i| format!("key{i}").into_boxed_str()).collect());
            assert_eq!(t.find_with_payload("key1"), Some((1, 0)));
            t.set_payloads(|i| u64::from(i) * 10 + 7);
            for i in 0..n {
                assert_eq!(t.find_with_payload(&format!("key{i}")), Some((i, u64::from(i) * 10 + 7)));
            }
            assert_eq!(t.find_with_payload("nope"), None);
        }
    }

    #[test]
    fn long_keys_differing_anywhere_are_told_apart() {
        for n in 17..60 {
            let base: String = (0..n).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
            let t = KeyTable::<()>::new(vec![base.clone().into_boxed_str()]);
            assert_eq!(t.find(&base), Some(0));
            for at in 0..n {
                let mut other = base.clone().into_bytes();
                other[at] = b'#';
                let other = String::from_utf8(other).expect("ascii");
                assert_eq!(t.find(&other), None, "{n} {at}");
            }
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
