//! Package dependencies (`deps`): from one package, breadth-first over the package graph,
//! outward (the packages it depends on, internal and external) or inward (the packages that
//! depend on it), each dependency with the file imports that create it.

mod graph;
#[cfg(test)]
mod tests;

use std::collections::HashSet;

use crate::Query;
use crate::error::QueryError;
use petgraph::graph::NodeIndex;

use crate::header::{DepsQuestion, Header, Question, Shape};
use crate::kinds::EdgeKinds;
use crate::plan::bfs::{Bounds, bounded_bfs};
use crate::plan::{Explain, Plan, Strategy};
use crate::sink::{Dependency, DependencyImport, Direction, QueryKind, ResultSink, Stop, Summary};
use graph::PackageGraph;
use tsgraph_engine::EdgeKind;

/// How many imports are listed per dependency at most (the count of all is always given).
pub const LISTED_IMPORTS: usize = 5;

/// How many names an unknown-package error lists at most.
const MAX_SUGGESTIONS: usize = 20;

/// Which way `deps` goes from the package asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DepsDirection {
    /// The packages it depends on.
    #[default]
    Out,
    /// The packages that depend on it.
    In,
}

/// Direction and depth of `deps`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DepsOptions {
    /// Which way to go (default out).
    pub direction: DepsDirection,
    /// Hops from the package, at least 1 (default 10); past it the result says it was
    /// truncated when more packages exist.
    pub max_depth: u32,
}

impl Default for DepsOptions {
    fn default() -> Self {
        DepsOptions {
            direction: DepsDirection::Out,
            max_depth: 10,
        }
    }
}

/// A package reached by the traversal.
#[derive(Debug, Clone, Copy)]
struct Reached {
    package: usize,
    depth: u32,
    /// The package it was reached from (the root for direct dependencies).
    via: usize,
}

impl Query<'_> {
    /// The packages `package` depends on (or that depend on it), transitively up to
    /// `max_depth` hops, each with the imports between it and the package it was reached
    /// through (the first [`LISTED_IMPORTS`], and how many there are). `package` is a name
    /// some file's package has, or the name of a package outside the project that a file
    /// imports; anything else is [`QueryError::UnknownPackage`] with the closest names.
    ///
    /// Reads every file node and IMPORTS edge of the store once.
    pub fn deps(
        &self,
        package: &str,
        options: &DepsOptions,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        let graph = PackageGraph::build(self.snapshot())?;
        let Some(root) = graph.find(package) else {
            return Err(unknown(&graph, package));
        };
        let max_depth = options.max_depth.max(1);
        let (mut reached, truncated) = traverse(&graph, root, options.direction, max_depth);
        // Internal packages before external ones, each by depth, then by name.
        reached.sort_by_key(|r| (graph.packages[r.package].external, r.depth, r.package));
        let imports_of = |r: &Reached| {
            let pair = match options.direction {
                DepsDirection::Out => (r.via, r.package),
                DepsDirection::In => (r.package, r.via),
            };
            graph.imports.get(&pair).map_or(&[][..], Vec::as_slice)
        };

        let root_package = &graph.packages[root];
        let direction = match options.direction {
            DepsDirection::Out => Direction::Out,
            DepsDirection::In => Direction::In,
        };
        let mut question = DepsQuestion {
            package: &root_package.name,
            module: (!root_package.external).then_some(root_package.module.as_str()),
            direction,
            max_depth,
            direct: 0,
            transitive: 0,
            internal: 0,
            external: 0,
            files: 0,
            deepest: 0,
            imports: 0,
        };
        let mut importers: HashSet<&str> = HashSet::new();
        for r in &reached {
            if r.depth == 1 {
                question.direct += 1;
            } else {
                question.transitive += 1;
            }
            question.deepest = question.deepest.max(r.depth);
            if graph.packages[r.package].external {
                question.external += 1;
            } else {
                question.internal += 1;
            }
            let imports = imports_of(r);
            importers.extend(imports.iter().map(|i| i.from.as_str()));
            question.imports += imports.len().min(LISTED_IMPORTS);
        }
        question.files = importers.len();
        let header = Header {
            shape: Shape {
                nodes: reached.len(),
                ..Shape::default()
            },
            ..Header::new(Question::Deps(question))
        };
        let stop = if truncated {
            Stop::DepthBound
        } else {
            Stop::Complete
        };
        let mut summary = Summary {
            partial: false,
            truncated,
            limit: max_depth as usize,
            found: true,
            stopped: false,
            stop,
            explain: Some(Explain {
                plan: Plan {
                    kind: QueryKind::Deps,
                    strategy: Strategy::BoundedBfs,
                    direction,
                    edge_kinds: EdgeKinds::of(&[EdgeKind::Imports]),
                    max_depth,
                    max_nodes: graph.packages.len(),
                    walks: 1,
                },
                lists_read: graph.lists_read,
                nodes_reached: reached.len(),
                stop,
            }),
        };
        sink.begin(&header)?;
        'stream: {
            for r in &reached {
                let package = &graph.packages[r.package];
                let dependency = Dependency {
                    name: &package.name,
                    module: &package.module,
                    external: package.external,
                    depth: r.depth,
                    via: &graph.packages[r.via].name,
                    imports: imports_of(r).len(),
                    listed: imports_of(r).len().min(LISTED_IMPORTS),
                };
                if !sink.dependency(&dependency)? {
                    summary.stopped = true;
                    break 'stream;
                }
            }
            for r in &reached {
                let package = &graph.packages[r.package];
                for import in imports_of(r).iter().take(LISTED_IMPORTS) {
                    let row = DependencyImport {
                        package: &package.name,
                        external: package.external,
                        from: &import.from,
                        to: import.to.as_deref(),
                        line: import.line,
                    };
                    if !sink.dependency_import(&row)? {
                        summary.stopped = true;
                        break 'stream;
                    }
                }
            }
        }
        sink.finish(&summary)?;
        Ok(summary)
    }
}

/// Breadth-first from `root` (the planner's depth-bounded BFS over the package graph);
/// whether packages past `max_depth` were left out.
fn traverse(
    graph: &PackageGraph,
    root: usize,
    direction: DepsDirection,
    max_depth: u32,
) -> (Vec<Reached>, bool) {
    let directions = match direction {
        DepsDirection::Out => [petgraph::Direction::Outgoing],
        DepsDirection::In => [petgraph::Direction::Incoming],
    };
    let bounds = Bounds {
        depth: max_depth,
        nodes: usize::MAX,
    };
    let mut reached = Vec::new();
    let stop = bounded_bfs(
        &graph.links,
        NodeIndex::new(root),
        &directions,
        bounds,
        |r| {
            reached.push(Reached {
                package: r.node.index(),
                depth: r.depth,
                via: r.parent.index(),
            });
        },
    );
    (reached, stop == Stop::DepthBound)
}

/// The error for a name no package has: the closest names (ignoring case, by edit distance
/// or containment), or every known name when none is close.
fn unknown(graph: &PackageGraph, package: &str) -> QueryError {
    let wanted = package.to_lowercase();
    let budget = (wanted.chars().count() / 3).max(1);
    let mut scored: Vec<(usize, &str)> = graph
        .packages
        .iter()
        .map(|p| p.name.as_str())
        .filter(|name| !name.is_empty())
        .filter_map(|name| {
            let lower = name.to_lowercase();
            let distance = strsim::levenshtein(&lower, &wanted);
            let contains = wanted.len() > 2 && (lower.contains(&wanted) || wanted.contains(&lower));
            (distance <= budget || contains).then_some((distance, name))
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    let close = !scored.is_empty();
    let suggestions: Vec<String> = if close {
        scored
            .into_iter()
            .map(|(_, name)| name.to_owned())
            .collect()
    } else {
        let mut all: Vec<String> = graph
            .packages
            .iter()
            .filter(|p| !p.external && !p.name.is_empty())
            .map(|p| p.name.clone())
            .collect();
        all.dedup();
        all
    };
    QueryError::UnknownPackage {
        package: package.to_owned(),
        suggestions: suggestions.into_iter().take(MAX_SUGGESTIONS).collect(),
        close,
    }
}
