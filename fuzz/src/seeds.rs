//! Seed corpora from the repository's fixtures: the sources of the fixture projects, the TOON
//! golden files and the spec's test vectors (`../shared/toon-fixtures`, when present), and a
//! few store patches.

use std::path::{Path, PathBuf};

/// The seed inputs of `target`, each with a name for its file in a corpus folder.
pub fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    match target {
        "indexer" => indexer_seeds(),
        "toon" => toon_seeds(),
        "store" => store_seeds(),
        _ => Vec::new(),
    }
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Files under `dir` (recursively) whose names end with one of `suffixes`, sorted.
fn files_under(dir: &Path, suffixes: &[&str]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if suffixes.iter().any(|s| path.to_string_lossy().ends_with(s)) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn indexer_seeds() -> Vec<(String, Vec<u8>)> {
    let fixtures = repo().join("tests/fixtures");
    let mut seeds = Vec::new();
    let mut project = Vec::new();
    for path in files_under(&fixtures, &[".ts", ".tsx", ".js", ".jsx"]) {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let relative = path.strip_prefix(&fixtures).unwrap_or(&path);
        let name = relative.to_string_lossy().replace('/', "_");
        // One project of every fixture file, so the linker sees imports resolve.
        project.extend_from_slice(format!("//- {}\n", relative.display()).as_bytes());
        project.extend_from_slice(&bytes);
        project.push(b'\n');
        seeds.push((name, bytes));
    }
    seeds.push(("all-fixtures".to_owned(), project));
    seeds
}

fn toon_seeds() -> Vec<(String, Vec<u8>)> {
    let mut seeds = Vec::new();
    // The option byte 1: strict, indent 2 (see `toon`).
    for path in files_under(&repo().join("tests/golden"), &[".toon"]) {
        if let Ok(bytes) = std::fs::read(&path) {
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            seeds.push((name, [&[1u8][..], &bytes].concat()));
        }
    }
    let vectors = std::env::var_os("TOON_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("../shared/toon-fixtures"));
    for path in files_under(&vectors.join("decode"), &[".json"]) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(file) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        let stem = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let tests = file["tests"].as_array().cloned().unwrap_or_default();
        for (i, test) in tests.iter().enumerate() {
            let Some(input) = test["input"].as_str() else {
                continue;
            };
            let strict = test["options"]["strict"].as_bool().unwrap_or(true);
            let indent = test["options"]["indentSize"]
                .as_u64()
                .unwrap_or(2)
                .clamp(1, 4) as u8;
            let options = (indent - 1) | if strict { 0 } else { 4 };
            seeds.push((
                format!("{stem}-{i}"),
                [&[options][..], input.as_bytes()].concat(),
            ));
        }
    }
    seeds
}

fn store_seeds() -> Vec<(String, Vec<u8>)> {
    vec![
        // Nothing changed: the intact store, cleanly closed and as a killed writer left it.
        ("intact".to_owned(), vec![0]),
        ("intact-killed".to_owned(), vec![1]),
        // One byte in the first data page (the header), one in a later page.
        ("header-byte".to_owned(), vec![0, 0, 0x40, 0, 1, 0x5a]),
        (
            "page-3-bytes".to_owned(),
            vec![1, 3, 0x10, 0x02, 4, 1, 2, 3, 4],
        ),
        // A run of bytes anywhere in the file.
        (
            "anywhere".to_owned(),
            vec![0, 250, 0x00, 0x01, 8, 9, 9, 9, 9, 9, 9, 9, 9],
        ),
        // A node record's bytes.
        ("record".to_owned(), vec![0xff, 1, 2, 3, 4, 5, 6, 7, 8]),
        // The graph file: its node count, a section's place, bytes near its end (the
        // incoming entries and their index).
        (
            "graph-slots".to_owned(),
            vec![0xfe, 12, 0, 4, 0xff, 0xff, 0, 0],
        ),
        (
            "graph-section".to_owned(),
            vec![0xfe, 0x40, 0, 8, 1, 0, 0, 0, 0, 0, 0, 0],
        ),
        (
            "graph-tail".to_owned(),
            vec![0xfe, 0xf0, 0xff, 6, 0xff, 0xff, 0xff, 0x7f, 9, 9],
        ),
    ]
}
