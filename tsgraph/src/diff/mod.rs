//! `impact --diff`: which symbols a git change touched and which declarations it removed.
//!
//! The diff's hunks (`git diff -U0`) give the changed lines of each file. The old text of a
//! changed file (from git) and its new text (from disk, or from git for `A..B`) are parsed
//! into declarations with the indexer's own extraction, so that both sides have IDs and
//! signatures in the graph's terms. A declaration of the new text holding changed lines is
//! changed — in its signature when its parameters, type, modifiers or visibility differ from
//! the old declaration of the same symbol path, else in its body, or added when the old text
//! has none —; only the innermost such declarations count (a changed method, not its class).
//! Changed lines outside every declaration make the file's top-level code changed. A
//! declaration of the old text with no namesake in the new was removed; one added in the
//! same file with the same kind and signature is taken for its new name.

mod git;
mod hunks;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use tsgraph_engine::{NodeKind, NodeRecord, Snapshot};
use tsgraph_indexer::is_source_path;
use tsgraph_query::{Change, ChangeKind, ChangedSymbol, RemovedSymbol};

use crate::error::Error;
use crate::request::DiffSpec;
use hunks::{FileDiff, Hunk};

/// The declarations of one side of a changed file, by symbol path (the ID after `file:`).
type Declarations = HashMap<String, NodeRecord>;

/// What the change `spec` names did, on the graph of `snapshot` (the project at `root`).
pub(crate) fn change(root: &Path, snapshot: &Snapshot, spec: &DiffSpec) -> Result<Change, Error> {
    let diff = git::diff(root, spec)?;
    let files: Vec<FileDiff> = hunks::parse(&diff)
        .into_iter()
        .filter(|f| {
            let source = |p: &Option<String>| p.as_deref().is_some_and(is_source_path);
            source(&f.old_path) || source(&f.new_path)
        })
        .collect();
    let old = sides(
        &files,
        |f| f.old_path.as_deref(),
        |path| git::show(root, spec.base(), path),
    )?;
    let new = sides(
        &files,
        |f| f.new_path.as_deref(),
        |path| new_text(root, spec, path),
    )?;
    let mut change = Change {
        base: spec.describe(),
        ..Change::default()
    };
    let mut seen = HashSet::new();
    for file in &files {
        let before = file.old_path.as_deref().and_then(|p| old.get(p));
        let after = file.new_path.as_deref().and_then(|p| new.get(p));
        let empty = Declarations::new();
        let (before, after) = (before.unwrap_or(&empty), after.unwrap_or(&empty));
        for (id, kind) in changed_in(file, before, after) {
            match snapshot.key_of(&id)? {
                Some(key) if seen.insert(key) => {
                    change.changed.push(ChangedSymbol { key, change: kind })
                }
                Some(_) => {}
                None => change.unknown.push(id),
            }
        }
        change.removed.extend(removed_in(before, after));
        change.removed.extend(moved(file, before, after));
    }
    Ok(change)
}

/// The declarations of each side's files, by path: `path_of` names a file's path on the
/// side, `text_of` reads its text there (`None`: the side has no such file).
fn sides(
    files: &[FileDiff],
    path_of: impl Fn(&FileDiff) -> Option<&str>,
    text_of: impl Fn(&str) -> Result<Option<Vec<u8>>, Error>,
) -> Result<HashMap<String, Declarations>, Error> {
    let mut texts: Vec<(String, Vec<u8>)> = Vec::new();
    for path in files.iter().filter_map(&path_of) {
        if is_source_path(path)
            && let Some(text) = text_of(path)?
        {
            texts.push((path.to_owned(), text));
        }
    }
    let borrowed: Vec<(&str, &[u8])> = texts
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_slice()))
        .collect();
    let batch = tsgraph_indexer::index_sources(&borrowed)?;
    let mut out: HashMap<String, Declarations> = HashMap::new();
    for node in batch.nodes {
        if node.kind == NodeKind::File.as_u8() {
            continue;
        }
        let Some((file, symbol)) = node.id.split_once(':') else {
            continue;
        };
        out.entry(file.to_owned())
            .or_default()
            .insert(symbol.to_owned(), node);
    }
    Ok(out)
}

/// The new text of `path`: the file on disk, or at the second revision of `A..B`.
fn new_text(root: &Path, spec: &DiffSpec, path: &str) -> Result<Option<Vec<u8>>, Error> {
    match spec {
        DiffSpec::Between(_, to) => git::show(root, to, path),
        DiffSpec::WorkingTree | DiffSpec::Since(_) => match std::fs::read(root.join(path)) {
            Ok(text) => Ok(Some(text)),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(Error::Io {
                path: root.join(path),
                source,
            }),
        },
    }
}

/// The declarations of the new side a file's hunks touched (innermost only), by ID, with
/// how each changed; the file itself (top-level code) when a hunk touched no declaration.
fn changed_in(
    file: &FileDiff,
    before: &Declarations,
    after: &Declarations,
) -> Vec<(String, ChangeKind)> {
    let Some(path) = file.new_path.as_deref() else {
        return Vec::new();
    };
    let mut touched: Vec<&NodeRecord> = Vec::new();
    let mut top_level = false;
    for hunk in &file.hunks {
        let holding: Vec<&NodeRecord> = after
            .values()
            .filter(|d| hunk.touches_new(d.start_line, d.end_line))
            .collect();
        if holding.is_empty() && !deletes_a_declaration(hunk, before) {
            top_level = true;
        }
        // Innermost, per hunk: a declaration whose member the hunk also touches answers
        // through the member (another hunk may still touch the declaration itself).
        let ids: HashSet<&str> = holding.iter().map(|d| d.id.as_str()).collect();
        touched.extend(holding.iter().copied().filter(|d| {
            let prefix = format!("{}.", d.id);
            !ids.iter().any(|other| other.starts_with(&prefix))
        }));
    }
    touched.sort_by(|a, b| (a.start_line, &a.id).cmp(&(b.start_line, &b.id)));
    touched.dedup_by(|a, b| a.id == b.id);
    let mut out: Vec<(String, ChangeKind)> = touched
        .into_iter()
        .map(|d| {
            let symbol = d.id.split_once(':').map_or("", |(_, s)| s);
            let kind = match before.get(symbol) {
                None => ChangeKind::Added,
                Some(old) if same_signature(old, d) => ChangeKind::Body,
                Some(_) => ChangeKind::Signature,
            };
            (d.id.clone(), kind)
        })
        .collect();
    if top_level {
        out.insert(0, (path.to_owned(), ChangeKind::TopLevel));
    }
    out
}

/// Whether a hunk's old lines fall inside a declaration of the old text (which then was
/// removed or shrank: the removal or the enclosing declaration says it).
fn deletes_a_declaration(hunk: &Hunk, before: &Declarations) -> bool {
    hunk.new_len == 0
        && before
            .values()
            .any(|d| hunk.touches_old(d.start_line, d.end_line))
}

/// Whether two declarations of one symbol have the same kind and signature.
fn same_signature(old: &NodeRecord, new: &NodeRecord) -> bool {
    old.kind == new.kind
        && old.parameters == new.parameters
        && old.type_text == new.type_text
        && old.flags == new.flags
        && old.visibility == new.visibility
}

/// A file moved (`old.ts` → `new.ts`): every declaration it kept has a new ID, and what
/// imported it by the old path breaks — each is removed, renamed to its new ID.
fn moved(file: &FileDiff, before: &Declarations, after: &Declarations) -> Vec<RemovedSymbol> {
    let (Some(old), Some(new)) = (file.old_path.as_deref(), file.new_path.as_deref()) else {
        return Vec::new();
    };
    if old == new {
        return Vec::new();
    }
    let mut kept: Vec<&NodeRecord> = before
        .iter()
        .filter(|(symbol, _)| after.contains_key(*symbol))
        // Top-level declarations: members move with their container.
        .filter(|(symbol, _)| !symbol.contains('.'))
        .map(|(_, d)| d)
        .collect();
    kept.sort_by(|a, b| (a.start_line, &a.id).cmp(&(b.start_line, &b.id)));
    kept.into_iter()
        .map(|d| {
            let symbol = d.id.split_once(':').map_or("", |(_, s)| s);
            RemovedSymbol {
                id: d.id.clone(),
                name: d.name.clone(),
                kind: NodeKind::from_u8(d.kind).unwrap_or(NodeKind::Function),
                lines: (d.start_line, d.end_line),
                renamed_to: Some(format!("{new}:{symbol}")),
            }
        })
        .collect()
}

/// The declarations of the old side with no namesake in the new (the outermost of them:
/// a removed class, not also each of its methods), each with the added declaration of the
/// same kind and signature it was probably renamed to.
fn removed_in(before: &Declarations, after: &Declarations) -> Vec<RemovedSymbol> {
    let gone: Vec<&NodeRecord> = before
        .iter()
        .filter(|(symbol, _)| !after.contains_key(*symbol))
        .map(|(_, d)| d)
        .collect();
    let gone_ids: HashSet<&str> = gone.iter().map(|d| d.id.as_str()).collect();
    let mut added: Vec<&NodeRecord> = after
        .iter()
        .filter(|(symbol, _)| !before.contains_key(*symbol))
        .map(|(_, d)| d)
        .collect();
    added.sort_by(|a, b| a.id.cmp(&b.id));
    let mut outermost: Vec<&NodeRecord> = gone
        .into_iter()
        .filter(|d| {
            let container = d.id.rsplit_once('.').map(|(c, _)| c);
            !container.is_some_and(|c| gone_ids.contains(c))
        })
        .collect();
    outermost.sort_by(|a, b| (a.start_line, &a.id).cmp(&(b.start_line, &b.id)));
    outermost
        .into_iter()
        .map(|old| {
            let renamed = added.iter().position(|new| same_signature(old, new));
            let renamed_to = renamed.map(|i| added.remove(i).id.clone());
            RemovedSymbol {
                id: old.id.clone(),
                name: old.name.clone(),
                kind: NodeKind::from_u8(old.kind).unwrap_or(NodeKind::Function),
                lines: (old.start_line, old.end_line),
                renamed_to,
            }
        })
        .collect()
}
