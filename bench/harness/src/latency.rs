//! Latencies of representative queries over sampled symbols, warm and in-process: each
//! query runs once over every sample untimed (so the pages it reads are cached, as in a
//! server that has been answering for a while), then timed: once, or the median of a few
//! passes (`rounds`). A query's time is the traversal and its TOON encoding into a reused
//! buffer — what an MCP tool call costs before the transport.

use std::time::{Duration, Instant};

use tsgraph::encoders::graph::ToonSink;
use tsgraph::engine::{NodeKey, NodeKind, Snapshot};
use tsgraph::query::engine::NodeView;
use tsgraph::query::{
    CollectSink, Dependency, DependencyImport, Direction, EdgeInfo, Group, Grouping, Header,
    NeighborOptions, NodeInfo, PathOptions, Query, QueryKind, ResultSink, SearchOptions, SinkError,
    Summary, TraversalOptions,
};

use tsgraph::Error;

/// The timings of one query over the sampled symbols.
#[derive(Debug, Clone)]
pub struct QueryLatency {
    /// What was asked (`callers depth 5`, …).
    pub name: &'static str,
    /// One time per sample, sorted ascending.
    pub times: Vec<Duration>,
    /// Results (nodes) and edges between them of each sample's answer, sorted by results.
    pub sizes: Vec<AnswerSize>,
    /// The times of the samples whose answer was cut at its limit of 1,000 results (the
    /// largest answers), sorted ascending.
    pub truncated: Vec<Duration>,
}

impl QueryLatency {
    /// The `p`-th percentile (0 to 100) by nearest rank; zero without samples.
    pub fn percentile(&self, p: f64) -> Duration {
        nearest_rank(&self.times, p)
            .copied()
            .unwrap_or(Duration::ZERO)
    }

    /// The median time of the answers cut at the limit; `None` when none was.
    pub fn truncated_median(&self) -> Option<Duration> {
        nearest_rank(&self.truncated, 50.0).copied()
    }

    /// Mean results per sample.
    pub fn mean_results(&self) -> f64 {
        mean(self.sizes.iter().map(|s| s.results))
    }

    /// Mean edges between results per sample (neighbors' edge table; paths' hops).
    pub fn mean_edges(&self) -> f64 {
        mean(self.sizes.iter().map(|s| s.edges))
    }

    /// The `p`-th percentile (0 to 100) of the results per sample, by nearest rank; zero
    /// without samples.
    pub fn results_percentile(&self, p: f64) -> u64 {
        nearest_rank(&self.sizes, p).map_or(0, |s| s.results)
    }
}

/// How large one answer was.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct AnswerSize {
    /// Result nodes.
    pub results: u64,
    /// Edges streamed after them (CONTAINS among them, which TOON leaves out).
    pub edges: u64,
}

fn mean(values: impl ExactSizeIterator<Item = u64>) -> f64 {
    let count = values.len();
    if count == 0 {
        0.0
    } else {
        values.sum::<u64>() as f64 / count as f64
    }
}

/// The `p`-th percentile of `sorted` by nearest rank.
fn nearest_rank<T>(sorted: &[T], p: f64) -> Option<&T> {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.clamp(1, sorted.len().max(1)) - 1)
}

/// The traversal limits the latency queries use: depth 5, up to 1,000 results.
pub(super) const TRAVERSAL: TraversalOptions = TraversalOptions {
    max_depth: 5,
    max_nodes: 1000,
    edge_kinds: None,
};

/// What the store holds, by node kind, and a sample of symbols to ask about.
pub(super) struct Census {
    /// Nodes per kind, every kind listed.
    pub(super) nodes_by_kind: Vec<(NodeKind, u64)>,
    /// Up to the requested count of functions, methods and classes (key, name).
    pub(super) symbols: Vec<(NodeKey, String)>,
}

/// Counts the nodes by kind and samples up to `count` functions, methods and classes with
/// a generator seeded with `seed` (the same store and seed give the same sample).
pub(super) fn census(snapshot: &Snapshot, count: usize, seed: u64) -> Result<Census, Error> {
    let mut nodes_by_kind: Vec<(NodeKind, u64)> =
        NodeKind::ALL.iter().map(|kind| (*kind, 0)).collect();
    let mut candidates = Vec::new();
    for key in snapshot.node_keys()? {
        let Some(guard) = snapshot.node(key)? else {
            continue;
        };
        let node = guard.view()?;
        if let Some(slot) = nodes_by_kind.iter_mut().find(|(k, _)| *k == node.kind()) {
            slot.1 += 1;
        }
        // A name that is blank or holds glob characters (a string-literal member such as
        // `"/api/*"`) is not a name one searches for.
        let searchable = !node.name().trim().is_empty() && !node.name().contains(['*', '?']);
        if searchable
            && matches!(
                node.kind(),
                NodeKind::Function | NodeKind::Method | NodeKind::Class
            )
        {
            candidates.push((key, node.name().to_owned()));
        }
    }
    let mut rng = fastrand::Rng::with_seed(seed);
    let take = count.min(candidates.len());
    for i in 0..take {
        let j = rng.usize(i..candidates.len());
        candidates.swap(i, j);
    }
    candidates.truncate(take);
    Ok(Census {
        nodes_by_kind,
        symbols: candidates,
    })
}

/// One query of the benchmark, asked about one sample.
type Ask<'a> = dyn Fn(&Query<'_>, usize, &mut dyn ResultSink) -> Result<Summary, Error> + 'a;

/// Times every representative query over `symbols`: each sample's time is the median of
/// `rounds` timed passes (one pass: as it was first measured; more steady a time taken on a
/// noisy machine).
pub(super) fn measure(
    snapshot: &Snapshot,
    symbols: &[(NodeKey, String)],
    rounds: usize,
) -> Result<Vec<QueryLatency>, Error> {
    let query = Query::new(snapshot);
    let traversal = TRAVERSAL;
    let neighbors = NeighborOptions {
        distance: 2,
        direction: Direction::Both,
        max_nodes: TRAVERSAL.max_nodes,
        edge_kinds: None,
    };
    let search = SearchOptions {
        limit: 20,
        ..SearchOptions::default()
    };
    let prefixes: Vec<String> = symbols
        .iter()
        .map(|(_, name)| format!("{}*", name.chars().take(3).collect::<String>()))
        .collect();
    // Topic search: the first two words of each sampled name ("create user").
    let topics: Vec<String> = symbols
        .iter()
        .map(|(_, name)| {
            let words = tsgraph::engine::words(name);
            words.iter().take(2).cloned().collect::<Vec<_>>().join(" ")
        })
        .collect();
    let targets = path_targets(&query, symbols)?;
    let path = |k: usize| PathOptions {
        k,
        ..PathOptions::default()
    };
    let (one_path, three_paths) = (path(1), path(3));

    let asks: Vec<(&'static str, Box<Ask<'_>>)> = vec![
        (
            "neighbors distance 2",
            Box::new(|q, i, sink| Ok(q.neighbors(symbols[i].0, &neighbors, sink)?)),
        ),
        (
            "callers depth 5",
            Box::new(|q, i, sink| Ok(q.callers(symbols[i].0, &traversal, sink)?)),
        ),
        (
            "callees depth 5",
            Box::new(|q, i, sink| Ok(q.callees(symbols[i].0, &traversal, sink)?)),
        ),
        (
            "impact depth 5",
            Box::new(|q, i, sink| Ok(q.impact(symbols[i].0, &traversal, sink)?)),
        ),
        (
            "shortest path",
            Box::new(|q, i, sink| Ok(q.path(symbols[i].0, targets[i], &one_path, sink)?)),
        ),
        (
            "3 shortest paths",
            Box::new(|q, i, sink| Ok(q.path(symbols[i].0, targets[i], &three_paths, sink)?)),
        ),
        (
            "search exact name",
            Box::new(|q, i, sink| Ok(q.search(&symbols[i].1, &search, sink)?)),
        ),
        (
            "search prefix*",
            Box::new(|q, i, sink| Ok(q.search(&prefixes[i], &search, sink)?)),
        ),
        (
            "topic, two words",
            Box::new(|q, i, sink| Ok(q.topic(&topics[i], &search, sink)?)),
        ),
    ];
    let mut buffer = Vec::with_capacity(1 << 16);
    let mut latencies = Vec::new();
    for (name, ask) in &asks {
        for i in 0..symbols.len() {
            buffer.clear();
            ask(&query, i, &mut ToonSink::new(&mut buffer))?;
        }
        let mut latency = QueryLatency {
            name,
            times: Vec::with_capacity(symbols.len()),
            sizes: Vec::with_capacity(symbols.len()),
            truncated: Vec::new(),
        };
        let mut passes = vec![Vec::with_capacity(rounds.max(1)); symbols.len()];
        let mut truncated = vec![false; symbols.len()];
        for round in 0..rounds.max(1) {
            for (i, times) in passes.iter_mut().enumerate() {
                buffer.clear();
                let mut sink = Counted::new(ToonSink::new(&mut buffer));
                let started = Instant::now();
                let summary = ask(&query, i, &mut sink)?;
                times.push(started.elapsed());
                if round == 0 {
                    latency.sizes.push(AnswerSize {
                        results: sink.nodes,
                        edges: sink.edges,
                    });
                    truncated[i] = summary.truncated;
                }
            }
        }
        for (times, cut) in passes.iter_mut().zip(&truncated) {
            times.sort_unstable();
            let median = times[(times.len() - 1) / 2];
            latency.times.push(median);
            if *cut {
                latency.truncated.push(median);
            }
        }
        latency.times.sort_unstable();
        latency.sizes.sort_unstable();
        latency.truncated.sort_unstable();
        latencies.push(latency);
    }
    Ok(latencies)
}

/// For each sample, a node a path leads to: the last (deepest) of its callees within the
/// traversal limits, else the sample itself (a path of no hops).
fn path_targets(query: &Query<'_>, symbols: &[(NodeKey, String)]) -> Result<Vec<NodeKey>, Error> {
    let options = TRAVERSAL;
    symbols
        .iter()
        .map(|(key, _)| {
            let mut collected = CollectSink::default();
            query.callees(*key, &options, &mut collected)?;
            let deepest = collected.nodes.iter().max_by_key(|(_, depth)| *depth);
            Ok(match deepest {
                Some((id, _)) => query.snapshot().key_of(id)?.unwrap_or(*key),
                None => *key,
            })
        })
        .collect()
}

/// Forwards a result to another sink and counts its nodes.
struct Counted<S> {
    inner: S,
    nodes: u64,
    edges: u64,
}

impl<S> Counted<S> {
    fn new(inner: S) -> Counted<S> {
        Counted {
            inner,
            nodes: 0,
            edges: 0,
        }
    }
}

impl<S: ResultSink> ResultSink for Counted<S> {
    fn grouping(&self, kind: QueryKind) -> Grouping {
        self.inner.grouping(kind)
    }

    fn wants_via_edges(&self) -> bool {
        self.inner.wants_via_edges()
    }

    fn wants_edge_facts(&self) -> bool {
        self.inner.wants_edge_facts()
    }

    fn wants_chains(&self) -> bool {
        self.inner.wants_chains()
    }

    fn begin(&mut self, header: &Header<'_>) -> Result<(), SinkError> {
        self.inner.begin(header)
    }

    fn group(&mut self, group: &Group<'_>) -> Result<bool, SinkError> {
        self.inner.group(group)
    }

    fn node(&mut self, node: &NodeView<'_>, info: &NodeInfo<'_>) -> Result<bool, SinkError> {
        self.nodes += 1;
        self.inner.node(node, info)
    }

    fn edge(&mut self, edge: &EdgeInfo<'_>) -> Result<bool, SinkError> {
        self.edges += 1;
        self.inner.edge(edge)
    }

    fn dependency(&mut self, dependency: &Dependency<'_>) -> Result<bool, SinkError> {
        self.inner.dependency(dependency)
    }

    fn dependency_import(&mut self, import: &DependencyImport<'_>) -> Result<bool, SinkError> {
        self.inner.dependency_import(import)
    }

    fn finish(&mut self, summary: &Summary) -> Result<(), SinkError> {
        self.inner.finish(summary)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tsgraph::encoders::graph::ToonSink;
    use tsgraph::query::ResultSink;

    use super::{AnswerSize, Counted, QueryLatency};

    #[test]
    fn the_counting_sink_asks_what_the_sink_it_wraps_asks() {
        // Timed queries must take the path the encoder takes (TOON skips via edges, chains
        // and the stored facts of edges between results).
        let mut buffer = Vec::new();
        let toon = Counted::new(ToonSink::new(&mut buffer));
        assert!(!toon.wants_via_edges());
        assert!(!toon.wants_edge_facts());
        assert!(!toon.wants_chains());
        let collect = Counted::new(tsgraph::query::CollectSink::default());
        assert!(collect.wants_via_edges());
        assert!(collect.wants_edge_facts());
        assert!(collect.wants_chains());
    }

    #[test]
    fn percentiles_are_by_nearest_rank() {
        let latency = QueryLatency {
            name: "q",
            times: (1..=100).map(Duration::from_micros).collect(),
            sizes: (1..=4)
                .map(|results| AnswerSize { results, edges: 2 })
                .collect(),
            truncated: vec![Duration::from_micros(7), Duration::from_micros(9)],
        };
        assert_eq!(latency.results_percentile(50.0), 2);
        assert_eq!(latency.results_percentile(90.0), 4);
        assert_eq!(latency.mean_results(), 2.5);
        assert_eq!(latency.mean_edges(), 2.0);
        assert_eq!(latency.truncated_median(), Some(Duration::from_micros(7)));
        assert_eq!(latency.percentile(50.0), Duration::from_micros(50));
        assert_eq!(latency.percentile(99.0), Duration::from_micros(99));
        assert_eq!(latency.percentile(100.0), Duration::from_micros(100));
        assert_eq!(latency.percentile(0.0), Duration::from_micros(1));
    }
}
