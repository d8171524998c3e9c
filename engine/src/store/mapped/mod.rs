//! The read-optimised graph file: everything a query reads — node records, outgoing lists with
//! their edge details, incoming entries and the ID index — laid out by node key and mapped
//! into memory with memmap2, beside the redb file that stays the durable, transactional home of
//! writes.
//!
//! The file is immutable. A writer builds a new one aside for one store state, syncs it, moves
//! it into place and only then names it in the store's metadata (`place.rs`); a reader uses it
//! only while the store is still at that state, so a snapshot never mixes two states, and
//! reads redb's tables otherwise. Every process maps the same file, so the operating system's
//! page cache holds it once, and mapping costs nothing up front.
//!
//! **Trust.** Mapping a file is `unsafe` in Rust because another process could change the
//! bytes under the mapping. tsgraph never rewrites a graph file in place (it writes a new
//! one and renames it), and assumes nothing else does. What is checked: the header (its own
//! checksum, every section inside the file) when the file is mapped; the body against the
//! header's checksum once per file, recorded by a stamp beside it as the store's is; every
//! index entry against its section's bounds when it is read; outgoing lists and incoming
//! entries as they are read. Node records (validated as the file was written) and the ID
//! index are trusted once the checksum matched; the ID index is read inside the panic
//! boundary. Damage the checksum or these checks meet is [`StoreError::Corrupted`], never a
//! panic; damage to a verified file that keeps its size and modification time is outside the
//! model.

mod build;
mod layout;
mod place;
#[cfg(test)]
mod tests;

use std::fs::File;
use std::ops::Range;
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use xxhash_rust::xxh3::xxh3_64;

pub(crate) use build::build;
use layout::{Header, IN_ENTRY, KIND_BITS, RESOLUTION_SHIFT, Section, u32_at, u64_at};

/// For fuzzing: recomputes the checksums of an edited graph file and returns the ranges of its
/// node records, their index and the ID index (which a reader trusts once the checksum
/// matches, so a fuzzer leaves them alone). `None` when the header does not parse.
#[doc(hidden)]
pub fn reseal_graph_file(file: &mut [u8]) -> Option<[std::ops::Range<usize>; 3]> {
    layout::reseal(file)
}
pub(crate) use place::{GraphFileName, Sweep, aside_path, crash_point, sweep_orphans, sync_folder};

use super::verified;
use crate::error::StoreError;
use crate::model::{EdgeKind, Resolution};
use crate::store::Generation;

/// A mapped graph file.
pub(crate) struct MappedGraph {
    map: Mmap,
    header: Header,
    path: PathBuf,
}

impl MappedGraph {
    /// Maps the graph file at `path`, which must hold the store state `generation`. `None`
    /// when there is no such file (a writer may have replaced it since the store named it:
    /// the caller reads redb instead).
    pub(crate) fn open(
        path: &Path,
        generation: Generation,
    ) -> Result<Option<MappedGraph>, StoreError> {
        let file = match File::open(path) {
            Ok(file) => file,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(StoreError::from_io(path, "open the graph file", err)),
        };
        // SAFETY: graph files are written aside and renamed into place, never changed in
        // place (see the module's trust model); every read below is bounds-checked.
        let map = unsafe { Mmap::map(&file) }
            .map_err(|err| StoreError::from_io(path, "map the graph file", err))?;
        let header = Header::decode(&map)?;
        if header.generation != generation {
            return Err(StoreError::corrupted(
                "graph file",
                format!(
                    "{} holds another store state than the store names",
                    path.display()
                ),
            ));
        }
        let graph = MappedGraph {
            map,
            header,
            path: path.to_path_buf(),
        };
        graph.verify_once()?;
        Ok(Some(graph))
    }

    /// Checks the body against the header's checksum, unless a stamp says this file was
    /// checked (or written) as it is now.
    fn verify_once(&self) -> Result<(), StoreError> {
        if verified::is_current(&self.path) {
            return Ok(());
        }
        let body = &self.map[layout::HEADER_LEN..];
        if xxh3_64(body) != self.header.body_checksum {
            return Err(StoreError::corrupted(
                "graph file",
                format!("{}: checksum mismatch", self.path.display()),
            ));
        }
        verified::stamp(&self.path);
        Ok(())
    }

    /// The store state the file holds.
    pub(crate) fn generation(&self) -> Generation {
        self.header.generation
    }

    /// The archived record of node `key`, or `None` for a key with no node.
    pub(crate) fn node(&self, key: u32) -> Result<Option<&[u8]>, StoreError> {
        let bytes = self.ranged(Section::NodeIndex, Section::NodeBytes, key)?;
        Ok((!bytes.is_empty()).then_some(bytes))
    }

    /// The outgoing list of node `key` as the store encodes it, or `None` when it has none.
    pub(crate) fn out_list(&self, key: u32) -> Result<Option<&[u8]>, StoreError> {
        let bytes = self.ranged(Section::OutIndex, Section::OutBytes, key)?;
        Ok((!bytes.is_empty()).then_some(bytes))
    }

    /// The incoming entries of node `key`, sorted by (kind, source).
    pub(crate) fn in_list(&self, key: u32) -> Result<InEntries<'_>, StoreError> {
        if key >= self.header.slots {
            return Ok(InEntries::EMPTY);
        }
        let index = self.section(Section::InIndex);
        let at = key as usize * 4;
        let start = u32_at(index, at) as usize * IN_ENTRY;
        let end = u32_at(index, at + 4) as usize * IN_ENTRY;
        let bytes = self
            .section(Section::InEntries)
            .get(start..end)
            .ok_or_else(|| out_of_bounds("incoming index"))?;
        Ok(InEntries { bytes })
    }

    /// The key of the node with the public `id`.
    pub(crate) fn key_of(&self, id: &str) -> Result<Option<u32>, StoreError> {
        let ids = fst::Map::new(self.section(Section::Ids))
            .map_err(|err| StoreError::corrupted("graph file ids", err))?;
        match ids.get(id) {
            Some(key) => u32::try_from(key)
                .map(Some)
                .map_err(|_| out_of_bounds("id index")),
            None => Ok(None),
        }
    }

    /// Asks the processor to start loading node `key`'s `part`: at [`Stage::Slot`] where its
    /// index says it lies, at [`Stage::Bytes`] (reading that slot) the lines of the part a
    /// reader touches first. A hint: a key past the file, or a slot whose range lies outside
    /// its section, loads nothing; a damaged slot inside it loads lines nobody reads; none
    /// fails or changes what a read returns.
    pub(crate) fn prefetch(&self, key: u32, part: Prefetch, stage: Stage) {
        if key >= self.header.slots {
            return;
        }
        let (index, data) = match part {
            Prefetch::Record => (Section::NodeIndex, Section::NodeBytes),
            Prefetch::OutEdges => (Section::OutIndex, Section::OutBytes),
        };
        match stage {
            Stage::Slot => {
                let at = key as usize * 8;
                prefetch_lines(&self.section(index)[at..at + 8], 1);
            }
            Stage::Bytes => {
                // A slot out of its section's bounds is the read's error to report, not the hint's.
                if let Ok(bytes) = self.ranged(index, data, key) {
                    let (first, last) = part.lines();
                    prefetch_lines(bytes, first);
                    if last && let Some(end) = bytes.last() {
                        prefetch(end);
                    }
                }
            }
        }
    }

    /// One node's slice of a data section, through its index section.
    fn ranged(&self, index: Section, data: Section, key: u32) -> Result<&[u8], StoreError> {
        if key >= self.header.slots {
            return Ok(&[]);
        }
        let index = self.section(index);
        let at = key as usize * 8;
        let range = to_usize(u64_at(index, at))..to_usize(u64_at(index, at + 8));
        self.section(data)
            .get(range)
            .ok_or_else(|| out_of_bounds("index"))
    }

    fn section(&self, section: Section) -> &[u8] {
        let Range { start, end } = self.header.section(section);
        // Inside the file: checked by `Header::decode`.
        &self.map[to_usize(start)..to_usize(end)]
    }
}

/// Which of a node's parts a prefetch loads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prefetch {
    /// Its record (what [`crate::Snapshot::node`] reads).
    Record,
    /// Its outgoing list (what [`crate::Snapshot::out_edges`] reads).
    OutEdges,
}

impl Prefetch {
    /// How many cache lines from the start are worth loading, and whether the last line is:
    /// a record is viewed from its root, which rkyv writes last, after the strings it
    /// points back to; a list is read from its count and first entries.
    fn lines(self) -> (usize, bool) {
        match self {
            Prefetch::Record => (4, true),
            Prefetch::OutEdges => (2, false),
        }
    }
}

/// The two steps of loading a part ahead: the index slot that locates it, then its bytes
/// (which need the slot read, so a caller asks for slots further ahead than for bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stage {
    Slot,
    Bytes,
}

/// A cache line's size on the processors tsgraph is built for.
const LINE: usize = 64;

/// Asks the processor to load up to `lines` cache lines of `bytes` (from its start).
#[inline(always)]
fn prefetch_lines(bytes: &[u8], lines: usize) {
    for offset in (0..bytes.len()).step_by(LINE).take(lines) {
        prefetch(bytes[offset..].as_ptr());
    }
}

/// Asks the processor to load the cache line holding `at`.
#[inline(always)]
fn prefetch(at: *const u8) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch is a hint: it reads nothing the program sees and never faults,
        // whatever the address. SSE is part of every x86-64 processor.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(at.cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// A node's incoming entries in the graph file.
#[derive(Debug, Clone, Copy)]
pub(crate) struct InEntries<'a> {
    bytes: &'a [u8],
}

impl<'a> InEntries<'a> {
    pub(crate) const EMPTY: InEntries<'static> = InEntries { bytes: &[] };

    pub(crate) fn len(&self) -> usize {
        self.bytes.len() / IN_ENTRY
    }

    /// Entry `i`: its kind, source key and, for a call, how it was resolved (as the source's
    /// list said when the file was built); `None` for a
    /// first byte that holds no edge kind, a resolution no resolution has, or one on an edge
    /// that is not a call.
    pub(crate) fn entry(&self, i: usize) -> Option<(EdgeKind, u32, Option<Resolution>)> {
        let entry = &self.bytes[i * IN_ENTRY..(i + 1) * IN_ENTRY];
        let kind = EdgeKind::from_u8(entry[0] & KIND_BITS)?;
        let resolved = entry[0] >> RESOLUTION_SHIFT;
        let resolution = match kind {
            EdgeKind::Calls => Some(Resolution::from_u8(resolved)?),
            _ if resolved == 0 => None,
            _ => return None,
        };
        Some((kind, u32_at(entry, 1), resolution))
    }

    /// Entry `i`: its kind and source key (`None` for a first byte [`InEntries::iter`]
    /// refuses).
    pub(crate) fn get(&self, i: usize) -> Option<(EdgeKind, u32)> {
        self.entry(i).map(|(kind, source, _)| (kind, source))
    }

    /// Every entry, checked: a kind in the kind bits, and a resolution in the others (none
    /// but for CALLS).
    pub(crate) fn iter(
        self,
    ) -> impl ExactSizeIterator<Item = Result<(EdgeKind, u32), StoreError>> + 'a {
        (0..self.len()).map(move |i| self.get(i).ok_or_else(bad_entry))
    }

    /// The entry of `kind` from `source`, if any, as [`InEntries::entry`] reads it (binary
    /// search; the order is trusted, the entry found is checked).
    pub(crate) fn find(
        &self,
        kind: EdgeKind,
        source: u32,
    ) -> Result<Option<(EdgeKind, u32, Option<Resolution>)>, StoreError> {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let middle = (low + high) / 2;
            let entry = &self.bytes[middle * IN_ENTRY..(middle + 1) * IN_ENTRY];
            match (entry[0] & KIND_BITS, u32_at(entry, 1)).cmp(&(kind as u8, source)) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => {
                    return self.entry(middle).map(Some).ok_or_else(bad_entry);
                }
            }
        }
        Ok(None)
    }
}

/// An incoming entry whose first byte holds no edge kind or a resolution it cannot have.
fn bad_entry() -> StoreError {
    StoreError::corrupted("graph file", "incoming edge kind")
}

fn to_usize(offset: u64) -> usize {
    usize::try_from(offset).unwrap_or(usize::MAX)
}

fn out_of_bounds(what: &str) -> StoreError {
    StoreError::corrupted("graph file", format!("{what} entry out of bounds"))
}
