//! Options of the records encoder: flattening, truncation, section keys and the TOON layout.

use crate::toon::Options;

use super::error::RecordsError;

/// How [`encode`](super::encode) and [`choose`](super::choose) treat records.
///
/// Paths are dotted object keys from the record's root (`content`, `metadata.source`); a key
/// that itself contains a `.` cannot be addressed. Build with struct syntax over
/// `RecordsOptions::default()` or with the chaining helpers:
///
/// ```
/// use tsgraph_encoders::toon::records::RecordsOptions;
///
/// let opts = RecordsOptions::default()
///     .flattening("metadata")
///     .truncating("content", 200);
/// assert_eq!(opts.flatten, ["metadata"]);
/// assert_eq!(opts.truncate, [("content".to_owned(), 200)]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordsOptions {
    /// Nested fields to lift into top-level columns named by joining the path with
    /// [`separator`](Self::separator) (`metadata.source` → `metadata_source`). A path that
    /// leads to a primitive lifts that field; a path that leads to an object lifts each of
    /// its direct children that is a primitive (`metadata` → `metadata_source`,
    /// `metadata_page`, …); deeper objects and arrays stay nested. Used by
    /// [`Form::FlatToon`](super::Form::FlatToon) and [`Form::Hybrid`](super::Form::Hybrid);
    /// `Toon` and `Json` keep records as they are. Default: none.
    pub flatten: Vec<String>,
    /// Joins the segments of a lifted field's path into its column name. Must not be empty.
    /// Default `_`.
    pub separator: String,
    /// `(path, max_chars)`: strings at `path` are cut to at most `max_chars` characters
    /// (Unicode scalar values, cut on a character boundary), the
    /// [`marker`](Self::marker) included. Arrays are transparent: a rule on `tags` cuts
    /// every string of a `tags` array, one on `sections.title` every `title` of the
    /// objects in `sections`. Non-string values are left alone. Applies in every form; when
    /// a path is listed twice the later rule wins. Default: none.
    pub truncate: Vec<(String, usize)>,
    /// Appended to a cut string and counted in its `max_chars`. When the limit is smaller
    /// than the marker, the string is cut to the limit without a marker. Default `…`
    /// (U+2026, one character).
    pub marker: String,
    /// Indentation and delimiter of the TOON forms (the JSON form ignores them).
    pub toon: Options,
    /// The key of the records table (or list) in the TOON forms. Default `rows`.
    pub rows_key: String,
    /// The key of the hybrid form's sidecar section. Default `metadata`.
    pub sidecar_key: String,
}

impl Default for RecordsOptions {
    fn default() -> Self {
        RecordsOptions {
            flatten: Vec::new(),
            separator: "_".to_owned(),
            truncate: Vec::new(),
            marker: "\u{2026}".to_owned(),
            toon: Options::default(),
            rows_key: "rows".to_owned(),
            sidecar_key: "metadata".to_owned(),
        }
    }
}

impl RecordsOptions {
    /// Adds a path to [`flatten`](Self::flatten).
    #[must_use]
    pub fn flattening(mut self, path: impl Into<String>) -> Self {
        self.flatten.push(path.into());
        self
    }

    /// Adds a rule to [`truncate`](Self::truncate).
    #[must_use]
    pub fn truncating(mut self, path: impl Into<String>, max_chars: usize) -> Self {
        self.truncate.push((path.into(), max_chars));
        self
    }

    /// Checks what the paths' own parsers do not: the separator, the indent and the two
    /// section keys.
    pub(super) fn check(&self) -> Result<(), RecordsError> {
        if self.separator.is_empty() {
            return Err(RecordsError::InvalidOptions(
                "the separator must not be empty".to_owned(),
            ));
        }
        if self.toon.indent == 0 {
            return Err(RecordsError::InvalidOptions(
                "the indent must be at least 1".to_owned(),
            ));
        }
        if self.rows_key == self.sidecar_key {
            return Err(RecordsError::InvalidOptions(format!(
                "the rows key and the sidecar key are both {:?}",
                self.rows_key
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_documented_values() {
        let opts = RecordsOptions::default();
        assert_eq!(opts.separator, "_");
        assert_eq!(opts.marker, "…");
        assert_eq!(opts.rows_key, "rows");
        assert_eq!(opts.sidecar_key, "metadata");
        assert!(opts.check().is_ok());
    }

    #[test]
    fn refuses_options_that_make_ambiguous_documents() {
        let empty_sep = RecordsOptions {
            separator: String::new(),
            ..RecordsOptions::default()
        };
        assert!(empty_sep.check().is_err());
        let same_keys = RecordsOptions {
            sidecar_key: "rows".to_owned(),
            ..RecordsOptions::default()
        };
        assert!(same_keys.check().is_err());
        let mut no_indent = RecordsOptions::default();
        no_indent.toon.indent = 0;
        assert!(no_indent.check().is_err());
    }
}
