//! The project model: everything about a project's configuration that linking needs —
//! which tsconfig governs each file, which package and module it belongs to, and how a module
//! specifier written in it resolves — loaded once, before linking, and pure afterwards.
//!
//! What is read (all inside the project root; see `model::confine`): every `tsconfig.json` and
//! `jsconfig.json` (and the configs they `extends` or reference), every `package.json`
//! outside node_modules, `pnpm-workspace.yaml`, `lerna.json`, Yarn PnP markers (`.pnp.cjs`)
//! and `ts-graph-mcp.config.json`. Problems become [`ModelWarning`]s, never errors.
//!
//! **Packages and modules.** A file's *package* is the `name` of the nearest package.json
//! above it that has one (package.json files without a `name`, such as `{"type": "module"}`
//! markers, are passed over). Its *module* is, in order: the module a ts-graph-mcp config
//! assigns to a tsconfig that claims the file (that config's package name then replaces the
//! package.json name); the workspace group of its package (the literal folder part of the
//! workspace glob that matched it: `packages/*` → `packages`); else the folder of that
//! package.json (`.` for the root, or when there is none).
//!
//! **Resolution** follows tsc (see [`resolve`](ProjectModel::resolve)). Where tsc gives an
//! answer the model gives the same file; where tsc fails but the intended file is certain
//! (an extensionless relative import in an ES module under node16, a `.mts` file imported
//! without extension, a workspace package with only an `exports` map under node10) the model
//! resolves it anyway, since a code graph wants the edge the author meant.

mod build;
mod cache;
mod confine;
mod exports;
mod include;
mod jsonc;
mod mcp_config;
mod package_json;
mod paths;
mod resolve;
mod source;
#[cfg(test)]
mod tests;
mod tsconfig;
mod workspaces;

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::fmt;
use std::path::Path;

use rustc_hash::FxHashMap;

pub(crate) use cache::{KEPT_MODEL_META_KEY, MODEL_INPUTS_META_KEY, inputs_hold};
use package_json::Manifest;
pub(crate) use paths::is_declaration;
use paths::{ancestors, parent};
pub(crate) use source::DISCOVERED_NAMES;
use source::MemorySource;
use tsconfig::Config;
use workspaces::Workspaces;

pub use resolve::{Resolution, UnresolvedReason};

/// A problem found in a configuration file. The file is still used with defaults for what
/// could not be read.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ModelWarning {
    /// The file, relative to the project root.
    pub file: String,
    /// The 1-based line, where the parser or the property lookup gives one.
    pub line: Option<u32>,
    /// What is wrong and what was done about it.
    pub message: String,
}

impl fmt::Display for ModelWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// A package as the graph names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackageRef<'m> {
    /// The package.json `name` (or a ts-graph-mcp package name); empty without one.
    pub name: &'m str,
    /// The module (see the module documentation for the rule).
    pub module: &'m str,
    /// The package's folder relative to the root (`.` for the root).
    pub folder: &'m str,
}

/// Files found by name whose presence is what counts; they are never read.
const PRESENCE_ONLY: &[&str] = &[
    ".pnp.cjs",
    ".pnp.js",
    ".pnp.data.json",
    "ts-graph-mcp.config.ts",
    "ts-graph-mcp.config.js",
];

/// The module resolution algorithm a config selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Mode {
    /// `node10` (alias `node`), and `classic`, which tsc deprecates and which is read as
    /// node10: package.json `main`/`types` before `exports`, conditions not by file format.
    Node10,
    /// `node16` and `nodenext`: `exports`/`imports` with `import` or `require` by the
    /// importing file's module format.
    Node16,
    /// `bundler`: `exports`/`imports` with the `import` condition.
    Bundler,
}

impl Mode {
    /// The mode tsc derives from `moduleResolution`, else from `module` (lower-cased).
    fn from_options(module_resolution: Option<&str>, module: Option<&str>) -> Mode {
        match module_resolution {
            Some("node16" | "nodenext") => Mode::Node16,
            Some("bundler") => Mode::Bundler,
            Some(_) => Mode::Node10,
            None => match module {
                Some("node16" | "node18" | "node20" | "nodenext") => Mode::Node16,
                Some("preserve") => Mode::Bundler,
                _ => Mode::Node10,
            },
        }
    }
}

/// What the model knows about one source file.
#[derive(Debug, Clone, Copy, serde::Serialize, serde::Deserialize)]
struct FileFacts {
    /// The governing config.
    config: Option<u32>,
    /// The nearest package.json (named or not): its `type` and `imports` apply.
    scope: Option<u32>,
    /// The nearest named package.json (or unreadable one: see [`Manifest::broken`]).
    named: Option<u32>,
    /// Index into `ProjectModel::entries`.
    package: u32,
    /// Whether the file is an ES module (by extension, else the scope's `type`).
    esm: bool,
}

/// A package entry that [`PackageRef`]s borrow from.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct PackageEntry {
    name: String,
    module: String,
    folder: String,
}

/// A ts-graph-mcp package assignment, resolved to a loaded config.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Assignment {
    config: u32,
    entry: u32,
}

/// Everything about a project's configuration that linking needs, loaded once before
/// linking. Building it reads configuration files; using it never touches the file system.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct ProjectModel {
    files: FxHashMap<Box<str>, FileFacts>,
    configs: Vec<Config>,
    /// Folder → the tsconfig.json (else jsconfig.json) found there, as an index into `configs`.
    discovered: FxHashMap<String, u32>,
    config_ids: FxHashMap<String, u32>,
    /// `references` of each config, as indices.
    references: Vec<Vec<u32>>,
    manifests: Vec<Manifest>,
    manifest_by_folder: FxHashMap<String, u32>,
    workspaces: Workspaces,
    entries: Vec<PackageEntry>,
    /// Entry index of each named manifest.
    manifest_entries: FxHashMap<u32, u32>,
    assignments: Vec<Assignment>,
    /// Build-output folder (`outDir`, `declarationDir`) → the source folder it mirrors.
    out_dirs: FxHashMap<String, String>,
    /// The declaration files named packages' entry points name that are on disk (known by
    /// presence only): a package that imports itself by name reaches them, as the checker
    /// does.
    declarations: HashSet<Box<str>>,
    pnp: bool,
    warnings: Vec<ModelWarning>,
    /// A fingerprint of every configuration file read, and of which were missing.
    fingerprint: u64,
    /// How a later process checks that this model still holds, from its build until it is
    /// kept in the store (`None` for a model that cannot be checked, or was kept or read
    /// back from the store): see [`cache`].
    #[serde(skip)]
    checks: Option<Box<cache::Checks>>,
}

impl ProjectModel {
    /// Reads every tsconfig.json / jsconfig.json (and the configs they extend), every
    /// package.json, npm/yarn `workspaces`, pnpm-workspace.yaml, lerna.json, Yarn PnP markers
    /// and ts-graph-mcp.config.json under `root`, confined to it (see `model::confine`). `files`
    /// are the project's source files, relative to root, forward slashes (they are what a
    /// specifier may resolve to). Problems become warnings, never errors.
    pub fn load(root: &Path, files: &[&str]) -> ProjectModel {
        let mut source = confine::ConfinedFs::new(root);
        ProjectModel::build_checked(&mut source, files)
    }

    /// Like [`ProjectModel::load`], with the configuration files already found by the
    /// caller's walk (project-relative paths), so the tree is not walked twice.
    pub fn load_listed(root: &Path, files: &[&str], configs: Vec<String>) -> ProjectModel {
        let mut source = confine::ConfinedFs::with_listing(root, configs);
        ProjectModel::build_checked(&mut source, files)
    }

    /// Like [`ProjectModel::load_listed`], with the configuration files the source walk found
    /// (`crate::walk`): they are read without resolving their paths (see `model::confine`).
    pub(crate) fn load_walked(root: &Path, files: &[&str], configs: Vec<String>) -> ProjectModel {
        let mut source = confine::ConfinedFs::walked(root, configs);
        ProjectModel::build_checked(&mut source, files)
    }

    /// [`Self::build_fingerprinted`] from the file system, with what a later process needs
    /// to check that the model still holds (see [`cache`]).
    fn build_checked(source: &mut confine::ConfinedFs, files: &[&str]) -> ProjectModel {
        let began = std::time::SystemTime::now();
        let listing = source::Source::listing(source);
        let (mut model, asked) = ProjectModel::build_fingerprinted(source, files);
        model.checks = Some(Box::new(cache::Checks::new(listing, files, asked, began)));
        model
    }

    /// The model `source` gives, fingerprinted, and what its build asked of the source
    /// (see [`source::Fingerprinted`]).
    fn build_fingerprinted(
        source: &mut dyn source::Source,
        files: &[&str],
    ) -> (ProjectModel, source::Asked) {
        let mut fingerprinted = source::Fingerprinted::new(source);
        let mut model = ProjectModel::build(&mut fingerprinted, files);
        model.fingerprint = fingerprinted.fingerprint();
        (model, fingerprinted.asked)
    }

    /// A fingerprint of the configuration the model was built from (every file read, and
    /// which were missing). The same fingerprint means the same configuration; a project
    /// whose fingerprint changed is indexed again from scratch.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// Builds a model from in-memory file contents (path relative to root → text): the
    /// map is the whole file system the model sees.
    pub fn from_sources(configs: &BTreeMap<String, String>, files: &[&str]) -> ProjectModel {
        let mut source = MemorySource { files: configs };
        ProjectModel::build_fingerprinted(&mut source, files).0
    }

    /// Takes files created or deleted since the model was built into account: a specifier
    /// may now resolve to a new file and no longer to a deleted one, and a config's default
    /// `rootDir` (the common folder of the files it claims) may have moved.
    pub fn update_files(&mut self, added: &[&str], removed: &[&str]) {
        if added.is_empty() && removed.is_empty() {
            return;
        }
        // Kept, the model would stand for files it was not built from.
        self.checks = None;
        for path in removed {
            self.files.remove(*path);
        }
        for path in added {
            let facts = self.compute_facts(path);
            self.files.insert((*path).into(), facts);
        }
        if self.configs.iter().any(|c| !c.out_dirs.is_empty()) {
            let owned: Vec<(Box<str>, FileFacts)> =
                self.files.iter().map(|(k, v)| (k.clone(), *v)).collect();
            let facts: Vec<(&str, FileFacts)> = owned.iter().map(|(k, v)| (&**k, *v)).collect();
            self.out_dirs.clear();
            self.add_out_dirs(&facts);
        }
    }

    /// The problems found while loading, in a stable order.
    pub fn warnings(&self) -> &[ModelWarning] {
        &self.warnings
    }

    /// Whether the project is a Yarn Plug'n'Play install (`.pnp.cjs` at the root).
    pub fn is_pnp(&self) -> bool {
        self.pnp
    }

    /// The package a file belongs to (see the module documentation for the rule).
    pub fn package_of(&self, file: &str) -> PackageRef<'_> {
        let facts = self.facts(file);
        self.entry(facts.package)
    }

    /// The config that governs `file` (project-relative path), if any.
    pub fn config_of(&self, file: &str) -> Option<&str> {
        let facts = self.facts(file);
        facts
            .config
            .map(|id| self.configs[id as usize].path.as_str())
    }

    /// The workspace packages, in folder order. The `module` of each is its group; a
    /// package whose package.json cannot be parsed is listed with an empty name.
    pub fn packages(&self) -> impl Iterator<Item = PackageRef<'_>> {
        self.workspaces.packages.iter().filter_map(|package| {
            let entry = self.manifest_entries.get(&(package.manifest as u32))?;
            Some(self.entry(*entry))
        })
    }

    fn entry(&self, index: u32) -> PackageRef<'_> {
        let entry = &self.entries[index as usize];
        PackageRef {
            name: &entry.name,
            module: &entry.module,
            folder: &entry.folder,
        }
    }

    /// The facts of a source file, computed on the spot for a path that is not one.
    fn facts(&self, file: &str) -> FileFacts {
        match self.files.get(file) {
            Some(facts) => *facts,
            None => self.compute_facts(file),
        }
    }

    /// Package scope, package entry, module format and governing config of `file`.
    fn compute_facts(&self, file: &str) -> FileFacts {
        let dir = parent(file);
        let mut scope = None;
        let mut named = None;
        for folder in ancestors(dir) {
            if let Some(&manifest) = self.manifest_by_folder.get(folder) {
                scope.get_or_insert(manifest);
                let found = &self.manifests[manifest as usize];
                if found.name.is_some() || found.broken {
                    named = Some(manifest);
                    break;
                }
            }
        }
        let assigned = self
            .assignments
            .iter()
            .filter(|a| self.configs[a.config as usize].claims.claims(file))
            .max_by_key(|a| self.configs[a.config as usize].dir.len())
            .map(|a| a.entry);
        let package = assigned
            .or_else(|| named.and_then(|m| self.manifest_entries.get(&m).copied()))
            .unwrap_or(0);
        let esm = match file.rsplit_once('.').map(|(_, ext)| ext) {
            Some("mts" | "mjs") => true,
            Some("cts" | "cjs") => false,
            _ => scope.is_some_and(|m| self.manifests[m as usize].type_module),
        };
        FileFacts {
            config: self.governing_config(file),
            scope,
            named,
            package,
            esm,
        }
    }

    /// The config that governs `file`: walking up from its folder, the first config that
    /// claims it (through `files`/`include`/`exclude`, or through a config it references, as
    /// in a solution-style tsconfig.json); when none claims it, the nearest config.
    fn governing_config(&self, file: &str) -> Option<u32> {
        let mut nearest = None;
        for folder in ancestors(parent(file)) {
            let Some(&id) = self.discovered.get(folder) else {
                continue;
            };
            nearest.get_or_insert(id);
            // Breadth first: a config before the configs it references.
            let mut queue = VecDeque::from([id]);
            let mut seen = vec![id];
            while let Some(current) = queue.pop_front() {
                if self.configs[current as usize].claims.claims(file) {
                    return Some(current);
                }
                for reference in self.references.get(current as usize).into_iter().flatten() {
                    if !seen.contains(reference) {
                        seen.push(*reference);
                        queue.push_back(*reference);
                    }
                }
            }
        }
        nearest
    }
}
