//! The store target: a store file with fuzzed bytes is opened and read in full.
//!
//! The base is the store of the `basic` fixture project, built once per process, in two states:
//! as a clean close leaves it, and as a writer killed right after its commit leaves it (redb
//! treats the two differently when the latest commit fails its check). An input is a mode byte
//! (even: the clean file, odd: the killed writer's) and a list of patches, each
//! `[page, offset: u16 LE, length, bytes…]`: a page byte below 240 picks one of the pages that
//! hold data (most of the file is unused space) and the offset is taken within it; 240 and
//! above address the whole file in 16-byte steps. The patched copy must either fail to open or
//! read, or read exactly as the intact store does: never a panic, and never another graph
//! without an error. The one exception is redb's god byte (offset 9), which is not covered by
//! any checksum and whose primary bit picks which of the two commit slots is current: with it
//! changed, the file may read as its commit before (here, the empty store before the index),
//! and in a file a killed writer left that cannot be told from a commit interrupted before it
//! took effect. An input whose mode byte is 0xff is instead one node record's bytes, validated
//! and read field by field.
//!
//! An input whose mode byte is 0xfe patches the base store's graph file instead (patches
//! `[offset: u16 LE, length, bytes…]`, the offset taken within the file), leaves the sections
//! a reader trusts once the checksum matches (node records, their index, the ID index) where
//! and as they were (an input that moves them is passed over),
//! recomputes the checksums as if tsgraph had written the damage, and reads the store: the
//! bounds and structure checks behind the checksum must turn any damage into an error or an
//! answer — never a panic. (With forged checksums a wrong answer is possible; what the
//! checksum itself catches is the graph-file test's.)

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use tsgraph_encoders::graph::JsonLinesSink;
use tsgraph_engine::{NodeView, Store, reseal_graph_file};
use tsgraph_indexer::{IndexOptions, index_project};
use tsgraph_query::Query;

/// redb's page size.
const PAGE: usize = 4096;

struct Base {
    dir: tempfile::TempDir,
    /// The file after a clean close, and as a killed writer leaves it.
    files: [File; 2],
    dump: String,
    /// What the commit before the index reads as: the empty store.
    empty_dump: String,
    /// The clean store's graph file: its name (as the store names it) and bytes.
    graph: (String, Vec<u8>),
}

/// redb's god byte: its primary bit selects the current commit slot; no checksum covers it.
const GOD_BYTE: usize = 9;

struct File {
    bytes: Vec<u8>,
    /// Offsets of the pages with any non-zero byte.
    data_pages: Vec<usize>,
}

impl File {
    fn new(bytes: Vec<u8>) -> File {
        let data_pages = (0..bytes.len())
            .step_by(PAGE)
            .filter(|&page| {
                bytes[page..(page + PAGE).min(bytes.len())]
                    .iter()
                    .any(|&b| b != 0)
            })
            .collect();
        File { bytes, data_pages }
    }
}

fn base() -> &'static Base {
    static BASE: OnceLock<Base> = OnceLock::new();
    BASE.get_or_init(|| {
        // In memory where the system offers it: every execution writes, syncs and reads a
        // 1 MiB file.
        let dir = tempfile::Builder::new()
            .prefix("tsgraph-fuzz-store")
            .tempdir_in("/dev/shm")
            .or_else(|_| tempfile::tempdir())
            .expect("temp dir");
        let path = dir.path().join("intact.redb");
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/basic");
        let killed = {
            let store = Store::open_or_create(&path).expect("create the base store");
            index_project(&fixture, &store, &IndexOptions::default())
                .expect("index the basic fixture");
            std::fs::read(&path).expect("read the base store")
        };
        let dump = read_all(&path).expect("the intact store reads");
        let clean = std::fs::read(&path).expect("read the base store");
        let graph = graph_file_of(dir.path()).expect("the index wrote a graph file");
        let _ = std::fs::remove_file(&path);
        drop(Store::open_or_create(&path).expect("create an empty store"));
        let empty_dump = read_all(&path).expect("the empty store reads");
        let _ = std::fs::remove_file(&path);
        Base {
            dir,
            files: [File::new(clean), File::new(killed)],
            dump,
            empty_dump,
            graph,
        }
    })
}

/// The graph file in `dir` (there is one beside the base store), by name, with its bytes.
fn graph_file_of(dir: &Path) -> Option<(String, Vec<u8>)> {
    std::fs::read_dir(dir).ok()?.flatten().find_map(|entry| {
        let name = entry.file_name().to_string_lossy().into_owned();
        name.ends_with(".graph")
            .then(|| Some((name, std::fs::read(entry.path()).ok()?)))
            .flatten()
    })
}

/// Opens the store at `path` and reads all of it: every node and edge (as `tsgraph export`
/// writes them), every simple name with the keys of its nodes and its functions and methods, the file index with every
/// file's keys, and the metadata. The text is the same for two stores holding the same graph
/// in the same layout.
pub fn read_all(path: &Path) -> Result<String, String> {
    let store = Store::open(path).map_err(|err| err.to_string())?;
    let snapshot = store.snapshot().map_err(|err| err.to_string())?;
    let mut out = Vec::new();
    Query::new(&snapshot)
        .export(&mut JsonLinesSink::new(&mut out))
        .map_err(|err| err.to_string())?;
    let mut text = String::from_utf8(out).map_err(|err| err.to_string())?;
    let names = snapshot.names().map_err(|err| err.to_string())?;
    for name in names {
        let keys = snapshot.keys_named(&name).map_err(|err| err.to_string())?;
        let callables = (snapshot.callables_named(&name, 5)).map_err(|err| err.to_string())?;
        text.push_str(&format!("name {name}: {keys:?} {callables:?}\n"));
    }
    for (file, hash) in snapshot.files().map_err(|err| err.to_string())? {
        let keys = snapshot.file_keys(&file).map_err(|err| err.to_string())?;
        text.push_str(&format!("file {file} {hash:x}: {keys:?}\n"));
    }
    for key in ["schema_version", "next_key", "indexed", "project_root"] {
        let value = snapshot.meta(key).map_err(|err| err.to_string())?;
        text.push_str(&format!("meta {key}: {value:?}\n"));
    }
    Ok(text)
}

/// Applies the patches of `data` to a copy of the base store and reads it (see the module
/// documentation). Panics on a wrong answer, or if anything inside panics.
pub fn store(data: &[u8]) {
    let Some((&mode, mut rest)) = data.split_first() else {
        return;
    };
    if mode == 0xff {
        return read_record(rest);
    }
    if mode == 0xfe {
        // An error or an answer: either is fine; a panic is the failure.
        let _ = read_damaged_graph_file(rest);
        return;
    }
    let base = base();
    let file = &base.files[usize::from(mode & 1)];
    let mut bytes = file.bytes.clone();
    while let [page, low, high, len, tail @ ..] = rest {
        let offset = u16::from_le_bytes([*low, *high]) as usize;
        let at = if *page < 240 {
            file.data_pages[*page as usize % file.data_pages.len()] + offset % PAGE
        } else {
            (offset * 16) % bytes.len()
        };
        let len = (*len as usize).min(tail.len());
        let end = (at + len).min(bytes.len());
        bytes[at..end].copy_from_slice(&tail[..end - at]);
        rest = &tail[len..];
    }
    let path = scratch_path(&base.dir);
    std::fs::write(&path, &bytes).expect("write the damaged store");
    let outcome = read_all(&path);
    let _ = std::fs::remove_file(&path);
    if let Ok(found) = outcome {
        let previous_commit = bytes[GOD_BYTE] != file.bytes[GOD_BYTE] && found == base.empty_dump;
        assert!(
            found == base.dump || previous_commit,
            "a damaged store read without an error but differently:\n{found}"
        );
    }
}

/// A file name of its own for each call, so that tests on several threads do not share one.
fn scratch_path(dir: &tempfile::TempDir) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    dir.path().join(format!(
        "damaged-{}.redb",
        NEXT.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Mode 0xfe (see the module documentation): what the store reads as with the patched graph
/// file, or `None` for an input passed over.
fn read_damaged_graph_file(mut patches: &[u8]) -> Option<Result<String, String>> {
    let base = base();
    let (name, original) = &base.graph;
    let mut bytes = original.clone();
    while let [low, high, len, tail @ ..] = patches {
        let at = usize::from(u16::from_le_bytes([*low, *high])) % bytes.len();
        let len = (*len as usize).min(tail.len());
        let end = (at + len).min(bytes.len());
        bytes[at..end].copy_from_slice(&tail[..end - at]);
        patches = &tail[len..];
    }
    let trusted = reseal_graph_file(&mut original.clone()).expect("the base file reseals");
    if reseal_graph_file(&mut bytes).as_ref() != Some(&trusted) {
        return None;
    }
    for range in trusted {
        bytes[range.clone()].copy_from_slice(&original[range]);
    }
    reseal_graph_file(&mut bytes).expect("the header still parses");
    let folder = tempfile::tempdir_in(base.dir.path()).expect("scratch folder");
    let store = folder.path().join("intact.redb");
    std::fs::write(&store, &base.files[0].bytes).expect("write the store");
    std::fs::write(folder.path().join(name), &bytes).expect("write the graph file");
    Some(read_all(&store))
}

fn read_record(bytes: &[u8]) {
    let Ok(view) = NodeView::from_bytes(bytes) else {
        return;
    };
    let mut total = view.id().len() + view.name().len() + view.module().len();
    total += view.package().len() + view.file().len() + view.symbol().len();
    total += view.parameters().map(str::len).sum::<usize>() + view.type_text().len();
    total += view.doc().len();
    let _ = (total, view.kind(), view.start_line(), view.end_line());
    let _ = (
        view.flags(),
        view.exported(),
        view.visibility(),
        format!("{view:?}"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_graph_file_mode_reads_the_file_it_patched() {
        // No patch: the base graph file, read as the intact store.
        assert_eq!(read_damaged_graph_file(&[]), Some(Ok(base().dump.clone())));
        // Incoming entries near the end overwritten: read through, whatever the answer.
        let tail = [0xf0, 0xff, 6, 0xff, 0xff, 0xff, 0x7f, 9, 9];
        assert!(read_damaged_graph_file(&tail).is_some());
    }
}
