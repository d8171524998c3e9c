//! The generator's own call graph: every function and method it writes that others call, and
//! every call it writes whose target TypeScript settles statically (a function by name, a
//! method through a receiver typed as the class that declares it). From it the manifest takes
//! true direct-caller counts and call chains for the benchmarks to query.
//!
//! Calls through interface-typed or abstract receivers, constructor calls and JSX are not
//! recorded: which node they "call" depends on how a tool models dispatch.

use std::collections::VecDeque;

use serde::Serialize;

/// Roots (symbols nothing calls) searched for long call chains, evenly spread over all.
const MAX_CHAIN_ROOTS: usize = 20_000;

/// A symbol the generator wrote (an index into [`CallGraph`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Sym(u32);

/// A function or method others can call: its symbol and the name a call site writes.
#[derive(Debug, Clone)]
pub(crate) struct Callable {
    /// The symbol.
    pub(crate) sym: Sym,
    /// The bare name (`describeOrder`, `listActive`).
    pub(crate) name: String,
}

/// What a symbol is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SymKind {
    /// A module-level function.
    Function,
    /// A class method.
    Method,
    /// A function component (`.tsx`).
    Component,
}

impl SymKind {
    fn name(self) -> &'static str {
        match self {
            SymKind::Function => "Function",
            SymKind::Method => "Method",
            SymKind::Component => "Component",
        }
    }
}

/// Whether a symbol may be a manifest sample: only symbols whose every caller is recorded
/// (functions, and methods no interface declares and no subclass overrides).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sampling {
    /// Every call of it is recorded.
    Exact,
    /// Some calls of it may go through an interface or a base class; never sampled.
    Partial,
}

/// Every callable symbol written and the calls between them.
#[derive(Debug, Default)]
pub(crate) struct CallGraph {
    ids: Vec<String>,
    kinds: Vec<(SymKind, Sampling)>,
    edges: Vec<(u32, u32)>,
}

/// A symbol with its recorded direct callers.
#[derive(Debug, Clone, Serialize)]
pub struct CallerSample {
    /// Node ID in tsgraph's format: `{path}:{symbol path}`.
    pub id: String,
    /// `Function`, `Method` or `Component` (tsgraph stores components as functions).
    pub kind: &'static str,
    /// Distinct functions and methods that call it directly.
    pub direct_callers: usize,
    /// The first (by ID) of those callers, at most ten.
    pub callers: Vec<String>,
}

/// A chain of calls from one symbol to another.
#[derive(Debug, Clone, Serialize)]
pub struct CallChain {
    /// The first caller (a symbol nothing calls: a handler, a page, an app's `main`);
    /// the chains are the longest found.
    pub from: String,
    /// The symbol farthest from `from` along recorded calls.
    pub to: String,
    /// Calls in the shortest recorded chain; a tool that also follows dispatch through
    /// interfaces may find a shorter one, never a longer one.
    pub hops: usize,
}

/// What the call graph says, for the manifest.
#[derive(Debug, Clone, Serialize)]
pub struct CallFacts {
    /// Callable symbols written (functions, methods, components).
    pub callables: usize,
    /// Distinct caller → callee pairs among the recorded calls.
    pub call_edges: usize,
    /// Symbols with their direct callers, spread from the most called to the least.
    pub samples: Vec<CallerSample>,
    /// Long call chains, for path queries.
    pub chains: Vec<CallChain>,
}

impl CallGraph {
    /// Registers `symbol` (a dotted symbol path) of the file at `path`.
    pub(crate) fn define(
        &mut self,
        path: &str,
        symbol: &str,
        kind: SymKind,
        sampling: Sampling,
    ) -> Callable {
        let sym = Sym(u32::try_from(self.ids.len()).unwrap_or(u32::MAX));
        self.ids.push(format!("{path}:{symbol}"));
        self.kinds.push((kind, sampling));
        let name = symbol.rsplit('.').next().unwrap_or(symbol).to_owned();
        Callable { sym, name }
    }

    /// Adds the calls one file made.
    pub(crate) fn add_calls(&mut self, calls: &[(Sym, Sym)]) {
        self.edges
            .extend(calls.iter().map(|(caller, callee)| (caller.0, callee.0)));
    }

    /// `samples` symbols spread over the range of caller counts and `chains` long call chains.
    pub(crate) fn facts(&mut self, samples: usize, chains: usize) -> CallFacts {
        self.edges.sort_unstable();
        self.edges.dedup();
        CallFacts {
            callables: self.ids.len(),
            call_edges: self.edges.len(),
            samples: self.samples(samples),
            chains: self.chains(chains),
        }
    }

    fn samples(&self, count: usize) -> Vec<CallerSample> {
        let mut callers: Vec<Vec<u32>> = vec![Vec::new(); self.ids.len()];
        for &(caller, callee) in &self.edges {
            callers[callee as usize].push(caller);
        }
        let mut candidates: Vec<usize> = (0..self.ids.len())
            .filter(|&i| self.kinds[i].1 == Sampling::Exact && !callers[i].is_empty())
            .collect();
        candidates.sort_by(|&a, &b| {
            callers[b]
                .len()
                .cmp(&callers[a].len())
                .then_with(|| self.ids[a].cmp(&self.ids[b]))
        });
        // Most symbols have one or two callers; spreading over the distinct counts rather
        // than over the symbols gives samples from the hubs down to the leaves.
        let mut levels: Vec<Vec<usize>> = Vec::new();
        for &i in &candidates {
            match levels.last_mut() {
                Some(level) if callers[level[0]].len() == callers[i].len() => level.push(i),
                _ => levels.push(vec![i]),
            }
        }
        let chosen = spread(&(0..levels.len()).collect::<Vec<_>>(), count);
        let mut picked: Vec<usize> = chosen.iter().map(|&l| levels[l][0]).collect();
        // Fewer levels than samples: take more symbols of the chosen levels, round by round.
        let mut round = 1;
        while picked.len() < count.min(candidates.len()) {
            let before = picked.len();
            for &l in &chosen {
                if let Some(&i) = levels[l].get(round * levels[l].len() / (round + 1))
                    && !picked.contains(&i)
                    && picked.len() < count
                {
                    picked.push(i);
                }
            }
            round += 1;
            if picked.len() == before && round > count {
                break;
            }
        }
        picked.sort_by(|&a, &b| {
            callers[b]
                .len()
                .cmp(&callers[a].len())
                .then_with(|| self.ids[a].cmp(&self.ids[b]))
        });
        picked
            .into_iter()
            .map(|i| {
                let mut ids: Vec<&str> = callers[i]
                    .iter()
                    .map(|&c| self.ids[c as usize].as_str())
                    .collect();
                ids.sort_unstable();
                CallerSample {
                    id: self.ids[i].clone(),
                    kind: self.kinds[i].0.name(),
                    direct_callers: ids.len(),
                    callers: ids.iter().take(10).map(|id| (*id).to_owned()).collect(),
                }
            })
            .collect()
    }

    fn chains(&self, count: usize) -> Vec<CallChain> {
        // Forward adjacency in compressed rows: edges are sorted by caller already.
        let n = self.ids.len();
        let mut start = vec![0usize; n + 1];
        for &(caller, _) in &self.edges {
            start[caller as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut called = vec![false; n];
        for &(_, callee) in &self.edges {
            called[callee as usize] = true;
        }
        let roots: Vec<usize> = (0..n)
            .filter(|&i| !called[i] && start[i + 1] > start[i])
            .collect();
        let mut distance = vec![usize::MAX; n];
        let mut touched = Vec::new();
        let mut queue = VecDeque::new();
        // (hops, root, farthest) of every root tried; the longest chains win.
        let mut found: Vec<(usize, usize, usize)> = Vec::new();
        for root in spread(&roots, MAX_CHAIN_ROOTS) {
            distance[root] = 0;
            touched.push(root);
            queue.push_back(root);
            let mut far = (0, root);
            while let Some(node) = queue.pop_front() {
                for &(_, next) in &self.edges[start[node]..start[node + 1]] {
                    let next = next as usize;
                    if distance[next] == usize::MAX {
                        distance[next] = distance[node] + 1;
                        touched.push(next);
                        let better = distance[next] > far.0
                            || (distance[next] == far.0 && self.ids[next] < self.ids[far.1]);
                        if better {
                            far = (distance[next], next);
                        }
                        queue.push_back(next);
                    }
                }
            }
            for &t in &touched {
                distance[t] = usize::MAX;
            }
            touched.clear();
            found.push((far.0, root, far.1));
        }
        found.sort_by(|a, b| {
            b.0.cmp(&a.0)
                .then_with(|| self.ids[a.1].cmp(&self.ids[b.1]))
        });
        // Longest first, one chain per end while there are enough distinct ends.
        let mut chosen: Vec<(usize, usize, usize)> = Vec::new();
        for &chain in &found {
            if chosen.len() < count && !chosen.iter().any(|c| c.2 == chain.2) {
                chosen.push(chain);
            }
        }
        for &chain in &found {
            if chosen.len() < count && !chosen.contains(&chain) {
                chosen.push(chain);
            }
        }
        chosen
            .into_iter()
            .filter(|&(hops, _, _)| hops > 0)
            .map(|(hops, root, far)| CallChain {
                from: self.ids[root].clone(),
                to: self.ids[far].clone(),
                hops,
            })
            .collect()
    }
}

/// `count` items of `items` evenly spread from first to last (all of them when fewer).
fn spread(items: &[usize], count: usize) -> Vec<usize> {
    if items.len() <= count {
        return items.to_vec();
    }
    let mut picked: Vec<usize> = (0..count)
        .map(|k| items[k * (items.len() - 1) / (count - 1).max(1)])
        .collect();
    picked.dedup();
    picked
}
