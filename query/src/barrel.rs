//! A name asked for in a file that does not declare it but re-exports (or imports) it — a
//! barrel such as `src/index.ts` with `export * from "./db/user"` or `export { UserService }
//! from "./services/UserService"` — resolves through the re-export to the definition, as
//! ts-graph-mcp's lookup does.
//!
//! The walk follows the file's IMPORTS edges that can bring the name in: those naming it,
//! those naming `default` (a default re-exported under the asked name; the store keeps the
//! imported name, not the local alias) and those naming nothing (`export *`; a side-effect
//! `import "./x"` is stored the same way and is followed too), breadth-first through further
//! barrels. The nearest files declaring the name win; several at that
//! distance are ambiguous.

use rustc_hash::FxHashSet;
use tsgraph_engine::{EdgeKind, NodeKey, Snapshot};

use crate::error::QueryError;
use crate::symbols::{FileMatch, resolve_file};

/// How many re-export hops are followed at most (a barrel of barrels of barrels…).
const MAX_HOPS: u32 = 8;

/// Of `declared` (the files declaring the asked name, with a node each), the entries in the
/// files nearest to the barrel `file` through its re-exports; empty when `file` names no
/// single indexed file or brings in none of them.
pub(crate) fn through_reexports<T: Clone>(
    snapshot: &Snapshot,
    file: &str,
    name: &str,
    declared: &[(String, T)],
) -> Result<Vec<T>, QueryError> {
    let FileMatch::Found(path) = resolve_file(snapshot, file)? else {
        return Ok(Vec::new());
    };
    let Some(start) = snapshot.key_of(&path)? else {
        return Ok(Vec::new());
    };
    let first = name.split('.').next().unwrap_or(name);
    let mut seen: FxHashSet<NodeKey> = FxHashSet::from_iter([start]);
    let mut frontier = vec![start];
    for _ in 0..MAX_HOPS {
        let mut next = Vec::new();
        for &barrel in &frontier {
            let list = snapshot.out_edges(barrel)?;
            for edge in list.edges()? {
                if edge.kind() != EdgeKind::Imports || seen.contains(&edge.other()) {
                    continue;
                }
                let view = edge.view()?;
                let brings_in =
                    view.names().len() == 0 || view.names().any(|n| n == first || n == "default");
                if brings_in {
                    seen.insert(edge.other());
                    next.push(edge.other());
                }
            }
        }
        let mut found = Vec::new();
        for &file_key in &next {
            let Some(guard) = snapshot.node(file_key)? else {
                continue;
            };
            let view = guard.view()?;
            found.extend(
                declared
                    .iter()
                    .filter(|(declaring, _)| declaring == view.id())
                    .map(|(_, value)| value.clone()),
            );
        }
        if !found.is_empty() || next.is_empty() {
            return Ok(found);
        }
        frontier = next;
    }
    Ok(Vec::new())
}
