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
}

impl Source for Fingerprinted<'_> {
    fn listing(&self) -> Vec<String> {
        self.inner.listing()
    }

    fn fetch(&mut self, path: &str) -> Fetched {
        let fetched = self.inner.fetch(path);
        let digest = match &fetched {
            Fetched::Text(text) => xxhash_rust::xxh3::xxh3_64(text.as_bytes()),
            Fetched::Missing => 1,
            Fetched::Outside => 2,
            Fetched::Failed(_) => 3,
        };
        self.seen.insert(path.to_owned(), digest);
        fetched
    }

    /// Presence counts, not contents: rebuilding a file asked about this way keeps the
    /// fingerprint.
    fn exists(&mut self, path: &str) -> bool {
        let exists = self.inner.exists(path);
        self.seen
            .insert(path.to_owned(), if exists { 4 } else { 1 });
        exists
    }

    /// Which files are listed counts, not their contents.
    fn declarations_under(&mut self, dir: &str) -> Vec<String> {
        let listed = self.inner.declarations_under(dir);
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        for path in &listed {
            hasher.update(path.as_bytes());
            hasher.update(&[0]);
        }
        self.seen.insert(format!("{dir}/*"), hasher.digest());
        listed
    }
}

impl Fingerprinted<'_> {
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
