//! Module specifier resolution against the model: relative paths (with rootDirs), tsconfig
//! `paths` and `baseUrl`, package.json `imports`, workspace packages by name (through
//! `exports` or `types`/`main`), build output mapped back to sources, and everything else
//! named as an external package. Pure: only the model and the file list are consulted.

use std::fmt;

use super::exports::{MapLookup, lookup_exports, lookup_imports};
use super::package_json::Manifest;
use super::paths::{ancestors, child, file_name, join, parent, strip_dir};
use super::tsconfig::split_bare;
use super::{FileFacts, Mode, ProjectModel};

/// Where a module specifier leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// A source file of the project (project-relative path, one of the model's files).
    File(String),
    /// A package outside the project (`react`, `@scope/pkg`, `node:fs`).
    External {
        /// The package name, without any path inside it.
        package: String,
    },
    /// Nothing, for the reason given.
    Unresolved(UnresolvedReason),
}

/// Why a specifier did not resolve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum UnresolvedReason {
    /// It names a place in the project (a relative path, an alias, a workspace package) but
    /// no source file is there.
    MissingFile,
    /// It names a file that is not TypeScript or JavaScript source (`.json`, `.css`, …).
    NotSource,
    /// A workspace package's `exports` or a package.json `imports` map does not export it
    /// (no entry, a `null` entry, or no condition that applies).
    NotExported,
    /// A relative path that climbs above the project root.
    OutsideRoot,
    /// Not a form the model resolves: a URL, an absolute path, a loader prefix, a query.
    UnsupportedForm,
}

impl fmt::Display for UnresolvedReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UnresolvedReason::MissingFile => "missing file",
            UnresolvedReason::NotSource => "not a source file",
            UnresolvedReason::NotExported => "not exported by the package",
            UnresolvedReason::OutsideRoot => "outside the project root",
            UnresolvedReason::UnsupportedForm => "unsupported form",
        })
    }
}

/// Extensions tried, in order, after a path without one: tsc's (`.ts`, `.tsx`, then
/// `.js`, `.jsx`), then the module-format ones tsc would not add but that can only mean
/// one file.
const TRY_EXTENSIONS: &[&str] = &[".ts", ".tsx", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs"];

/// What an emitted extension may stand for in sources: tsc's candidates, then (after the
/// emitted file itself) the ones a bundler's output may come from, which tsc would not try.
const SOURCE_FOR_EMITTED: &[(&str, &[&str], &[&str])] = &[
    (".d.ts", &[".ts", ".tsx"], &[]),
    (".d.mts", &[".mts"], &[".ts", ".tsx"]),
    (".d.cts", &[".cts"], &[".ts", ".tsx"]),
    (".js", &[".ts", ".tsx"], &[]),
    (".jsx", &[".tsx"], &[".ts"]),
    (".mjs", &[".mts"], &[".ts", ".tsx"]),
    (".cjs", &[".cts"], &[".ts", ".tsx"]),
];

/// The declaration file the checker looks for beside an emitted JavaScript file.
pub(super) const DECLARATION_FOR_EMITTED: &[(&str, &str)] =
    &[(".js", ".d.ts"), (".mjs", ".d.mts"), (".cjs", ".d.cts")];

/// The declaration file the compiler emits beside `path`, when `path` is an emitted
/// JavaScript file (`dist/index.js` → `dist/index.d.ts`).
pub(super) fn declaration_beside(path: &str) -> Option<String> {
    DECLARATION_FOR_EMITTED
        .iter()
        .find(|(emitted, _)| path.ends_with(emitted))
        .map(|(emitted, declaration)| {
            format!("{}{declaration}", &path[..path.len() - emitted.len()])
        })
}

/// Extensions of files that are imported but are not source (for the unresolved reason).
const ASSET_EXTENSIONS: &[&str] = &[
    "json", "css", "scss", "sass", "less", "styl", "svg", "png", "jpg", "jpeg", "gif", "webp",
    "avif", "ico", "bmp", "html", "md", "mdx", "txt", "wasm", "vue", "svelte", "astro", "graphql",
    "gql", "yaml", "yml", "woff", "woff2", "ttf", "otf", "eot", "mp3", "mp4", "webm", "wav",
    "node", "csv", "xml", "glsl", "d.ts",
];

/// How deep `main` fields and directory lookups may chain.
const MAX_DEPTH: u8 = 4;

impl ProjectModel {
    /// Resolves `specifier` written in `importer` (both project-relative).
    ///
    /// Relative specifiers (`./x`, `../x`, `.`): the file itself, `.js`→`.ts`/`.tsx`,
    /// `.jsx`→`.tsx`, `.mjs`→`.mts`, `.cjs`→`.cts`, extensions added to an extensionless
    /// path, then the folder's package.json `types`/`main` and its `index` file; the
    /// governing config's `rootDirs` are tried as one folder. Bare specifiers: the governing
    /// config's `paths` (exact pattern, else the longest `*` prefix; targets in order), then
    /// `baseUrl`, then package.json `imports` for `#name`, then a workspace package (or the
    /// importer's own package) by name through `exports` (node16/nodenext/bundler, conditions
    /// `types`, `import`/`require`, `node`, `customConditions`, `default`) or `types`/`main`
    /// (node10, and when there is no `exports`). A path inside a config's `outDir` or
    /// `declarationDir` maps to its `rootDir` first, so imports of a referenced project or of
    /// a package's `dist/` reach the sources; a package target that still finds nothing tries
    /// the `src/` file of the same relative path. A package importing itself by name whose
    /// entry is a declaration file on disk is external (see `publishes_declaration`). Any
    /// other bare name is external.
    pub fn resolve(&self, importer: &str, specifier: &str) -> Resolution {
        if specifier.is_empty() || specifier.contains(['?', '!']) || specifier.starts_with('/') {
            return Resolution::Unresolved(UnresolvedReason::UnsupportedForm);
        }
        let facts = self.facts(importer);
        if is_relative(specifier) {
            return self.resolve_relative(importer, specifier, &facts);
        }
        if let Some((scheme, _)) = specifier.split_once(':')
            && !scheme.contains('/')
        {
            // A runtime's own modules (`node:fs`, `bun:test`, `cloudflare:workers`) are
            // outside the project; a URL (`https://…`) is not a form resolved here.
            let is_runtime = !scheme.is_empty()
                && scheme
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !specifier[scheme.len() + 1..].starts_with("//");
            return if is_runtime {
                let builtin = specifier.split('/').next().unwrap_or(specifier);
                Resolution::External {
                    package: builtin.to_owned(),
                }
            } else {
                Resolution::Unresolved(UnresolvedReason::UnsupportedForm)
            };
        }
        self.resolve_bare(specifier, &facts, true)
    }

    fn resolve_relative(&self, importer: &str, specifier: &str, facts: &FileFacts) -> Resolution {
        let Some(joined) = join(parent(importer), specifier) else {
            return Resolution::Unresolved(UnresolvedReason::OutsideRoot);
        };
        let mut scratch = String::new();
        if let Some(found) = self.find_module(&joined, &mut scratch, 0) {
            return Resolution::File(found.to_owned());
        }
        if let Some(config) = facts.config.map(|id| &self.configs[id as usize])
            && let Some((root, suffix)) = config
                .root_dirs
                .iter()
                .filter_map(|root| Some((root, strip_dir(&joined, root)?)))
                .max_by_key(|(root, _)| root.len())
        {
            for other in config.root_dirs.iter().filter(|other| *other != root) {
                let candidate = if suffix.is_empty() {
                    other.clone()
                } else {
                    child(other, suffix)
                };
                if let Some(found) = self.find_module(&candidate, &mut scratch, 0) {
                    return Resolution::File(found.to_owned());
                }
            }
        }
        Resolution::Unresolved(missing_reason(specifier))
    }

    fn resolve_bare(&self, specifier: &str, facts: &FileFacts, imports: bool) -> Resolution {
        let mut scratch = String::new();
        let config = facts.config.map(|id| &self.configs[id as usize]);
        let mut alias_missed = false;
        if let Some(config) = config {
            if let Some((rule, star)) = config.match_paths(specifier) {
                for target in &rule.targets {
                    let candidate = target.replacen('*', star, 1);
                    if let Some(found) = self.find_module(&candidate, &mut scratch, 0) {
                        return Resolution::File(found.to_owned());
                    }
                }
                alias_missed = !rule.is_catch_all();
            }
            if let Some(base) = &config.base_url
                && let Some(candidate) = join(base, specifier)
                && let Some(found) = self.find_module(&candidate, &mut scratch, 0)
            {
                return Resolution::File(found.to_owned());
            }
        }
        let mode = config.map_or(Mode::Bundler, |c| c.mode);
        let custom: &[String] = config.map_or(&[], |c| &c.conditions);
        let esm = facts.esm;
        let accepts = move |condition: &str| -> bool {
            condition == "types"
                || custom.iter().any(|c| c == condition)
                || match mode {
                    Mode::Node16 => {
                        condition == "node" || condition == if esm { "import" } else { "require" }
                    }
                    Mode::Bundler => condition == "import",
                    Mode::Node10 => matches!(condition, "import" | "require" | "node"),
                }
        };
        if specifier.starts_with('#') && imports {
            let resolved = self.resolve_import_map(specifier, facts, &accepts);
            if alias_missed && matches!(resolved, Resolution::Unresolved(_)) {
                return Resolution::Unresolved(UnresolvedReason::MissingFile);
            }
            return resolved;
        }
        let (name, rest) = split_bare(specifier);
        if !is_package_name(name) {
            let reason = if alias_missed {
                UnresolvedReason::MissingFile
            } else {
                UnresolvedReason::UnsupportedForm
            };
            return Resolution::Unresolved(reason);
        }
        let own = facts
            .named
            .map(|m| &self.manifests[m as usize])
            .filter(|m| m.name.as_deref() == Some(name));
        let workspace = self
            .workspaces
            .by_name
            .get(name)
            .map(|p| &self.manifests[self.workspaces.packages[*p].manifest]);
        if let Some(manifest) = workspace.or(own) {
            let subpath = if rest.is_empty() {
                ".".to_owned()
            } else {
                format!("./{rest}")
            };
            let itself = own.is_some_and(|own| std::ptr::eq(own, manifest));
            if itself && self.publishes_declaration(manifest, &subpath, mode, &accepts) {
                return Resolution::External {
                    package: name.to_owned(),
                };
            }
            return self.resolve_in_package(manifest, &subpath, mode, &accepts);
        }
        if alias_missed {
            return Resolution::Unresolved(UnresolvedReason::MissingFile);
        }
        Resolution::External {
            package: name.to_owned(),
        }
    }

    /// Whether a subpath of a package, imported by a file of that same package, first reaches
    /// a declaration file that is on disk, as the checker finds it: `exports` targets in
    /// order (else the entry fields), each as written or as the declaration beside an emitted
    /// `.js`. Such an import names the package as published — a build, a separate copy of the
    /// code — so it is external; without declarations on disk (a repository whose builds are
    /// ignored) it reaches the sources like any other.
    fn publishes_declaration(
        &self,
        manifest: &Manifest,
        subpath: &str,
        mode: Mode,
        accepts: &dyn Fn(&str) -> bool,
    ) -> bool {
        if self.declarations.is_empty() {
            return false;
        }
        let targets = match &manifest.exports {
            Some(exports) if mode != Mode::Node10 => {
                match lookup_exports(exports, subpath, accepts) {
                    MapLookup::Targets(targets) => targets,
                    MapLookup::Excluded | MapLookup::NoEntry => return false,
                }
            }
            _ if subpath == "." => manifest.entries.clone(),
            _ => vec![subpath.to_owned()],
        };
        for target in &targets {
            let Some(path) = join(&manifest.folder, target) else {
                continue;
            };
            if self.declarations.contains(path.as_str()) {
                return true;
            }
            if declaration_beside(&path).is_some_and(|d| self.declarations.contains(d.as_str())) {
                return true;
            }
            if self.lookup(&path).is_some() {
                return false;
            }
        }
        false
    }

    /// `#name` through the `imports` of the importer's package scope.
    fn resolve_import_map(
        &self,
        specifier: &str,
        facts: &FileFacts,
        accepts: &dyn Fn(&str) -> bool,
    ) -> Resolution {
        let Some(scope) = facts.scope.map(|m| &self.manifests[m as usize]) else {
            return Resolution::Unresolved(UnresolvedReason::NotExported);
        };
        let Some(imports) = &scope.imports else {
            return Resolution::Unresolved(UnresolvedReason::NotExported);
        };
        let targets = match lookup_imports(imports, specifier, accepts) {
            MapLookup::Targets(targets) => targets,
            MapLookup::Excluded | MapLookup::NoEntry => {
                return Resolution::Unresolved(UnresolvedReason::NotExported);
            }
        };
        let mut scratch = String::new();
        for target in &targets {
            if is_relative(target) {
                if let Some(found) = self.find_package_target(&scope.folder, target, &mut scratch) {
                    return Resolution::File(found.to_owned());
                }
            } else if !target.starts_with('#') {
                // A bare target names a package (a dependency or a workspace package).
                let resolved = self.resolve_bare(target, facts, false);
                if !matches!(resolved, Resolution::Unresolved(_)) {
                    return resolved;
                }
            }
        }
        Resolution::Unresolved(UnresolvedReason::MissingFile)
    }

    /// A subpath (`.` or `./x`) of a package found by name.
    fn resolve_in_package(
        &self,
        manifest: &Manifest,
        subpath: &str,
        mode: Mode,
        accepts: &dyn Fn(&str) -> bool,
    ) -> Resolution {
        let mut scratch = String::new();
        if mode != Mode::Node10
            && let Some(exports) = &manifest.exports
        {
            return self.through_exports(manifest, exports, subpath, accepts);
        }
        let found = if subpath == "." {
            manifest
                .entries
                .iter()
                .find_map(|entry| self.find_package_target(&manifest.folder, entry, &mut scratch))
                .or_else(|| self.find_package_target(&manifest.folder, "./index", &mut scratch))
        } else {
            self.find_package_target(&manifest.folder, subpath, &mut scratch)
        };
        if let Some(found) = found {
            return Resolution::File(found.to_owned());
        }
        // node10 ignores `exports`; a package that has nothing else is still meant to be
        // reached through it.
        if let Some(exports) = &manifest.exports {
            return self.through_exports(manifest, exports, subpath, accepts);
        }
        Resolution::Unresolved(missing_reason(subpath))
    }

    fn through_exports(
        &self,
        manifest: &Manifest,
        exports: &serde_json::Value,
        subpath: &str,
        accepts: &dyn Fn(&str) -> bool,
    ) -> Resolution {
        let targets = match lookup_exports(exports, subpath, accepts) {
            MapLookup::Targets(targets) => targets,
            MapLookup::Excluded | MapLookup::NoEntry => {
                return Resolution::Unresolved(UnresolvedReason::NotExported);
            }
        };
        let mut scratch = String::new();
        targets
            .iter()
            .find_map(|target| self.find_package_target(&manifest.folder, target, &mut scratch))
            .map_or(
                Resolution::Unresolved(UnresolvedReason::MissingFile),
                |found| Resolution::File(found.to_owned()),
            )
    }

    /// A path named by a package (an `exports`/`imports` target, a `main` field, a deep
    /// import): the file, else the source of the build output it names (by outDir→rootDir,
    /// then the `src/` file of the same relative path, dropping up to two leading folders:
    /// `dist/esm/index.js` → `src/index.ts`).
    fn find_package_target<'m>(
        &'m self,
        folder: &str,
        target: &str,
        scratch: &mut String,
    ) -> Option<&'m str> {
        let path = join(folder, target)?;
        if let Some(found) = self.find_module(&path, scratch, 0) {
            return Some(found);
        }
        let relative = strip_dir(&path, folder)?;
        let mut rest = relative;
        for dropped in 0..=2 {
            if dropped > 0 {
                rest = rest.split_once('/')?.1;
            } else if rest.starts_with("src/") {
                continue;
            }
            let candidate = child(&child(folder, "src"), rest);
            if let Some(found) = self.find_file(&candidate, scratch) {
                return Some(found);
            }
        }
        None
    }

    /// A module path: its source through an outDir, else the file, else the folder.
    pub(crate) fn find_module<'m>(
        &'m self,
        path: &str,
        scratch: &mut String,
        depth: u8,
    ) -> Option<&'m str> {
        if depth > MAX_DEPTH {
            return None;
        }
        if !self.out_dirs.is_empty()
            && let Some(found) = self.find_through_out_dir(path, scratch, depth)
        {
            return Some(found);
        }
        self.find_file(path, scratch)
            .or_else(|| self.find_in_folder(path, scratch, depth))
    }

    fn find_through_out_dir<'m>(
        &'m self,
        path: &str,
        scratch: &mut String,
        depth: u8,
    ) -> Option<&'m str> {
        for folder in ancestors(path) {
            if folder.is_empty() {
                break;
            }
            let Some(root_dir) = self.out_dirs.get(folder) else {
                continue;
            };
            let rest = strip_dir(path, folder)?;
            let mapped = if rest.is_empty() {
                root_dir.clone()
            } else {
                child(root_dir, rest)
            };
            return self
                .find_file(&mapped, scratch)
                .or_else(|| self.find_in_folder(&mapped, scratch, depth));
        }
        None
    }

    /// A file path: emitted extensions mapped to sources, the file itself, then extensions
    /// added.
    fn find_file<'m>(&'m self, path: &str, scratch: &mut String) -> Option<&'m str> {
        if let Some((emitted, sources, lenient)) = SOURCE_FOR_EMITTED
            .iter()
            .find(|(emitted, _, _)| path.ends_with(emitted))
        {
            let stem = &path[..path.len() - emitted.len()];
            return sources
                .iter()
                .find_map(|ext| self.lookup_with(stem, ext, scratch))
                .or_else(|| self.lookup(path))
                .or_else(|| {
                    lenient
                        .iter()
                        .find_map(|ext| self.lookup_with(stem, ext, scratch))
                });
        }
        self.lookup(path).or_else(|| {
            TRY_EXTENSIONS
                .iter()
                .find_map(|ext| self.lookup_with(path, ext, scratch))
        })
    }

    /// A folder: its package.json `types`/`typings`/`main`/`module`, then its `index` file.
    fn find_in_folder<'m>(
        &'m self,
        path: &str,
        scratch: &mut String,
        depth: u8,
    ) -> Option<&'m str> {
        if let Some(&manifest) = self.manifest_by_folder.get(path) {
            for entry in &self.manifests[manifest as usize].entries {
                if let Some(target) = join(path, entry)
                    && target != path
                    && let Some(found) = self.find_module(&target, scratch, depth + 1)
                {
                    return Some(found);
                }
            }
        }
        let index = child(path, "index");
        TRY_EXTENSIONS
            .iter()
            .find_map(|ext| self.lookup_with(&index, ext, scratch))
    }

    fn lookup(&self, path: &str) -> Option<&str> {
        self.files.get_key_value(path).map(|(key, _)| &**key)
    }

    fn lookup_with<'m>(&'m self, stem: &str, ext: &str, scratch: &mut String) -> Option<&'m str> {
        scratch.clear();
        scratch.push_str(stem);
        scratch.push_str(ext);
        self.lookup(scratch)
    }
}

fn is_relative(specifier: &str) -> bool {
    specifier.starts_with("./")
        || specifier.starts_with("../")
        || specifier == "."
        || specifier == ".."
}

/// Whether `name` can be an npm package name (so a bare specifier can be external).
fn is_package_name(name: &str) -> bool {
    let bare = match name.strip_prefix('@') {
        Some(scoped) => match scoped.split_once('/') {
            Some((scope, package)) if !scope.is_empty() && !package.is_empty() => package,
            _ => return false,
        },
        None => name,
    };
    !bare.is_empty()
        && !bare.starts_with(['.', '_'])
        && !name.contains(|c: char| c.is_whitespace() || "~'!()*\\:".contains(c))
}

/// Why a path that led nowhere failed: a non-source extension, else a missing file.
fn missing_reason(specifier: &str) -> UnresolvedReason {
    let name = file_name(specifier);
    let is_asset = ASSET_EXTENSIONS.iter().any(|ext| {
        name.len() > ext.len() + 1
            && name.ends_with(ext)
            && name.as_bytes()[name.len() - ext.len() - 1] == b'.'
    });
    if is_asset {
        UnresolvedReason::NotSource
    } else {
        UnresolvedReason::MissingFile
    }
}
