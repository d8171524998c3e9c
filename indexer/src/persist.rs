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
pub(crate) fn decode(bytes: &[u8]) -> Option<FileFacts> {
    let (version, compressed) = bytes.split_first()?;
    if *version != SUMMARY_VERSION {
        return None;
    }
    let raw = lz4_flex::block::decompress_size_prepended(compressed).ok()?;
    postcard::from_bytes(&raw).ok()
}

#[cfg(test)]
mod tests {
    use super::{decode, encode};
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
    }
}
