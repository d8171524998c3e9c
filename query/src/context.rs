//! Scratch a query reuses: the containers a walk and its emission fill — the visited set,
//! the frontier, the results, the maps of depths, parents and ranks, the edges between
//! results — are kept between queries with their capacity, so a query run again with the
//! same context allocates a small, fixed number of times whatever the size of its answer.
//! (The containers that hold views of node records, which borrow the snapshot, cannot be
//! kept past it: they are sized once, from the result count, instead of grown.)

use std::cell::RefCell;

use rustc_hash::{FxHashMap, FxHashSet};
use tsgraph_engine::{EdgeKind, NodeKey};

use crate::emit::{Between, Item};

/// Scratch reused by the queries it is given to (see [`crate::Query::with_context`]). One
/// context serves one query at a time; keep one per thread or per editor session. A query
/// without one ([`crate::Query::new`]) makes its own.
///
/// ```
/// use tsgraph_engine::{EdgeKind, EdgeSpec, GraphBatch, NodeKind, NodeRecord, Store};
/// use tsgraph_query::{CollectSink, Query, QueryContext, TraversalOptions};
///
/// let dir = tempfile::tempdir().unwrap();
/// let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
/// let mut batch = GraphBatch::default();
/// batch.add_file("a.ts", 0);
/// batch.nodes.push(NodeRecord::new("a.ts:main", NodeKind::Function, "main", "a.ts", 1, 3));
/// batch.nodes.push(NodeRecord::new("a.ts:run", NodeKind::Function, "run", "a.ts", 5, 9));
/// batch.edges.push(EdgeSpec::new("a.ts:main", "a.ts:run", EdgeKind::Calls));
/// store.replace_all(&batch).unwrap();
///
/// let snapshot = store.snapshot().unwrap();
/// let run = snapshot.key_of("a.ts:run").unwrap().unwrap();
/// let context = QueryContext::default();
/// for _ in 0..3 {
///     // Each run reuses the containers the one before it grew.
///     let mut sink = CollectSink::default();
///     Query::with_context(&snapshot, &context)
///         .callers(run, &TraversalOptions::default(), &mut sink)
///         .unwrap();
///     assert_eq!(sink.nodes, vec![("a.ts:main".to_owned(), 1)]);
/// }
/// ```
#[derive(Default)]
pub struct QueryContext {
    scratch: RefCell<Scratch>,
}

impl std::fmt::Debug for QueryContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueryContext").finish_non_exhaustive()
    }
}

/// The containers a context keeps. A query takes one out, fills it and puts it back empty
/// ([`QueryContext::take`], [`QueryContext::put`]), so no borrow of the context is held
/// while the query runs (an emission inside a walk takes others).
#[derive(Default)]
pub(crate) struct Scratch {
    /// Nodes a walk has reached.
    pub(crate) visited: FxHashSet<NodeKey>,
    /// A walk's current and next levels.
    pub(crate) frontier: Vec<NodeKey>,
    pub(crate) next: Vec<NodeKey>,
    /// A walk's results, in discovery order.
    pub(crate) items: Vec<Item>,
    /// Nodes an emission names, each once, and the set that keeps them once.
    pub(crate) keys: Vec<NodeKey>,
    pub(crate) named: FxHashSet<NodeKey>,
    /// Where each named node's record sits among the loaded ones.
    pub(crate) slots: FxHashMap<NodeKey, u32>,
    /// Each result's smallest depth.
    pub(crate) depths: FxHashMap<NodeKey, u32>,
    /// Each result's parent (the node it was reached from).
    pub(crate) parents: FxHashMap<NodeKey, NodeKey>,
    /// Each result's place in position order, and the edges between results by it.
    pub(crate) ranks: FxHashMap<NodeKey, usize>,
    pub(crate) ranked_edges: Vec<(usize, EdgeKind, usize, Between)>,
    /// The edges between results, sorted.
    pub(crate) between: Vec<Between>,
}

impl QueryContext {
    /// Takes the container `field` picks out of the scratch, empty and with the capacity it
    /// grew to before.
    pub(crate) fn take<T: Default>(&self, field: impl FnOnce(&mut Scratch) -> &mut T) -> T {
        std::mem::take(field(&mut self.scratch.borrow_mut()))
    }

    /// Puts `value` back as the container `field` picks, emptied, for the next query. One
    /// grown past [`KEPT_CAPACITY`] by an unusually large query is dropped instead: emptying
    /// a hash map costs in proportion to its capacity, which every later query would pay.
    pub(crate) fn put<T: Reusable>(&self, field: impl FnOnce(&mut Scratch) -> &mut T, value: T) {
        if value.capacity() > KEPT_CAPACITY {
            return;
        }
        let mut value = value;
        value.empty();
        *field(&mut self.scratch.borrow_mut()) = value;
    }
}

/// The largest container a context keeps, in entries: room for a walk at the default node
/// limit (10,000) and the records it names.
pub(crate) const KEPT_CAPACITY: usize = 1 << 16;

/// A container that can be emptied and keep its capacity.
pub(crate) trait Reusable {
    fn empty(&mut self);
    fn capacity(&self) -> usize;
}

impl<T> Reusable for Vec<T> {
    fn empty(&mut self) {
        self.clear();
    }
    fn capacity(&self) -> usize {
        Vec::capacity(self)
    }
}

impl<K, V, S> Reusable for std::collections::HashMap<K, V, S> {
    fn empty(&mut self) {
        self.clear();
    }
    fn capacity(&self) -> usize {
        std::collections::HashMap::capacity(self)
    }
}

impl<K, S> Reusable for std::collections::HashSet<K, S> {
    fn empty(&mut self) {
        self.clear();
    }
    fn capacity(&self) -> usize {
        std::collections::HashSet::capacity(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_container_put_back_comes_out_empty_with_its_capacity() {
        let context = QueryContext::default();
        let mut keys = context.take(|s| &mut s.keys);
        keys.extend((0..100).map(NodeKey));
        let capacity = keys.capacity();
        context.put(|s| &mut s.keys, keys);
        let again = context.take(|s| &mut s.keys);
        assert!(again.is_empty());
        assert_eq!(again.capacity(), capacity);
        // Taken and not put back: the next query starts from nothing, and still works.
        assert_eq!(context.take(|s| &mut s.keys).capacity(), 0);
        // A container an unusually large query grew is not kept.
        context.put(|s| &mut s.keys, Vec::with_capacity(KEPT_CAPACITY + 1));
        assert_eq!(context.take(|s| &mut s.keys).capacity(), 0);
    }
}
