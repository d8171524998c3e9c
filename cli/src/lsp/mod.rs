//! The language server (`tsgraph lsp`): call hierarchy, type hierarchy, references and
//! workspace symbols from the code graph, over stdio. It runs beside the editor's TypeScript
//! server, not instead of it: it answers the questions a whole-project graph answers well.
//!
//! Open documents follow the editor's text through the live project's edit API, so unsaved
//! edits are answered; files on disk are watched as `tsgraph watch` does. Positions count in
//! the encoding negotiated at initialize (UTF-16 unless the client offers UTF-8 or UTF-32).
//! Nothing but protocol goes to stdout; logs go to stderr and the client's log.

mod documents;
mod items;
mod requests;
mod text;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Exit, LogMessage,
    Notification as _,
};
use lsp_types::request::{
    CallHierarchyIncomingCalls, CallHierarchyOutgoingCalls, CallHierarchyPrepare, References,
    Request as _, TypeHierarchyPrepare, TypeHierarchySubtypes, TypeHierarchySupertypes,
    WorkspaceSymbolRequest,
};
use lsp_types::{
    InitializeParams, InitializeResult, LogMessageParams, MessageType, OneOf, ServerCapabilities,
    ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind,
};
use parking_lot::Mutex;
use serde::Serialize;
use serde::de::DeserializeOwned;
use tsgraph::navigate::Navigator;
use tsgraph::{Error, IndexOptions, LiveProject};

use documents::Documents;
use requests::{Cut, Failure};
use text::Encoding;

/// Where the server finds its project and store.
pub struct Setup {
    /// The project folder given on the command line; else the client's workspace folder or
    /// root, else the folder the server was started in.
    pub root: Option<PathBuf>,
    /// The store file, when not the project's default.
    pub db: Option<PathBuf>,
    /// How files are indexed.
    pub options: IndexOptions,
}

/// The server's state: the live project, the open documents and the negotiated encoding.
pub(crate) struct Server {
    connection: Connection,
    live: Arc<LiveProject>,
    documents: Documents,
    encoding: Encoding,
}

/// Serves one client over `connection` until it shuts the server down: initializes (the
/// project is opened and brought up to date before the answer, so that every request after
/// it is answered from a current graph), then answers requests in the order they come.
pub fn serve(
    connection: Connection,
    setup: Setup,
    log: Box<dyn Write + Send>,
) -> Result<(), Error> {
    let log = Arc::new(Mutex::new(log));
    let (id, params) = connection.initialize_start().map_err(protocol_error)?;
    let params: InitializeParams = serde_json::from_value(params)
        .map_err(|err| protocol_error(format!("initialize: {err}")))?;
    let root = match setup.root {
        Some(root) => root,
        None => client_root(&params).map_or_else(current_dir, Ok)?,
    };
    let live = match LiveProject::open(&root, setup.db.as_deref(), setup.options) {
        Ok(live) => Arc::new(live),
        Err(err) => {
            let message = format!("tsgraph could not open {}: {err}", root.display());
            let refusal = Response::new_err(id, ErrorCode::RequestFailed as i32, message);
            let _ = connection.sender.send(refusal.into());
            return Err(err);
        }
    };
    let _ = writeln!(log.lock(), "tsgraph: serving {}", live.root().display());
    let offered = params
        .capabilities
        .general
        .and_then(|general| general.position_encodings)
        .unwrap_or_default();
    let encoding = Encoding::negotiate(&offered);
    // Watching starts before the answer, so that no change on disk after the sync is missed.
    let watch_log = Arc::clone(&log);
    let _watcher = tsgraph::watch(Arc::clone(&live), move |update| {
        let _ = writeln!(watch_log.lock(), "tsgraph: {update}");
    })?;
    // lsp-server ends the handshake with an error if the client sends anything but
    // `initialized` now, as the protocol says it must not.
    connection
        .initialize_finish(id, initialize_result(encoding)?)
        .map_err(protocol_error)?;
    let server = Server {
        documents: Documents::new(live.root()),
        connection,
        live,
        encoding,
    };
    server.run()?;
    let _ = writeln!(log.lock(), "tsgraph: the client shut the server down");
    Ok(())
}

/// The client's project: its first workspace folder, else its root URI.
fn client_root(params: &InitializeParams) -> Option<PathBuf> {
    let folder = params
        .workspace_folders
        .as_ref()
        .and_then(|folders| folders.first())
        .map(|folder| folder.uri.clone());
    #[allow(deprecated)] // Older clients send only `rootUri`.
    let uri = folder.or_else(|| params.root_uri.clone())?;
    url::Url::parse(uri.as_str()).ok()?.to_file_path().ok()
}

fn current_dir() -> Result<PathBuf, Error> {
    let here = std::env::current_dir().map_err(|source| Error::Io {
        path: PathBuf::from("."),
        source,
    })?;
    tsgraph::discover_root(&here)
}

/// What the server offers. The type hierarchy's capability is added by name: the protocol
/// types this crate uses have no field for it.
fn initialize_result(encoding: Encoding) -> Result<serde_json::Value, Error> {
    let capabilities = ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        call_hierarchy_provider: Some(true.into()),
        references_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    };
    let result = InitializeResult {
        capabilities,
        server_info: Some(ServerInfo {
            name: "tsgraph".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        }),
    };
    let mut value = to_json(&result)?;
    value["capabilities"]["typeHierarchyProvider"] = serde_json::Value::Bool(true);
    Ok(value)
}

fn to_json(value: &impl Serialize) -> Result<serde_json::Value, Error> {
    serde_json::to_value(value).map_err(|err| protocol_error(err.to_string()))
}

fn protocol_error(message: impl ToString) -> Error {
    Error::Io {
        path: Path::new("stdio").to_path_buf(),
        source: std::io::Error::other(format!("LSP: {}", message.to_string())),
    }
}

impl Server {
    /// Answers messages until the client asks the server to shut down.
    fn run(mut self) -> Result<(), Error> {
        while let Ok(message) = self.connection.receiver.recv() {
            match message {
                Message::Request(request) => {
                    if self
                        .connection
                        .handle_shutdown(&request)
                        .map_err(protocol_error)?
                    {
                        return Ok(());
                    }
                    let response = self.answer(request);
                    self.send(response.into());
                }
                // The protocol's exit code for an exit without a shutdown first is 1.
                Message::Notification(notification) if notification.method == Exit::METHOD => {
                    return Err(protocol_error("the client exited without shutting down"));
                }
                Message::Notification(notification) => self.follow(notification),
                Message::Response(_) => {}
            }
        }
        Ok(())
    }

    fn send(&self, message: Message) {
        // The client is gone when this fails; the receive loop then ends.
        let _ = self.connection.sender.send(message);
    }

    /// One request's response.
    fn answer(&self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            CallHierarchyPrepare::METHOD => self.reply(request, Self::prepare_call_hierarchy),
            CallHierarchyIncomingCalls::METHOD => self.reply(request, Self::incoming_calls),
            CallHierarchyOutgoingCalls::METHOD => self.reply(request, Self::outgoing_calls),
            TypeHierarchyPrepare::METHOD => self.reply(request, Self::prepare_type_hierarchy),
            TypeHierarchySupertypes::METHOD => self.reply(request, Self::supertypes),
            TypeHierarchySubtypes::METHOD => self.reply(request, Self::subtypes),
            References::METHOD => self.reply(request, Self::references),
            WorkspaceSymbolRequest::METHOD => self.reply(request, Self::workspace_symbols),
            method => {
                return Response::new_err(
                    id,
                    ErrorCode::MethodNotFound as i32,
                    format!("tsgraph does not answer {method}"),
                );
            }
        };
        match result {
            Ok(value) => Response {
                id,
                result: Some(value),
                error: None,
            },
            Err(Failure::Params(message)) => {
                Response::new_err(id, ErrorCode::InvalidParams as i32, message)
            }
            Err(Failure::Graph(message)) => {
                Response::new_err(id, ErrorCode::RequestFailed as i32, message)
            }
        }
    }

    /// Decodes a request's parameters, answers them and encodes the result.
    fn reply<P: DeserializeOwned, R: Serialize>(
        &self,
        request: Request,
        handler: impl Fn(&Self, P) -> Result<R, Failure>,
    ) -> Result<serde_json::Value, Failure> {
        let params: P = serde_json::from_value(request.params)
            .map_err(|err| Failure::Params(format!("{}: {err}", request.method)))?;
        let result = handler(self, params)?;
        serde_json::to_value(result).map_err(|err| Failure::Graph(err.to_string()))
    }

    /// Runs `f` on a navigator over the latest committed graph.
    fn with_navigator<T>(
        &self,
        f: impl FnOnce(&Navigator<'_>) -> Result<T, Failure>,
    ) -> Result<T, Failure> {
        let snapshot = self.live.with_project(|project| project.snapshot())?;
        f(&Navigator::new(&snapshot))
    }

    /// Tells the client's log that an answer was cut at the limit.
    fn report_cut(&self, cut: Option<Cut>) {
        if let Some(cut) = cut {
            self.log_to_client(
                MessageType::WARNING,
                format!(
                    "tsgraph: {} of {}: the first {} of {} listed (by file and line); the rest were left out",
                    cut.what, cut.id, cut.listed, cut.total
                ),
            );
        }
    }

    fn log_to_client(&self, typ: MessageType, message: String) {
        let params = LogMessageParams { typ, message };
        self.send(Notification::new(LogMessage::METHOD.to_owned(), params).into());
    }

    /// Follows one notification: the client's documents as it edits them.
    fn follow(&mut self, notification: Notification) {
        let outcome = match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                decode(notification).and_then(|params| self.opened(params))
            }
            DidChangeTextDocument::METHOD => {
                decode(notification).and_then(|params| self.changed(params))
            }
            DidCloseTextDocument::METHOD => {
                decode(notification).and_then(|params| self.closed(params))
            }
            // Saves, watched files and the rest: the file watcher sees what reaches the disk.
            _ => Ok(()),
        };
        if let Err(message) = outcome {
            self.log_to_client(MessageType::ERROR, format!("tsgraph: {message}"));
        }
    }

    /// Follows a document the project indexes (or a new file, not yet on disk); a file the
    /// index leaves out (ignored, generated, a dependency) stays out of the graph.
    fn opened(&mut self, params: lsp_types::DidOpenTextDocumentParams) -> Result<(), String> {
        let document = params.text_document;
        let Some(path) = self.documents.path_of(&document.uri) else {
            return Ok(());
        };
        if !self.indexes(&path) {
            return Ok(());
        }
        self.documents
            .open(&document.uri, &path, document.text.clone());
        let set = self.live.set_file_text(&path, &document.text);
        if set.is_err() {
            self.documents.close(&document.uri);
        }
        committed(&path, set)
    }

    /// Whether `path` is in the graph, or a file not on disk yet.
    fn indexes(&self, path: &str) -> bool {
        let indexed = self
            .live
            .with_project(|project| Ok(project.snapshot()?.file_keys(path)?.is_some()));
        indexed.unwrap_or(false) || !self.live.root().join(path).exists()
    }

    /// Applies a change to the held text and the graph. A change that does not fit the held
    /// text means the client and the server disagree: the document is let go (the file's
    /// text on disk counts again) until the client opens it again, rather than answered
    /// from a text that drifted.
    fn changed(&mut self, params: lsp_types::DidChangeTextDocumentParams) -> Result<(), String> {
        let uri = params.text_document.uri;
        let (path, edits) = match self
            .documents
            .change(&uri, params.content_changes, self.encoding)
        {
            Ok(Some(change)) => change,
            Ok(None) => return Ok(()),
            Err(err) => {
                let released = self.documents.close(&uri).map(|path| {
                    let closed = self.live.close_file(&path);
                    committed(&path, closed)
                });
                released.transpose()?;
                return Err(format!(
                    "{}: {err}; following the file on disk until it is opened again",
                    uri.as_str()
                ));
            }
        };
        if self.live.apply_edit(&path, &edits).is_ok() {
            return Ok(());
        }
        // The graph's copy of the text went another way (an edit it refused earlier): hand
        // it the whole text the client holds, which the change just fitted.
        let text = self
            .documents
            .text_of_uri(&uri)
            .ok_or_else(|| format!("{path}: not open"))?
            .to_owned();
        committed(&path, self.live.set_file_text(&path, &text))
    }

    fn closed(&mut self, params: lsp_types::DidCloseTextDocumentParams) -> Result<(), String> {
        match self.documents.close(&params.text_document.uri) {
            Some(path) => committed(&path, self.live.close_file(&path)),
            None => Ok(()),
        }
    }
}

/// An update's outcome as a notification handler reports it.
fn committed(path: &str, outcome: Result<tsgraph::EditOutcome, Error>) -> Result<(), String> {
    outcome.map(drop).map_err(|err| format!("{path}: {err}"))
}

fn decode<P: DeserializeOwned>(notification: Notification) -> Result<P, String> {
    serde_json::from_value(notification.params)
        .map_err(|err| format!("{}: {err}", notification.method))
}

#[cfg(test)]
mod tests;
