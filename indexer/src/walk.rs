//! Finds the source files of a project: .gitignore-aware, skipping node_modules, declaration
//! files and files over the size limit.

use std::path::{Path, PathBuf};

/// A source file found by the walk.
#[derive(Debug, Clone)]
pub(crate) struct SourceFile {
    pub(crate) absolute: PathBuf,
    /// Relative to the root, forward slashes.
    pub(crate) relative: String,
}

/// What the walk found and what it passed over.
#[derive(Debug, Default)]
pub(crate) struct WalkResult {
    pub(crate) files: Vec<SourceFile>,
    /// Files skipped for their size, with the size.
    pub(crate) too_large: Vec<(String, u64)>,
    /// Directory entries that could not be read.
    pub(crate) errors: Vec<String>,
}

/// Extensions that are indexed.
const SOURCE_EXTENSIONS: &[&str] = &["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"];

pub(crate) fn is_source_path(path: &str) -> bool {
    let is_declaration =
        path.ends_with(".d.ts") || path.ends_with(".d.mts") || path.ends_with(".d.cts");
    let ext = path.rsplit_once('.').map(|(_, ext)| ext).unwrap_or("");
    !is_declaration && SOURCE_EXTENSIONS.contains(&ext)
}

/// The path as IDs spell it: UTF-8 with forward slashes. On Windows the separator is `\\`;
/// elsewhere a backslash is an ordinary character of a file name and stays.
fn relative_id_path(relative: &Path) -> Option<String> {
    let text = relative.to_str()?;
    Some(if std::path::MAIN_SEPARATOR == '\\' {
        text.replace('\\', "/")
    } else {
        text.to_owned()
    })
}

pub(crate) fn walk(root: &Path, max_file_size: u64) -> WalkResult {
    let mut result = WalkResult::default();
    let walker = ignore::WalkBuilder::new(root)
        .hidden(true)
        .require_git(false)
        .filter_entry(|entry| {
            entry.file_name() != "node_modules" && entry.file_name() != ".tsgraph"
        })
        .build();
    for entry in walker {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                result.errors.push(err.to_string());
                continue;
            }
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Ok(relative) = entry.path().strip_prefix(root) else {
            continue;
        };
        // IDs are built from paths, so a path must map to exactly one string: a name that is
        // not UTF-8 is skipped rather than lossily converted (two such files could collide).
        let Some(relative) = relative_id_path(relative) else {
            if is_source_path(&relative.to_string_lossy()) {
                result.errors.push(format!(
                    "{}: skipped, the path is not UTF-8",
                    relative.display()
                ));
            }
            continue;
        };
        if !is_source_path(&relative) {
            continue;
        }
        let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
        if size > max_file_size {
            result.too_large.push((relative, size));
            continue;
        }
        result.files.push(SourceFile {
            absolute: entry.path().to_path_buf(),
            relative,
        });
    }
    result.files.sort_by(|a, b| a.relative.cmp(&b.relative));
    result
}

#[cfg(test)]
mod tests {
    use super::{is_source_path, walk};

    #[cfg(unix)]
    #[test]
    fn paths_that_are_not_utf8_are_skipped_with_a_warning() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("ok.ts"), "export const a = 1;").expect("write");
        std::fs::write(
            dir.path().join(std::ffi::OsStr::from_bytes(b"\xff.ts")),
            "x",
        )
        .expect("write");
        std::fs::write(
            dir.path().join(std::ffi::OsStr::from_bytes(b"\xfe.ts")),
            "y",
        )
        .expect("write");
        let result = walk(dir.path(), 1 << 20);
        let files: Vec<&str> = result.files.iter().map(|f| f.relative.as_str()).collect();
        assert_eq!(files, ["ok.ts"]);
        assert_eq!(result.errors.len(), 2, "{:?}", result.errors);
        assert!(
            result
                .errors
                .iter()
                .all(|e| e.ends_with("skipped, the path is not UTF-8"))
        );
    }

    #[test]
    fn declaration_files_and_other_extensions_are_not_sources() {
        assert!(is_source_path("src/a.ts"));
        assert!(is_source_path("src/App.tsx"));
        assert!(is_source_path("lib/x.mjs"));
        assert!(!is_source_path("types/index.d.ts"));
        assert!(!is_source_path("README.md"));
        assert!(!is_source_path("Makefile"));
    }
}
