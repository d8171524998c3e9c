//! The graph file's byte layout: a fixed header, then sections addressed by node key.
//!
//! ```text
//! header (HEADER_LEN bytes, little-endian)
//!   magic "TSGGRAPH" | version u32 | slots u32 | generation: store u64, commits u64
//!   | 7 sections × (offset u64, length u64) | body checksum u64 | header checksum u64
//! sections, in file order (each where its (offset, length) says):
//!   NodeBytes  node records as the store archives them, by key, back to back
//!   OutBytes   outgoing lists in the store's list format (engine/src/store/adjacency.rs)
//!   InEntries  incoming entries, IN_ENTRY bytes each: kind and resolution u8 (the edge kind
//!              in the low four bits; for CALLS, how the call was resolved in the high four,
//!              as the source's list says), source u32; per target sorted by (kind, source),
//!              targets by key
//!   Ids        an FST map from each node ID to its key
//!   NodeIndex  (slots + 1) × u64: node k's record is NodeBytes[index[k]..index[k + 1]]
//!   OutIndex   (slots + 1) × u64: node k's list is OutBytes[index[k]..index[k + 1]]
//!   InIndex    (slots + 1) × u32: node k's entries are InEntries[index[k]..index[k + 1]]
//! ```
//!
//! `slots` is one more than the largest key (keys are dense after a full index and gain holes
//! as updates delete nodes: a hole has an empty range). The data sections come first so the
//! writer streams them while it gathers the indexes, which it writes last.

use std::ops::Range;

use xxhash_rust::xxh3::xxh3_64;

use crate::error::StoreError;
use crate::model::{EdgeKind, Resolution};
use crate::store::Generation;

pub(super) const MAGIC: &[u8; 8] = b"TSGGRAPH";
/// 2: incoming CALLS entries carry their resolution (a walk marks may-calls without reading
/// each source's list).
pub(super) const VERSION: u32 = 2;
/// One incoming entry: the edge kind with the call's resolution, and the source key.
pub(super) const IN_ENTRY: usize = 5;
/// The bits of an incoming entry's first byte that hold the edge kind; the resolution is
/// the byte shifted right by [`RESOLUTION_SHIFT`].
pub(super) const KIND_BITS: u8 = 0x0F;
pub(super) const RESOLUTION_SHIFT: u8 = 4;

// Both must fit their four bits: a kind above would spill into the resolution, a resolution
// above would lose its high bits.
const _: () = {
    let mut i = 0;
    while i < EdgeKind::ALL.len() {
        assert!(EdgeKind::ALL[i] as u8 <= KIND_BITS);
        i += 1;
    }
    let mut i = 0;
    while i < Resolution::ALL.len() {
        assert!((Resolution::ALL[i] as u8) >> (8 - RESOLUTION_SHIFT) == 0);
        i += 1;
    }
};
pub(super) const SECTIONS: usize = 7;
const SECTION_TABLE: usize = 32;
const BODY_CHECKSUM: usize = SECTION_TABLE + SECTIONS * 16;
const HEADER_CHECKSUM: usize = BODY_CHECKSUM + 8;
pub(super) const HEADER_LEN: usize = HEADER_CHECKSUM + 8;

/// The sections, in the order the writer emits them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Section {
    NodeBytes = 0,
    OutBytes = 1,
    InEntries = 2,
    Ids = 3,
    NodeIndex = 4,
    OutIndex = 5,
    InIndex = 6,
}

/// What the header says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Header {
    /// One more than the largest node key.
    pub(super) slots: u32,
    /// The store state the file was built from.
    pub(super) generation: Generation,
    /// Each section's byte range in the file, by [`Section`].
    pub(super) sections: [Range<u64>; SECTIONS],
    /// xxh3 of every byte after the header.
    pub(super) body_checksum: u64,
}

impl Header {
    pub(super) fn section(&self, section: Section) -> Range<u64> {
        self.sections[section as usize].clone()
    }

    pub(super) fn encode(&self) -> [u8; HEADER_LEN] {
        let mut bytes = [0u8; HEADER_LEN];
        bytes[..8].copy_from_slice(MAGIC);
        bytes[8..12].copy_from_slice(&VERSION.to_le_bytes());
        bytes[12..16].copy_from_slice(&self.slots.to_le_bytes());
        bytes[16..24].copy_from_slice(&self.generation.store.to_le_bytes());
        bytes[24..32].copy_from_slice(&self.generation.commits.to_le_bytes());
        for (i, range) in self.sections.iter().enumerate() {
            let at = SECTION_TABLE + i * 16;
            bytes[at..at + 8].copy_from_slice(&range.start.to_le_bytes());
            bytes[at + 8..at + 16].copy_from_slice(&(range.end - range.start).to_le_bytes());
        }
        bytes[BODY_CHECKSUM..HEADER_CHECKSUM].copy_from_slice(&self.body_checksum.to_le_bytes());
        let checksum = xxh3_64(&bytes[..HEADER_CHECKSUM]);
        bytes[HEADER_CHECKSUM..].copy_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// The header as written, with no check but its length and that its sections lie in the
    /// file (for [`reseal`]).
    fn decode_unchecked(file: &[u8]) -> Option<Header> {
        let bytes = file.get(..HEADER_LEN)?;
        let mut sections: [Range<u64>; SECTIONS] = Default::default();
        for (i, range) in sections.iter_mut().enumerate() {
            let at = SECTION_TABLE + i * 16;
            let start = u64_at(bytes, at);
            let end = start.checked_add(u64_at(bytes, at + 8))?;
            if end > file.len() as u64 {
                return None;
            }
            *range = start..end;
        }
        Some(Header {
            slots: u32_at(bytes, 12),
            generation: Generation {
                store: u64_at(bytes, 16),
                commits: u64_at(bytes, 24),
            },
            sections,
            body_checksum: 0,
        })
    }

    /// Parses and checks a header against the file's length: its checksum, magic and
    /// version, every section inside the file and after the header, and the index sections
    /// sized for `slots`. The sections' contents are checked where they are read.
    pub(super) fn decode(file: &[u8]) -> Result<Header, StoreError> {
        let bad = |detail: &str| StoreError::corrupted("graph file", detail);
        let bytes = file
            .get(..HEADER_LEN)
            .ok_or_else(|| bad("shorter than its header"))?;
        if &bytes[..8] != MAGIC {
            return Err(bad("not a tsgraph graph file"));
        }
        if xxh3_64(&bytes[..HEADER_CHECKSUM]) != u64_at(bytes, HEADER_CHECKSUM) {
            return Err(bad("header checksum mismatch"));
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(bad(&format!("version {version}, expected {VERSION}")));
        }
        let slots = u32_at(bytes, 12);
        let generation = Generation {
            store: u64_at(bytes, 16),
            commits: u64_at(bytes, 24),
        };
        let mut sections: [Range<u64>; SECTIONS] = Default::default();
        for (i, range) in sections.iter_mut().enumerate() {
            let at = SECTION_TABLE + i * 16;
            let start = u64_at(bytes, at);
            let end = start
                .checked_add(u64_at(bytes, at + 8))
                .ok_or_else(|| bad("section past the end"))?;
            if start < HEADER_LEN as u64 || end > file.len() as u64 {
                return Err(bad("section outside the file"));
            }
            *range = start..end;
        }
        let header = Header {
            slots,
            generation,
            sections,
            body_checksum: u64_at(bytes, BODY_CHECKSUM),
        };
        let entries = u64::from(slots) + 1;
        for (section, width) in [
            (Section::NodeIndex, 8),
            (Section::OutIndex, 8),
            (Section::InIndex, 4),
        ] {
            let range = header.section(section);
            if range.end - range.start != entries * width {
                return Err(bad("index section not sized for its nodes"));
            }
        }
        let entries = header.section(Section::InEntries);
        if !(entries.end - entries.start).is_multiple_of(IN_ENTRY as u64) {
            return Err(bad("incoming entries not whole"));
        }
        Ok(header)
    }
}

/// Recomputes both checksums of a graph file whose bytes were edited (fuzzing: so that the
/// checks after the checksums are reached) and returns the sections a reader trusts once the
/// checksum matches: the node records (viewed unvalidated), their index (which says where a
/// record starts) and the ID index (an FST). `None` when the header does not parse.
pub(crate) fn reseal(file: &mut [u8]) -> Option<[Range<usize>; 3]> {
    let mut header = Header::decode_unchecked(file)?;
    header.body_checksum = xxh3_64(&file[HEADER_LEN..]);
    file[..HEADER_LEN].copy_from_slice(&header.encode());
    let range = |section| {
        let Range { start, end } = header.section(section);
        Some(usize::try_from(start).ok()?..usize::try_from(end).ok()?)
    };
    Some([
        range(Section::NodeBytes)?,
        range(Section::NodeIndex)?,
        range(Section::Ids)?,
    ])
}

pub(super) fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

pub(super) fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        let at = HEADER_LEN as u64;
        Header {
            slots: 2,
            generation: Generation {
                store: 7,
                commits: 9,
            },
            sections: [
                at..at + 10,
                at + 10..at + 10,
                at + 10..at + 15,
                at + 15..at + 15,
                at + 15..at + 39,
                at + 39..at + 63,
                at + 63..at + 75,
            ],
            body_checksum: 42,
        }
    }

    #[test]
    fn a_header_reads_back_as_written() {
        let mut file = header().encode().to_vec();
        file.resize(HEADER_LEN + 75, 0);
        assert_eq!(Header::decode(&file).expect("valid"), header());
    }

    #[test]
    fn a_damaged_or_short_header_is_corrupted_not_a_panic() {
        let mut file = header().encode().to_vec();
        file.resize(HEADER_LEN + 75, 0);
        for cut in [0, 7, HEADER_LEN - 1, HEADER_LEN + 74] {
            assert!(matches!(
                Header::decode(&file[..cut]),
                Err(StoreError::Corrupted { .. })
            ));
        }
        for flip in [
            0,
            9,
            13,
            20,
            SECTION_TABLE + 3,
            BODY_CHECKSUM,
            HEADER_LEN - 1,
        ] {
            let mut damaged = file.clone();
            damaged[flip] ^= 0x40;
            assert!(
                matches!(Header::decode(&damaged), Err(StoreError::Corrupted { .. })),
                "byte {flip}"
            );
        }
    }

    #[test]
    fn index_sections_must_fit_the_slots() {
        let mut wrong = header();
        wrong.slots = 3;
        let mut file = wrong.encode().to_vec();
        file.resize(HEADER_LEN + 75, 0);
        assert!(Header::decode(&file).is_err());
    }
}
