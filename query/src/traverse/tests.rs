//! Traversal, path and symbol tests over small hand-made graphs.

#![allow(clippy::unwrap_used)] // Test helpers unwrap: a failure is the test failing.

use tsgraph_engine::{EdgeKind, EdgeSpec, GraphBatch, NodeKind, NodeRecord, Store};

use crate::{
    CollectSink, Direction, NeighborOptions, PathOptions, Query, SymbolMatch, TraversalOptions,
    resolve_symbol,
};

/// a.ts: f1 → f2 → f3 → f4, and h → f3; b.ts: g → f1, g references f4.
fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    let mut batch = GraphBatch::default();
    for (file, names) in [
        ("a.ts", &["f1", "f2", "f3", "f4", "h"][..]),
        ("b.ts", &["g", "save"][..]),
    ] {
        batch.add_file(file, 0);
        batch
            .nodes
            .push(NodeRecord::new(file, NodeKind::File, file, file, 1, 50));
        for (i, name) in names.iter().enumerate() {
            let line = 10 - i as u32; // declared bottom-up, so position order differs from key order
            batch.nodes.push(NodeRecord::new(
                format!("{file}:{name}"),
                NodeKind::Function,
                *name,
                file,
                line,
                line,
            ));
            batch.edges.push(EdgeSpec::new(
                file,
                format!("{file}:{name}"),
                EdgeKind::Contains,
            ));
        }
    }
    batch.nodes.push(NodeRecord::new(
        "b.ts:Repo.save",
        NodeKind::Method,
        "save",
        "b.ts",
        20,
        22,
    ));
    // An interface and a class sharing a name, as the indexer names them.
    batch.nodes.push(NodeRecord::new(
        "b.ts:Store",
        NodeKind::Interface,
        "Store",
        "b.ts",
        30,
        30,
    ));
    batch.nodes.push(NodeRecord::new(
        "b.ts:Store~Class",
        NodeKind::Class,
        "Store",
        "b.ts",
        31,
        40,
    ));
    for (from, to) in [
        ("a.ts:f1", "a.ts:f2"),
        ("a.ts:f2", "a.ts:f3"),
        ("a.ts:f3", "a.ts:f4"),
        ("a.ts:h", "a.ts:f3"),
        ("b.ts:g", "a.ts:f1"),
    ] {
        batch.edges.push(EdgeSpec::new(from, to, EdgeKind::Calls));
    }
    batch
        .edges
        .push(EdgeSpec::new("b.ts:g", "a.ts:f4", EdgeKind::References));
    batch
        .edges
        .push(EdgeSpec::new("b.ts", "a.ts", EdgeKind::Imports));
    store.replace_all(&batch).unwrap();
    (dir, store)
}

fn key(store: &Store, id: &str) -> tsgraph_engine::NodeKey {
    store.snapshot().unwrap().key_of(id).unwrap().unwrap()
}

fn ids(sink: &CollectSink) -> Vec<(&str, u32)> {
    sink.nodes.iter().map(|(id, d)| (id.as_str(), *d)).collect()
}

#[test]
fn callers_are_transitive_bounded_by_depth_and_in_position_order() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    let mut sink = CollectSink::default();
    Query::new(&snap)
        .callers(
            key(&store, "a.ts:f3"),
            &TraversalOptions::default(),
            &mut sink,
        )
        .unwrap();
    assert_eq!(
        ids(&sink),
        vec![("a.ts:h", 1), ("a.ts:f2", 1), ("a.ts:f1", 2), ("b.ts:g", 3)]
    );
    let mut shallow = CollectSink::default();
    let options = TraversalOptions {
        max_depth: 1,
        ..TraversalOptions::default()
    };
    Query::new(&snap)
        .callers(key(&store, "a.ts:f3"), &options, &mut shallow)
        .unwrap();
    assert_eq!(ids(&shallow), vec![("a.ts:h", 1), ("a.ts:f2", 1)]);
}

#[test]
fn a_hub_is_truncated_and_says_so() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    let mut sink = CollectSink::default();
    let options = TraversalOptions {
        max_depth: 5,
        max_nodes: 2,
    };
    let summary = Query::new(&snap)
        .callers(key(&store, "a.ts:f4"), &options, &mut sink)
        .unwrap();
    assert!(summary.truncated);
    assert_eq!(sink.nodes.len(), 2);
}

#[test]
fn callees_and_impact() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    let mut callees = CollectSink::default();
    Query::new(&snap)
        .callees(
            key(&store, "b.ts:g"),
            &TraversalOptions::default(),
            &mut callees,
        )
        .unwrap();
    assert_eq!(
        ids(&callees),
        vec![
            ("a.ts:f4", 4),
            ("a.ts:f3", 3),
            ("a.ts:f2", 2),
            ("a.ts:f1", 1)
        ]
    );
    let mut impact = CollectSink::default();
    Query::new(&snap)
        .impact(
            key(&store, "a.ts:f4"),
            &TraversalOptions::default(),
            &mut impact,
        )
        .unwrap();
    // g reaches f4 directly by REFERENCES; CONTAINS is not followed, so a.ts is not impacted.
    assert_eq!(
        ids(&impact),
        vec![
            ("a.ts:h", 2),
            ("a.ts:f3", 1),
            ("a.ts:f2", 2),
            ("a.ts:f1", 3),
            ("b.ts:g", 1)
        ]
    );
}

#[test]
fn shortest_path_and_no_path() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    let mut sink = CollectSink::default();
    let summary = Query::new(&snap)
        .path(
            key(&store, "b.ts:g"),
            key(&store, "a.ts:f3"),
            &PathOptions::default(),
            &mut sink,
        )
        .unwrap();
    assert!(summary.found);
    assert_eq!(
        ids(&sink),
        vec![
            ("b.ts:g", 0),
            ("a.ts:f1", 1),
            ("a.ts:f2", 2),
            ("a.ts:f3", 3)
        ]
    );
    assert_eq!(sink.edges.len(), 3);
    assert_eq!(
        sink.edges[0],
        (
            "b.ts:g".to_owned(),
            "CALLS".to_owned(),
            "a.ts:f1".to_owned()
        )
    );
    let mut to_f4 = CollectSink::default();
    Query::new(&snap)
        .path(
            key(&store, "b.ts:g"),
            key(&store, "a.ts:f4"),
            &PathOptions::default(),
            &mut to_f4,
        )
        .unwrap();
    assert_eq!(
        to_f4.edges,
        vec![(
            "b.ts:g".to_owned(),
            "REFERENCES".to_owned(),
            "a.ts:f4".to_owned()
        )]
    );
    let mut none = CollectSink::default();
    let summary = Query::new(&snap)
        .path(
            key(&store, "a.ts:f4"),
            key(&store, "b.ts:g"),
            &PathOptions::default(),
            &mut none,
        )
        .unwrap();
    assert!(!summary.found && !summary.truncated);
    assert!(none.nodes.is_empty());
}

#[test]
fn neighbors_include_the_center_and_edges_between_results() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    let mut sink = CollectSink::default();
    let options = NeighborOptions {
        distance: 1,
        direction: Direction::Out,
        max_nodes: 100,
    };
    Query::new(&snap)
        .neighbors(key(&store, "b.ts:g"), &options, &mut sink)
        .unwrap();
    assert_eq!(
        ids(&sink),
        vec![("a.ts:f4", 1), ("a.ts:f1", 1), ("b.ts:g", 0)]
    );
    assert_eq!(
        sink.edges,
        vec![
            (
                "b.ts:g".to_owned(),
                "CALLS".to_owned(),
                "a.ts:f1".to_owned()
            ),
            (
                "b.ts:g".to_owned(),
                "REFERENCES".to_owned(),
                "a.ts:f4".to_owned()
            ),
        ]
    );
}

#[test]
fn symbols_resolve_exactly_or_list_candidates() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    assert_eq!(
        resolve_symbol(&snap, "a.ts:f1", None).unwrap(),
        SymbolMatch::Found(key(&store, "a.ts:f1"))
    );
    assert_eq!(
        resolve_symbol(&snap, "f2", None).unwrap(),
        SymbolMatch::Found(key(&store, "a.ts:f2"))
    );
    assert_eq!(
        resolve_symbol(&snap, "a.ts", None).unwrap(),
        SymbolMatch::Found(key(&store, "a.ts"))
    );
    assert_eq!(
        resolve_symbol(&snap, "save", None).unwrap(),
        SymbolMatch::Ambiguous(vec!["b.ts:Repo.save".to_owned(), "b.ts:save".to_owned()])
    );
    assert_eq!(
        resolve_symbol(&snap, "Repo.save", None).unwrap(),
        SymbolMatch::Found(key(&store, "b.ts:Repo.save"))
    );
    assert_eq!(
        resolve_symbol(&snap, "save", Some("b.ts")).unwrap(),
        SymbolMatch::Found(key(&store, "b.ts:save"))
    );
    match resolve_symbol(&snap, "f1", Some("b.ts")).unwrap() {
        SymbolMatch::NotFound(names) => assert_eq!(names.first().map(String::as_str), Some("f1")),
        other => panic!("{other:?}"),
    }
    match resolve_symbol(&snap, "sav", None).unwrap() {
        SymbolMatch::NotFound(names) => assert_eq!(names.first().map(String::as_str), Some("save")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn neighbors_count_the_center_against_the_limit() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    let mut sink = CollectSink::default();
    let options = NeighborOptions {
        distance: 2,
        direction: Direction::Both,
        max_nodes: 2,
    };
    let summary = Query::new(&snap)
        .neighbors(key(&store, "a.ts:f3"), &options, &mut sink)
        .unwrap();
    assert!(summary.truncated);
    assert_eq!(sink.nodes.len(), 2);
}

#[test]
fn a_path_to_itself_is_one_node() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    let mut sink = CollectSink::default();
    let f1 = key(&store, "a.ts:f1");
    let summary = Query::new(&snap)
        .path(f1, f1, &PathOptions::default(), &mut sink)
        .unwrap();
    assert!(summary.found);
    assert_eq!(ids(&sink), vec![("a.ts:f1", 0)]);
    assert!(sink.edges.is_empty());
}

#[test]
fn an_exact_id_in_another_file_than_asked_is_not_taken() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    assert!(matches!(
        resolve_symbol(&snap, "a.ts:f1", Some("b.ts")).unwrap(),
        SymbolMatch::NotFound(_)
    ));
}

#[test]
fn a_name_shared_by_a_class_and_an_interface_is_ambiguous() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    assert_eq!(
        resolve_symbol(&snap, "Store", None).unwrap(),
        SymbolMatch::Ambiguous(vec!["b.ts:Store".to_owned(), "b.ts:Store~Class".to_owned()])
    );
    assert_eq!(
        resolve_symbol(&snap, "b.ts:Store~Class", None).unwrap(),
        SymbolMatch::Found(key(&store, "b.ts:Store~Class"))
    );
}
