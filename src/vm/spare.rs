//! [`Spare`]: an optional boxed value whose drop costs one test when
//! absent.
//!
//! The VM keeps a few heap parts it rarely needs (the dynamic scope, a
//! buffer for property names). As plain `Option<Box<T>>` fields, dropping
//! the VM calls each one's out-of-line drop glue, which on the boolean
//! path of a small document costs as much as checking it. `Spare` tests
//! for presence inline and leaves the actual drop to a cold function.

/// An optional boxed `T` with an inline, one-test drop when empty.
#[derive(Debug, Clone)]
pub(super) struct Spare<T>(Option<Box<T>>);

impl<T> Spare<T> {
    /// Nothing kept.
    #[inline(always)]
    pub(super) const fn none() -> Spare<T> {
        Spare(None)
    }

    /// Keeps `value`.
    #[inline]
    pub(super) fn some(value: Box<T>) -> Spare<T> {
        Spare(Some(value))
    }

    /// The value, if kept.
    #[inline(always)]
    pub(super) fn get(&self) -> Option<&T> {
        self.0.as_deref()
    }

    /// The value, if kept.
    #[inline(always)]
    pub(super) fn get_mut(&mut self) -> Option<&mut T> {
        self.0.as_deref_mut()
    }

    /// Takes the value out, leaving nothing.
    #[inline]
    pub(super) fn take(&mut self) -> Option<Box<T>> {
        self.0.take()
    }
}

impl<T> Drop for Spare<T> {
    #[inline(always)]
    fn drop(&mut self) {
        if let Some(value) = self.0.take() {
            release(value);
        }
    }
}

/// Drops a kept value, out of the hot path.
#[cold]
#[inline(never)]
fn release<T>(value: Box<T>) {
    drop(value);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    #[test]
    fn keeps_takes_and_drops_its_value() {
        let counted = Rc::new(());
        let mut spare = Spare::some(Box::new(Rc::clone(&counted)));
        assert!(spare.get().is_some());
        assert_eq!(Rc::strong_count(&counted), 2);
        let taken = spare.take();
        assert!(spare.get_mut().is_none());
        drop(taken);
        assert_eq!(Rc::strong_count(&counted), 1);
        let kept = Spare::some(Box::new(Rc::clone(&counted)));
        let copy = kept.clone();
        drop(kept);
        assert_eq!(Rc::strong_count(&counted), 2);
        drop(copy);
        assert_eq!(Rc::strong_count(&counted), 1);
        assert!(Spare::<u8>::none().get().is_none());
    }
}
