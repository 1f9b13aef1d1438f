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
}
