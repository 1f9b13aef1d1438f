//! Evaluated-property and evaluated-item sets, the annotations that
//! `unevaluatedProperties` and `unevaluatedItems` consume.
//!
//! Properties are identified by their position in the instance object's
//! iteration order (the same for every keyword visiting that object), so
//! a set is a bit set, inline for objects up to 128 properties.

use smallvec::SmallVec;

/// A growable bit set, inline up to 128 bits.
#[derive(Debug, Clone, Default)]
pub(crate) struct Bits(SmallVec<[u64; 2]>);

impl Bits {
    #[inline]
    pub(crate) fn set(&mut self, i: usize) {
        let word = i / 64;
        if self.0.len() <= word {
            self.0.resize(word + 1, 0);
        }
        if let Some(w) = self.0.get_mut(word) {
            *w |= 1 << (i % 64);
        }
    }

    #[inline]
    pub(crate) fn get(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    pub(crate) fn union_with(&mut self, other: &Bits) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a |= *b;
        }
    }
}

/// What the keywords of one instance location evaluated.
#[derive(Debug, Clone, Default)]
pub(crate) struct Evaluated {
    /// Object properties, by position.
    pub(crate) props: Bits,
    /// Every item below this index.
    pub(crate) items_below: usize,
    /// Every item.
    pub(crate) all_items: bool,
    /// Individual items (`contains` matches).
    pub(crate) items: Bits,
}

impl Evaluated {
    /// Adds what `other` evaluated.
    pub(crate) fn merge(&mut self, other: &Evaluated) {
        self.props.union_with(&other.props);
        self.items_below = self.items_below.max(other.items_below);
        self.all_items |= other.all_items;
        self.items.union_with(&other.items);
    }

    /// Whether item `i` was evaluated.
    pub(crate) fn has_item(&self, i: usize) -> bool {
        self.all_items || i < self.items_below || self.items.get(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_grow_and_merge() {
        let mut a = Bits::default();
        a.set(3);
        a.set(200);
        assert!(a.get(3) && a.get(200) && !a.get(4));
        let mut b = Bits::default();
        b.set(4);
        b.union_with(&a);
        assert!(b.get(3) && b.get(4) && b.get(200));
    }

    #[test]
    fn items_evaluated() {
        let mut e = Evaluated { items_below: 2, ..Default::default() };
        e.items.set(5);
        assert!(e.has_item(1) && !e.has_item(2) && e.has_item(5));
        e.merge(&Evaluated { all_items: true, ..Default::default() });
        assert!(e.has_item(100));
    }
}
