//! The library facade against the `basic` fixture: what gets indexed, the exact edges, and
//! every query in both formats (golden files).

use std::collections::BTreeSet;

use tsgraph::{
    Direction, NeighborOptions, PathOptions, Project, QueryRequest, SymbolArg, TraversalOptions,
};
use tsgraph_tests::{check_golden, fixture, golden};

fn indexed() -> (tempfile::TempDir, Project) {
    tsgraph_tests::indexed_fixture("basic")
}

/// Every edge as `SOURCE -KIND-> TARGET`.
fn edges(project: &Project) -> BTreeSet<String> {
    let mut out = Vec::new();
    project.export(&mut out).expect("export");
    let text = String::from_utf8(out).expect("UTF-8");
    text.lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).expect("JSON line"))
        .filter(|v| v["type"] == "edge")
        .map(|v| {
            format!(
                "{} -{}-> {}",
                v["source"].as_str().unwrap_or(""),
                v["kind"].as_str().unwrap_or(""),
                v["target"].as_str().unwrap_or("")
            )
        })
        .collect()
}

#[test]
fn indexing_skips_ignored_declaration_and_vendored_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let project =
        Project::open(fixture("basic"), Some(&dir.path().join("graph.redb"))).expect("open");
    let summary = project.index(&Default::default()).expect("index");
    let snapshot = project.snapshot().expect("snapshot");
    let files: Vec<String> = snapshot
        .files()
        .expect("files")
        .into_iter()
        .map(|(path, _)| path)
        .collect();
    assert_eq!(
        files,
        [
            "src/api/handlers.ts",
            "src/broken.ts",
            "src/db/client.ts",
            "src/db/user.ts",
            "src/index.ts",
            "src/main.ts",
            "src/model/user.ts",
            "src/services/UserService.ts",
            "src/services/base.ts",
            "src/ui/UserCard.tsx",
        ]
    );
    assert_eq!(summary.files, 10);
    assert!(summary.error_bytes > 0, "broken.ts has a syntax error");
    assert!(summary.error_share() < 0.05);
    assert!(
        summary.unresolved_calls > 0,
        "console.log and friends stay unresolved"
    );
}

#[test]
fn calls_resolve_across_files_through_imports_reexports_and_classes() {
    let (_dir, project) = indexed();
    let edges = edges(&project);
    let expected = [
        // Named import through a barrel (`export *`) and a default re-export (`default as route`).
        "src/main.ts:main -CALLS-> src/db/user.ts:saveUser",
        "src/main.ts:main -CALLS-> src/api/handlers.ts:route",
        // Module-level code is attributed to the file.
        "src/main.ts -CALLS-> src/main.ts:main",
        // `.js` specifier mapped to the `.ts` source; same-file call.
        "src/db/user.ts:saveUser -CALLS-> src/db/client.ts:insertRow",
        "src/db/user.ts:saveUser -CALLS-> src/db/user.ts:validate",
        // Class methods: `this.m()`, inherited `this.log()`, a default-imported class.
        "src/services/UserService.ts:UserService.save -CALLS-> src/services/UserService.ts:UserService.audit",
        "src/services/UserService.ts:UserService.rename -CALLS-> src/services/UserService.ts:UserService.save",
        "src/services/UserService.ts:UserService.audit -CALLS-> src/services/base.ts:BaseService.log",
        "src/services/UserService.ts:UserService.save -CALLS-> src/db/user.ts:saveUser",
        "src/db/client.ts:Connection.close -CALLS-> src/db/client.ts:Connection.flush",
        // Object-literal methods, a namespace import, `new` of an imported class.
        "src/api/handlers.ts:route -CALLS-> src/api/handlers.ts:handlers.get",
        "src/api/handlers.ts:route -CALLS-> src/api/handlers.ts:handlers.create",
        "src/api/handlers.ts:handlers.get -CALLS-> src/db/user.ts:findUser",
        "src/api/handlers.ts:handlers.create -CALLS-> src/services/UserService.ts:UserService",
        "src/api/handlers.ts:handlers.create -CALLS-> src/db/client.ts:Connection",
        // A local holding `new UserService(…)`: its method call resolves on the class.
        "src/api/handlers.ts:handlers.create -CALLS-> src/services/UserService.ts:UserService.save",
        // TSX: a component includes another; an arrow-function constant is called.
        "src/ui/UserCard.tsx:UserCard -INCLUDES-> src/ui/UserCard.tsx:Avatar",
        "src/ui/UserCard.tsx:Avatar -CALLS-> src/ui/UserCard.tsx:initials",
        // The file with a syntax error keeps what parsed on both sides of the error.
        "src/broken.ts:beforeError -CALLS-> src/db/user.ts:findUser",
        "src/broken.ts:afterError -CALLS-> src/broken.ts:beforeError",
        // Heritage, imports and containment.
        "src/services/UserService.ts:UserService -EXTENDS-> src/services/base.ts:BaseService",
        "src/services/UserService.ts:UserService -IMPLEMENTS-> src/services/base.ts:Service",
        "src/services/UserService.ts -IMPORTS-> src/db/user.ts",
        "src/index.ts -IMPORTS-> src/db/user.ts",
        "src/db/user.ts -IMPORTS-> src/model/user.ts",
        "src/services/UserService.ts -CONTAINS-> src/services/UserService.ts:UserService",
        "src/services/UserService.ts:UserService -CONTAINS-> src/services/UserService.ts:UserService.save",
    ];
    let missing: Vec<&str> = expected
        .iter()
        .copied()
        .filter(|e| !edges.contains(*e))
        .collect();
    assert!(
        missing.is_empty(),
        "missing edges:\n{}\n\nall edges:\n{}",
        missing.join("\n"),
        edges.iter().cloned().collect::<Vec<_>>().join("\n")
    );
    // Never an edge into a file that was not indexed.
    assert!(
        edges.iter().all(|e| !e.contains("node_modules")
            && !e.contains("generated/")
            && !e.contains(".d.ts"))
    );
}

fn golden_query(name: &str, request: QueryRequest) {
    let (_dir, project) = indexed();
    golden(&project, "basic", name, &request);
}

#[test]
fn callers_of_save_user() {
    golden_query(
        "callers-saveUser",
        QueryRequest::Callers {
            symbol: SymbolArg::new("saveUser"),
            options: TraversalOptions::default(),
        },
    );
}

#[test]
fn callees_of_route() {
    golden_query(
        "callees-route",
        QueryRequest::Callees {
            symbol: SymbolArg::new("route"),
            options: TraversalOptions {
                max_depth: 2,
                ..Default::default()
            },
        },
    );
}

#[test]
fn impact_of_find_user() {
    golden_query(
        "impact-findUser",
        QueryRequest::Impact {
            symbol: SymbolArg::new("src/db/user.ts:findUser"),
            options: TraversalOptions::default(),
        },
    );
}

#[test]
fn path_from_main_to_insert_row_and_back_reversed() {
    golden_query(
        "path-main-insertRow",
        QueryRequest::Path {
            from: SymbolArg::new("main"),
            to: SymbolArg::new("insertRow"),
            options: PathOptions::default(),
        },
    );
    golden_query(
        "path-insertRow-main",
        QueryRequest::Path {
            from: SymbolArg::new("insertRow"),
            to: SymbolArg::new("main"),
            options: PathOptions::default(),
        },
    );
    golden_query(
        "path-insertRow-findUser-none",
        QueryRequest::Path {
            from: SymbolArg::new("insertRow"),
            to: SymbolArg::new("findUser"),
            options: PathOptions::default(),
        },
    );
}

#[test]
fn neighbors_of_user_service_save() {
    golden_query(
        "neighbors-UserService.save",
        QueryRequest::Neighbors {
            symbol: SymbolArg::new("UserService.save"),
            options: NeighborOptions {
                distance: 1,
                direction: Direction::Both,
                max_nodes: 500,
                edge_kinds: None,
            },
        },
    );
}

#[test]
fn a_truncated_result_says_so() {
    golden_query(
        "callers-insertRow-truncated",
        QueryRequest::Callers {
            symbol: SymbolArg::new("insertRow"),
            options: TraversalOptions {
                max_depth: 5,
                max_nodes: 2,
                edge_kinds: None,
            },
        },
    );
}

#[test]
fn export_formats_for_graph_engines_carry_the_whole_graph() {
    let (_dir, project) = indexed();
    for (format, golden) in [
        (tsgraph::ExportFormat::GraphMl, "basic/export.graphml"),
        (tsgraph::ExportFormat::Dot, "basic/export.dot"),
    ] {
        let mut out = Vec::new();
        project.export_as(format, &mut out).expect("export");
        check_golden(golden, &String::from_utf8(out).expect("UTF-8"));
    }
    let (mut nodes, mut relationships) = (Vec::new(), Vec::new());
    project
        .export_neo4j(&mut nodes, &mut relationships)
        .expect("export");
    check_golden(
        "basic/export-neo4j-nodes.csv",
        &String::from_utf8(nodes).expect("UTF-8"),
    );
    check_golden(
        "basic/export-neo4j-relationships.csv",
        &String::from_utf8(relationships).expect("UTF-8"),
    );
    // Two files cannot go into one stream.
    let err = project
        .export_as(tsgraph::ExportFormat::Neo4j, &mut Vec::new())
        .expect_err("neo4j needs a folder");
    assert!(err.to_string().contains("--out"), "{err}");
}

#[test]
fn export_lists_every_node_and_edge() {
    let (_dir, project) = indexed();
    let mut out = Vec::new();
    project.export(&mut out).expect("export");
    check_golden(
        "basic/export.jsonl",
        &String::from_utf8(out).expect("UTF-8"),
    );
}
