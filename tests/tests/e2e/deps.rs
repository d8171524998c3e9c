//! `deps` on the monorepo fixtures: the packages a package depends on and those depending on
//! it, transitively and cut by depth, external packages, the imports that create each
//! dependency, every output format, and an unknown package (exit code 2 on the CLI).

use serde_json::Value;
use tsgraph::{DepsDirection, Format, Project, QueryRequest};
use tsgraph_tests::{check_golden, extension, fixture};

fn indexed(name: &str) -> (tempfile::TempDir, Project) {
    tsgraph_tests::indexed_fixture(name)
}

fn request(package: &str, direction: DepsDirection, max_depth: u32) -> QueryRequest {
    QueryRequest::Deps {
        package: package.to_owned(),
        direction,
        max_depth,
    }
}

fn json(project: &Project, request: &QueryRequest) -> Value {
    let mut out = Vec::new();
    project
        .query(request, Format::Json, &mut out)
        .expect("query");
    serde_json::from_slice(&out).expect("JSON")
}

/// `name@depth<via` per dependency, in output order.
fn packages(value: &Value) -> Vec<String> {
    value["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| {
            let mut row = format!("{}@{}", p["name"].as_str().unwrap_or(""), p["depth"]);
            if p["external"] == true {
                row.push_str(" (external)");
            }
            if p["depth"].as_u64() > Some(1) {
                row.push_str(&format!(" <{}", p["via"].as_str().unwrap_or("")));
            }
            row
        })
        .collect()
}

/// `package: from -> to` per listed import.
fn imports(value: &Value) -> Vec<String> {
    value["imports"]
        .as_array()
        .expect("imports")
        .iter()
        .map(|i| {
            format!(
                "{}: {}:{} -> {}",
                i["package"].as_str().unwrap_or(""),
                i["from"].as_str().unwrap_or(""),
                i["line"],
                i["to"].as_str().unwrap_or("-")
            )
        })
        .collect()
}

#[test]
fn out_lists_workspace_and_external_packages_with_their_imports() {
    let (_dir, project) = indexed("npm-workspaces");
    let value = json(&project, &request("@apps/api", DepsDirection::Out, 10));
    assert_eq!(
        packages(&value),
        ["@libs/logger@1", "@libs/toolkit@1", "express@1 (external)"]
    );
    assert_eq!(
        imports(&value),
        [
            "@libs/logger: apps/api/src/routes/users.ts:1 -> packages/logger/src/index.ts",
            "@libs/logger: apps/api/src/server.ts:2 -> packages/logger/src/index.ts",
            // Through the `exports` map into dist/, back to the sources.
            "@libs/toolkit: apps/api/src/routes/users.ts:3 -> packages/toolkit/src/math.ts",
            "@libs/toolkit: apps/api/src/routes/users.ts:2 -> packages/toolkit/src/strings.ts",
            "@libs/toolkit: apps/api/src/server.ts:3 -> packages/toolkit/src/index.ts",
            "express: apps/api/src/server.ts:null -> -",
        ]
    );
    assert_eq!(value["module"], "apps");
    assert_eq!(value["summary"]["external"], 1);
    assert_eq!(value["truncated"], false);
    // A leaf package depends on nothing.
    let leaf = json(&project, &request("@libs/logger", DepsDirection::Out, 10));
    assert_eq!(packages(&leaf), Vec::<String>::new());
    assert_eq!(leaf["imports"], serde_json::json!([]));
}

#[test]
fn in_lists_dependents_and_answers_for_an_external_package() {
    let (_dir, project) = indexed("npm-workspaces");
    let value = json(&project, &request("@libs/toolkit", DepsDirection::In, 10));
    assert_eq!(packages(&value), ["@apps/api@1"]);
    assert_eq!(value["direction"], "in");
    let express = json(&project, &request("express", DepsDirection::In, 10));
    assert_eq!(express["module"], Value::Null, "outside the project");
    assert_eq!(packages(&express), ["@apps/api@1"]);
    assert_eq!(
        imports(&express),
        ["@apps/api: apps/api/src/server.ts:null -> -"]
    );
}

#[test]
fn transitive_dependencies_and_the_depth_cut() {
    let (_dir, project) = indexed("yarn-nested");
    let value = json(&project, &request("frontend", DepsDirection::Out, 10));
    assert_eq!(
        packages(&value),
        ["shared@1", "ui@1", "toolkit@2 <shared"],
        "toolkit through shared (the first, by name, of the two that import it)"
    );
    // The import listed for a transitive dependency is the one from the package it was
    // reached through.
    assert!(
        imports(&value).contains(
            &"toolkit: modules/app/packages/shared/src/types.ts:1 -> libs/toolkit/src/index.ts"
                .to_owned()
        ),
        "{:#?}",
        imports(&value)
    );
    assert_eq!(value["summary"]["transitive"], 1);
    let cut = json(&project, &request("frontend", DepsDirection::Out, 1));
    assert_eq!(packages(&cut), ["shared@1", "ui@1"]);
    assert_eq!(cut["truncated"], true);
    assert_eq!(cut["limit"], 1);
    let dependents = json(&project, &request("toolkit", DepsDirection::In, 10));
    assert_eq!(
        packages(&dependents),
        ["backend@1", "shared@1", "ui@1", "frontend@2 <shared"]
    );
    // pnpm: orders → billing → db, and orders → db directly: db is direct.
    let (_dir, pnpm) = indexed("pnpm-workspace");
    let orders = json(&pnpm, &request("@acme/orders", DepsDirection::Out, 10));
    assert_eq!(
        packages(&orders),
        ["@acme/billing@1", "@acme/db@1", "zod@1 (external)"]
    );
}

#[test]
fn every_format_answers() {
    let (_dir, project) = indexed("npm-workspaces");
    let cases = [
        ("deps-api", request("@apps/api", DepsDirection::Out, 10)),
        (
            "deps-toolkit-in",
            request("@libs/toolkit", DepsDirection::In, 1),
        ),
    ];
    for (name, request) in cases {
        for format in Format::ALL {
            let mut out = Vec::new();
            project.query(&request, format, &mut out).expect("query");
            let text = String::from_utf8(out).expect("UTF-8");
            check_golden(
                &format!("npm-workspaces/{name}.{}", extension(format)),
                &text,
            );
        }
    }
    // TOON decodes, and says what JSON says about the packages.
    let mut out = Vec::new();
    project
        .query(
            &request("@apps/api", DepsDirection::Out, 10),
            Format::Toon,
            &mut out,
        )
        .expect("query");
    let toon = tsgraph_encoders::toon::to_value(&String::from_utf8(out).expect("UTF-8"))
        .expect("TOON decodes");
    let names: Vec<&str> = toon["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .chain(toon["external"].as_array().expect("external"))
        .map(|p| p["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(names, ["@libs/logger", "@libs/toolkit", "express"]);
    assert_eq!(toon["imports"].as_array().map(Vec::len), Some(6));
}

#[test]
fn an_unknown_package_suggests_names_and_exits_2() {
    let (dir, project) = indexed("npm-workspaces");
    let err = project
        .query(
            &request("toolkit", DepsDirection::Out, 10),
            Format::Toon,
            &mut Vec::new(),
        )
        .expect_err("no package is named toolkit");
    assert!(err.is_symbol_error());
    assert_eq!(
        err.to_string(),
        "no package named `toolkit`; closest: @libs/toolkit"
    );
    let root = fixture("npm-workspaces");
    let db = dir.path().join("graph.redb");
    let (code, stdout, stderr) = tsgraph_tests::cli_in(
        &root,
        &[
            "deps",
            "@nobody/else",
            "--format",
            "json",
            "--db",
            db.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(code, 2, "{stderr}");
    let error: Value = serde_json::from_str(&stdout).expect("a JSON error on stdout");
    assert_eq!(error["error"]["code"], "package_not_found");
    assert_eq!(
        error["error"]["suggestions"],
        serde_json::json!(["@apps/api", "@libs/logger", "@libs/toolkit"]),
        "nothing is close: every package of the project"
    );
}
