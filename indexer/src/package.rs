//! Package and module names: the nearest package.json above a file gives the package name;
//! its folder, relative to the project root, is the module.

use std::collections::HashMap;
use std::path::Path;

/// The package a file belongs to.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct PackageInfo {
    /// The package folder relative to the root (`.` for the root).
    pub(crate) module: String,
    /// The `name` of its package.json, empty without one.
    pub(crate) name: String,
}

/// Finds and caches package.json files by folder.
pub(crate) struct Packages<'r> {
    root: &'r Path,
    by_dir: HashMap<String, PackageInfo>,
}

impl<'r> Packages<'r> {
    pub(crate) fn new(root: &'r Path) -> Packages<'r> {
        Packages {
            root,
            by_dir: HashMap::new(),
        }
    }

    /// The package of the file at `relative` (a path relative to the root).
    pub(crate) fn of_file(&mut self, relative: &str) -> PackageInfo {
        let dir = relative.rsplit_once('/').map(|(dir, _)| dir).unwrap_or("");
        self.of_dir(dir)
    }

    fn of_dir(&mut self, dir: &str) -> PackageInfo {
        if let Some(found) = self.by_dir.get(dir) {
            return found.clone();
        }
        let manifest = self.root.join(dir).join("package.json");
        let info = match std::fs::read(&manifest) {
            Ok(bytes) => PackageInfo {
                module: if dir.is_empty() {
                    ".".to_owned()
                } else {
                    dir.to_owned()
                },
                name: serde_json::from_slice::<serde_json::Value>(&bytes)
                    .ok()
                    .and_then(|v| v.get("name").and_then(|n| n.as_str()).map(str::to_owned))
                    .unwrap_or_default(),
            },
            Err(_) if dir.is_empty() => PackageInfo {
                module: ".".to_owned(),
                name: String::new(),
            },
            Err(_) => {
                let parent = dir.rsplit_once('/').map(|(p, _)| p).unwrap_or("");
                self.of_dir(parent)
            }
        };
        self.by_dir.insert(dir.to_owned(), info.clone());
        info
    }
}
