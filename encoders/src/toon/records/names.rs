//! Flatten specs and column names: a lifted field's name is its path joined with the
//! separator, and [`Specs::unflatten`] reads a name back as a path.
//!
//! Joining is not injective (`meta_data.x` and `meta.data_x` both give `meta_data_x`), so the
//! encoder only puts a field in a column when `unflatten(name)` gives back exactly its path,
//! and keeps a top-level key as a column only when it reads back as itself. That one check
//! makes the table decodable without any mapping written into the document.

use super::error::RecordsError;
use super::trie::{At, PathTrie, split_path};

/// The parsed [`RecordsOptions::flatten`](super::RecordsOptions::flatten) paths.
#[derive(Debug, Clone)]
pub(super) struct Specs {
    trie: PathTrie<()>,
    /// `(joined name, segments)` per spec, for reading names back.
    joined: Vec<(String, Vec<String>)>,
    separator: String,
}

impl Specs {
    pub(super) fn new(paths: &[String], separator: &str) -> Result<Self, RecordsError> {
        let mut trie = PathTrie::new();
        let mut joined = Vec::with_capacity(paths.len());
        for path in paths {
            let segments = split_path(path, "flatten")?;
            trie.insert(segments.iter().copied(), ());
            joined.push((
                segments.join(separator),
                segments.iter().map(|s| (*s).to_owned()).collect(),
            ));
        }
        Ok(Specs {
            trie,
            joined,
            separator: separator.to_owned(),
        })
    }

    /// No flattening: every name is a top-level key.
    pub(super) fn none(separator: &str) -> Self {
        Specs {
            trie: PathTrie::new(),
            joined: Vec::new(),
            separator: separator.to_owned(),
        }
    }

    /// The spec trie's root; a node with a value is a spec path.
    pub(super) fn root(&self) -> At<'_, ()> {
        self.trie.root()
    }

    /// The column name of the field at `path`.
    pub(super) fn join(&self, path: &[&str]) -> String {
        path.join(&self.separator)
    }

    /// The path a column name stands for: a spec's joined name is that spec's path; a name
    /// that starts with a spec's joined name and the separator is a child of it (the longest
    /// such spec wins); any other name is a top-level key.
    pub(super) fn unflatten<'n>(&'n self, name: &'n str) -> Vec<&'n str> {
        let mut best: Option<(&'n [String], Option<&'n str>, usize)> = None;
        for (joined, segments) in &self.joined {
            if name == joined {
                // An exact match beats every prefix match.
                best = Some((segments, None, usize::MAX));
                break;
            }
            let rest = name
                .strip_prefix(joined.as_str())
                .and_then(|r| r.strip_prefix(self.separator.as_str()))
                .filter(|r| !r.is_empty());
            if let Some(rest) = rest
                && best.is_none_or(|(_, _, len)| joined.len() > len)
            {
                best = Some((segments, Some(rest), joined.len()));
            }
        }
        match best {
            Some((segments, rest, _)) => segments.iter().map(String::as_str).chain(rest).collect(),
            None => vec![name],
        }
    }

    /// Whether `name` reads back as `path`.
    pub(super) fn names(&self, name: &str, path: &[&str]) -> bool {
        self.unflatten(name) == path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs(paths: &[&str]) -> Specs {
        let paths: Vec<String> = paths.iter().map(|p| (*p).to_owned()).collect();
        Specs::new(&paths, "_").expect("valid specs")
    }

    #[test]
    fn reads_names_back_as_paths() {
        let s = specs(&["metadata", "metadata.score", "title"]);
        assert_eq!(s.unflatten("metadata_source"), ["metadata", "source"]);
        assert_eq!(
            s.unflatten("metadata_page_count"),
            ["metadata", "page_count"]
        );
        // The longer spec wins.
        assert_eq!(
            s.unflatten("metadata_score_bm25"),
            ["metadata", "score", "bm25"]
        );
        assert_eq!(s.unflatten("metadata_score"), ["metadata", "score"]);
        assert_eq!(s.unflatten("title"), ["title"]);
        assert_eq!(s.unflatten("created_at"), ["created_at"]);
        // The separator alone is not a child name.
        assert_eq!(s.unflatten("metadata_"), ["metadata_"]);
        assert_eq!(s.unflatten("metadata"), ["metadata"]);
    }

    #[test]
    fn ambiguous_joins_read_back_one_way_only() {
        let s = specs(&["meta", "meta_data"]);
        assert_eq!(s.join(&["meta_data", "x"]), "meta_data_x");
        assert!(s.names("meta_data_x", &["meta_data", "x"]));
        assert!(!s.names("meta_data_x", &["meta", "data_x"]));
    }

    #[test]
    fn without_specs_every_name_is_a_key() {
        let s = Specs::none("_");
        assert_eq!(s.unflatten("metadata_source"), ["metadata_source"]);
    }
}
