//! Tests of the generator: determinism, the line target, and that every import the tree
//! writes resolves to a file the tree holds (checked by a resolver written here from the
//! tree's own package.json and tsconfig files, not from the generator's bookkeeping).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::{GenOptions, MANIFEST_FILE, Manifest, MemorySink, generate, parse_size, relative};

fn tree(lines: u64, seed: u64) -> (Manifest, BTreeMap<String, String>) {
    let mut sink = MemorySink::default();
    let manifest = match generate(&GenOptions { lines, seed }, &mut sink) {
        Ok(manifest) => manifest,
        Err(e) => panic!("generation failed: {e}"),
    };
    (manifest, sink.files)
}

fn is_source(path: &str) -> bool {
    (path.ends_with(".ts") || path.ends_with(".tsx")) && !path.ends_with(".d.ts")
}

#[test]
fn same_seed_and_size_give_the_same_bytes() {
    let (_, first) = tree(30_000, 7);
    let (_, second) = tree(30_000, 7);
    assert_eq!(first.len(), second.len());
    for (path, text) in &first {
        assert_eq!(
            second.get(path),
            Some(text),
            "{path} differs between two runs"
        );
    }
    let (_, other) = tree(30_000, 8);
    assert_ne!(first, other, "another seed must give another tree");
}

#[test]
fn source_lines_land_within_ten_percent_of_the_target() {
    for target in [10_000, 60_000, 250_000] {
        let (manifest, files) = tree(target, 1);
        let counted: u64 = files
            .iter()
            .filter(|(path, _)| is_source(path))
            .map(|(_, text)| text.bytes().filter(|&b| b == b'\n').count() as u64)
            .sum();
        assert_eq!(manifest.source_lines, counted, "the manifest miscounts");
        let low = target - target / 10;
        let high = target + target / 10;
        assert!(
            (low..=high).contains(&counted),
            "target {target}: {counted} source lines"
        );
        assert_eq!(
            manifest.files + 1,
            files.len() as u64,
            "files besides the manifest"
        );
    }
}

#[test]
fn manifest_samples_name_symbols_the_tree_defines() {
    let (manifest, files) = tree(60_000, 3);
    let written: Value = match files.get(MANIFEST_FILE).map(|t| serde_json::from_str(t)) {
        Some(Ok(value)) => value,
        other => panic!("manifest missing or unreadable: {other:?}"),
    };
    assert_eq!(written["source_lines"], manifest.source_lines);
    assert_eq!(manifest.calls.samples.len(), 20);
    assert!(manifest.calls.chains.len() >= 3);
    let mut ids: Vec<&str> = manifest
        .calls
        .samples
        .iter()
        .map(|s| s.id.as_str())
        .collect();
    for chain in &manifest.calls.chains {
        assert!(chain.hops >= 3);
        ids.push(&chain.from);
        ids.push(&chain.to);
    }
    for sample in &manifest.calls.samples {
        assert!(sample.direct_callers > 0);
        assert_eq!(sample.callers.len(), sample.direct_callers.min(10));
        ids.extend(sample.callers.iter().map(String::as_str));
    }
    // Caller counts are spread: the most called symbol is a hub.
    assert!(manifest.calls.samples[0].direct_callers > 50);
    for id in ids {
        let Some((path, symbol)) = id.split_once(':') else {
            panic!("{id} is not `path:symbol`");
        };
        let Some(text) = files.get(path) else {
            panic!("{id}: no file {path}");
        };
        let last = symbol.rsplit('.').next().unwrap_or(symbol);
        assert!(
            text.contains(&format!("function {last}"))
                || text.contains(&format!(" {last}("))
                || text.contains(&format!("\n  {last}(")),
            "{id}: {path} defines no {last}"
        );
    }
}

/// How a specifier was resolved, to check every kind occurs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Via {
    Relative,
    Alias,
    PackageSource,
    PackageDist,
    External,
}

/// Resolves specifiers the way TypeScript's `Bundler` resolution with project references
/// does for this tree: relative paths, tsconfig `paths`, workspace packages by name through
/// `exports` (build output mapped back to `src/`) or `main`.
struct Resolver<'a> {
    files: &'a BTreeMap<String, String>,
    aliases: Vec<(String, String)>,
    packages: Vec<(String, String, Value)>,
}

impl<'a> Resolver<'a> {
    fn new(files: &'a BTreeMap<String, String>) -> Resolver<'a> {
        let json = |path: &str| -> Value {
            match files.get(path).map(|text| serde_json::from_str(text)) {
                Some(Ok(value)) => value,
                other => panic!("{path}: {other:?}"),
            }
        };
        let base = json("tsconfig.base.json");
        let mut aliases = Vec::new();
        if let Some(paths) = base["compilerOptions"]["paths"].as_object() {
            for (pattern, targets) in paths {
                let target = targets[0].as_str().unwrap_or_default();
                aliases.push((
                    pattern.trim_end_matches('*').to_owned(),
                    target
                        .trim_start_matches("./")
                        .trim_end_matches('*')
                        .to_owned(),
                ));
            }
        }
        let mut packages = Vec::new();
        for path in files.keys() {
            if let Some(dir) = path.strip_suffix("/package.json") {
                let manifest = json(path);
                let name = manifest["name"].as_str().unwrap_or_default().to_owned();
                packages.push((name, dir.to_owned(), manifest));
            }
        }
        Resolver {
            files,
            aliases,
            packages,
        }
    }

    fn file(&self, base: &str) -> Option<String> {
        [".ts", ".tsx", "/index.ts", "/index.tsx"]
            .iter()
            .map(|ext| format!("{base}{ext}"))
            .find(|candidate| self.files.contains_key(candidate))
    }

    fn resolve(&self, from: &str, spec: &str) -> Option<Via> {
        if spec.starts_with('.') {
            let mut parts: Vec<&str> = from.split('/').collect();
            parts.pop();
            for segment in spec.split('/') {
                match segment {
                    "." => {}
                    ".." => {
                        parts.pop()?;
                    }
                    s => parts.push(s),
                }
            }
            return self.file(&parts.join("/")).map(|_| Via::Relative);
        }
        for (prefix, target) in &self.aliases {
            if let Some(rest) = spec.strip_prefix(prefix.as_str()) {
                return self.file(&format!("{target}{rest}")).map(|_| Via::Alias);
            }
        }
        if spec == "react" || spec == "react/jsx-runtime" {
            return Some(Via::External);
        }
        let (name, dir, manifest) = self
            .packages
            .iter()
            .find(|(name, _, _)| spec == name || spec.starts_with(&format!("{name}/")))?;
        let subpath = format!(".{}", &spec[name.len()..]);
        let Some(exports) = manifest["exports"].as_object() else {
            let main = manifest["main"].as_str()?.trim_start_matches("./");
            let main = main.trim_end_matches(".ts");
            return (subpath == ".")
                .then(|| self.file(&format!("{dir}/{main}")))
                .flatten()
                .map(|_| Via::PackageSource);
        };
        let target = match exports.get(&subpath) {
            Some(entry) => entry["types"].as_str()?.to_owned(),
            None => {
                let pattern = exports.get("./*")?["types"].as_str()?;
                pattern.replace('*', subpath.strip_prefix("./")?)
            }
        };
        // The build output maps back to the sources: dist/x.d.ts is built from src/x.ts.
        let source = target
            .strip_prefix("./dist/")?
            .strip_suffix(".d.ts")?
            .to_owned();
        self.file(&format!("{dir}/src/{source}"))
            .map(|_| Via::PackageDist)
    }
}

/// Every `from "spec"` of a file (imports and re-exports).
fn specifiers(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|line| {
            let rest = line.split_once(" from \"")?.1;
            rest.strip_suffix("\";")
        })
        .collect()
}

#[test]
fn every_import_points_at_a_file_the_generator_wrote() {
    let (_, files) = tree(80_000, 5);
    let resolver = Resolver::new(&files);
    let mut seen = BTreeSet::new();
    let mut count = 0;
    for (path, text) in &files {
        if !is_source(path) {
            continue;
        }
        for spec in specifiers(text) {
            count += 1;
            match resolver.resolve(path, spec) {
                Some(via) => {
                    seen.insert(via);
                }
                None => panic!("{path}: import of {spec:?} resolves to no file"),
            }
        }
    }
    assert!(count > 1_000, "only {count} imports");
    let all: BTreeSet<Via> = [
        Via::Relative,
        Via::Alias,
        Via::PackageSource,
        Via::PackageDist,
        Via::External,
    ]
    .into();
    assert_eq!(seen, all, "every kind of import occurs");
}

#[test]
fn size_presets_and_relative_specifiers() {
    assert_eq!(parse_size("100k"), Some(100_000));
    assert_eq!(parse_size("1m"), Some(1_000_000));
    assert_eq!(parse_size("5M"), Some(5_000_000));
    assert_eq!(parse_size("12345"), Some(12_345));
    assert_eq!(parse_size("lots"), None);
    assert_eq!(relative("p/a/src/x/x.ts", "p/a/src/x/x.model"), "./x.model");
    assert_eq!(
        relative("p/a/src/x/x.ts", "p/a/src/y/y.model"),
        "../y/y.model"
    );
    assert_eq!(relative("p/a/src/index.ts", "p/a/src/y"), "./y");
}

#[test]
fn a_folder_gets_the_same_files_and_is_never_written_over() {
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => panic!("no temporary folder: {e}"),
    };
    let root = dir.path().join("tree");
    let options = GenOptions {
        lines: 10_000,
        seed: 2,
    };
    let mut sink = match super::DirSink::new(&root) {
        Ok(sink) => sink,
        Err(e) => panic!("{e}"),
    };
    if let Err(e) = generate(&options, &mut sink) {
        panic!("{e}");
    }
    let (_, expected) = tree(10_000, 2);
    for (path, text) in &expected {
        let written = std::fs::read_to_string(root.join(path)).unwrap_or_default();
        assert_eq!(&written, text, "{path}");
    }
    let error = super::DirSink::new(&root).err().map(|e| e.to_string());
    assert!(
        error.as_deref().is_some_and(|e| e.contains("is not empty")),
        "{error:?}"
    );
}
