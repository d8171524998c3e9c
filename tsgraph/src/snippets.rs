//! Source lines for `--snippets`, read only from files inside the project root.

use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

use tsgraph_encoders::graph::SnippetSource;

use crate::error::Error;

/// Reads lines of the project's files; a path that resolves outside the root (through `..`
/// or a symbolic link) is refused.
pub(crate) struct ConfinedSource {
    root: PathBuf,
}

impl ConfinedSource {
    pub(crate) fn new(root: &Path) -> Result<ConfinedSource, Error> {
        let root = root.canonicalize().map_err(|source| Error::Io {
            path: root.to_path_buf(),
            source,
        })?;
        Ok(ConfinedSource { root })
    }
}

impl SnippetSource for ConfinedSource {
    fn lines(&self, file: &str, first: u32, count: u32, out: &mut Vec<String>) -> io::Result<()> {
        // Refused before the file system is asked, so that no answer tells whether a path
        // outside the root exists; a symbolic link out of the root is refused below.
        if !is_relative_inside(file) {
            return Err(outside(file));
        }
        let path = self.root.join(file).canonicalize()?;
        if !path.starts_with(&self.root) {
            return Err(outside(file));
        }
        // Not a pipe or a device, which could block the reader or never end.
        if !std::fs::metadata(&path)?.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{file} is not a regular file"),
            ));
        }
        let mut bytes = Vec::new();
        std::fs::File::open(&path)?
            .take(MAX_SOURCE_BYTES)
            .read_to_end(&mut bytes)?;
        let text = String::from_utf8_lossy(&bytes);
        let skip = usize::try_from(first.saturating_sub(1)).unwrap_or(usize::MAX);
        let take = usize::try_from(count).unwrap_or(usize::MAX);
        out.extend(text.lines().skip(skip).take(take).map(str::to_owned));
        Ok(())
    }
}

/// The most bytes of one file read for its lines: a source file that large is not indexed
/// anyway (the default size limit is 1 MiB).
const MAX_SOURCE_BYTES: u64 = 64 * 1024 * 1024;

/// Whether `file` is a relative path that stays below the folder it is relative to, read as
/// written (no `..`, no root): the check the confined reader makes before the file system is
/// asked (a symbolic link out of the root is refused when the file is read).
///
/// ```
/// assert!(tsgraph::is_relative_inside("src/a.ts"));
/// assert!(!tsgraph::is_relative_inside("../a.ts"));
/// assert!(!tsgraph::is_relative_inside("/etc/passwd"));
/// ```
pub fn is_relative_inside(file: &str) -> bool {
    Path::new(file)
        .components()
        .all(|part| matches!(part, Component::Normal(_) | Component::CurDir))
}

fn outside(file: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!("{file} is outside the project root"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_outside_the_root_are_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().join("project");
        std::fs::create_dir(&root).expect("mkdir");
        std::fs::write(root.join("a.ts"), "one\ntwo\nthree\n").expect("write");
        std::fs::write(dir.path().join("secret.ts"), "secret\n").expect("write");
        let source = ConfinedSource::new(&root).expect("root");
        let mut out = Vec::new();
        source.lines("a.ts", 2, 5, &mut out).expect("inside");
        assert_eq!(out, ["two", "three"]);
        out.clear();
        let err = source.lines("../secret.ts", 1, 1, &mut out).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied);
        assert!(out.is_empty());
        // Refused before the file system is asked: a missing outside file answers the same.
        let err = source.lines("../missing.ts", 1, 1, &mut out).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied);
        let absolute = dir.path().join("secret.ts");
        let err = source
            .lines(&absolute.to_string_lossy(), 1, 1, &mut out)
            .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied);
        assert!(out.is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_root_and_a_folder_are_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().join("project");
        std::fs::create_dir_all(root.join("src")).expect("mkdir");
        std::fs::write(dir.path().join("secret.ts"), "secret\n").expect("write");
        std::fs::write(root.join("src/a.ts"), "inside\n").expect("write");
        std::os::unix::fs::symlink(dir.path().join("secret.ts"), root.join("src/out.ts"))
            .expect("link");
        std::os::unix::fs::symlink(root.join("src/a.ts"), root.join("src/in.ts")).expect("link");
        let source = ConfinedSource::new(&root).expect("root");
        let mut out = Vec::new();
        let err = source.lines("src/out.ts", 1, 1, &mut out).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied);
        let err = source.lines("src", 1, 1, &mut out).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(out.is_empty());
        source
            .lines("src/in.ts", 1, 1, &mut out)
            .expect("a link inside");
        assert_eq!(out, ["inside"]);
    }
}
