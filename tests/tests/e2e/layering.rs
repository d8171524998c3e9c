//! The crate layering rules, read from `cargo metadata`: a forbidden dependency edge fails.

use std::collections::BTreeSet;
use std::process::Command;

/// Which workspace crates each crate may depend on (normal and build dependencies).
const ALLOWED: &[(&str, &[&str])] = &[
    ("tsgraph-engine", &[]),
    ("tsgraph-indexer", &["tsgraph-engine"]),
    ("tsgraph-query", &["tsgraph-engine"]),
    ("tsgraph-encoders", &["tsgraph-query"]),
    (
        "tsgraph",
        &[
            "tsgraph-engine",
            "tsgraph-indexer",
            "tsgraph-query",
            "tsgraph-encoders",
        ],
    ),
    // What `tsgraph bench` measures stands on the library, like a front end.
    ("tsgraph-bench-harness", &["tsgraph"]),
    // The front ends (command line, MCP and language servers; the Node addon) stand on the
    // library, never below it.
    ("tsgraph-cli", &["tsgraph", "tsgraph-bench-harness"]),
    ("tsgraph-node", &["tsgraph"]),
];

/// Crates that only some crates may use: argv, MCP, LSP, Node-API, a terminal progress bar and
/// anyhow belong to the front ends (`tsgraph-cli`, `tsgraph-node`), not the library; tree-sitter belongs to the indexer; redb
/// to the engine.
const CONFINED: &[(&str, &[&str])] = &[
    // The test crate's helpers (the facts check) are test code, like the benchmarks.
    ("anyhow", &["tsgraph-cli", "tsgraph-bench", "tsgraph-tests"]),
    ("clap", &["tsgraph-cli"]),
    ("rmcp", &["tsgraph-cli"]),
    ("lsp-server", &["tsgraph-cli"]),
    ("napi", &["tsgraph-node"]),
    ("indicatif", &["tsgraph-cli"]),
    ("plotters", &["tsgraph-bench-harness"]),
    ("tree-sitter", &["tsgraph-indexer", "tsgraph-bench"]),
    ("redb", &["tsgraph-engine"]),
];

/// The workspace's `cargo metadata` (its own crates only).
pub(crate) fn metadata() -> serde_json::Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("metadata is JSON")
}

#[test]
fn workspace_dependencies_point_down_only() {
    let metadata = metadata();
    let packages = metadata["packages"].as_array().expect("packages");
    let members: BTreeSet<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let mut violations = Vec::new();
    for package in packages {
        let name = package["name"].as_str().unwrap_or_default();
        for dep in package["dependencies"].as_array().into_iter().flatten() {
            let dep_name = dep["name"].as_str().unwrap_or_default();
            let is_dev = dep["kind"].as_str() == Some("dev");
            if is_dev {
                continue;
            }
            if members.contains(dep_name)
                && let Some((_, allowed)) =
                    ALLOWED.iter().find(|(crate_name, _)| *crate_name == name)
                && !allowed.contains(&dep_name)
            {
                violations.push(format!("{name} -> {dep_name}"));
            }
            if let Some((_, owners)) = CONFINED.iter().find(|(confined, _)| *confined == dep_name)
                && !owners.contains(&name)
            {
                violations.push(format!("{name} -> {dep_name} (confined to {owners:?})"));
            }
        }
    }
    assert!(
        violations.is_empty(),
        "forbidden dependency edges:\n{}",
        violations.join("\n")
    );
    // The rules name every core crate, so a renamed crate cannot slip past them.
    for (name, _) in ALLOWED {
        assert!(members.contains(name), "{name} is not a workspace member");
    }
}

#[test]
fn the_encoders_graph_feature_is_what_pulls_in_query() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../encoders/Cargo.toml"
    ))
    .expect("manifest");
    let manifest: toml::Table = text.parse().expect("manifest is TOML");
    assert_eq!(
        manifest["dependencies"]["tsgraph-query"]["optional"].as_bool(),
        Some(true)
    );
    let graph = manifest["features"]["graph"]
        .as_array()
        .expect("graph feature");
    let enabled: Vec<&str> = graph.iter().filter_map(|v| v.as_str()).collect();
    assert!(enabled.contains(&"dep:tsgraph-query"), "{enabled:?}");
    // Whatever else the graph encoders need (csv for Neo4j) is optional too: the TOON
    // library alone pulls in none of it.
    for entry in enabled {
        let dependency = entry
            .strip_prefix("dep:")
            .expect("graph enables dependencies only");
        assert_eq!(
            manifest["dependencies"][dependency]["optional"].as_bool(),
            Some(true),
            "{dependency} must be optional"
        );
    }
}
