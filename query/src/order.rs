//! Loading the records a query names.

use tsgraph_engine::{NodeGuard, NodeKey, Snapshot};

use crate::error::QueryError;

/// The record of `key`, which an edge or a caller named, so it must exist.
pub(crate) fn existing<'s>(
    snapshot: &'s Snapshot,
    key: NodeKey,
) -> Result<NodeGuard<'s>, QueryError> {
    snapshot.node(key)?.ok_or(QueryError::MissingNode(key.0))
}
