//! Relative module specifier resolution against the set of indexed files (no file-system access):
//! relative specifiers with `.js`→`.ts` mapping, extensionless paths and `index` files.

use std::collections::HashMap;

/// Extensions tried, in order, for an extensionless specifier or a directory's `index`.
const TRY_EXTENSIONS: &[&str] = &[".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/// What a JavaScript extension in a specifier may stand for in TypeScript sources.
const SOURCE_FOR_EMITTED: &[(&str, &[&str])] = &[
    (".js", &[".ts", ".tsx"]),
    (".jsx", &[".tsx"]),
    (".mjs", &[".mts"]),
    (".cjs", &[".cts"]),
];

/// Resolves `specifier`, written in the file `importer`, to the index of an indexed file.
/// Only relative specifiers resolve; package names (and tsconfig `paths`) are not resolved yet.
pub(crate) fn resolve_specifier(
    importer: &str,
    specifier: &str,
    files: &HashMap<&str, usize>,
) -> Option<usize> {
    if !(specifier.starts_with("./")
        || specifier.starts_with("../")
        || specifier == "."
        || specifier == "..")
    {
        return None;
    }
    let dir = importer.rsplit_once('/').map(|(dir, _)| dir).unwrap_or("");
    let joined = normalize(dir, specifier)?;
    let lookup = |candidate: &str| files.get(candidate).copied();
    if let Some(found) = lookup(&joined) {
        return Some(found);
    }
    for (emitted, sources) in SOURCE_FOR_EMITTED {
        if let Some(stem) = joined.strip_suffix(emitted) {
            for source in *sources {
                if let Some(found) = lookup(&format!("{stem}{source}")) {
                    return Some(found);
                }
            }
        }
    }
    for ext in TRY_EXTENSIONS {
        if let Some(found) = lookup(&format!("{joined}{ext}")) {
            return Some(found);
        }
    }
    let base = if joined.is_empty() {
        String::from("index")
    } else {
        format!("{joined}/index")
    };
    TRY_EXTENSIONS
        .iter()
        .find_map(|ext| lookup(&format!("{base}{ext}")))
}

/// The package a bare specifier names: `react` for `react/jsx-runtime`, `@scope/pkg` for
/// `@scope/pkg/sub`, `node:fs` as written.
pub(crate) fn package_name(specifier: &str) -> &str {
    let mut slashes = specifier.match_indices('/').map(|(i, _)| i);
    let end = if specifier.starts_with('@') {
        slashes.nth(1)
    } else {
        slashes.next()
    };
    end.map_or(specifier, |end| &specifier[..end])
}

/// Joins a relative specifier onto a directory, folding `.` and `..`; `None` if it climbs
/// above the project root.
fn normalize(dir: &str, specifier: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in specifier.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(paths: &[&'static str]) -> HashMap<&'static str, usize> {
        paths.iter().enumerate().map(|(i, p)| (*p, i)).collect()
    }

    #[test]
    fn relative_specifiers_resolve_like_typescript() {
        let f = files(&[
            "src/db/user.ts",
            "src/db/index.ts",
            "src/ui/App.tsx",
            "src/main.ts",
            "lib/util.js",
        ]);
        assert_eq!(
            resolve_specifier("src/main.ts", "./db/user.js", &f),
            Some(0)
        );
        assert_eq!(resolve_specifier("src/main.ts", "./db/user", &f), Some(0));
        assert_eq!(resolve_specifier("src/main.ts", "./db", &f), Some(1));
        assert_eq!(
            resolve_specifier("src/db/user.ts", "../ui/App.js", &f),
            Some(2)
        );
        assert_eq!(resolve_specifier("src/db/user.ts", "..", &f), None);
        assert_eq!(
            resolve_specifier("src/db/user.ts", "../../lib/util.js", &f),
            Some(4)
        );
        assert_eq!(resolve_specifier("src/main.ts", "../../../x", &f), None);
        assert_eq!(resolve_specifier("src/main.ts", "react", &f), None);
    }
}
