//! Damaged store files: random bytes written over every page of a small store, and at random
//! offsets of a larger one. Each damaged copy is opened and read in full; the outcome must be
//! an error or exactly the graph of the intact store — never a panic, and never a different
//! graph without an error.

use std::fmt::Write as _;
use std::path::Path;

use tsgraph_engine::{EdgeKind, EdgeSpec, GraphBatch, NodeKind, NodeRecord, Store, StoreError};

/// redb's page size.
const PAGE: usize = 4096;

/// A graph of `files` files with `functions` functions each, calls between neighbours and
/// the edge facts and record fields a real index fills in.
fn graph(files: usize, functions: usize) -> GraphBatch {
    let mut batch = GraphBatch::default();
    for f in 0..files {
        let path = format!("src/mod{}/file{f}.ts", f % 7);
        batch.add_file(&path, 0x9e37_79b9_7f4a_7c15 ^ f as u64);
        batch
            .nodes
            .push(NodeRecord::new(&path, NodeKind::File, &path, &path, 1, 40));
        for i in 0..functions {
            let id = format!("{path}:fn{i}");
            let mut node = NodeRecord::new(
                &id,
                NodeKind::Function,
                format!("fn{i}"),
                &path,
                3 * i as u32 + 1,
                3 * i as u32 + 3,
            );
            node.parameters = vec![format!("arg{i}: string")];
            node.type_text = "Promise<void>".to_owned();
            node.package = "app".to_owned();
            node.flags = (i % 4) as u16;
            batch.nodes.push(node);
            batch
                .edges
                .push(EdgeSpec::new(&path, &id, EdgeKind::Contains));
            if f > 0 {
                let target = format!(
                    "src/mod{}/file{}.ts:fn{}",
                    (f - 1) % 7,
                    f - 1,
                    (i + 1) % functions
                );
                let mut call = EdgeSpec::new(&id, target, EdgeKind::Calls);
                call.facts.count = 1 + (i as u32 % 3);
                call.facts.sites = (0..call.facts.count)
                    .map(|s| 3 * i as u32 + 2 + s)
                    .collect();
                batch.edges.push(call);
            }
        }
        if f > 0 {
            let mut import = EdgeSpec::new(
                &path,
                format!("src/mod{}/file{}.ts", (f - 1) % 7, f - 1),
                EdgeKind::Imports,
            );
            import.facts.names = vec!["fn0".to_owned(), "fn1".to_owned()];
            batch.edges.push(import);
        }
    }
    batch.meta.push(("indexed".to_owned(), b"1".to_vec()));
    batch
}

/// Everything the store holds, as text: every node with its record, both adjacency lists,
/// the name index, the file index and the metadata.
fn dump(path: &Path) -> Result<String, StoreError> {
    // Read-only, as queries open it: a store without its verified stamp is verified first.
    let store = Store::open_read_only(path)?;
    let snapshot = store.snapshot()?;
    let mut out = String::new();
    let id_of = |key| -> Result<String, StoreError> {
        match snapshot.node(key)? {
            Some(node) => Ok(node.view()?.id().to_owned()),
            None => Ok(format!("<no node {key:?}>")),
        }
    };
    for key in snapshot.node_keys()? {
        let Some(guard) = snapshot.node(key)? else {
            writeln!(out, "<no node {key:?}>").unwrap();
            continue;
        };
        let node = guard.view()?;
        let params: Vec<&str> = node.parameters().collect();
        writeln!(
            out,
            "{} {:?} {} {} {}-{} {} {:?} {} {}",
            node.id(),
            node.kind(),
            node.name(),
            node.file(),
            node.start_line(),
            node.end_line(),
            node.flags().0,
            params,
            node.type_text(),
            node.package()
        )
        .unwrap();
        for (direction, list) in [
            ("out", snapshot.out_edges(key)?),
            ("in", snapshot.in_edges(key)?),
        ] {
            for edge in list.edges()? {
                let edge = edge.view()?;
                let sites: Vec<u32> = edge.sites().collect();
                let names: Vec<&str> = edge.names().collect();
                writeln!(
                    out,
                    "  {direction} {} {} {} {sites:?} {names:?}",
                    edge.kind(),
                    id_of(edge.other())?,
                    edge.count()
                )
                .unwrap();
            }
        }
    }
    for name in snapshot.names()? {
        let ids = snapshot
            .keys_named(&name)?
            .into_iter()
            .map(id_of)
            .collect::<Result<Vec<_>, _>>()?;
        writeln!(out, "name {name} {ids:?}").unwrap();
    }
    for (file, hash) in snapshot.files()? {
        let keys = snapshot.file_keys(&file)?.unwrap_or_default();
        writeln!(out, "file {file} {hash:x} {keys:?}").unwrap();
    }
    for key in ["schema_version", "next_key", "indexed"] {
        writeln!(out, "meta {key} {:?}", snapshot.meta(key)?).unwrap();
    }
    Ok(out)
}

/// Builds a store from `batch` and returns its bytes and its dump.
fn intact(dir: &Path, batch: &GraphBatch) -> (Vec<u8>, String) {
    let path = dir.join("intact.redb");
    Store::open_or_create(&path)
        .unwrap()
        .replace_all(batch)
        .unwrap();
    let expected = dump(&path).unwrap();
    (std::fs::read(&path).unwrap(), expected)
}

#[derive(Default, Debug)]
struct Outcomes {
    correct: usize,
    errors: usize,
}

/// Writes `bytes` with `damage` applied to a fresh file, reads it in full and checks the
/// outcome. Returns a description of a failure, or records the outcome.
fn check_case(
    dir: &Path,
    bytes: &[u8],
    expected: &str,
    offset: usize,
    noise: &[u8],
    outcomes: &mut Outcomes,
) -> Result<(), String> {
    let mut damaged = bytes.to_vec();
    let end = (offset + noise.len()).min(damaged.len());
    damaged[offset..end].copy_from_slice(&noise[..end - offset]);
    let path = dir.join(format!("damaged-{offset}-{}.redb", noise.len()));
    std::fs::write(&path, &damaged).unwrap();
    let outcome = std::panic::catch_unwind(|| dump(&path));
    let _ = std::fs::remove_file(&path);
    match outcome {
        Err(_) => Err(format!("offset {offset}, {} bytes: panicked", noise.len())),
        Ok(Ok(found)) if found == expected => {
            outcomes.correct += 1;
            Ok(())
        }
        Ok(Ok(_)) => Err(format!(
            "offset {offset}, {} bytes: a different graph without an error",
            noise.len()
        )),
        Ok(Err(err)) if err.is_corrupted() => {
            outcomes.errors += 1;
            Ok(())
        }
        Ok(Err(err)) => Err(format!(
            "offset {offset}, {} bytes: an error that does not say the store is corrupt: {err}",
            noise.len()
        )),
    }
}

#[test]
fn random_bytes_over_any_page_of_a_small_store_give_an_error_or_the_intact_graph() {
    let dir = tempfile::tempdir().unwrap();
    let (bytes, expected) = intact(dir.path(), &graph(4, 4));
    let mut rng = fastrand::Rng::with_seed(0x7e57_0001);
    let mut outcomes = Outcomes::default();
    let mut failures = Vec::new();
    for offset in (0..bytes.len()).step_by(PAGE) {
        let noise: Vec<u8> = std::iter::repeat_with(|| rng.u8(..)).take(PAGE).collect();
        if let Err(failure) =
            check_case(dir.path(), &bytes, &expected, offset, &noise, &mut outcomes)
        {
            failures.push(failure);
        }
    }
    assert!(
        failures.is_empty(),
        "{} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Both outcomes occur: the damage hits pages that are read and pages that are not.
    assert!(outcomes.errors > 0 && outcomes.correct > 0, "{outcomes:?}");
}

#[test]
fn random_bytes_at_random_offsets_of_a_larger_store_give_an_error_or_the_intact_graph() {
    let dir = tempfile::tempdir().unwrap();
    let (bytes, expected) = intact(dir.path(), &graph(40, 9));
    let mut rng = fastrand::Rng::with_seed(0x7e57_0002);
    let mut outcomes = Outcomes::default();
    let mut failures = Vec::new();
    // Pages with any non-zero byte: where the headers, trees and freed pages are. Half the
    // cases aim there, the others anywhere in the file.
    let written: Vec<usize> = (0..bytes.len())
        .step_by(PAGE)
        .filter(|&page| {
            bytes[page..(page + PAGE).min(bytes.len())]
                .iter()
                .any(|&b| b != 0)
        })
        .collect();
    for case in 0..64 {
        let offset = if case % 2 == 0 {
            written[rng.usize(..written.len())] + rng.usize(..PAGE)
        } else {
            rng.usize(..bytes.len())
        }
        .min(bytes.len() - 1);
        let len = [1, 3, 16, 200, PAGE][rng.usize(..5)];
        let noise: Vec<u8> = std::iter::repeat_with(|| rng.u8(..)).take(len).collect();
        if let Err(failure) =
            check_case(dir.path(), &bytes, &expected, offset, &noise, &mut outcomes)
        {
            failures.push(failure);
        }
    }
    assert!(
        failures.is_empty(),
        "{} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(outcomes.errors > 0 && outcomes.correct > 0, "{outcomes:?}");
}

#[test]
fn a_damaged_store_left_by_a_killed_writer_gives_an_error_or_its_last_commit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.redb");
    let store = Store::open_or_create(&path).unwrap();
    store.replace_all(&graph(3, 3)).unwrap();
    store.replace_all(&graph(4, 4)).unwrap();
    // The file as a writer killed now would leave it: redb recovers it on open, and would fall
    // back to the commit before if the latest one looked torn, were it not a two-phase commit.
    let bytes = std::fs::read(&path).unwrap();
    drop(store);
    let left = dir.path().join("left.redb");
    std::fs::write(&left, &bytes).unwrap();
    let expected = dump(&left).unwrap();
    let (_, intact_expected) = intact(dir.path(), &graph(4, 4));
    assert_eq!(
        expected, intact_expected,
        "the killed writer's last commit is read back"
    );

    let mut rng = fastrand::Rng::with_seed(0x7e57_0003);
    let mut outcomes = Outcomes::default();
    let mut failures = Vec::new();
    for offset in (0..bytes.len()).step_by(PAGE) {
        if bytes[offset..(offset + PAGE).min(bytes.len())]
            .iter()
            .all(|&b| b == 0)
        {
            continue;
        }
        let noise: Vec<u8> = std::iter::repeat_with(|| rng.u8(..)).take(PAGE).collect();
        if let Err(failure) =
            check_case(dir.path(), &bytes, &expected, offset, &noise, &mut outcomes)
        {
            failures.push(failure);
        }
    }
    assert!(
        failures.is_empty(),
        "{} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(outcomes.errors > 0 && outcomes.correct > 0, "{outcomes:?}");
}
