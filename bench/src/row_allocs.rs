//! Allocations per answer: how many heap allocations a warm query makes from the start of
//! the traversal to the last TOON byte (into a writer that discards them), grouped by the
//! size of the answer. The design card's "no intermediate allocation" means a count that
//! stays flat as answers grow; a count that grows with the rows is allocation per row.
//!
//! The binary using it must install [`crate::alloc::CountingAlloc`] as its global allocator.

use tsgraph::encoders::graph::ToonSink;
use tsgraph::engine::{NodeKey, NodeView, Snapshot};
use tsgraph::query::{
    EdgeInfo, Header, NeighborOptions, NodeInfo, Query, QueryContext, QueryError, ResultSink,
    Summary, TraversalOptions,
};

use crate::alloc::measure;
use crate::table::Table;

/// Answer sizes the table groups by: up to 10 results, up to 100, up to 1,000, more.
const BUCKETS: [(usize, &str); 4] = [
    (10, "1-10"),
    (100, "11-100"),
    (1_000, "101-1,000"),
    (usize::MAX, "over 1,000"),
];

/// One query kind's allocations per bucket: (answers, total allocations, total results).
type Tally = [(usize, u64, usize); 4];

/// A sink that keeps nothing: what the query itself allocates, without an encoder.
struct NullSink;

impl ResultSink for NullSink {
    fn begin(&mut self, _header: &Header<'_>) -> Result<(), tsgraph::query::SinkError> {
        Ok(())
    }
    fn node(
        &mut self,
        _node: &NodeView<'_>,
        _info: &NodeInfo<'_>,
    ) -> Result<bool, tsgraph::query::SinkError> {
        Ok(true)
    }
    fn edge(&mut self, _edge: &EdgeInfo<'_>) -> Result<bool, tsgraph::query::SinkError> {
        Ok(true)
    }
    fn finish(&mut self, _summary: &Summary) -> Result<(), tsgraph::query::SinkError> {
        Ok(())
    }
}

/// Runs neighbors (distance 2) and impact (depth 5) on every `stride`-th node key and
/// tabulates allocations per answer and per result row, by answer size.
pub fn allocations_by_answer_size(snapshot: &Snapshot, stride: usize) -> Result<Table, QueryError> {
    // One context for every answer, as an editor or server would keep one: each answer
    // reuses the scratch the ones before it grew.
    let context = QueryContext::default();
    let query = Query::with_context(snapshot, &context);
    let keys = snapshot.node_keys()?;
    let mut neighbors: Tally = Default::default();
    let mut neighbors_bare: Tally = Default::default();
    let mut impact: Tally = Default::default();
    let neighbor_options = NeighborOptions {
        distance: 2,
        ..NeighborOptions::default()
    };
    let impact_options = TraversalOptions {
        max_nodes: 1_000,
        ..TraversalOptions::default()
    };
    for &key in keys.iter().step_by(stride.max(1)) {
        let run = |tally: &mut Tally, answer: &dyn Fn(NodeKey) -> Result<usize, QueryError>| {
            // Once to warm the pages and caches, then counted.
            answer(key)?;
            let (results, stats) = measure(|| answer(key));
            record(tally, results?, stats.allocations());
            Ok::<(), QueryError>(())
        };
        run(&mut neighbors, &|key| {
            let mut sink = ToonSink::new(std::io::sink());
            let summary = query.neighbors(key, &neighbor_options, &mut sink)?;
            Ok(summary.explain.map_or(0, |e| e.nodes_reached))
        })?;
        run(&mut neighbors_bare, &|key| {
            let summary = query.neighbors(key, &neighbor_options, &mut NullSink)?;
            Ok(summary.explain.map_or(0, |e| e.nodes_reached))
        })?;
        run(&mut impact, &|key| {
            let mut sink = ToonSink::new(std::io::sink());
            let summary = query.impact(key, &impact_options, &mut sink)?;
            Ok(summary.explain.map_or(0, |e| e.nodes_reached))
        })?;
    }
    let mut table = Table::new(&[
        "query",
        "results",
        "answers",
        "allocations per answer",
        "per result row",
    ]);
    for (name, tally) in [
        ("neighbors distance 2", &neighbors),
        ("neighbors, no encoder", &neighbors_bare),
        ("impact depth 5", &impact),
    ] {
        for (&(answers, allocations, results), (_, label)) in tally.iter().zip(BUCKETS) {
            if answers == 0 {
                continue;
            }
            table.row(&[
                name.to_owned(),
                label.to_owned(),
                answers.to_string(),
                format!("{:.0}", allocations as f64 / answers as f64),
                format!("{:.2}", allocations as f64 / results.max(1) as f64),
            ]);
        }
    }
    Ok(table)
}

fn record(tally: &mut Tally, results: usize, allocations: u64) {
    if results == 0 {
        return;
    }
    let bucket = BUCKETS
        .iter()
        .position(|&(most, _)| results <= most)
        .unwrap_or(BUCKETS.len() - 1);
    let entry = &mut tally[bucket];
    entry.0 += 1;
    entry.1 += allocations;
    entry.2 += results;
}
