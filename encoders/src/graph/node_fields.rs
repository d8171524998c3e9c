//! Facts every encoder derives the same way from a node.

use tsgraph_query::engine::NodeView;

/// The `limit` an agent passes to its Read tool with `offset` = start line: the line count.
pub(crate) fn line_count(node: &NodeView<'_>) -> u32 {
    node.end_line()
        .saturating_sub(node.start_line())
        .saturating_add(1)
}
