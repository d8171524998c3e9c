//! Where the model's configuration files come from: an in-memory map (tests, callers that
//! hold the files) or the confined file system reader of [`super::confine`]. The model asks
//! for files by project-relative path and never sees anything else.

use std::collections::BTreeMap;

/// The outcome of asking for one file.
#[derive(Debug)]
pub(crate) enum Fetched {
    /// The file's text.
    Text(String),
    /// No such file.
    Missing,
    /// The path leads outside the project root (through `..` or a symlink); it was not read.
    Outside,
    /// The file exists but could not be read; the message says why.
    Failed(String),
}

/// A provider of configuration files by project-relative path.
pub(crate) trait Source {
    /// Every configuration file the model should look at without being pointed to it:
    /// tsconfig.json, jsconfig.json, package.json, workspace and tool configs (project-relative
    /// paths, sorted). Files reached only through `extends` or `references` need not be listed.
    fn listing(&self) -> Vec<String>;
    /// The text of the file at `path`.
    fn fetch(&mut self, path: &str) -> Fetched;
    /// Whether a file is at `path` (inside the root), without reading it.
    fn exists(&mut self, path: &str) -> bool;
    /// The declaration files (`.d.ts`, `.d.mts`, `.d.cts`) in the folder `dir` and below it,
    /// as paths under `dir` (project-relative, sorted; node_modules and hidden entries below
    /// `dir` skipped): where a wildcard `exports` target (`"./*": "./dist/*.js"`) can land.
    fn declarations_under(&mut self, dir: &str) -> Vec<String>;
    /// The stamp of the regular file at `path`, for a source whose files can be checked
    /// again later without reading them (see `model::cache`); `None` when there is no such
    /// file, or the source cannot tell.
    fn stamp(&mut self, _path: &str) -> Option<FileStamp> {
        None
    }
}

/// A file's size, change time (nanoseconds; ctime on Unix, which every write moves) and
/// inode number (0 where the system has none).
pub(crate) type FileStamp = (u64, u64, u64);

/// One thing a model's build asked of its source, as a later process checks it without
/// reading anything (see `model::cache`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Dependency {
    /// A file read whole, with its stamp taken before it was read (a write after the stamp
    /// moves it, so a read older than the file has an older stamp).
    Read(FileStamp),
    /// A file asked for that was not there (nothing, or a folder).
    Missing,
    /// Whether a file was there, asked by presence only.
    Present(bool),
    /// The declaration files under a folder, by a digest of their paths.
    Listed(u64),
}

/// Whether a path below a listed folder (`rest`, relative to it) is one a listing skips: in
/// node_modules, or hidden.
pub(crate) fn is_skipped_below(rest: &str) -> bool {
    rest.split('/')
        .any(|segment| segment == "node_modules" || segment.starts_with('.'))
}

/// Configuration files held in memory: the map's keys are the whole file system.
pub(crate) struct MemorySource<'m> {
    pub(crate) files: &'m BTreeMap<String, String>,
}

impl Source for MemorySource<'_> {
    fn listing(&self) -> Vec<String> {
        self.files
            .keys()
            .filter(|path| is_listed_config(path))
            .cloned()
            .collect()
    }

    fn fetch(&mut self, path: &str) -> Fetched {
        match self.files.get(path) {
            Some(text) => Fetched::Text(text.clone()),
            None => Fetched::Missing,
        }
    }

    fn exists(&mut self, path: &str) -> bool {
        self.files.contains_key(path)
    }

    fn declarations_under(&mut self, dir: &str) -> Vec<String> {
        self.files
            .keys()
            .filter(|path| {
                super::paths::strip_dir(path, dir)
                    .is_some_and(|rest| !rest.is_empty() && !is_skipped_below(rest))
                    && super::paths::is_declaration(path)
            })
            .cloned()
            .collect()
    }
}

/// A source whose listed files were read already (`texts`): those are served from memory
/// rather than read a second time (a project of 275 packages read each tsconfig.json twice).
pub(crate) struct Prefetched<'s, 't> {
    pub(crate) inner: &'s mut dyn Source,
    pub(crate) texts: &'t BTreeMap<String, String>,
}

impl Source for Prefetched<'_, '_> {
    fn listing(&self) -> Vec<String> {
        self.inner.listing()
    }

    fn fetch(&mut self, path: &str) -> Fetched {
        match self.texts.get(path) {
            Some(text) => Fetched::Text(text.clone()),
            None => self.inner.fetch(path),
        }
    }

    fn exists(&mut self, path: &str) -> bool {
        self.inner.exists(path)
    }

    fn declarations_under(&mut self, dir: &str) -> Vec<String> {
        self.inner.declarations_under(dir)
    }

    fn stamp(&mut self, path: &str) -> Option<FileStamp> {
        self.inner.stamp(path)
    }
}

/// File names the model discovers by walking (others are read only when a config names them).
pub(crate) const DISCOVERED_NAMES: &[&str] = &[
    "tsconfig.json",
    "jsconfig.json",
    "package.json",
    "pnpm-workspace.yaml",
    "lerna.json",
    "ts-graph-mcp.config.json",
    "ts-graph-mcp.config.ts",
    "ts-graph-mcp.config.js",
    ".pnp.cjs",
    ".pnp.js",
    ".pnp.data.json",
];

/// The configuration files of `paths` a listing names, sorted: how a source given a walk's
/// findings lists them (`ConfinedFs::with_listing`), and how a kept model's listing is
/// compared with a walk's (`model::cache`).
pub(crate) fn listed_configs(mut paths: Vec<String>) -> Vec<String> {
    paths.retain(|path| is_listed_config(path));
    paths.sort();
    paths
}

/// Whether a path is one the model discovers by name (and not inside a node_modules folder,
/// whose packages are read only when an `extends` points into them).
pub(crate) fn is_listed_config(path: &str) -> bool {
    DISCOVERED_NAMES.contains(&super::paths::file_name(path))
        && !path.split('/').any(|segment| segment == "node_modules")
}

/// A source that remembers a fingerprint of everything fetched through it: which paths were
/// asked for and what they held. Two loads with the same fingerprint read the same
/// configuration, so a project model can be reused as long as it holds.
pub(crate) struct Fingerprinted<'s> {
    pub(crate) inner: &'s mut dyn Source,
    pub(crate) seen: BTreeMap<String, u64>,
    /// What each ask depended on, as a later process checks it.
    pub(crate) asked: Asked,
}

/// What a model's build asked of its source.
#[derive(Debug)]
pub(crate) struct Asked {
    /// Each path's question and first answer, those that can be checked again (a file read
    /// without a stamp, outside the root or unreadable cannot).
    pub(crate) dependencies: BTreeMap<String, Dependency>,
    /// Whether every question can be checked again and each path got one answer.
    pub(crate) checkable: bool,
}

impl Source for Fingerprinted<'_> {
    fn listing(&self) -> Vec<String> {
        self.inner.listing()
    }

    fn fetch(&mut self, path: &str) -> Fetched {
        let stamp = self.inner.stamp(path);
        let fetched = self.inner.fetch(path);
        let (digest, dependency) = match &fetched {
            Fetched::Text(text) => (
                xxhash_rust::xxh3::xxh3_64(text.as_bytes()),
                stamp.map(Dependency::Read),
            ),
            Fetched::Missing => (1, Some(Dependency::Missing)),
            Fetched::Outside => (2, None),
            Fetched::Failed(_) => (3, None),
        };
        self.seen.insert(path.to_owned(), digest);
        self.depends(path.to_owned(), dependency);
        fetched
    }

    /// Presence counts, not contents: rebuilding a file asked about this way keeps the
    /// fingerprint.
    fn exists(&mut self, path: &str) -> bool {
        let exists = self.inner.exists(path);
        self.seen
            .insert(path.to_owned(), if exists { 4 } else { 1 });
        self.depends(path.to_owned(), Some(Dependency::Present(exists)));
        exists
    }

    /// Which files are listed counts, not their contents.
    fn declarations_under(&mut self, dir: &str) -> Vec<String> {
        let listed = self.inner.declarations_under(dir);
        let digest = listing_digest(&listed);
        self.seen.insert(format!("{dir}/*"), digest);
        self.depends(dir.to_owned(), Some(Dependency::Listed(digest)));
        listed
    }
}

/// A digest of a folder's listing (paths in order).
pub(crate) fn listing_digest(listed: &[String]) -> u64 {
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    for path in listed {
        hasher.update(path.as_bytes());
        hasher.update(&[0]);
    }
    hasher.digest()
}

impl<'s> Fingerprinted<'s> {
    pub(crate) fn new(inner: &'s mut dyn Source) -> Fingerprinted<'s> {
        Fingerprinted {
            inner,
            seen: BTreeMap::new(),
            asked: Asked {
                dependencies: BTreeMap::new(),
                checkable: true,
            },
        }
    }

    /// Records what the ask about `key` depended on (`None`: what cannot be checked again).
    /// A path asked twice with two answers (changed during the build) keeps the first and
    /// leaves the build uncheckable.
    fn depends(&mut self, key: String, dependency: Option<Dependency>) {
        let asked = &mut self.asked;
        let Some(dependency) = dependency else {
            asked.checkable = false;
            return;
        };
        match asked.dependencies.get(&key) {
            Some(first) if *first != dependency => asked.checkable = false,
            Some(_) => {}
            None => {
                asked.dependencies.insert(key, dependency);
            }
        }
    }

    /// The fingerprint of the listing and of every fetch so far.
    pub(crate) fn fingerprint(&self) -> u64 {
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        for path in self.inner.listing() {
            hasher.update(path.as_bytes());
            hasher.update(&[0]);
        }
        for (path, digest) in &self.seen {
            hasher.update(path.as_bytes());
            hasher.update(&digest.to_le_bytes());
        }
        hasher.digest()
    }
}
