//! Locates and loads the TOON spec conformance vectors from `../shared/toon-fixtures` (or
//! `$TOON_FIXTURES`). Where the folder is missing the tests say so loudly and pass, unless `CI`
//! is set, in which case a missing folder is a failure.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// One test vector of a fixture file.
#[derive(Debug)]
pub(crate) struct Case {
    /// `file.json: name`, for failure messages.
    pub(crate) label: String,
    /// The `input` field: a JSON value (encode) or a TOON string (decode).
    pub(crate) input: Value,
    /// The `expected` field.
    pub(crate) expected: Value,
    /// Whether decoding must fail.
    pub(crate) should_error: bool,
    /// The `options` object, `Null` when absent.
    pub(crate) options: Value,
}

/// The fixture root, or `None` (after printing a loud skip line) when it is missing outside CI.
pub(crate) fn root() -> Option<PathBuf> {
    let dir = match std::env::var_os("TOON_FIXTURES") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/toon-fixtures"),
    };
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!(
            "TOON fixtures not found at {} (CI is set, so this is a failure)",
            dir.display()
        );
    }
    eprintln!("skipped: fixtures not found at {}", dir.display());
    None
}

/// Every case of every file in `root/<category>/`, in file-name order.
pub(crate) fn load(category: &str) -> Vec<Case> {
    let Some(root) = root() else {
        return Vec::new();
    };
    let dir = root.join(category);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("fixture file is UTF-8");
        let doc: Value = serde_json::from_str(&text).expect("fixture file is JSON");
        let file_name = file
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for test in doc["tests"].as_array().expect("tests array") {
            cases.push(Case {
                label: format!("{file_name}: {}", test["name"].as_str().unwrap_or("?")),
                input: test["input"].clone(),
                expected: test["expected"].clone(),
                should_error: test["shouldError"].as_bool().unwrap_or(false),
                options: test.get("options").cloned().unwrap_or(Value::Null),
            });
        }
    }
    assert!(
        !cases.is_empty(),
        "no fixture cases under {}",
        dir.display()
    );
    cases
}
