//! The requests the server answers, each from one snapshot of the live graph: call
//! hierarchy, type hierarchy, references and workspace symbols.

use lsp_types::{
    CallHierarchyIncomingCall, CallHierarchyIncomingCallsParams, CallHierarchyItem,
    CallHierarchyOutgoingCall, CallHierarchyOutgoingCallsParams, CallHierarchyPrepareParams,
    Location, ReferenceParams, SymbolInformation, TextDocumentPositionParams, TypeHierarchyItem,
    TypeHierarchyPrepareParams, TypeHierarchySubtypesParams, TypeHierarchySupertypesParams,
    WorkspaceSymbolParams,
};
use tsgraph::engine::NodeKind;
use tsgraph::navigate::{Navigator, Symbol, Uses};
use tsgraph::query::{CollectSink, Query};
use tsgraph::{Error, SearchOptions};

use super::Server;
use super::items::{Sources, call_item, id_in, symbol_kind, type_item, use_locations};
use super::text;

/// Uses listed per answer at most; a cut answer is reported to the client's log.
pub(crate) const USES_LIMIT: usize = 1000;
/// Workspace symbols per answer at most (the client filters and ranks them as the user types).
const SYMBOLS_LIMIT: usize = 200;

/// A request's failure: a bad argument, or a graph that could not be read.
pub(crate) enum Failure {
    Params(String),
    Graph(String),
}

impl From<Error> for Failure {
    fn from(err: Error) -> Failure {
        Failure::Graph(err.to_string())
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Graph(message)
    }
}

type Answer<T> = Result<T, Failure>;

/// A hop's answer that the limit cut, to say so in the client's log.
pub(crate) struct Cut {
    pub(crate) what: &'static str,
    pub(crate) id: String,
    pub(crate) listed: usize,
    pub(crate) total: usize,
}

impl Cut {
    fn of(what: &'static str, symbol: &Symbol, uses: &Uses) -> Option<Cut> {
        (uses.total > uses.uses.len()).then(|| Cut {
            what,
            id: symbol.id.clone(),
            listed: uses.uses.len(),
            total: uses.total,
        })
    }
}

impl Server {
    /// The symbols the word at a position names, with the navigator they were found by.
    fn located(&self, nav: &Navigator<'_>, at: &TextDocumentPositionParams) -> Answer<Vec<Symbol>> {
        let uri = &at.text_document.uri;
        let Some(path) = self.documents.path_of(uri) else {
            return Ok(Vec::new());
        };
        let text = self.documents.text_of(&path).unwrap_or_default();
        let line = text::line(&text, at.position.line);
        let byte = self.encoding.byte(line, at.position.character);
        let Some(word) = text::word_at(line, byte) else {
            return Ok(Vec::new());
        };
        Ok(nav.symbols_at(&path, at.position.line.saturating_add(1), word)?)
    }

    /// The node an item stands for: its data's ID, else (a client that drops data) the
    /// symbol at its selection. An ID no longer in the graph is an error, not the symbol now
    /// at the item's old place.
    fn item_symbol(
        &self,
        nav: &Navigator<'_>,
        data: Option<&serde_json::Value>,
        uri: &lsp_types::Uri,
        selection: lsp_types::Range,
    ) -> Answer<Symbol> {
        if let Some(id) = id_in(data) {
            return nav.symbol(&id)?.ok_or_else(|| {
                Failure::Graph(format!(
                    "{id} is no longer in the graph: prepare the hierarchy again"
                ))
            });
        }
        let at = TextDocumentPositionParams {
            text_document: lsp_types::TextDocumentIdentifier { uri: uri.clone() },
            position: selection.start,
        };
        self.located(nav, &at)?
            .into_iter()
            .next()
            .ok_or_else(|| Failure::Params("the item names no symbol of the graph".to_owned()))
    }

    pub(crate) fn prepare_call_hierarchy(
        &self,
        params: CallHierarchyPrepareParams,
    ) -> Answer<Option<Vec<CallHierarchyItem>>> {
        self.with_navigator(|nav| {
            let found = self.located(nav, &params.text_document_position_params)?;
            let mut sources = Sources::new(&self.documents, self.encoding);
            let items = found
                .iter()
                .map(|symbol| call_item(&mut sources, symbol, false))
                .collect::<Result<Vec<_>, String>>()?;
            Ok((!items.is_empty()).then_some(items))
        })
    }

    pub(crate) fn incoming_calls(
        &self,
        params: CallHierarchyIncomingCallsParams,
    ) -> Answer<Option<Vec<CallHierarchyIncomingCall>>> {
        let item = params.item;
        self.with_navigator(|nav| {
            let target =
                self.item_symbol(nav, item.data.as_ref(), &item.uri, item.selection_range)?;
            let callers = nav.calls_in(&target.id, USES_LIMIT)?;
            self.report_cut(Cut::of("incoming calls", &target, &callers));
            let mut sources = Sources::new(&self.documents, self.encoding);
            let calls = callers
                .uses
                .iter()
                .map(|caller| {
                    let ranges = sources.use_ranges(&caller.symbol, &caller.lines, &target.name);
                    Ok(CallHierarchyIncomingCall {
                        from: call_item(&mut sources, &caller.symbol, caller.may_call)?,
                        from_ranges: ranges,
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(Some(calls))
        })
    }

    pub(crate) fn outgoing_calls(
        &self,
        params: CallHierarchyOutgoingCallsParams,
    ) -> Answer<Option<Vec<CallHierarchyOutgoingCall>>> {
        let item = params.item;
        self.with_navigator(|nav| {
            let source =
                self.item_symbol(nav, item.data.as_ref(), &item.uri, item.selection_range)?;
            let callees = nav.calls_out(&source.id, USES_LIMIT)?;
            self.report_cut(Cut::of("outgoing calls", &source, &callees));
            let mut sources = Sources::new(&self.documents, self.encoding);
            let calls = callees
                .uses
                .iter()
                .map(|callee| {
                    let ranges = sources.use_ranges(&source, &callee.lines, &callee.symbol.name);
                    Ok(CallHierarchyOutgoingCall {
                        to: call_item(&mut sources, &callee.symbol, callee.may_call)?,
                        from_ranges: ranges,
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(Some(calls))
        })
    }

    pub(crate) fn prepare_type_hierarchy(
        &self,
        params: TypeHierarchyPrepareParams,
    ) -> Answer<Option<Vec<TypeHierarchyItem>>> {
        self.with_navigator(|nav| {
            let found = self.located(nav, &params.text_document_position_params)?;
            let mut sources = Sources::new(&self.documents, self.encoding);
            let items = found
                .iter()
                .filter(|s| matches!(s.kind, NodeKind::Class | NodeKind::Interface))
                .map(|symbol| type_item(&mut sources, symbol))
                .collect::<Result<Vec<_>, String>>()?;
            Ok((!items.is_empty()).then_some(items))
        })
    }

    pub(crate) fn supertypes(
        &self,
        params: TypeHierarchySupertypesParams,
    ) -> Answer<Option<Vec<TypeHierarchyItem>>> {
        self.type_hop(params.item, "supertypes", |nav, id, limit| {
            nav.supertypes(id, limit)
        })
    }

    pub(crate) fn subtypes(
        &self,
        params: TypeHierarchySubtypesParams,
    ) -> Answer<Option<Vec<TypeHierarchyItem>>> {
        self.type_hop(params.item, "subtypes", |nav, id, limit| {
            nav.subtypes(id, limit)
        })
    }

    fn type_hop(
        &self,
        item: TypeHierarchyItem,
        what: &'static str,
        hop: impl Fn(&Navigator<'_>, &str, usize) -> Result<Uses, Error>,
    ) -> Answer<Option<Vec<TypeHierarchyItem>>> {
        self.with_navigator(|nav| {
            let symbol =
                self.item_symbol(nav, item.data.as_ref(), &item.uri, item.selection_range)?;
            let found = hop(nav, &symbol.id, USES_LIMIT)?;
            self.report_cut(Cut::of(what, &symbol, &found));
            let mut sources = Sources::new(&self.documents, self.encoding);
            let items = found
                .uses
                .iter()
                .map(|used| type_item(&mut sources, &used.symbol))
                .collect::<Result<Vec<_>, String>>()?;
            Ok(Some(items))
        })
    }

    pub(crate) fn references(&self, params: ReferenceParams) -> Answer<Option<Vec<Location>>> {
        self.with_navigator(|nav| {
            let found = self.located(nav, &params.text_document_position)?;
            let mut sources = Sources::new(&self.documents, self.encoding);
            let mut locations = Vec::new();
            for symbol in &found {
                if params.context.include_declaration {
                    let (_, name) = sources.ranges(symbol);
                    locations.extend(sources.locations(&symbol.file, vec![name])?);
                }
                let uses = nav.uses(&symbol.id, USES_LIMIT)?;
                self.report_cut(Cut::of("references", symbol, &uses));
                for used in &uses.uses {
                    locations.extend(use_locations(&mut sources, used, &symbol.name)?);
                }
            }
            locations.sort_by(|a, b| {
                (a.uri.as_str(), a.range.start).cmp(&(b.uri.as_str(), b.range.start))
            });
            locations.dedup();
            Ok((!locations.is_empty()).then_some(locations))
        })
    }

    /// Symbols whose names start with the query (or match it as a glob, when it has `*` or
    /// `?`), by the search's ranking.
    pub(crate) fn workspace_symbols(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Answer<Option<lsp_types::WorkspaceSymbolResponse>> {
        let query = params.query.trim();
        if query.is_empty() {
            return Ok(Some(lsp_types::WorkspaceSymbolResponse::Flat(Vec::new())));
        }
        let pattern = if query.contains(['*', '?']) {
            query.to_owned()
        } else {
            format!("{query}*")
        };
        self.with_navigator(|nav| {
            let options = SearchOptions {
                limit: SYMBOLS_LIMIT,
                ..SearchOptions::default()
            };
            let mut found = CollectSink::default();
            Query::new(nav.snapshot())
                .search(&pattern, &options, &mut found)
                .map_err(Error::from)?;
            let mut sources = Sources::new(&self.documents, self.encoding);
            let mut symbols = Vec::new();
            for (id, _) in &found.nodes {
                let Some(symbol) = nav.symbol(id)? else {
                    continue;
                };
                let (_, name) = sources.ranges(&symbol);
                let location = lsp_types::Location {
                    uri: sources.uri(&symbol.file)?,
                    range: name,
                };
                symbols.push(symbol_information(&symbol, location));
            }
            Ok(Some(lsp_types::WorkspaceSymbolResponse::Flat(symbols)))
        })
    }
}

#[allow(deprecated)] // `deprecated` is a required field of the struct, itself deprecated.
fn symbol_information(symbol: &Symbol, location: Location) -> SymbolInformation {
    SymbolInformation {
        name: symbol.name.clone(),
        kind: symbol_kind(symbol.kind),
        tags: None,
        deprecated: None,
        location,
        container_name: Some(container_of(symbol).to_owned()),
    }
}

/// What a symbol is declared in: the class or namespace of a member, else its file.
fn container_of(symbol: &Symbol) -> &str {
    symbol
        .id
        .strip_prefix(symbol.file.as_str())
        .and_then(|rest| rest.strip_prefix(':'))
        .and_then(|path| path.rsplit_once('.'))
        .map_or(symbol.file.as_str(), |(container, _)| container)
}
