//! Where generated files go: a folder on disk, or memory (for tests and comparisons).

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Receives each generated file once, by its path from the tree's root (`/`-separated).
pub trait TreeSink {
    /// Stores `contents` at `path`.
    fn write_file(&mut self, path: &str, contents: &str) -> io::Result<()>;
}

/// Writes files under a root folder, creating folders as needed.
#[derive(Debug)]
pub struct DirSink {
    root: PathBuf,
    made: HashSet<PathBuf>,
}

impl DirSink {
    /// A sink writing under `root`, which must be missing or empty: files of an earlier tree
    /// left beside the new ones would break the promise that a seed and a size give one tree.
    pub fn new(root: &Path) -> io::Result<DirSink> {
        match fs::read_dir(root) {
            Ok(mut entries) => {
                if entries.next().is_some() {
                    return Err(io::Error::new(
                        io::ErrorKind::AlreadyExists,
                        format!(
                            "{} is not empty: remove it or choose another --out",
                            root.display()
                        ),
                    ));
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(with_path(e, root)),
        }
        fs::create_dir_all(root).map_err(|e| with_path(e, root))?;
        Ok(DirSink {
            root: root.to_path_buf(),
            made: HashSet::new(),
        })
    }
}

impl TreeSink for DirSink {
    fn write_file(&mut self, path: &str, contents: &str) -> io::Result<()> {
        let full = self.root.join(path);
        if let Some(parent) = full.parent()
            && !self.made.contains(parent)
        {
            fs::create_dir_all(parent).map_err(|e| with_path(e, parent))?;
            self.made.insert(parent.to_path_buf());
        }
        fs::write(&full, contents).map_err(|e| with_path(e, &full))
    }
}

fn with_path(error: io::Error, path: &Path) -> io::Error {
    io::Error::new(error.kind(), format!("{}: {error}", path.display()))
}

/// Keeps every file in memory, sorted by path.
#[derive(Debug, Default)]
pub struct MemorySink {
    /// Path → contents.
    pub files: BTreeMap<String, String>,
}

impl TreeSink for MemorySink {
    fn write_file(&mut self, path: &str, contents: &str) -> io::Result<()> {
        if self
            .files
            .insert(path.to_owned(), contents.to_owned())
            .is_some()
        {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{path} written twice"),
            ));
        }
        Ok(())
    }
}
