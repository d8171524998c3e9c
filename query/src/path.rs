//! Shortest paths: a bidirectional breadth-first search over the edges along which control
//! or data flows, and Yen's algorithm on top of it for the k shortest distinct paths.
//!
//! The path graph: CALLS (except the `dispatch` edges a call through an interface member
//! adds to each implementation — the path goes through the interface member instead),
//! REFERENCES, EXTENDS, INCLUDES, IMPLEMENTS from a class to its interface, and the member
//! IMPLEMENTS link walked backwards, from an interface member to the class member that
//! implements it.

use tsgraph_engine::NodeKey;

use crate::Query;
use crate::emit::{Edges, Emission, Item, Order, Section, emit};
use crate::error::QueryError;
use crate::header::{Header, PathQuestion, Question};
use crate::kinds::EdgeKinds;
use crate::order::existing;
use crate::plan::path_view::PathView;
use crate::plan::paths::{Search, k_shortest};
use crate::plan::view::GraphView;
use crate::plan::{Explain, Plan, Strategy};
use crate::sink::{Direction, QueryKind, ResultSink, Summary};

/// Limits of a path search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathOptions {
    /// Longest path searched, in hops (default 20).
    pub max_depth: u32,
    /// Nodes visited at most by one search (default 100 000); past it the search gives up
    /// and says it was truncated.
    pub max_nodes: usize,
    /// How many shortest distinct paths (default 1, at most [`PathOptions::MAX_K`]).
    pub k: usize,
    /// The edge kinds followed; `None` for the default path graph.
    pub edge_kinds: Option<EdgeKinds>,
}

impl PathOptions {
    /// The most paths one query returns.
    pub const MAX_K: usize = 20;
}

impl Default for PathOptions {
    fn default() -> Self {
        PathOptions {
            max_depth: 20,
            max_nodes: 100_000,
            k: 1,
            edge_kinds: None,
        }
    }
}

impl Query<'_> {
    /// [`Query::path`] between symbols as a user names them: a class (or interface)
    /// endpoint with no path through itself either way stands for its method, as
    /// ts-graph-mcp's lookup has it — the one method when it has one (searched again with
    /// it), [`QueryError::MethodMeant`] listing them when several.
    pub fn symbol_path(
        &self,
        from: NodeKey,
        to: NodeKey,
        options: &PathOptions,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        self.answer_path(from, to, options, true, sink)
    }

    /// The methods of `key` when it is a class or interface that has some.
    fn method_meant(&self, key: NodeKey) -> Result<Option<Vec<NodeKey>>, QueryError> {
        let guard = existing(self.snapshot(), key)?;
        if !matches!(
            guard.view()?.kind(),
            tsgraph_engine::NodeKind::Class | tsgraph_engine::NodeKind::Interface
        ) {
            return Ok(None);
        }
        let methods = crate::traverse::methods_of(self.snapshot(), key)?;
        Ok((!methods.is_empty()).then_some(methods))
    }

    /// The shortest path from `from` to `to` (or the `k` shortest distinct ones) over the
    /// path graph (see the module docs), each hop with its edge kind. Each path is one
    /// section: its nodes in path order (depth = position), then its edges.
    pub fn path(
        &self,
        from: NodeKey,
        to: NodeKey,
        options: &PathOptions,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        self.answer_path(from, to, options, false, sink)
    }

    /// [`Query::path`]; with `methods_meant`, a class endpoint without a path either way is
    /// replaced by its method before anything is emitted ([`Query::symbol_path`]).
    fn answer_path(
        &self,
        from: NodeKey,
        to: NodeKey,
        options: &PathOptions,
        methods_meant: bool,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        let snapshot = self.snapshot();
        let kinds = options.edge_kinds.unwrap_or(EdgeKinds::PATH);
        let k = options.k.clamp(1, PathOptions::MAX_K);
        let plan = Plan {
            kind: QueryKind::Path,
            strategy: match k {
                1 => Strategy::Bidirectional,
                k => Strategy::KShortest { k },
            },
            direction: Direction::Out,
            edge_kinds: kinds,
            max_depth: options.max_depth,
            max_nodes: options.max_nodes,
            walks: 1,
        };
        let view = GraphView::new(snapshot);
        let graph = PathView::new(&view, kinds);
        let mut search = Search {
            max_depth: options.max_depth,
            max_nodes: options.max_nodes,
            ..Search::default()
        };
        let mut paths = k_shortest(&graph, from, to, k, &mut search);
        let ran_back = paths.is_empty() && from != to && !search.truncated && !search.depth_cut;
        // Asked the wrong way round (ts-graph-mcp's lookup semantics): no path from `from` to
        // `to`, but one from `to` to `from` is answered, labelled as reversed.
        // Only when the search the way asked was complete: one cut by a bound says so instead.
        let reversed = ran_back && {
            let mut back = Search {
                visited: search.visited,
                ..search
            };
            back.truncated = false;
            back.depth_cut = false;
            paths = k_shortest(&graph, to, from, k, &mut back);
            let found = !paths.is_empty();
            if found {
                search = back;
            } else {
                search.visited = back.visited;
            }
            found
        };
        view.check()?;
        // Nothing either way, and no bound cut the search: a class endpoint stands for its
        // method, searched again (once: methods are no classes).
        if methods_meant && paths.is_empty() && !search.truncated && !search.depth_cut {
            let start = endpoint(snapshot, from, self.method_meant(from)?)?;
            let end = endpoint(snapshot, to, self.method_meant(to)?)?;
            if (start, end) != (from, to) {
                return self.answer_path(start, end, options, false, sink);
            }
        }
        let (start, end) = if reversed { (to, from) } else { (from, to) };
        let sections: Vec<Section> = paths
            .into_iter()
            .map(|path| Section {
                target: None,
                items: path
                    .nodes
                    .iter()
                    .enumerate()
                    .map(|(position, key)| Item {
                        depth: u32::try_from(position).unwrap_or(u32::MAX),
                        // Reached through a may-call hop.
                        may: position
                            .checked_sub(1)
                            .and_then(|hop| path.hops.get(hop))
                            .is_some_and(|hop| hop.may),
                        ..Item::plain(*key)
                    })
                    .collect(),
                hops: path.hops,
                unresolved: 0,
                links: Vec::new(),
                change: None,
            })
            .collect();
        let start_guard = existing(snapshot, start)?;
        let end_guard = existing(snapshot, end)?;
        let header = Header::new(Question::Path(PathQuestion {
            from: start_guard.view()?,
            to: end_guard.view()?,
            reversed,
            max_depth: options.max_depth,
            edge_kinds: kinds,
        }));
        let stop = search.stop(sections.len(), k);
        let summary = Summary {
            partial: false,
            truncated: search.truncated && sections.is_empty(),
            limit: options.max_nodes,
            found: !sections.is_empty(),
            stopped: false,
            stop,
            explain: Some(Explain {
                plan: Plan {
                    walks: if ran_back { 2 } else { 1 },
                    ..plan
                },
                lists_read: view.lists_read(),
                nodes_reached: search.visited,
                stop,
            }),
        };
        emit(
            self,
            Emission {
                header,
                sections: &sections,
                order: Order::Given,
                edges: Edges::Hops,
                summary,
            },
            sink,
        )
    }
}

/// The node a path endpoint stands for: itself, or the one method of a class (`methods`);
/// a class with several is [`QueryError::MethodMeant`].
fn endpoint(
    snapshot: &tsgraph_engine::Snapshot,
    key: NodeKey,
    methods: Option<Vec<NodeKey>>,
) -> Result<NodeKey, QueryError> {
    match methods.as_deref() {
        None => Ok(key),
        Some([only]) => Ok(*only),
        Some(several) => {
            let class = existing(snapshot, key)?.view()?.id().to_owned();
            let mut listed = Vec::new();
            for &method in several.iter().take(20) {
                listed.extend(crate::symbol::candidate(snapshot, method)?);
            }
            Err(QueryError::MethodMeant {
                class,
                methods: listed,
            })
        }
    }
}
