//! The graph's symbols and uses as protocol items: ranges found by looking for the name on
//! the recorded lines of each file's current text (the client's, for open documents).

use std::collections::HashMap;

use lsp_types::{CallHierarchyItem, Location, Position, Range, SymbolKind, TypeHierarchyItem, Uri};
use serde_json::json;
use tsgraph::engine::NodeKind;
use tsgraph::navigate::{Symbol, Use};

use super::documents::Documents;
use super::text::{self, Encoding};

/// One file's text with where each line starts, read once per answer.
struct Lines {
    text: String,
    starts: Vec<usize>,
}

impl Lines {
    fn new(text: String) -> Lines {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(at, _)| at + 1))
            .collect();
        Lines { text, starts }
    }

    /// Line `line` (one-based), without its line break; empty past the end.
    fn line(&self, line: u32) -> &str {
        let Some(&start) = self.starts.get(line.saturating_sub(1) as usize) else {
            return "";
        };
        let rest = &self.text[start..];
        let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
        line.strip_suffix('\r').unwrap_or(line)
    }
}

/// Files' text for one answer, each read once.
pub(crate) struct Sources<'d> {
    documents: &'d Documents,
    encoding: Encoding,
    files: HashMap<String, Lines>,
}

impl<'d> Sources<'d> {
    pub(crate) fn new(documents: &'d Documents, encoding: Encoding) -> Sources<'d> {
        Sources {
            documents,
            encoding,
            files: HashMap::new(),
        }
    }

    /// Line `line` (one-based, as the graph counts) of `path`; empty when unreadable.
    fn line(&mut self, path: &str, line: u32) -> &str {
        let documents = self.documents;
        self.files
            .entry(path.to_owned())
            .or_insert_with(|| Lines::new(documents.text_of(path).unwrap_or_default()))
            .line(line)
    }

    pub(crate) fn uri(&self, path: &str) -> Result<Uri, String> {
        self.documents.uri_of(path)
    }

    /// Each place `name` stands on `line` (one-based) of `path`.
    fn occurrences(&mut self, path: &str, line: u32, name: &str) -> Vec<Range> {
        let encoding = self.encoding;
        let text_line = self.line(path, line);
        text::occurrences(text_line, name)
            .into_iter()
            .map(|at| {
                let bytes = (at, at + name.len());
                text::range_on(text_line, line.saturating_sub(1), bytes, encoding)
            })
            .collect()
    }

    /// Where `name` stands on `line` of `path`: each occurrence, or the line's text when
    /// the name is not on it (never empty).
    fn on_line(&mut self, path: &str, line: u32, name: &str) -> Vec<Range> {
        let found = self.occurrences(path, line, name);
        if !found.is_empty() {
            return found;
        }
        let encoding = self.encoding;
        let text_line = self.line(path, line);
        vec![text::trimmed_range(
            text_line,
            line.saturating_sub(1),
            encoding,
        )]
    }

    /// The declaration's whole lines, and its name: the first place it stands within them
    /// (a decorator or a doc comment may come first), else the first line's text.
    pub(crate) fn ranges(&mut self, symbol: &Symbol) -> (Range, Range) {
        let (first, last) = symbol.lines;
        let named = (symbol.kind != NodeKind::File)
            .then(|| {
                (first..=last.max(first)).find_map(|line| {
                    self.occurrences(&symbol.file, line, &symbol.name)
                        .first()
                        .copied()
                })
            })
            .flatten();
        let selection = named.unwrap_or_else(|| {
            let encoding = self.encoding;
            let text_line = self.line(&symbol.file, first);
            text::trimmed_range(text_line, first.saturating_sub(1), encoding)
        });
        let encoding = self.encoding;
        let last_line = self.line(&symbol.file, last);
        let end = Position {
            line: last.saturating_sub(1),
            character: encoding.column(last_line, last_line.len()),
        };
        let range = Range {
            start: Position {
                line: first.saturating_sub(1),
                character: 0,
            },
            end: end.max(selection.end),
        };
        (range, selection)
    }

    /// Where the uses of `name` by `source` stand in `source`'s file: on each recorded
    /// line, or within the source's lines when the edge records none (the declaration's
    /// name when the name is nowhere there).
    pub(crate) fn use_ranges(&mut self, source: &Symbol, lines: &[u32], name: &str) -> Vec<Range> {
        if !lines.is_empty() {
            return lines
                .iter()
                .flat_map(|&line| self.on_line(&source.file, line, name))
                .collect();
        }
        let found: Vec<Range> = (source.lines.0..=source.lines.1)
            .flat_map(|line| self.occurrences(&source.file, line, name))
            .collect();
        if found.is_empty() {
            vec![self.ranges(source).1]
        } else {
            found
        }
    }

    /// A location for each range.
    pub(crate) fn locations(
        &self,
        path: &str,
        ranges: Vec<Range>,
    ) -> Result<Vec<Location>, String> {
        let uri = self.uri(path)?;
        Ok(ranges
            .into_iter()
            .map(|range| Location {
                uri: uri.clone(),
                range,
            })
            .collect())
    }
}

/// The protocol's kind for a node kind.
pub(crate) fn symbol_kind(kind: NodeKind) -> SymbolKind {
    match kind {
        NodeKind::File => SymbolKind::FILE,
        NodeKind::Function => SymbolKind::FUNCTION,
        NodeKind::Class => SymbolKind::CLASS,
        NodeKind::Method => SymbolKind::METHOD,
        NodeKind::Interface => SymbolKind::INTERFACE,
        // The protocol has no type alias; a type parameter is the nearest it names.
        NodeKind::TypeAlias => SymbolKind::TYPE_PARAMETER,
        NodeKind::Variable => SymbolKind::VARIABLE,
        NodeKind::Property => SymbolKind::PROPERTY,
        NodeKind::Enum => SymbolKind::ENUM,
    }
}

/// What an item says beside its name: its signature, and `may call` for a call that may
/// happen (dispatch to an override or implementation, a table entry called by a computed key).
fn detail(symbol: &Symbol, may_call: bool) -> Option<String> {
    let mut detail = symbol.signature.clone();
    if may_call {
        detail = format!("may call · {detail}");
    }
    (!detail.is_empty()).then_some(detail)
}

/// The node ID an item carries between a prepare request and the next.
pub(crate) fn item_data(symbol: &Symbol) -> serde_json::Value {
    json!({ "id": symbol.id })
}

/// The node ID in an item's data, if the client kept it.
pub(crate) fn id_in(data: Option<&serde_json::Value>) -> Option<String> {
    Some(data?.get("id")?.as_str()?.to_owned())
}

/// What a call and a type hierarchy item share.
struct Parts {
    name: String,
    kind: SymbolKind,
    detail: Option<String>,
    uri: Uri,
    range: Range,
    selection_range: Range,
    data: Option<serde_json::Value>,
}

fn parts(sources: &mut Sources<'_>, symbol: &Symbol, may_call: bool) -> Result<Parts, String> {
    let (range, selection_range) = sources.ranges(symbol);
    Ok(Parts {
        name: symbol.name.clone(),
        kind: symbol_kind(symbol.kind),
        detail: detail(symbol, may_call),
        uri: sources.uri(&symbol.file)?,
        range,
        selection_range,
        data: Some(item_data(symbol)),
    })
}

/// A call or type hierarchy item from its parts: the two item types have the same fields
/// (and the protocol types no common constructor).
macro_rules! item_from {
    ($item:ident, $parts:expr) => {{
        let p = $parts;
        $item {
            name: p.name,
            kind: p.kind,
            tags: None,
            detail: p.detail,
            uri: p.uri,
            range: p.range,
            selection_range: p.selection_range,
            data: p.data,
        }
    }};
}

pub(crate) fn call_item(
    sources: &mut Sources<'_>,
    symbol: &Symbol,
    may_call: bool,
) -> Result<CallHierarchyItem, String> {
    Ok(item_from!(
        CallHierarchyItem,
        parts(sources, symbol, may_call)?
    ))
}

pub(crate) fn type_item(
    sources: &mut Sources<'_>,
    symbol: &Symbol,
) -> Result<TypeHierarchyItem, String> {
    Ok(item_from!(
        TypeHierarchyItem,
        parts(sources, symbol, false)?
    ))
}

/// A use's ranges as locations in its source's file.
pub(crate) fn use_locations(
    sources: &mut Sources<'_>,
    used: &Use,
    name: &str,
) -> Result<Vec<Location>, String> {
    let ranges = sources.use_ranges(&used.symbol, &used.lines, name);
    sources.locations(&used.symbol.file, ranges)
}
