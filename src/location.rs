//! Instance locations: where in the instance an error is.

use std::fmt;

/// One step into an instance: an object key or an array index.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathSegment {
    /// An object member.
    Key(String),
    /// An array item.
    Index(usize),
}

/// A location in an instance, as typed segments from the root.
///
/// `Display` renders it as a path (`$.issues[0].state`, `$["a b"]`);
/// [`InstanceLocation::to_pointer`] as a JSON Pointer (`/issues/0/state`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstanceLocation {
    segments: Vec<PathSegment>,
}

impl InstanceLocation {
    /// The root location.
    pub fn root() -> InstanceLocation {
        InstanceLocation::default()
    }

    /// A location from its segments.
    pub fn from_segments(segments: Vec<PathSegment>) -> InstanceLocation {
        InstanceLocation { segments }
    }

    /// The segments, from the root.
    pub fn segments(&self) -> &[PathSegment] {
        &self.segments
    }

    /// Appends a segment.
    pub fn push(&mut self, segment: PathSegment) {
        self.segments.push(segment);
    }

    /// This location followed by `other`.
    pub fn join(&self, other: &InstanceLocation) -> InstanceLocation {
        let mut segments = self.segments.clone();
        segments.extend(other.segments.iter().cloned());
        InstanceLocation { segments }
    }

    /// The location as an RFC 6901 JSON Pointer (`""` for the root).
    pub fn to_pointer(&self) -> String {
        let mut out = String::new();
        for s in &self.segments {
            match s {
                PathSegment::Key(k) => schemavm_compiler::pointer::push(&mut out, k),
                PathSegment::Index(i) => {
                    out.push('/');
                    out.push_str(&i.to_string());
                }
            }
        }
        out
    }
}

/// Most segments an [`InlinePath`] holds.
const INLINE_SEGMENTS: usize = 4;

/// One segment of an [`InlinePath`]: the length of a key (its bytes are
/// stored elsewhere) or an index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InlineSegment {
    Key(usize),
    Index(usize),
}

/// A short instance location recorded without allocating: its keys'
/// bytes are kept by the owner, concatenated, and given back to
/// [`InlinePath::build`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct InlinePath {
    segments: [InlineSegment; INLINE_SEGMENTS],
    len: usize,
    keys_len: usize,
}

impl Default for InlinePath {
    /// The root location.
    fn default() -> Self {
        InlinePath { segments: [InlineSegment::Index(0); INLINE_SEGMENTS], len: 0, keys_len: 0 }
    }
}

impl InlinePath {
    /// Whether a location of `depth` segments fits.
    pub(crate) fn fits(depth: usize) -> bool {
        depth <= INLINE_SEGMENTS
    }

    /// Appends a key of `len` bytes (false if full).
    pub(crate) fn push_key(&mut self, len: usize) -> bool {
        let pushed = self.push(InlineSegment::Key(len));
        if pushed {
            self.keys_len = self.keys_len.saturating_add(len);
        }
        pushed
    }

    /// Appends an index (false if full).
    pub(crate) fn push_index(&mut self, index: usize) -> bool {
        self.push(InlineSegment::Index(index))
    }

    fn push(&mut self, segment: InlineSegment) -> bool {
        match self.segments.get_mut(self.len) {
            Some(slot) => {
                *slot = segment;
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// How many segments it has.
    pub(crate) fn depth(&self) -> usize {
        self.len
    }

    /// The total length of its keys, in bytes.
    pub(crate) fn keys_len(&self) -> usize {
        self.keys_len
    }

    /// The location, its keys read from `keys` (their concatenation).
    pub(crate) fn build(&self, keys: &str) -> InstanceLocation {
        let mut at = 0usize;
        let segments = self
            .segments
            .iter()
            .take(self.len)
            .map(|s| match *s {
                InlineSegment::Key(len) => {
                    let end = at.saturating_add(len);
                    let key = keys.get(at..end).unwrap_or_default();
                    at = end;
                    PathSegment::Key(key.to_string())
                }
                InlineSegment::Index(i) => PathSegment::Index(i),
            })
            .collect();
        InstanceLocation { segments }
    }
}

/// Most bytes a [`LocationText`] keeps without allocating.
const INLINE_TEXT: usize = 112;

/// The location text of an error (keyword location, absolute keyword
/// location, instance keys), kept inside the error when short so that
/// recording an error allocates once.
#[derive(Clone)]
pub(crate) struct LocationText {
    /// How many bytes of `bytes` are used (unless `heap` is set).
    len: u8,
    /// Short text: whole `str`s copied in, so valid UTF-8.
    bytes: [u8; INLINE_TEXT],
    /// Longer (or edited) text, which replaces `bytes` once set.
    heap: Option<String>,
}

impl Default for LocationText {
    fn default() -> Self {
        LocationText { len: 0, bytes: [0; INLINE_TEXT], heap: None }
    }
}

impl LocationText {
    /// Empty text with room for `capacity` bytes.
    pub(crate) fn with_capacity(capacity: usize) -> LocationText {
        let heap = (capacity > INLINE_TEXT).then(|| String::with_capacity(capacity));
        LocationText { heap, ..LocationText::default() }
    }

    /// The text.
    pub(crate) fn as_str(&self) -> &str {
        match &self.heap {
            Some(text) => text,
            None => inline_str(&self.bytes, self.len),
        }
    }

    /// Its length in bytes.
    pub(crate) fn len(&self) -> usize {
        self.heap.as_ref().map_or(usize::from(self.len), String::len)
    }

    /// Appends `s`.
    #[inline(always)]
    pub(crate) fn push_str(&mut self, s: &str) {
        let start = usize::from(self.len);
        if let (None, Some(slot)) = (&self.heap, self.bytes.get_mut(start..start + s.len())) {
            slot.copy_from_slice(s.as_bytes());
            // At most `INLINE_TEXT`, below 256.
            self.len = (start + s.len()) as u8;
        } else {
            self.to_mut().push_str(s);
        }
    }

    /// Appends `/` and `token` (which needs no escaping).
    #[inline(always)]
    pub(crate) fn push_token(&mut self, token: &str) {
        let start = usize::from(self.len);
        let end = start + 1 + token.len();
        if let (None, Some([slash, slot @ ..])) = (&self.heap, self.bytes.get_mut(start..end)) {
            *slash = b'/';
            slot.copy_from_slice(token.as_bytes());
            // At most `INLINE_TEXT`, below 256.
            self.len = end as u8;
        } else {
            let text = self.to_mut();
            text.push('/');
            text.push_str(token);
        }
    }

    /// Appends a copy of its bytes `range` (nothing unless `range` lies on
    /// character boundaries).
    pub(crate) fn repeat(&mut self, range: std::ops::Range<usize>) {
        let (start, end) = (range.start, range.end);
        if start > end || !self.is_char_boundary(start) || !self.is_char_boundary(end) {
            return;
        }
        if self.heap.is_none() {
            let len = usize::from(self.len);
            let total = len + (end - start);
            if let (true, Ok(total)) = (total <= INLINE_TEXT, u8::try_from(total)) {
                self.bytes.copy_within(range, len);
                self.len = total;
                return;
            }
        }
        self.to_mut().extend_from_within(range);
    }

    /// Whether byte `i` starts a character (or ends the text).
    pub(crate) fn is_char_boundary(&self, i: usize) -> bool {
        match &self.heap {
            Some(text) => text.is_char_boundary(i),
            // Whole `str`s are copied in: only continuation bytes are inside
            // a character.
            None => {
                i == usize::from(self.len)
                    || (i < usize::from(self.len) && self.bytes.get(i).is_some_and(|b| (*b as i8) >= -0x40))
            }
        }
    }

    /// The text as a `String`, to edit (moving it out of line).
    #[cold]
    pub(crate) fn to_mut(&mut self) -> &mut String {
        let (bytes, len) = (&self.bytes, self.len);
        self.heap.get_or_insert_with(|| inline_str(bytes, len).to_string())
    }
}

/// The first `len` bytes of `bytes`, as text.
fn inline_str(bytes: &[u8], len: u8) -> &str {
    bytes.get(..usize::from(len)).and_then(|b| std::str::from_utf8(b).ok()).unwrap_or_default()
}

/// Whether `key` renders as `.key` in a path (else `["key"]`).
pub(crate) fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

impl fmt::Display for InstanceLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("$")?;
        for s in &self.segments {
            match s {
                PathSegment::Key(k) if is_identifier(k) => write!(f, ".{k}")?,
                PathSegment::Key(k) => {
                    let quoted = serde_json::to_string(k).map_err(|_| fmt::Error)?;
                    write!(f, "[{quoted}]")?;
                }
                PathSegment::Index(i) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_paths_and_pointers() {
        let loc = InstanceLocation::from_segments(vec![
            PathSegment::Key("issues".into()),
            PathSegment::Index(0),
            PathSegment::Key("state".into()),
        ]);
        assert_eq!(loc.to_string(), "$.issues[0].state");
        assert_eq!(loc.to_pointer(), "/issues/0/state");
        let odd = InstanceLocation::from_segments(vec![PathSegment::Key("a b".into()), PathSegment::Key("x/y".into())]);
        assert_eq!(odd.to_string(), "$[\"a b\"][\"x/y\"]");
        assert_eq!(odd.to_pointer(), "/a b/x~1y");
        assert_eq!(InstanceLocation::root().to_string(), "$");
        assert_eq!(InstanceLocation::root().to_pointer(), "");
    }

    #[test]
    fn inline_paths_build_their_location() {
        let mut p = InlinePath::default();
        assert_eq!(p.build(""), InstanceLocation::root());
        assert!(p.push_key(3) && p.push_index(7) && p.push_key(2));
        assert_eq!((p.depth(), p.keys_len()), (3, 5));
        let expected = InstanceLocation::from_segments(vec![
            PathSegment::Key("abc".into()),
            PathSegment::Index(7),
            PathSegment::Key("xy".into()),
        ]);
        assert_eq!(p.build("abcxy"), expected);
        assert!(p.push_index(0));
        assert!(!p.push_index(1) && !p.push_key(1));
        assert_eq!((p.depth(), p.keys_len()), (4, 5));
    }
}
