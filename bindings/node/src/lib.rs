//! The tsgraph Node-API addon: a [`LiveProject`] for JavaScript, the way an editor extension
//! holds one — opened off the JavaScript thread, told about unsaved edits with editor
//! positions, asked any query, and told of every change to the graph.
//!
//! This is the native half; `index.js` is the package's API (a `Project` class, errors as
//! `TsgraphError`s, a `delta` event) and `index.d.ts` its types. Every call that reads or
//! writes the store runs on libuv's thread pool and returns a promise; arguments arrive as
//! JSON text and are read by the library's [`tsgraph::args`], so they mean what the MCP
//! server's do and are refused with the same messages. A failure rejects with an error whose
//! message is a JSON object (`code`, `message`, `exitCode`, the details), which `index.js`
//! turns into a `TsgraphError`.

mod job;

use std::sync::Arc;

use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi::{Status, bindgen_prelude::AsyncTask};
use napi_derive::napi;
use parking_lot::Mutex;
use serde::Deserialize;
use tsgraph::args::{ArgError, ContentChange};
use tsgraph::changes::{outcome_json, sync_json, watch_update_json};
use tsgraph::{Format, IndexOptions, LiveProject, Watcher};

use job::{Failure, Job, OpenJob};

/// A callback for the watcher's updates: called with one update's JSON text, on the
/// JavaScript thread, with no error argument.
type UpdateCallback = ThreadsafeFunction<String, (), String, Status, false>;

/// How `open` is asked: the store's path (default `<root>/.tsgraph/graph.redb`).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct OpenOptions {
    /// The store file.
    db: Option<String>,
}

/// Opens the project at `root` and brings its store up to date with the files on disk
/// (indexing it when it never was); resolves to a [`NativeProject`].
#[napi]
pub fn open(root: String, options: String) -> AsyncTask<OpenJob> {
    AsyncTask::new(OpenJob::new(
        move || {
            let options: OpenOptions = ArgError::parse("options", &options)?;
            let db = options.db.as_deref().map(std::path::Path::new);
            Ok(LiveProject::open(&root, db, IndexOptions::default())?)
        },
        NativeProject::new,
    ))
}

/// An open project.
#[napi]
pub struct NativeProject {
    live: Arc<LiveProject>,
    /// The watcher, shared with the tasks that start and stop it.
    watcher: Arc<Mutex<Option<Watcher>>>,
}

/// Dropping the project may wait for its threads (a watcher's update, a graph file being
/// built): that happens on a thread of its own, never on the JavaScript thread that
/// collects the object.
impl Drop for NativeProject {
    fn drop(&mut self) {
        let watcher = self.watcher.lock().take();
        let live = Arc::clone(&self.live);
        // The last handle goes with the thread: tasks still running hold their own.
        let spawned = std::thread::Builder::new()
            .name("tsgraph-close".into())
            .spawn(move || {
                drop(watcher);
                let mut live = Some(live);
                // Wait for this object's own handle to go first, so the last one (and the
                // joins its drop does) is this thread's.
                while live.as_ref().is_some_and(|l| Arc::strong_count(l) > 1) {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                drop(live.take());
            });
        drop(spawned);
    }
}

impl NativeProject {
    pub(crate) fn new(live: LiveProject) -> NativeProject {
        NativeProject {
            live: Arc::new(live),
            watcher: Arc::new(Mutex::new(None)),
        }
    }

    /// Runs `work` with the project on the thread pool; it resolves to its JSON text.
    fn job(
        &self,
        work: impl FnOnce(&Arc<LiveProject>) -> Result<String, Failure> + Send + 'static,
    ) -> AsyncTask<Job> {
        let live = Arc::clone(&self.live);
        AsyncTask::new(Job::new(move || work(&live), |text| text))
    }
}

#[napi]
impl NativeProject {
    /// The project root.
    #[napi(getter)]
    pub fn root(&self) -> String {
        self.live.root().display().to_string()
    }

    /// The store file.
    #[napi(getter)]
    pub fn store_path(&self) -> String {
        self.live.store_path().display().to_string()
    }

    /// Answers one query: `kind` is `search`, `callers`, `callees`, `impact`,
    /// `changeImpact`, `path`, `neighbors`, `fileSymbols` or `packageDeps`; `args` the JSON
    /// text of its arguments (the MCP tool's). Resolves to the answer's text in the format
    /// asked for (`index.js` asks for JSON unless told otherwise), within the CLI's default budget for that format.
    #[napi]
    pub fn query(&self, kind: String, args: String) -> AsyncTask<Job> {
        self.job(move |live| {
            let (request, output) = tsgraph::args::query(&kind, &args, Format::cli_max_tokens)?;
            let mut answer = Vec::new();
            live.query_with(&request, &output, &mut answer)?;
            String::from_utf8(answer).map_err(|_| Failure::internal("an answer was not UTF-8"))
        })
    }

    /// Applies an editor's changes (the JSON text of LSP content changes: `{range, text}`,
    /// or `{text}` for the whole text) to the file at `path`, relative to the root; resolves
    /// to the outcome's JSON text.
    #[napi]
    pub fn apply_edit(&self, path: String, changes: String) -> AsyncTask<Job> {
        self.job(move |live| {
            let changes: Vec<ContentChange> = ArgError::parse("changes", &changes)?;
            let edits: Vec<_> = changes.iter().map(ContentChange::edit).collect();
            Ok(outcome_json(&live.apply_edit(&path, &edits)?).to_string())
        })
    }

    /// Sets the whole text of the file at `path` as the editor holds it.
    #[napi]
    pub fn set_file_text(&self, path: String, text: String) -> AsyncTask<Job> {
        self.job(move |live| Ok(outcome_json(&live.set_file_text(&path, &text)?).to_string()))
    }

    /// The editor closed the file at `path`: its text on disk counts again.
    #[napi]
    pub fn close_file(&self, path: String) -> AsyncTask<Job> {
        self.job(move |live| Ok(outcome_json(&live.close_file(&path)?).to_string()))
    }

    /// Brings the store up to date with the files on disk; resolves to the sync's JSON text.
    #[napi]
    pub fn sync(&self) -> AsyncTask<Job> {
        self.job(|live| Ok(sync_json(&live.sync()?).to_string()))
    }

    /// Starts following the files on disk (on the thread pool: watching a large tree takes
    /// a while): `callback` gets each update's JSON text. A second call replaces the first.
    #[napi]
    pub fn watch(&self, callback: UpdateCallback) -> AsyncTask<Job> {
        let slot = Arc::clone(&self.watcher);
        self.job(move |live| {
            let report = move |update: &tsgraph::WatchUpdate| {
                let text = watch_update_json(update).to_string();
                // Queued for the JavaScript thread; a closing environment drops it.
                let _ = callback.call(text, ThreadsafeFunctionCallMode::NonBlocking);
            };
            let watcher = tsgraph::watch(Arc::clone(live), report)?;
            // The previous watcher, if any, stops here (its thread is joined).
            drop(slot.lock().replace(watcher));
            Ok("null".to_owned())
        })
    }

    /// Stops following the files on disk. The watcher stops on the thread pool (an update
    /// under way finishes first); updates already queued for the JavaScript thread are
    /// still delivered, so `index.js` ignores what comes after it asked to stop.
    #[napi]
    pub fn unwatch(&self) -> AsyncTask<Job> {
        let slot = Arc::clone(&self.watcher);
        self.job(move |_| {
            drop(slot.lock().take());
            Ok("null".to_owned())
        })
    }
}
