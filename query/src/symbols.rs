//! File symbols: every symbol of one file, in position order, each with its container
//! (a class for its members) and its nesting depth, so that a tree renders as it streams.

use std::collections::HashMap;

use tsgraph_engine::{EdgeKind, NodeKey, Snapshot};

use crate::Query;
use crate::emit::{Edges, Emission, Item, Order, Section, emit};
use crate::error::QueryError;
use crate::header::{Header, Question};
use crate::sink::{ResultSink, Summary};

/// The outcome of [`resolve_file`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileMatch {
    /// The indexed file's path.
    Found(String),
    /// Several indexed files end with the path given (at most 20, sorted).
    Ambiguous(Vec<String>),
    /// No indexed file is that path or ends with it; the closest paths (at most 20).
    NotFound(Vec<String>),
}

/// Resolves a file argument: an indexed path (`src/db/user.ts`), or a suffix of exactly one
/// at a folder boundary (`db/user.ts`, `user.ts`).
pub fn resolve_file(snapshot: &Snapshot, path: &str) -> Result<FileMatch, QueryError> {
    let wanted = path.trim_start_matches("./");
    if snapshot.file_keys(wanted)?.is_some() {
        return Ok(FileMatch::Found(wanted.to_owned()));
    }
    let files: Vec<String> = snapshot.files()?.into_iter().map(|(p, _)| p).collect();
    let suffix = format!("/{wanted}");
    let matching: Vec<String> = files
        .iter()
        .filter(|f| f.ends_with(&suffix))
        .cloned()
        .collect();
    match matching.len() {
        1 => Ok(FileMatch::Found(
            matching.into_iter().next().unwrap_or_default(),
        )),
        0 => {
            let name = wanted.rsplit('/').next().unwrap_or(wanted).to_lowercase();
            let mut scored: Vec<(usize, String)> = files
                .into_iter()
                .map(|f| {
                    let base = f.rsplit('/').next().unwrap_or(&f).to_lowercase();
                    (strsim::levenshtein(&base, &name), f)
                })
                .filter(|(d, _)| *d <= (name.len() / 3).max(1))
                .collect();
            scored.sort();
            Ok(FileMatch::NotFound(
                scored.into_iter().take(20).map(|(_, f)| f).collect(),
            ))
        }
        _ => Ok(FileMatch::Ambiguous(
            matching.into_iter().take(20).collect(),
        )),
    }
}

impl Query<'_> {
    /// Every symbol of the indexed file `path` (the file node itself excluded), in position
    /// order; each node's `parent` is its container and `depth` its nesting (0 at the top).
    pub fn file_symbols(
        &self,
        path: &str,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        let snapshot = self.snapshot();
        let keys = snapshot.file_keys(path)?.unwrap_or_default();
        let file_key = snapshot.key_of(path)?;
        let mut parents: HashMap<NodeKey, NodeKey> = HashMap::new();
        for &key in &keys {
            let list = snapshot.in_edges(key)?;
            if let Some(edge) = list.edges()?.find(|e| e.kind() == EdgeKind::Contains)
                && Some(edge.other()) != file_key
            {
                parents.insert(key, edge.other());
            }
        }
        let items: Vec<Item> = keys
            .iter()
            .filter(|key| Some(**key) != file_key)
            .map(|&key| {
                let mut depth = 0u32;
                let mut current = key;
                while let Some(parent) = parents.get(&current) {
                    depth += 1;
                    current = *parent;
                    if depth as usize > parents.len() {
                        break;
                    }
                }
                Item {
                    depth,
                    parent: parents.get(&key).copied(),
                    ..Item::plain(key)
                }
            })
            .collect();
        let header = Header::new(Question::FileSymbols { file: path });
        let summary = Summary {
            partial: false,
            found: true,
            ..Summary::default()
        };
        let sections = [Section::whole(items)];
        emit(
            self,
            Emission {
                header,
                sections: &sections,
                order: Order::Position,
                edges: Edges::None,
                summary,
            },
            sink,
        )
    }
}
