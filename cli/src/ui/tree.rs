//! The page's call tree: a symbol's callers (or callees) one hop per level, each node with
//! how many it has of its own (the count of its branch, expanded or not), the lines of its
//! calls and whether the call only may reach it (dispatch to an override or
//! implementation). Unlike the `callers` query's answer, a node reached along several
//! branches appears under each: a tree shows who calls whom, not a shortest-path order.
//!
//! Bounded three ways, each said in the answer: at most [`MAX_DEPTH`] levels at once (the
//! page asks again below a node to go deeper), at most `limit` children per node (`total`
//! tells how many there are), and at most [`MAX_TREE_NODES`] nodes in all (`cut`).

use std::collections::HashMap;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Map, Value, json};
use tsgraph::Error;
use tsgraph::args::ArgError;
use tsgraph::navigate::{Navigator, Symbol, Use, Uses};

/// The most levels one answer expands.
pub(crate) const MAX_DEPTH: u32 = 3;
/// The most children listed under one node.
const MAX_LIMIT: u32 = 10_000;
/// The most nodes one answer holds.
pub(crate) const MAX_TREE_NODES: usize = 20_000;

/// Which way the tree grows.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Direction {
    /// Who calls the symbol.
    #[default]
    Callers,
    /// What the symbol calls.
    Callees,
}

/// The tree's question, from the page's query string.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct TreeArgs {
    /// The root: a node ID or a name.
    pub(crate) symbol: String,
    /// callers (default) or callees.
    pub(crate) direction: Option<Direction>,
    /// Levels expanded, 1 to [`MAX_DEPTH`] (default 2).
    pub(crate) depth: Option<u32>,
    /// Children listed per node at most, 1 to 10000 (default 1000).
    pub(crate) limit: Option<u32>,
}

/// The bounds of one tree, and what it read once (a symbol reached along several branches
/// is read once however often it is listed).
pub(crate) struct Bounds {
    direction: Direction,
    depth: u32,
    limit: usize,
    /// Nodes still allowed.
    room: usize,
    /// Set when `room` ran out.
    cut: bool,
    /// One hop from each symbol expanded (at most `limit` listed).
    hops: HashMap<String, Arc<Uses>>,
    /// The hop counts of symbols not expanded.
    counts: HashMap<String, usize>,
}

impl TreeArgs {
    /// The bounds asked for; a value out of range is refused, naming the argument.
    pub(crate) fn bounds(&self) -> Result<Bounds, ArgError> {
        if self.symbol.trim().is_empty() {
            return Err(ArgError("symbol must not be empty".into()));
        }
        let depth = self.depth.unwrap_or(2);
        if !(1..=MAX_DEPTH).contains(&depth) {
            return Err(ArgError(format!(
                "depth must be 1 to {MAX_DEPTH}, not {depth} (ask again below a node to go deeper)"
            )));
        }
        let limit = self.limit.unwrap_or(1_000);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(ArgError(format!(
                "limit must be 1 to {MAX_LIMIT}, not {limit}"
            )));
        }
        Ok(Bounds {
            direction: self.direction.unwrap_or_default(),
            depth,
            limit: limit as usize,
            room: MAX_TREE_NODES,
            cut: false,
            hops: HashMap::new(),
            counts: HashMap::new(),
        })
    }
}

/// The tree below `root` (an existing node's ID) as JSON:
/// `{direction, depth, limit, nodes, cut, root}`, each node
/// `{id, name, kind, file, startLine, endLine, signature, total, children?}` and, below the
/// root, the edge to its parent: `{edge, lines, mayCall}`; `cycle: true` marks a node
/// already on the way up (not expanded again).
pub(crate) fn call_tree(
    nav: &Navigator<'_>,
    root: &Symbol,
    mut bounds: Bounds,
) -> Result<Value, Error> {
    let mut ancestors = vec![root.id.clone()];
    bounds.room = bounds.room.saturating_sub(1);
    let root_json = Value::Object(expand(nav, root, &mut ancestors, 1, &mut bounds)?);
    Ok(json!({
        "direction": match bounds.direction { Direction::Callers => "callers", Direction::Callees => "callees" },
        "depth": bounds.depth,
        "limit": bounds.limit,
        "nodes": MAX_TREE_NODES - bounds.room,
        "cut": bounds.cut.then_some(format!("the tree reached {MAX_TREE_NODES} nodes; expand a branch to see the rest")),
        "root": root_json,
    }))
}

/// `symbol` with its children down to the bounds' depth (`level` is the children's).
fn expand(
    nav: &Navigator<'_>,
    symbol: &Symbol,
    ancestors: &mut Vec<String>,
    level: u32,
    bounds: &mut Bounds,
) -> Result<Map<String, Value>, Error> {
    let mut node = symbol_json(symbol);
    if level > bounds.depth || bounds.room == 0 {
        let total = bounds.count(nav, &symbol.id)?;
        // Within the depth asked for, a branch left unlisted for want of room is a cut.
        if level <= bounds.depth && total > 0 {
            bounds.cut = true;
        }
        node.insert("total".into(), json!(total));
        return Ok(node);
    }
    let hop = bounds.hop(nav, &symbol.id)?;
    let listed = &hop.uses[..hop.uses.len().min(bounds.room)];
    if listed.len() < hop.uses.len() {
        bounds.cut = true;
    }
    bounds.room -= listed.len();
    node.insert("total".into(), json!(hop.total));
    let mut children = Vec::with_capacity(listed.len());
    for used in listed {
        let mut child = if ancestors.contains(&used.symbol.id) {
            let mut child = symbol_json(&used.symbol);
            child.insert("cycle".into(), json!(true));
            child
        } else {
            ancestors.push(used.symbol.id.clone());
            let child = expand(nav, &used.symbol, ancestors, level + 1, bounds)?;
            ancestors.pop();
            child
        };
        add_edge(&mut child, used);
        children.push(Value::Object(child));
    }
    node.insert("children".into(), Value::Array(children));
    Ok(node)
}

impl Bounds {
    /// One hop from `id`, read once per tree.
    fn hop(&mut self, nav: &Navigator<'_>, id: &str) -> Result<Arc<Uses>, Error> {
        if let Some(hop) = self.hops.get(id) {
            return Ok(Arc::clone(hop));
        }
        let hop = Arc::new(match self.direction {
            Direction::Callers => nav.calls_in(id, self.limit)?,
            Direction::Callees => nav.calls_out(id, self.limit)?,
        });
        self.hops.insert(id.to_owned(), Arc::clone(&hop));
        Ok(hop)
    }

    /// How many a hop from `id` holds, counted once per tree.
    fn count(&mut self, nav: &Navigator<'_>, id: &str) -> Result<usize, Error> {
        if let Some(hop) = self.hops.get(id) {
            return Ok(hop.total);
        }
        if let Some(count) = self.counts.get(id) {
            return Ok(*count);
        }
        let count = match self.direction {
            Direction::Callers => nav.count_calls_in(id)?,
            Direction::Callees => nav.count_calls_out(id)?,
        };
        self.counts.insert(id.to_owned(), count);
        Ok(count)
    }
}

fn symbol_json(symbol: &Symbol) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("id".into(), json!(symbol.id));
    map.insert("name".into(), json!(symbol.name));
    map.insert("kind".into(), json!(symbol.kind.as_str()));
    map.insert("file".into(), json!(symbol.file));
    map.insert("startLine".into(), json!(symbol.lines.0));
    map.insert("endLine".into(), json!(symbol.lines.1));
    map.insert("signature".into(), json!(symbol.signature));
    map
}

fn add_edge(node: &mut Map<String, Value>, used: &Use) {
    node.insert("edge".into(), json!(used.kind.as_str()));
    node.insert("lines".into(), json!(used.lines));
    if used.may_call {
        node.insert("mayCall".into(), json!(true));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tsgraph::Project;

    /// `hub` has five callers in `a.ts`; `one` calls `two` calls `hub`; `again` calls itself.
    const SOURCE: &str = "export function hub(): void {}\n\
export function c1(): void { hub(); }\n\
export function c2(): void { hub(); }\n\
export function c3(): void { hub(); }\n\
export function c4(): void { hub(); }\n\
export function two(): void { hub(); }\n\
export function one(): void { two(); }\n\
export function again(): void { again(); hub(); }\n";

    fn tree_of(symbol: &str, args: serde_json::Value, room: Option<usize>) -> Value {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("a.ts"), SOURCE).expect("write");
        let project = Project::open(dir.path(), None).expect("open");
        project.index(&Default::default()).expect("index");
        let snapshot = project.snapshot().expect("snapshot");
        let nav = Navigator::new(&snapshot);
        let root = nav.symbol(symbol).expect("read").expect("symbol");
        let mut args = args;
        args["symbol"] = json!(symbol);
        let args: TreeArgs = serde_json::from_value(args).expect("args");
        let mut bounds = args.bounds().expect("bounds");
        if let Some(room) = room {
            bounds.room = room;
        }
        call_tree(&nav, &root, bounds).expect("tree")
    }

    fn ids(node: &Value) -> Vec<&str> {
        node["children"]
            .as_array()
            .map(|children| children.iter().filter_map(|c| c["id"].as_str()).collect())
            .unwrap_or_default()
    }

    #[test]
    fn two_levels_with_each_branch_counted() {
        let tree = tree_of("a.ts:hub", json!({}), None);
        let root = &tree["root"];
        assert_eq!(root["total"], 6);
        assert_eq!(
            ids(root),
            [
                "a.ts:c1",
                "a.ts:c2",
                "a.ts:c3",
                "a.ts:c4",
                "a.ts:two",
                "a.ts:again"
            ]
        );
        let two = &root["children"][4];
        assert_eq!(ids(two), ["a.ts:one"]);
        assert_eq!(two["lines"], json!([6]));
        // The third level is counted, not listed.
        let one = &two["children"][0];
        assert_eq!(one["total"], 0);
        assert!(one.get("children").is_none());
        assert_eq!(tree["cut"], Value::Null);
    }

    #[test]
    fn a_node_already_on_the_way_up_is_marked_and_not_expanded() {
        let tree = tree_of("a.ts:again", json!({"depth": 3}), None);
        let child = &tree["root"]["children"][0];
        assert_eq!(child["id"], "a.ts:again");
        assert_eq!(child["cycle"], true);
        assert!(child.get("children").is_none());
    }

    #[test]
    fn callees_grow_the_other_way() {
        let tree = tree_of("a.ts:one", json!({"direction": "callees"}), None);
        assert_eq!(ids(&tree["root"]), ["a.ts:two"]);
        assert_eq!(ids(&tree["root"]["children"][0]), ["a.ts:hub"]);
    }

    #[test]
    fn the_limit_lists_fewer_and_the_total_says_how_many() {
        let tree = tree_of("a.ts:hub", json!({"limit": 2, "depth": 1}), None);
        assert_eq!(ids(&tree["root"]).len(), 2);
        assert_eq!(tree["root"]["total"], 6);
        assert_eq!(
            tree["cut"],
            Value::Null,
            "a per-node limit is not a cut tree"
        );
    }

    #[test]
    fn the_node_bound_cuts_the_tree_and_says_so() {
        // With 4 places, the root takes one: three are left for its six callers. With 7,
        // there is room for the callers exactly: the callers of `two` are what is cut.
        for (room, listed) in [(4, 3), (7, 6)] {
            let tree = tree_of("a.ts:hub", json!({}), Some(room));
            assert_eq!(ids(&tree["root"]).len(), listed, "room {room}");
            assert!(
                tree["cut"]
                    .as_str()
                    .is_some_and(|why| why.contains("nodes")),
                "room {room}"
            );
        }
    }

    #[test]
    fn bounds_out_of_range_are_refused_by_name() {
        for (args, word) in [
            (json!({"symbol": "x", "depth": 0}), "depth"),
            (json!({"symbol": "x", "depth": 4}), "depth"),
            (json!({"symbol": "x", "limit": 0}), "limit"),
            (json!({"symbol": "x", "limit": 10_001}), "limit"),
        ] {
            let args: TreeArgs = serde_json::from_value(args).expect("args");
            let err = args.bounds().err().expect("refused");
            assert!(err.0.starts_with(word), "{}", err.0);
        }
        let unknown = serde_json::from_value::<TreeArgs>(json!({"symbol": "x", "dept": 1}));
        assert!(unknown.is_err());
    }
}
