//! Keeping a [`LiveProject`] level with the disk as files change: a debounced file watcher
//! whose batches become targeted updates (the changed source files only) or, when the
//! project's configuration or folders changed, a sync.

use std::path::{Component, Path};
use std::sync::Arc;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use notify::RecursiveMode;
use notify::event::EventKind;
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};
use tsgraph_indexer::{EditOutcome, SyncSummary, is_source_path};

use crate::error::Error;
use crate::live::LiveProject;

/// How long the watcher waits for a burst of events to end before updating (an editor's
/// save-by-rename, a `git checkout` touching many files).
pub const WATCH_DEBOUNCE: Duration = Duration::from_millis(100);

/// What one batch of file events did to the graph.
#[derive(Debug)]
pub enum WatchUpdate {
    /// Source files were read again and the graph updated in one commit.
    Files {
        /// The changed files, relative to the root.
        paths: Vec<String>,
        /// What changed in the graph.
        outcome: EditOutcome,
    },
    /// A configuration file or a folder changed: the whole project was compared with the
    /// store.
    Synced {
        /// The sync's summary (boxed: a full index's summary is large).
        summary: Box<SyncSummary>,
        /// What made it necessary (relative paths).
        because: Vec<String>,
    },
    /// The update failed; the store holds the graph of before it, and the next batch tries
    /// again.
    Failed {
        /// Why.
        error: Error,
        /// Wall time until the failure.
        time: Duration,
    },
}

/// A running watcher; dropping it stops watching.
pub struct Watcher {
    debouncer: Option<Debouncer<notify::RecommendedWatcher, RecommendedCache>>,
    worker: Option<JoinHandle<()>>,
}

impl Drop for Watcher {
    fn drop(&mut self) {
        // Dropping the debouncer closes the channel, which ends the worker's loop.
        drop(self.debouncer.take());
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

/// Watches the project's folder and keeps `live` up to date, calling `report` after each
/// update (on the watcher's own thread). The store's folder and files the project does not
/// index (ignored, `node_modules`, hidden) cause no update.
pub fn watch(
    live: Arc<LiveProject>,
    mut report: impl FnMut(&WatchUpdate) + Send + 'static,
) -> Result<Watcher, Error> {
    // Events name paths under the folder watched: watch the canonical root, so that they
    // compare with it and with the store's folder.
    let root = live.root().canonicalize().map_err(|source| Error::Io {
        path: live.root().to_path_buf(),
        source,
    })?;
    let store_dir = live
        .store_path()
        .parent()
        .and_then(|dir| dir.canonicalize().ok());
    let (sender, receiver) = mpsc::channel::<DebounceEventResult>();
    let mut debouncer =
        new_debouncer(WATCH_DEBOUNCE, None, sender).map_err(|err| watch_error(&root, err))?;
    debouncer
        .watch(&root, RecursiveMode::Recursive)
        .map_err(|err| watch_error(&root, err))?;
    let watched = root.clone();
    let worker = std::thread::Builder::new()
        .name("tsgraph-watch".into())
        .spawn(move || {
            for batch in receiver {
                let Ok(events) = batch else { continue };
                let mut changes = Changes::default();
                for event in &events {
                    if matches!(event.kind, EventKind::Access(_)) {
                        continue;
                    }
                    for path in &event.paths {
                        changes.classify(&watched, store_dir.as_deref(), path);
                    }
                }
                if let Some(update) = changes.apply(&live) {
                    report(&update);
                }
            }
        })
        .map_err(|source| Error::Io {
            path: root.clone(),
            source,
        })?;
    Ok(Watcher {
        debouncer: Some(debouncer),
        worker: Some(worker),
    })
}

fn watch_error(root: &Path, err: notify::Error) -> Error {
    Error::Io {
        path: root.to_path_buf(),
        source: std::io::Error::other(format!("cannot watch the project: {err}")),
    }
}

/// The files one batch of events touched, sorted into those a targeted update handles and
/// those that need a sync.
#[derive(Default)]
struct Changes {
    sources: Vec<String>,
    sync_because: Vec<String>,
}

/// Files whose change can change how every file resolves (the project model), or which
/// files are indexed.
const CONFIG_NAMES: &[&str] = &[
    "package.json",
    "pnpm-workspace.yaml",
    "ts-graph-mcp.config.json",
    ".gitignore",
    ".ignore",
    ".tsgraphignore",
    ".pnp.cjs",
];

impl Changes {
    fn classify(&mut self, root: &Path, store_dir: Option<&Path>, path: &Path) {
        if store_dir.is_some_and(|dir| path.starts_with(dir)) {
            return;
        }
        let Ok(relative) = path.strip_prefix(root) else {
            return;
        };
        let parts: Vec<&str> = relative
            .components()
            .filter_map(|part| match part {
                Component::Normal(name) => name.to_str(),
                _ => None,
            })
            .collect();
        let Some((name, folders)) = parts.split_last() else {
            return;
        };
        if folders
            .iter()
            .any(|folder| *folder == "node_modules" || folder.starts_with('.'))
        {
            return;
        }
        let relative = parts.join("/");
        let is_config = CONFIG_NAMES.contains(name)
            || ((name.starts_with("tsconfig") || name.starts_with("jsconfig"))
                && name.ends_with(".json"));
        if is_config || path.is_dir() {
            push_new(&mut self.sync_because, relative);
        } else if !name.starts_with('.') && is_source_path(name) {
            push_new(&mut self.sources, relative);
        } else if !path.exists() && !name.contains('.') {
            // Gone, and named like a folder: the files under it left with it.
            push_new(&mut self.sync_because, relative);
        }
    }

    fn apply(self, live: &LiveProject) -> Option<WatchUpdate> {
        let started = Instant::now();
        if !self.sync_because.is_empty() {
            return Some(match live.sync() {
                Ok(summary) => WatchUpdate::Synced {
                    summary: Box::new(summary),
                    because: self.sync_because,
                },
                Err(error) => failed(error, started),
            });
        }
        if self.sources.is_empty() {
            return None;
        }
        Some(match live.refresh_files(&self.sources) {
            Ok(outcome) => WatchUpdate::Files {
                paths: self.sources,
                outcome,
            },
            Err(error) => failed(error, started),
        })
    }
}

fn failed(error: Error, started: Instant) -> WatchUpdate {
    WatchUpdate::Failed {
        error,
        time: started.elapsed(),
    }
}

fn push_new(list: &mut Vec<String>, item: String) {
    if !list.contains(&item) {
        list.push(item);
    }
}

impl std::fmt::Display for WatchUpdate {
    /// One log line: what changed and how long the update took.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WatchUpdate::Files { paths, outcome } => {
                let delta = &outcome.delta;
                write!(
                    f,
                    "updated {} in {:.1} ms: nodes +{} -{} ~{}, edges +{} -{} ~{}; {} files re-linked",
                    list(paths),
                    outcome.time.as_secs_f64() * 1000.0,
                    delta.nodes_added.len(),
                    delta.nodes_removed.len(),
                    delta.nodes_changed.len(),
                    delta.edges_added.len(),
                    delta.edges_removed.len(),
                    delta.edges_changed.len(),
                    outcome.relinked.len()
                )
            }
            WatchUpdate::Synced { summary, because } => write!(
                f,
                "synced ({} changed) in {:.1} ms: {} added, {} changed, {} removed{}",
                list(because),
                summary.time.as_secs_f64() * 1000.0,
                summary.added.len(),
                summary.changed.len(),
                summary.removed.len(),
                if summary.full.is_some() {
                    "; indexed from scratch"
                } else {
                    ""
                }
            ),
            WatchUpdate::Failed { error, time } => write!(
                f,
                "update failed after {:.1} ms: {error}",
                time.as_secs_f64() * 1000.0
            ),
        }
    }
}

fn list(paths: &[String]) -> String {
    const SHOWN: usize = 3;
    let mut text = paths
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if paths.len() > SHOWN {
        text.push_str(&format!(" and {} more", paths.len() - SHOWN));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::Changes;
    use std::path::Path;

    #[test]
    fn sources_update_alone_and_configuration_asks_for_a_sync() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src/deep")).unwrap();
        let mut changes = Changes::default();
        for path in [
            "src/a.ts",
            "src/a.ts",
            "src/b.d.ts",
            "README.md",
            "node_modules/x/index.js",
            ".git/index",
            "src/.hidden.ts",
        ] {
            changes.classify(root, Some(&root.join(".tsgraph")), &root.join(path));
        }
        changes.classify(
            root,
            Some(&root.join(".tsgraph")),
            &root.join(".tsgraph/graph.redb"),
        );
        assert_eq!(changes.sources, ["src/a.ts"]);
        assert!(changes.sync_because.is_empty());
        for path in [
            "packages/web/tsconfig.build.json",
            ".gitignore",
            "src/deep",
            "src/gone",
        ] {
            changes.classify(root, None, &root.join(path));
        }
        assert_eq!(
            changes.sync_because,
            [
                "packages/web/tsconfig.build.json",
                ".gitignore",
                "src/deep",
                "src/gone"
            ]
        );
        let outside = Path::new("/elsewhere/a.ts");
        changes.classify(root, None, outside);
        assert_eq!(changes.sources.len(), 1);
    }
}
