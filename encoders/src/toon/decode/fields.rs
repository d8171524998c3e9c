//! The fields segment of a tabular header (`{id,customer{name,country},total}`) and the
//! depth-first assignment of a row's cells to its leaves.
//!
//! Groups are kept flat, in pre-order with explicit open/close markers, so that neither parsing
//! nor assembling recurses: a header nested thousands of braces deep costs no stack.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::MAX_DEPTH;
use super::error::{ErrorKind, Fault};
use super::scan::skip_spaces;
use super::string;

/// One element of a fields segment, in pre-order.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum FieldEntry {
    /// A field that takes one cell.
    Leaf(String),
    /// The start of a nested group `name{`.
    Open(String),
    /// The end of the innermost open group.
    Close,
}

/// A parsed fields segment.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Fields {
    entries: Vec<FieldEntry>,
    leaves: usize,
}

impl Fields {
    /// The number of leaves, i.e. the cells a row must have.
    pub(super) fn width(&self) -> usize {
        self.leaves
    }

    /// Builds one row's object, taking cells for the leaves depth-first. A missing cell becomes
    /// `null` (callers check the width first).
    pub(super) fn assemble(&self, cells: impl IntoIterator<Item = Value>) -> Map<String, Value> {
        let mut cells = cells.into_iter();
        let mut open: Vec<(&str, Map<String, Value>)> = Vec::new();
        let mut current = Map::new();
        for entry in &self.entries {
            // `insert` on an existing key keeps its position and replaces the value: last write
            // wins, as non-strict mode asks for repeated names.
            match entry {
                FieldEntry::Leaf(name) => {
                    current.insert(name.clone(), cells.next().unwrap_or(Value::Null));
                }
                FieldEntry::Open(name) => open.push((name, std::mem::take(&mut current))),
                FieldEntry::Close => {
                    if let Some((name, parent)) = open.pop() {
                        let group = std::mem::replace(&mut current, parent);
                        current.insert(name.to_owned(), Value::Object(group));
                    }
                }
            }
        }
        current
    }
}

/// Parses the fields segment whose `{` is at `open`, splitting names on `delimiter`; returns
/// the fields and the offset after the closing `}`. Groups nested deeper than [`MAX_DEPTH`]
/// are refused so that the rows' values stay shallow enough to drop.
///
/// In strict mode a name repeated at one brace level is an error; otherwise both are kept and
/// [`Fields::assemble`] lets the last one win.
pub(super) fn parse(
    text: &str,
    open: usize,
    delimiter: u8,
    strict: bool,
) -> Result<(Fields, usize), Fault> {
    let bytes = text.as_bytes();
    let mut entries = Vec::new();
    let mut leaves = 0;
    // The names seen at each open brace level, innermost last.
    let mut levels: Vec<HashSet<String>> = vec![HashSet::new()];
    let mut i = open + 1;
    loop {
        let (name, name_at, end) = parse_name(text, skip_spaces(text, i), open, delimiter, strict)?;
        i = skip_spaces(text, end);
        let names = levels
            .last_mut()
            .ok_or_else(|| Fault::new(open, ErrorKind::MalformedHeader("unbalanced braces")))?;
        if !names.insert(name.clone()) && strict {
            return Err(Fault::new(name_at, ErrorKind::DuplicateField(name)));
        }
        if bytes.get(i) == Some(&b'{') {
            if levels.len() >= MAX_DEPTH {
                return Err(Fault::new(i, ErrorKind::TooDeep { limit: MAX_DEPTH }));
            }
            entries.push(FieldEntry::Open(name));
            levels.push(HashSet::new());
            i += 1;
            continue;
        }
        entries.push(FieldEntry::Leaf(name));
        leaves += 1;
        // After a field: a delimiter starts the next name, each `}` closes a level.
        loop {
            match bytes.get(i) {
                Some(&b) if b == delimiter => {
                    i += 1;
                    break;
                }
                Some(b'}') => {
                    i += 1;
                    levels.pop();
                    if levels.is_empty() {
                        return Ok((Fields { entries, leaves }, i));
                    }
                    entries.push(FieldEntry::Close);
                    i = skip_spaces(text, i);
                }
                None => {
                    return Err(Fault::new(
                        open,
                        ErrorKind::MalformedHeader("unmatched '{' in fields"),
                    ));
                }
                Some(_) => {
                    return Err(Fault::new(
                        i,
                        ErrorKind::MalformedHeader(
                            "expected a delimiter or '}' after a field name",
                        ),
                    ));
                }
            }
        }
    }
}

/// One field name starting at `i`: quoted, or bare up to the delimiter or a brace. Returns the
/// name, where it starts and the offset after it.
fn parse_name(
    text: &str,
    i: usize,
    open: usize,
    delimiter: u8,
    strict: bool,
) -> Result<(String, usize, usize), Fault> {
    let bytes = text.as_bytes();
    if bytes.get(i) == Some(&b'"') {
        let (name, end) = string::parse_quoted(text, i)?;
        return Ok((name, i, end));
    }
    let end = (i..bytes.len())
        .find(|&j| {
            bytes
                .get(j)
                .is_some_and(|&b| b == delimiter || b == b'{' || b == b'}')
        })
        .ok_or_else(|| Fault::new(open, ErrorKind::MalformedHeader("unmatched '{' in fields")))?;
    let name = text.get(i..end).unwrap_or("").trim_end_matches(' ');
    if name.is_empty() {
        return Err(Fault::new(
            i,
            ErrorKind::MalformedHeader("empty field name"),
        ));
    }
    // An unquoted name holding another delimiter means the fields were split with a different
    // delimiter than the bracket declared; the other characters always need quotes.
    if strict
        && name
            .bytes()
            .any(|b| matches!(b, b',' | b'|' | b'\t' | b':' | b'"' | b'[' | b']'))
    {
        return Err(Fault::new(
            i,
            ErrorKind::MalformedHeader(
                "field name needs quotes or uses another delimiter than the bracket",
            ),
        ));
    }
    Ok((name.to_owned(), i, end))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn names(text: &str, delimiter: u8, strict: bool) -> Result<String, String> {
        parse(text, 0, delimiter, strict)
            .map(|(fields, end)| {
                let parts: Vec<String> = fields
                    .entries
                    .iter()
                    .map(|e| match e {
                        FieldEntry::Leaf(name) => name.clone(),
                        FieldEntry::Open(name) => format!("{name}("),
                        FieldEntry::Close => ")".to_owned(),
                    })
                    .collect();
                format!("{} width={} @{end}", parts.join(" "), fields.width())
            })
            .map_err(|f| format!("{}: {}", f.at, f.kind))
    }

    #[test]
    fn parses_nested_groups_and_quoted_names() {
        assert_eq!(
            names("{id,customer{name,country},total}:", b',', true),
            Ok("id customer( name country ) total width=4 @33".into())
        );
        assert_eq!(
            names(r#"{"a{b}",c}"#, b',', true),
            Ok("a{b} c width=2 @10".into())
        );
        assert_eq!(
            names("{a|b{c|d{e}}}", b'|', true),
            Ok("a b( c d( e ) ) width=3 @13".into())
        );
    }

    #[test]
    fn rejects_malformed_segments() {
        assert_eq!(
            names("{}", b',', true),
            Err("1: malformed array header: empty field name".into())
        );
        assert_eq!(
            names("{id,meta{}}", b',', true),
            Err("9: malformed array header: empty field name".into())
        );
        assert_eq!(
            names("{id,c{name:", b',', true),
            Err("0: malformed array header: unmatched '{' in fields".into())
        );
        assert_eq!(
            names("{a}}", b',', true).map(|s| s.ends_with("@3")),
            Ok(true)
        );
        assert_eq!(names("{a,b}", b'\t', true), Err("1: malformed array header: field name needs quotes or uses another delimiter than the bracket".into()));
        assert_eq!(
            names("{a,a{x}}", b',', true),
            Err("3: duplicate field name \"a\"".into())
        );
        assert_eq!(
            names("{a,a{x}}", b',', false),
            Ok("a a( x ) width=2 @8".into())
        );
    }

    #[test]
    fn refuses_groups_deeper_than_the_limit() {
        let deep = format!("{}x{}", "{a".repeat(10_000), "}".repeat(10_000));
        assert!(names(&deep, b',', true).is_err_and(|e| e.contains("nesting deeper than")));
    }

    #[test]
    fn assigns_cells_depth_first_with_last_write_winning() {
        let Ok((fields, _)) = parse("{id,s{n,c},r{n}}", 0, b',', true) else {
            panic!("fields parse")
        };
        let row = fields.assemble([json!(1), json!("a"), json!("b"), json!("c")]);
        assert_eq!(
            Value::Object(row),
            json!({"id": 1, "s": {"n": "a", "c": "b"}, "r": {"n": "c"}})
        );
        let Ok((fields, _)) = parse("{a,a{x}}", 0, b',', false) else {
            panic!("fields parse")
        };
        assert_eq!(
            Value::Object(fields.assemble([json!(1), json!(2)])),
            json!({"a": {"x": 2}})
        );
    }
}
