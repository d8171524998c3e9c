//! `tsgraph ui`: a web page to look at the graph, served on the loopback interface from a
//! [`LiveProject`] that a file watcher keeps fresh.
//!
//! The page is a single-page app whose built files (`cli/ui/dist`, made from `cli/ui/src`)
//! are embedded in the binary. It asks the same questions as the CLI through
//! [`tsgraph::args::query`], so a "copy as TOON" gives the CLI's answer byte for byte, plus
//! two of its own: a call tree one level per node ([`tree`]) and a symbol's details with its
//! source lines. Graph changes reach open pages as server-sent events.
//!
//! Safe by construction ([`guard`]): the socket is bound to 127.0.0.1 only; every request
//! must name that address and port in its `Host` header (no DNS rebinding) and carry the
//! session cookie, which only the one-time token of the printed address obtains; the API
//! answers reads only (the store is written by the watcher alone); source lines are read
//! through the library's confined reader, never from outside the project root.

mod api;
mod assets;
mod guard;
mod tree;

use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::Router;
use axum::routing::get;
use tokio::sync::broadcast;
use tsgraph::{Error, LiveProject};

use guard::Session;

/// How the server is started.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The port; 0 lets the system pick a free one.
    pub port: u16,
    /// Open the page in the default browser once the server listens.
    pub open: bool,
}

/// What every request handler shares.
#[derive(Clone)]
pub(crate) struct AppState {
    pub(crate) live: Arc<LiveProject>,
    pub(crate) session: Arc<Session>,
    /// Each graph update as the JSON text of [`tsgraph::changes::watch_update_json`].
    pub(crate) updates: broadcast::Sender<Arc<str>>,
    /// Turns to read the graph: a burst of requests waits rather than taking every thread.
    pub(crate) readers: Arc<tokio::sync::Semaphore>,
}

/// Requests that read the graph at once.
const READERS: usize = 4;

/// Graph updates kept for a page that reads them late; one further behind is told to
/// reload its view.
const KEPT_UPDATES: usize = 64;

/// Serves the page for `live` until the process is stopped: writes the page's address
/// (with its one-time token) as one line to `out`, logs requests refused and graph updates
/// to `log`.
pub fn serve(
    live: Arc<LiveProject>,
    options: &Options,
    out: &mut dyn Write,
    log: Box<dyn Write + Send>,
) -> Result<(), Error> {
    let root = live.root().to_path_buf();
    let io_error = |source| Error::Io {
        path: root.clone(),
        source,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(io_error)?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(SocketAddr::from((
            Ipv4Addr::LOCALHOST,
            options.port,
        ))))
        .map_err(|source| Error::Io {
            path: format!("127.0.0.1:{}", options.port).into(),
            source,
        })?;
    let port = listener.local_addr().map_err(io_error)?.port();
    let session = Arc::new(Session::new(port).map_err(io_error)?);
    let log = Arc::new(parking_lot::Mutex::new(log));
    let (updates, _) = broadcast::channel(KEPT_UPDATES);
    let _watcher = watch_into(&live, updates.clone(), Arc::clone(&log))?;
    let url = session.entry_url();
    writeln!(out, "{url}").map_err(io_error)?;
    out.flush().map_err(io_error)?;
    if options.open
        && let Err(err) = webbrowser::open(&url)
    {
        let _ = writeln!(log.lock(), "tsgraph: cannot open a browser: {err}");
    }
    let state = AppState {
        live,
        session,
        updates,
        readers: Arc::new(tokio::sync::Semaphore::new(READERS)),
    };
    let app = router(state);
    runtime
        .block_on(async { axum::serve(listener, app).await })
        .map_err(io_error)
}

/// Every route, behind the guard.
fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/assets/{name}", get(assets::asset))
        .route("/api/info", get(api::info))
        .route("/api/query/{kind}", get(api::query))
        .route("/api/tree", get(api::tree))
        .route("/api/symbol", get(api::symbol))
        .route("/api/source", get(api::source))
        .route("/api/events", get(api::events))
        .fallback(api::not_found)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::check,
        ))
        .with_state(state)
}

/// Starts the watcher: each update is logged and sent to the open pages.
fn watch_into(
    live: &Arc<LiveProject>,
    updates: broadcast::Sender<Arc<str>>,
    log: Arc<parking_lot::Mutex<Box<dyn Write + Send>>>,
) -> Result<tsgraph::Watcher, Error> {
    tsgraph::watch(Arc::clone(live), move |update| {
        let _ = writeln!(log.lock(), "tsgraph: {update}");
        let json = tsgraph::changes::watch_update_json(update).to_string();
        // No page open is no error.
        let _ = updates.send(Arc::from(json));
    })
}
