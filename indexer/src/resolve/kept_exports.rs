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
//! Layout of a section (integers are little-endian `u32`): the number of files, the number
//! of chunks (the files divided by [`CHUNK`], rounded up), where each chunk's block ends
//! (counted from the first block), then the blocks back to back. A block is an LZ4 block
//! with its size prepended; decompressed, it holds the number of tables in the chunk, where
//! each table's bytes end, then the tables, each a postcard encoding of an
//! [`ExportTable`](super::exports::ExportTable).

use std::sync::OnceLock;

use super::exports::ExportTable;

/// Files per chunk: few enough that the first table read from a chunk decompresses little,
/// enough that LZ4 finds what neighbouring files' tables repeat (names, file ids).
pub(crate) const CHUNK: usize = 64;

/// A section of kept export tables, as read back.
#[derive(Debug, Default)]
pub(crate) struct KeptExports {
    /// How many files' tables the section holds.
    files: usize,
    /// The compressed blocks, back to back.
    blocks: Vec<u8>,
    /// Where each chunk's block ends in `blocks`.
    ends: Vec<usize>,
    /// Each chunk, decompressed on first use (`None`: its block is damaged).
    opened: Vec<OnceLock<Option<Opened>>>,
}

/// A chunk decompressed.
#[derive(Debug)]
struct Opened {
    /// The chunk's tables encoded back to back.
    bytes: Vec<u8>,
    /// Where each table ends in `bytes`.
    ends: Vec<usize>,
}

/// Reads little-endian `u32`s off the front of a byte slice.
struct Cursor<'b>(&'b [u8]);

impl Cursor<'_> {
    fn u32(&mut self) -> Option<usize> {
        let (head, rest) = self.0.split_first_chunk::<4>()?;
        self.0 = rest;
        usize::try_from(u32::from_le_bytes(*head)).ok()
    }

    /// `count` offsets that never go down and end within `limit`.
    fn ends(&mut self, count: usize, limit: usize) -> Option<Vec<usize>> {
        let mut ends = Vec::with_capacity(count.min(self.0.len() / 4));
        let mut last = 0;
        for _ in 0..count {
            let end = self.u32()?;
            if end < last || end > limit {
                return None;
            }
            ends.push(end);
            last = end;
        }
        Some(ends)
    }
}

/// The number of chunks `files` files' tables take.
pub(crate) fn chunks_of(files: usize) -> usize {
    files.div_ceil(CHUNK)
}

impl KeptExports {
    /// The section of `bytes`, or `None` when its directory does not hold together (the
    /// blocks themselves are checked when they are opened).
    pub(crate) fn parse(bytes: &[u8]) -> Option<KeptExports> {
        let mut cursor = Cursor(bytes);
        let files = cursor.u32()?;
        let chunks = cursor.u32()?;
        if chunks != chunks_of(files) {
            return None;
        }
        let blocks_len = cursor.0.len().checked_sub(chunks.checked_mul(4)?)?;
        let ends = cursor.ends(chunks, blocks_len)?;
        if ends.last().copied().unwrap_or(0) != blocks_len {
            return None;
        }
        Some(KeptExports {
            files,
            blocks: cursor.0.to_vec(),
            ends,
            opened: (0..chunks).map(|_| OnceLock::new()).collect(),
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
        if chunk >= self.ends.len() || self.chunk_files(chunk) != files {
            return None;
        }
        let start = chunk.checked_sub(1).map_or(0, |before| self.ends[before]);
        self.blocks.get(start..self.ends[chunk])
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
        let block = self.block(chunk, self.chunk_files(chunk))?;
        let opened = self.opened[chunk]
            .get_or_init(|| open(block, self.chunk_files(chunk)))
            .as_ref()?;
        let index = file % CHUNK;
        let start = index.checked_sub(1).map_or(0, |before| opened.ends[before]);
        opened.bytes.get(start..*opened.ends.get(index)?)
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
    let mut cursor = Cursor(raw);
    if cursor.u32()? != files {
        return None;
    }
    let limit = cursor.0.len().checked_sub(files.checked_mul(4)?)?;
    let ends = cursor.ends(files, limit)?;
    Some(Opened {
        bytes: cursor.0.to_vec(),
        ends,
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
    let chunks = chunks_of(files);
    let mut blocks: Vec<u8> = Vec::new();
    let mut ends: Vec<u32> = Vec::with_capacity(chunks);
    let mut raw: Vec<u8> = Vec::new();
    for chunk in 0..chunks {
        let range = chunk * CHUNK..files.min((chunk + 1) * CHUNK);
        match reuse(chunk) {
            Some(block) => blocks.extend_from_slice(block),
            None => {
                encode_chunk(range.map(&table), &mut raw);
                blocks.extend_from_slice(&lz4_flex::block::compress_prepend_size(&raw));
            }
        }
        ends.push(u32::try_from(blocks.len()).unwrap_or(u32::MAX));
    }
    let mut section = Vec::with_capacity(8 + 4 * chunks + blocks.len());
    section.extend_from_slice(&u32::try_from(files).unwrap_or(u32::MAX).to_le_bytes());
    section.extend_from_slice(&u32::try_from(chunks).unwrap_or(u32::MAX).to_le_bytes());
    for end in ends {
        section.extend_from_slice(&end.to_le_bytes());
    }
    section.extend_from_slice(&blocks);
    section
}

/// A chunk's tables as a block's decompressed bytes, in `raw`.
fn encode_chunk<'t>(tables: impl ExactSizeIterator<Item = TableBytes<'t>>, raw: &mut Vec<u8>) {
    let count = tables.len();
    let mut bytes = Vec::new();
    let mut ends = Vec::with_capacity(count);
    for table in tables {
        match table {
            TableBytes::Kept(kept) => bytes.extend_from_slice(kept),
            // A map of names and ids always encodes; were it ever not to, the table is kept
            // empty (an empty map is one byte, its length) rather than cut short.
            TableBytes::Table(table) => match postcard::to_stdvec(table) {
                Ok(encoded) => bytes.extend_from_slice(&encoded),
                Err(_) => bytes.push(0),
            },
        }
        ends.push(u32::try_from(bytes.len()).unwrap_or(u32::MAX));
    }
    raw.clear();
    raw.extend_from_slice(&u32::try_from(count).unwrap_or(u32::MAX).to_le_bytes());
    for end in ends {
        raw.extend_from_slice(&end.to_le_bytes());
    }
    raw.extend_from_slice(&bytes);
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
