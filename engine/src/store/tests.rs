//! Storage tests: full and per-file replacement, reopen, snapshot isolation, schema and
//! corruption errors.

#![allow(clippy::unwrap_used)] // Test helpers unwrap: a failure is the test failing.

use super::*;
use crate::model::{EdgeKind, NodeKind};
use crate::record::{EdgeSpec, NodeRecord};

fn file_batch(path: &str, functions: &[&str], calls: &[(&str, &str)]) -> GraphBatch {
    let mut batch = GraphBatch::default();
    batch.add_file(path, functions.len() as u64);
    batch
        .nodes
        .push(NodeRecord::new(path, NodeKind::File, path, path, 1, 10));
    for (line, name) in functions.iter().enumerate() {
        let id = format!("{path}:{name}");
        batch.nodes.push(NodeRecord::new(
            &id,
            NodeKind::Function,
            *name,
            path,
            line as u32 + 1,
            line as u32 + 1,
        ));
        batch
            .edges
            .push(EdgeSpec::new(path, id, EdgeKind::Contains));
    }
    for (from, to) in calls {
        batch.edges.push(EdgeSpec::new(*from, *to, EdgeKind::Calls));
    }
    batch
}

fn merged(batches: &[GraphBatch]) -> GraphBatch {
    let mut all = GraphBatch::default();
    for b in batches {
        all.files.extend(b.files.iter().cloned());
        all.nodes.extend(b.nodes.iter().cloned());
        all.edges.extend(b.edges.iter().cloned());
    }
    all
}

fn edges(snapshot: &Snapshot, id: &str, outgoing: bool) -> Vec<(String, String)> {
    let key = snapshot.key_of(id).unwrap().unwrap();
    let list = if outgoing {
        snapshot.out_edges(key)
    } else {
        snapshot.in_edges(key)
    }
    .unwrap();
    let mut out = Vec::new();
    for edge in list.edges().unwrap() {
        let other = snapshot.node(edge.other()).unwrap().unwrap();
        out.push((
            edge.kind().to_string(),
            other.view().unwrap().id().to_owned(),
        ));
    }
    out
}

fn two_files() -> GraphBatch {
    merged(&[
        file_batch(
            "a.ts",
            &["main", "helper"],
            &[("a.ts:main", "a.ts:helper"), ("a.ts:main", "b.ts:save")],
        ),
        file_batch("b.ts", &["save", "log"], &[("b.ts:save", "b.ts:log")]),
    ])
}

#[test]
fn full_write_then_reopen_reads_the_same_graph() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.redb");
    {
        let store = Store::open_or_create(&path).unwrap();
        let stats = store.replace_all(&two_files()).unwrap();
        assert_eq!((stats.nodes, stats.edges, stats.files), (6, 7, 2));
    }
    let store = Store::open(&path).unwrap();
    let snap = store.snapshot().unwrap();
    assert_eq!(snap.node_count().unwrap(), 6);
    assert_eq!(
        edges(&snap, "a.ts:main", true),
        vec![
            ("CALLS".to_owned(), "a.ts:helper".to_owned()),
            ("CALLS".to_owned(), "b.ts:save".to_owned())
        ]
    );
    assert_eq!(
        edges(&snap, "b.ts:save", false),
        vec![
            ("CONTAINS".to_owned(), "b.ts".to_owned()),
            ("CALLS".to_owned(), "a.ts:main".to_owned())
        ]
    );
    assert_eq!(snap.keys_named("save").unwrap().len(), 1);
    assert_eq!(
        snap.files().unwrap(),
        vec![("a.ts".to_owned(), 2), ("b.ts".to_owned(), 2)]
    );
    let view_key = snap.key_of("b.ts:log").unwrap().unwrap();
    let guard = snap.node(view_key).unwrap().unwrap();
    let view = guard.view().unwrap();
    assert_eq!(
        (view.kind(), view.file(), view.symbol(), view.start_line()),
        (NodeKind::Function, "b.ts", "log", 2)
    );
}

#[test]
fn replacing_a_file_keeps_surviving_keys_and_incoming_edges() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    store.replace_all(&two_files()).unwrap();
    let before = store.snapshot().unwrap();
    let save_key = before.key_of("b.ts:save").unwrap().unwrap();

    // b.ts loses `log` and gains `flush`; `save` survives, so a.ts:main still calls it.
    store
        .replace_files(
            &file_batch("b.ts", &["save", "flush"], &[("b.ts:save", "b.ts:flush")]),
            &[],
        )
        .unwrap();
    let after = store.snapshot().unwrap();
    assert_eq!(after.key_of("b.ts:save").unwrap(), Some(save_key));
    assert_eq!(after.key_of("b.ts:log").unwrap(), None);
    assert!(after.keys_named("log").unwrap().is_empty());
    assert_eq!(
        edges(&after, "b.ts:save", false),
        vec![
            ("CONTAINS".to_owned(), "b.ts".to_owned()),
            ("CALLS".to_owned(), "a.ts:main".to_owned())
        ]
    );
    assert_eq!(
        edges(&after, "b.ts:save", true),
        vec![("CALLS".to_owned(), "b.ts:flush".to_owned())]
    );
    // The snapshot taken before the write still sees the old graph.
    assert!(before.key_of("b.ts:log").unwrap().is_some());
    assert!(before.key_of("b.ts:flush").unwrap().is_none());
}

#[test]
fn removing_a_file_drops_edges_into_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    store.replace_all(&two_files()).unwrap();
    store
        .replace_files(&GraphBatch::default(), &["b.ts"])
        .unwrap();
    let snap = store.snapshot().unwrap();
    assert_eq!(snap.node_count().unwrap(), 3);
    assert_eq!(
        edges(&snap, "a.ts:main", true),
        vec![("CALLS".to_owned(), "a.ts:helper".to_owned())]
    );
    assert_eq!(snap.files().unwrap().len(), 1);
    assert_eq!(snap.file_keys("b.ts").unwrap(), None);
}

#[test]
fn a_tracked_write_reports_the_difference_between_the_two_graphs() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    let old = two_files();
    store.replace_all(&old).unwrap();
    // b.ts loses `save` (called from a.ts, which is not rewritten) and `log` moves a line.
    let mut b = file_batch("b.ts", &["flush", "log"], &[("b.ts:flush", "b.ts:log")]);
    b.nodes.iter_mut().for_each(|n| n.end_line += 1);
    let delta = store.replace_files_tracked(&b, &[]).unwrap();
    let a = file_batch("a.ts", &["main", "helper"], &[("a.ts:main", "a.ts:helper")]);
    let new = merged(&[a, b]);
    let expected = GraphDelta::between(old.nodes, old.edges, new.nodes, new.edges);
    assert_eq!(delta, expected);
    // The call from the untouched a.ts into the removed node is among the removed edges.
    assert!(
        delta
            .edges_removed
            .iter()
            .any(|e| e.source == "a.ts:main" && e.target == "b.ts:save")
    );
    assert_eq!(delta.nodes_changed.len(), 2, "{delta:?}");
}

#[test]
fn every_commit_advances_the_generation_and_a_new_store_draws_another() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    let first = store.snapshot().unwrap().generation().unwrap();
    store.replace_all(&two_files()).unwrap();
    let second = store.snapshot().unwrap().generation().unwrap();
    store.set_meta("k", b"v").unwrap();
    let third = store.snapshot().unwrap().generation().unwrap();
    assert_eq!(second.store, first.store);
    assert_eq!(
        (second.commits, third.commits),
        (first.commits + 1, first.commits + 2)
    );
    std::thread::sleep(std::time::Duration::from_millis(2));
    let other = Store::open_or_create(dir.path().join("h.redb")).unwrap();
    assert_ne!(
        other.snapshot().unwrap().generation().unwrap().store,
        first.store
    );
}

#[test]
fn a_failed_write_leaves_the_stored_graph_intact() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    store.replace_all(&two_files()).unwrap();
    let bad = file_batch("b.ts", &["save"], &[("b.ts:save", "nowhere.ts:ghost")]);
    let err = store.replace_files(&bad, &[]).unwrap_err();
    assert!(err.to_string().contains("nowhere.ts:ghost"), "{err}");
    let mut dup = file_batch("c.ts", &["x"], &[]);
    dup.nodes.push(dup.nodes[1].clone());
    assert!(matches!(store.replace_all(&dup), Err(StoreError::DuplicateId(id)) if id == "c.ts:x"));
    // An ID that a node of a file not rewritten still has.
    let mut taken = file_batch("c.ts", &[], &[]);
    taken.nodes.push(two_files().nodes[1].clone());
    taken.nodes[1].file = "c.ts".to_owned();
    let err = store.replace_files(&taken, &[]).unwrap_err();
    assert!(
        matches!(&err, StoreError::DuplicateId(id) if id == &taken.nodes[1].id),
        "{err}"
    );
    let snap = store.snapshot().unwrap();
    assert_eq!(snap.node_count().unwrap(), 6);
    assert!(snap.key_of("b.ts:log").unwrap().is_some());
}

#[test]
fn schema_mismatch_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.redb");
    let store = Store::open_or_create(&path).unwrap();
    store
        .set_meta(tables::META_SCHEMA, &999u32.to_le_bytes())
        .unwrap();
    drop(store);
    let err = Store::open(&path).err().expect("mismatch");
    assert!(
        matches!(err, StoreError::SchemaMismatch { found: 999, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("`tsgraph index`"), "{err}");
}

#[test]
fn a_corrupt_file_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.redb");
    std::fs::write(
        &path,
        b"this is not a redb file at all, just some bytes".repeat(100),
    )
    .unwrap();
    let err = Store::open(&path).err().expect("corrupt");
    assert!(matches!(err, StoreError::Corrupted { .. }), "{err}");
}

#[test]
fn corrupt_record_bytes_are_reported() {
    assert!(matches!(
        crate::record::NodeView::from_bytes(&[1, 2, 3]),
        Err(StoreError::Corrupted { .. })
    ));
    // A valid record read at an odd offset still validates (archives are unaligned).
    let record = NodeRecord::new("a.ts:f", NodeKind::Function, "f", "a.ts", 3, 4);
    let bytes = rkyv::to_bytes::<rkyv::rancor::Error>(&record).unwrap();
    let mut shifted = vec![0u8];
    shifted.extend_from_slice(&bytes);
    let view = crate::record::NodeView::from_bytes(&shifted[1..]).unwrap();
    assert_eq!((view.id(), view.start_line()), ("a.ts:f", 3));
}

#[test]
fn a_snapshot_taken_during_an_open_write_sees_the_last_commit() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    store.replace_all(&two_files()).unwrap();
    // Hold a write transaction open with an uncommitted change, then read.
    let txn = store.writer().unwrap().begin_write().unwrap();
    {
        let mut ids = txn.open_table(tables::IDS).unwrap();
        ids.insert("c.ts:uncommitted", 999).unwrap();
    }
    let reader = store.snapshot().unwrap();
    assert!(reader.key_of("c.ts:uncommitted").unwrap().is_none());
    assert_eq!(reader.node_count().unwrap(), 6);
    txn.commit().unwrap();
    // The old snapshot still sees its own version; a new one sees the commit.
    assert!(reader.key_of("c.ts:uncommitted").unwrap().is_none());
    assert!(
        store
            .snapshot()
            .unwrap()
            .key_of("c.ts:uncommitted")
            .unwrap()
            .is_some()
    );
}

#[test]
fn a_file_listed_twice_is_refused_and_an_edge_given_twice_is_stored_once() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    let twice = merged(&[
        file_batch("a.ts", &["f"], &[]),
        file_batch("a.ts", &[], &[]),
    ]);
    assert!(
        matches!(store.replace_all(&twice), Err(StoreError::DuplicateFile(path)) if path == "a.ts")
    );
    store.replace_all(&two_files()).unwrap();
    let write_and_remove = file_batch("b.ts", &["save"], &[]);
    assert!(matches!(
        store.replace_files(&write_and_remove, &["b.ts"]),
        Err(StoreError::DuplicateFile(_))
    ));

    let mut doubled = file_batch("c.ts", &["x", "y"], &[("c.ts:x", "c.ts:y")]);
    let mut again = EdgeSpec::new("c.ts:x", "c.ts:y", EdgeKind::Calls);
    again.facts.count = 2;
    again.facts.sites = vec![7, 1];
    doubled.edges[2].facts.count = 1;
    doubled.edges[2].facts.sites = vec![1];
    doubled.edges.push(again);
    store.replace_all(&doubled).unwrap();
    let snap = store.snapshot().unwrap();
    let x = snap.key_of("c.ts:x").unwrap().unwrap();
    let list = snap.out_edges(x).unwrap();
    let calls: Vec<(u32, Vec<u32>)> = list
        .edges()
        .unwrap()
        .map(|e| e.view().map(|e| (e.count(), e.sites().collect())))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(calls, vec![(3, vec![1, 7])]);
    // One edge is found in either list without reading the others.
    let y = snap.key_of("c.ts:y").unwrap().unwrap();
    let found = list.find(EdgeKind::Calls, y).unwrap().unwrap();
    assert_eq!(found.view().unwrap().count(), 3);
    assert!(list.find(EdgeKind::References, y).unwrap().is_none());
    let incoming = snap.in_edges(y).unwrap();
    assert_eq!(
        incoming.find(EdgeKind::Calls, x).unwrap().unwrap().other(),
        x
    );
    assert!(incoming.find(EdgeKind::Calls, y).unwrap().is_none());
    assert_eq!(
        edges(&snap, "c.ts:y", false).len(),
        2,
        "CONTAINS and one CALLS"
    );
}

#[test]
fn one_writer_at_a_time_and_readers_beside_it_follow_its_commits() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.redb");
    let writer = Store::open_or_create(&path).unwrap();
    writer.replace_all(&two_files()).unwrap();
    // A second writer is told who holds the store, and does not wait past its timeout.
    match Store::open_waiting(&path, std::time::Duration::from_millis(120)) {
        Err(StoreError::Locked { holder, .. }) => assert_eq!(holder, Some(std::process::id())),
        Err(other) => panic!("expected Locked, got {other}"),
        Ok(_) => panic!("expected Locked, got a second writer"),
    }
    // Readers open beside the writer, never write, and see each new commit.
    let reader = Store::open_read_only(&path).unwrap();
    assert!(reader.is_read_only());
    assert_eq!(reader.snapshot().unwrap().node_count().unwrap(), 6);
    assert!(matches!(
        reader.replace_all(&two_files()),
        Err(StoreError::ReadOnly { .. })
    ));
    let mut one = GraphBatch::default();
    one.add_file("a.ts", 1);
    one.nodes.push(NodeRecord::new(
        "a.ts",
        NodeKind::File,
        "a.ts",
        "a.ts",
        1,
        1,
    ));
    writer.replace_all(&one).unwrap();
    assert_eq!(reader.snapshot().unwrap().node_count().unwrap(), 1);
    // Once the writer is gone, the next one opens without waiting.
    drop(writer);
    let next = Store::open_waiting(&path, std::time::Duration::from_millis(120)).unwrap();
    assert!(!next.is_read_only());
}

#[test]
fn a_rebuild_waits_for_the_writer_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.redb");
    let writer = Store::open_or_create(&path).unwrap();
    // Held past the timeout: the rebuild says who holds the store.
    match Store::create_replacement_waiting(&path, std::time::Duration::from_millis(120)) {
        Err(StoreError::Locked { holder, .. }) => assert_eq!(holder, Some(std::process::id())),
        Err(other) => panic!("expected Locked, got {other}"),
        Ok(_) => panic!("expected Locked, got a replacement beside a writer"),
    }
    // Released within it: the rebuild goes ahead once the writer is gone.
    let released = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(150));
        drop(writer);
    });
    let replacement =
        Store::create_replacement_waiting(&path, std::time::Duration::from_secs(30)).unwrap();
    assert!(!replacement.is_read_only());
    released.join().unwrap();
}

#[test]
fn a_replacement_store_takes_the_place_of_the_old_one_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.redb");
    Store::open_or_create(&path)
        .unwrap()
        .replace_all(&two_files())
        .unwrap();
    let reader = Store::open_read_only(&path).unwrap();
    let replacement = Store::create_replacement(&path).unwrap();
    // The old store is still whole, for readers and for anyone opening it meanwhile.
    assert_eq!(reader.snapshot().unwrap().node_count().unwrap(), 6);
    let mut one = GraphBatch::default();
    one.add_file("a.ts", 1);
    one.nodes.push(NodeRecord::new(
        "a.ts",
        NodeKind::File,
        "a.ts",
        "a.ts",
        1,
        1,
    ));
    replacement.replace_all(&one).unwrap();
    replacement.replace(&path).unwrap();
    // The reader keeps its snapshot; a new open sees the new store, without verifying it
    // whole again (its stamp moved with it).
    assert_eq!(reader.snapshot().unwrap().node_count().unwrap(), 6);
    assert!(super::verified::is_current(&path));
    let fresh = Store::open_read_only(&path).unwrap();
    assert_eq!(fresh.snapshot().unwrap().node_count().unwrap(), 1);
    assert!(
        std::fs::read_dir(dir.path()).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .contains("rebuild")),
        "no temporary file left"
    );
}

#[test]
fn the_search_index_follows_every_write() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    store.replace_all(&two_files()).unwrap();
    let snapshot = store.snapshot().unwrap();
    let terms = snapshot.search_terms().unwrap();
    let (all, more) = terms.matching(fst::automaton::AlwaysMatch, 100);
    assert!(!more);
    assert!(all.iter().any(|t| t == "helper"), "{all:?}");
    let keys = snapshot.term_keys("helper").unwrap();
    assert_eq!(keys, vec![snapshot.key_of("a.ts:helper").unwrap().unwrap()]);
    drop(snapshot);
    // Replacing a file with other functions drops its old terms and adds the new ones.
    store
        .replace_files(
            &file_batch("a.ts", &["main", "renamed"], &[("a.ts:main", "b.ts:save")]),
            &[],
        )
        .unwrap();
    let snapshot = store.snapshot().unwrap();
    let (all, _) = snapshot
        .search_terms()
        .unwrap()
        .matching(fst::automaton::AlwaysMatch, 100);
    assert!(all.iter().any(|t| t == "renamed"), "{all:?}");
    assert!(!all.iter().any(|t| t == "helper"), "{all:?}");
    assert!(snapshot.term_keys("helper").unwrap().is_empty());
}

#[test]
fn a_term_shared_by_files_keeps_the_nodes_that_stay() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    let with_get = |path| file_batch(path, &["get"], &[]);
    store
        .replace_all(&merged(&[
            with_get("a.ts"),
            with_get("b.ts"),
            with_get("c.ts"),
        ]))
        .unwrap();
    let keys = || store.snapshot().unwrap().term_keys("get").unwrap();
    let before = keys();
    assert_eq!(before.len(), 3);
    // b.ts is written again with its `get` (same ID, same key: it leaves the list and joins it
    // again in one write), c.ts without it.
    store
        .replace_files(
            &merged(&[with_get("b.ts"), file_batch("c.ts", &["put"], &[])]),
            &[],
        )
        .unwrap();
    assert_eq!(keys(), before[..2].to_vec());
    store
        .replace_files(&GraphBatch::default(), &["a.ts", "b.ts"])
        .unwrap();
    assert!(keys().is_empty());
    let snapshot = store.snapshot().unwrap();
    let (all, _) = snapshot
        .search_terms()
        .unwrap()
        .matching(fst::automaton::AlwaysMatch, 100);
    assert!(!all.iter().any(|t| t == "get"), "{all:?}");
    assert!(all.iter().any(|t| t == "put"), "{all:?}");
}

#[test]
fn space_lists_every_table_largest_first() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    let empty = store.space().unwrap();
    store.replace_all(&two_files()).unwrap();
    let space = store.space().unwrap();
    assert_eq!(space.len(), 12, "{space:?}");
    assert!(space.windows(2).all(|w| w[0].total() >= w[1].total()));
    let stored = |tables: &[TableSpace], name: &str| {
        tables
            .iter()
            .find(|t| t.table == name)
            .map(|t| t.stored_bytes)
    };
    assert_eq!(stored(&empty, "nodes"), Some(0));
    assert!(stored(&space, "nodes").unwrap() > 0);
    assert!(stored(&space, "out_edges").unwrap() > 0);
}

/// Loads `batch` through a [`Loader`] as an indexer does: every node first, then each file
/// with the edges from its nodes by key; the edges given in `late` (source, target) are held
/// back and merged at the end.
fn bulk_load(store: &Store, batch: &GraphBatch, late: &[(&str, &str)]) -> StoreStats {
    let mut loader = store.replace_all_in_parts().unwrap();
    let first = loader.add_nodes(batch.nodes.clone()).unwrap();
    let key_of = |id: &str| first + batch.nodes.iter().position(|n| n.id == id).unwrap() as u32;
    let entry = |edge: &EdgeSpec| {
        let entry = crate::record::EdgeEntry {
            kind: edge.kind.as_u8(),
            other: key_of(&edge.target),
            facts: edge.facts.clone(),
        };
        (key_of(&edge.source), entry)
    };
    let is_late = |edge: &EdgeSpec| late.contains(&(edge.source.as_str(), edge.target.as_str()));
    for file in &batch.files {
        let own = |edge: &&EdgeSpec| edge.source.starts_with(file.path.as_str()) && !is_late(edge);
        let loaded = LoadedFile {
            entry: file.clone(),
            keys: (batch.nodes.iter().enumerate())
                .filter(|(_, n)| n.file == file.path)
                .map(|(i, _)| first + i as u32)
                .collect(),
            blob: Some(file.path.as_bytes().to_vec()),
            unresolved: (batch.unresolved.iter())
                .filter(|(path, _)| *path == file.path)
                .map(|(_, call)| call.clone())
                .collect(),
        };
        let edges = batch.edges.iter().filter(own).map(entry).collect();
        loader.add_files(vec![loaded], edges).unwrap();
    }
    let late_edges: Vec<_> = batch
        .edges
        .iter()
        .filter(|e| is_late(e))
        .map(entry)
        .collect();
    let added = loader.merge_edges(late_edges).unwrap();
    assert_eq!(added.len(), late.len());
    loader.commit(&[("k".to_owned(), b"v".to_vec())]).unwrap()
}

#[test]
fn a_bulk_load_stores_what_one_batch_would() {
    let dir = tempfile::tempdir().unwrap();
    let whole = Store::open_or_create(dir.path().join("whole.redb")).unwrap();
    let parts = Store::open_or_create(dir.path().join("parts.redb")).unwrap();
    // Names shared across files, and a member found by its name and its dotted path.
    let mut batch = merged(&[
        file_batch(
            "a.ts",
            &["main", "helper"],
            &[("a.ts:main", "a.ts:helper"), ("a.ts:main", "b.ts:save")],
        ),
        file_batch(
            "b.ts",
            &["save", "log", "main"],
            &[("b.ts:save", "b.ts:log")],
        ),
    ]);
    batch.nodes.push(NodeRecord::new(
        "b.ts:Repo~class.save",
        NodeKind::Method,
        "save",
        "b.ts",
        9,
        9,
    ));
    batch.edges.push(EdgeSpec::new(
        "b.ts",
        "b.ts:Repo~class.save",
        EdgeKind::Contains,
    ));
    // Unresolved sites of one name in both files, a file's in the order it gives them.
    let site = |path: &str, caller: &str, callee: &str, line: u32| {
        let call = crate::record::UnresolvedCall {
            caller: caller.to_owned(),
            callee: callee.to_owned(),
            name: callee.rsplit('.').next().unwrap().to_owned(),
            line,
            reason: "unknown-receiver".to_owned(),
        };
        (path.to_owned(), call)
    };
    batch.unresolved = vec![
        site("b.ts", "b.ts:save", "x.load", 8),
        site("b.ts", "b.ts:save", "y.save", 3),
        site("b.ts", "b.ts:log", "z.save", 1),
        site("a.ts", "a.ts:main", "w.save", 2),
    ];
    let expected = whole.replace_all(&batch).unwrap();
    // A store with a graph already: the load replaces it.
    parts
        .replace_all(&file_batch("old.ts", &["gone"], &[]))
        .unwrap();
    let stats = bulk_load(&parts, &batch, &[("a.ts:main", "b.ts:save")]);
    assert_eq!(stats, expected);
    let (a, b) = (whole.snapshot().unwrap(), parts.snapshot().unwrap());
    assert!(b.key_of("old.ts:gone").unwrap().is_none());
    for node in &batch.nodes {
        assert_eq!(a.key_of(&node.id).unwrap(), b.key_of(&node.id).unwrap());
        for outgoing in [true, false] {
            assert_eq!(edges(&a, &node.id, outgoing), edges(&b, &node.id, outgoing));
        }
    }
    assert_eq!(b.files().unwrap(), a.files().unwrap());
    assert_eq!(b.blob("b.ts").unwrap(), Some(b"b.ts".to_vec()));
    assert_eq!(b.read_blob("b.ts", <[u8]>::len).unwrap(), Some(4));
    assert_eq!(b.read_blob("none.ts", <[u8]>::len).unwrap(), None);
    assert_eq!(b.meta("k").unwrap(), Some(b"v".to_vec()));
    // The same terms, each finding the same nodes (written at commit, each term once).
    let all_terms = |s: &Snapshot| {
        let (terms, more) = s
            .search_terms()
            .unwrap()
            .matching(fst::automaton::AlwaysMatch, 1000);
        assert!(!more);
        terms
    };
    let terms = all_terms(&b);
    assert_eq!(terms, all_terms(&a));
    let found = |term: &str| b.term_keys(term).unwrap().len();
    assert_eq!(
        (found("main"), found("save"), found("repo.save")),
        (2, 2, 1)
    );
    for term in &terms {
        let keys = b.term_keys(term).unwrap();
        assert!(!keys.is_empty(), "{term}");
        assert_eq!(keys, a.term_keys(term).unwrap(), "{term}");
    }
    // The same unresolved sites, in the same order, under each name.
    for name in ["save", "load"] {
        let sample = |s: &Snapshot| s.unresolved_call_sample(name, usize::MAX).unwrap();
        assert_eq!(sample(&b), sample(&a), "{name}");
    }
    assert_eq!(b.unresolved_call_sample("save", 9).unwrap().0, 3);
    // Keys continue after the loaded ones.
    parts
        .replace_files(&file_batch("c.ts", &["more"], &[]), &[])
        .unwrap();
    let c = parts.snapshot().unwrap().key_of("c.ts").unwrap().unwrap();
    assert_eq!(c, crate::model::NodeKey(batch.nodes.len() as u32));
}

#[test]
fn a_bulk_load_refuses_bad_parts_and_a_dropped_one_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    store.replace_all(&two_files()).unwrap();
    let batch = file_batch("c.ts", &["x", "y"], &[]);
    let calls = |other: u32| crate::record::EdgeEntry {
        kind: EdgeKind::Calls.as_u8(),
        other,
        facts: Default::default(),
    };
    let file = |path: &str, keys: &[u32]| LoadedFile {
        entry: crate::record::FileEntry {
            path: path.to_owned(),
            ..Default::default()
        },
        keys: keys.to_vec(),
        ..LoadedFile::default()
    };
    // Each case on a fresh loader holding c.ts's three nodes (keys 0, 1, 2).
    let refused = |case: &dyn Fn(&mut Loader<'_>) -> Result<(), StoreError>| {
        let mut loader = store.replace_all_in_parts().unwrap();
        assert_eq!(loader.add_nodes(batch.nodes.clone()).unwrap(), 0);
        let err = case(&mut loader).unwrap_err();
        // After a failure the loader takes nothing more.
        let after = loader.add_nodes(Vec::new()).unwrap_err();
        assert!(after.to_string().contains("earlier call failed"), "{after}");
        err.to_string()
    };
    let err = refused(&|l| l.add_nodes(batch.nodes[1..2].to_vec()).map(drop));
    assert!(err.contains("c.ts:x") && err.contains("twice"), "{err}");
    let err = refused(&|l| l.add_files(vec![file("c.ts", &[0, 1, 2])], vec![(0, calls(99))]));
    assert!(err.contains("key 99"), "{err}");
    let err = refused(&|l| l.add_files(vec![file("c.ts", &[0, 1])], vec![(2, calls(0))]));
    assert!(err.contains("none of the files given"), "{err}");
    let no_kind = crate::record::EdgeEntry {
        kind: 200,
        ..calls(1)
    };
    let err = refused(&|l| l.add_files(vec![file("c.ts", &[0, 1, 2])], vec![(0, no_kind.clone())]));
    assert!(err.contains("kind 200"), "{err}");
    let err = refused(&|l| {
        l.add_files(vec![file("c.ts", &[0, 1])], Vec::new())?;
        l.add_files(vec![file("d.ts", &[1, 2])], Vec::new())
    });
    assert!(err.contains("listed by two files"), "{err}");
    let err = refused(&|l| {
        l.add_files(vec![file("c.ts", &[0])], Vec::new())?;
        l.add_files(vec![file("c.ts", &[1, 2])], Vec::new())
    });
    assert!(err.contains("c.ts") && err.contains("twice"), "{err}");
    let err = refused(&|l| {
        l.add_files(vec![file("c.ts", &[0, 1])], Vec::new())?;
        l.merge_edges(vec![(2, calls(0))]).map(drop)
    });
    assert!(err.contains("none of the files given"), "{err}");
    // A node no file lists is refused at commit.
    let mut loader = store.replace_all_in_parts().unwrap();
    loader.add_nodes(batch.nodes.clone()).unwrap();
    loader
        .add_files(vec![file("c.ts", &[0, 1])], Vec::new())
        .unwrap();
    let err = loader.commit(&[]).unwrap_err();
    assert!(
        err.to_string().contains("node key 2 is listed by no file"),
        "{err}"
    );
    let snap = store.snapshot().unwrap();
    assert_eq!(snap.node_count().unwrap(), 6);
    assert!(snap.key_of("c.ts:x").unwrap().is_none());
    assert!(snap.key_of("b.ts:log").unwrap().is_some());
}

#[test]
fn names_are_looked_up_exactly_and_listed_once() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    let batch = merged(&[
        file_batch("a.ts", &["save", "Save"], &[]),
        file_batch("b.ts", &["save"], &[]),
    ]);
    store.replace_all(&batch).unwrap();
    let snap = store.snapshot().unwrap();
    let ids = |name: &str| -> Vec<String> {
        let keys = snap.keys_named(name).unwrap();
        let node = |key| snap.node(key).unwrap().unwrap().record().unwrap().id;
        keys.into_iter().map(node).collect()
    };
    assert_eq!(ids("save"), ["a.ts:save", "b.ts:save"]);
    assert_eq!(ids("Save"), ["a.ts:Save"]);
    assert!(ids("SAVE").is_empty());
    assert_eq!(snap.names().unwrap(), ["Save", "a.ts", "b.ts", "save"]);
    // Removing a file removes its names from the lookup.
    store
        .replace_files(&file_batch("a.ts", &[], &[]), &[])
        .unwrap();
    let snap = store.snapshot().unwrap();
    assert!(snap.keys_named("Save").unwrap().is_empty());
    assert_eq!(snap.keys_named("save").unwrap().len(), 1);
}

#[test]
fn a_snapshot_opens_only_the_tables_its_reads_need() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    store.replace_all(&two_files()).unwrap();
    assert!(store.write_graph_file().unwrap());
    // The first snapshot of a state reads its generation and graph file name (meta) and
    // loads the overlay (its three tables); the handle keeps the overlay for later ones.
    let first = store.snapshot().unwrap();
    assert_eq!(first.opened_tables(), 4);
    let snapshot = store.snapshot().unwrap();
    assert!(snapshot.is_mapped());
    let before = snapshot.opened_tables();
    assert_eq!(before, 1, "only meta is read to take a later snapshot");
    let key = snapshot.key_of("a.ts:main").unwrap().expect("main");
    assert!(snapshot.node(key).unwrap().is_some());
    let _ = edges(&snapshot, "a.ts:main", true);
    let _ = edges(&snapshot, "a.ts:main", false);
    assert_eq!(
        snapshot.opened_tables(),
        before,
        "the graph file served every read"
    );
    // A read the graph file does not hold opens its table, once.
    assert!(snapshot.file_keys("a.ts").unwrap().is_some());
    assert!(snapshot.file_keys("b.ts").unwrap().is_some());
    assert_eq!(snapshot.opened_tables(), before + 1);
    // Tables read straight from redb answer as before.
    let tables = store.snapshot().unwrap();
    assert_eq!(tables.node_count().unwrap(), snapshot.node_count().unwrap());
}

#[test]
fn a_read_inside_a_read_names_the_store_once() {
    let path = std::path::Path::new("/p/g.redb");
    let err = crate::error::StoreError::corrupted("open ids", "bad page")
        .at(path)
        .at(path);
    let text = err.to_string();
    assert!(text.starts_with("/p/g.redb (open ids)"), "{text}");
    assert_eq!(text.matches("g.redb").count(), 1, "{text}");
}

/// The batch of a file `path` whose function `main` calls `b.ts:save`, resolved as
/// `resolution`.
fn caller_batch(path: &str, resolution: crate::model::Resolution) -> GraphBatch {
    let mut batch = file_batch(path, &["main"], &[]);
    let mut call = EdgeSpec::new(format!("{path}:main"), "b.ts:save", EdgeKind::Calls);
    call.facts.resolution = resolution as u8;
    batch.edges.push(call);
    batch
}

/// The resolutions the incoming steps of `id` carry, by source ID.
fn incoming_resolutions(
    snapshot: &Snapshot,
    id: &str,
) -> Vec<(String, Option<crate::model::Resolution>)> {
    let key = snapshot.key_of(id).unwrap().unwrap();
    let steps = snapshot.in_edges(key).unwrap().into_steps().unwrap();
    steps
        .filter(|step| step.kind == EdgeKind::Calls)
        .map(|step| {
            let source = snapshot.node(step.other).unwrap().unwrap();
            (source.view().unwrap().id().to_owned(), step.resolution)
        })
        .collect()
}

#[test]
fn a_graph_files_incoming_calls_carry_their_resolution_until_the_caller_changes() {
    use crate::model::Resolution;
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    let b = file_batch("b.ts", &["save", "log"], &[("b.ts:save", "b.ts:log")]);
    let callers = [
        caller_batch("a.ts", Resolution::Dispatch),
        caller_batch("c.ts", Resolution::Element),
    ];
    store
        .replace_all(&merged(&[callers[0].clone(), callers[1].clone(), b]))
        .unwrap();
    // Without a graph file, incoming lists come from redb and carry no facts.
    assert_eq!(
        incoming_resolutions(&store.snapshot().unwrap(), "b.ts:save"),
        [
            ("a.ts:main".to_owned(), None),
            ("c.ts:main".to_owned(), None)
        ]
    );
    assert!(store.write_graph_file().unwrap());
    let snapshot = store.snapshot().unwrap();
    assert!(snapshot.is_mapped());
    assert_eq!(
        incoming_resolutions(&snapshot, "b.ts:save"),
        [
            ("a.ts:main".to_owned(), Some(Resolution::Dispatch)),
            ("c.ts:main".to_owned(), Some(Resolution::Element))
        ]
    );
    assert_eq!(
        incoming_resolutions(&snapshot, "b.ts:log"),
        [("b.ts:save".to_owned(), Some(Resolution::Unknown))]
    );
    // One caller's file changes how its call resolves; the file still says dispatch, which
    // the step must not repeat (the caller's list answers instead). The other caller's entry,
    // merged with the overlay's changes to the list, keeps the file's resolution.
    store
        .replace_files(&caller_batch("a.ts", Resolution::Typed), &[])
        .unwrap();
    let snapshot = store.snapshot().unwrap();
    assert!(snapshot.is_mapped(), "the update went to the overlay");
    let after = incoming_resolutions(&snapshot, "b.ts:save");
    assert_eq!(after.len(), 2);
    assert!(
        matches!(after[0].1, None | Some(Resolution::Typed)),
        "{after:?}"
    );
    assert_eq!(
        after[1],
        ("c.ts:main".to_owned(), Some(Resolution::Element))
    );
    let key = snapshot.key_of("a.ts:main").unwrap().unwrap();
    let save = snapshot.key_of("b.ts:save").unwrap().unwrap();
    let out = snapshot.out_edges(key).unwrap();
    let edge = out.find(EdgeKind::Calls, save).unwrap().unwrap();
    assert_eq!(edge.resolution(), Resolution::Typed);
}

#[test]
fn a_merged_edge_already_written_is_not_new_and_keeps_one_incoming_entry() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    // c.ts (key 0) with x, y, z (keys 1, 2, 3).
    let batch = file_batch("c.ts", &["x", "y", "z"], &[]);
    let calls = |other: u32| crate::record::EdgeEntry {
        kind: EdgeKind::Calls.as_u8(),
        other,
        facts: Default::default(),
    };
    let mut loader = store.replace_all_in_parts().unwrap();
    loader.add_nodes(batch.nodes.clone()).unwrap();
    let file = LoadedFile {
        entry: batch.files[0].clone(),
        keys: vec![0, 1, 2, 3],
        ..LoadedFile::default()
    };
    loader.add_files(vec![file], vec![(1, calls(2))]).unwrap();
    // x → y again (written with the file), x → z twice in one call: one new edge.
    let added = loader
        .merge_edges(vec![(1, calls(2)), (1, calls(3)), (1, calls(3))])
        .unwrap();
    assert_eq!(added, [EdgeKind::Calls.as_u8()]);
    assert_eq!(loader.commit(&[]).unwrap().edges, 2);
    let snapshot = store.snapshot().unwrap();
    let calls_into = |id: &str| edges(&snapshot, id, false);
    assert_eq!(
        calls_into("c.ts:y"),
        [("CALLS".to_owned(), "c.ts:x".to_owned())]
    );
    assert_eq!(
        calls_into("c.ts:z"),
        [("CALLS".to_owned(), "c.ts:x".to_owned())]
    );
    assert_eq!(edges(&snapshot, "c.ts:x", true).len(), 2);
}

/// A file of `count` functions named `name` (and a `name` variable, which never counts).
fn namesakes(path: &str, name: &str, count: usize) -> GraphBatch {
    let mut batch = GraphBatch::default();
    batch.add_file(path, count as u64);
    batch
        .nodes
        .push(NodeRecord::new(path, NodeKind::File, path, path, 1, 10));
    for i in 0..count {
        let id = format!("{path}:F{i}.{name}");
        let kind = if i % 2 == 0 {
            NodeKind::Function
        } else {
            NodeKind::Method
        };
        batch
            .nodes
            .push(NodeRecord::new(&id, kind, name, path, 1, 1));
    }
    let variable = format!("{path}:{name}");
    batch.nodes.push(NodeRecord::new(
        &variable,
        NodeKind::Variable,
        name,
        path,
        1,
        1,
    ));
    batch
}

/// Every function and method named `name`, by viewing every node of its term: what
/// [`Snapshot::callables_named`] must agree with.
fn callables_by_scan(snapshot: &Snapshot, name: &str) -> (usize, Vec<String>) {
    let mut ids: Vec<String> = (snapshot.keys_named(name).unwrap().into_iter())
        .map(|key| snapshot.node(key).unwrap().unwrap())
        .filter(|guard| {
            let kind = guard.view().unwrap().kind();
            matches!(kind, NodeKind::Function | NodeKind::Method)
        })
        .map(|guard| guard.view().unwrap().id().to_owned())
        .collect();
    ids.sort();
    let count = ids.len();
    ids.truncate(5);
    (count, ids)
}

#[test]
fn crowded_names_stay_exact_as_files_come_and_go() {
    use super::crowded::CROWDED;
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    // Below the bound: no rows, found through the term.
    store
        .replace_all(&merged(&[namesakes("b.ts", "make", CROWDED - 2)]))
        .unwrap();
    let rows = |s: &Snapshot, name: &str| {
        super::crowded::first_of(s.crowded_table().unwrap(), name, 5).unwrap()
    };
    let check = |expected: usize| {
        let s = store.snapshot().unwrap();
        let found = s.callables_named("make", 5).unwrap();
        assert_eq!(found, callables_by_scan(&s, "make"));
        assert_eq!(found.0, expected);
        // Rows exactly when the name is crowded.
        assert_eq!(rows(&s, "make").is_some(), expected > CROWDED, "{expected}");
    };
    check(CROWDED - 2);
    // `a.ts` with `count` callables named `make`.
    let write_a = |count| {
        let batch = namesakes("a.ts", "make", count);
        store.replace_files(&batch, &[]).unwrap();
    };
    // Another file takes the name past the bound: every callable gets its row, in ID order.
    write_a(4);
    check(CROWDED + 2);
    // The same file written again: its callables leave and come back under their keys.
    write_a(4);
    check(CROWDED + 2);
    let s = store.snapshot().unwrap();
    assert_eq!(
        s.callables_named("make", 2).unwrap().1,
        ["a.ts:F0.make", "a.ts:F1.make"]
    );
    drop(s);
    // A rewrite that keeps the IDs and changes a kind.
    let mut fewer = namesakes("a.ts", "make", 4);
    fewer.nodes[1].kind = NodeKind::Variable.as_u8();
    store.replace_files(&fewer, &[]).unwrap();
    check(CROWDED + 1);
    // Back to the bound: the rows go.
    write_a(2);
    check(CROWDED);
    // New IDs take the place of old ones in one write, past the bound (more come than go)...
    let renamed = |count| {
        let mut batch = namesakes("a.ts", "make", count);
        for node in &mut batch.nodes {
            node.id = node.id.replace(":F", ":G");
        }
        batch
    };
    store.replace_files(&renamed(4), &[]).unwrap();
    check(CROWDED + 2);
    // ... and as many as go, on a crowded name.
    write_a(4);
    check(CROWDED + 2);
    write_a(2);
    check(CROWDED);
    store
        .replace_files(&GraphBatch::default(), &["b.ts"])
        .unwrap();
    check(2);
    // A bulk load writes what the batches would.
    let batch = merged(&[
        namesakes("a.ts", "make", 9),
        namesakes("b.ts", "make", CROWDED),
        namesakes("c.ts", "get", 3),
    ]);
    let parts = Store::open_or_create(dir.path().join("parts.redb")).unwrap();
    bulk_load(&parts, &batch, &[]);
    store.replace_all(&batch).unwrap();
    let (a, b) = (store.snapshot().unwrap(), parts.snapshot().unwrap());
    for name in ["make", "get", "none"] {
        assert_eq!(
            b.callables_named(name, 5).unwrap(),
            a.callables_named(name, 5).unwrap()
        );
        assert_eq!(rows(&b, name), rows(&a, name));
        // Keys too: both number the nodes in the order they come.
        let keyed = |s: &Snapshot| super::crowded::rows_of(s.crowded_table().unwrap(), name);
        assert_eq!(keyed(&b).unwrap(), keyed(&a).unwrap());
    }
    assert_eq!(b.callables_named("make", 100).unwrap().0, 9 + CROWDED);
}

#[test]
fn terms_read_together_find_what_each_finds_alone() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    // Three hundred names: runs of terms side by side, and terms far apart.
    let names: Vec<String> = (0..300).map(|i| format!("n{:03}x", i)).collect();
    let named: Vec<&str> = names.iter().map(String::as_str).collect();
    store
        .replace_all(&merged(&[
            file_batch("a.ts", &named, &[]),
            file_batch("b.ts", &named[..10], &[]),
        ]))
        .unwrap();
    let s = store.snapshot().unwrap();
    let alone = |terms: &[String]| -> Vec<Vec<crate::model::NodeKey>> {
        terms.iter().map(|t| s.term_keys(t).unwrap()).collect()
    };
    let together = |terms: &[String]| -> Vec<Vec<crate::model::NodeKey>> {
        let found = s.terms_keys(terms).unwrap();
        assert_eq!(found.len(), terms.len());
        (0..terms.len()).map(|i| found.of(i).to_vec()).collect()
    };
    let lower =
        |names: &[String]| -> Vec<String> { names.iter().map(|n| n.to_lowercase()).collect() };
    // Side by side, with terms the table lacks among them, before them and after them.
    let mut dense = lower(&names[..40]);
    dense.extend(["n005", "a", "zzz"].map(str::to_owned));
    dense.sort();
    assert_eq!(together(&dense), alone(&dense));
    assert_eq!(
        together(&dense)[dense.iter().position(|t| t == "n000x").unwrap()].len(),
        2
    );
    // Far apart: the walk gives way to lookups, with the same answer.
    let sparse: Vec<String> = lower(&names).into_iter().step_by(60).collect();
    assert_eq!(together(&sparse), alone(&sparse));
    // Not in byte order: looked up one by one.
    let mut unsorted = sparse.clone();
    unsorted.reverse();
    assert_eq!(together(&unsorted), alone(&unsorted));
    assert!(together(&[]).is_empty());
}
