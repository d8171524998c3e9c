//! Per-field truncation: cutting strings to a number of characters on a character boundary,
//! and a serde view of a value that applies the rules while it is written.

use std::borrow::Cow;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

use super::error::RecordsError;
use super::trie::{At, PathTrie, split_path};

/// Cuts `text` to at most `max_chars` characters (Unicode scalar values), `marker` included:
/// the first `max_chars - marker.chars().count()` characters followed by `marker`. A text
/// that fits is returned as is (borrowed); when the marker alone is longer than the limit
/// the text is cut to `max_chars` characters without it. Never splits a character.
///
/// ```
/// use tsgraph_encoders::toon::records::truncate;
///
/// assert_eq!(truncate("Hello, world", 8, "…"), "Hello, …");
/// assert_eq!(truncate("Hello", 8, "…"), "Hello");
/// assert_eq!(truncate("日本語のテキスト", 4, "..."), "日...");
/// assert_eq!(truncate("abc", 1, "..."), "a");
/// ```
pub fn truncate<'a>(text: &'a str, max_chars: usize, marker: &str) -> Cow<'a, str> {
    // The byte offset of character `max_chars`: if there is none, the text fits.
    if text.char_indices().nth(max_chars).is_none() {
        return Cow::Borrowed(text);
    }
    let marker_chars = marker.chars().count();
    let (keep, marker) = if marker_chars <= max_chars {
        (max_chars - marker_chars, marker)
    } else {
        (max_chars, "")
    };
    let end = text
        .char_indices()
        .nth(keep)
        .map_or(text.len(), |(at, _)| at);
    let mut out = String::with_capacity(end + marker.len());
    out.push_str(text.get(..end).unwrap_or_default());
    out.push_str(marker);
    Cow::Owned(out)
}

/// The parsed [`RecordsOptions::truncate`](super::RecordsOptions::truncate) rules.
#[derive(Debug, Clone)]
pub(super) struct Truncation {
    trie: PathTrie<usize>,
    marker: String,
}

impl Truncation {
    pub(super) fn new(rules: &[(String, usize)], marker: &str) -> Result<Self, RecordsError> {
        let mut trie = PathTrie::new();
        for (path, max) in rules {
            trie.insert(split_path(path, "truncate")?, *max);
        }
        Ok(Truncation {
            trie,
            marker: marker.to_owned(),
        })
    }

    /// The rules' root, or `None` when there are none, so callers skip the lookups.
    pub(super) fn root(&self) -> Option<At<'_, usize>> {
        (!self.trie.is_empty()).then(|| self.trie.root())
    }

    /// The rule position of the field at `path`, if any rule lies at or below it.
    pub(super) fn at(&self, path: &[&str]) -> Option<At<'_, usize>> {
        path.iter().try_fold(self.root()?, |at, key| at.child(key))
    }

    /// `text` cut by the rule at `at`, if there is one.
    pub(super) fn apply<'s>(&self, text: &'s str, at: Option<At<'_, usize>>) -> Cow<'s, str> {
        match at.and_then(At::value) {
            Some(&max) => truncate(text, max, &self.marker),
            None => Cow::Borrowed(text),
        }
    }

    /// A serde view of `value` (found at the rule position `at`) with the rules applied.
    pub(super) fn view<'a>(&'a self, value: &'a Value, at: Option<At<'a, usize>>) -> Trimmed<'a> {
        Trimmed {
            value,
            at,
            rules: self,
        }
    }
}

/// A value written with the truncation rules below its position applied.
pub(super) struct Trimmed<'a> {
    value: &'a Value,
    at: Option<At<'a, usize>>,
    rules: &'a Truncation,
}

impl Serialize for Trimmed<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // No rule at or below this position: the value as it is, without the wrapper.
        let Some(at) = self.at else {
            return self.value.serialize(serializer);
        };
        match self.value {
            Value::String(text) => serializer.serialize_str(&self.rules.apply(text, Some(at))),
            Value::Array(items) => {
                // Arrays are transparent: each element sits at the array's own position.
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&self.rules.view(item, Some(at)))?;
                }
                seq.end()
            }
            Value::Object(map) => {
                let mut out = serializer.serialize_map(Some(map.len()))?;
                for (key, item) in map {
                    out.serialize_entry(key, &self.rules.view(item, at.child(key)))?;
                }
                out.end()
            }
            other => other.serialize(serializer),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn counts_characters_not_bytes() {
        assert_eq!(truncate("héllo wörld", 6, "…"), "héllo…");
        assert_eq!(truncate("😀😃😄😁", 3, "…"), "😀😃…");
        assert_eq!(truncate("😀😃😄", 3, "…"), "😀😃😄");
        assert_eq!(truncate("漢字かな交じり文", 5, ""), "漢字かな交");
        assert!(matches!(truncate("short", 5, "…"), Cow::Borrowed(_)));
    }

    #[test]
    fn small_limits_drop_the_marker_rather_than_exceed() {
        assert_eq!(truncate("abcdef", 0, "…"), "");
        assert_eq!(truncate("abcdef", 1, "…"), "…");
        assert_eq!(truncate("abcdef", 2, "[cut]"), "ab");
        assert_eq!(truncate("", 0, "…"), "");
    }

    #[test]
    fn view_cuts_only_the_ruled_paths() {
        let rules = Truncation::new(&[("content".into(), 4), ("meta.tags".into(), 2)], "~")
            .expect("valid rules");
        let value = json!({
            "content": "abcdefgh",
            "title": "abcdefgh",
            "meta": {"tags": ["abc", "d", 7], "note": "abcdefgh"},
        });
        let cut = serde_json::to_value(rules.view(&value, rules.root())).expect("serializes");
        assert_eq!(
            cut,
            json!({
                "content": "abc~",
                "title": "abcdefgh",
                "meta": {"tags": ["a~", "d", 7], "note": "abcdefgh"},
            })
        );
    }

    #[test]
    fn finds_rules_by_path() {
        let rules = Truncation::new(&[("a.b".into(), 3)], "…").expect("valid rules");
        assert_eq!(rules.at(&["a", "b"]).and_then(At::value), Some(&3));
        assert!(rules.at(&["a", "c"]).is_none());
        assert!(Truncation::new(&[], "…").expect("valid").root().is_none());
        assert!(Truncation::new(&[("a..b".into(), 1)], "…").is_err());
    }
}
