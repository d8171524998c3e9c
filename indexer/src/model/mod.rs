//! The project model: everything about a project's configuration that linking needs —
//! which tsconfig governs each file, which package and module it belongs to, and how a module
//! specifier written in it resolves — loaded once, before linking, and pure afterwards.
//!
//! What is read (all inside the project root; see [`confine`]): every `tsconfig.json` and
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

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::Path;

use package_json::Manifest;
use paths::{ancestors, display_dir, file_name, join, parent, strip_dir};
use source::{Fetched, MemorySource, Source};
use tsconfig::{Config, ConfigLoader, Referrer};
use workspaces::{Declaration, Workspaces};

pub use resolve::{Resolution, UnresolvedReason};

/// A problem found in a configuration file. The file is still used with defaults for what
/// could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
#[derive(Debug, Clone, Copy)]
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
#[derive(Debug)]
struct PackageEntry {
    name: String,
    module: String,
    folder: String,
}

/// A ts-graph-mcp package assignment, resolved to a loaded config.
#[derive(Debug)]
struct Assignment {
    config: u32,
    entry: u32,
}

/// Everything about a project's configuration that linking needs, loaded once before
/// linking. Building it reads configuration files; using it never touches the file system.
#[derive(Debug)]
pub struct ProjectModel {
    files: HashMap<Box<str>, FileFacts>,
    configs: Vec<Config>,
    /// Folder → the tsconfig.json (else jsconfig.json) found there, as an index into `configs`.
    discovered: HashMap<String, u32>,
    config_ids: HashMap<String, u32>,
    /// `references` of each config, as indices.
    references: Vec<Vec<u32>>,
    manifests: Vec<Manifest>,
    manifest_by_folder: HashMap<String, u32>,
    workspaces: Workspaces,
    entries: Vec<PackageEntry>,
    /// Entry index of each named manifest.
    manifest_entries: HashMap<u32, u32>,
    assignments: Vec<Assignment>,
    /// Build-output folder (`outDir`, `declarationDir`) → the source folder it mirrors.
    out_dirs: HashMap<String, String>,
    pnp: bool,
    warnings: Vec<ModelWarning>,
}

impl ProjectModel {
    /// Reads every tsconfig.json / jsconfig.json (and the configs they extend), every
    /// package.json, npm/yarn `workspaces`, pnpm-workspace.yaml, lerna.json, Yarn PnP markers
    /// and ts-graph-mcp.config.json under `root`, confined to it (see [`confine`]). `files`
    /// are the project's source files, relative to root, forward slashes (they are what a
    /// specifier may resolve to). Problems become warnings, never errors.
    pub fn load(root: &Path, files: &[&str]) -> ProjectModel {
        let mut source = confine::ConfinedFs::new(root);
        ProjectModel::build(&mut source, files)
    }

    /// Builds a model from in-memory file contents (path relative to root → text): the
    /// map is the whole file system the model sees.
    pub fn from_sources(configs: &BTreeMap<String, String>, files: &[&str]) -> ProjectModel {
        let mut source = MemorySource { files: configs };
        ProjectModel::build(&mut source, files)
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

    fn build(source: &mut dyn Source, files: &[&str]) -> ProjectModel {
        let listing = source.listing();
        let mut warnings = Vec::new();
        let mut texts: BTreeMap<String, String> = BTreeMap::new();
        // Markers matter by their presence; a real .pnp.cjs runs to megabytes.
        let present = |name: &str| listing.iter().any(|p| p == name);
        for path in listing
            .iter()
            .filter(|p| !PRESENCE_ONLY.contains(&p.as_str()))
        {
            match source.fetch(path) {
                Fetched::Text(text) => {
                    texts.insert(path.clone(), text);
                }
                Fetched::Missing => {}
                Fetched::Outside => warnings.push(ModelWarning {
                    file: path.clone(),
                    line: None,
                    message: "links outside the project root; not read".to_owned(),
                }),
                Fetched::Failed(reason) => warnings.push(ModelWarning {
                    file: path.clone(),
                    line: None,
                    message: format!("cannot be read: {reason}"),
                }),
            }
        }
        let manifests = read_manifests(&texts, &mut warnings);
        let manifest_by_folder: HashMap<String, u32> = manifests
            .iter()
            .enumerate()
            .map(|(i, m)| (m.folder.clone(), i as u32))
            .collect();
        let pnp = [".pnp.cjs", ".pnp.js", ".pnp.data.json"]
            .iter()
            .any(|marker| present(marker));
        let mcp_script = ["ts-graph-mcp.config.ts", "ts-graph-mcp.config.js"]
            .into_iter()
            .find(|script| present(script));
        let workspaces = workspaces::discover(
            &manifests,
            workspace_declarations(&texts, &manifests, &mut warnings),
            &mut warnings,
        );
        let by_name_folder: HashMap<String, String> = workspaces
            .by_name
            .iter()
            .map(|(name, index)| {
                let manifest = &manifests[workspaces.packages[*index].manifest];
                (name.clone(), manifest.folder.clone())
            })
            .collect();

        let mut loader = ConfigLoader::new(source, by_name_folder, pnp);
        let mut model = ProjectModel {
            files: HashMap::new(),
            configs: Vec::new(),
            discovered: HashMap::new(),
            config_ids: HashMap::new(),
            references: Vec::new(),
            manifests,
            manifest_by_folder,
            workspaces,
            entries: vec![PackageEntry {
                name: String::new(),
                module: ".".to_owned(),
                folder: ".".to_owned(),
            }],
            manifest_entries: HashMap::new(),
            assignments: Vec::new(),
            out_dirs: HashMap::new(),
            pnp,
            warnings: Vec::new(),
        };
        model.load_configs(&mut loader, &listing);
        model.add_package_entries();
        model.add_assignments(&mut loader, &texts, mcp_script);
        warnings.append(&mut loader.warnings);

        let mut facts: Vec<(&str, FileFacts)> =
            files.iter().map(|f| (*f, model.compute_facts(f))).collect();
        facts.sort_by(|a, b| a.0.cmp(b.0));
        model.files = facts
            .iter()
            .map(|(f, facts)| (Box::from(*f), *facts))
            .collect();
        model.add_out_dirs(&facts);
        model.check_paths_targets(&loader, &mut warnings);
        model.warnings = warnings;
        model
    }

    /// Loads the discovered configs (tsconfig.json before jsconfig.json in a folder) and every
    /// config they reference, transitively.
    fn load_configs(&mut self, loader: &mut ConfigLoader<'_>, listing: &[String]) {
        let mut queue: Vec<(String, Option<Referrer>)> = Vec::new();
        for name in ["tsconfig.json", "jsconfig.json"] {
            for path in listing.iter().filter(|p| file_name(p) == name) {
                queue.push((path.clone(), None));
            }
        }
        let mut next = 0;
        while next < queue.len() {
            let (path, referrer) = queue[next].clone();
            next += 1;
            if self.config_ids.contains_key(&path) {
                continue;
            }
            let Some(config) = loader.load(&path, referrer.as_ref()) else {
                continue;
            };
            for (i, reference) in config.references.iter().enumerate() {
                let referrer = Referrer {
                    file: path.clone(),
                    at: vec!["references".to_owned(), i.to_string(), "path".to_owned()],
                };
                queue.push((reference.clone(), Some(referrer)));
            }
            self.add_config(config);
        }
        for (id, config) in self.configs.iter().enumerate() {
            let discovered = matches!(file_name(&config.path), "tsconfig.json" | "jsconfig.json");
            if discovered {
                let slot = self
                    .discovered
                    .entry(config.dir.clone())
                    .or_insert(id as u32);
                if file_name(&self.configs[*slot as usize].path) == "jsconfig.json" {
                    *slot = id as u32;
                }
            }
        }
        self.references = self
            .configs
            .iter()
            .map(|config| {
                config
                    .references
                    .iter()
                    .filter_map(|path| self.config_ids.get(path).copied())
                    .collect()
            })
            .collect();
    }

    fn add_config(&mut self, config: Config) -> u32 {
        let id = self.configs.len() as u32;
        self.config_ids.insert(config.path.clone(), id);
        self.configs.push(config);
        id
    }

    /// One entry per named (or unreadable) package.json: workspace packages take their group
    /// as module, other packages their folder.
    fn add_package_entries(&mut self) {
        for (index, manifest) in self.manifests.iter().enumerate() {
            if manifest.name.is_none() && !manifest.broken {
                continue;
            }
            let name = manifest.name.as_deref().unwrap_or_default();
            let module = match self.workspaces.by_manifest.get(&index) {
                Some(package) => self.workspaces.packages[*package].group.clone(),
                None => display_dir(&manifest.folder).to_owned(),
            };
            self.manifest_entries
                .insert(index as u32, self.entries.len() as u32);
            self.entries.push(PackageEntry {
                name: name.to_owned(),
                module,
                folder: display_dir(&manifest.folder).to_owned(),
            });
        }
    }

    /// Reads ts-graph-mcp.config.json and loads the tsconfigs it names.
    fn add_assignments(
        &mut self,
        loader: &mut ConfigLoader<'_>,
        texts: &BTreeMap<String, String>,
        script: Option<&str>,
    ) {
        const FILE: &str = "ts-graph-mcp.config.json";
        if let Some(script) = script
            && !texts.contains_key(FILE)
        {
            let message = "is not read (only ts-graph-mcp.config.json is); packages and modules \
                           come from package.json";
            loader.warn_at(script, &[], message.to_owned());
        }
        let Some(text) = texts.get(FILE) else {
            return;
        };
        let assignments = match mcp_config::parse(text) {
            Ok(assignments) => assignments,
            Err((line, message)) => {
                loader.warnings.push(ModelWarning {
                    file: FILE.to_owned(),
                    line,
                    message: format!("{message}; ignored"),
                });
                return;
            }
        };
        for assignment in assignments {
            let Some(path) = join("", &assignment.tsconfig) else {
                loader.warnings.push(ModelWarning {
                    file: FILE.to_owned(),
                    line: jsonc::line_of(
                        text,
                        &assignment.at.iter().map(String::as_str).collect::<Vec<_>>(),
                    ),
                    message: format!(
                        "tsconfig `{}` is outside the project root; ignored",
                        assignment.tsconfig
                    ),
                });
                continue;
            };
            let config = match self.config_ids.get(&path) {
                Some(id) => Some(*id),
                None => {
                    let at = assignment.at.clone();
                    let line_at: Vec<&str> = at.iter().map(String::as_str).collect();
                    let line = jsonc::line_of(text, &line_at);
                    match loader.load(&path, None) {
                        Some(config) => Some(self.add_config(config)),
                        None => {
                            if !loader.exists(&path) {
                                loader.warnings.push(ModelWarning {
                                    file: FILE.to_owned(),
                                    line,
                                    message: format!(
                                        "tsconfig `{}` does not exist; package `{}` is ignored",
                                        assignment.tsconfig, assignment.package
                                    ),
                                });
                            }
                            None
                        }
                    }
                }
            };
            let Some(config) = config else {
                continue;
            };
            let entry = self.entries.len() as u32;
            self.entries.push(PackageEntry {
                name: assignment.package,
                module: assignment.module,
                folder: display_dir(&self.configs[config as usize].dir).to_owned(),
            });
            self.assignments.push(Assignment { config, entry });
        }
        // References added by assigned configs are not followed: ts-graph-mcp indexes what
        // each listed tsconfig claims.
        self.references.resize(self.configs.len(), Vec::new());
    }

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
            let mut stack = vec![id];
            let mut seen = vec![id];
            while let Some(current) = stack.pop() {
                if self.configs[current as usize].claims.claims(file) {
                    return Some(current);
                }
                for reference in self.references.get(current as usize).into_iter().flatten() {
                    if !seen.contains(reference) {
                        seen.push(*reference);
                        stack.insert(0, *reference);
                    }
                }
            }
        }
        nearest
    }

    /// Maps each config's `outDir`/`declarationDir` to the folder its sources are in:
    /// `rootDir`, else (as tsc computes it) the common folder of the files it governs and
    /// claims, else its own folder.
    fn add_out_dirs(&mut self, facts: &[(&str, FileFacts)]) {
        for (id, config) in self.configs.iter().enumerate() {
            if config.out_dirs.is_empty() {
                continue;
            }
            let root_dir = config.root_dir.clone().unwrap_or_else(|| {
                // tsc's default rootDir is the common folder of the program's files: those
                // the config claims (a file it governs only as the nearest config is not one).
                let governed = facts
                    .iter()
                    .filter(|(file, f)| f.config == Some(id as u32) && config.claims.claims(file))
                    .map(|(file, _)| parent(file));
                common_folder(governed).unwrap_or_else(|| config.dir.clone())
            });
            for out_dir in &config.out_dirs {
                let mirrors_itself = out_dir.is_empty() || strip_dir(&root_dir, out_dir).is_some();
                if !mirrors_itself {
                    self.out_dirs
                        .entry(out_dir.clone())
                        .or_insert_with(|| root_dir.clone());
                }
            }
        }
    }

    /// Warns about `paths` targets that match no source file (once per declaring config).
    fn check_paths_targets(&self, loader: &ConfigLoader<'_>, warnings: &mut Vec<ModelWarning>) {
        let mut sorted: Vec<&str> = self.files.keys().map(|k| &**k).collect();
        sorted.sort_unstable();
        let mut seen = std::collections::HashSet::new();
        for config in &self.configs {
            for rule in &config.paths {
                for target in &rule.targets {
                    if target.split('/').any(|s| s == "node_modules")
                        || !seen.insert((
                            rule.declared_in.clone(),
                            rule.pattern.clone(),
                            target.clone(),
                        ))
                    {
                        continue;
                    }
                    let exists = match target.split_once('*') {
                        Some((prefix, _)) => {
                            let start = sorted.partition_point(|f| *f < prefix);
                            sorted.get(start).is_some_and(|f| f.starts_with(prefix))
                        }
                        None => self.find_module(target, &mut String::new(), 0).is_some(),
                    };
                    if !exists {
                        let line = loader.text_of(&rule.declared_in).and_then(|text| {
                            jsonc::line_of(text, &["compilerOptions", "paths", &rule.pattern])
                        });
                        warnings.push(ModelWarning {
                            file: rule.declared_in.to_string(),
                            line,
                            message: format!(
                                "paths `{}`: target `{target}` matches no source file",
                                rule.pattern
                            ),
                        });
                    }
                }
            }
        }
    }
}

/// Reads every package.json outside node_modules, sorted by folder.
fn read_manifests(
    texts: &BTreeMap<String, String>,
    warnings: &mut Vec<ModelWarning>,
) -> Vec<Manifest> {
    let mut manifests = Vec::new();
    for (path, text) in texts.iter().filter(|(p, _)| file_name(p) == "package.json") {
        let folder = parent(path);
        let value = match jsonc::parse_json(text) {
            Ok(value @ serde_json::Value::Object(_)) => value,
            Ok(_) => {
                warnings.push(ModelWarning {
                    file: path.clone(),
                    line: Some(1),
                    message: "is not a JSON object; ignored".to_owned(),
                });
                continue;
            }
            Err(failure) => {
                warnings.push(ModelWarning {
                    file: path.clone(),
                    line: failure.line,
                    message: format!("{}; the package is treated as unnamed", failure.message),
                });
                manifests.push(Manifest {
                    path: path.clone(),
                    folder: folder.to_owned(),
                    broken: true,
                    ..Manifest::default()
                });
                continue;
            }
        };
        let manifest = Manifest::from_value(path, folder, &value, text.clone());
        if manifest.bad_workspaces {
            warnings.push(ModelWarning {
                file: path.clone(),
                line: jsonc::line_of(text, &["workspaces"]),
                message: "`workspaces` must be an array of globs or {\"packages\": [...]}; ignored in part".to_owned(),
            });
        }
        manifests.push(manifest);
    }
    manifests.sort_by(|a, b| a.folder.cmp(&b.folder));
    manifests
}

/// The root's workspace declarations: package.json `workspaces`, pnpm-workspace.yaml,
/// lerna.json `packages`.
fn workspace_declarations(
    texts: &BTreeMap<String, String>,
    manifests: &[Manifest],
    warnings: &mut Vec<ModelWarning>,
) -> Vec<Declaration> {
    let mut declarations = Vec::new();
    if let Some(root) = manifests.iter().find(|m| m.folder.is_empty())
        && !root.workspaces.is_empty()
    {
        declarations.push(Declaration {
            folder: String::new(),
            file: root.path.clone(),
            globs: root.workspaces.clone(),
        });
    }
    if let Some(text) = texts.get("pnpm-workspace.yaml") {
        match workspaces::parse_pnpm(text) {
            Ok(globs) => declarations.push(Declaration {
                folder: String::new(),
                file: "pnpm-workspace.yaml".to_owned(),
                globs,
            }),
            Err((line, message)) => warnings.push(ModelWarning {
                file: "pnpm-workspace.yaml".to_owned(),
                line,
                message: format!("{message}; no pnpm workspace packages"),
            }),
        }
    }
    if let Some(text) = texts.get("lerna.json") {
        match jsonc::parse_json(text) {
            Ok(value) => {
                let globs: Vec<String> = value
                    .get("packages")
                    .and_then(|p| p.as_array())
                    .map(|items| {
                        items
                            .iter()
                            .filter_map(|i| i.as_str())
                            .map(str::to_owned)
                            .collect()
                    })
                    .unwrap_or_default();
                if !globs.is_empty() {
                    declarations.push(Declaration {
                        folder: String::new(),
                        file: "lerna.json".to_owned(),
                        globs,
                    });
                }
            }
            Err(failure) => warnings.push(ModelWarning {
                file: "lerna.json".to_owned(),
                line: failure.line,
                message: format!("{}; ignored", failure.message),
            }),
        }
    }
    declarations
}

/// The deepest folder containing all of `folders`.
fn common_folder<'f>(mut folders: impl Iterator<Item = &'f str>) -> Option<String> {
    let first = folders.next()?;
    let mut common = first;
    for folder in folders {
        while strip_dir(folder, common).is_none() {
            common = parent(common);
        }
    }
    Some(common.to_owned())
}
