//! Project-relative path arithmetic on strings: the model never touches the file system while
//! resolving, so joining, normalising and walking up folders happen here, on `/`-separated
//! paths relative to the project root (the root itself is the empty string).

/// The folder of `path` (`""` for a file at the root).
pub(crate) fn parent(path: &str) -> &str {
    path.rsplit_once('/').map(|(dir, _)| dir).unwrap_or("")
}

/// The last segment of `path`.
pub(crate) fn file_name(path: &str) -> &str {
    path.rsplit_once('/').map(|(_, name)| name).unwrap_or(path)
}

/// Joins `relative` onto the folder `dir`, folding `.` and `..` and repeated slashes.
/// `None` when the result would climb above the project root or `relative` is absolute
/// (absolute paths always point outside the model's root-relative world).
pub(crate) fn join(dir: &str, relative: &str) -> Option<String> {
    if relative.starts_with('/') || looks_like_windows_absolute(relative) {
        return None;
    }
    let mut out = String::with_capacity(dir.len() + relative.len() + 1);
    for part in dir.split('/').chain(relative.split('/')) {
        match part {
            "" | "." => {}
            ".." => {
                let cut = out.rfind('/').unwrap_or(0);
                if out.is_empty() {
                    return None;
                }
                out.truncate(cut);
            }
            part => {
                if !out.is_empty() {
                    out.push('/');
                }
                out.push_str(part);
            }
        }
    }
    Some(out)
}

fn looks_like_windows_absolute(path: &str) -> bool {
    let bytes = path.as_bytes();
    bytes.len() > 2 && bytes[1] == b':' && bytes[0].is_ascii_alphabetic()
}

/// What the one `*` of `pattern` stands for in `text` when `text` fits it (`""` may fit), as
/// tsconfig `paths` and package `exports`/`imports` patterns match; `None` for a pattern without
/// a `*` or with several.
pub(crate) fn wildcard_capture<'t>(pattern: &str, text: &'t str) -> Option<&'t str> {
    let (prefix, suffix) = pattern.split_once('*')?;
    let fits = !suffix.contains('*')
        && text.len() >= prefix.len() + suffix.len()
        && text.starts_with(prefix)
        && text.ends_with(suffix);
    fits.then(|| &text[prefix.len()..text.len() - suffix.len()])
}

/// `path` relative to the folder `dir`, if it lies inside it (`dir` itself gives `""`).
pub(crate) fn strip_dir<'p>(path: &'p str, dir: &str) -> Option<&'p str> {
    if dir.is_empty() {
        return Some(path);
    }
    let rest = path.strip_prefix(dir)?;
    if rest.is_empty() {
        Some(rest)
    } else {
        rest.strip_prefix('/')
    }
}

/// `dir` followed by each of its ancestors, ending with the root `""`.
pub(crate) fn ancestors(dir: &str) -> impl Iterator<Item = &str> {
    let mut next = Some(dir);
    std::iter::from_fn(move || {
        let current = next?;
        next = if current.is_empty() {
            None
        } else {
            Some(parent(current))
        };
        Some(current)
    })
}

/// `folder/name`, or `name` at the root.
pub(crate) fn child(folder: &str, name: &str) -> String {
    if folder.is_empty() {
        name.to_owned()
    } else {
        format!("{folder}/{name}")
    }
}

/// How a folder is shown to users: the root is `.`.
pub(crate) fn display_dir(dir: &str) -> &str {
    if dir.is_empty() { "." } else { dir }
}

/// Whether a path names a declaration file (`.d.ts`, `.d.mts`, `.d.cts`): types only, never
/// indexed, but where the checker lands when a package's published entry points to one.
pub(crate) fn is_declaration(path: &str) -> bool {
    path.ends_with(".d.ts") || path.ends_with(".d.mts") || path.ends_with(".d.cts")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_folds_dots_and_refuses_to_climb_out() {
        let rows: &[(&str, &str, Option<&str>)] = &[
            ("src/db", "./user.js", Some("src/db/user.js")),
            ("src/db", "../ui/App", Some("src/ui/App")),
            ("src", "..", Some("")),
            ("src", "../..", None),
            ("", "./a//b/./c", Some("a/b/c")),
            ("", "/etc/passwd", None),
            ("a", "C:\\x", None),
            ("", ".", Some("")),
        ];
        for (dir, rel, expected) in rows {
            assert_eq!(
                join(dir, rel).as_deref(),
                *expected,
                "join({dir:?}, {rel:?})"
            );
        }
    }

    #[test]
    fn ancestors_end_at_the_root() {
        assert_eq!(ancestors("a/b").collect::<Vec<_>>(), ["a/b", "a", ""]);
        assert_eq!(ancestors("").collect::<Vec<_>>(), [""]);
        assert_eq!(strip_dir("a/b/c", "a"), Some("b/c"));
        assert_eq!(strip_dir("ab/c", "a"), None);
        assert_eq!(strip_dir("a", "a"), Some(""));
    }
}
