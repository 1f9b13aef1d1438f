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
const INLINE_SEGMENTS: usize = 8;

/// A short instance location recorded without allocating: its keys'
/// bytes are kept by the owner, concatenated, and given back to
/// [`InlinePath::build`]. Each segment is a key's length or an index, of
/// at most `u16::MAX` (eight of them in the room four `u32`s took: paths
/// into documents such as OpenAPI's run five to eight deep, and a longer
/// key or a larger index is rare).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct InlinePath {
    /// Key lengths and indices; the first `len` are used.
    segments: [u16; INLINE_SEGMENTS],
    /// Bit `i` is set if segment `i` is a key.
    keys: u8,
    len: u8,
    /// The total length of the keys.
    keys_len: u32,
}

impl InlinePath {
    /// Appends a key of `len` bytes (false if full or too long).
    pub(crate) fn push_key(&mut self, len: usize) -> bool {
        let Some((len, total)) =
            u16::try_from(len).ok().and_then(|l| Some((l, self.keys_len.checked_add(u32::from(l))?)))
        else {
            return false;
        };
        let Some(bit) = 1u8.checked_shl(u32::from(self.len)) else {
            return false;
        };
        let pushed = self.push(len);
        if pushed {
            self.keys |= bit;
            self.keys_len = total;
        }
        pushed
    }

    /// Appends an index (false if full or too large).
    pub(crate) fn push_index(&mut self, index: usize) -> bool {
        u16::try_from(index).is_ok_and(|i| self.push(i))
    }

    fn push(&mut self, segment: u16) -> bool {
        match self.segments.get_mut(usize::from(self.len)) {
            Some(slot) => {
                *slot = segment;
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// This path with its last segment, a key, replaced by a key of `len`
    /// bytes, and the replaced key's length (none if the last segment is
    /// not a key or the new total length does not fit).
    #[inline]
    pub(crate) fn with_last_key(&self, len: usize) -> Option<(InlinePath, usize)> {
        let last = usize::from(self.len).checked_sub(1)?;
        if self.keys & (1 << last) == 0 {
            return None;
        }
        let mut path = *self;
        let slot = path.segments.get_mut(last)?;
        let old = *slot;
        let len = u16::try_from(len).ok()?;
        path.keys_len = self.keys_len.checked_sub(u32::from(old))?.checked_add(u32::from(len))?;
        *slot = len;
        Some((path, usize::from(old)))
    }

    /// How many segments it has.
    pub(crate) fn depth(&self) -> usize {
        usize::from(self.len)
    }

    /// The total length of its keys, in bytes.
    pub(crate) fn keys_len(&self) -> usize {
        self.keys_len as usize
    }

    /// The location, its keys read from `keys` (their concatenation).
    pub(crate) fn build(&self, keys: &str) -> InstanceLocation {
        let mut at = 0usize;
        let segments = self
            .segments
            .iter()
            .take(self.depth())
            .enumerate()
            .map(|(i, &n)| {
                if self.keys & (1 << i) == 0 {
                    return PathSegment::Index(usize::from(n));
                }
                let end = at.saturating_add(usize::from(n));
                let key = keys.get(at..end).unwrap_or_default();
                at = end;
                PathSegment::Key(key.to_string())
            })
            .collect();
        InstanceLocation { segments }
    }
}

/// Most bytes a [`LocationText`] keeps without allocating (enough for
/// most errors, small enough that an error fits in 256 bytes).
const INLINE_TEXT: usize = 71;

/// The capacity a [`TextWriter`] gives a text that outgrows
/// [`INLINE_TEXT`] (trimmed to its length when finished).
const SPILLED_TEXT: usize = 4 * INLINE_TEXT;

/// The location text of an error (keyword location, absolute keyword
/// location, instance keys), kept inside the error when short so that
/// recording an error allocates once.
#[derive(Clone)]
pub(crate) struct LocationText {
    /// How many bytes of `bytes` are used (unless `heap` is set).
    len: u8,
    /// Short text: whole `str`s copied in, so valid UTF-8.
    bytes: [u8; INLINE_TEXT],
    /// Longer (or edited) text, which replaces `bytes` once set (a
    /// `Box<str>`, so that an error fits in 256 bytes).
    heap: Option<Box<str>>,
}

impl Default for LocationText {
    fn default() -> Self {
        LocationText { len: 0, bytes: [0; INLINE_TEXT], heap: None }
    }
}

impl LocationText {
    /// Empties the text, freeing it if it was on the heap.
    pub(crate) fn clear(&mut self) {
        self.heap = None;
        self.len = 0;
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
        self.heap.as_ref().map_or(usize::from(self.len), |text| text.len())
    }

    /// Makes this text, which must be new (empty, inline), the first
    /// `keep` bytes of `from` followed by `tail`: inline when it fits, out
    /// of line otherwise (false, and this text left empty, if `keep` is not
    /// a character boundary of `from`).
    #[inline]
    pub(crate) fn copy_with_tail(&mut self, from: &LocationText, keep: usize, tail: &str) -> bool {
        let end = keep + tail.len();
        let head = match &from.heap {
            None => {
                let len = usize::from(from.len);
                // A character boundary: the end, or a byte that does not
                // continue a character.
                let boundary = keep == len || (keep < len && from.bytes.get(keep).is_some_and(|&b| b & 0xc0 != 0x80));
                if !boundary {
                    return false;
                }
                if end <= INLINE_TEXT {
                    // The whole buffer is copied (a fixed-size copy, without
                    // a call; the bytes past `keep` are overwritten or
                    // unused), then the tail.
                    self.bytes = from.bytes;
                    let Some(slot) = self.bytes.get_mut(keep..end) else { return false };
                    slot.copy_from_slice(tail.as_bytes());
                    // At most `INLINE_TEXT`, below 256.
                    self.len = end as u8;
                    return true;
                }
                prefix_str(&from.bytes, keep)
            }
            Some(text) => match text.get(..keep) {
                Some(head) => head,
                None => return false,
            },
        };
        self.spill_concat(head, tail);
        true
    }

    /// Sets the text, out of line, to `head` followed by `tail`.
    #[cold]
    fn spill_concat(&mut self, head: &str, tail: &str) {
        let mut text = String::with_capacity(head.len() + tail.len());
        text.push_str(head);
        text.push_str(tail);
        self.heap = Some(text.into_boxed_str());
    }

    /// Edits the text as a `String` (moving it out of line).
    #[cold]
    pub(crate) fn edit(&mut self, f: impl FnOnce(&mut String)) {
        let mut text = self.as_str().to_string();
        f(&mut text);
        self.heap = Some(text.into_boxed_str());
    }
}

/// The first `len` bytes of `bytes`, as text.
fn inline_str(bytes: &[u8], len: u8) -> &str {
    prefix_str(bytes, usize::from(len))
}

/// The first `len` bytes of `bytes`, as text (empty if they are not).
fn prefix_str(bytes: &[u8], len: usize) -> &str {
    bytes.get(..len).and_then(|b| std::str::from_utf8(b).ok()).unwrap_or_default()
}

/// A position in a [`TextWriter`]'s text, taken between pushes
/// ([`TextWriter::mark`]): always a character boundary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Mark(usize);

impl Mark {
    /// The position, in bytes.
    #[inline(always)]
    pub(crate) fn position(self) -> usize {
        self.0
    }
}

/// Writes a new [`LocationText`] in place, its length kept aside (in a
/// register, never read back from the text) and a long text in a
/// `String` until [`TextWriter::finish`].
pub(crate) struct TextWriter<'a> {
    text: &'a mut LocationText,
    len: usize,
    spilled: Option<String>,
}

impl<'a> TextWriter<'a> {
    /// A writer filling `text`, which must be new (empty, inline).
    #[inline(always)]
    pub(crate) fn fill(text: &'a mut LocationText) -> TextWriter<'a> {
        TextWriter { text, len: 0, spilled: None }
    }

    /// The length written so far, in bytes.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The position reached: between two whole pushed `str`s, so a
    /// character boundary.
    #[inline(always)]
    pub(crate) fn mark(&self) -> Mark {
        Mark(self.len)
    }

    /// Appends `s`.
    #[inline(always)]
    pub(crate) fn push_str(&mut self, s: &str) {
        let end = self.len + s.len();
        match (&mut self.spilled, self.text.bytes.get_mut(self.len..end)) {
            (None, Some(slot)) => slot.copy_from_slice(s.as_bytes()),
            _ => self.spill().push_str(s),
        }
        self.len = end;
    }

    /// Appends `/` and `token` (which needs no escaping).
    #[inline(always)]
    pub(crate) fn push_token(&mut self, token: &str) {
        let end = self.len + 1 + token.len();
        match (&mut self.spilled, self.text.bytes.get_mut(self.len..end)) {
            (None, Some([slash, slot @ ..])) => {
                *slash = b'/';
                slot.copy_from_slice(token.as_bytes());
            }
            _ => {
                let text = self.spill();
                text.push('/');
                text.push_str(token);
            }
        }
        self.len = end;
    }

    /// Appends a copy of the text between marks `from` and `to` (nothing
    /// if `to` comes first). Marks fall between whole `str`s, so the copy
    /// is whole characters; no boundary needs checking.
    #[inline(always)]
    pub(crate) fn repeat(&mut self, from: Mark, to: Mark) {
        let (start, end) = (from.0, to.0.min(self.len));
        if start > end {
            return;
        }
        let total = self.len + (end - start);
        if self.spilled.is_none() && total <= INLINE_TEXT {
            self.text.bytes.copy_within(start..end, self.len);
        } else {
            self.spill().extend_from_within(start..end);
        }
        self.len = total;
    }

    /// If the text written so far (still inline) is `location`'s tail
    /// after a `#`, writes `location` in its place and returns the mark
    /// where that tail starts in it; else `None`, the text unchanged. (An
    /// error's keyword location is so kept once, inside its absolute
    /// location, when the evaluation reached the keyword through no
    /// reference.)
    #[inline]
    pub(crate) fn become_fragment_of(&mut self, location: &str) -> Option<Mark> {
        if self.spilled.is_some() {
            return None;
        }
        let cut = location.len().checked_sub(self.len)?;
        let bytes = location.as_bytes();
        let matches =
            bytes.get(cut.checked_sub(1)?) == Some(&b'#') && bytes.get(cut..) == self.text.bytes.get(..self.len);
        if !matches {
            return None;
        }
        self.len = 0;
        self.push_str(location);
        // Just after the `#`: a character boundary.
        Some(Mark(cut))
    }

    /// The text out of line (once it outgrows the inline bytes).
    #[cold]
    fn spill(&mut self) -> &mut String {
        let (bytes, len) = (&self.text.bytes, self.len);
        self.spilled.get_or_insert_with(|| {
            // Room for a long location's usual rest (a keyword path past
            // a few references, then its absolute form and the instance
            // keys): growing from the inline length took three or four
            // reallocations, each a copy.
            let mut text = String::with_capacity(SPILLED_TEXT);
            text.push_str(prefix_str(bytes, len));
            text
        })
    }

    /// Stores the text written.
    #[inline(always)]
    pub(crate) fn finish(self) {
        match self.spilled {
            Some(text) => self.text.heap = Some(text.into_boxed_str()),
            // At most `INLINE_TEXT`, below 256.
            None => self.text.len = self.len as u8,
        }
    }
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
        for i in 3..INLINE_SEGMENTS {
            assert!(p.push_index(i));
        }
        assert!(!p.push_index(1) && !p.push_key(1));
        assert_eq!((p.depth(), p.keys_len()), (INLINE_SEGMENTS, 5));
        let mut q = InlinePath::default();
        assert!(!q.push_index(usize::MAX) && !q.push_key(usize::MAX));
        assert!(!q.push_index(65_536) && !q.push_key(65_536));
        assert_eq!(q.depth(), 0);
        assert!(q.push_index(65_535) && q.push_key(65_535));
    }

    #[test]
    fn an_inline_path_takes_another_last_key() {
        let mut p = InlinePath::default();
        assert!(p.push_index(2) && p.push_key(3));
        let (q, old) = p.with_last_key(5).unwrap();
        assert_eq!((old, q.depth(), q.keys_len()), (3, 2, 5));
        assert_eq!(
            q.build("vwxyz"),
            InstanceLocation::from_segments(vec![PathSegment::Index(2), PathSegment::Key("vwxyz".into())])
        );
        // The last segment an index, or none: no key to replace.
        assert!(p.push_index(0) && p.with_last_key(1).is_none());
        assert!(InlinePath::default().with_last_key(1).is_none());
        // A total length past `u32::MAX`.
        assert!(q.with_last_key(usize::MAX).is_none());
    }

    #[test]
    fn location_text_is_copied_with_another_tail() {
        let mut from = LocationText::default();
        let mut w = TextWriter::fill(&mut from);
        w.push_str("/additionalProperties#/additionalPropertiesé~");
        w.finish();
        let keep = from.len() - "é~".len();
        let mut copy = LocationText::default();
        assert!(copy.copy_with_tail(&from, keep, "ü/"));
        assert_eq!(copy.as_str(), "/additionalProperties#/additionalPropertiesü/");
        // Not a character boundary of `from` (inside `é`), or past its
        // end: the copy is refused and stays empty.
        for keep in [keep + 1, from.len() + 1] {
            let mut copy = LocationText::default();
            assert!(!copy.copy_with_tail(&from, keep, "x"), "{keep}");
            assert_eq!(copy.as_str(), "");
        }
        // Too long to stay inline: out of line.
        let long_tail = "k".repeat(INLINE_TEXT);
        let mut copy = LocationText::default();
        assert!(copy.copy_with_tail(&from, keep, &long_tail));
        assert_eq!(copy.as_str(), format!("/additionalProperties#/additionalProperties{long_tail}"));
        // From a text out of line, to one inline or not.
        let mut long = LocationText::default();
        long.edit(|t| t.push_str(&format!("{long_tail}/é")));
        for (keep, tail, expected) in [(INLINE_TEXT, "yz", format!("{long_tail}yz")), (3, "", "kkk".to_string())] {
            let mut copy = LocationText::default();
            assert!(copy.copy_with_tail(&long, keep, tail));
            assert_eq!(copy.as_str(), expected);
        }
        let inside = INLINE_TEXT + 2;
        assert!(!LocationText::default().copy_with_tail(&long, inside, "y"));
    }

    #[test]
    fn location_text_moves_out_of_line_when_long() {
        for repeat in [1, 10] {
            let mut text = LocationText::default();
            let mut w = TextWriter::fill(&mut text);
            let word = "é/".repeat(repeat);
            let start = w.mark();
            w.push_token(&word);
            let end = w.mark();
            w.push_str("json-schema:///#");
            w.repeat(start, end);
            // Marks out of order: nothing is copied.
            w.repeat(end, start);
            w.finish();
            let expected = format!("/{word}json-schema:///#/{word}");
            assert_eq!(text.as_str(), expected);
            assert_eq!(text.len(), expected.len());
            text.edit(|t| t.push('x'));
            assert_eq!(text.as_str(), format!("{expected}x"));
        }
    }
}
