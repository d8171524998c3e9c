//! The search index: every node's lowercased simple name and dotted symbol path as a term
//! (and, for topic search, each word of its name as a marked term, looked up whole and kept
//! out of the FST: `words.rs`),
//! in a table (term → its nodes' keys) kept up to date with each write, and an FST set of the
//! terms so that prefix, glob and fuzzy matching visit only the terms an automaton accepts
//! instead of scanning every name.
//!
//! Rebuilding the FST costs in proportion to every term in the store (about 100 ms at a
//! million lines), too much for an edit. So a write that changes few terms records them
//! beside the FST instead — terms added since it was built, terms it holds that are gone —
//! and readers merge the two; the FST is rebuilt when that overlay grows past
//! [`OVERLAY_LIMIT`] terms.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use redb::{ReadableTable, Table};

use super::interner::Interner;
use super::words::is_word_term;
use crate::error::{DbResultExt, StoreError};
use crate::model::NodeKey;
use crate::record::NodeRecord;

/// Key of the FST blob in the search table.
pub(crate) const FST_KEY: &str = "terms.fst";
/// Key of the terms added since the FST was built (length-prefixed UTF-8, ascending).
pub(crate) const ADDED_KEY: &str = "terms.added";
/// Key of the FST's terms that are gone (same encoding).
pub(crate) const REMOVED_KEY: &str = "terms.removed";
/// Overlay terms past which the next write rebuilds the FST.
const OVERLAY_LIMIT: usize = 4096;

/// The terms a node is found by: its lowercased simple name and, when it differs, its
/// lowercased symbol path without the `~Kind` disambiguators (`userservice.save`).
///
/// The name term is also how [`crate::Snapshot::keys_named`] finds nodes by exact name: it
/// must stay, lowercased the same way on every write and lookup.
pub(crate) fn terms_of(id: &str, file: &str, name: &str) -> (String, Option<String>) {
    let name_term = name.to_lowercase();
    let symbol = id.get(file.len() + 1..).unwrap_or("");
    let path: String = symbol
        .split('.')
        .map(|segment| segment.split('~').next().unwrap_or(segment))
        .collect::<Vec<_>>()
        .join(".")
        .to_lowercase();
    let path_term = (!path.is_empty() && path != name_term).then_some(path);
    (name_term, path_term)
}

/// Every term a node is found by: [`terms_of`], then [`word_terms_of`].
fn node_terms(id: &str, file: &str, name: &str, doc: &str) -> impl Iterator<Item = String> {
    let (name_term, path_term) = terms_of(id, file, name);
    let words = word_terms_of(id, file, name, doc);
    std::iter::once(name_term).chain(path_term).chain(words)
}

/// Words of a doc comment too common to find anything by (a posting each would cost index
/// space for nothing).
const DOC_STOP_WORDS: [&str; 32] = [
    "a", "an", "and", "any", "are", "as", "at", "be", "by", "each", "every", "for", "from", "how",
    "if", "in", "is", "it", "its", "not", "of", "on", "or", "that", "the", "this", "to", "unless",
    "what", "when", "which", "with",
];

/// The word terms a node is found by in topic search: the words of its name, or for a file
/// node (whose ID is its path), of its path; then the words of its leading doc comment but
/// the most common ones. Each term once.
///
/// Part of the store format: the terms a write adds are removed by recomputing them from the
/// stored record, so a change to this function, [`DOC_STOP_WORDS`] or `words` needs a
/// schema bump.
pub(crate) fn word_terms_of(id: &str, file: &str, name: &str, doc: &str) -> Vec<String> {
    let text = if id == file { file } else { name };
    // `words` lists each word once; a doc word the name already has is skipped. A handful
    // of words: a scan beats a set.
    let mut words = super::words::words(text);
    for word in super::words::words(doc) {
        if !DOC_STOP_WORDS.contains(&word.as_str()) && !words.contains(&word) {
            words.push(word);
        }
    }
    // A term is its word behind a mark: distinct words, distinct terms.
    words
        .iter()
        .map(|word| super::words::word_term(word))
        .collect()
}

/// The keys of the nodes of several terms, read together ([`crate::Snapshot::terms_keys`]): one
/// list per term, in the order the terms were given.
#[derive(Debug, Default)]
pub struct TermsKeys {
    keys: Vec<NodeKey>,
    /// Where each term's keys end in `keys`.
    ends: Vec<usize>,
}

impl TermsKeys {
    /// The keys of the `i`-th term, ascending (none for a term that finds no node).
    pub fn of(&self, i: usize) -> &[NodeKey] {
        let start = i.checked_sub(1).map_or(0, |before| self.ends[before]);
        &self.keys[start..self.ends[i]]
    }

    /// How many terms it holds.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether it holds no term.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Ends the list of the next term, after its keys were pushed.
    pub(crate) fn end_term(&mut self) {
        self.ends.push(self.keys.len());
    }

    /// Adds keys to the list of the term being read.
    pub(crate) fn extend(&mut self, keys: impl IntoIterator<Item = NodeKey>) {
        self.keys.extend(keys);
    }
}

/// The stored keys of one term: ascending u32 little endian, none twice, never empty (a term
/// without nodes is removed).
pub(crate) struct Postings<'a>(&'a [u8]);

impl<'a> Postings<'a> {
    /// Checks `bytes` as a stored posting list.
    pub(crate) fn parse(bytes: &'a [u8]) -> Result<Postings<'a>, StoreError> {
        let postings = Postings(bytes);
        let ascending = !bytes.is_empty()
            && bytes.len().is_multiple_of(4)
            && postings
                .keys()
                .zip(postings.keys().skip(1))
                .all(|(a, b)| a < b);
        if !ascending {
            return Err(StoreError::corrupted(
                "search terms",
                "a posting list that is not a non-empty run of ascending u32 keys",
            ));
        }
        Ok(postings)
    }

    /// The stored form of `keys` (ascending, distinct), written into `out` (emptied first).
    pub(crate) fn encode_into(keys: impl IntoIterator<Item = u32>, out: &mut Vec<u8>) {
        out.clear();
        out.extend(keys.into_iter().flat_map(u32::to_le_bytes));
    }

    pub(crate) fn keys(&self) -> impl Iterator<Item = u32> + 'a {
        self.0
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// The term changes of one write: per term, the keys that leave its list and those that join
/// it. Gathered over the whole write and applied once per term, so a term shared by many of
/// the nodes a write replaces (`constructor`, `get`) has its list rewritten once, not once per
/// node.
#[derive(Default)]
pub(crate) struct TermChanges(BTreeMap<String, (Vec<u32>, Vec<u32>)>);

impl TermChanges {
    /// Notes that the node `key` joins (`add`) or leaves the lists of its terms.
    pub(crate) fn node(
        &mut self,
        key: u32,
        (id, file, name, doc): (&str, &str, &str, &str),
        add: bool,
    ) {
        for term in node_terms(id, file, name, doc) {
            let (removed, added) = self.0.entry(term).or_default();
            if add {
                added.push(key);
            } else {
                removed.push(key);
            }
        }
    }

    /// Rewrites the list of every term changed (removals first, so a node that leaves and
    /// joins again stays), dropping a term whose list empties, and returns the terms touched
    /// with whether each still finds a node.
    pub(crate) fn apply(
        self,
        terms: &mut Table<'_, &'static str, &'static [u8]>,
    ) -> Result<BTreeMap<String, bool>, StoreError> {
        let mut touched = BTreeMap::new();
        let mut bytes = Vec::new();
        for (term, (mut removed, mut added)) in self.0 {
            removed.sort_unstable();
            added.sort_unstable();
            if removed == added {
                // Every node that left the term joined it again (a file re-extracted with its
                // IDs unchanged): the list, and whether the term finds a node, stay as they are.
                continue;
            }
            let old: Vec<u32> = match terms.get(term.as_str()).ctx("read search terms")? {
                Some(postings) => Postings::parse(postings.value())?.keys().collect(),
                None => Vec::new(),
            };
            let mut keys: Vec<u32> = old
                .iter()
                .copied()
                .filter(|k| removed.binary_search(k).is_err())
                .collect();
            keys.extend(added);
            keys.sort_unstable();
            keys.dedup();
            if keys.is_empty() {
                terms.remove(term.as_str()).ctx("remove search term")?;
            } else if keys != old {
                Postings::encode_into(keys.iter().copied(), &mut bytes);
                terms
                    .insert(term.as_str(), bytes.as_slice())
                    .ctx("write search term")?;
            }
            touched.insert(term, !keys.is_empty());
        }
        Ok(touched)
    }
}

/// Brings the FST and its overlay level with the terms after a write that touched
/// `touched`: the overlay takes the difference, or the FST is rebuilt when there is none yet
/// or the overlay would grow past its limit.
pub(crate) fn refresh_index(
    terms: &Table<'_, &'static str, &'static [u8]>,
    search: &mut Table<'_, &'static str, &'static [u8]>,
    touched: &BTreeMap<String, bool>,
) -> Result<(), StoreError> {
    let mut added = read_terms(search, ADDED_KEY)?;
    let mut removed = read_terms(search, REMOVED_KEY)?;
    let has_fst = {
        // The FST is read in place: copying it would cost as much as the edit it serves.
        match search.get(FST_KEY).ctx("read search index")? {
            None => false,
            Some(bytes) => {
                let set = fst::Set::new(bytes.value())
                    .map_err(|err| StoreError::corrupted("search index", err))?;
                for (term, &live) in touched.iter().filter(|(term, _)| !is_word_term(term)) {
                    added.remove(term);
                    removed.remove(term);
                    match (live, set.contains(term)) {
                        (true, false) => {
                            added.insert(term.clone());
                        }
                        (false, true) => {
                            removed.insert(term.clone());
                        }
                        _ => {}
                    }
                }
                true
            }
        }
    };
    if !has_fst || added.len() + removed.len() > OVERLAY_LIMIT {
        return rebuild_fst(terms, search);
    }
    write_terms(search, ADDED_KEY, &added)?;
    write_terms(search, REMOVED_KEY, &removed)
}

fn read_terms(
    search: &Table<'_, &'static str, &'static [u8]>,
    key: &str,
) -> Result<BTreeSet<String>, StoreError> {
    match search.get(key).ctx("read search index")? {
        Some(bytes) => decode_terms(bytes.value()),
        None => Ok(BTreeSet::new()),
    }
}

fn write_terms(
    search: &mut Table<'_, &'static str, &'static [u8]>,
    key: &str,
    terms: &BTreeSet<String>,
) -> Result<(), StoreError> {
    let mut bytes = Vec::new();
    for term in terms {
        let length = u32::try_from(term.len()).unwrap_or(u32::MAX);
        bytes.extend_from_slice(&length.to_le_bytes());
        bytes.extend_from_slice(term.as_bytes());
    }
    search
        .insert(key, bytes.as_slice())
        .ctx("write search index")?;
    Ok(())
}

/// The terms of an overlay list; anything malformed is corruption.
fn decode_terms(mut bytes: &[u8]) -> Result<BTreeSet<String>, StoreError> {
    let mut terms = BTreeSet::new();
    while !bytes.is_empty() {
        let bad = || StoreError::corrupted("search index", "a malformed overlay term list");
        let (length, rest) = bytes.split_first_chunk::<4>().ok_or_else(bad)?;
        let length = u32::from_le_bytes(*length) as usize;
        let term = rest.get(..length).ok_or_else(bad)?;
        let term = std::str::from_utf8(term).map_err(|_| bad())?;
        terms.insert(term.to_owned());
        bytes = &rest[length..];
    }
    Ok(terms)
}

/// Rebuilds the FST of every term (the table iterates them in byte order, which is the
/// order the FST builder needs).
pub(crate) fn rebuild_fst(
    terms: &Table<'_, &'static str, &'static [u8]>,
    search: &mut Table<'_, &'static str, &'static [u8]>,
) -> Result<(), StoreError> {
    let mut builder = fst::SetBuilder::memory();
    for entry in terms.iter().ctx("read search terms")? {
        let (term, _) = entry.ctx("read search terms")?;
        if is_word_term(term.value()) {
            continue;
        }
        builder
            .insert(term.value())
            .map_err(|err| StoreError::corrupted("search terms", err))?;
    }
    let bytes = builder
        .into_inner()
        .map_err(|err| StoreError::corrupted("search terms", err))?;
    store_fst(search, &bytes)
}

/// The FST of the sorted `pairs`' terms (word terms are looked up whole, never matched by a
/// pattern: they stay out of it), as bytes.
pub(super) fn fst_of(pairs: &TermPairs) -> Result<Vec<u8>, StoreError> {
    let mut builder = fst::SetBuilder::memory();
    let mut previous: Option<&str> = None;
    for (term, _) in pairs.iter().filter(|(term, _)| !is_word_term(term)) {
        if previous != Some(term) {
            builder
                .insert(term)
                .map_err(|err| StoreError::corrupted("search terms", err))?;
            previous = Some(term);
        }
    }
    builder
        .into_inner()
        .map_err(|err| StoreError::corrupted("search terms", err))
}

/// Indexes a whole load's search terms into empty tables: the postings of the sorted
/// `pairs`, and `fst` ([`fst_of`] the same pairs) as the search index.
pub(super) fn index_all_terms(
    pairs: &TermPairs,
    fst: &[u8],
    terms: &mut Table<'_, &'static str, &'static [u8]>,
    search: &mut Table<'_, &'static str, &'static [u8]>,
) -> Result<(), StoreError> {
    if terms.first().ctx("read search terms")?.is_some() {
        return Err(StoreError::InvalidLoad(
            "search terms indexed whole into a table that has some".to_owned(),
        ));
    }
    write_postings(pairs, terms)?;
    store_fst(search, fst)
}

/// Writes each term of the sorted `pairs` once, with all its keys.
fn write_postings(
    pairs: &TermPairs,
    terms: &mut Table<'_, &'static str, &'static [u8]>,
) -> Result<(), StoreError> {
    let mut postings: Vec<u8> = Vec::new();
    let mut sorted = pairs.iter().peekable();
    while let Some((term, first)) = sorted.next() {
        // A node's terms differ (`terms_of`; its words are distinct and marked), so a term
        // never has the same key twice.
        let rest = std::iter::from_fn(|| sorted.next_if(|(next, _)| *next == term));
        Postings::encode_into(
            std::iter::once(first).chain(rest.map(|(_, key)| key)),
            &mut postings,
        );
        terms
            .insert(term, postings.as_slice())
            .ctx("write search term")?;
    }
    Ok(())
}

/// Stores `fst` (an FST's bytes) as the search index, with an empty overlay.
fn store_fst(
    search: &mut Table<'_, &'static str, &'static [u8]>,
    fst: &[u8],
) -> Result<(), StoreError> {
    search.insert(FST_KEY, fst).ctx("write search index")?;
    search.remove(ADDED_KEY).ctx("write search index")?;
    search.remove(REMOVED_KEY).ctx("write search index")?;
    Ok(())
}

/// `(term, key)` pairs, each distinct term held once ([`Interner`]): a million term
/// occurrences cost eight bytes each, and the text of the far fewer distinct terms.
#[derive(Default)]
pub(super) struct TermPairs {
    terms: Interner,
    /// Term number and key.
    pairs: Vec<(u32, u32)>,
}

impl TermPairs {
    /// Adds every term of the node `key` is (`terms_of`, `word_terms_of`).
    pub(super) fn add_node(&mut self, key: u32, node: &NodeRecord) -> Result<(), StoreError> {
        node_terms(&node.id, &node.file, &node.name, &node.doc)
            .try_for_each(|term| self.push(&term, key))
    }

    fn push(&mut self, term: &str, key: u32) -> Result<(), StoreError> {
        let term = self.terms.intern(&[term]).ok_or_else(|| {
            StoreError::TooLarge("the search terms of one load exceed 4 GiB".to_owned())
        })?;
        self.pairs.push((term, key));
        Ok(())
    }

    /// Sorts the pairs by term (bytes), then key.
    pub(super) fn sort(&mut self) {
        let ranks = self.terms.ranks();
        self.pairs
            .sort_unstable_by_key(|&(term, key)| (ranks[term as usize], key));
    }

    /// The pairs in their order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&str, u32)> + '_ {
        self.pairs
            .iter()
            .map(|&(term, key)| (self.terms.get(term), key))
    }
}

/// The set of search terms of a snapshot (the FST with its overlay), validated when it was
/// read.
pub struct TermSet {
    set: fst::Set<Vec<u8>>,
    /// Terms not in the FST, ascending.
    added: Vec<String>,
    /// Terms of the FST that are gone.
    removed: HashSet<String>,
}

impl TermSet {
    pub(crate) fn read(
        fst_bytes: Option<Vec<u8>>,
        added: Option<&[u8]>,
        removed: Option<&[u8]>,
    ) -> Result<TermSet, StoreError> {
        let set = match fst_bytes {
            Some(bytes) => {
                fst::Set::new(bytes).map_err(|err| StoreError::corrupted("search index", err))?
            }
            None => fst::Set::default(),
        };
        let added = match added {
            Some(bytes) => decode_terms(bytes)?.into_iter().collect(),
            None => Vec::new(),
        };
        let removed = match removed {
            Some(bytes) => decode_terms(bytes)?.into_iter().collect(),
            None => HashSet::new(),
        };
        Ok(TermSet {
            set,
            added,
            removed,
        })
    }

    /// The number of distinct terms.
    pub fn len(&self) -> usize {
        self.set.len() + self.added.len() - self.removed.len().min(self.set.len())
    }

    /// Whether there are no terms.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every term `automaton` accepts, in byte order, at most `max` of them; the flag says
    /// whether more were accepted.
    pub fn matching<A: fst::Automaton>(&self, automaton: A, max: usize) -> (Vec<String>, bool) {
        use fst::{IntoStreamer, Streamer};
        let mut extra = self
            .added
            .iter()
            .filter(|term| accepts(&automaton, term.as_bytes()))
            .peekable();
        let mut stream = self.set.search(&automaton).into_stream();
        let mut out = Vec::new();
        let push = |term: String, out: &mut Vec<String>| {
            if out.len() == max {
                return false;
            }
            out.push(term);
            true
        };
        while let Some(term) = stream.next() {
            let term = String::from_utf8_lossy(term).into_owned();
            while let Some(first) = extra.next_if(|added| added.as_str() < term.as_str()) {
                if !push(first.clone(), &mut out) {
                    return (out, true);
                }
            }
            if self.removed.contains(&term) {
                continue;
            }
            if !push(term, &mut out) {
                return (out, true);
            }
        }
        for term in extra {
            if !push(term.clone(), &mut out) {
                return (out, true);
            }
        }
        (out, false)
    }
}

/// Whether `automaton` accepts `term`, run over its bytes as the FST search would.
fn accepts<A: fst::Automaton>(automaton: &A, term: &[u8]) -> bool {
    let mut state = automaton.start();
    for &byte in term {
        if !automaton.can_match(&state) {
            return false;
        }
        state = automaton.accept(&state, byte);
    }
    automaton.is_match(&state)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(terms: &[&str]) -> Vec<u8> {
        let mut bytes = Vec::new();
        for term in terms {
            bytes.extend_from_slice(&(term.len() as u32).to_le_bytes());
            bytes.extend_from_slice(term.as_bytes());
        }
        bytes
    }

    #[test]
    fn posting_lists_are_ascending_keys_and_anything_else_is_corruption() {
        let encoded = |keys: &[u32]| {
            let mut bytes = Vec::new();
            Postings::encode_into(keys.iter().copied(), &mut bytes);
            bytes
        };
        let bytes = encoded(&[3, 7, 900]);
        let keys: Vec<u32> = Postings::parse(&bytes).unwrap().keys().collect();
        assert_eq!(keys, vec![3, 7, 900]);
        assert!(Postings::parse(&bytes[..5]).is_err(), "a torn key");
        let repeated = encoded(&[3, 3]);
        assert!(Postings::parse(&repeated).is_err());
        let descending = encoded(&[7, 3]);
        assert!(Postings::parse(&descending).is_err());
    }

    #[test]
    fn term_pairs_come_out_by_term_bytes_then_key() {
        let mut pairs = TermPairs::default();
        for (term, key) in [("b", 2), ("a", 9), ("B", 1), ("b", 1), ("ab", 0), ("a", 4)] {
            pairs.push(term, key).unwrap();
        }
        pairs.sort();
        let sorted: Vec<(&str, u32)> = pairs.iter().collect();
        assert_eq!(
            sorted,
            vec![("B", 1), ("a", 4), ("a", 9), ("ab", 0), ("b", 1), ("b", 2)]
        );
    }

    #[test]
    fn the_overlay_merges_into_the_fst_in_byte_order_and_hides_removed_terms() {
        let set = fst::Set::from_iter(["alpha", "delta", "omega"]).unwrap();
        let terms = TermSet::read(
            Some(set.as_fst().as_bytes().to_vec()),
            Some(&encoded(&["beta", "zulu"])),
            Some(&encoded(&["delta"])),
        )
        .unwrap();
        assert_eq!(terms.len(), 4);
        let all = |max| terms.matching(fst::automaton::AlwaysMatch, max);
        assert_eq!(
            all(10),
            (
                vec!["alpha".into(), "beta".into(), "omega".into(), "zulu".into()],
                false
            )
        );
        assert_eq!(all(2), (vec!["alpha".into(), "beta".into()], true));
        let prefix = fst::automaton::Str::new("z");
        use fst::Automaton;
        assert_eq!(
            terms.matching(prefix.starts_with(), 10).0,
            vec!["zulu".to_owned()]
        );
        assert!(decode_terms(&[3, 0, 0, 0, b'a']).is_err());
    }
}
