//! `deps` over a small hand-made graph of four packages: app → ui → kit, app → kit,
//! app → `lodash` (external), and a file of `kit` importing another of its own files.

#![allow(clippy::unwrap_used)] // Test helpers unwrap: a failure is the test failing.

use tsgraph_engine::{EdgeKind, EdgeSpec, FileEntry, GraphBatch, NodeKind, NodeRecord, Store};

use crate::{CollectSink, DepsDirection, DepsOptions, Query, QueryError};

fn file(batch: &mut GraphBatch, path: &str, package: &str, external: &[&str]) {
    batch.files.push(FileEntry {
        path: path.to_owned(),
        external: external.iter().map(|e| (*e).to_owned()).collect(),
        ..FileEntry::default()
    });
    let mut record = NodeRecord::new(path, NodeKind::File, path, path, 1, 9);
    record.package = package.to_owned();
    record.module = "packages".to_owned();
    batch.nodes.push(record);
}

fn import(batch: &mut GraphBatch, from: &str, to: &str, line: u32) {
    let mut edge = EdgeSpec::new(from, to, EdgeKind::Imports);
    edge.facts.sites.push(line);
    batch.edges.push(edge);
}

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    let mut batch = GraphBatch::default();
    file(&mut batch, "app/main.ts", "app", &["lodash"]);
    file(&mut batch, "app/extra.ts", "app", &[]);
    file(&mut batch, "ui/button.ts", "ui", &[]);
    file(&mut batch, "kit/a.ts", "kit", &[]);
    file(&mut batch, "kit/b.ts", "kit", &[]);
    import(&mut batch, "app/main.ts", "ui/button.ts", 1);
    import(&mut batch, "app/main.ts", "kit/a.ts", 2);
    import(&mut batch, "app/extra.ts", "kit/b.ts", 3);
    import(&mut batch, "ui/button.ts", "kit/a.ts", 1);
    import(&mut batch, "kit/a.ts", "kit/b.ts", 1);
    store.replace_all(&batch).unwrap();
    (dir, store)
}

fn deps(store: &Store, package: &str, direction: DepsDirection, depth: u32) -> CollectSink {
    let snapshot = store.snapshot().unwrap();
    let mut sink = CollectSink::default();
    let options = DepsOptions {
        direction,
        max_depth: depth,
    };
    Query::new(&snapshot)
        .deps(package, &options, &mut sink)
        .unwrap();
    sink
}

fn dependency(name: &str, depth: u32, via: &str) -> (String, u32, String) {
    (name.to_owned(), depth, via.to_owned())
}

#[test]
fn out_lists_internal_then_external_with_the_imports() {
    let (_dir, store) = store();
    let sink = deps(&store, "app", DepsDirection::Out, 10);
    assert_eq!(
        sink.dependencies,
        [
            dependency("kit", 1, "app"),
            dependency("ui", 1, "app"),
            dependency("lodash", 1, "app"),
        ]
    );
    let imports: Vec<(&str, &str, &str)> = sink
        .imports
        .iter()
        .map(|(p, f, t)| (p.as_str(), f.as_str(), t.as_str()))
        .collect();
    assert_eq!(
        imports,
        [
            ("kit", "app/extra.ts", "kit/b.ts"),
            ("kit", "app/main.ts", "kit/a.ts"),
            ("ui", "app/main.ts", "ui/button.ts"),
            ("lodash", "app/main.ts", ""),
        ]
    );
    assert!(!sink.summary.truncated);
}

#[test]
fn in_lists_each_dependent_once_and_external_packages_answer() {
    let (_dir, store) = store();
    let sink = deps(&store, "ui", DepsDirection::In, 10);
    assert_eq!(sink.dependencies, [dependency("app", 1, "ui")]);
    // kit is reached from app directly and through ui: depth 1, never listed twice.
    let sink = deps(&store, "kit", DepsDirection::In, 10);
    assert_eq!(
        sink.dependencies,
        [dependency("app", 1, "kit"), dependency("ui", 1, "kit")]
    );
    // A package outside the project answers inward: who imports it.
    let sink = deps(&store, "lodash", DepsDirection::In, 10);
    assert_eq!(sink.dependencies, [dependency("app", 1, "lodash")]);
    assert_eq!(sink.imports.len(), 1);
}

#[test]
fn depth_cuts_transitive_dependencies_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    let mut batch = GraphBatch::default();
    for (path, package) in [("a.ts", "a"), ("b.ts", "b"), ("c.ts", "c")] {
        file(&mut batch, path, package, &[]);
    }
    import(&mut batch, "a.ts", "b.ts", 1);
    import(&mut batch, "b.ts", "c.ts", 1);
    store.replace_all(&batch).unwrap();
    let all = deps(&store, "a", DepsDirection::Out, 10);
    assert_eq!(
        all.dependencies,
        [dependency("b", 1, "a"), dependency("c", 2, "b")]
    );
    // The import listed for c is the one between c and the package it was reached through.
    assert_eq!(all.imports[1], ("c".into(), "b.ts".into(), "c.ts".into()));
    assert!(!all.summary.truncated);
    let cut = deps(&store, "a", DepsDirection::Out, 1);
    assert_eq!(cut.dependencies, [dependency("b", 1, "a")]);
    assert!(cut.summary.truncated);
    assert_eq!(cut.summary.limit, 1);
}

#[test]
fn unknown_package_lists_close_names_or_all() {
    let (_dir, store) = store();
    let snapshot = store.snapshot().unwrap();
    let query = Query::new(&snapshot);
    let mut sink = CollectSink::default();
    let err = query
        .deps("kt", &DepsOptions::default(), &mut sink)
        .unwrap_err();
    match err {
        QueryError::UnknownPackage {
            package,
            suggestions,
            close,
        } => {
            assert_eq!(package, "kt");
            assert!(close);
            assert_eq!(suggestions[0], "kit");
        }
        other => panic!("{other:?}"),
    }
    let err = query
        .deps("zzzzzzzz", &DepsOptions::default(), &mut sink)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "no package named `zzzzzzzz`; the project's packages: app, kit, ui"
    );
}
