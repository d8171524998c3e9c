//! Source lines for `--snippets`, read only from files inside the project root.

use std::io;
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
        let stays_inside = Path::new(file)
            .components()
            .all(|part| matches!(part, Component::Normal(_) | Component::CurDir));
        if !stays_inside {
            return Err(outside(file));
        }
        let path = self.root.join(file).canonicalize()?;
        if !path.starts_with(&self.root) {
            return Err(outside(file));
        }
        let bytes = std::fs::read(&path)?;
        let text = String::from_utf8_lossy(&bytes);
        let skip = usize::try_from(first.saturating_sub(1)).unwrap_or(usize::MAX);
        let take = usize::try_from(count).unwrap_or(usize::MAX);
        out.extend(text.lines().skip(skip).take(take).map(str::to_owned));
        Ok(())
    }
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
    }
}
