//! Topic search: the words of a query (`"user store"`) against the words of names
//! (`createUserStore`, `SessionStore`, `user_store`), of file paths and of leading doc
//! comments, as ts-graph-mcp's topic search does. Each word of the query is looked up whole in the search index's word
//! terms (lowercase, singular: `engine::words`); a node scores BM25-style — the rarer the
//! words it shares with the query, the higher, and a long name less than a short one — and
//! a name made of exactly the query's words comes first. The answer carries the edges
//! between the hits of its page.

use tsgraph_engine::{NodeKey, Snapshot, word_count, word_term, words};

use crate::Query;
use crate::emit::{Edges, Emission, Item, Order, Section, emit};
use crate::error::QueryError;
use crate::filter::Filter;
use crate::search::{SearchError, SearchOptions, page_summary, search_header};
use crate::sink::{MatchKind, ResultSink, Summary};

/// BM25's term-frequency saturation.
const K1: f64 = 1.2;
/// BM25's length normalisation.
const B: f64 = 0.75;
/// The length (in words) a name is compared with: identifiers are mostly two to four words.
const TYPICAL_WORDS: f64 = 3.0;

/// A node found by some word of the query.
struct Hit {
    key: NodeKey,
    /// The query's words it has.
    matched: usize,
    /// The sum of those words' inverse document frequencies.
    idf: f64,
}

impl Query<'_> {
    /// The symbols and files whose names (files: paths) share words with `text`, best first:
    /// names made of exactly the query's words, then by how many of its words they have and
    /// their BM25 score, exported before unexported, shorter first; then one page of them
    /// (`options.offset`, `options.limit`, and the filters of a search) with the edges
    /// between the page's hits.
    pub fn topic(
        &self,
        text: &str,
        options: &SearchOptions,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        let snapshot = self.snapshot();
        let (items, total) = ranked(snapshot, text, options)?;
        let header = search_header(text, options, total);
        let summary = Summary {
            limit: options.limit,
            ..page_summary(options, items.len(), total)
        };
        let sections = [Section::whole(items)];
        emit(
            self,
            Emission {
                header,
                sections: &sections,
                order: Order::Rank,
                edges: Edges::Between,
                summary,
            },
            sink,
        )
    }
}

/// The page of hits in rank order, and how many there are in all.
fn ranked(
    snapshot: &Snapshot,
    text: &str,
    options: &SearchOptions,
) -> Result<(Vec<Item>, usize), QueryError> {
    let wanted = words(text);
    if wanted.is_empty() {
        return Err(SearchError::EmptyTopic(text.to_owned()).into());
    }
    let filter = Filter::new(options)?;
    let nodes = snapshot.node_count()? as f64;
    let mut lists = Vec::with_capacity(wanted.len());
    for word in &wanted {
        let keys = snapshot.term_keys(&word_term(word))?;
        let found = keys.len() as f64;
        let idf = ((nodes - found + 0.5) / (found + 0.5) + 1.0).ln();
        lists.push((keys, idf));
    }
    // Hits rank by how many of the query's words they have before anything else, so the
    // records of the hits with fewer words are read only while the page is not full — or
    // all of them when a filter makes the total depend on the records.
    let by_matched = merged(&lists, wanted.len());
    let page = options.offset.saturating_add(options.limit);
    let unfiltered = filter.is_empty();
    let total_unfiltered: usize = by_matched.iter().map(Vec::len).sum();
    // (whole name, matched words, score, unexported, symbol length, key) per kept hit.
    let mut scored = Vec::new();
    for group in by_matched.iter().rev() {
        if unfiltered && scored.len() >= page {
            break;
        }
        for hit in group {
            let Some(guard) = snapshot.node(hit.key)? else {
                continue;
            };
            let view = guard.view()?;
            if !filter.keeps(&view) {
                continue;
            }
            // A file is found by its path's words and measured by them.
            let named = if view.id() == view.file() {
                view.file()
            } else {
                view.name()
            };
            let length = word_count(named).max(1);
            // A whole-name match: the name is made of exactly the query's words (a word
            // found in the doc comment alone does not count).
            let whole = hit.matched == wanted.len()
                && length == wanted.len()
                && words(named).iter().all(|w| wanted.contains(w));
            let norm = 1.0 - B + B * length as f64 / TYPICAL_WORDS;
            let score = hit.idf * (K1 + 1.0) / (1.0 + K1 * norm);
            scored.push((
                !whole,
                std::cmp::Reverse(hit.matched),
                std::cmp::Reverse(OrderedScore(score)),
                !view.exported(),
                view.symbol().len(),
                hit.key,
            ));
        }
    }
    scored.sort_unstable();
    let total = if unfiltered {
        total_unfiltered
    } else {
        scored.len()
    };
    let items = scored
        .into_iter()
        .enumerate()
        .skip(options.offset)
        .take(options.limit)
        .map(|(rank, (.., key))| Item {
            matched: Some(MatchKind::Topic),
            rank: u32::try_from(rank).unwrap_or(u32::MAX),
            ..Item::plain(key)
        })
        .collect();
    Ok((items, total))
}

/// The hits of the posting `lists` (ascending keys, each with its word's idf), merged by
/// key and bucketed by how many words each has: bucket `m - 1` holds the hits with `m`.
/// Linear in the postings: the lists are few (the query's words) and already sorted.
fn merged(lists: &[(Vec<NodeKey>, f64)], words: usize) -> Vec<Vec<Hit>> {
    let mut buckets: Vec<Vec<Hit>> = (0..words).map(|_| Vec::new()).collect();
    let mut cursors = vec![0usize; lists.len()];
    loop {
        let next = lists
            .iter()
            .zip(&cursors)
            .filter_map(|((keys, _), &at)| keys.get(at))
            .min()
            .copied();
        let Some(key) = next else { break };
        let mut hit = Hit {
            key,
            matched: 0,
            idf: 0.0,
        };
        for ((keys, idf), at) in lists.iter().zip(cursors.iter_mut()) {
            if keys.get(*at) == Some(&key) {
                *at += 1;
                hit.matched += 1;
                hit.idf += idf;
            }
        }
        buckets[hit.matched - 1].push(hit);
    }
    buckets
}

/// A finite score, ordered (`f64` is only partially ordered).
#[derive(Debug, Clone, Copy, PartialEq)]
struct OrderedScore(f64);

impl Eq for OrderedScore {}

impl PartialOrd for OrderedScore {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for OrderedScore {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postings_merge_by_key_into_buckets_of_matched_words() {
        let keys = |ks: &[u32]| ks.iter().map(|&k| NodeKey(k)).collect::<Vec<_>>();
        let lists = [(keys(&[1, 3, 5, 9]), 1.0), (keys(&[3, 4, 9]), 2.0)];
        let buckets = merged(&lists, 2);
        let one: Vec<u32> = buckets[0].iter().map(|h| h.key.0).collect();
        let both: Vec<(u32, f64)> = buckets[1].iter().map(|h| (h.key.0, h.idf)).collect();
        assert_eq!(one, [1, 4, 5]);
        assert_eq!(both, [(3, 3.0), (9, 3.0)]);
    }

    #[test]
    fn scores_order_totally() {
        let mut scores = [OrderedScore(2.5), OrderedScore(0.1), OrderedScore(1.0)];
        scores.sort();
        assert_eq!(scores.map(|s| s.0), [0.1, 1.0, 2.5]);
    }
}
