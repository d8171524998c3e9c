//! Which files a tsconfig claims: `files`, `include` and `exclude` with tsc's pattern rules
//! (`*` and `?` stay within a folder, `**/` spans folders, a last segment without an extension
//! or wildcard names a folder), restricted to the extensions the config compiles.

use std::collections::HashSet;

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};

/// A config's claim on source files.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Claims {
    /// `files` entries, project-relative: claimed whatever `exclude` says.
    files: HashSet<String>,
    /// `include` patterns, project-relative; `None` claims nothing through patterns.
    include: Option<Patterns>,
    /// `exclude` patterns (each also excludes everything below it).
    exclude: Patterns,
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
            let mut set = Patterns::default();
            for pattern in &patterns {
                set.add_include(pattern);
            }
            set.build(&mut errors)
        });
        let mut exclude_set = Patterns::default();
        for pattern in &exclude {
            exclude_set.add_exclude(pattern);
        }
        let claims = Claims {
            files: files.into_iter().collect(),
            include,
            exclude: exclude_set.build(&mut errors),
            allow_js,
        };
        (claims, errors)
    }

    /// Compiles the glob patterns again, for claims read back without them (a model read
    /// from the store: see `model::cache`). Their errors were warned about when the model
    /// was built.
    pub(crate) fn compile_again(&mut self) {
        if let Some(include) = &mut self.include {
            include.compile_again();
        }
        self.exclude.compile_again();
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
        included && !self.exclude.is_match(file)
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

/// One side of a claim. Patterns without a wildcard (nearly all of them: `src`, `dist`,
/// `node_modules`) are kept as strings and compared; only the others are compiled into a
/// glob set. A compiled set costs tens of kilobytes (its prefix automaton and match caches),
/// and a monorepo has a config per package: on the synthetic 1M-line monorepo the sets of
/// 276 configs held 19 MB while it was indexed.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
struct Patterns {
    /// Paths matched as they are.
    exact: HashSet<String>,
    /// Folders (with their trailing `/`) whose every descendant matches.
    below: Vec<String>,
    /// Whether every path matches (the include entry `""`, the config's folder at the root).
    all: bool,
    /// The patterns with wildcards, as `build` compiles them (their text is kept for the
    /// error messages of those that do not compile, and to compile them again when a model
    /// is read back: see [`Claims::compile_again`]).
    globs: Vec<String>,
    #[serde(skip)]
    compiled: Option<GlobSet>,
}

impl Patterns {
    /// An include entry: a folder-like entry claims everything below it.
    fn add_include(&mut self, pattern: &str) {
        let last = super::paths::file_name(pattern);
        let folder_like = pattern.is_empty() || !(last.contains(['*', '?', '.']));
        if pattern.is_empty() {
            self.all = true;
        } else if !is_literal(pattern) {
            self.globs.push(if folder_like {
                format!("{pattern}/**/*")
            } else {
                pattern.to_owned()
            });
        } else if folder_like {
            self.below.push(format!("{pattern}/"));
        } else {
            self.exact.insert(pattern.to_owned());
        }
    }

    /// An exclude entry: the path itself and everything below it.
    fn add_exclude(&mut self, pattern: &str) {
        if is_literal(pattern) {
            self.exact.insert(pattern.to_owned());
            self.below.push(format!("{pattern}/"));
        } else {
            self.globs.push(pattern.to_owned());
            self.globs.push(format!("{pattern}/**"));
        }
    }

    fn build(mut self, errors: &mut PatternErrors) -> Patterns {
        self.compiled = compiled(&self.globs, errors);
        self
    }

    fn compile_again(&mut self) {
        self.compiled = compiled(&self.globs, &mut Vec::new());
    }

    fn is_match(&self, file: &str) -> bool {
        self.all
            || self.exact.contains(file)
            || self
                .below
                .iter()
                .any(|folder| file.starts_with(folder.as_str()))
            || self.compiled.as_ref().is_some_and(|set| set.is_match(file))
    }
}

/// The set of `globs` that compile, or `None` for no globs; what does not compile goes to
/// `errors`.
fn compiled(globs: &[String], errors: &mut PatternErrors) -> Option<GlobSet> {
    if globs.is_empty() {
        return None;
    }
    let mut builder = GlobSetBuilder::new();
    for text in globs {
        match compile(text) {
            Ok(glob) => {
                builder.add(glob);
            }
            Err(err) => errors.push((text.clone(), err.kind().to_string())),
        }
    }
    Some(builder.build().unwrap_or_else(|err| {
        errors.push((String::new(), err.to_string()));
        GlobSet::empty()
    }))
}

/// Whether a pattern has nothing a glob would read as a wildcard, class, alternation or
/// escape, so that it matches only its own text.
fn is_literal(pattern: &str) -> bool {
    !pattern.contains(['*', '?', '[', ']', '{', '}', '\\'])
}

fn compile(glob: &str) -> Result<Glob, globset::Error> {
    GlobBuilder::new(glob).literal_separator(true).build()
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

    /// Literal patterns are compared as strings rather than compiled; each must match what
    /// its glob (the form compiled before) matches.
    #[test]
    fn literal_patterns_match_as_their_globs_do() {
        let paths = [
            "app/src/a.ts",
            "app/src",
            "app/srcx/a.ts",
            "app/src.ts",
            "app/src/deep/b.ts",
            "dist/a.js",
            "dist",
            "distx/a.ts",
            "main.ts",
            "x/main.ts",
        ];
        let glob_set = |globs: &[String]| {
            let mut builder = GlobSetBuilder::new();
            for glob in globs {
                builder.add(compile(glob).unwrap());
            }
            builder.build().unwrap()
        };
        for pattern in ["app/src", "dist", "main.ts", "app/src.ts"] {
            let mut include = Patterns::default();
            include.add_include(pattern);
            assert!(include.globs.is_empty(), "{pattern} was compiled");
            let folder_like = !super::super::paths::file_name(pattern).contains('.');
            let as_glob = if folder_like {
                format!("{pattern}/**/*")
            } else {
                pattern.to_owned()
            };
            let mut exclude = Patterns::default();
            exclude.add_exclude(pattern);
            let old_include = glob_set(&[as_glob]);
            let old_exclude = glob_set(&[pattern.to_owned(), format!("{pattern}/**")]);
            for path in paths {
                assert_eq!(
                    include.is_match(path),
                    old_include.is_match(path),
                    "include {pattern} on {path}"
                );
                assert_eq!(
                    exclude.is_match(path),
                    old_exclude.is_match(path),
                    "exclude {pattern} on {path}"
                );
            }
        }
        let mut wild = Patterns::default();
        wild.add_include("app/*/b.ts");
        let wild = wild.build(&mut Vec::new());
        assert!(wild.compiled.is_some());
        assert!(wild.is_match("app/src/b.ts"));
        assert!(!wild.is_match("app/src/deep/b.ts"));
    }
}
