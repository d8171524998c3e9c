//! Writing a graph file from the store's tables in one sequential pass per section: the data
//! sections stream out while their indexes are gathered (a few bytes per node, and twelve per
//! CALLS edge for the resolutions the incoming entries repeat), the indexes follow, and the
//! header goes in last, at the front, with the checksum of all that came after it. The ID
//! index, given a second snapshot of the same state, is built in memory on a thread of its
//! own meanwhile and written in its turn.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::Path;

use xxhash_rust::xxh3::Xxh3;

use super::layout::{HEADER_LEN, Header, IN_ENTRY, RESOLUTION_SHIFT, SECTIONS, Section};
use crate::error::StoreError;
use crate::model::{EdgeKind, Resolution};
use crate::record::NodeView;
use crate::store::Generation;
use crate::store::adjacency::ListView;
use crate::store::snapshot::Snapshot;

/// The file being written: where it is, and the checksum of what was written so far.
struct Sink {
    out: BufWriter<File>,
    position: u64,
    hasher: Xxh3,
}

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let written = self.out.write(bytes)?;
        self.hasher.update(&bytes[..written]);
        self.position += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Per-node offsets into a data section, gathered as the section streams out.
struct Offsets {
    starts: Vec<u64>,
}

impl Offsets {
    fn new(slots: u32) -> Offsets {
        Offsets {
            starts: Vec::with_capacity(slots as usize + 1),
        }
    }

    /// Node `key` starts at `at`; every key before it not seen yet is a hole ending there.
    fn start(&mut self, key: u32, at: u64, slots: u32) -> Result<(), StoreError> {
        if key >= slots || (key as usize) < self.starts.len() {
            return Err(StoreError::corrupted(
                "graph file build",
                format!("node key {key} out of order or past {slots}"),
            ));
        }
        while self.starts.len() <= key as usize {
            self.starts.push(at);
        }
        Ok(())
    }

    /// Closes the index at `end`: every remaining slot, then the end itself.
    fn finish(mut self, end: u64, slots: u32) -> Vec<u64> {
        while self.starts.len() <= slots as usize {
            self.starts.push(end);
        }
        self.starts
    }
}

/// Writes the graph file of `snapshot` (the store state `generation`, keys below `slots`) at
/// `path`, synced to disk when this returns.
pub(crate) fn build(
    snapshot: &Snapshot,
    ids_snapshot: Option<Snapshot>,
    generation: Generation,
    slots: u32,
    path: &Path,
) -> Result<(), StoreError> {
    // The ID index (an FST over every ID) is about half of the build: with a second snapshot
    // of the same state it is built in memory on a thread of its own while the other
    // sections stream out.
    std::thread::scope(|scope| {
        let ids = ids_snapshot.and_then(|ids| {
            std::thread::Builder::new()
                .spawn_scoped(scope, move || {
                    let mut builder = fst::MapBuilder::memory();
                    scan_ids_into(&ids, &mut builder)?;
                    builder
                        .into_inner()
                        .map_err(|err| StoreError::corrupted("graph file ids", err))
                })
                .ok()
        });
        write_file(snapshot, ids, generation, slots, path)
    })
}

/// Inserts every ID of `snapshot` with its key into `builder`, in the table's (byte) order.
fn scan_ids_into<W: Write>(
    snapshot: &Snapshot,
    builder: &mut fst::MapBuilder<W>,
) -> Result<(), StoreError> {
    snapshot.scan_ids(|id, key| {
        builder
            .insert(id, u64::from(key))
            .map_err(|err| StoreError::corrupted("graph file ids", err))
    })
}

/// Writes the graph file, its ID index from `ids` when that thread was started.
fn write_file(
    snapshot: &Snapshot,
    ids: Option<std::thread::ScopedJoinHandle<'_, Result<Vec<u8>, StoreError>>>,
    generation: Generation,
    slots: u32,
    path: &Path,
) -> Result<(), StoreError> {
    let io_error = |err: io::Error| StoreError::from_io(path, "write the graph file", err);
    let file = File::options()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(io_error)?;
    let mut sink = Sink {
        out: BufWriter::with_capacity(1 << 20, file),
        position: HEADER_LEN as u64,
        hasher: Xxh3::new(),
    };
    sink.out.write_all(&[0u8; HEADER_LEN]).map_err(io_error)?;
    let mut sections: [Range<u64>; SECTIONS] = Default::default();

    // Both validated once here, so readers of the file view records without validating them.
    let node_index = stream_section(&mut sink, &mut sections, Section::NodeBytes, |sink| {
        write_keyed(
            sink,
            slots,
            &io_error,
            |each| snapshot.scan_nodes(each),
            |_, bytes| NodeView::from_bytes(bytes).map(drop),
        )
    })?;
    let mut calls = CallResolutions::default();
    let out_index = stream_section(&mut sink, &mut sections, Section::OutBytes, |sink| {
        write_keyed(
            sink,
            slots,
            &io_error,
            |each| snapshot.scan_out_lists(each),
            |source, bytes| {
                calls.note(source, ListView::parse(bytes)?);
                Ok(())
            },
        )
    })?;
    calls.seal();
    let in_index = stream_section(&mut sink, &mut sections, Section::InEntries, |sink| {
        write_in_entries(snapshot, &calls, sink, slots, &io_error)
    })?;
    stream_section(&mut sink, &mut sections, Section::Ids, |sink| match ids {
        Some(built) => {
            let bytes = match built.join() {
                Ok(bytes) => bytes?,
                Err(panic) => std::panic::resume_unwind(panic),
            };
            sink.write_all(&bytes).map_err(io_error)
        }
        None => {
            let mut ids = fst::MapBuilder::new(&mut *sink)
                .map_err(|err| StoreError::corrupted("graph file ids", err))?;
            scan_ids_into(snapshot, &mut ids)?;
            ids.finish()
                .map_err(|err| StoreError::corrupted("graph file ids", err))
        }
    })?;
    for (section, index) in [
        (Section::NodeIndex, &node_index),
        (Section::OutIndex, &out_index),
    ] {
        stream_section(&mut sink, &mut sections, section, |sink| {
            index
                .iter()
                .try_for_each(|offset| sink.write_all(&offset.to_le_bytes()))
                .map_err(io_error)
        })?;
    }
    stream_section(&mut sink, &mut sections, Section::InIndex, |sink| {
        in_index
            .iter()
            .try_for_each(|count| sink.write_all(&count.to_le_bytes()))
            .map_err(io_error)
    })?;

    let header = Header {
        slots,
        generation,
        sections,
        body_checksum: sink.hasher.digest(),
    };
    let mut file = sink
        .out
        .into_inner()
        .map_err(|err| io_error(err.into_error()))?;
    file.seek(SeekFrom::Start(0)).map_err(io_error)?;
    file.write_all(&header.encode()).map_err(io_error)?;
    file.sync_all().map_err(io_error)
}

/// A data section of one byte string per key (records, lists), each validated by `validate`
/// as it streams out of `scan`; returns the index of offsets relative to the section.
fn write_keyed(
    sink: &mut Sink,
    slots: u32,
    io_error: &dyn Fn(io::Error) -> StoreError,
    scan: impl FnOnce(&mut dyn FnMut(u32, &[u8]) -> Result<(), StoreError>) -> Result<(), StoreError>,
    mut validate: impl FnMut(u32, &[u8]) -> Result<(), StoreError>,
) -> Result<Vec<u64>, StoreError> {
    let base = sink.position;
    let mut offsets = Offsets::new(slots);
    scan(&mut |key, bytes| {
        validate(key, bytes)?;
        offsets.start(key, sink.position - base, slots)?;
        sink.write_all(bytes).map_err(io_error)
    })?;
    Ok(offsets.finish(sink.position - base, slots))
}

/// Writes one section with `write` and records where it lies.
fn stream_section<T>(
    sink: &mut Sink,
    sections: &mut [Range<u64>; SECTIONS],
    section: Section,
    write: impl FnOnce(&mut Sink) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let start = sink.position;
    let value = write(sink)?;
    sections[section as usize] = start..sink.position;
    Ok(value)
}

/// How each CALLS edge was resolved, gathered from the outgoing lists as they are written,
/// for the incoming entries that follow them (the store's incoming table holds no facts).
#[derive(Default)]
struct CallResolutions {
    /// (target, source, resolution), sorted by target and source once [`Self::seal`]ed.
    calls: Vec<(u32, u32, u8)>,
}

impl CallResolutions {
    fn note(&mut self, source: u32, list: ListView<'_>) {
        let calls = list.iter().filter(|edge| edge.kind() == EdgeKind::Calls);
        self.calls
            .extend(calls.map(|edge| (edge.other().0, source, edge.resolution() as u8)));
    }

    fn seal(&mut self) {
        self.calls.sort_unstable();
    }

    /// The first byte of an incoming entry: the kind, with a call's resolution above it.
    fn entry_byte(&self, target: u32, kind: u8, source: u32) -> u8 {
        if kind != EdgeKind::Calls as u8 {
            return kind;
        }
        let at = self
            .calls
            .partition_point(|&(t, s, _)| (t, s) < (target, source));
        let resolution = match self.calls.get(at) {
            Some(&(t, s, resolution)) if (t, s) == (target, source) => resolution,
            _ => Resolution::Unknown as u8,
        };
        kind | resolution << RESOLUTION_SHIFT
    }
}

/// The incoming entries, target by target (the table's order), each target's sorted by
/// (kind, source) as outgoing lists are, each CALLS entry with its resolution; returns the
/// entry index of each target.
fn write_in_entries(
    snapshot: &Snapshot,
    calls: &CallResolutions,
    sink: &mut Sink,
    slots: u32,
    io_error: &dyn Fn(io::Error) -> StoreError,
) -> Result<Vec<u32>, StoreError> {
    let mut offsets = Offsets::new(slots);
    let mut pending: Vec<(u8, u32)> = Vec::new();
    let mut current: Option<u32> = None;
    let mut written: u64 = 0;
    // `target` is `None` only before the first target, when nothing is pending.
    let mut flush = |sink: &mut Sink, target: Option<u32>, pending: &mut Vec<(u8, u32)>| {
        pending.sort_unstable();
        for &(kind, source) in pending.iter() {
            let mut entry = [0u8; IN_ENTRY];
            entry[0] = calls.entry_byte(target.unwrap_or_default(), kind, source);
            entry[1..].copy_from_slice(&source.to_le_bytes());
            sink.write_all(&entry).map_err(io_error)?;
        }
        written += pending.len() as u64;
        pending.clear();
        Ok::<u64, StoreError>(written)
    };
    snapshot.scan_in_edges(|target, source, kind| {
        if EdgeKind::from_u8(kind).is_none() {
            return Err(StoreError::corrupted(
                "in edges",
                format!("edge kind {kind}"),
            ));
        }
        if current != Some(target) {
            let at = flush(sink, current, &mut pending)?;
            offsets.start(target, at, slots)?;
            current = Some(target);
        }
        pending.push((kind, source));
        Ok(())
    })?;
    let end = flush(sink, current, &mut pending)?;
    offsets
        .finish(end, slots)
        .into_iter()
        .map(|count| {
            u32::try_from(count)
                .map_err(|_| StoreError::TooLarge("incoming edges in one graph file".to_owned()))
        })
        .collect()
}
