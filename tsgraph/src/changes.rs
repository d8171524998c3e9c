//! What an update did to the graph, as JSON for front ends that report it as it happens (the
//! Node addon's `delta` event, a web page's live views): the files rewritten, and the nodes
//! and edges added, removed and changed, named by their IDs.

use serde_json::{Value, json};
use tsgraph_engine::{EdgeSpec, GraphDelta, NodeRecord};
use tsgraph_indexer::{EditOutcome, SyncSummary};

use crate::watch::WatchUpdate;

/// An edit's or a refresh's outcome: `{"kind": "edit", "relinked": [...], "timeMs": n,
/// "nodesAdded": [node], "nodesRemoved": [node], "nodesChanged": [node], "edgesAdded":
/// [edge], "edgesRemoved": [edge], "edgesChanged": [edge]}`, where a node is `{"id", "kind",
/// "name", "file", "line"}` and an edge `{"source", "kind", "target"}`.
///
/// ```
/// use tsgraph::changes::outcome_json;
/// use tsgraph::EditOutcome;
///
/// let outcome = EditOutcome { delta: Default::default(), relinked: vec!["a.ts".into()], time: Default::default() };
/// assert_eq!(outcome_json(&outcome)["relinked"][0], "a.ts");
/// ```
pub fn outcome_json(outcome: &EditOutcome) -> Value {
    let mut value = delta_json(&outcome.delta);
    value["kind"] = json!("edit");
    value["relinked"] = json!(outcome.relinked);
    value["timeMs"] = json!(millis(outcome.time));
    value
}

/// A sync's summary: `{"kind": "sync", "checked", "added", "changed", "removed",
/// "relinked", "full", "timeMs"}` (`full`: whether the whole project was indexed again). A
/// sync reports files, not nodes and edges: it may rewrite the whole graph.
pub fn sync_json(summary: &SyncSummary) -> Value {
    json!({
        "kind": "sync",
        "checked": summary.checked,
        "added": summary.added,
        "changed": summary.changed,
        "removed": summary.removed,
        "relinked": summary.relinked,
        "full": summary.full.is_some(),
        "timeMs": millis(summary.time),
    })
}

/// A watcher's update: an edit outcome with the changed `paths`, a sync with its `because`
/// paths, or `{"kind": "failed", "message", "timeMs"}` (the store keeps the graph of before).
pub fn watch_update_json(update: &WatchUpdate) -> Value {
    match update {
        WatchUpdate::Files { paths, outcome } => {
            let mut value = outcome_json(outcome);
            value["paths"] = json!(paths);
            value
        }
        WatchUpdate::Synced { summary, because } => {
            let mut value = sync_json(summary);
            value["because"] = json!(because);
            value
        }
        WatchUpdate::Failed { error, time } => json!({
            "kind": "failed",
            "message": error.to_string(),
            "timeMs": millis(*time),
        }),
    }
}

fn delta_json(delta: &GraphDelta) -> Value {
    json!({
        "nodesAdded": nodes(&delta.nodes_added),
        "nodesRemoved": nodes(&delta.nodes_removed),
        "nodesChanged": nodes(&delta.nodes_changed),
        "edgesAdded": edges(&delta.edges_added),
        "edgesRemoved": edges(&delta.edges_removed),
        "edgesChanged": edges(&delta.edges_changed),
    })
}

fn nodes(nodes: &[NodeRecord]) -> Vec<Value> {
    nodes
        .iter()
        .map(|node| {
            json!({
                "id": node.id,
                "kind": node.node_kind().as_str(),
                "name": node.name,
                "file": node.file,
                "line": node.start_line,
            })
        })
        .collect()
}

fn edges(edges: &[EdgeSpec]) -> Vec<Value> {
    edges
        .iter()
        .map(|edge| json!({"source": edge.source, "kind": edge.kind.as_str(), "target": edge.target}))
        .collect()
}

/// Milliseconds with a fraction (an edit takes a few).
fn millis(time: std::time::Duration) -> f64 {
    (time.as_secs_f64() * 1_000_000.0).round() / 1_000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use tsgraph_engine::{EdgeKind, NodeKind};

    #[test]
    fn an_outcome_names_nodes_and_edges_by_id_and_kind() {
        let node = NodeRecord::new("a.ts:f", NodeKind::Function, "f", "a.ts", 3, 5);
        let edge = EdgeSpec::new("a.ts:f", "b.ts:g", EdgeKind::Calls);
        let outcome = EditOutcome {
            delta: GraphDelta {
                nodes_added: vec![node],
                edges_removed: vec![edge],
                ..GraphDelta::default()
            },
            relinked: vec!["a.ts".into()],
            time: std::time::Duration::from_micros(2_500),
        };
        let value = outcome_json(&outcome);
        assert_eq!(
            value["nodesAdded"][0],
            json!({"id": "a.ts:f", "kind": "Function", "name": "f", "file": "a.ts", "line": 3})
        );
        assert_eq!(
            value["edgesRemoved"][0],
            json!({"source": "a.ts:f", "kind": "CALLS", "target": "b.ts:g"})
        );
        assert_eq!(value["timeMs"], json!(2.5));
        assert_eq!(value["edgesAdded"], json!([]));
    }
}
