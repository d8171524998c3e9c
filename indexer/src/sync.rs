//! The start-up sync: brings a store up to date with the files on disk. Files are compared
//! cheaply first (size and modification time), then by content hash; only what changed is
//! extracted, and only the files whose answers can change are re-linked (see
//! [`crate::IndexState::apply`]). With nothing changed, no summary is even read.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::time::{Duration, Instant};

use tsgraph_engine::{Snapshot, Store};
use xxhash_rust::xxh3::xxh3_64;

use crate::facts::FileFacts;
use crate::model::ProjectModel;
use crate::state::{FileChange, IndexState, Update};
use crate::summary::{IndexError, IndexSummary};
use crate::{INDEXED_META_KEY, IndexOptions, mark_indexed, persist, pool, walk};

/// The metadata key of the project model's fingerprint.
pub(crate) const MODEL_META_KEY: &str = "model_fingerprint";
/// The metadata key of the configuration files' stamps (paths, sizes, modification times).
pub(crate) const CONFIGS_META_KEY: &str = "config_stamps";

/// A digest of the configuration files' paths, sizes and modification times: unchanged, the
/// project model need not be read again.
pub(crate) fn config_stamp(configs: &[walk::SourceFile]) -> Vec<u8> {
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    for config in configs {
        hasher.update(config.relative.as_bytes());
        hasher.update(&config.size.to_le_bytes());
        hasher.update(&config.modified.to_le_bytes());
    }
    hasher.digest().to_le_bytes().to_vec()
}

/// What a sync did.
#[derive(Debug, Clone, Default)]
pub struct SyncSummary {
    /// Files on disk compared with the store.
    pub checked: usize,
    /// Files new on disk.
    pub added: Vec<String>,
    /// Files whose contents changed.
    pub changed: Vec<String>,
    /// Files gone from disk.
    pub removed: Vec<String>,
    /// Files re-linked (the changed ones and those whose answers depend on them).
    pub relinked: usize,
    /// The store held no completed index, or the project's configuration changed: the
    /// project was indexed from scratch (this is that index's summary).
    pub full: Option<IndexSummary>,
    /// Wall time.
    pub time: Duration,
}

impl SyncSummary {
    /// Whether the store already matched the disk.
    pub fn is_noop(&self) -> bool {
        self.full.is_none()
            && self.added.is_empty()
            && self.changed.is_empty()
            && self.removed.is_empty()
    }
}

/// Brings `store` up to date with the project under `root`.
pub fn sync_project(
    root: &Path,
    store: &Store,
    options: &IndexOptions,
) -> Result<SyncSummary, IndexError> {
    let started = Instant::now();
    let walked = walk::walk(root, options.max_file_size);
    let paths: Vec<&str> = walked.files.iter().map(|f| f.relative.as_str()).collect();
    let snapshot = store.snapshot()?;
    let indexed = snapshot.meta(INDEXED_META_KEY)?.is_some();
    // The configuration is read again only when a configuration file changed on disk (by its
    // stamp), and the project is indexed afresh only when what it says changed.
    let configs = config_stamp(&walked.configs);
    let configs_unchanged = snapshot.meta(CONFIGS_META_KEY)?.as_deref() == Some(configs.as_slice());
    let mut model: Option<ProjectModel> = None;
    let load_model = || {
        let listing = walked.configs.iter().map(|c| c.relative.clone()).collect();
        ProjectModel::load_listed(root, &paths, listing)
    };
    if !indexed || !configs_unchanged {
        let loaded = load_model();
        let fingerprint = loaded.fingerprint().to_le_bytes();
        if !indexed || snapshot.meta(MODEL_META_KEY)?.as_deref() != Some(fingerprint.as_slice()) {
            drop(snapshot);
            let summary = crate::index_project(root, store, options)?;
            return Ok(SyncSummary {
                checked: summary.files,
                full: Some(summary),
                time: started.elapsed(),
                ..SyncSummary::default()
            });
        }
        store.set_meta(CONFIGS_META_KEY, &configs)?;
        model = Some(loaded);
    }
    let stored: HashMap<String, (u64, u64, u64)> = snapshot
        .file_stamps()?
        .into_iter()
        .map(|s| (s.path, (s.hash, s.size, s.modified)))
        .collect();
    let mut summary = SyncSummary {
        checked: walked.files.len(),
        ..SyncSummary::default()
    };
    let mut changes = Vec::new();
    let mut restamp: Vec<(String, u64, u64)> = Vec::new();
    for file in &walked.files {
        let (size, modified) = (file.size, file.modified);
        match stored.get(&file.relative) {
            Some(&(_, stored_size, stored_modified))
                if stored_size == size && stored_modified == modified && modified != 0 => {}
            Some(&(hash, _, _)) => {
                let Ok(bytes) = std::fs::read(&file.absolute) else {
                    continue;
                };
                if xxh3_64(&bytes) == hash {
                    restamp.push((file.relative.clone(), size, modified));
                } else {
                    summary.changed.push(file.relative.clone());
                    changes.push(FileChange::Write {
                        path: file.relative.clone(),
                        bytes,
                        modified,
                    });
                }
            }
            None => {
                let Ok(bytes) = std::fs::read(&file.absolute) else {
                    continue;
                };
                summary.added.push(file.relative.clone());
                changes.push(FileChange::Write {
                    path: file.relative.clone(),
                    bytes,
                    modified,
                });
            }
        }
    }
    let on_disk: BTreeSet<&str> = paths.iter().copied().collect();
    for path in stored.keys() {
        if !on_disk.contains(path.as_str()) {
            summary.removed.push(path.clone());
            changes.push(FileChange::Remove { path: path.clone() });
        }
    }
    summary.added.sort();
    summary.changed.sort();
    summary.removed.sort();
    if changes.is_empty() {
        drop(snapshot);
        if !restamp.is_empty() {
            store.update_file_stamps(&restamp)?;
        }
        summary.time = started.elapsed();
        return Ok(summary);
    }
    let model = model.unwrap_or_else(load_model);
    let mut state = restore(root, &snapshot, &stored, model)?;
    // Files whose stored summary could not be read were extracted from disk as they are
    // now: their old shape is unknown, so they count as changed in shape.
    let update = state.apply(changes, &|ids| files_linked_into(&snapshot, ids))?;
    drop(snapshot);
    summary.relinked = update.relinked.len();
    write_update(store, update, root)?;
    if !restamp.is_empty() {
        store.update_file_stamps(&restamp)?;
    }
    summary.time = started.elapsed();
    Ok(summary)
}

/// Writes an update into the store in one transaction.
pub(crate) fn write_update(store: &Store, update: Update, root: &Path) -> Result<(), IndexError> {
    let Update {
        mut batch, removed, ..
    } = update;
    mark_indexed(&mut batch, root);
    let removed: Vec<&str> = removed.iter().map(String::as_str).collect();
    store.replace_files(&batch, &removed)?;
    Ok(())
}

/// The state of the store's index, from the summaries it keeps (a file whose summary cannot
/// be read is extracted again from disk).
fn restore(
    root: &Path,
    snapshot: &Snapshot,
    stored: &HashMap<String, (u64, u64, u64)>,
    model: ProjectModel,
) -> Result<IndexState, IndexError> {
    let mut files: Vec<FileFacts> = Vec::with_capacity(stored.len());
    let mut unknown_shape: Vec<String> = Vec::new();
    let mut extractor =
        crate::extract::Extractor::new().map_err(|err| IndexError::Grammar(err.to_string()))?;
    for (path, (hash, _, modified)) in stored {
        let restored = snapshot
            .blob(path)?
            .as_deref()
            .and_then(persist::decode)
            .filter(|facts| facts.hash == *hash);
        let facts = match restored {
            Some(facts) => facts,
            None => match std::fs::read(root.join(path)) {
                // Labelled with the stored hash, so the sync's change for it applies.
                Ok(bytes) => {
                    unknown_shape.push(path.clone());
                    let mut facts = pool::extract_one(&mut extractor, path, &bytes, *hash);
                    facts.modified = *modified;
                    facts
                }
                // Gone since: the sync's change list removes it.
                Err(_) => FileFacts {
                    path: path.clone(),
                    hash: *hash,
                    ..FileFacts::default()
                },
            },
        };
        files.push(facts);
    }
    let (mut state, _) = IndexState::with_model(root, files, model)?;
    for path in &unknown_shape {
        state.forget_shape(path);
    }
    Ok(state)
}

/// The files (by path) holding edges into the nodes with these IDs.
pub(crate) fn files_linked_into(snapshot: &Snapshot, ids: &[String]) -> Vec<String> {
    let mut files = BTreeSet::new();
    for id in ids {
        let Ok(Some(key)) = snapshot.key_of(id) else {
            continue;
        };
        let Ok(incoming) = snapshot.in_edges(key) else {
            continue;
        };
        let Ok(edges) = incoming.edges() else {
            continue;
        };
        for edge in edges {
            if let Ok(Some(node)) = snapshot.node(edge.other())
                && let Ok(view) = node.view()
            {
                files.insert(view.file().to_owned());
            }
        }
    }
    files.into_iter().collect()
}
