//! Turning what a user typed (a node ID, or a bare or dotted name with an optional file) into
//! exactly one node — never a different symbol than the one asked for.

use tsgraph_engine::{NodeKey, NodeKind, Snapshot};

use crate::error::QueryError;

/// How many candidates or suggestions are listed at most.
const MAX_LISTED: usize = 20;

/// A node a symbol argument could mean.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Candidate {
    /// Its ID.
    pub id: String,
    /// Its kind.
    pub kind: NodeKind,
    /// Its file.
    pub file: String,
    /// Its first line.
    pub line: u32,
}

/// The outcome of [`resolve_symbol`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SymbolMatch {
    /// Exactly one node.
    Found(NodeKey),
    /// Several nodes match; sorted by ID (at most 20).
    Ambiguous(Vec<Candidate>),
    /// Nothing matches.
    NotFound {
        /// The closest names or IDs, best first (at most 20), never the name asked for.
        suggestions: Vec<String>,
        /// When a file narrowed the name: the nodes of that name in other files.
        elsewhere: Vec<Candidate>,
    },
}

/// Resolves `symbol`: an exact node ID (`src/a.ts:UserService.save`, or a file path), or a
/// bare or dotted name (`save`, `UserService.save`) optionally narrowed to files whose path
/// ends with `file`. Names match case-sensitively first and, when nothing does, ignoring
/// case (`userservice.save`). A name narrowed to a file that does not declare it but
/// re-exports it (a barrel) resolves to the declaration the re-export leads to.
pub fn resolve_symbol(
    snapshot: &Snapshot,
    symbol: &str,
    file: Option<&str>,
) -> Result<SymbolMatch, QueryError> {
    if let Some(key) = snapshot.key_of(symbol)? {
        // An exact ID wins, unless --file names another file.
        let in_file = match file {
            Some(file) => candidate(snapshot, key)?.is_some_and(|c| file_matches(&c.file, file)),
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
    // `src/a.ts:saveUsr` is a name in a file.
    let (symbol, file) = match symbol.split_once(':') {
        Some((path, rest)) if file.is_none() && !rest.is_empty() => (rest, Some(path)),
        _ => (symbol, file),
    };
    let exact = named(snapshot, symbol, false)?;
    let all = if exact.is_empty() {
        named(snapshot, symbol, true)?
    } else {
        exact
    };
    let (mut matches, elsewhere): (Vec<Named>, Vec<Named>) = all
        .into_iter()
        .partition(|(c, _)| file.is_none_or(|f| file_matches(&c.file, f)));
    matches.sort();
    if matches.len() > 1 {
        matches.truncate(MAX_LISTED);
        return Ok(SymbolMatch::Ambiguous(
            matches.into_iter().map(|(c, _)| c).collect(),
        ));
    }
    if let Some((_, key)) = matches.pop() {
        return Ok(SymbolMatch::Found(key));
    }
    // Not declared in the file named: a barrel that re-exports it answers for it.
    if let Some(file) = file
        && !elsewhere.is_empty()
    {
        let mut declared = Vec::new();
        for named in &elsewhere {
            // Top-level and exported: what an import can bring in.
            let Some(guard) = snapshot.node(named.1)? else {
                continue;
            };
            let view = guard.view()?;
            if view.exported() && view.symbol().split('~').next() == Some(symbol) {
                declared.push(crate::barrel::Declared {
                    file: named.0.file.clone(),
                    default_export: view.flags().0 & tsgraph_engine::NodeFlags::DEFAULT_EXPORT != 0,
                    value: named.clone(),
                });
            }
        }
        let mut reexported = crate::barrel::through_reexports(snapshot, file, symbol, &declared)?;
        reexported.sort();
        match reexported.len() {
            0 => {}
            1 => return Ok(SymbolMatch::Found(reexported[0].1)),
            _ => {
                reexported.truncate(MAX_LISTED);
                return Ok(SymbolMatch::Ambiguous(
                    reexported.into_iter().map(|(c, _)| c).collect(),
                ));
            }
        }
    }
    let mut elsewhere: Vec<Candidate> = elsewhere.into_iter().map(|(c, _)| c).collect();
    elsewhere.sort();
    elsewhere.truncate(MAX_LISTED);
    // A name that exists elsewhere is not misspelt: the files that hold it say more.
    let suggestions = if elsewhere.is_empty() {
        suggestions(snapshot, symbol, file)?
    } else {
        Vec::new()
    };
    Ok(SymbolMatch::NotFound {
        suggestions,
        elsewhere,
    })
}

/// A node a name matched, with its key.
type Named = (Candidate, NodeKey);

/// The nodes whose symbol path is `symbol` or ends with `.symbol` (`Repo.save` also matches
/// `Service.Repo.save`), compared exactly or ignoring case. `Repo~Class` (a class sharing its
/// name with an interface) answers to `Repo` too, so that such a pair is reported as
/// ambiguous instead of answered for one of them.
fn named(snapshot: &Snapshot, symbol: &str, ignore_case: bool) -> Result<Vec<Named>, QueryError> {
    let name = symbol.rsplit('.').next().unwrap_or(symbol);
    // Every node's lowercased name is a search term; an exact lookup keeps the nodes whose
    // name matches exactly (what `Snapshot::keys_named` does, without reading them twice).
    let keys = snapshot.term_keys(&name.to_lowercase())?;
    let wanted = if ignore_case {
        symbol.to_lowercase()
    } else {
        symbol.to_owned()
    };
    let dotted_suffix = format!(".{wanted}");
    let mut out = Vec::new();
    for key in keys {
        let Some(guard) = snapshot.node(key)? else {
            continue;
        };
        let view = guard.view()?;
        if !ignore_case && view.name() != name {
            continue;
        }
        let mut path = without_kind_suffixes(view.symbol());
        if ignore_case {
            path = path.to_lowercase();
        }
        if path == wanted || path.ends_with(&dotted_suffix) {
            out.push((
                Candidate {
                    id: view.id().to_owned(),
                    kind: view.kind(),
                    file: view.file().to_owned(),
                    line: view.start_line(),
                },
                key,
            ));
        }
    }
    Ok(out)
}

pub(crate) fn candidate(
    snapshot: &Snapshot,
    key: NodeKey,
) -> Result<Option<Candidate>, QueryError> {
    let Some(guard) = snapshot.node(key)? else {
        return Ok(None);
    };
    let view = guard.view()?;
    Ok(Some(Candidate {
        id: view.id().to_owned(),
        kind: view.kind(),
        file: view.file().to_owned(),
        line: view.start_line(),
    }))
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

/// Names (or, for an argument given with a file, IDs) close to `symbol`, nearest first:
/// compared ignoring case by edit distance on the last path segment and on the whole
/// dotted path, or containing one another. The rejected name itself is never suggested.
fn suggestions(
    snapshot: &Snapshot,
    symbol: &str,
    file: Option<&str>,
) -> Result<Vec<String>, QueryError> {
    let whole = symbol.to_lowercase();
    let last = whole.rsplit('.').next().unwrap_or(&whole).to_owned();
    let budget = |text: &str| (text.chars().count() / 3).max(1);
    // Every term is compared; this runs only when a symbol is not found.
    let (terms, _) = snapshot
        .search_terms()?
        .matching(tsgraph_engine::fst::automaton::AlwaysMatch, usize::MAX);
    let mut scored: Vec<(usize, String)> = Vec::new();
    for term in terms {
        let term_last = term.rsplit('.').next().unwrap_or(&term);
        let distance = strsim::levenshtein(&term, &whole)
            .min(strsim::levenshtein(term_last, &last) + usize::from(term.contains('.')));
        // Containment only means something between names of a few letters at least.
        let contains = term.len() > 2
            && last.len() > 2
            && (term_last.contains(&last) || last.contains(term_last));
        if distance > budget(&whole).max(budget(&last)) && !contains {
            continue;
        }
        scored.push((distance, term));
    }
    scored.sort();
    let mut out: Vec<String> = Vec::new();
    for (_, term) in scored {
        for key in snapshot.term_keys(&term)? {
            let Some(c) = candidate(snapshot, key)? else {
                continue;
            };
            let name = c.id.get(c.file.len() + 1..).unwrap_or(&c.id).to_owned();
            // Show what the user can type back: the ID when they gave a file.
            let shown = if file.is_some() {
                c.id.clone()
            } else {
                name.clone()
            };
            let rejected = name.eq_ignore_ascii_case(symbol) && file.is_none()
                || shown.eq_ignore_ascii_case(symbol);
            if !rejected && !out.contains(&shown) {
                out.push(shown);
            }
        }
        if out.len() >= MAX_LISTED {
            break;
        }
    }
    out.truncate(MAX_LISTED);
    Ok(out)
}
