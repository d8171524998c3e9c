//! A full index written as it is linked. Holding the whole graph as one batch cost more than
//! the summaries it came from (every edge names its ends by ID string); instead one thread
//! links the files a part at a time while the caller's thread writes the parts into the store
//! through an [`engine loader`](tsgraph_engine::Loader), in one transaction. Memory holds the
//! summaries and a few parts; linking and writing overlap.
//!
//! Node keys are the loader's: consecutive from 0 in the order nodes are added. The writer
//! adds every file's nodes first, in file order (exactly the keys a one-batch write gives);
//! the linker counts the same keys without making the records, so it links from the start
//! while the nodes are written, up to [`PARTS_AHEAD`] parts ahead.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, bounded};
use tsgraph_engine::{EdgeKind, NodeRecord, Store};

use crate::facts::FileFacts;
use crate::facts_table::FactsTable;
use crate::graph::{self, KeyedPart, LinkStats, NodeKeys, Nodes, PackageOf};
use crate::persist;
use crate::resolve::{FileId, Hierarchy, ModuleTarget, Program, ProgramTables, Resolver};
use crate::summary::IndexError;

/// Files linked per part: enough that a part's fixed costs vanish, few enough that a part of
/// large files stays a few megabytes.
pub(crate) const PART_FILES: usize = 128;
/// Node records written per call: about a megabyte and a half of records.
const PART_NODES: usize = 4_096;
/// Parts linked ahead of the writer (a part is about a megabyte): while the writer writes the
/// nodes, the linker links this many parts and then waits. The writer keeps up: more parts
/// ahead only hold more memory.
const PARTS_AHEAD: usize = 2;

/// What a full index reads to link: the state's summaries and tables.
pub(crate) struct LinkInputs<'a> {
    pub(crate) files: &'a FactsTable,
    pub(crate) builtins: &'a FileFacts,
    pub(crate) modules: &'a [Vec<ModuleTarget>],
    pub(crate) tables: &'a ProgramTables,
    pub(crate) hierarchy: &'a Hierarchy,
    pub(crate) nodes: Nodes<'a>,
    pub(crate) package_of: &'a PackageOf<'a>,
}

/// What a load wrote and how long its halves took.
#[derive(Debug, Default)]
pub(crate) struct Loaded {
    pub(crate) nodes: usize,
    /// Edges written, by [`EdgeKind`] byte.
    pub(crate) edges_by_kind: [usize; EdgeKind::ALL.len()],
    pub(crate) stats: LinkStats,
    /// Linking (and encoding the summaries the writer would otherwise wait for), on its
    /// thread.
    pub(crate) link_time: Duration,
    /// Writing, on the caller's thread (overlapping the linking): making and writing the node
    /// records, encoding the summaries the linker left, writing the parts, committing.
    pub(crate) write_time: Duration,
}

impl Loaded {
    fn count_edges(&mut self, kinds: impl Iterator<Item = u8>) {
        for kind in kinds {
            if let Some(count) = self.edges_by_kind.get_mut(usize::from(kind)) {
                *count += 1;
            }
        }
    }
}

enum Part {
    /// Linked files, those of the range of file ids `.1`, in order. Their summaries are
    /// encoded by whichever thread would otherwise wait: the linker when the writer is behind
    /// (a part is queued), else the writer.
    Files(KeyedPart, Range<usize>),
    /// Every part's edges from other files' nodes, merged into their lists last.
    Foreign(Vec<(u32, tsgraph_engine::EdgeEntry)>),
}

/// Replaces the store's graph with the linked graph of `inputs`, `part_files` files at a time,
/// committing `meta` with it.
pub(crate) fn load(
    inputs: &LinkInputs<'_>,
    store: &Store,
    meta: &[(String, Vec<u8>)],
    part_files: usize,
) -> Result<Loaded, IndexError> {
    let mut loader = store.replace_all_in_parts()?;
    let mut loaded = Loaded::default();
    let keys = graph::node_keys(inputs.nodes);
    let (sender, receiver) = bounded(PARTS_AHEAD);
    // While the writer writes the nodes it takes no part, so an empty queue does not mean it
    // is waiting for one.
    let writing_nodes = AtomicBool::new(true);
    let linked = std::thread::scope(|scope| {
        let (keys, writing_nodes) = (&keys, &writing_nodes);
        let linker = scope
            .spawn(move || link_parts(inputs, keys, part_files.max(1), (&sender, writing_nodes)));
        let written = write_nodes(inputs, keys, &mut loader, &mut loaded).and_then(|()| {
            writing_nodes.store(false, Ordering::Relaxed);
            write_parts(&receiver, inputs.files, &mut loader, &mut loaded)
        });
        // A failed write stops the linker: its next send finds no receiver.
        drop(receiver);
        let linked = linker.join().unwrap_or_else(|panic| {
            let message = panic
                .downcast_ref::<&str>()
                .map(|text| (*text).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(IndexError::Link(format!(
                "the linking thread panicked: {message}"
            )))
        });
        // The writer's error comes first: a linker stopped by it has nothing to add.
        written.and(linked)
    })?;
    loaded.link_time = linked.0;
    loaded.stats = linked.1;
    let writing = Instant::now();
    loader.commit(meta)?;
    loaded.write_time += writing.elapsed();
    Ok(loaded)
}

/// Writes every file's node records, [`PART_NODES`] at a time, under the keys `keys` gave
/// the linker: each record's key is checked against them, and each call's first key against
/// the store's.
fn write_nodes(
    inputs: &LinkInputs<'_>,
    keys: &NodeKeys,
    loader: &mut tsgraph_engine::Loader<'_>,
    loaded: &mut Loaded,
) -> Result<(), IndexError> {
    let writing = Instant::now();
    let mut records: Vec<NodeRecord> = Vec::with_capacity(PART_NODES);
    let mut next: u32 = 0;
    let mut flush = |records: &mut Vec<NodeRecord>, loaded: &mut Loaded| {
        let expected = u32::try_from(loaded.nodes).unwrap_or(u32::MAX);
        let count = records.len();
        let full = std::mem::replace(records, Vec::with_capacity(PART_NODES));
        let first = loader.add_nodes(full)?;
        if first != expected {
            return Err(IndexError::Link(format!(
                "the store gave node key {first} where {expected} was expected"
            )));
        }
        loaded.nodes += count;
        Ok(())
    };
    for ((facts, file_nodes), file_keys) in inputs.nodes.iter().zip(keys) {
        for (index, record) in graph::node_records(facts, file_nodes, inputs.package_of) {
            let counted = file_keys.get(index as usize).copied();
            if counted != Some(next) {
                return Err(IndexError::Link(format!(
                    "node {} was counted as key {counted:?} but is written as {next}",
                    record.id
                )));
            }
            next = next.saturating_add(1);
            records.push(record);
        }
        if records.len() >= PART_NODES {
            flush(&mut records, loaded)?;
        }
    }
    if !records.is_empty() {
        flush(&mut records, loaded)?;
    }
    loaded.write_time += writing.elapsed();
    Ok(())
}

fn write_parts(
    receiver: &Receiver<Result<Part, IndexError>>,
    summaries: &FactsTable,
    loader: &mut tsgraph_engine::Loader<'_>,
    loaded: &mut Loaded,
) -> Result<(), IndexError> {
    for part in receiver {
        let part = part?;
        let writing = Instant::now();
        match part {
            Part::Files(mut part, files) => {
                encode_summaries(&mut part, summaries, files);
                loaded.count_edges(part.edges.iter().map(|(_, entry)| entry.kind));
                loader.add_files(part.files, part.edges)?;
            }
            Part::Foreign(edges) => {
                let added = loader.merge_edges(edges)?;
                loaded.count_edges(added.into_iter());
            }
        }
        loaded.write_time += writing.elapsed();
    }
    Ok(())
}

/// The linking thread: the files part by part, their edges by the keys `keys` gives (the
/// writer writes the nodes meanwhile, as `writing_nodes` says). Stops early when the writer
/// is gone. Returns its busy time and the link counts.
fn link_parts(
    inputs: &LinkInputs<'_>,
    keys: &NodeKeys,
    part_files: usize,
    (sender, writing_nodes): (&Sender<Result<Part, IndexError>>, &AtomicBool),
) -> Result<(Duration, LinkStats), IndexError> {
    let mut busy = Duration::ZERO;
    let program = Program::new(inputs.files, inputs.builtins, inputs.modules, inputs.tables);
    let resolver = Resolver::new(&program);
    let mut stats = LinkStats::default();
    let mut foreign = Vec::new();
    let ids: Vec<FileId> = (0..inputs.nodes.len())
        .map(|i| FileId::try_from(i).unwrap_or(u32::MAX))
        .collect();
    for (number, chunk) in ids.chunks(part_files).enumerate() {
        let files = number * part_files..number * part_files + chunk.len();
        let linking = Instant::now();
        let part = graph::link_keyed(&resolver, inputs.hierarchy, inputs.nodes, keys, chunk)
            .map_err(IndexError::Link)
            .map(|mut part| {
                // The writer is busy (writing nodes, or parts queued for it): encoding here
                // spares it the work.
                if writing_nodes.load(Ordering::Relaxed) || !sender.is_empty() {
                    encode_summaries(&mut part, inputs.files, files.clone());
                }
                stats.absorb(&part.stats);
                foreign.append(&mut part.foreign);
                part
            });
        resolver.forget_local_types();
        busy += linking.elapsed();
        let failed = part.is_err();
        if sender
            .send(part.map(|part| Part::Files(part, files)))
            .is_err()
            || failed
        {
            return Ok((busy, stats));
        }
    }
    if !foreign.is_empty() {
        let _ = sender.send(Ok(Part::Foreign(foreign)));
    }
    Ok((busy, stats))
}

/// Gives each file of `part` (the files `files` of `summaries`, in order) its encoded
/// summary, unless it has one.
fn encode_summaries(part: &mut KeyedPart, summaries: &FactsTable, files: Range<usize>) {
    let facts = files.map(|id| summaries.get(FileId::try_from(id).unwrap_or(FileId::MAX)));
    for (file, facts) in part.files.iter_mut().zip(facts) {
        debug_assert_eq!(
            file.entry.path, facts.path,
            "a part's files are its range's"
        );
        if file.blob.is_none() {
            file.blob = Some(persist::encode(facts));
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // A failure is the test failing.

    use std::path::Path;

    use tsgraph_engine::{NodeKey, Snapshot, Store};

    use crate::model::ProjectModel;
    use crate::state::IndexState;

    /// Two subclasses of a base class that implement an interface through it (the base's
    /// member implements the interface member: an edge from another file's node), calls
    /// across files, an unresolved call.
    const SOURCES: &[(&str, &str)] = &[
        (
            "admin.ts",
            "import { BaseRepository } from './base';\nimport { Repository } from './iface';\nexport class AdminRepo extends BaseRepository implements Repository {\n  purge() { return this.findById('x') + this.nothing(); }\n}\n",
        ),
        (
            "base.ts",
            "export class BaseRepository {\n  findById(id: string) { return id; }\n}\n",
        ),
        (
            "iface.ts",
            "export interface Repository { findById(id: string): string; }\n",
        ),
        (
            "main.ts",
            "import { AdminRepo } from './admin';\nimport { UserRepo } from './user';\nexport function main() { new AdminRepo().purge(); return new UserRepo().findById('u'); }\n",
        ),
        (
            "user.ts",
            "import { BaseRepository } from './base';\nimport { Repository } from './iface';\nexport class UserRepo extends BaseRepository implements Repository {}\n",
        ),
    ];

    fn summaries() -> Vec<crate::facts::FileFacts> {
        let mut extractor = crate::extract::Extractor::new().unwrap();
        SOURCES
            .iter()
            .map(|(path, text)| crate::pool::extract_one(&mut extractor, path, text.as_bytes(), 1))
            .collect()
    }

    fn state() -> IndexState {
        let facts = summaries();
        let paths: Vec<&str> = SOURCES.iter().map(|(path, _)| *path).collect();
        let model = ProjectModel::from_sources(&Default::default(), &paths);
        IndexState::with_model(Path::new("/nonexistent/load-test"), facts, model)
            .unwrap()
            .0
    }

    /// Every node with its record and both edge lists (ends by ID, with facts), and the
    /// unresolved call.
    fn dump(snapshot: &Snapshot) -> Vec<String> {
        let id = |key: NodeKey| {
            let node = snapshot.node(key).unwrap().unwrap();
            node.view().unwrap().id().to_owned()
        };
        let mut out = Vec::new();
        for key in snapshot.node_keys().unwrap() {
            let record = snapshot.node(key).unwrap().unwrap().record().unwrap();
            out.push(format!("{key:?} {record:?}"));
            for (direction, list) in [
                ("out", snapshot.out_edges(key).unwrap()),
                ("in", snapshot.in_edges(key).unwrap()),
            ] {
                for edge in list.edges().unwrap() {
                    let facts = edge.facts().unwrap();
                    out.push(format!(
                        "  {direction} {} {} {facts:?}",
                        edge.kind(),
                        id(edge.other())
                    ));
                }
            }
        }
        let calls = snapshot.unresolved_calls("nothing").unwrap();
        assert_eq!(calls.len(), 1, "{calls:?}");
        assert_eq!(snapshot.unresolved_call_count("nothing").unwrap(), 1);
        assert_eq!(snapshot.unresolved_call_count("never").unwrap(), 0);
        out.push(format!("{calls:?}"));
        out
    }

    #[test]
    fn a_load_in_parts_stores_the_graph_one_batch_stores() {
        let state = state();
        let dir = tempfile::tempdir().unwrap();
        let whole = Store::open_or_create(dir.path().join("whole.redb")).unwrap();
        whole.replace_all(&state.link_everything()).unwrap();
        let whole = whole.snapshot().unwrap();
        let expected = dump(&whole);
        // One file per part (the base class's member is linked as a source while its
        // subclass's part is written), two (both in one part, and across parts), all.
        let mut loaded = None;
        for part_files in [1, 2, SOURCES.len()] {
            let path = dir.path().join(format!("parts-{part_files}.redb"));
            let store = Store::open_or_create(path).unwrap();
            loaded = Some(state.load_into(&store, &[], part_files).unwrap());
            let snapshot = store.snapshot().unwrap();
            assert_eq!(dump(&snapshot), expected, "{part_files}");
            // Each file's summary, whichever thread encoded it.
            for (path, _) in SOURCES {
                let blob = snapshot.blob(path).unwrap().unwrap();
                assert_eq!(crate::persist::decode(&blob).unwrap().path, *path);
            }
        }
        let loaded = loaded.unwrap();
        let parts = Store::open(dir.path().join("parts-1.redb")).unwrap();
        let parts = parts.snapshot().unwrap();
        // The edge from another file's node, found while linking the first file.
        assert!(
            expected
                .iter()
                .any(|line| line.contains("out IMPLEMENTS iface.ts:Repository.findById")),
            "{expected:#?}"
        );
        let edges: usize = loaded.edges_by_kind.iter().sum();
        assert_eq!(edges, state.link_everything().edges.len());
        assert_eq!(loaded.nodes, whole.node_count().unwrap() as usize);
        assert!(parts.blob("base.ts").unwrap().is_some());
    }

    #[test]
    fn summaries_are_encoded_by_file_range_and_an_encoded_one_is_kept() {
        let summaries = summaries();
        let file = |path: &str, blob: Option<Vec<u8>>| tsgraph_engine::LoadedFile {
            entry: tsgraph_engine::FileEntry {
                path: path.to_owned(),
                ..Default::default()
            },
            blob,
            ..Default::default()
        };
        let mut part = super::KeyedPart {
            files: vec![
                file(SOURCES[2].0, None),
                file(SOURCES[3].0, Some(b"kept".to_vec())),
            ],
            edges: Vec::new(),
            foreign: Vec::new(),
            stats: Default::default(),
        };
        let summaries = crate::facts_table::FactsTable::loaded(summaries);
        super::encode_summaries(&mut part, &summaries, 2..4);
        let decoded = crate::persist::decode(part.files[0].blob.as_ref().unwrap()).unwrap();
        assert_eq!(decoded.path, SOURCES[2].0);
        assert_eq!(part.files[1].blob.as_deref(), Some(b"kept".as_slice()));
    }
}
