//! Reading `git diff -U0` output: each file's old and new path and its hunks' line ranges.

/// The lines one hunk replaces: `old_len` lines from `old_start` in the old text became
/// `new_len` lines from `new_start` in the new (a length of 0 puts the start just before
/// the place, as git does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hunk {
    pub(crate) old_start: u32,
    pub(crate) old_len: u32,
    pub(crate) new_start: u32,
    pub(crate) new_len: u32,
}

impl Hunk {
    /// Whether the new text's lines `start..=end` hold this hunk's new lines, or, for a
    /// hunk that only deletes, both lines around the deletion.
    pub(crate) fn touches_new(&self, start: u32, end: u32) -> bool {
        if self.new_len == 0 {
            start <= self.new_start && end > self.new_start
        } else {
            start < self.new_start + self.new_len && end >= self.new_start
        }
    }

    /// Whether the old text's lines `start..=end` hold some of this hunk's old lines.
    pub(crate) fn touches_old(&self, start: u32, end: u32) -> bool {
        self.old_len > 0 && start < self.old_start + self.old_len && end >= self.old_start
    }
}

/// One file of a diff.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct FileDiff {
    /// The path before (`None`: the file is new).
    pub(crate) old_path: Option<String>,
    /// The path after (`None`: the file was deleted).
    pub(crate) new_path: Option<String>,
    pub(crate) hunks: Vec<Hunk>,
}

/// The files of `git diff -U0` output, in order. Lines it does not know are skipped.
pub(crate) fn parse(diff: &str) -> Vec<FileDiff> {
    let mut files: Vec<FileDiff> = Vec::new();
    // Whether the current file's hunks began: its `---`/`+++` lines come before them, and a
    // removed line that reads `-- x` must not be taken for one.
    let mut in_hunks = false;
    for line in diff.lines() {
        if line.starts_with("diff --git ") {
            files.push(FileDiff::default());
            in_hunks = false;
            continue;
        }
        let Some(file) = files.last_mut() else {
            continue;
        };
        if let Some(header) = line.strip_prefix("@@ ") {
            in_hunks = true;
            if let Some(hunk) = hunk(header) {
                file.hunks.push(hunk);
            }
        } else if in_hunks {
            continue;
        } else if let Some(path) = line.strip_prefix("--- ") {
            file.old_path = side_path(path, "a/");
        } else if let Some(path) = line.strip_prefix("+++ ") {
            file.new_path = side_path(path, "b/");
        } else if let Some(path) = line.strip_prefix("rename from ") {
            file.old_path = Some(unquote(path));
        } else if let Some(path) = line.strip_prefix("rename to ") {
            file.new_path = Some(unquote(path));
        }
    }
    files
}

/// A `---`/`+++` path: `None` for `/dev/null`, else without its `a/` or `b/` prefix (and
/// the tab git puts after a path with a space).
fn side_path(path: &str, prefix: &str) -> Option<String> {
    let path = unquote(path.strip_suffix('\t').unwrap_or(path));
    if path == "/dev/null" {
        return None;
    }
    Some(path.strip_prefix(prefix).unwrap_or(&path).to_owned())
}

/// A path as git writes it: in double quotes with C escapes when it has unusual characters.
fn unquote(path: &str) -> String {
    let Some(inner) = path.strip_prefix('"').and_then(|p| p.strip_suffix('"')) else {
        return path.to_owned();
    };
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// `-a,b +c,d @@ …` (a count left out is 1).
fn hunk(header: &str) -> Option<Hunk> {
    let mut parts = header.split_whitespace();
    let (old_start, old_len) = range(parts.next()?.strip_prefix('-')?)?;
    let (new_start, new_len) = range(parts.next()?.strip_prefix('+')?)?;
    Some(Hunk {
        old_start,
        old_len,
        new_start,
        new_len,
    })
}

fn range(text: &str) -> Option<(u32, u32)> {
    match text.split_once(',') {
        Some((start, len)) => Some((start.parse().ok()?, len.parse().ok()?)),
        None => Some((text.parse().ok()?, 1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_paths_and_hunks_are_read() {
        let diff = "\
diff --git a/src/a.ts b/src/a.ts
index 1..2 100644
--- a/src/a.ts
+++ b/src/a.ts
@@ -3,2 +3,3 @@ export function f() {
--- a line removed that reads like a header
@@ -10 +11,0 @@
diff --git a/src/gone.ts b/src/gone.ts
deleted file mode 100644
--- a/src/gone.ts
+++ /dev/null
@@ -1,4 +0,0 @@
diff --git a/src/old.ts b/src/new name.ts
similarity index 90%
rename from src/old.ts
rename to \"src/new name.ts\"
diff --git a/src/a b.ts b/src/a b.ts
--- a/src/a b.ts\t
+++ b/src/a b.ts\t
@@ -1 +1 @@
";
        let files = parse(diff);
        assert_eq!(files.len(), 4);
        assert_eq!(files[0].old_path.as_deref(), Some("src/a.ts"));
        assert_eq!(files[0].new_path.as_deref(), Some("src/a.ts"));
        assert_eq!(files[3].new_path.as_deref(), Some("src/a b.ts"));
        assert_eq!(
            files[0].hunks,
            vec![
                Hunk {
                    old_start: 3,
                    old_len: 2,
                    new_start: 3,
                    new_len: 3
                },
                Hunk {
                    old_start: 10,
                    old_len: 1,
                    new_start: 11,
                    new_len: 0
                },
            ]
        );
        assert_eq!(files[1].new_path, None);
        assert_eq!(files[1].old_path.as_deref(), Some("src/gone.ts"));
        assert_eq!(files[2].old_path.as_deref(), Some("src/old.ts"));
        assert_eq!(files[2].new_path.as_deref(), Some("src/new name.ts"));
    }

    #[test]
    fn a_deletion_touches_what_encloses_it() {
        let deletion = Hunk {
            old_start: 5,
            old_len: 2,
            new_start: 4,
            new_len: 0,
        };
        assert!(deletion.touches_new(2, 8));
        assert!(!deletion.touches_new(1, 4));
        assert!(!deletion.touches_new(5, 9));
        assert!(deletion.touches_old(6, 9));
    }
}
