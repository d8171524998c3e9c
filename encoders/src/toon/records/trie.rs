//! A small trie over dotted paths (`metadata.source`), shared by the flatten specs, the
//! truncation rules and the hybrid table's column paths.
//!
//! There are a handful of paths per document, so children are a short vector searched
//! linearly; that beats hashing at this size and keeps insertion order.

use super::error::RecordsError;

/// Paths of object keys with an optional value at each node.
#[derive(Debug, Clone)]
pub(super) struct PathTrie<T> {
    /// `nodes[0]` is the root (the record itself).
    nodes: Vec<Node<T>>,
}

#[derive(Debug, Clone)]
struct Node<T> {
    children: Vec<(String, usize)>,
    value: Option<T>,
}

impl<T> Node<T> {
    fn empty() -> Self {
        Node {
            children: Vec::new(),
            value: None,
        }
    }
}

impl<T> PathTrie<T> {
    /// A trie holding no path.
    pub(super) fn new() -> Self {
        PathTrie {
            nodes: vec![Node::empty()],
        }
    }

    /// Whether no path has been inserted.
    pub(super) fn is_empty(&self) -> bool {
        self.nodes.len() == 1 && self.nodes.first().is_some_and(|n| n.value.is_none())
    }

    /// Sets the value at `path`, creating the nodes on the way; a second insert of the same
    /// path replaces the first value.
    pub(super) fn insert<'p>(&mut self, path: impl IntoIterator<Item = &'p str>, value: T) {
        let mut at = 0;
        for segment in path {
            let found = self.nodes.get(at).and_then(|node| {
                node.children
                    .iter()
                    .find(|(key, _)| key == segment)
                    .map(|&(_, child)| child)
            });
            at = match found {
                Some(child) => child,
                None => {
                    let child = self.nodes.len();
                    self.nodes.push(Node::empty());
                    if let Some(node) = self.nodes.get_mut(at) {
                        node.children.push((segment.to_owned(), child));
                    }
                    child
                }
            };
        }
        if let Some(node) = self.nodes.get_mut(at) {
            node.value = Some(value);
        }
    }

    /// The root node: the record itself.
    pub(super) fn root(&self) -> At<'_, T> {
        At {
            trie: self,
            index: 0,
        }
    }
}

/// A position in a [`PathTrie`].
#[derive(Debug)]
pub(super) struct At<'t, T> {
    trie: &'t PathTrie<T>,
    index: usize,
}

// Derived `Clone`/`Copy` would require `T: Copy`; a position is a reference and an index.
impl<T> Clone for At<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for At<'_, T> {}

impl<'t, T> At<'t, T> {
    /// The child for object key `key`, if some path continues through it.
    pub(super) fn child(self, key: &str) -> Option<Self> {
        let node = self.trie.nodes.get(self.index)?;
        let &(_, index) = node.children.iter().find(|(k, _)| k == key)?;
        Some(At {
            trie: self.trie,
            index,
        })
    }

    /// The value stored at this node, if a path ends here.
    pub(super) fn value(self) -> Option<&'t T> {
        self.trie.nodes.get(self.index)?.value.as_ref()
    }
}

/// Splits a dotted path into its segments; empty segments (`a..b`, `.a`, ``) are refused
/// because no key could be meant by them.
pub(super) fn split_path<'p>(
    path: &'p str,
    what: &'static str,
) -> Result<Vec<&'p str>, RecordsError> {
    let segments: Vec<&str> = path.split('.').collect();
    if segments.iter().any(|s| s.is_empty()) {
        return Err(RecordsError::InvalidOptions(format!(
            "{what} path {path:?} has an empty segment"
        )));
    }
    Ok(segments)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_values_along_paths() {
        let mut trie = PathTrie::new();
        assert!(trie.is_empty());
        trie.insert(["metadata", "source"], 1);
        trie.insert(["metadata"], 2);
        trie.insert(["content"], 3);
        trie.insert(["content"], 4);
        assert!(!trie.is_empty());

        let root = trie.root();
        let metadata = root.child("metadata").map(At::value);
        assert_eq!(metadata, Some(Some(&2)));
        let source = root.child("metadata").and_then(|m| m.child("source"));
        assert_eq!(source.and_then(At::value), Some(&1));
        assert_eq!(root.child("content").and_then(At::value), Some(&4));
        assert!(root.child("source").is_none());
        assert!(root.value().is_none());
    }

    #[test]
    fn refuses_empty_segments() {
        assert_eq!(split_path("a.b", "flatten").ok(), Some(vec!["a", "b"]));
        for bad in ["", ".a", "a.", "a..b"] {
            assert!(split_path(bad, "flatten").is_err(), "{bad:?}");
        }
    }
}
