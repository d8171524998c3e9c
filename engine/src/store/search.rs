//! The search index: every node's lowercased simple name and dotted symbol path as a term,
//! in a multimap (term → node keys) kept up to date with each write, and an FST set of the
//! terms rebuilt at the end of each write so that prefix, glob and fuzzy matching visit only
//! the terms an automaton accepts instead of scanning every name.

use redb::{MultimapTable, ReadableMultimapTable, Table};

use crate::error::{DbResultExt, StoreError};

/// Key of the FST blob in the search table.
pub(crate) const FST_KEY: &str = "terms.fst";

/// The terms a node is found by: its lowercased simple name and, when it differs, its
/// lowercased symbol path without the `~Kind` disambiguators (`userservice.save`).
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

/// Adds (or, with `add` false, removes) the terms of one node.
pub(crate) fn update_terms(
    terms: &mut MultimapTable<'_, &'static str, u32>,
    key: u32,
    id: &str,
    file: &str,
    name: &str,
    add: bool,
) -> Result<(), StoreError> {
    let (name_term, path_term) = terms_of(id, file, name);
    for term in std::iter::once(name_term).chain(path_term) {
        if add {
            terms.insert(term.as_str(), key).ctx("write search term")?;
        } else {
            terms.remove(term.as_str(), key).ctx("remove search term")?;
        }
    }
    Ok(())
}

/// Rebuilds the FST of every distinct term (the multimap iterates them in byte order, which
/// is the order the FST builder needs).
pub(crate) fn rebuild_fst(
    terms: &MultimapTable<'_, &'static str, u32>,
    search: &mut Table<'_, &'static str, &'static [u8]>,
) -> Result<(), StoreError> {
    let mut builder = fst::SetBuilder::memory();
    for entry in terms.iter().ctx("read search terms")? {
        let (term, _) = entry.ctx("read search terms")?;
        builder
            .insert(term.value())
            .map_err(|err| StoreError::corrupted("search terms", err))?;
    }
    let bytes = builder
        .into_inner()
        .map_err(|err| StoreError::corrupted("search terms", err))?;
    search
        .insert(FST_KEY, bytes.as_slice())
        .ctx("write search index")?;
    Ok(())
}

/// The set of search terms of a snapshot, validated when it was read.
pub struct TermSet {
    set: fst::Set<Vec<u8>>,
}

impl TermSet {
    pub(crate) fn from_bytes(bytes: Vec<u8>) -> Result<TermSet, StoreError> {
        let set = fst::Set::new(bytes).map_err(|err| StoreError::corrupted("search index", err))?;
        Ok(TermSet { set })
    }

    pub(crate) fn empty() -> TermSet {
        TermSet {
            set: fst::Set::default(),
        }
    }

    /// The number of distinct terms.
    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// Whether there are no terms.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// Every term `automaton` accepts, in byte order, at most `max` of them; the flag says
    /// whether more were accepted.
    pub fn matching<A: fst::Automaton>(&self, automaton: A, max: usize) -> (Vec<String>, bool) {
        use fst::{IntoStreamer, Streamer};
        let mut stream = self.set.search(automaton).into_stream();
        let mut out = Vec::new();
        while let Some(term) = stream.next() {
            if out.len() == max {
                return (out, true);
            }
            out.push(String::from_utf8_lossy(term).into_owned());
        }
        (out, false)
    }
}
