//! Summaries as bytes: a file's [`FileFacts`] serialised (postcard) and compressed (LZ4), so
//! the store can keep them and a later run can re-link files without parsing them again.

use crate::facts::FileFacts;

/// The format version of persisted summaries; a summary of another version is re-extracted.
pub(crate) const SUMMARY_VERSION: u8 = 16;

/// A summary as stored.
pub(crate) fn encode(facts: &FileFacts) -> Vec<u8> {
    let raw = postcard::to_stdvec(facts).unwrap_or_default();
    let mut out = Vec::with_capacity(raw.len() / 3 + 8);
    out.push(SUMMARY_VERSION);
    out.extend_from_slice(&lz4_flex::block::compress_prepend_size(&raw));
    out
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
    let (version, compressed) = bytes.split_first()?;
    if *version != SUMMARY_VERSION {
        return None;
    }
    let (size, block) = lz4_flex::block::uncompressed_size(compressed).ok()?;
    // LZ4 expands a byte to at most 255: a larger size is damage, not a reason to allocate.
    if size > block.len().saturating_mul(255) {
        return None;
    }
    scratch.clear();
    scratch.resize(size, 0);
    let written = lz4_flex::block::decompress_into(block, scratch).ok()?;
    postcard::from_bytes(scratch.get(..written)?).ok()
}

#[cfg(test)]
mod tests {
    use super::{decode, decode_with, encode};
    use crate::extract::Extractor;

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
        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 0xff;
        damaged.truncate(damaged.len() - 3);
        assert!(decode(&damaged).is_none());
        assert!(decode(&[9, 1, 2]).is_none(), "another version");
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
