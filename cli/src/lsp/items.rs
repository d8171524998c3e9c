//! The graph's symbols and uses as protocol items: ranges found by looking for the name on
//! the recorded lines of each file's current text (the client's, for open documents).

use std::collections::HashMap;

use lsp_types::{CallHierarchyItem, Location, Position, Range, SymbolKind, TypeHierarchyItem, Uri};
use serde_json::json;
use tsgraph::engine::NodeKind;
use tsgraph::navigate::{Symbol, Use};

use super::documents::Documents;
use super::text::{self, Encoding};

/// Files' text for one answer, each read once.
pub(crate) struct Sources<'d> {
    documents: &'d Documents,
    encoding: Encoding,
    texts: HashMap<String, Option<String>>,
}

impl<'d> Sources<'d> {
    pub(crate) fn new(documents: &'d Documents, encoding: Encoding) -> Sources<'d> {
        Sources {
            documents,
            encoding,
            texts: HashMap::new(),
        }
    }

    /// Line `line` (one-based, as the graph counts) of `path`; empty when unreadable.
    fn line(&mut self, path: &str, line: u32) -> &str {
        let documents = self.documents;
        let text = self
            .texts
            .entry(path.to_owned())
            .or_insert_with(|| documents.text_of(path));
        text.as_deref()
            .map_or("", |text| text::line(text, line.saturating_sub(1)))
    }

    pub(crate) fn uri(&self, path: &str) -> Result<Uri, String> {
        self.documents.uri_of(path)
    }

    /// Where `name` stands on `line` (one-based) of `path`: each occurrence, or the line's
    /// text when the name is not on it.
    fn on_line(&mut self, path: &str, line: u32, name: &str) -> Vec<Range> {
        let encoding = self.encoding;
        let text_line = self.line(path, line);
        let zero_based = line.saturating_sub(1);
        let found: Vec<Range> = text::occurrences(text_line, name)
            .into_iter()
            .map(|at| text::range_on(text_line, zero_based, (at, at + name.len()), encoding))
            .collect();
        if found.is_empty() {
            vec![text::trimmed_range(text_line, zero_based, encoding)]
        } else {
            found
        }
    }

    /// The declaration's whole lines, and its name on its first line.
    pub(crate) fn ranges(&mut self, symbol: &Symbol) -> (Range, Range) {
        let (first, last) = symbol.lines;
        let selection = match symbol.kind {
            NodeKind::File => self.on_line(&symbol.file, 1, ""),
            _ => self.on_line(&symbol.file, first, &symbol.name),
        }
        .swap_remove(0);
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
        let encoding = self.encoding;
        let mut found = Vec::new();
        for line in source.lines.0..=source.lines.1 {
            let text_line = self.line(&source.file, line);
            for at in text::occurrences(text_line, name) {
                let zero_based = line.saturating_sub(1);
                found.push(text::range_on(
                    text_line,
                    zero_based,
                    (at, at + name.len()),
                    encoding,
                ));
            }
        }
        if found.is_empty() {
            found.push(self.ranges(source).1);
        }
        found
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

/// What an item says beside its name: its signature, and `may call` for a call found by
/// dispatch (to an override or implementation of the member called).
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

pub(crate) fn call_item(
    sources: &mut Sources<'_>,
    symbol: &Symbol,
    may_call: bool,
) -> Result<CallHierarchyItem, String> {
    let (range, selection_range) = sources.ranges(symbol);
    Ok(CallHierarchyItem {
        name: symbol.name.clone(),
        kind: symbol_kind(symbol.kind),
        tags: None,
        detail: detail(symbol, may_call),
        uri: sources.uri(&symbol.file)?,
        range,
        selection_range,
        data: Some(item_data(symbol)),
    })
}

pub(crate) fn type_item(
    sources: &mut Sources<'_>,
    symbol: &Symbol,
) -> Result<TypeHierarchyItem, String> {
    let (range, selection_range) = sources.ranges(symbol);
    Ok(TypeHierarchyItem {
        name: symbol.name.clone(),
        kind: symbol_kind(symbol.kind),
        tags: None,
        detail: detail(symbol, false),
        uri: sources.uri(&symbol.file)?,
        range,
        selection_range,
        data: Some(item_data(symbol)),
    })
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
