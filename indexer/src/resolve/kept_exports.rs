//! The export tables as the store keeps them: in chunks of [`CHUNK`] files' tables, each
//! chunk LZ4-compressed on its own, and a table decoded only when it is first asked for.
//!
//! On a large project the export tables are most of the kept resolution (`crate::resume`):
//! some four fifths of its bytes on the 1M-line synthetic. Decoding every table was most of
//! resuming an index in a new process, and encoding every table again most of writing a
//! one-file update, although such an update reads a handful of tables and changes fewer. So
//! a resumed state decodes a table when linking first asks for it, and writing the tables
//! back copies every chunk none of whose tables changed as the bytes it was read as.
//!
//! Layout of a section: the number of files (u32 LE), then the chunks' blocks as frames
//! (`crate::frames`: their number, the files divided by [`CHUNK`] rounded up, where each
//! ends, then the blocks). A block is an LZ4 block with its size prepended; decompressed, it
//! holds the chunk's tables as frames, each a postcard encoding of an
//! [`ExportTable`](super::exports::ExportTable).

use std::sync::OnceLock;

use super::exports::ExportTable;
use crate::frames::{FrameWriter, Frames};

/// Files per chunk: few enough that the first table read from a chunk decompresses little,
/// enough that LZ4 finds what neighbouring files' tables repeat (names, file ids).
pub(crate) const CHUNK: usize = 64;

/// A section of kept export tables, as read back.
#[derive(Debug, Default)]
pub(crate) struct KeptExports {
    /// How many files' tables the section holds.
    files: usize,
    /// The compressed blocks, back to back, and where each ends.
    blocks: Vec<u8>,
    frames: Frames,
    /// Each chunk, decompressed on first use (`None`: its block is damaged).
    opened: Vec<OnceLock<Option<Opened>>>,
}

/// A chunk decompressed: its tables' encodings, back to back, and where each ends.
#[derive(Debug)]
struct Opened {
    tables: Vec<u8>,
    frames: Frames,
}

/// The number of chunks `files` files' tables take.
pub(crate) fn chunks_of(files: usize) -> usize {
    files.div_ceil(CHUNK)
}

impl KeptExports {
    /// The section of `bytes`, or `None` when its directory does not hold together (the
    /// blocks themselves are checked when they are opened).
    pub(crate) fn parse(bytes: &[u8]) -> Option<KeptExports> {
        let (files, rest) = bytes.split_first_chunk::<4>()?;
        let files = usize::try_from(u32::from_le_bytes(*files)).ok()?;
        let (frames, blocks) = Frames::parse(rest)?;
        if frames.len() != chunks_of(files) {
            return None;
        }
        Some(KeptExports {
            files,
            blocks: blocks.to_vec(),
            opened: (0..frames.len()).map(|_| OnceLock::new()).collect(),
            frames,
        })
    }

    /// How many files' tables the section holds.
    pub(crate) fn files(&self) -> usize {
        self.files
    }

    /// How many files' tables chunk `chunk` holds.
    fn chunk_files(&self, chunk: usize) -> usize {
        self.files.saturating_sub(chunk * CHUNK).min(CHUNK)
    }

    /// Chunk `chunk`'s compressed block, to be written back unchanged, when it holds
    /// `files` tables.
    pub(crate) fn block(&self, chunk: usize, files: usize) -> Option<&[u8]> {
        if self.chunk_files(chunk) != files {
            return None;
        }
        self.frames.get(&self.blocks, chunk)
    }

    /// The table of file `file` as kept, or `None` when the section holds none for it or
    /// its bytes are damaged.
    pub(crate) fn decode(&self, file: usize) -> Option<ExportTable> {
        postcard::from_bytes(self.encoded(file)?).ok()
    }

    /// The encoding of file `file`'s table as kept (its chunk decompressed on first use), or
    /// `None` when the section holds none for it or its chunk is damaged.
    pub(crate) fn encoded(&self, file: usize) -> Option<&[u8]> {
        let chunk = file / CHUNK;
        let files = self.chunk_files(chunk);
        let block = self.block(chunk, files)?;
        let opened = self.opened[chunk]
            .get_or_init(|| open(block, files))
            .as_ref()?;
        opened.frames.get(&opened.tables, file % CHUNK)
    }
}

/// A table of a chunk being encoded: its encoding as kept (a table nobody asked for since
/// it was read is written back as those bytes, not decoded and encoded again), or the table.
pub(crate) enum TableBytes<'t> {
    Kept(&'t [u8]),
    Table(&'t ExportTable),
}

/// A chunk's block decompressed, when it holds `files` tables and holds together.
fn open(block: &[u8], files: usize) -> Option<Opened> {
    let mut scratch = Vec::new();
    let raw = crate::persist::decompress(block, &mut scratch)?;
    let (frames, tables) = Frames::parse(raw)?;
    (frames.len() == files).then(|| Opened {
        tables: tables.to_vec(),
        frames,
    })
}

/// Encodes `files` files' tables as a section: a chunk that `reuse` gives a block for is
/// written as that block; the others are encoded from `table` (file index → its table or
/// its kept encoding).
pub(crate) fn encode<'t>(
    files: usize,
    reuse: impl Fn(usize) -> Option<&'t [u8]>,
    table: impl Fn(usize) -> TableBytes<'t>,
) -> Vec<u8> {
    let mut blocks = FrameWriter::default();
    let mut raw: Vec<u8> = Vec::new();
    for chunk in 0..chunks_of(files) {
        match reuse(chunk) {
            Some(block) => blocks.push(block),
            None => {
                let range = chunk * CHUNK..files.min((chunk + 1) * CHUNK);
                encode_chunk(range.map(&table), &mut raw);
                blocks.push(&lz4_flex::block::compress_prepend_size(&raw));
            }
        }
    }
    let mut section = u32::try_from(files)
        .unwrap_or(u32::MAX)
        .to_le_bytes()
        .to_vec();
    blocks.write_to(&mut section);
    section
}

/// A chunk's tables as a block's decompressed bytes, in `raw`.
fn encode_chunk<'t>(tables: impl Iterator<Item = TableBytes<'t>>, raw: &mut Vec<u8>) {
    let mut frames = FrameWriter::default();
    for table in tables {
        match table {
            TableBytes::Kept(kept) => frames.push(kept),
            // A map of names and ids always encodes; were it ever not to, the table is kept
            // empty (an empty map is one byte, its length) rather than cut short.
            TableBytes::Table(table) => match postcard::to_stdvec(table) {
                Ok(encoded) => frames.push(&encoded),
                Err(_) => frames.push(&[0]),
            },
        }
    }
    raw.clear();
    frames.write_to(raw);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::exports::ExportEntry;

    fn table(file: u32) -> ExportTable {
        let mut table = ExportTable::default();
        for i in 0..file % 5 {
            table.insert(format!("name{i}").into(), ExportEntry::Namespace(file + i));
        }
        table
    }

    #[test]
    fn every_table_decodes_as_encoded_across_chunk_bounds() {
        let files = 2 * CHUNK + 3;
        let tables: Vec<ExportTable> = (0..files).map(|f| table(f as u32)).collect();
        let section = encode(files, |_| None, |f| TableBytes::Table(&tables[f]));
        let kept = KeptExports::parse(&section).expect("parses");
        assert_eq!(kept.files(), files);
        for (file, expected) in tables.iter().enumerate() {
            assert_eq!(kept.decode(file).as_ref(), Some(expected), "file {file}");
        }
        assert_eq!(kept.decode(files), None);
    }

    #[test]
    fn reused_blocks_are_written_as_read() {
        let files = CHUNK + 1;
        let tables: Vec<ExportTable> = (0..files).map(|f| table(f as u32)).collect();
        let first = encode(files, |_| None, |f| TableBytes::Table(&tables[f]));
        let kept = KeptExports::parse(&first).expect("parses");
        // The first chunk reused, the second encoded from a changed table.
        let mut changed = tables.clone();
        changed[CHUNK] = table(3);
        let second = encode(
            files,
            |c| {
                kept.block(c, CHUNK.min(files - c * CHUNK))
                    .filter(|_| c == 0)
            },
            |f| TableBytes::Table(&changed[f]),
        );
        let again = KeptExports::parse(&second).expect("parses");
        assert_eq!(kept.block(0, CHUNK), again.block(0, CHUNK));
        assert_eq!(again.decode(CHUNK), Some(table(3)));
        // A block is not reused for another number of files.
        assert_eq!(kept.block(1, 2), None);
    }

    #[test]
    fn damaged_sections_are_refused_and_damaged_blocks_decode_nothing() {
        let tables: Vec<ExportTable> = (0..10).map(table).collect();
        let section = encode(10, |_| None, |f| TableBytes::Table(&tables[f]));
        for cut in 0..12 {
            assert!(
                KeptExports::parse(&section[..cut]).is_none(),
                "cut at {cut}"
            );
        }
        let mut forged = section.clone();
        forged[0] = 200; // files no longer match the chunks
        assert!(KeptExports::parse(&forged).is_none());
        let mut damaged = section.clone();
        let last = damaged.len() - 1;
        damaged[14..last].iter_mut().for_each(|b| *b = 0xff);
        let kept = KeptExports::parse(&damaged).expect("the directory holds");
        assert_eq!(kept.decode(3), None);
    }
}
