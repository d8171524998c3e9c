//! Which files a tsconfig claims: `files`, `include` and `exclude` with tsc's pattern rules
//! (`*` and `?` stay within a folder, `**/` spans folders, a last segment without an extension
//! or wildcard names a folder), restricted to the extensions the config compiles.

use std::collections::HashSet;

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};

/// A config's claim on source files.
#[derive(Debug, Default)]
pub(crate) struct Claims {
    /// `files` entries, project-relative: claimed whatever `exclude` says.
    files: HashSet<String>,
    /// `include` patterns, project-relative; `None` claims nothing through patterns.
    include: Option<GlobSet>,
    /// `exclude` patterns (each also excludes everything below it).
    exclude: Option<GlobSet>,
    /// Whether `.js`/`.jsx`/`.mjs`/`.cjs` files are claimed (`allowJs`).
    allow_js: bool,
}

/// Patterns that could not be compiled, with the reason.
pub(crate) type PatternErrors = Vec<(String, String)>;

impl Claims {
    /// Builds claims from project-relative `files`, `include` and `exclude` entries.
    pub(crate) fn new(
        files: Vec<String>,
        include: Option<Vec<String>>,
        exclude: Vec<String>,
        allow_js: bool,
    ) -> (Claims, PatternErrors) {
        let mut errors = Vec::new();
        let include = include.map(|patterns| {
            let globs = patterns.iter().map(|pattern| include_glob(pattern));
            build_set(globs, &mut errors)
        });
        let exclude_globs = exclude
            .iter()
            .flat_map(|pattern| [pattern.clone(), format!("{pattern}/**")])
            .map(|glob| (compile(&glob), glob));
        let exclude = Some(build_set(exclude_globs, &mut errors));
        let claims = Claims {
            files: files.into_iter().collect(),
            include,
            exclude,
            allow_js,
        };
        (claims, errors)
    }

    /// Whether the config compiles `file`.
    pub(crate) fn claims(&self, file: &str) -> bool {
        if self.files.contains(file) {
            return true;
        }
        if !self.compiles_extension(file) {
            return false;
        }
        let included = self.include.as_ref().is_some_and(|set| set.is_match(file));
        included && !self.exclude.as_ref().is_some_and(|set| set.is_match(file))
    }

    fn compiles_extension(&self, file: &str) -> bool {
        let ext = file.rsplit_once('.').map(|(_, ext)| ext).unwrap_or("");
        match ext {
            "ts" | "tsx" | "mts" | "cts" => true,
            "js" | "jsx" | "mjs" | "cjs" => self.allow_js,
            _ => false,
        }
    }
}

/// The glob for one include entry: a folder-like entry claims everything below it.
fn include_glob(pattern: &str) -> (Result<Glob, globset::Error>, String) {
    let last = super::paths::file_name(pattern);
    let folder_like = pattern.is_empty() || !(last.contains(['*', '?', '.']));
    let glob = if pattern.is_empty() {
        "**/*".to_owned()
    } else if folder_like {
        format!("{pattern}/**/*")
    } else {
        pattern.to_owned()
    };
    (compile(&glob), glob)
}

fn compile(glob: &str) -> Result<Glob, globset::Error> {
    GlobBuilder::new(glob).literal_separator(true).build()
}

fn build_set(
    globs: impl Iterator<Item = (Result<Glob, globset::Error>, String)>,
    errors: &mut PatternErrors,
) -> GlobSet {
    let mut builder = GlobSetBuilder::new();
    for (glob, text) in globs {
        match glob {
            Ok(glob) => {
                builder.add(glob);
            }
            Err(err) => errors.push((text, err.kind().to_string())),
        }
    }
    builder.build().unwrap_or_else(|err| {
        errors.push((String::new(), err.to_string()));
        GlobSet::empty()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn include_exclude_and_files_follow_tsc() {
        let (claims, errors) = Claims::new(
            strings(&["scripts/setup.ts"]),
            Some(strings(&["app/src", "app/types/*.ts", "app/**/*.spec.ts"])),
            strings(&["app/src/legacy", "app/src/**/*.gen.ts", "scripts"]),
            false,
        );
        assert!(errors.is_empty(), "{errors:?}");
        let rows: &[(&str, bool)] = &[
            ("app/src/a.ts", true),
            ("app/src/deep/b.tsx", true),
            ("app/src/c.js", false),
            ("app/src/legacy/old.ts", false),
            ("app/src/x/y.gen.ts", false),
            ("app/types/t.ts", true),
            ("app/types/nested/t.ts", false),
            ("app/test/a.spec.ts", true),
            ("app/test/a.ts", false),
            ("scripts/setup.ts", true),
            ("scripts/other.ts", false),
        ];
        for (file, expected) in rows {
            assert_eq!(claims.claims(file), *expected, "{file}");
        }
    }

    #[test]
    fn allow_js_and_whole_folder_include() {
        let (claims, _) = Claims::new(Vec::new(), Some(strings(&[""])), Vec::new(), true);
        assert!(claims.claims("a/b.js"));
        assert!(claims.claims("a.mts"));
        let (none, _) = Claims::new(Vec::new(), None, Vec::new(), true);
        assert!(!none.claims("a.ts"));
    }
}
