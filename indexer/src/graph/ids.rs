//! Node IDs: `{file}:{symbol path}`, deterministic and independent of declaration order.
//!
//! Declarations that share a path become one node when they are one symbol (overloads,
//! merged interfaces and namespaces, get/set pairs). When a value and a type share a name,
//! the value keeps the plain ID and the type gets `~Kind` (`Repo~Interface`); when a static
//! and an instance member share a name, the instance member keeps the plain ID and the
//! static one gets `~static`.

use std::collections::HashMap;

use tsgraph_engine::NodeFlags;

use crate::facts::{DeclId, DeclKind, FILE_DECL, FileFacts, Names, OptIndex, decl_flags};

/// The nodes of one file: each node's symbol path (its ID past the file's path, [`node_id`])
/// and the declarations it stands for.
///
/// A whole project's nodes stay in memory while it is linked, so they are kept in a few flat
/// arrays per file rather than two allocations per node (on the synthetic 1M-line monorepo
/// the per-node form held 35 MB), and without the file's path repeated in every ID (another
/// 6 MB there).
#[derive(Debug, Default)]
pub(crate) struct FileNodes {
    /// The symbol paths, node `i`'s as name `i` ("" for the file's own node).
    symbols: Names,
    /// Each node's declarations, the representative first; node `i`'s end at `decl_ends[i]`.
    decls: Vec<DeclId>,
    decl_ends: Vec<u32>,
    /// Per declaration: the index of its node, if it is one.
    node_of: Vec<OptIndex>,
}

impl FileNodes {
    /// How many nodes the file has.
    pub(crate) fn len(&self) -> usize {
        self.decl_ends.len()
    }

    /// Node `index`'s symbol path: its ID past `{file}:` ("" for the file's node).
    pub(crate) fn symbol(&self, index: u32) -> &str {
        self.symbols.get(index).unwrap_or("")
    }

    /// Node `index`'s declarations, the representative first.
    pub(crate) fn decls(&self, index: u32) -> &[DeclId] {
        let index = index as usize;
        let start = index
            .checked_sub(1)
            .map_or(0, |before| self.decl_ends[before]);
        &self.decls[start as usize..self.decl_ends[index] as usize]
    }

    /// Every node's symbol path and declarations, in node order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &[DeclId])> + '_ {
        (0..self.len()).map(|index| {
            let index = index as u32;
            (self.symbol(index), self.decls(index))
        })
    }

    /// The node `decl` is part of, if it is one.
    pub(crate) fn node_of(&self, decl: DeclId) -> Option<u32> {
        self.node_of.get(decl as usize)?.get()
    }

    /// The node standing for `decl`, or for the nearest enclosing declaration that is one
    /// (the file at the top).
    pub(crate) fn owner_node(&self, facts: &FileFacts, mut decl: DeclId) -> u32 {
        for _ in 0..256 {
            if let Some(node) = self.node_of(decl) {
                return node;
            }
            if decl == FILE_DECL {
                break;
            }
            decl = facts.decl(decl).path_parent;
        }
        0
    }

    fn push(&mut self, symbol: &str, decls: &[DeclId]) {
        let node = self.symbols.push(symbol);
        for decl in decls {
            self.node_of[*decl as usize] = node.into();
        }
        self.decls.extend_from_slice(decls);
        self.decl_ends
            .push(u32::try_from(self.decls.len()).unwrap_or(u32::MAX));
    }
}

/// The ID of the node of the file at `path` whose symbol path is `symbol`
/// ([`FileNodes::symbol`]): `{path}:{symbol}`, or the path alone for the file's node.
pub(crate) fn node_id(path: &str, symbol: &str) -> String {
    if symbol.is_empty() {
        return path.to_owned();
    }
    let mut id = String::with_capacity(path.len() + 1 + symbol.len());
    id.push_str(path);
    id.push(':');
    id.push_str(symbol);
    id
}

/// The dotted symbol path of a declaration: the names of its path parents, then its own.
fn symbol_path(facts: &FileFacts, decl: DeclId) -> String {
    let mut segments: Vec<&str> = Vec::new();
    let mut current = decl;
    for _ in 0..256 {
        if current == FILE_DECL {
            break;
        }
        let d = facts.decl(current);
        segments.push(facts.name(d.name));
        current = d.path_parent;
    }
    segments.reverse();
    segments.join(".")
}

fn is_type(kind: DeclKind) -> bool {
    matches!(kind, DeclKind::Interface | DeclKind::TypeAlias)
}

/// Assigns the nodes of a file.
pub(crate) fn assign(facts: &FileFacts) -> FileNodes {
    let mut by_path: HashMap<String, Vec<DeclId>> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    for (index, decl) in facts.decls.iter().enumerate() {
        if decl.node.is_none() {
            continue;
        }
        let id = u32::try_from(index).unwrap_or(u32::MAX);
        let path = if id == FILE_DECL {
            String::new()
        } else {
            symbol_path(facts, id)
        };
        let entry = by_path.entry(path.clone()).or_default();
        if entry.is_empty() {
            order.push(path);
        }
        entry.push(id);
    }
    let mut out = FileNodes {
        node_of: vec![OptIndex::NONE; facts.decls.len()],
        ..FileNodes::default()
    };
    let mut symbol = String::new();
    for path in order {
        let Some(decls) = by_path.remove(&path) else {
            continue;
        };
        for (suffix, group) in split(facts, decls) {
            symbol.clear();
            if !path.is_empty() {
                symbol.push_str(&path);
                symbol.push_str(&suffix);
            }
            out.push(&symbol, &representative_first(facts, group));
        }
    }
    out.symbols.shrink_to_fit();
    out.decls.shrink_to_fit();
    out.decl_ends.shrink_to_fit();
    out
}

/// Splits the declarations sharing one path into the nodes they make, each with the suffix
/// its ID gets.
fn split(facts: &FileFacts, decls: Vec<DeclId>) -> Vec<(String, Vec<DeclId>)> {
    if decls.len() == 1 {
        return vec![(String::new(), decls)];
    }
    let (types, values): (Vec<DeclId>, Vec<DeclId>) = decls
        .into_iter()
        .partition(|d| is_type(facts.decl(*d).kind));
    let mut out = Vec::new();
    let is_static = |d: &DeclId| facts.decl(*d).node_flags & NodeFlags::STATIC != 0;
    let (statics, instance): (Vec<DeclId>, Vec<DeclId>) = values.into_iter().partition(is_static);
    match (instance.is_empty(), statics.is_empty()) {
        (false, false) => {
            out.push((String::new(), instance));
            out.push(("~static".to_owned(), statics));
        }
        (false, true) => out.push((String::new(), instance)),
        (true, false) => out.push((String::new(), statics)),
        (true, true) => {}
    }
    if !types.is_empty() {
        if out.is_empty() {
            out.push((String::new(), types));
        } else {
            let (interfaces, aliases): (Vec<DeclId>, Vec<DeclId>) = types
                .into_iter()
                .partition(|d| facts.decl(*d).kind == DeclKind::Interface);
            if !interfaces.is_empty() {
                out.push(("~Interface".to_owned(), interfaces));
            }
            if !aliases.is_empty() {
                out.push(("~TypeAlias".to_owned(), aliases));
            }
        }
    }
    out
}

/// Orders a node's declarations so the one that describes it best comes first: a
/// declaration with a body before overload signatures.
fn representative_first(facts: &FileFacts, mut group: Vec<DeclId>) -> Vec<DeclId> {
    if let Some(pos) = group
        .iter()
        .position(|d| facts.decl(*d).flags & decl_flags::AMBIENT == 0)
    {
        let chosen = group.remove(pos);
        group.insert(0, chosen);
    }
    group
}
