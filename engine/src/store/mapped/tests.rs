//! A graph file damaged after it was sealed: the reader refuses the damage as `Corrupted`,
//! never trusting a byte the checks say no entry can hold, and a prefetch hint over it
//! neither fails nor changes a read.

#![allow(clippy::unwrap_used)] // Test helpers unwrap: a failure is the test failing.

use std::path::{Path, PathBuf};

use super::layout::{HEADER_LEN, Header, IN_ENTRY, Section, reseal};
use crate::error::StoreError;
use crate::model::{EdgeKind, NodeKey, NodeKind};
use crate::record::{EdgeSpec, GraphBatch, NodeRecord};
use crate::store::Prefetch;
use crate::store::Store;

/// `a.ts:main` calls `b.ts:save`; both files contain their function.
fn calls_batch() -> GraphBatch {
    let mut batch = GraphBatch::default();
    for (file, name) in [("a.ts", "main"), ("b.ts", "save")] {
        batch.add_file(file, 1);
        batch
            .nodes
            .push(NodeRecord::new(file, NodeKind::File, file, file, 1, 10));
        let id = format!("{file}:{name}");
        batch
            .nodes
            .push(NodeRecord::new(&id, NodeKind::Function, name, file, 2, 3));
        batch
            .edges
            .push(EdgeSpec::new(file, id, EdgeKind::Contains));
    }
    let mut call = EdgeSpec::new("a.ts:main", "b.ts:save", EdgeKind::Calls);
    call.facts.resolution = crate::model::Resolution::Dispatch as u8;
    batch.edges.push(call);
    batch
}

/// A store of [`calls_batch`] with its graph file, closed; the file's path.
fn sealed_store(dir: &Path) -> PathBuf {
    let store = Store::open_or_create(dir.join("g.redb")).unwrap();
    store.replace_all(&calls_batch()).unwrap();
    assert!(store.write_graph_file().unwrap());
    drop(store);
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| path.extension().is_some_and(|e| e == "graph"))
        .expect("a graph file")
}

/// Rewrites the first byte of the first incoming entry of `kind` in the file at `path` to
/// `byte`, and seals the file again (both checksums), as damage the checksum cannot see.
fn damage_first_entry(path: &Path, kind: EdgeKind, byte: u8) {
    let mut file = std::fs::read(path).unwrap();
    let header = Header::decode(&file).unwrap();
    let entries = header.section(Section::InEntries);
    let (start, end) = (entries.start as usize, entries.end as usize);
    assert!(start >= HEADER_LEN);
    let at = (start..end)
        .step_by(IN_ENTRY)
        .find(|&at| file[at] & 0x0F == kind as u8)
        .expect("an entry of that kind");
    file[at] = byte;
    reseal(&mut file).unwrap();
    std::fs::write(path, file).unwrap();
}

/// What reading `id`'s incoming list three ways gives: as edges, as steps, and a lookup of
/// the edge of `kind` from `from`.
fn read_incoming(db: &Path, id: &str, kind: EdgeKind, from: &str) -> [Result<(), StoreError>; 3] {
    let store = Store::open_read_only(db).unwrap();
    let snapshot = store.snapshot().unwrap();
    assert!(snapshot.is_mapped());
    let key = snapshot.key_of(id).unwrap().unwrap();
    let source = snapshot.key_of(from).unwrap().unwrap();
    let list = || snapshot.in_edges(key).unwrap();
    [
        list().edges().map(drop),
        list().into_steps().map(drop),
        list().find(kind, source).map(drop),
    ]
}

#[test]
fn a_resolution_no_resolution_has_is_corrupted() {
    let dir = tempfile::tempdir().unwrap();
    let graph = sealed_store(dir.path());
    let db = dir.path().join("g.redb");
    assert!(
        read_incoming(&db, "b.ts:save", EdgeKind::Calls, "a.ts:main")
            .iter()
            .all(Result::is_ok)
    );
    // CALLS with resolution 9, which no resolution has.
    damage_first_entry(&graph, EdgeKind::Calls, 0x92);
    for read in read_incoming(&db, "b.ts:save", EdgeKind::Calls, "a.ts:main") {
        assert!(
            matches!(read, Err(StoreError::Corrupted { .. })),
            "{read:?}"
        );
        // Read outside the panic boundary, the error still names the store file.
        let message = read.unwrap_err().to_string();
        assert!(message.contains("g.redb"), "{message}");
    }
}

#[test]
fn a_resolution_on_an_edge_that_is_not_a_call_is_corrupted() {
    let dir = tempfile::tempdir().unwrap();
    let graph = sealed_store(dir.path());
    let db = dir.path().join("g.redb");
    // CONTAINS (kind 0) with a resolution.
    damage_first_entry(&graph, EdgeKind::Contains, 0x10);
    for read in read_incoming(&db, "a.ts:main", EdgeKind::Contains, "a.ts") {
        assert!(
            matches!(read, Err(StoreError::Corrupted { .. })),
            "{read:?}"
        );
    }
}

#[test]
fn prefetch_hints_past_the_file_or_over_damaged_slots_change_no_read() {
    let dir = tempfile::tempdir().unwrap();
    let graph = sealed_store(dir.path());
    let db = dir.path().join("g.redb");
    // Every index slot of records and lists points far past its section.
    let mut file = std::fs::read(&graph).unwrap();
    let header = Header::decode(&file).unwrap();
    for section in [Section::NodeIndex, Section::OutIndex] {
        let range = header.section(section);
        file[range.start as usize..range.end as usize].fill(0xEE);
    }
    reseal(&mut file).unwrap();
    std::fs::write(&graph, file).unwrap();
    let store = Store::open_read_only(&db).unwrap();
    let snapshot = store.snapshot().unwrap();
    assert!(snapshot.is_mapped());
    let keys: Vec<NodeKey> = (0..header.slots + 40).map(NodeKey).collect();
    for part in [Prefetch::Record, Prefetch::OutEdges] {
        for at in 0..keys.len() {
            snapshot.prefetch_ahead(part, at, |i| keys.get(i).copied());
        }
    }
    // The reads still say what the damage is.
    assert!(matches!(
        snapshot.node(NodeKey(0)),
        Err(StoreError::Corrupted { .. })
    ));
    assert!(matches!(
        snapshot.out_edges(NodeKey(0)),
        Err(StoreError::Corrupted { .. })
    ));
}

#[test]
fn the_id_index_built_beside_the_other_sections_gives_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    store.replace_all(&calls_batch()).unwrap();
    let snapshot = store.table_snapshot().unwrap();
    let generation = snapshot.generation().unwrap();
    let slots = snapshot.key_bound().unwrap();
    let (serial, beside) = (dir.path().join("serial"), dir.path().join("beside"));
    super::build(&snapshot, None, generation, slots, &serial).unwrap();
    let second = store.table_snapshot().unwrap();
    super::build(&snapshot, Some(second), generation, slots, &beside).unwrap();
    let serial = std::fs::read(serial).unwrap();
    assert_eq!(serial, std::fs::read(beside).unwrap());
    let ids = Header::decode(&serial).unwrap().section(Section::Ids);
    assert!(ids.end > ids.start);
}
