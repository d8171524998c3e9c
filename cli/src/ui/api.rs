//! The page's API: reads only. Queries as the CLI answers them, the call tree, a symbol's
//! details with its source lines, source lines by file, and graph updates as server-sent
//! events. A bad argument is a 400 naming it, an unknown symbol or file a 404, a path
//! outside the project a 403; the body is always the library's JSON error.

use std::convert::Infallible;
use std::io::ErrorKind;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::BroadcastStream;
use tsgraph::args::ArgError;
use tsgraph::navigate::{Navigator, Symbol, Uses};
use tsgraph::{Error, Format, Project, SymbolArg};

use super::AppState;
use super::tree::{TreeArgs, call_tree};

/// The most source lines one answer holds.
const MAX_SOURCE_LINES: u32 = 2_000;
/// The query kinds the page asks (`changeImpact`, which runs git, is not among them).
const PAGE_KINDS: [&str; 8] = [
    "search",
    "callers",
    "callees",
    "impact",
    "path",
    "neighbors",
    "fileSymbols",
    "packageDeps",
];
/// The most supertypes or subtypes a symbol's details list.
const LISTED_TYPES: usize = 50;

/// Why a request failed, as the answer says it.
pub(crate) enum Failure {
    Argument(ArgError),
    Graph(Error),
    Internal(String),
}

impl From<ArgError> for Failure {
    fn from(err: ArgError) -> Failure {
        Failure::Argument(err)
    }
}

impl From<Error> for Failure {
    fn from(err: Error) -> Failure {
        Failure::Graph(err)
    }
}

impl From<QueryRejection> for Failure {
    fn from(err: QueryRejection) -> Failure {
        Failure::Argument(ArgError(err.body_text()))
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let (status, body) = match self {
            Failure::Argument(err) => (StatusCode::BAD_REQUEST, err.to_json()),
            Failure::Graph(err) => (status_of(&err), err.to_json()),
            Failure::Internal(message) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                json!({"error": {"code": "error", "message": message}}),
            ),
        };
        (status, Json(body)).into_response()
    }
}

/// The HTTP status of a library error: its exit code's meaning, and for a file the reason
/// it could not be read.
fn status_of(err: &Error) -> StatusCode {
    if let Error::Io { source, .. } = err {
        match source.kind() {
            ErrorKind::PermissionDenied => return StatusCode::FORBIDDEN,
            ErrorKind::NotFound => return StatusCode::NOT_FOUND,
            _ => {}
        }
    }
    match err.exit_code() {
        tsgraph::EXIT_SYMBOL => StatusCode::NOT_FOUND,
        tsgraph::EXIT_USAGE => StatusCode::BAD_REQUEST,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// Runs `work` with a read-only project on the latest graph, off the server's threads, a
/// few at a time (more wait their turn).
async fn with_project<T: Send + 'static>(
    state: &AppState,
    work: impl FnOnce(&Project) -> Result<T, Failure> + Send + 'static,
) -> Result<T, Failure> {
    let live = state.live.clone();
    let _turn = state
        .readers
        .acquire()
        .await
        .map_err(|_| Failure::Internal("the server is stopping".into()))?;
    tokio::task::spawn_blocking(move || {
        // The outer result is the graph's (opening a reader), the inner one the work's.
        live.with_project(|project| Ok(work(project)))
            .map_err(Failure::Graph)?
    })
    .await
    .map_err(|err| Failure::Internal(format!("the request's task failed: {err}")))?
}

/// `GET /api/info`: the project's name and root.
pub(crate) async fn info(State(state): State<AppState>) -> Json<Value> {
    let root = state.live.root();
    let name = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Json(json!({"name": name, "root": root.display().to_string()}))
}

/// The arguments of a query: the JSON text the Node addon and the MCP tools take.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct QueryParams {
    args: Option<String>,
}

/// `GET /api/query/{kind}?args={json}`: the answer the CLI gives, in the format asked for
/// (TOON by default) and within the CLI's budget for it unless `maxTokens` says otherwise.
pub(crate) async fn query(
    State(state): State<AppState>,
    Path(kind): Path<String>,
    params: Result<Query<QueryParams>, QueryRejection>,
) -> Result<Response, Failure> {
    let Query(params) = params?;
    if !PAGE_KINDS.contains(&kind.as_str()) {
        let message = format!(
            "the page does not ask `{kind}` queries (one of {})",
            PAGE_KINDS.join(", ")
        );
        return Err(ArgError(message).into());
    }
    let args = params.args.unwrap_or_else(|| "{}".to_owned());
    let (request, output) = tsgraph::args::query(&kind, &args, Format::cli_max_tokens)?;
    let content_type = match output.format {
        Format::Json => "application/json",
        _ => "text/plain; charset=utf-8",
    };
    let answer = with_project(&state, move |project| {
        let mut answer = Vec::new();
        project.query_with(&request, &output, &mut answer)?;
        Ok(answer)
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, content_type)], answer).into_response())
}

/// `GET /api/tree?symbol=…&direction=callers|callees&depth=…&limit=…`: see
/// [`call_tree`].
pub(crate) async fn tree(
    State(state): State<AppState>,
    args: Result<Query<TreeArgs>, QueryRejection>,
) -> Result<Json<Value>, Failure> {
    let Query(args) = args?;
    let bounds = args.bounds()?;
    let tree = with_project(&state, move |project| {
        let snapshot = project.snapshot()?;
        let nav = Navigator::new(&snapshot);
        let root = resolve(project, &nav, &args.symbol)?;
        Ok(call_tree(&nav, &root, bounds)?)
    })
    .await?;
    Ok(Json(tree))
}

/// The symbol `text` names, as the CLI resolves it (a node ID first).
fn resolve(project: &Project, nav: &Navigator<'_>, text: &str) -> Result<Symbol, Error> {
    let key = project.resolve(nav.snapshot(), &SymbolArg::new(text))?;
    nav.symbol_of(key)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SymbolParams {
    id: String,
}

/// `GET /api/symbol?id=…`: a symbol's kind, signature, file and lines, module and package,
/// its source lines (from the project's file, at most 2000; `error` says why when the file
/// cannot be read now), how many calls reach it and leave it, and its supertypes and
/// subtypes.
pub(crate) async fn symbol(
    State(state): State<AppState>,
    params: Result<Query<SymbolParams>, QueryRejection>,
) -> Result<Json<Value>, Failure> {
    let Query(params) = params?;
    let details = with_project(&state, move |project| {
        let snapshot = project.snapshot()?;
        let nav = Navigator::new(&snapshot);
        let symbol = resolve(project, &nav, &params.id)?;
        let (first, last) = symbol.lines;
        let wanted = last.saturating_sub(first).saturating_add(1);
        let count = wanted.min(MAX_SOURCE_LINES);
        let source = match project.source_lines(&symbol.file, first, count) {
            Ok(lines) => json!({"first": first, "lines": lines, "cut": wanted > count}),
            Err(err) => {
                json!({"first": first, "lines": [], "cut": false, "error": err.to_string()})
            }
        };
        let supertypes = nav.supertypes(&symbol.id, LISTED_TYPES)?;
        let subtypes = nav.subtypes(&symbol.id, LISTED_TYPES)?;
        Ok(json!({
            "symbol": {
                "id": symbol.id,
                "name": symbol.name,
                "kind": symbol.kind.as_str(),
                "file": symbol.file,
                "startLine": first,
                "endLine": last,
                "signature": symbol.signature,
                "module": symbol.module,
                "package": symbol.package,
                "exported": symbol.exported,
            },
            "source": source,
            "callers": nav.count_calls_in(&symbol.id)?,
            "callees": nav.count_calls_out(&symbol.id)?,
            "supertypes": uses_json(&supertypes),
            "subtypes": uses_json(&subtypes),
        }))
    })
    .await?;
    Ok(Json(details))
}

fn uses_json(uses: &Uses) -> Value {
    let listed: Vec<Value> = uses
        .uses
        .iter()
        .map(|used| {
            json!({
                "id": used.symbol.id,
                "name": used.symbol.name,
                "kind": used.symbol.kind.as_str(),
                "edge": used.kind.as_str(),
            })
        })
        .collect();
    json!({"total": uses.total, "listed": listed})
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SourceParams {
    file: String,
    first: Option<u32>,
    count: Option<u32>,
}

/// `GET /api/source?file=…&first=…&count=…`: lines of a file the graph indexed (from line
/// 1, 100 by default, at most 2000). A path outside the project root is refused before the
/// file system is asked (403); any other file, indexed or not (`.env`, the store), is not
/// served (404).
pub(crate) async fn source(
    State(state): State<AppState>,
    params: Result<Query<SourceParams>, QueryRejection>,
) -> Result<Json<Value>, Failure> {
    let Query(params) = params?;
    let first = params.first.unwrap_or(1).max(1);
    let count = params.count.unwrap_or(100);
    if !(1..=MAX_SOURCE_LINES).contains(&count) {
        return Err(ArgError(format!(
            "count must be 1 to {MAX_SOURCE_LINES}, not {count}"
        ))
        .into());
    }
    if params.file.is_empty() {
        return Err(ArgError("file must not be empty".into()).into());
    }
    let lines = with_project(&state, move |project| {
        let snapshot = project.snapshot()?;
        // A path out of the project is the confined reader's to refuse (403), unasked.
        if tsgraph::is_relative_inside(&params.file)
            && snapshot
                .file_keys(&params.file)
                .map_err(Error::from)?
                .is_none()
        {
            return Err(Failure::Graph(Error::FileNotFound {
                file: params.file.clone(),
                suggestions: Vec::new(),
            }));
        }
        Ok(project.source_lines(&params.file, first, count)?)
    })
    .await?;
    Ok(Json(json!({"first": first, "lines": lines})))
}

/// `GET /api/events`: each graph update as an `update` event whose data is its JSON; a
/// page that fell behind gets a `lagged` event (it asks its view again).
pub(crate) async fn events(
    State(state): State<AppState>,
) -> Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>> {
    let stream = BroadcastStream::new(state.updates.subscribe()).map(|update| {
        Ok(match update {
            Ok(json) => Event::default().event("update").data(&*json),
            Err(_) => Event::default().event("lagged").data("{}"),
        })
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

/// Any other path.
pub(crate) async fn not_found() -> Response {
    let body = json!({"error": {"code": "not_found", "message": "no such page or API"}});
    (StatusCode::NOT_FOUND, Json(body)).into_response()
}
