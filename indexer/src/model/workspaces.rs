//! Workspace packages: the folders that npm/yarn `workspaces` (array or `{packages}` form,
//! nested workspace roots included), `pnpm-workspace.yaml` and `lerna.json` name with globs
//! (`!` negates). Each package is importable by its package.json `name`, and belongs to a
//! group — the literal folder part of the glob that matched it (`packages/*` → `packages`),
//! which becomes the `module` of its files.

use std::collections::{HashMap, HashSet, VecDeque};

use globset::{GlobBuilder, GlobMatcher};
use saphyr::{LoadableYamlNode, Yaml};

use super::ModelWarning;
use super::jsonc::line_of;
use super::package_json::Manifest;
use super::paths::{display_dir, join, strip_dir};

/// A declaration of workspace globs.
pub(crate) struct Declaration {
    /// The folder the globs are relative to.
    pub(crate) folder: String,
    /// The file that declared them (for warnings).
    pub(crate) file: String,
    pub(crate) globs: Vec<String>,
}

/// One workspace package.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct WorkspacePackage {
    /// Index of its manifest.
    pub(crate) manifest: usize,
    /// Its group (`packages`, `apps`, `modules/app/packages`), `.` for the root.
    pub(crate) group: String,
}

/// The workspace packages of a project.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Workspaces {
    pub(crate) packages: Vec<WorkspacePackage>,
    /// Package name → index into `packages` (the first folder, in path order, wins).
    pub(crate) by_name: HashMap<String, usize>,
    /// Manifest index → index into `packages`.
    pub(crate) by_manifest: HashMap<usize, usize>,
}

/// One compiled workspace glob.
struct Pattern {
    matcher: GlobMatcher,
    negated: bool,
    /// The folder part before the first wildcard.
    group: String,
}

/// Finds the workspace packages among `manifests` (sorted by folder).
pub(crate) fn discover(
    manifests: &[Manifest],
    roots: Vec<Declaration>,
    warnings: &mut Vec<ModelWarning>,
) -> Workspaces {
    let mut found = Workspaces::default();
    let mut queue: VecDeque<Declaration> = roots.into();
    let mut declared: HashSet<String> = HashSet::new();
    while let Some(declaration) = queue.pop_front() {
        let patterns = compile(&declaration, warnings);
        for (index, manifest) in manifests.iter().enumerate() {
            if found.by_manifest.contains_key(&index) {
                continue;
            }
            let Some(relative) = strip_dir(&manifest.folder, &declaration.folder) else {
                continue;
            };
            if relative.is_empty() {
                continue;
            }
            let matched = patterns
                .iter()
                .find(|p| !p.negated && p.matcher.is_match(relative));
            let excluded = patterns
                .iter()
                .any(|p| p.negated && p.matcher.is_match(relative));
            let Some(pattern) = matched.filter(|_| !excluded) else {
                continue;
            };
            let group = join(&declaration.folder, &pattern.group).unwrap_or_default();
            found.by_manifest.insert(index, found.packages.len());
            found.packages.push(WorkspacePackage {
                manifest: index,
                group: display_dir(&group).to_owned(),
            });
            // A workspace that declares workspaces of its own is a nested worktree (Yarn).
            if !manifest.workspaces.is_empty() && declared.insert(manifest.folder.clone()) {
                queue.push_back(Declaration {
                    folder: manifest.folder.clone(),
                    file: manifest.path.clone(),
                    globs: manifest.workspaces.clone(),
                });
            }
        }
    }
    found.packages.sort_by(|a, b| {
        manifests[a.manifest]
            .folder
            .cmp(&manifests[b.manifest].folder)
    });
    found.by_manifest = found
        .packages
        .iter()
        .enumerate()
        .map(|(i, p)| (p.manifest, i))
        .collect();
    for (index, package) in found.packages.iter().enumerate() {
        let manifest = &manifests[package.manifest];
        let Some(name) = &manifest.name else {
            continue;
        };
        if let Some(first) = found.by_name.get(name) {
            let first = &manifests[found.packages[*first].manifest];
            warnings.push(ModelWarning {
                file: manifest.path.clone(),
                line: line_of(&manifest.text, &["name"]),
                message: format!(
                    "package name `{name}` is also claimed by {}; imports of it resolve there",
                    first.path
                ),
            });
        } else {
            found.by_name.insert(name.clone(), index);
        }
    }
    found
}

fn compile(declaration: &Declaration, warnings: &mut Vec<ModelWarning>) -> Vec<Pattern> {
    let mut patterns = Vec::new();
    for glob in &declaration.globs {
        let (negated, text) = match glob.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, glob.as_str()),
        };
        let text = text.trim_start_matches("./").trim_end_matches('/');
        match GlobBuilder::new(text).literal_separator(true).build() {
            Ok(glob) => patterns.push(Pattern {
                matcher: glob.compile_matcher(),
                negated,
                group: literal_folder(text),
            }),
            Err(err) => warnings.push(ModelWarning {
                file: declaration.file.clone(),
                line: None,
                message: format!("workspace glob `{glob}`: {}", err.kind()),
            }),
        }
    }
    patterns
}

/// The folder part of a workspace glob before its first wildcard; for a glob without one
/// (a single package folder), that folder's parent.
fn literal_folder(glob: &str) -> String {
    let segments: Vec<&str> = glob.split('/').collect();
    let literal = segments
        .iter()
        .position(|s| s.contains(['*', '?', '[', '{']))
        .unwrap_or(segments.len().saturating_sub(1));
    segments[..literal].join("/")
}

/// Reads the `packages` globs of a pnpm-workspace.yaml.
pub(crate) fn parse_pnpm(text: &str) -> Result<Vec<String>, (Option<u32>, String)> {
    let documents = Yaml::load_from_str(text).map_err(|err| {
        let line = u32::try_from(err.marker().line()).ok();
        (line, format!("invalid YAML: {}", err.info()))
    })?;
    let Some(document) = documents.first() else {
        return Ok(Vec::new());
    };
    if document.is_null() {
        return Ok(Vec::new());
    }
    if !document.is_mapping() {
        return Err((Some(1), "is not a YAML mapping; ignored".to_owned()));
    }
    let Some(list) = document.as_mapping_get("packages") else {
        return Ok(Vec::new());
    };
    if list.is_null() {
        return Ok(Vec::new());
    }
    let Some(items) = list.as_sequence() else {
        return Err((None, "`packages` is not a list; ignored".to_owned()));
    };
    let globs: Vec<String> = items
        .iter()
        .filter_map(|item| item.as_str())
        .map(str::to_owned)
        .collect();
    if globs.len() == items.len() {
        Ok(globs)
    } else {
        Err((
            None,
            "`packages` holds something other than strings".to_owned(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_folder_of_globs() {
        let rows = [
            ("packages/*", "packages"),
            ("libs/**", "libs"),
            ("modules/app/packages/*", "modules/app/packages"),
            ("apps/web", "apps"),
            ("tool", ""),
            ("*", ""),
        ];
        for (glob, expected) in rows {
            assert_eq!(literal_folder(glob), expected, "{glob}");
        }
    }

    #[test]
    fn pnpm_yaml_forms() {
        assert_eq!(
            parse_pnpm("packages:\n  - 'packages/*'\n  - \"!**/test/**\"\n").unwrap(),
            ["packages/*", "!**/test/**"]
        );
        assert_eq!(parse_pnpm("").unwrap(), Vec::<String>::new());
        let (line, message) = parse_pnpm("packages:\n  - a\n - : [\n").unwrap_err();
        assert!(
            line.is_some() && message.starts_with("invalid YAML"),
            "{line:?} {message}"
        );
        assert!(parse_pnpm("packages: apps/*\n").is_err());
    }
}
