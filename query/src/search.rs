//! Search: symbols whose name or dotted symbol path matches a pattern — exactly, by prefix,
//! by glob (`*Service`, `get*User`) or as a subsequence (`usvsave` finds
//! `UserService.save`), ignoring case — filtered, ranked and paged. Terms come from the
//! store's search index (an FST), so only the terms the pattern's automaton accepts are
//! visited.

use tsgraph_engine::fst::Automaton;
use tsgraph_engine::fst::automaton::{Str, Subsequence};
use tsgraph_engine::{NodeKind, Snapshot, TermsKeys};

use crate::Query;
use crate::emit::{Edges, Emission, Item, Order, Section, emit};
use crate::error::QueryError;
use crate::filter::Filter;
use crate::header::{Header, Question, SearchPage};
use crate::sink::{MatchKind, ResultSink, Summary};

/// What to search for and how much of it to return.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOptions {
    /// Only nodes of these kinds (empty: every kind).
    pub kinds: Vec<NodeKind>,
    /// Only nodes in files matching this glob (`src/db/**`).
    pub file: Option<String>,
    /// Only nodes of this module.
    pub module: Option<String>,
    /// Only nodes of this package.
    pub package: Option<String>,
    /// Only exported (`Some(true)`) or unexported (`Some(false)`) nodes.
    pub exported: Option<bool>,
    /// Results skipped (paging).
    pub offset: usize,
    /// Results returned at most (default 50).
    pub limit: usize,
    /// Index terms examined at most (default 20 000); past it the result says it was
    /// truncated (a one-letter fuzzy pattern matches nearly every term).
    pub max_terms: usize,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            kinds: Vec::new(),
            file: None,
            module: None,
            package: None,
            exported: None,
            offset: 0,
            limit: 50,
            max_terms: 20_000,
        }
    }
}

/// Why a search could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    /// The pattern is empty.
    #[error("the search pattern is empty")]
    EmptyPattern,
    /// A topic with no word in it (letters or digits).
    #[error("the topic `{0}` has no words (letters or digits) to search for")]
    EmptyTopic(String),
    /// A glob pattern is too long for the matcher (63 bytes at most).
    #[error("the glob pattern `{0}` is longer than 63 bytes")]
    GlobTooLong(String),
    /// The file filter is not a valid glob.
    #[error("--file `{glob}`: {message}")]
    FileGlob {
        /// The glob given.
        glob: String,
        /// What is wrong with it.
        message: String,
    },
}

/// A glob over index terms: `*` any run of bytes, `?` one byte, anything else literally.
/// The state is the set of pattern positions matched so far, one bit each.
struct GlobAutomaton {
    pattern: Vec<u8>,
}

impl GlobAutomaton {
    fn closure(&self, mut state: u64) -> u64 {
        for (i, byte) in self.pattern.iter().enumerate() {
            if *byte == b'*' && state & (1 << i) != 0 {
                state |= 1 << (i + 1);
            }
        }
        state
    }
}

impl Automaton for GlobAutomaton {
    type State = u64;

    fn start(&self) -> u64 {
        self.closure(1)
    }

    fn is_match(&self, state: &u64) -> bool {
        state & (1 << self.pattern.len()) != 0
    }

    fn can_match(&self, state: &u64) -> bool {
        *state != 0
    }

    fn accept(&self, state: &u64, byte: u8) -> u64 {
        let mut next = 0u64;
        for (i, wanted) in self.pattern.iter().enumerate() {
            if state & (1 << i) == 0 {
                continue;
            }
            match *wanted {
                b'*' => next |= 1 << i,
                b'?' => next |= 1 << (i + 1),
                literal if literal == byte => next |= 1 << (i + 1),
                _ => {}
            }
        }
        self.closure(next)
    }
}

/// Whether `pattern` is a glob.
fn is_glob(pattern: &str) -> bool {
    pattern.contains(['*', '?'])
}

impl Query<'_> {
    /// The symbols matching `pattern`, best first — exact before case-insensitive, prefix,
    /// glob and fuzzy matches, exported before unexported, shorter names first — then one
    /// page of them (`offset`, `limit`); the header says how many there are in all. Fuzzy
    /// (subsequence) matches are the fallback: looked for only when nothing matches exactly
    /// or as a prefix.
    pub fn search(
        &self,
        pattern: &str,
        options: &SearchOptions,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        let snapshot = self.snapshot();
        let (items, total, truncated) = matches(snapshot, pattern, options)?;
        let header = search_header(pattern, options, total);
        let summary = Summary {
            truncated,
            limit: options.max_terms,
            ..page_summary(options, items.len(), total)
        };
        let sections = [Section::whole(items)];
        emit(
            self,
            Emission {
                header,
                sections: &sections,
                order: Order::Rank,
                edges: Edges::None,
                summary,
            },
            sink,
        )
    }
}

/// How a page of `listed` of `total` matches ended: found when there are any, partial (a
/// page, not every match) unless it holds them all.
pub(crate) fn page_summary(options: &SearchOptions, listed: usize, total: usize) -> Summary {
    Summary {
        partial: options.offset > 0 || listed < total,
        found: total > 0,
        ..Summary::default()
    }
}

/// The header of a page of search results: what was searched for, the page and the total.
pub(crate) fn search_header<'a>(
    subject: &'a str,
    options: &SearchOptions,
    total: usize,
) -> Header<'a> {
    Header::new(Question::Search(SearchPage {
        pattern: subject,
        offset: options.offset,
        limit: options.limit,
        total,
    }))
}

/// The ranked page of matches, the total before paging and whether the term limit cut the
/// search short.
fn matches(
    snapshot: &Snapshot,
    pattern: &str,
    options: &SearchOptions,
) -> Result<(Vec<Item>, usize, bool), QueryError> {
    let pattern = pattern.trim();
    if pattern.is_empty() {
        return Err(SearchError::EmptyPattern.into());
    }
    let filter = Filter::new(options)?;
    let lower = pattern.to_lowercase();
    let terms = snapshot.search_terms()?;
    let glob = is_glob(&lower);
    let (first, mut truncated) = if glob {
        if lower.len() > 63 {
            return Err(SearchError::GlobTooLong(pattern.to_owned()).into());
        }
        terms.matching(
            GlobAutomaton {
                pattern: lower.as_bytes().to_vec(),
            },
            options.max_terms,
        )
    } else {
        terms.matching(Str::new(&lower).starts_with(), options.max_terms)
    };
    let mut ranked: Vec<(MatchKind, bool, usize, Item)> = Vec::new();
    // A node found by two terms (its name and its dotted path) counts once.
    let mut seen = rustc_hash::FxHashSet::default();
    // Matches counted for the total but never read: they cannot reach the page.
    let mut counted = 0usize;
    let page = options.offset.saturating_add(options.limit);
    let unfiltered = filter.is_empty();
    // `terms` in byte order with the keys of each, read in `order`.
    let mut rank = |(terms, keys, order): (&[String], &TermsKeys, &[usize]),
                    ranked: &mut Vec<_>,
                    counted: &mut usize,
                    bounded: bool|
     -> Result<(), QueryError> {
        // See `settled` below; `bounded` says the terms come shortest first.
        let mut settled = false;
        let mut settled_at = 0;
        for &i in order {
            let term = &terms[i];
            let term_kind = if glob {
                MatchKind::Glob
            } else if *term == lower {
                MatchKind::ExactIgnoringCase
            } else if term.starts_with(&lower) {
                MatchKind::Prefix
            } else {
                MatchKind::Fuzzy
            };
            if bounded && !settled && term.len() > settled_at {
                // Terms come shortest first, and a node's symbol is at least as long as
                // any term it is found by (ASCII terms: lowercasing keeps the length). So
                // every node still to come ranks below an exported match of this kind or
                // better whose symbol is shorter than this term: once the page holds that
                // many, the rest are only counted.
                settled_at = term.len();
                let ahead = ranked
                    .iter()
                    .filter(
                        |(matched, unexported, len, _): &&(MatchKind, bool, usize, Item)| {
                            *matched < term_kind
                                || (*matched == term_kind && !unexported && *len < term.len())
                        },
                    )
                    .count();
                settled = ahead >= page;
            }
            for &key in keys.of(i) {
                if !seen.insert(key) {
                    continue;
                }
                if settled {
                    *counted += 1;
                    continue;
                }
                let Some(guard) = snapshot.node(key)? else {
                    continue;
                };
                let view = guard.view()?;
                let kept = filter.keeps(&view);
                if !kept {
                    continue;
                }
                let exact = view.name() == pattern || view.symbol() == pattern;
                let matched = if exact { MatchKind::Exact } else { term_kind };
                ranked.push((
                    matched,
                    !view.exported(),
                    view.symbol().len(),
                    Item {
                        matched: Some(matched),
                        ..Item::plain(key)
                    },
                ));
            }
        }
        Ok(())
    };
    // Shortest terms first, so that a long list of prefix or glob matches can stop reading
    // nodes once the page is settled (only without filters, which need every node read, and
    // with ASCII terms).
    // The terms' keys are read in the terms' byte order, together (a prefix's terms lie side
    // by side in the table).
    let keys = snapshot.terms_keys(&first)?;
    let mut order: Vec<usize> = (0..first.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&first[a], &first[b]);
        a.len().cmp(&b.len()).then_with(|| a.cmp(b))
    });
    let bounded = unfiltered && first.iter().all(|term| term.is_ascii());
    rank((&first, &keys, &order), &mut ranked, &mut counted, bounded)?;
    // Fuzzy (subsequence) matching walks the whole term index, and its matches rank below
    // every exact and prefix one: it is the fallback for a misspelt or abbreviated name,
    // when nothing matched exactly or as a prefix.
    if !glob && ranked.is_empty() && counted == 0 {
        let (fuzzy, fuzzy_cut) = terms.matching(Subsequence::new(&lower), options.max_terms);
        let fuzzy: Vec<String> = fuzzy
            .into_iter()
            .filter(|term| !term.starts_with(&lower))
            .collect();
        let keys = snapshot.terms_keys(&fuzzy)?;
        let order: Vec<usize> = (0..fuzzy.len()).collect();
        rank((&fuzzy, &keys, &order), &mut ranked, &mut counted, false)?;
        truncated |= fuzzy_cut;
    }
    ranked.sort_by_key(|(matched, unexported, len, item)| (*matched, *unexported, *len, item.key));
    let total = ranked.len() + counted;
    let items = ranked
        .into_iter()
        .enumerate()
        .skip(options.offset)
        .take(options.limit)
        .map(|(rank, (_, _, _, item))| Item {
            rank: u32::try_from(rank).unwrap_or(u32::MAX),
            ..item
        })
        .collect();
    Ok((items, total, truncated))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tsgraph_engine::fst::{IntoStreamer, Set, Streamer};

    fn glob(pattern: &str, terms: &[&str]) -> Vec<String> {
        let set = Set::from_iter(terms.iter().copied()).expect("sorted terms");
        let mut stream = set
            .search(GlobAutomaton {
                pattern: pattern.as_bytes().to_vec(),
            })
            .into_stream();
        let mut out = Vec::new();
        while let Some(term) = stream.next() {
            out.push(String::from_utf8_lossy(term).into_owned());
        }
        out
    }

    #[test]
    fn globs_match_whole_terms() {
        let terms = [
            "getuser",
            "getuserbyid",
            "save",
            "userservice",
            "userservice.save",
        ];
        assert_eq!(glob("*service", &terms), ["userservice"]);
        assert_eq!(glob("get*user", &terms), ["getuser"]);
        assert_eq!(glob("get*", &terms), ["getuser", "getuserbyid"]);
        assert_eq!(glob("s?ve", &terms), ["save"]);
        assert_eq!(glob("*.save", &terms), ["userservice.save"]);
        assert!(glob("x*", &terms).is_empty());
    }
}
