//! Building the model: reading the configuration files a [`Source`] lists, finding the
//! workspace packages, loading every tsconfig through [`ConfigLoader`], computing each
//! source file's facts, and checking what can only be checked once the files are known.

use std::collections::{BTreeMap, HashMap, HashSet};

use rustc_hash::FxHashMap;

use super::package_json::Manifest;
use super::paths::{
    display_dir, file_name, is_declaration, join, parent, strip_dir, wildcard_capture,
};
use super::resolve::declaration_beside;
use super::source::{Fetched, Prefetched, Source};
use super::tsconfig::{Config, ConfigLoader, Referrer};
use super::workspaces::{self, Declaration};
use super::{
    Assignment, FileFacts, ModelWarning, PRESENCE_ONLY, PackageEntry, ProjectModel, jsonc,
    mcp_config,
};

impl ProjectModel {
    /// Builds the model from what `source` lists and returns (see [`ProjectModel::load`]).
    pub(super) fn build(source: &mut dyn Source, files: &[&str]) -> ProjectModel {
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
        let declarations = published_declarations(source, &manifests);
        let manifest_by_folder: FxHashMap<String, u32> = manifests
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

        let mut prefetched = Prefetched {
            inner: source,
            texts: &texts,
        };
        let mut loader = ConfigLoader::new(&mut prefetched, by_name_folder, pnp);
        let mut model = ProjectModel {
            files: FxHashMap::default(),
            configs: Vec::new(),
            discovered: FxHashMap::default(),
            config_ids: FxHashMap::default(),
            references: Vec::new(),
            manifests,
            manifest_by_folder,
            workspaces,
            entries: vec![PackageEntry {
                name: String::new(),
                module: ".".to_owned(),
                folder: ".".to_owned(),
            }],
            manifest_entries: FxHashMap::default(),
            assignments: Vec::new(),
            out_dirs: FxHashMap::default(),
            declarations,
            pnp,
            warnings: Vec::new(),
            fingerprint: 0,
            checks: None,
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

    /// Maps each config's `outDir`/`declarationDir` to the folder its sources are in:
    /// `rootDir`, else (as tsc computes it) the common folder of the files it governs and
    /// claims, else its own folder.
    pub(super) fn add_out_dirs(&mut self, facts: &[(&str, FileFacts)]) {
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

/// The declaration files on disk that a named package's entry points name (`exports`
/// targets, a wildcard one by the declarations it matches; the entry fields; the declaration
/// beside an emitted `.js`): where the checker lands when the package imports itself by name.
/// Only their presence is asked for. The model is read again when a configuration file
/// changes, not when a build adds or removes declarations: `index --rebuild` sees those.
fn published_declarations(source: &mut dyn Source, manifests: &[Manifest]) -> HashSet<Box<str>> {
    let mut found = HashSet::new();
    let mut listed = HashMap::new();
    for manifest in manifests.iter().filter(|m| m.name.is_some()) {
        let mut targets: Vec<&str> = manifest.entries.iter().map(String::as_str).collect();
        if let Some(exports) = &manifest.exports {
            string_leaves(exports, &mut targets);
        }
        for target in targets {
            let Some(path) = join(&manifest.folder, target) else {
                continue;
            };
            if path.contains('*') {
                let landed = wildcard_declarations(source, &mut listed, &path);
                found.extend(landed.into_iter().map(String::into_boxed_str));
                continue;
            }
            let beside = declaration_beside(&path);
            for candidate in std::iter::once(path.clone()).chain(beside) {
                if is_declaration(&candidate)
                    && !found.contains(candidate.as_str())
                    && source.exists(&candidate)
                {
                    found.insert(candidate.into_boxed_str());
                }
            }
        }
    }
    found
}

/// The declaration files on disk that a wildcard target (`dist/*.js`, `dist/*.d.ts`; one `*`,
/// as `exports` allows) lands on: each declaration under the folder before the `*` that the
/// pattern matches, as written or as the declaration beside the emitted file it matches
/// (`dist/*.js` lands on `dist/Cause.d.ts` through `dist/Cause.js`). Each folder is listed once
/// per model build (`listed`), however many conditions and patterns point into it.
fn wildcard_declarations(
    source: &mut dyn Source,
    listed: &mut HashMap<String, Vec<String>>,
    pattern: &str,
) -> Vec<String> {
    let Some((prefix, suffix)) = pattern.split_once('*') else {
        return Vec::new();
    };
    // What a matching declaration ends with: the suffix itself, or its declaration form.
    let declaration_pattern = match declaration_beside(suffix) {
        Some(declaration_suffix) => format!("{prefix}*{declaration_suffix}"),
        None => pattern.to_owned(),
    };
    let folder = prefix.rfind('/').map_or("", |slash| &prefix[..slash]);
    listed
        .entry(folder.to_owned())
        .or_insert_with(|| source.declarations_under(folder))
        .iter()
        .filter(|declaration| wildcard_capture(&declaration_pattern, declaration).is_some())
        .cloned()
        .collect()
}

/// Every string inside a JSON value (the targets of an `exports` map, whatever its
/// conditions).
fn string_leaves<'v>(value: &'v serde_json::Value, out: &mut Vec<&'v str>) {
    match value {
        serde_json::Value::String(text) => out.push(text),
        serde_json::Value::Array(items) => items.iter().for_each(|item| string_leaves(item, out)),
        serde_json::Value::Object(map) => map.values().for_each(|item| string_leaves(item, out)),
        _ => {}
    }
}
