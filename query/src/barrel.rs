//! A name asked for in a file that does not declare it but re-exports (or imports) it — a
//! barrel such as `src/index.ts` with `export * from "./db/user"` or `export { UserService }
//! from "./services/UserService"` — resolves through the re-export to the definition, as
//! ts-graph-mcp's lookup does.
//!
//! The walk follows the file's IMPORTS edges that can bring the name in: those naming it,
//! those naming `default` (a default re-exported under the asked name — then only a default
//! export counts; the store keeps the imported name, not the local alias) and those naming
//! nothing (`export *`; a side-effect `import "./x"` is stored the same way and is followed
//! too), through further barrels. Only top-level exported declarations of the name count;
//! when the walk reaches several, they are listed, never one picked.

use rustc_hash::FxHashMap;
use tsgraph_engine::{EdgeKind, NodeKey, Snapshot};

use crate::error::QueryError;
use crate::symbols::{FileMatch, resolve_file};

/// How many re-export hops are followed at most (a barrel of barrels of barrels…).
const MAX_HOPS: u32 = 8;

/// Of `declared` (declarations of the asked name elsewhere, by the ID of their file), those
/// the file `file` can bring in through its imports and re-exports. Empty when `file` names
/// no single indexed file or brings in none of them; several when it can reach several —
/// the store keeps an import's imported name, not its local alias, so `import { alpha as
/// other }` cannot be told from a re-export of `alpha`, and the caller lists them rather
/// than pick one.
pub(crate) fn through_reexports<T: Clone>(
    snapshot: &Snapshot,
    file: &str,
    name: &str,
    declared: &[Declared<T>],
) -> Result<Vec<T>, QueryError> {
    let FileMatch::Found(path) = resolve_file(snapshot, file)? else {
        return Ok(Vec::new());
    };
    let Some(start) = snapshot.key_of(&path)? else {
        return Ok(Vec::new());
    };
    let first = name.split('.').next().unwrap_or(name);
    // Each file reached, with whether only a `default` import reached it (then only its
    // default export can be the one brought in).
    let mut reached: FxHashMap<NodeKey, bool> = FxHashMap::default();
    let mut frontier = vec![start];
    for _ in 0..MAX_HOPS {
        let mut next = Vec::new();
        for &barrel in &frontier {
            let list = snapshot.out_edges(barrel)?;
            for edge in list.edges()? {
                if edge.kind() != EdgeKind::Imports || edge.other() == start {
                    continue;
                }
                let view = edge.view()?;
                let everything = view.names().len() == 0;
                let by_name = view.names().any(|n| n == first);
                let by_default = view.names().any(|n| n == "default");
                if !(everything || by_name || by_default) {
                    continue;
                }
                let default_only = !everything && !by_name;
                match reached.get_mut(&edge.other()) {
                    Some(only) => *only &= default_only,
                    None => {
                        reached.insert(edge.other(), default_only);
                        next.push(edge.other());
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    let mut found = Vec::new();
    for (&file_key, &default_only) in &reached {
        let Some(guard) = snapshot.node(file_key)? else {
            continue;
        };
        let view = guard.view()?;
        found.extend(
            declared
                .iter()
                .filter(|d| d.file == view.id() && (!default_only || d.default_export))
                .map(|d| d.value.clone()),
        );
    }
    Ok(found)
}

/// A declaration a barrel may re-export: a top-level exported symbol of the asked name.
pub(crate) struct Declared<T> {
    /// Its file.
    pub(crate) file: String,
    /// Whether it is its file's default export.
    pub(crate) default_export: bool,
    /// What the caller gets back.
    pub(crate) value: T,
}
