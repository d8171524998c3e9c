//! The project model end to end: monorepo fixtures whose packages import each other through
//! tsconfig path aliases, workspace package names, `exports` maps into build output, `imports`
//! (`#internal`) and project references. The graph must connect the packages, and queries
//! must answer across them.

use std::collections::BTreeSet;

use tsgraph::{Format, PathOptions, Project, QueryRequest, SymbolArg, TraversalOptions};
use tsgraph_tests::fixture;

fn indexed(name: &str) -> (tempfile::TempDir, Project, tsgraph::IndexSummary) {
    let dir = tempfile::tempdir().expect("temp dir");
    let project = Project::open(fixture(name), Some(&dir.path().join("graph.redb"))).expect("open");
    let summary = project.index(&Default::default()).expect("index");
    (dir, project, summary)
}

/// Edges of one kind as `SOURCE -> TARGET`.
fn edges(project: &Project, kind: &str) -> BTreeSet<String> {
    tsgraph_tests::edges_of(project, kind)
}

/// The node IDs a query answers with (JSON format).
fn answer(project: &Project, request: QueryRequest) -> Vec<String> {
    let mut out = Vec::new();
    project
        .query(&request, Format::Json, &mut out)
        .expect("query");
    let value: serde_json::Value = serde_json::from_slice(&out).expect("JSON");
    // Paths answer with `paths[].nodes`, the other queries with `nodes`.
    let nodes = if value["query"] == "path" {
        &value["paths"][0]["nodes"]
    } else {
        &value["nodes"]
    };
    let mut ids: Vec<String> = nodes
        .as_array()
        .map(|nodes| {
            nodes
                .iter()
                .filter_map(|n| n["id"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    ids.sort();
    ids
}

fn has_all(actual: &BTreeSet<String>, expected: &[&str]) {
    for edge in expected {
        assert!(actual.contains(*edge), "missing {edge} in:\n{actual:#?}");
    }
}

#[test]
fn path_aliases_with_base_url_and_fallback_targets() {
    let (_dir, project, summary) = indexed("paths-alias");
    has_all(
        &edges(&project, "CALLS"),
        &[
            "src/services/invoices.ts:invoiceFor -> src/shared/format.ts:formatDate",
            "src/services/orders.ts:describeOrder -> src/shared/format.ts:formatPrice",
            // `@ids/*` falls back to the second target, the generated folder.
            "src/services/orders.ts:createOrder -> generated/shared/ids.ts:newOrderId",
        ],
    );
    assert!(
        !summary
            .imports_by_outcome
            .iter()
            .any(|(outcome, _)| outcome == "missing file"),
        "{:?}",
        summary.imports_by_outcome
    );
}

#[test]
fn npm_workspaces_reach_sources_through_exports_into_dist() {
    let (_dir, project, _) = indexed("npm-workspaces");
    has_all(
        &edges(&project, "IMPORTS"),
        &[
            "apps/api/src/routes/users.ts -> packages/toolkit/src/strings.ts",
            "apps/api/src/routes/users.ts -> packages/logger/src/index.ts",
        ],
    );
    has_all(
        &edges(&project, "CALLS"),
        &[
            "apps/api/src/routes/users.ts:listUsers -> packages/toolkit/src/strings.ts:slugify",
            "apps/api/src/routes/users.ts:listUsers -> packages/logger/src/index.ts:log",
            "apps/api/src/server.ts:start -> apps/api/src/routes/users.ts:listUsers",
        ],
    );
    // Callees cross packages; impact of a shared helper lists its callers in other packages.
    let callees = answer(
        &project,
        QueryRequest::Callees {
            symbol: SymbolArg::new("apps/api/src/server.ts:start"),
            options: TraversalOptions::default(),
        },
    );
    assert!(
        callees.contains(&"packages/toolkit/src/internal/cache.ts:memo".to_owned()),
        "{callees:?}"
    );
    let impact = answer(
        &project,
        QueryRequest::Impact {
            symbol: SymbolArg::new("packages/toolkit/src/internal/cache.ts:memo"),
            options: TraversalOptions::default(),
        },
    );
    assert!(
        impact.contains(&"apps/api/src/routes/users.ts:listUsers".to_owned()),
        "{impact:?}"
    );
    let path = answer(
        &project,
        QueryRequest::Path {
            from: SymbolArg::new("apps/api/src/server.ts:start"),
            to: SymbolArg::new("packages/toolkit/src/internal/cache.ts:memo"),
            options: PathOptions::default(),
        },
    );
    assert_eq!(
        path,
        [
            "apps/api/src/routes/users.ts:listUsers",
            "apps/api/src/server.ts:start",
            "packages/toolkit/src/internal/cache.ts:memo",
            "packages/toolkit/src/strings.ts:slugify",
        ]
    );
}

#[test]
fn pnpm_workspace_with_internal_imports() {
    let (_dir, project, _) = indexed("pnpm-workspace");
    let calls = edges(&project, "CALLS");
    let crossing: Vec<&String> = calls
        .iter()
        .filter(|e| e.starts_with("services/orders/") && e.contains("-> services/billing/"))
        .collect();
    assert!(!crossing.is_empty(), "orders calls billing: {calls:#?}");
    assert!(
        calls.iter().any(|e| e.starts_with("services/billing/")
            && e.contains("-> services/billing/src/internal/")),
        "`#internal` imports resolve: {calls:#?}"
    );
    assert!(
        calls
            .iter()
            .any(|e| e.contains("-> shared/db/src/index.ts:")),
        "the shared db package is reached: {calls:#?}"
    );
}

#[test]
fn project_references_resolve_to_sources_not_declarations() {
    let (_dir, project, _) = indexed("project-references");
    let calls = edges(&project, "CALLS");
    assert!(
        calls
            .iter()
            .any(|e| e.starts_with("packages/server/src/") && e.contains("-> packages/core/src/")),
        "{calls:#?}"
    );
}

#[test]
fn extends_chains_and_a_cycle_warning() {
    let (_dir, project, summary) = indexed("extends-chain");
    let calls = edges(&project, "CALLS");
    assert!(
        calls
            .iter()
            .any(|e| e.starts_with("apps/web/src/") && e.contains("-> libs/util/src/")),
        "{calls:#?}"
    );
    assert!(
        summary
            .warnings
            .iter()
            .any(|w| w.contains("extends cycle") && w.contains("apps/legacy/tsconfig.json")),
        "{:?}",
        summary.warnings
    );
}

#[test]
fn nested_yarn_packages_and_modules_from_the_ts_graph_mcp_config() {
    let (_dir, project, _) = indexed("yarn-nested");
    let calls = edges(&project, "CALLS");
    assert!(
        calls
            .iter()
            .any(|e| e.starts_with("modules/app/packages/frontend/")
                && e.contains("-> libs/ui/src/")),
        "{calls:#?}"
    );
    // Packages and modules are on every node.
    let snapshot = project.snapshot().expect("snapshot");
    let key = snapshot
        .key_of("libs/ui/src/Button.ts")
        .expect("read")
        .expect("the file node");
    let guard = snapshot.node(key).expect("read").expect("node");
    let view = guard.view().expect("view");
    assert!(!view.package().is_empty(), "a package name");
    assert!(!view.module().is_empty(), "a module");
}
