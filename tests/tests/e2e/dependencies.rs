//! Every declared dependency is used: each crate names each of its dependencies in its Rust
//! sources, and each entry of the workspace's dependency table is taken by some crate
//! (cargo-machete reads crate manifests only, so it misses the second).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::layering::metadata;

/// The Rust sources of the package in `folder`, leaving out packages nested inside it and
/// build output.
fn rust_sources(folder: &Path, top: bool, found: &mut Vec<PathBuf>) {
    if !top && folder.join("Cargo.toml").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            if name != "target" && name != "fixtures" && name != "node_modules" {
                rust_sources(&path, false, found);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// Whether `text` names the crate `name` as Rust code does: a path `name::…` (not the tail of
/// a longer identifier such as `serde_json::` for `json`, nor the head of one such as
/// `serde_json` for `serde`), or `extern crate name`.
fn names_crate(text: &str, name: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let path = format!("{name}::");
    let as_path = text
        .match_indices(&path)
        .any(|(at, _)| !text[..at].chars().next_back().is_some_and(is_ident));
    as_path || text.contains(&format!("extern crate {name}"))
}

#[test]
fn every_crate_uses_every_dependency_it_declares() {
    let metadata = metadata();
    let mut unused = Vec::new();
    for package in metadata["packages"].as_array().expect("packages") {
        let name = package["name"].as_str().expect("name");
        let manifest = PathBuf::from(package["manifest_path"].as_str().expect("manifest"));
        let mut files = Vec::new();
        rust_sources(manifest.parent().expect("folder"), true, &mut files);
        let text: String = files
            .iter()
            .filter_map(|file| std::fs::read_to_string(file).ok())
            .collect();
        for dependency in package["dependencies"].as_array().expect("dependencies") {
            let declared = dependency["rename"]
                .as_str()
                .or_else(|| dependency["name"].as_str())
                .expect("dependency name");
            let in_code = declared.replace('-', "_");
            if !names_crate(&text, &in_code) {
                unused.push(format!("{name} declares {declared} and never names it"));
            }
        }
    }
    assert!(unused.is_empty(), "{}", unused.join("\n"));
}

#[test]
fn every_workspace_dependency_is_taken_by_a_crate() {
    let metadata = metadata();
    let taken: BTreeSet<&str> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .flat_map(|package| package["dependencies"].as_array().expect("dependencies"))
        .filter_map(|dependency| dependency["name"].as_str())
        .collect();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml");
    let manifest: toml::Table = std::fs::read_to_string(root)
        .expect("workspace manifest")
        .parse()
        .expect("TOML");
    let table = manifest["workspace"]["dependencies"]
        .as_table()
        .expect("workspace dependencies");
    let untaken: Vec<&String> = table
        .keys()
        .filter(|name| !taken.contains(name.as_str()))
        .collect();
    assert!(
        untaken.is_empty(),
        "declared in [workspace.dependencies], used by no crate: {untaken:?}"
    );
}

#[test]
fn the_check_sees_a_crate_named_only_in_a_comment_as_unused() {
    assert!(!names_crate("// uses memmap2 for the file", "memmap2"));
    assert!(names_crate(
        "let map = memmap2::Mmap::map(&file);",
        "memmap2"
    ));
    assert!(names_crate("use bytes::BytesMut;", "bytes"));
    // A longer crate name is not this one, as a prefix or as a suffix.
    assert!(!names_crate("use serde_json::Value;", "serde"));
    assert!(!names_crate("let v = my_serde::x();", "serde"));
    assert!(names_crate("#[derive(serde::Serialize)]", "serde"));
}
