//! Position order: results are streamed sorted by file, then start line, then ID, so the
//! same question always gets the same answer, laid out like the code.

use tsgraph_engine::{NodeGuard, NodeKey, NodeView, Snapshot};

use crate::error::QueryError;
use crate::sink::NodeInfo;

/// A result node whose record is held by the snapshot.
pub(crate) type Held<'s> = (NodeKey, NodeGuard<'s>, NodeInfo);

/// A result node, validated and ready to stream.
pub(crate) struct Placed<'g> {
    pub(crate) key: NodeKey,
    pub(crate) view: NodeView<'g>,
    pub(crate) info: NodeInfo,
}

/// The record of `key`, which an edge or a caller named, so it must exist.
pub(crate) fn existing<'s>(
    snapshot: &'s Snapshot,
    key: NodeKey,
) -> Result<NodeGuard<'s>, QueryError> {
    snapshot.node(key)?.ok_or(QueryError::MissingNode(key.0))
}

/// Loads the record guard of every result node.
pub(crate) fn load<'s>(
    snapshot: &'s Snapshot,
    items: impl IntoIterator<Item = (NodeKey, NodeInfo)>,
) -> Result<Vec<Held<'s>>, QueryError> {
    items
        .into_iter()
        .map(|(key, info)| Ok((key, existing(snapshot, key)?, info)))
        .collect()
}

/// Validates every record once and returns the nodes in `held` order.
pub(crate) fn placed<'g>(held: &'g [Held<'_>]) -> Result<Vec<Placed<'g>>, QueryError> {
    held.iter()
        .map(|(key, guard, info)| {
            Ok(Placed {
                key: *key,
                view: guard.view()?,
                info: *info,
            })
        })
        .collect()
}

/// Validates every record once and returns the nodes in position order.
pub(crate) fn sorted<'g>(held: &'g [Held<'_>]) -> Result<Vec<Placed<'g>>, QueryError> {
    let mut nodes = placed(held)?;
    nodes.sort_by(|a, b| {
        (a.view.file(), a.view.start_line(), a.view.id()).cmp(&(
            b.view.file(),
            b.view.start_line(),
            b.view.id(),
        ))
    });
    Ok(nodes)
}

/// The value of `field` that every node shares, or `None` (also for no nodes).
pub(crate) fn uniform<'g>(
    nodes: &[Placed<'g>],
    field: impl Fn(&NodeView<'g>) -> &'g str,
) -> Option<&'g str> {
    let first = field(&nodes.first()?.view);
    nodes
        .iter()
        .all(|n| field(&n.view) == first)
        .then_some(first)
}
