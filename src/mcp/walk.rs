//! A walk over the subschemas of a tool schema, without recursion, for
//! the static checks of [`lint`](super::lint) and
//! [`headers`](super::headers).

use serde_json::{Map, Value};

use schemavm_compiler::pointer;

/// Keywords whose values are instance data or property names, never
/// subschemas.
const DATA_KEYWORDS: &[&str] = &["const", "enum", "default", "examples", "required", "dependentRequired"];

/// Keywords whose values map names to subschemas that are not properties
/// of the instance.
const SCHEMA_MAPS: &[&str] = &["patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"];

/// One schema object met by [`walk`].
pub(super) struct Site<'a> {
    /// The schema object.
    pub schema: &'a Map<String, Value>,
    /// Its JSON Pointer, from the pointer given to [`walk`].
    pub pointer: String,
    /// The property names leading to it from the root when it is reached
    /// through `properties` keys only (empty for the root itself).
    pub chain: Option<Vec<&'a str>>,
}

/// Deepest JSON nesting walked: the compiler's default
/// `max_schema_depth`, past which a schema does not compile anyway.
const MAX_DEPTH: usize = 256;

/// Calls `visit` on every schema object in `root`, in document order, down
/// to [`MAX_DEPTH`] levels of JSON. Every object or array value of a
/// keyword that is not data (see [`DATA_KEYWORDS`]) is taken for a
/// schema, so whatever a client might read as one is seen, including
/// under keywords nobody defined. The work is linear in the size of
/// `root` (times the bounded depth, for the pointers).
pub(super) fn walk<'a>(root: &'a Value, base: &str, mut visit: impl FnMut(&Site<'a>)) {
    let mut stack: Vec<(&'a Value, String, Option<Vec<&'a str>>, usize)> =
        vec![(root, base.to_string(), Some(Vec::new()), 0)];
    while let Some((value, at, chain, depth)) = stack.pop() {
        if depth > MAX_DEPTH {
            continue;
        }
        match value {
            Value::Object(schema) => {
                let mut children = Vec::new();
                for (key, child) in schema {
                    if DATA_KEYWORDS.contains(&key.as_str()) {
                        continue;
                    }
                    let mut child_at = at.clone();
                    pointer::push(&mut child_at, key);
                    let is_properties = key == "properties";
                    if is_properties || SCHEMA_MAPS.contains(&key.as_str()) {
                        let Value::Object(map) = child else { continue };
                        for (name, sub) in map {
                            let mut sub_at = child_at.clone();
                            pointer::push(&mut sub_at, name);
                            let sub_chain = chain.as_ref().filter(|_| is_properties).map(|c| {
                                let mut c = c.clone();
                                c.push(name.as_str());
                                c
                            });
                            children.push((sub, sub_at, sub_chain, depth + 2));
                        }
                    } else if child.is_object() || child.is_array() {
                        children.push((child, child_at, None, depth + 1));
                    }
                }
                visit(&Site { schema, pointer: at, chain });
                stack.extend(children.into_iter().rev());
            }
            Value::Array(items) => {
                let children = items.iter().enumerate().map(|(i, item)| {
                    let mut item_at = at.clone();
                    pointer::push(&mut item_at, &i.to_string());
                    (item, item_at, None, depth + 1)
                });
                let children: Vec<_> = children.collect();
                stack.extend(children.into_iter().rev());
            }
            _ => {}
        }
    }
}
