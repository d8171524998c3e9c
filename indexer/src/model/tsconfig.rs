//! tsconfig.json / jsconfig.json: reading (JSONC), following `extends` (relative paths,
//! packages in node_modules or in the workspace, arrays of bases), merging the way tsc does
//! (each compiler option replaced whole, later bases over earlier ones and the config over
//! its bases; `files`/`include`/`exclude` taken from the nearest config that has them;
//! `references` never inherited; relative paths resolved against the config that wrote them,
//! `${configDir}` against the config being loaded), and reducing the result to the options
//! that resolution needs.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::{Map, Value};

use super::exports::{MapLookup, lookup_exports};
use super::include::Claims;
use super::jsonc::{line_of, parse_jsonc, parse_jsonc_lenient};
use super::paths::{ancestors, child, join, parent};
use super::source::{Fetched, Source};
use super::{Mode, ModelWarning};

/// A config as loaded for resolution: options merged along its `extends` chain, paths made
/// project-relative.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Config {
    /// The config file, project-relative.
    pub(crate) path: String,
    /// Its folder.
    pub(crate) dir: String,
    pub(crate) mode: Mode,
    /// `customConditions`.
    pub(crate) conditions: Vec<String>,
    /// `baseUrl`, project-relative.
    pub(crate) base_url: Option<String>,
    /// `paths`, in declaration order.
    pub(crate) paths: Vec<PathRule>,
    /// `rootDirs`, project-relative.
    pub(crate) root_dirs: Vec<String>,
    /// `rootDir`, project-relative.
    pub(crate) root_dir: Option<String>,
    /// `outDir` and `declarationDir`, project-relative.
    pub(crate) out_dirs: Vec<String>,
    pub(crate) claims: Claims,
    /// Paths of the configs in `references`.
    pub(crate) references: Vec<String>,
}

/// One `paths` entry.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct PathRule {
    /// The pattern as written (`@app/*`, `utils`).
    pub(crate) pattern: String,
    /// The config file that declared it (for warnings).
    pub(crate) declared_in: String,
    /// Project-relative targets, `*` kept for substitution.
    pub(crate) targets: Vec<String>,
}

impl PathRule {
    /// What `*` stands for when `specifier` matches this pattern (`""` for an exact match).
    fn matches<'s>(&self, specifier: &'s str) -> Option<&'s str> {
        if self.pattern.contains('*') {
            super::paths::wildcard_capture(&self.pattern, specifier)
        } else {
            (self.pattern == specifier).then_some("")
        }
    }

    /// Whether this is the catch-all `*` pattern, which maps every bare specifier.
    pub(crate) fn is_catch_all(&self) -> bool {
        self.pattern == "*"
    }
}

impl Config {
    /// The `paths` rule tsc picks for `specifier`: an exact pattern, else the `*` pattern with
    /// the longest prefix; with what `*` matched.
    pub(crate) fn match_paths<'s>(&self, specifier: &'s str) -> Option<(&PathRule, &'s str)> {
        if let Some(rule) = self
            .paths
            .iter()
            .find(|rule| !rule.pattern.contains('*') && rule.pattern == specifier)
        {
            return Some((rule, ""));
        }
        let mut best: Option<(&PathRule, &str, usize)> = None;
        for rule in &self.paths {
            let Some((prefix, _)) = rule.pattern.split_once('*') else {
                continue;
            };
            if let Some(star) = rule.matches(specifier)
                && best.is_none_or(|(_, _, len)| prefix.len() > len)
            {
                best = Some((rule, star, prefix.len()));
            }
        }
        best.map(|(rule, star, _)| (rule, star))
    }
}

/// Who pointed at a config (a `references` entry, a ts-graph-mcp package): the file and the
/// key path of the property, for warnings.
#[derive(Debug, Clone)]
pub(crate) struct Referrer {
    pub(crate) file: String,
    pub(crate) at: Vec<String>,
}

/// A config file as read, before merging.
struct RawConfig {
    path: Rc<str>,
    text: String,
    object: Map<String, Value>,
}

/// A value and the config file it came from.
#[derive(Clone)]
struct Origin<T> {
    value: T,
    from: Rc<str>,
}

/// A config merged with its bases, paths still as written.
#[derive(Default, Clone)]
struct Layer {
    /// Compiler options by lower-cased name (tsc matches option names case-insensitively).
    options: HashMap<String, Origin<Value>>,
    files: Option<Origin<Value>>,
    include: Option<Origin<Value>>,
    exclude: Option<Origin<Value>>,
}

/// How reading a config file went (memoised per path).
enum RawState {
    Loaded(Rc<RawConfig>),
    Missing,
    Outside,
    /// Unreadable or invalid: already warned about.
    Broken,
}

/// Loads and merges configs, reading each file once.
pub(crate) struct ConfigLoader<'s> {
    source: &'s mut dyn Source,
    raw: HashMap<String, RawState>,
    layers: HashMap<String, Option<Layer>>,
    /// Workspace package name → folder, for `extends` through an in-repo config package.
    workspace: HashMap<String, String>,
    pnp: bool,
    pub(crate) warnings: Vec<ModelWarning>,
}

impl<'s> ConfigLoader<'s> {
    pub(crate) fn new(
        source: &'s mut dyn Source,
        workspace: HashMap<String, String>,
        pnp: bool,
    ) -> ConfigLoader<'s> {
        ConfigLoader {
            source,
            raw: HashMap::new(),
            layers: HashMap::new(),
            workspace,
            pnp,
            warnings: Vec::new(),
        }
    }

    /// The text of a config file already read (for warning lines).
    pub(crate) fn text_of(&self, path: &str) -> Option<&str> {
        match self.raw.get(path) {
            Some(RawState::Loaded(raw)) => Some(&raw.text),
            _ => None,
        }
    }

    /// Whether a config file can be read (reading and memoising it).
    pub(crate) fn exists(&mut self, path: &str) -> bool {
        matches!(self.read(path), RawState::Loaded(_))
    }

    /// Loads the config at `path` as a project. `None` (with a warning where due) when it
    /// cannot be read; `referrer` names who pointed at it, for the warning.
    pub(crate) fn load(&mut self, path: &str, referrer: Option<&Referrer>) -> Option<Config> {
        let raw = match self.read(path) {
            RawState::Loaded(raw) => Rc::clone(raw),
            RawState::Missing => {
                if let Some(referrer) = referrer {
                    let message = format!("`{path}` does not exist");
                    self.warn_at(&referrer.file, &referrer.at, message);
                }
                return None;
            }
            RawState::Outside => {
                let (file, at) = match referrer {
                    Some(referrer) => (referrer.file.as_str(), referrer.at.as_slice()),
                    None => (path, &[][..]),
                };
                let message = format!("`{path}` resolves outside the project root; not read");
                let file = file.to_owned();
                let at = at.to_vec();
                self.warn_at(&file, &at, message);
                return None;
            }
            RawState::Broken => return None,
        };
        let layer = self
            .layer(raw.path.as_ref(), &mut Vec::new())
            .unwrap_or_default();
        Some(self.effective(&raw, &layer))
    }

    fn read(&mut self, path: &str) -> &RawState {
        if !self.raw.contains_key(path) {
            let state = match self.source.fetch(path) {
                Fetched::Text(text) => self.parse(path, text),
                Fetched::Missing => RawState::Missing,
                Fetched::Outside => RawState::Outside,
                Fetched::Failed(reason) => {
                    self.warn(path, None, format!("cannot be read: {reason}"));
                    RawState::Broken
                }
            };
            self.raw.insert(path.to_owned(), state);
        }
        &self.raw[path]
    }

    fn parse(&mut self, path: &str, text: String) -> RawState {
        let read = parse_jsonc_lenient(&text);
        if let Some(problem) = read.problem {
            let outcome = if read.value.is_some() {
                "read as far as possible"
            } else {
                "defaults used"
            };
            self.warn(
                path,
                problem.line,
                format!("{}; {outcome}", problem.message),
            );
        }
        match read.value {
            Some(Value::Object(object)) => RawState::Loaded(Rc::new(RawConfig {
                path: Rc::from(path),
                text,
                object,
            })),
            Some(_) => {
                self.warn(path, Some(1), "is not a JSON object; ignored".to_owned());
                RawState::Broken
            }
            None => RawState::Broken,
        }
    }

    /// The config at `path` merged with its bases; `None` if it cannot be read or closes an
    /// `extends` cycle (warned about once, at the config whose `extends` closes it).
    fn layer(&mut self, path: &str, chain: &mut Vec<String>) -> Option<Layer> {
        if let Some(done) = self.layers.get(path) {
            return done.clone();
        }
        let raw = match self.read(path) {
            RawState::Loaded(raw) => Rc::clone(raw),
            _ => return None,
        };
        chain.push(path.to_owned());
        let mut layer = Layer::default();
        let extends: Vec<(String, Vec<String>)> = match raw.object.get("extends") {
            Some(Value::String(base)) => vec![(base.clone(), vec!["extends".to_owned()])],
            Some(Value::Array(bases)) => bases
                .iter()
                .enumerate()
                .filter_map(|(i, base)| {
                    Some((
                        base.as_str()?.to_owned(),
                        vec!["extends".to_owned(), i.to_string()],
                    ))
                })
                .collect(),
            _ => Vec::new(),
        };
        for (spec, at) in extends {
            let Some(base_path) = self.resolve_extends(path, &spec, &at) else {
                continue;
            };
            if let Some(start) = chain.iter().position(|p| *p == base_path) {
                let mut cycle: Vec<&str> = chain[start..].iter().map(String::as_str).collect();
                cycle.push(&base_path);
                let message = format!(
                    "extends cycle: {}; the cycle is cut here",
                    cycle.join(" → ")
                );
                self.warn_at(path, &at, message);
                continue;
            }
            if let Some(base) = self.layer(&base_path, chain) {
                layer.options.extend(base.options);
                for (mine, theirs) in [
                    (&mut layer.files, base.files),
                    (&mut layer.include, base.include),
                    (&mut layer.exclude, base.exclude),
                ] {
                    if theirs.is_some() {
                        *mine = theirs;
                    }
                }
            }
        }
        let from: Rc<str> = Rc::clone(&raw.path);
        if let Some(Value::Object(options)) = raw.object.get("compilerOptions") {
            for (name, value) in options {
                let origin = Origin {
                    value: value.clone(),
                    from: Rc::clone(&from),
                };
                layer.options.insert(name.to_ascii_lowercase(), origin);
            }
        }
        for (key, slot) in [
            ("files", &mut layer.files),
            ("include", &mut layer.include),
            ("exclude", &mut layer.exclude),
        ] {
            if let Some(value) = raw.object.get(key) {
                *slot = Some(Origin {
                    value: value.clone(),
                    from: Rc::clone(&from),
                });
            }
        }
        chain.pop();
        self.layers.insert(path.to_owned(), Some(layer.clone()));
        Some(layer)
    }

    /// Finds the file an `extends` entry names, the way tsc does: a relative path (with
    /// `.json` added when missing), else a package looked up in node_modules folders from the
    /// config's folder upwards, then among the workspace packages.
    fn resolve_extends(&mut self, from: &str, spec: &str, at: &[String]) -> Option<String> {
        let relative = spec.starts_with("./")
            || spec.starts_with("../")
            || spec == "."
            || spec == ".."
            || spec.starts_with('/');
        let candidates = if relative {
            let Some(path) = join(parent(from), spec) else {
                let message = format!("extends `{spec}`: outside the project root; not read");
                self.warn_at(from, at, message);
                return None;
            };
            let mut candidates = vec![path.clone()];
            if !path.ends_with(".json") {
                candidates.push(format!("{path}.json"));
            }
            candidates
        } else {
            let (name, subpath) = split_bare(spec);
            let mut folders: Vec<String> = ancestors(parent(from))
                .map(|folder| child(folder, &format!("node_modules/{name}")))
                .collect();
            folders.extend(self.workspace.get(name).cloned());
            folders
                .iter()
                .flat_map(|folder| self.package_config_candidates(folder, subpath))
                .collect()
        };
        for candidate in candidates {
            match self.read(&candidate) {
                RawState::Loaded(_) | RawState::Broken => return Some(candidate),
                RawState::Outside => {
                    let message =
                        format!("extends `{spec}`: resolves outside the project root; not read");
                    self.warn_at(from, at, message);
                    return None;
                }
                RawState::Missing => {}
            }
        }
        let message = if relative {
            format!("extends `{spec}`: no such file; its options are missing")
        } else if self.pnp {
            format!(
                "extends `{spec}`: package config not found (Yarn PnP keeps packages in its \
                 cache, which is not read); its options are missing"
            )
        } else {
            format!("extends `{spec}`: package config not found; its options are missing")
        };
        self.warn_at(from, at, message);
        None
    }

    /// The files an `extends` naming `folder` (a package) plus `subpath` may mean: what the
    /// package's `exports` map gives for the subpath (conditions `node`, `require`, `types`,
    /// `default`, as tsc resolves extends), else the path itself (`.json` added), else for
    /// the package root its `tsconfig` field and its tsconfig.json.
    fn package_config_candidates(&mut self, folder: &str, subpath: &str) -> Vec<String> {
        let manifest = match self.source.fetch(&child(folder, "package.json")) {
            Fetched::Text(text) => match parse_jsonc(&text) {
                Ok(Value::Object(manifest)) => Some(manifest),
                _ => None,
            },
            _ => None,
        };
        let mut candidates = Vec::new();
        if let Some(exports) = manifest.as_ref().and_then(|m| m.get("exports")) {
            let key = if subpath.is_empty() {
                ".".to_owned()
            } else {
                format!("./{subpath}")
            };
            let accepts = |condition: &str| matches!(condition, "node" | "require" | "types");
            if let MapLookup::Targets(targets) = lookup_exports(exports, &key, &accepts) {
                candidates.extend(targets.iter().filter_map(|target| join(folder, target)));
            }
        }
        if !subpath.is_empty() {
            let path = child(folder, subpath);
            if !path.ends_with(".json") {
                candidates.push(path.clone());
                candidates.push(format!("{path}.json"));
                candidates.push(format!("{path}/tsconfig.json"));
            } else {
                candidates.push(path);
            }
            return candidates;
        }
        if let Some(Value::String(field)) = manifest.as_ref().and_then(|m| m.get("tsconfig"))
            && let Some(path) = join(folder, field)
        {
            candidates.push(path);
        }
        candidates.push(child(folder, "tsconfig.json"));
        candidates
    }

    /// Reduces a merged layer to a [`Config`] for the config at `raw`.
    fn effective(&mut self, raw: &RawConfig, layer: &Layer) -> Config {
        let path = raw.path.to_string();
        let dir = parent(&path).to_owned();
        let option = |name: &str| layer.options.get(name);
        let text_option = |name: &str| {
            option(name).and_then(|o| o.value.as_str().map(|s| (s.to_owned(), Rc::clone(&o.from))))
        };
        // Paths that climb above the root, reported once the config is built.
        let outside: RefCell<Vec<(String, String)>> = RefCell::new(Vec::new());
        let resolve = |value: &str, from: &str| -> Option<String> {
            let resolved = match value.strip_prefix("${configDir}") {
                Some(rest) => join(&dir, rest.trim_start_matches('/')),
                None => join(parent(from), value),
            };
            if resolved.is_none() {
                outside
                    .borrow_mut()
                    .push((from.to_owned(), value.to_owned()));
            }
            resolved
        };
        let base_url = text_option("baseurl").and_then(|(v, from)| resolve(&v, &from));
        let mut paths = Vec::new();
        if let Some(origin) = option("paths")
            && let Value::Object(map) = &origin.value
        {
            for (pattern, targets) in map {
                let targets = targets
                    .as_array()
                    .map(|items| items.iter().filter_map(Value::as_str).collect::<Vec<_>>())
                    .unwrap_or_default();
                let targets = targets
                    .into_iter()
                    .filter_map(
                        |target| match (&base_url, target.starts_with("${configDir}")) {
                            (Some(base), false) => {
                                let joined = join(base, target);
                                if joined.is_none() {
                                    let from = origin.from.to_string();
                                    outside.borrow_mut().push((from, target.to_owned()));
                                }
                                joined
                            }
                            _ => resolve(target, &origin.from),
                        },
                    )
                    .collect();
                paths.push(PathRule {
                    pattern: pattern.clone(),
                    declared_in: origin.from.to_string(),
                    targets,
                });
            }
        }
        let list = |name: &str| -> Vec<(String, Rc<str>)> {
            option(name)
                .and_then(|o| {
                    let items = o.value.as_array()?;
                    Some(
                        items
                            .iter()
                            .filter_map(Value::as_str)
                            .map(|s| (s.to_owned(), Rc::clone(&o.from)))
                            .collect(),
                    )
                })
                .unwrap_or_default()
        };
        let root_dirs = list("rootdirs")
            .into_iter()
            .filter_map(|(v, from)| resolve(&v, &from))
            .collect();
        let root_dir = text_option("rootdir").and_then(|(v, from)| resolve(&v, &from));
        let out_dirs: Vec<String> = ["outdir", "declarationdir"]
            .iter()
            .filter_map(|name| text_option(name))
            .filter_map(|(v, from)| resolve(&v, &from))
            .collect();
        let conditions = list("customconditions")
            .into_iter()
            .map(|(v, _)| v)
            .collect();
        let word = |name: &str| {
            option(name)
                .and_then(|o| o.value.as_str())
                .map(str::to_ascii_lowercase)
        };
        let mode = Mode::from_options(
            word("moduleresolution").as_deref(),
            word("module").as_deref(),
        );
        let is_jsconfig = super::paths::file_name(&path).starts_with("jsconfig");
        let allow_js = option("allowjs")
            .and_then(|o| o.value.as_bool())
            .unwrap_or(is_jsconfig);

        let patterns = |origin: &Option<Origin<Value>>| -> Option<Vec<String>> {
            let origin = origin.as_ref()?;
            let items = origin.value.as_array()?;
            Some(
                items
                    .iter()
                    .filter_map(Value::as_str)
                    .filter_map(|p| resolve(p, &origin.from))
                    .collect(),
            )
        };
        let files = patterns(&layer.files);
        let include =
            patterns(&layer.include).or_else(|| files.is_none().then(|| vec![dir.clone()]));
        let exclude = patterns(&layer.exclude).unwrap_or_else(|| {
            let mut defaults: Vec<String> = ["node_modules", "bower_components", "jspm_packages"]
                .iter()
                .map(|name| child(&dir, name))
                .collect();
            defaults.extend(out_dirs.iter().cloned());
            defaults
        });
        let (claims, errors) = Claims::new(files.unwrap_or_default(), include, exclude, allow_js);
        for (pattern, error) in errors {
            self.warn(&path, None, format!("pattern `{pattern}`: {error}"));
        }
        for (from, value) in outside.take() {
            self.warn(
                &from,
                None,
                format!("`{value}` points outside the project root; ignored"),
            );
        }
        let references = match raw.object.get("references") {
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .filter_map(|(i, item)| {
                    let target = item.get("path")?.as_str()?;
                    let Some(joined) = join(&dir, target) else {
                        self.warn_at(
                            &path,
                            &["references".into(), i.to_string()],
                            format!(
                                "reference `{target}` points outside the project root; ignored"
                            ),
                        );
                        return None;
                    };
                    Some(if joined.ends_with(".json") {
                        joined
                    } else {
                        child(&joined, "tsconfig.json")
                    })
                })
                .collect(),
            _ => Vec::new(),
        };
        Config {
            path,
            dir,
            mode,
            conditions,
            base_url,
            paths,
            root_dirs,
            root_dir,
            out_dirs,
            claims,
            references,
        }
    }

    fn warn(&mut self, file: &str, line: Option<u32>, message: String) {
        self.warnings.push(ModelWarning {
            file: file.to_owned(),
            line,
            message,
        });
    }

    /// A warning on `file` at the line of the property `at` (a key path).
    pub(crate) fn warn_at(&mut self, file: &str, at: &[String], message: String) {
        let keys: Vec<&str> = at.iter().map(String::as_str).collect();
        let line = self.text_of(file).and_then(|text| line_of(text, &keys));
        self.warn(file, line, message);
    }
}

/// Splits a bare specifier into the package name and the path inside it (`""` for none).
pub(crate) fn split_bare(spec: &str) -> (&str, &str) {
    let name_end = if spec.starts_with('@') {
        spec.match_indices('/').nth(1).map(|(i, _)| i)
    } else {
        spec.find('/')
    };
    match name_end {
        Some(end) => (&spec[..end], &spec[end + 1..]),
        None => (spec, ""),
    }
}
