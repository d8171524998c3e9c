//! Summaries as bytes: a file's [`FileFacts`] serialised (postcard) and compressed (LZ4), so
//! the store can keep them and a later run can re-link files without parsing them again.
//! In front of it, compressed apart, what the file does with its imports
//! ([`ImportUses`]): an update that only asks which importers of a changed file are reached
//! decompresses that part alone.
//!
//! Layout: the version byte, the length of the first part (u32 LE), the first part (LZ4,
//! size-prepended block, of the postcard encoding of the `ImportUses`), the summary (the
//! same, of the `FileFacts`).

use crate::facts::FileFacts;
use crate::import_uses::{ImportUses, import_uses_of};

/// The format version of persisted summaries; a summary of another version is re-extracted.
pub(crate) const SUMMARY_VERSION: u8 = 18;

/// A summary as stored.
pub(crate) fn encode(facts: &FileFacts) -> Vec<u8> {
    let uses = postcard::to_stdvec(&import_uses_of(facts)).unwrap_or_default();
    let uses = lz4_flex::block::compress_prepend_size(&uses);
    let raw = postcard::to_stdvec(facts).unwrap_or_default();
    let mut out = Vec::with_capacity(raw.len() / 3 + uses.len() + 8);
    out.push(SUMMARY_VERSION);
    out.extend_from_slice(&u32::try_from(uses.len()).unwrap_or(u32::MAX).to_le_bytes());
    out.extend_from_slice(&uses);
    out.extend_from_slice(&lz4_flex::block::compress_prepend_size(&raw));
    out
}

/// The two parts of a stored summary: what the file does with its imports, and the rest;
/// `None` for another version or damaged bytes.
fn parts(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let (version, rest) = bytes.split_first()?;
    if *version != SUMMARY_VERSION {
        return None;
    }
    let (length, rest) = rest.split_first_chunk::<4>()?;
    let length = usize::try_from(u32::from_le_bytes(*length)).ok()?;
    (rest.len() >= length).then(|| rest.split_at(length))
}

/// What a stored summary says the file does with its imports, decompressing that part alone;
/// `None` for another version or damaged bytes.
#[cfg(test)]
pub(crate) fn decode_uses(bytes: &[u8]) -> Option<ImportUses> {
    decode_uses_part(uses_part(bytes)?)
}

/// The part of a stored summary that says what the file does with its imports, still
/// compressed: a reader that holds a lock while it reads copies this alone.
pub(crate) fn uses_part(bytes: &[u8]) -> Option<&[u8]> {
    Some(parts(bytes)?.0)
}

/// [`decode_uses`] of the part [`uses_part`] gave.
pub(crate) fn decode_uses_part(part: &[u8]) -> Option<ImportUses> {
    postcard::from_bytes(decompress(part, &mut Vec::new())?).ok()
}

/// The bytes of an LZ4 size-prepended block, in `scratch`.
pub(crate) fn decompress<'s>(block: &[u8], scratch: &'s mut Vec<u8>) -> Option<&'s [u8]> {
    let (size, block) = lz4_flex::block::uncompressed_size(block).ok()?;
    // LZ4 expands a byte to at most 255: a larger size is damage, not a reason to allocate.
    if size > block.len().saturating_mul(255) {
        return None;
    }
    scratch.clear();
    scratch.resize(size, 0);
    let written = lz4_flex::block::decompress_into(block, scratch).ok()?;
    scratch.get(..written)
}

/// A stored summary, or `None` when the bytes are of another version or damaged (the file
/// is then extracted again).
#[cfg(test)]
pub(crate) fn decode(bytes: &[u8]) -> Option<FileFacts> {
    decode_with(bytes, &mut Vec::new())
}

/// [`decode`], decompressing into `scratch`: a reader of many summaries reuses one buffer
/// rather than allocating (and touching fresh pages for) every summary's bytes.
pub(crate) fn decode_with(bytes: &[u8], scratch: &mut Vec<u8>) -> Option<FileFacts> {
    let (_, facts) = parts(bytes)?;
    postcard::from_bytes(decompress(facts, scratch)?).ok()
}

#[cfg(test)]
mod tests {
    use super::{decode, decode_uses, decode_with, encode};
    use crate::extract::Extractor;
    use crate::import_uses::import_uses_of;

    #[test]
    fn summaries_round_trip_and_damaged_bytes_are_refused() {
        let facts = Extractor::new().expect("grammar").extract(
            "a.ts",
            b"export class A<T> { run(x: T): number { return helper(x); } }\nfunction helper(x: unknown) { return 1; }\n",
            7,
        );
        let bytes = encode(&facts);
        let back = decode(&bytes).expect("decodes");
        assert_eq!(back.path, "a.ts");
        assert_eq!(back.hash, 7);
        assert_eq!(back.decls.len(), facts.decls.len());
        assert_eq!(back.calls.len(), facts.calls.len());
        assert_eq!(encode(&back), bytes, "stable bytes");
        assert_eq!(decode_uses(&bytes), Some(import_uses_of(&facts)));
        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 0xff;
        damaged.truncate(damaged.len() - 3);
        assert!(decode(&damaged).is_none());
        assert!(decode(&[9, 1, 2]).is_none(), "another version");
        assert!(
            decode(&[super::SUMMARY_VERSION, 200, 0, 0, 0, 1]).is_none(),
            "a part past the end"
        );
        assert!(decode_uses(&[super::SUMMARY_VERSION, 1, 0]).is_none());
        // A reused buffer, larger than the summary or smaller, decodes the same.
        let mut scratch = vec![7u8; 1 << 16];
        assert_eq!(
            encode(&decode_with(&bytes, &mut scratch).expect("decodes")),
            bytes
        );
        scratch.truncate(3);
        assert_eq!(
            encode(&decode_with(&bytes, &mut scratch).expect("decodes")),
            bytes
        );
        assert!(decode_with(&damaged, &mut scratch).is_none());
    }
}
