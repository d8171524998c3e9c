//! Turning what a user typed (a node ID, or a bare or dotted name with an optional file) into
//! exactly one node — never a different symbol than the one asked for.

use tsgraph_engine::{NodeKey, Snapshot};

use crate::error::QueryError;

/// How many candidates or suggestions are listed at most.
const MAX_LISTED: usize = 20;

/// The outcome of [`resolve_symbol`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SymbolMatch {
    /// Exactly one node.
    Found(NodeKey),
    /// Several nodes match; their IDs, sorted (at most 20).
    Ambiguous(Vec<String>),
    /// Nothing matches; the closest names, best first (at most 20).
    NotFound(Vec<String>),
}

/// Resolves `symbol`: an exact node ID (`src/a.ts:UserService.save`, or a file path), or a
/// bare or dotted name (`save`, `UserService.save`) optionally narrowed to files whose path
/// ends with `file`.
pub fn resolve_symbol(
    snapshot: &Snapshot,
    symbol: &str,
    file: Option<&str>,
) -> Result<SymbolMatch, QueryError> {
    if let Some(key) = snapshot.key_of(symbol)? {
        // An exact ID wins, unless --file names another file.
        let in_file = match file {
            Some(file) => snapshot
                .node(key)?
                .map(|g| g.view().map(|v| file_matches(v.file(), file)))
                .transpose()?
                .unwrap_or(false),
            None => true,
        };
        if in_file {
            return Ok(SymbolMatch::Found(key));
        }
    }
    if let Some(file) = file {
        let id = format!("{}:{symbol}", file.trim_start_matches("./"));
        if let Some(key) = snapshot.key_of(&id)? {
            return Ok(SymbolMatch::Found(key));
        }
    }
    let name = symbol.rsplit('.').next().unwrap_or(symbol);
    // `Repo.save` also matches `Service.Repo.save`.
    let dotted_suffix = format!(".{symbol}");
    let mut matches: Vec<(String, NodeKey)> = Vec::new();
    for key in snapshot.keys_named(name)? {
        let Some(guard) = snapshot.node(key)? else {
            continue;
        };
        let view = guard.view()?;
        // `Repo~Class` (a class sharing its name with an interface) answers to `Repo` too, so
        // that such a pair is reported as ambiguous instead of answered for one of them.
        let symbol_path = without_kind_suffixes(view.symbol());
        let path_matches =
            symbol_path == symbol || symbol_path.ends_with(&dotted_suffix) || view.id() == symbol;
        let file_matches = file.is_none_or(|f| file_matches(view.file(), f));
        if path_matches && file_matches {
            matches.push((view.id().to_owned(), key));
        }
    }
    matches.sort();
    match matches.len() {
        0 => Ok(SymbolMatch::NotFound(suggestions(snapshot, name)?)),
        1 => Ok(SymbolMatch::Found(matches[0].1)),
        _ => Ok(SymbolMatch::Ambiguous(
            matches
                .into_iter()
                .take(MAX_LISTED)
                .map(|(id, _)| id)
                .collect(),
        )),
    }
}

/// A symbol path with the `~Kind` / `~static` disambiguators the indexer adds removed.
fn without_kind_suffixes(path: &str) -> String {
    path.split('.')
        .map(|segment| segment.split('~').next().unwrap_or(segment))
        .collect::<Vec<_>>()
        .join(".")
}

/// Whether the node's `path` is the file the user named (a suffix at a folder boundary).
fn file_matches(path: &str, wanted: &str) -> bool {
    let wanted = wanted.trim_start_matches("./");
    path == wanted || path.ends_with(&format!("/{wanted}"))
}

/// Names close to `name` (within a small edit distance, or containing it or contained in it),
/// nearest first.
fn suggestions(snapshot: &Snapshot, name: &str) -> Result<Vec<String>, QueryError> {
    let lower = name.to_lowercase();
    let budget = (name.chars().count() / 3).max(1);
    let mut scored: Vec<(usize, String)> = Vec::new();
    for candidate in snapshot.names()? {
        let candidate_lower = candidate.to_lowercase();
        let distance = strsim::levenshtein(&candidate_lower, &lower);
        // Containment only means something between names of a few letters at least.
        let contains = candidate.len() > 2
            && lower.len() > 2
            && (candidate_lower.contains(&lower) || lower.contains(&candidate_lower));
        if distance > budget && !contains {
            continue;
        }
        let score = distance;
        scored.push((score, candidate));
    }
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    Ok(scored
        .into_iter()
        .take(MAX_LISTED)
        .map(|(_, name)| name)
        .collect())
}
