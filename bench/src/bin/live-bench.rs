//! `live-bench`: how fresh the graph stays. Measures the start-up sync of an up-to-date store
//! (a new process, and a process that keeps its state), then edits through the IDE edit API
//! followed by a query that must see each edit: edit time, query time and the two together,
//! as median, p90, p99 and max.
//!
//! Usage: `cargo run --release -p tsgraph-bench --bin live-bench -- DIR [--edits N] [--export]`
//! (`--export`: each edit changes what the file exports, so its importers are re-linked too)
//! (DIR is indexed first when it has no store; the store is `DIR/.tsgraph/graph.redb`).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use tsgraph::indexer::TextEdit;
use tsgraph::{
    Format, IndexOptions, LiveProject, Project, QueryRequest, SymbolArg, TraversalOptions,
};
use tsgraph_bench::table::Table;
use tsgraph_engine::{EdgeKind, NodeKind};

struct Args {
    root: PathBuf,
    edits: usize,
    /// The probe functions are exported: each edit changes what the file exports, and every
    /// file importing it, directly or through re-exports, is re-linked.
    export: bool,
}

fn parse_args() -> Result<Args> {
    let mut root = None;
    let mut edits = 100;
    let mut export = false;
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--edits" => {
                let text = it.next().context("--edits needs a value")?;
                edits = text
                    .parse()
                    .with_context(|| format!("--edits: not a number: {text}"))?;
            }
            "--export" => export = true,
            "-h" | "--help" => {
                println!("usage: live-bench DIR [--edits N (default 100)] [--export]");
                std::process::exit(0);
            }
            flag if flag.starts_with('-') => bail!("unknown argument {flag} (try --help)"),
            dir if root.is_none() => root = Some(PathBuf::from(dir)),
            extra => bail!("unexpected argument {extra}: one directory only"),
        }
    }
    let root = root.context("usage: live-bench DIR")?;
    Ok(Args {
        root: root
            .canonicalize()
            .with_context(|| format!("cannot open {}", root.display()))?,
        edits: edits.max(3),
        export,
    })
}

/// The function with the most direct callers below [`MOST_CALLERS`]: the edits add and remove
/// a caller of it, and the callers query must list the new one (a hub's callers would be
/// truncated).
fn hub(project: &Project) -> Result<(String, String, String)> {
    let snapshot = project.snapshot()?;
    let mut best: Option<(usize, String, String, String)> = None;
    for key in snapshot.node_keys()? {
        let Some(node) = snapshot.node(key)? else {
            continue;
        };
        let view = node.view()?;
        if view.kind() != NodeKind::Function {
            continue;
        }
        let callers = snapshot
            .in_edges(key)?
            .edges()?
            .filter(|edge| edge.kind() == EdgeKind::Calls)
            .count();
        if callers < MOST_CALLERS && best.as_ref().is_none_or(|(most, ..)| callers > *most) {
            best = Some((
                callers,
                view.id().to_owned(),
                view.file().to_owned(),
                view.name().to_owned(),
            ));
        }
    }
    let (callers, id, file, name) = best.context("no function in the project")?;
    println!("edited file: {file} (adds and removes a caller of {id}, {callers} direct callers)");
    Ok((id, file, name))
}

/// Callers of the edited function at most (the query lists up to 500).
const MOST_CALLERS: usize = 200;

struct Stats(Vec<Duration>);

impl Stats {
    fn row(&mut self, table: &mut Table, what: &str) {
        self.0.sort_unstable();
        let at = |q: f64| self.0[((self.0.len() - 1) as f64 * q).round() as usize];
        let ms = |d: Duration| format!("{:.2}", d.as_secs_f64() * 1000.0);
        table.row(&[
            what.to_owned(),
            ms(at(0.5)),
            ms(at(0.9)),
            ms(at(0.99)),
            ms(at(1.0)),
            self.0.len().to_string(),
        ]);
    }
}

fn main() -> Result<()> {
    tsgraph::tune_allocator();
    let args = parse_args()?;
    let options = IndexOptions::default();

    // The store exists and matches the disk before anything is measured.
    let started = Instant::now();
    drop(LiveProject::open(&args.root, None, options.clone())?);
    println!(
        "prepared (index or sync) in {:.0} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );

    let mut table = Table::new(&["what", "p50 ms", "p90 ms", "p99 ms", "max ms", "runs"]);
    // A new process's no-op sync: nothing kept in memory, stamps compared with the disk.
    let mut fresh = Vec::new();
    for _ in 0..5 {
        let project = Project::open(&args.root, None)?;
        let sync = project.sync(&options)?;
        if !sync.is_noop() {
            bail!("the store was not up to date: {sync:?}");
        }
        fresh.push(sync.time);
    }
    Stats(fresh).row(&mut table, "no-op sync, new process");

    let (hub_id, file, name) = hub(&Project::open_read_only(&args.root, None)?)?;
    // Opening syncs, then reads the state in the background: the first edit waits for it.
    let started = Instant::now();
    let live = LiveProject::open(&args.root, None, options)?;
    Stats(vec![started.elapsed()]).row(&mut table, "open (sync; state read in background)");
    let original = std::fs::read_to_string(args.root.join(&file))?;
    let request = QueryRequest::Callers {
        symbol: SymbolArg::new(hub_id.clone()),
        options: TraversalOptions {
            max_depth: 1,
            ..TraversalOptions::default()
        },
    };
    let (mut edits, mut queries, mut totals) = (Vec::new(), Vec::new(), Vec::new());
    let mut relinked = Vec::new();
    let mut text = original.clone();
    for round in 0..args.edits {
        let probe = format!("liveBenchProbe{round}");
        // Odd rounds take the previous round's probe out again: the file stays the same size.
        let edit = if round % 2 == 0 {
            let keyword = if args.export {
                "export function"
            } else {
                "function"
            };
            let call = format!("\n{keyword} {probe}() {{\n  {name}();\n}}\n");
            let at = text.len();
            text.push_str(&call);
            TextEdit::bytes(at..at, call)
        } else {
            let at = original.len();
            let edit = TextEdit::bytes(at..text.len(), "");
            text.truncate(at);
            edit
        };
        let started = Instant::now();
        let outcome = live.apply_edit(&file, &[edit])?;
        let edited = started.elapsed();
        relinked.push(outcome.relinked.len());
        let mut answer = Vec::new();
        live.query(&request, Format::Toon, &mut answer)?;
        let total = started.elapsed();
        let answer = String::from_utf8_lossy(&answer);
        let expected = format!("liveBenchProbe{}", round - round % 2);
        if answer.contains(&expected) != (round % 2 == 0) {
            let start: String = answer.chars().take(2000).collect();
            bail!("round {round}: the query did not see the edit:\n{start}");
        }
        if round == 0 {
            Stats(vec![total]).row(&mut table, "first edit → query, right after open");
            continue;
        }
        edits.push(edited);
        queries.push(total - edited);
        totals.push(total);
    }
    live.close_file(&file)?;
    let mut kept = Vec::new();
    for _ in 0..5 {
        let started = Instant::now();
        let sync = live.sync()?;
        if !sync.is_noop() {
            bail!("the store changed while measuring: {sync:?}");
        }
        kept.push(started.elapsed());
    }
    Stats(kept).row(&mut table, "no-op sync, kept state");
    Stats(edits).row(&mut table, "edit (reparse, re-link, commit)");
    Stats(queries).row(&mut table, "callers query after it");
    Stats(totals).row(&mut table, "edit → query sees it");
    print!("{}", table.render());
    relinked.sort_unstable();
    println!(
        "files re-linked per edit: median {}, max {}",
        relinked[relinked.len() / 2],
        relinked.last().copied().unwrap_or(0)
    );
    Ok(())
}
