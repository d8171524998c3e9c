//! Traversal, path and symbol tests over small hand-made graphs.

#![allow(clippy::unwrap_used)] // Test helpers unwrap: a failure is the test failing.

use tsgraph_engine::{EdgeKind, EdgeSpec, GraphBatch, NodeKind, NodeRecord, Store};

use crate::{
    Candidate, CollectSink, Direction, EdgeKinds, NeighborOptions, PathOptions, Query,
    SearchOptions, Stop, Strategy, SymbolMatch, TraversalOptions, resolve_symbol,
};

/// The candidates of an ambiguous match as (ID, kind).
fn ambiguous(found: SymbolMatch) -> Vec<(String, NodeKind)> {
    match found {
        SymbolMatch::Ambiguous(candidates) => candidates
            .into_iter()
            .map(|Candidate { id, kind, .. }| (id, kind))
            .collect(),
        other => panic!("not ambiguous: {other:?}"),
    }
}

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
        edge_kinds: None,
    };
    let summary = Query::new(&snap)
        .callers(key(&store, "a.ts:f4"), &options, &mut sink)
        .unwrap();
    assert!(summary.truncated);
    assert_eq!(summary.stop, Stop::NodeLimit);
    assert_eq!(sink.nodes.len(), 2);
}

#[test]
fn a_traversal_says_whether_its_depth_bound_cut_anything() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    let f3 = key(&store, "a.ts:f3");
    let stop_at = |max_depth| {
        let options = TraversalOptions {
            max_depth,
            ..TraversalOptions::default()
        };
        let summary = Query::new(&snap)
            .callers(f3, &options, &mut CollectSink::default())
            .unwrap();
        assert!(!summary.truncated);
        summary.stop
    };
    // Callers of f3: h and f2 at 1, f1 at 2, g at 3, nothing further.
    assert_eq!(stop_at(1), Stop::DepthBound);
    assert_eq!(stop_at(2), Stop::DepthBound);
    assert_eq!(stop_at(3), Stop::Complete);
    assert_eq!(stop_at(5), Stop::Complete);
}

#[test]
fn every_traversal_explains_its_plan_and_what_it_read() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    let summary = Query::new(&snap)
        .callers(
            key(&store, "a.ts:f3"),
            &TraversalOptions::default(),
            &mut CollectSink::default(),
        )
        .unwrap();
    let explain = summary.explain.unwrap();
    assert_eq!(explain.plan.strategy, Strategy::BoundedBfs);
    assert_eq!(explain.plan.direction, Direction::In);
    assert_eq!(explain.plan.edge_kinds, EdgeKinds::CALLS);
    assert_eq!(explain.nodes_reached, 4);
    // f3 and its four callers; the walk ran dry before its depth bound, so it looked no
    // further.
    assert_eq!(explain.lists_read, 5);
    let paths = PathOptions {
        k: 2,
        ..PathOptions::default()
    };
    let summary = Query::new(&snap)
        .path(
            key(&store, "b.ts:g"),
            key(&store, "a.ts:f4"),
            &paths,
            &mut CollectSink::default(),
        )
        .unwrap();
    let explain = summary.explain.unwrap();
    assert_eq!(explain.plan.strategy, Strategy::KShortest { k: 2 });
    assert_eq!(explain.stop, Stop::Complete);
    assert!(explain.nodes_reached > 0 && explain.lists_read > 0);
}

#[test]
fn a_path_search_cut_by_its_depth_says_so() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    let options = PathOptions {
        max_depth: 2,
        ..PathOptions::default()
    };
    let summary = Query::new(&snap)
        .path(
            key(&store, "b.ts:g"),
            key(&store, "a.ts:f3"),
            &options,
            &mut CollectSink::default(),
        )
        .unwrap();
    assert!(!summary.found);
    assert_eq!(summary.stop, Stop::DepthBound);
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
    // Asked the wrong way round: the path that exists, from g to f4.
    let mut back = CollectSink::default();
    let summary = Query::new(&snap)
        .path(
            key(&store, "a.ts:f4"),
            key(&store, "b.ts:g"),
            &PathOptions::default(),
            &mut back,
        )
        .unwrap();
    assert!(summary.found);
    assert_eq!(ids(&back), vec![("b.ts:g", 0), ("a.ts:f4", 1)]);
    assert_eq!(summary.explain.unwrap().plan.walks, 2);
    // A search the way asked that its node limit cut says so; the other way is not tried.
    let cut = PathOptions {
        max_nodes: 1,
        ..PathOptions::default()
    };
    let summary = Query::new(&snap)
        .path(
            key(&store, "a.ts:f3"),
            key(&store, "b.ts:g"),
            &cut,
            &mut CollectSink::default(),
        )
        .unwrap();
    assert!(!summary.found && summary.truncated);
    assert_eq!(summary.explain.unwrap().plan.walks, 1);
    // No path either way: h and g share only a callee.
    let mut none = CollectSink::default();
    let summary = Query::new(&snap)
        .path(
            key(&store, "a.ts:h"),
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
        edge_kinds: None,
    };
    Query::new(&snap)
        .neighbors(key(&store, "b.ts:g"), &options, &mut sink)
        .unwrap();
    assert_eq!(ids(&sink), vec![("a.ts:f4", 1), ("a.ts:f1", 1)]);
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
        ambiguous(resolve_symbol(&snap, "save", None).unwrap()),
        [
            ("b.ts:Repo.save".to_owned(), NodeKind::Method),
            ("b.ts:save".to_owned(), NodeKind::Function)
        ]
    );
    assert_eq!(
        resolve_symbol(&snap, "Repo.save", None).unwrap(),
        SymbolMatch::Found(key(&store, "b.ts:Repo.save"))
    );
    assert_eq!(
        resolve_symbol(&snap, "save", Some("b.ts")).unwrap(),
        SymbolMatch::Found(key(&store, "b.ts:save"))
    );
    // A name that exists, but not in the file asked for (nor in one it imports): the files
    // that hold it, and the rejected name is not suggested back.
    match resolve_symbol(&snap, "g", Some("a.ts")).unwrap() {
        SymbolMatch::NotFound {
            suggestions,
            elsewhere,
        } => {
            assert_eq!(elsewhere.len(), 1);
            assert_eq!(elsewhere[0].id, "b.ts:g");
            assert!(!suggestions.iter().any(|s| s == "g"), "{suggestions:?}");
        }
        other => panic!("{other:?}"),
    }
    // b.ts imports a.ts naming nothing, as `export * from "./a"` is stored, but a.ts's f1
    // is not exported: nothing brings it into b.ts, so it is only said to be elsewhere (the
    // barrels fixture covers exported declarations).
    match resolve_symbol(&snap, "f1", Some("b.ts")).unwrap() {
        SymbolMatch::NotFound { elsewhere, .. } => assert_eq!(elsewhere[0].id, "a.ts:f1"),
        other => panic!("{other:?}"),
    }
    match resolve_symbol(&snap, "sav", None).unwrap() {
        SymbolMatch::NotFound { suggestions, .. } => {
            assert_eq!(suggestions.first().map(String::as_str), Some("save"))
        }
        other => panic!("{other:?}"),
    }
    // Case is ignored when nothing matches exactly.
    assert_eq!(
        resolve_symbol(&snap, "repo.SAVE", None).unwrap(),
        SymbolMatch::Found(key(&store, "b.ts:Repo.save"))
    );
    // A typo inside an ID is suggested as the ID, never the rejected text itself.
    match resolve_symbol(&snap, "a.ts:f11", None).unwrap() {
        SymbolMatch::NotFound { suggestions, .. } => {
            assert!(
                suggestions.contains(&"a.ts:f1".to_owned()),
                "{suggestions:?}"
            );
            assert!(!suggestions.contains(&"a.ts:f11".to_owned()));
        }
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
        edge_kinds: None,
    };
    let summary = Query::new(&snap)
        .neighbors(key(&store, "a.ts:f3"), &options, &mut sink)
        .unwrap();
    assert!(summary.truncated);
    assert_eq!(
        sink.nodes.len(),
        1,
        "the center takes one of the two places"
    );
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
        SymbolMatch::NotFound { .. }
    ));
}

#[test]
fn a_name_shared_by_a_class_and_an_interface_is_ambiguous() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    assert_eq!(
        ambiguous(resolve_symbol(&snap, "Store", None).unwrap()),
        [
            ("b.ts:Store".to_owned(), NodeKind::Interface),
            ("b.ts:Store~Class".to_owned(), NodeKind::Class)
        ]
    );
    assert_eq!(
        resolve_symbol(&snap, "b.ts:Store~Class", None).unwrap(),
        SymbolMatch::Found(key(&store, "b.ts:Store~Class"))
    );
}

/// i.ts: interface W { add }, c.ts: class S implements W { add }, e.ts: main → run → W.add
/// (typed) and run → S.add (dispatch); and a class T whose method T.m is called by main.
fn interface_store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    let mut batch = GraphBatch::default();
    let nodes = [
        ("i.ts", "W", NodeKind::Interface, 1),
        ("i.ts", "W.add", NodeKind::Method, 2),
        ("c.ts", "S", NodeKind::Class, 1),
        ("c.ts", "S.add", NodeKind::Method, 2),
        ("c.ts", "T", NodeKind::Class, 10),
        ("c.ts", "T.m", NodeKind::Method, 11),
        ("e.ts", "main", NodeKind::Function, 1),
        ("e.ts", "run", NodeKind::Function, 5),
    ];
    for file in ["i.ts", "c.ts", "e.ts"] {
        batch.add_file(file, 0);
        batch
            .nodes
            .push(NodeRecord::new(file, NodeKind::File, file, file, 1, 20));
    }
    for (file, symbol, kind, line) in nodes {
        let name = symbol.rsplit('.').next().unwrap();
        let id = format!("{file}:{symbol}");
        batch
            .nodes
            .push(NodeRecord::new(&id, kind, name, file, line, line + 1));
        let parent = match symbol.rsplit_once('.') {
            Some((parent, _)) => format!("{file}:{parent}"),
            None => file.to_owned(),
        };
        batch
            .edges
            .push(EdgeSpec::new(parent, id, EdgeKind::Contains));
    }
    let mut typed = EdgeSpec::new("e.ts:run", "i.ts:W.add", EdgeKind::Calls);
    typed.facts.count = 3;
    typed.facts.resolution = tsgraph_engine::Resolution::Typed.as_u8();
    let mut dispatch = EdgeSpec::new("e.ts:run", "c.ts:S.add", EdgeKind::Calls);
    dispatch.facts.resolution = tsgraph_engine::Resolution::Dispatch.as_u8();
    batch.edges.extend([
        typed,
        dispatch,
        EdgeSpec::new("e.ts:main", "e.ts:run", EdgeKind::Calls),
        EdgeSpec::new("e.ts:main", "c.ts:T.m", EdgeKind::Calls),
        EdgeSpec::new("e.ts:main", "c.ts:T", EdgeKind::Calls),
        EdgeSpec::new("c.ts:S", "i.ts:W", EdgeKind::Implements),
        EdgeSpec::new("c.ts:S.add", "i.ts:W.add", EdgeKind::Implements),
    ]);
    store.replace_all(&batch).unwrap();
    (dir, store)
}

#[test]
fn a_path_goes_through_the_interface_member_not_the_dispatch_shortcut() {
    let (_dir, store) = interface_store();
    let snap = store.snapshot().unwrap();
    let mut sink = CollectSink::default();
    let summary = Query::new(&snap)
        .path(
            key(&store, "e.ts:main"),
            key(&store, "c.ts:S.add"),
            &PathOptions::default(),
            &mut sink,
        )
        .unwrap();
    assert!(summary.found);
    assert_eq!(
        ids(&sink),
        vec![
            ("e.ts:main", 0),
            ("e.ts:run", 1),
            ("i.ts:W.add", 2),
            ("c.ts:S.add", 3)
        ]
    );
    // Edges keep their stored direction: the implementation implements the interface member.
    assert_eq!(
        sink.edges[2],
        (
            "c.ts:S.add".to_owned(),
            "IMPLEMENTS".to_owned(),
            "i.ts:W.add".to_owned()
        )
    );
    // And from the class to the interface, forwards.
    let mut sink = CollectSink::default();
    Query::new(&snap)
        .path(
            key(&store, "c.ts:S"),
            key(&store, "i.ts:W"),
            &PathOptions::default(),
            &mut sink,
        )
        .unwrap();
    assert_eq!(ids(&sink), vec![("c.ts:S", 0), ("i.ts:W", 1)]);
    // Never from an implementation to its interface member and on to another one: the
    // answer is the path the other way, from the interface member to its implementation.
    let mut sink = CollectSink::default();
    Query::new(&snap)
        .path(
            key(&store, "c.ts:S.add"),
            key(&store, "i.ts:W.add"),
            &PathOptions::default(),
            &mut sink,
        )
        .unwrap();
    assert_eq!(ids(&sink).first(), Some(&("i.ts:W.add", 0)));
}

#[test]
fn k_paths_are_distinct_and_shortest_first() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    let mut sink = CollectSink::default();
    let options = PathOptions {
        k: 3,
        ..PathOptions::default()
    };
    Query::new(&snap)
        .path(
            key(&store, "b.ts:g"),
            key(&store, "a.ts:f4"),
            &options,
            &mut sink,
        )
        .unwrap();
    // Two paths exist: g references f4, and g → f1 → f2 → f3 → f4.
    assert_eq!(sink.sections.len(), 2);
    assert_eq!(
        ids(&sink),
        vec![
            ("b.ts:g", 0),
            ("a.ts:f4", 1),
            ("b.ts:g", 0),
            ("a.ts:f1", 1),
            ("a.ts:f2", 2),
            ("a.ts:f3", 3),
            ("a.ts:f4", 4)
        ]
    );
    assert_eq!(sink.edges[0].1, "REFERENCES");
}

#[test]
fn a_class_answers_for_its_methods_one_section_each() {
    let (_dir, store) = interface_store();
    let snap = store.snapshot().unwrap();
    let mut sink = CollectSink::default();
    Query::new(&snap)
        .callers(
            key(&store, "c.ts:T"),
            &TraversalOptions::default(),
            &mut sink,
        )
        .unwrap();
    assert_eq!(sink.sections, ["c.ts:T", "c.ts:T.m"]);
    assert_eq!(ids(&sink), vec![("e.ts:main", 1), ("e.ts:main", 1)]);
    // The dispatch edge counts as a call for callers.
    let mut sink = CollectSink::default();
    Query::new(&snap)
        .callers(
            key(&store, "c.ts:S.add"),
            &TraversalOptions::default(),
            &mut sink,
        )
        .unwrap();
    assert_eq!(ids(&sink), vec![("e.ts:main", 2), ("e.ts:run", 1)]);
    assert_eq!(
        sink.vias,
        [Some("e.ts:run".to_owned()), Some("c.ts:S.add".to_owned())]
    );
    // An edge-kind filter without CALLS finds nothing.
    let mut sink = CollectSink::default();
    let options = TraversalOptions {
        edge_kinds: Some(EdgeKinds::of(&[EdgeKind::References])),
        ..TraversalOptions::default()
    };
    Query::new(&snap)
        .callers(key(&store, "c.ts:S.add"), &options, &mut sink)
        .unwrap();
    assert!(sink.nodes.is_empty());
}

#[test]
fn a_sink_can_stop_early() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    let mut sink = CollectSink {
        stop_after: Some(1),
        ..CollectSink::default()
    };
    let summary = Query::new(&snap)
        .callers(
            key(&store, "a.ts:f4"),
            &TraversalOptions::default(),
            &mut sink,
        )
        .unwrap();
    assert!(summary.stopped);
    assert!(sink.summary.stopped, "finish is called after a stop");
    assert_eq!(sink.nodes.len(), 1);
}

#[test]
fn search_ranks_exact_prefix_glob_and_fuzzy_and_pages() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    let search = |pattern: &str, options: &SearchOptions| {
        let mut sink = CollectSink::default();
        Query::new(&snap)
            .search(pattern, options, &mut sink)
            .unwrap();
        sink.nodes.into_iter().map(|(id, _)| id).collect::<Vec<_>>()
    };
    let all = SearchOptions::default();
    // Exact first (the function, then the method whose name is exact too), then prefix.
    assert_eq!(search("save", &all), ["b.ts:save", "b.ts:Repo.save"]);
    assert_eq!(search("repo.save", &all), ["b.ts:Repo.save"]);
    assert_eq!(
        search("F*", &all),
        ["a.ts:f1", "a.ts:f2", "a.ts:f3", "a.ts:f4"]
    );
    assert_eq!(search("rsv", &all), ["b.ts:Repo.save"]);
    // Fuzzy matching is the fallback: with prefix matches, `a.ts` (s as a subsequence) is not
    // among the results.
    let prefixed = search("s", &all);
    assert!(prefixed.contains(&"b.ts:save".to_owned()), "{prefixed:?}");
    assert!(!prefixed.contains(&"a.ts".to_owned()), "{prefixed:?}");
    assert_eq!(search("ats", &all), ["a.ts"]);
    let paged = SearchOptions {
        offset: 1,
        limit: 2,
        ..SearchOptions::default()
    };
    assert_eq!(search("f*", &paged), ["a.ts:f2", "a.ts:f3"]);
    let methods = SearchOptions {
        kinds: vec![NodeKind::Method],
        ..SearchOptions::default()
    };
    assert_eq!(search("save", &methods), ["b.ts:Repo.save"]);
    let in_a = SearchOptions {
        file: Some("a.*".to_owned()),
        ..SearchOptions::default()
    };
    assert!(search("s*", &in_a).is_empty());
}

#[test]
fn a_search_page_is_the_same_whether_or_not_the_rest_is_read() {
    // Many prefix matches of every length, exported or not, and an exact one: a small page
    // stops reading nodes once it is settled, and must equal the top of the full ranking,
    // with the same total.
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    let mut batch = GraphBatch::default();
    batch.add_file("s.ts", 0);
    batch.nodes.push(NodeRecord::new(
        "s.ts",
        NodeKind::File,
        "s.ts",
        "s.ts",
        1,
        400,
    ));
    let mut names = vec!["get".to_owned()];
    for i in 0..120u32 {
        names.push(format!("get{}{}", "x".repeat((i % 7) as usize), i));
    }
    for (line, name) in names.iter().enumerate() {
        let mut record = NodeRecord::new(
            format!("s.ts:{name}"),
            NodeKind::Function,
            name.as_str(),
            "s.ts",
            line as u32 + 2,
            line as u32 + 2,
        );
        record.flags = u16::from(line % 3 == 0);
        batch.nodes.push(record);
    }
    store.replace_all(&batch).unwrap();
    let snap = store.snapshot().unwrap();
    let search = |pattern: &str, offset: usize, limit: usize| {
        let mut sink = CollectSink::default();
        let options = SearchOptions {
            offset,
            limit,
            ..SearchOptions::default()
        };
        Query::new(&snap)
            .search(pattern, &options, &mut sink)
            .unwrap();
        let ids: Vec<String> = sink.nodes.into_iter().map(|(id, _)| id).collect();
        ids
    };
    let total = |pattern: &str, limit: usize| {
        let mut counter = Recorder::default();
        let options = SearchOptions {
            limit,
            ..SearchOptions::default()
        };
        Query::new(&snap)
            .search(pattern, &options, &mut counter)
            .unwrap();
        counter.total
    };
    for pattern in ["get", "getx", "get*", "GET"] {
        let all = search(pattern, 0, 1000);
        assert!(all.len() > 20, "{pattern}: {}", all.len());
        for (offset, limit) in [(0, 1), (0, 3), (2, 5), (10, 10)] {
            assert_eq!(
                search(pattern, offset, limit),
                all[offset..offset + limit],
                "{pattern} offset {offset} limit {limit}"
            );
        }
        assert_eq!(total(pattern, 1), all.len(), "{pattern}");
    }
}

/// A sink that keeps only the header's total and whether each node came with its via edge
/// (which it asks for when `wanted`).
#[derive(Default)]
struct Recorder {
    wanted: bool,
    total: usize,
    seen: Vec<bool>,
}

impl crate::ResultSink for Recorder {
    fn wants_via_edges(&self) -> bool {
        self.wanted
    }
    fn begin(&mut self, header: &crate::Header<'_>) -> Result<(), crate::SinkError> {
        if let crate::Question::Search(page) = header.question {
            self.total = page.total;
        }
        Ok(())
    }
    fn node(
        &mut self,
        _node: &tsgraph_engine::NodeView<'_>,
        info: &crate::NodeInfo<'_>,
    ) -> Result<bool, crate::SinkError> {
        if let Some(via) = info.via {
            self.seen.push(via.edge.is_some());
        }
        Ok(true)
    }
    fn edge(&mut self, _edge: &crate::EdgeInfo<'_>) -> Result<bool, crate::SinkError> {
        Ok(true)
    }
    fn finish(&mut self, _summary: &crate::Summary) -> Result<(), crate::SinkError> {
        Ok(())
    }
}

#[test]
fn a_sink_that_does_not_want_via_edges_gets_none() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    let mut seen = Vec::new();
    for wanted in [true, false] {
        let mut sink = Recorder {
            wanted,
            ..Recorder::default()
        };
        Query::new(&snap)
            .callers(
                key(&store, "a.ts:f3"),
                &TraversalOptions::default(),
                &mut sink,
            )
            .unwrap();
        seen.push(sink.seen);
    }
    assert_eq!(seen, [vec![true; 4], vec![false; 4]]);
}

#[test]
fn the_graph_view_gives_petgraph_every_stored_edge_once() {
    use petgraph::visit::{EdgeRef, IntoEdgeReferences};
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    let view = crate::plan::view::GraphView::new(&snap);
    let mut edges: Vec<_> = (&view)
        .edge_references()
        .map(|e| (e.source(), e.target(), e.weight().kind))
        .collect();
    let count = edges.len();
    edges.sort();
    edges.dedup();
    // 7 CONTAINS, 5 CALLS, 1 REFERENCES, 1 IMPORTS.
    assert_eq!((count, edges.len()), (14, 14));
    // petgraph's own algorithms run over the view: g reaches f4, f4 reaches nothing.
    let (g, f4) = (key(&store, "b.ts:g"), key(&store, "a.ts:f4"));
    assert!(petgraph::algo::has_path_connecting(&view, g, f4, None));
    assert!(!petgraph::algo::has_path_connecting(&view, f4, g, None));
    view.check().unwrap();
}

#[test]
fn a_reused_context_answers_as_a_fresh_one() {
    let (_dir, store) = store();
    let snap = store.snapshot().unwrap();
    let context = crate::QueryContext::default();
    let reused = Query::with_context(&snap, &context);
    let neighbors = NeighborOptions {
        distance: 2,
        ..NeighborOptions::default()
    };
    let traversal = TraversalOptions::default();
    // Questions of every size in turn, each answered twice with the shared context (what
    // a query leaves in it must not leak into the next) and once with scratch of its own.
    for id in ["a.ts:f3", "b.ts:g", "a.ts:f1", "a.ts:f4", "a.ts:f3"] {
        let root = key(&store, id);
        type Ask = fn(
            &Query<'_>,
            tsgraph_engine::NodeKey,
            &NeighborOptions,
            &TraversalOptions,
            &mut CollectSink,
        );
        let asks: [Ask; 3] = [
            |q, k, n, _, s| {
                q.neighbors(k, n, s).unwrap();
            },
            |q, k, _, t, s| {
                q.callers(k, t, s).unwrap();
            },
            |q, k, _, t, s| {
                q.impact(k, t, s).unwrap();
            },
        ];
        for ask in asks {
            let answer = |query: &Query<'_>| {
                let mut sink = CollectSink::default();
                ask(query, root, &neighbors, &traversal, &mut sink);
                sink
            };
            let fresh = answer(&Query::new(&snap));
            assert_eq!(answer(&reused), fresh, "{id}");
            assert_eq!(answer(&reused), fresh, "{id}, again");
        }
    }
}
