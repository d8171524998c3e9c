//! Confined reading of configuration files: the project root is canonicalised once, and a
//! file whose canonical path (after following symlinks) is outside it is not read. Symlinks
//! that stay inside the root are followed. Files that the source walk found ([`ConfinedFs::walked`])
//! are inside the root by how they were found, and are read without resolving their path.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::source::{Fetched, FileStamp, Source, is_listed_config, is_skipped_below};

/// Reads configuration files under a project root, refusing anything outside it.
pub(crate) struct ConfinedFs {
    root: PathBuf,
    /// The canonical root, or `None` when the root itself cannot be canonicalised (then
    /// nothing is read).
    canonical_root: Option<PathBuf>,
    /// The configuration files, when the caller's walk already found them.
    listed: Option<Vec<String>>,
    /// Whether the listed files are regular files that the source walk found (`crate::walk`
    /// follows no link to a folder, and lists no linked configuration file).
    walked: bool,
}

impl ConfinedFs {
    pub(crate) fn new(root: &Path) -> ConfinedFs {
        ConfinedFs {
            root: root.to_path_buf(),
            canonical_root: std::fs::canonicalize(root).ok(),
            listed: None,
            walked: false,
        }
    }

    /// A reader whose listing is `listed` (project-relative paths) instead of a walk of its
    /// own.
    pub(crate) fn with_listing(root: &Path, listed: Vec<String>) -> ConfinedFs {
        ConfinedFs {
            listed: Some(super::source::listed_configs(listed)),
            ..ConfinedFs::new(root)
        }
    }

    /// A reader whose listing is what the source walk found (`crate::walk`): those files are
    /// read without resolving their path first (the canonical path of each, a look at every
    /// folder on its way, cost as much as reading it), since the walk reached them through
    /// no link.
    pub(crate) fn walked(root: &Path, listed: Vec<String>) -> ConfinedFs {
        ConfinedFs {
            walked: true,
            ..ConfinedFs::with_listing(root, listed)
        }
    }

    /// Whether `path` is a file the source walk found.
    fn is_walked(&self, path: &str) -> bool {
        self.walked
            && (self.listed.as_ref())
                .is_some_and(|listed| listed.binary_search_by(|p| p.as_str().cmp(path)).is_ok())
    }
}

impl Source for ConfinedFs {
    /// Walks the root like the source walk does (hidden folders, node_modules and `.tsgraph`
    /// skipped, ignore files of the project honoured) and lists the configuration files,
    /// symlinked ones included (they are checked when read).
    fn listing(&self) -> Vec<String> {
        if let Some(listed) = &self.listed {
            return listed.clone();
        }
        let Some(canonical_root) = &self.canonical_root else {
            return Vec::new();
        };
        let walker = ignore::WalkBuilder::new(canonical_root)
            .hidden(false)
            .parents(false)
            .require_git(false)
            .filter_entry(|entry| {
                let name = entry.file_name();
                let hidden_dir = entry.file_type().is_some_and(|t| t.is_dir())
                    && entry.depth() > 0
                    && name.to_string_lossy().starts_with('.');
                name != "node_modules" && name != ".tsgraph" && !hidden_dir
            })
            .build();
        let mut listed: Vec<String> = walker
            .filter_map(Result::ok)
            .filter(|entry| entry.file_type().is_some_and(|t| !t.is_dir()))
            .filter_map(|entry| {
                let relative = entry.path().strip_prefix(canonical_root).ok()?;
                let relative = relative.to_str()?.replace(std::path::MAIN_SEPARATOR, "/");
                is_listed_config(&relative).then_some(relative)
            })
            .collect();
        listed.sort();
        listed
    }

    fn exists(&mut self, path: &str) -> bool {
        let Some(canonical_root) = &self.canonical_root else {
            return false;
        };
        std::fs::canonicalize(self.root.join(path))
            .is_ok_and(|canonical| canonical.starts_with(canonical_root) && canonical.is_file())
    }

    /// Walks `dir` (a linked folder too) and keeps the declaration files whose canonical
    /// path is inside the root, linked ones included, named under `dir` as `exists` would
    /// find them.
    fn declarations_under(&mut self, dir: &str) -> Vec<String> {
        let Some(canonical_root) = &self.canonical_root else {
            return Vec::new();
        };
        let start = self.root.join(dir);
        if !std::fs::canonicalize(&start).is_ok_and(|c| c.starts_with(canonical_root) && c.is_dir())
        {
            return Vec::new();
        }
        let walker = ignore::WalkBuilder::new(&start)
            .standard_filters(false)
            .filter_entry(|entry| {
                entry.depth() == 0 || !is_skipped_below(&entry.file_name().to_string_lossy())
            })
            .build();
        let mut listed: Vec<String> = walker
            .filter_map(Result::ok)
            .filter(|entry| super::paths::is_declaration(&entry.file_name().to_string_lossy()))
            .filter(|entry| match entry.file_type() {
                Some(kind) if kind.is_file() => true,
                // A linked file counts where its target is a file inside the root.
                Some(kind) if kind.is_symlink() => std::fs::canonicalize(entry.path())
                    .is_ok_and(|c| c.starts_with(canonical_root) && c.is_file()),
                _ => false,
            })
            .filter_map(|entry| {
                let below = entry.path().strip_prefix(&start).ok()?.to_str()?;
                let below = below.replace(std::path::MAIN_SEPARATOR, "/");
                Some(super::paths::child(dir, &below))
            })
            .collect();
        listed.sort();
        listed
    }

    /// The stamp of the file at `path` itself (a link is not followed there, so a linked
    /// file has none and a model that read one is not kept).
    fn stamp(&mut self, path: &str) -> Option<FileStamp> {
        self.canonical_root.as_ref()?;
        let metadata = std::fs::symlink_metadata(self.root.join(path)).ok()?;
        if !metadata.is_file() {
            return None;
        }
        super::cache::stamp_of(&metadata)
    }

    fn fetch(&mut self, path: &str) -> Fetched {
        let Some(canonical_root) = &self.canonical_root else {
            return Fetched::Missing;
        };
        if self.is_walked(path) {
            return read_text(&self.root.join(path));
        }
        let joined = self.root.join(path);
        let canonical = match std::fs::canonicalize(&joined) {
            Ok(canonical) => canonical,
            Err(err) if err.kind() == ErrorKind::NotFound => return Fetched::Missing,
            Err(err) => return Fetched::Failed(err.to_string()),
        };
        if !canonical.starts_with(canonical_root) {
            return Fetched::Outside;
        }
        if canonical.is_dir() {
            return Fetched::Missing;
        }
        read_text(&canonical)
    }
}

/// The text of the file at `path`.
fn read_text(path: &Path) -> Fetched {
    match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => Fetched::Text(text),
            Err(_) => Fetched::Failed("not UTF-8".to_owned()),
        },
        Err(err) if err.kind() == ErrorKind::NotFound => Fetched::Missing,
        // Gone or replaced by a folder since the walk.
        Err(err) if err.kind() == ErrorKind::IsADirectory => Fetched::Missing,
        Err(err) => Fetched::Failed(err.to_string()),
    }
}
