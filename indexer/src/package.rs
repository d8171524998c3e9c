//! Package and module names: the nearest package.json above a file gives the package name;
//! its folder, relative to the project root, is the module. The search stops at the root, and a
//! package.json that is a symbolic link out of the root is not read.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

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
    /// The root with its symbolic links resolved, to tell where a manifest really is.
    real_root: Option<PathBuf>,
    by_dir: HashMap<String, PackageInfo>,
}

impl<'r> Packages<'r> {
    pub(crate) fn new(root: &'r Path) -> Packages<'r> {
        Packages {
            root,
            real_root: root.canonicalize().ok(),
            by_dir: HashMap::new(),
        }
    }

    /// The bytes of the manifest at `path`, unless it is missing or lies outside the root.
    fn read_manifest(&self, path: &Path) -> Option<Vec<u8>> {
        let real = path.canonicalize().ok()?;
        if !self
            .real_root
            .as_deref()
            .is_some_and(|root| real.starts_with(root))
        {
            return None;
        }
        std::fs::read(real).ok()
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
        let info = match self.read_manifest(&manifest) {
            Some(bytes) => PackageInfo {
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
            None if dir.is_empty() => PackageInfo {
                module: ".".to_owned(),
                name: String::new(),
            },
            None => {
                let parent = dir.rsplit_once('/').map(|(p, _)| p).unwrap_or("");
                self.of_dir(parent)
            }
        };
        self.by_dir.insert(dir.to_owned(), info.clone());
        info
    }
}

#[cfg(test)]
mod tests {
    use super::Packages;

    #[cfg(unix)]
    #[test]
    fn a_manifest_linked_from_outside_the_root_is_not_read() {
        let outer = tempfile::tempdir().expect("temp dir");
        let root = outer.path().join("project");
        std::fs::create_dir_all(root.join("pkg/src")).expect("create");
        std::fs::create_dir_all(root.join("inner")).expect("create");
        std::fs::write(outer.path().join("package.json"), r#"{"name":"outside"}"#).expect("write");
        std::fs::write(root.join("package.json"), r#"{"name":"app"}"#).expect("write");
        std::fs::write(root.join("inner/package.json"), r#"{"name":"inner"}"#).expect("write");
        std::os::unix::fs::symlink(
            outer.path().join("package.json"),
            root.join("pkg/package.json"),
        )
        .expect("link");
        std::fs::create_dir_all(root.join("linked")).expect("create");
        std::os::unix::fs::symlink(
            root.join("inner/package.json"),
            root.join("linked/package.json"),
        )
        .expect("link");
        let mut packages = Packages::new(&root);
        let outside_link = packages.of_file("pkg/src/a.ts");
        assert_eq!(
            (outside_link.module.as_str(), outside_link.name.as_str()),
            (".", "app")
        );
        let inside_link = packages.of_file("linked/b.ts");
        assert_eq!(
            (inside_link.module.as_str(), inside_link.name.as_str()),
            ("linked", "inner")
        );
    }
}
