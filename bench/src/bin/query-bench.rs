//! `query-bench`: query latency at library level, warm, on an indexed project — the query
//! half of `tsgraph bench` (`tsgraph_bench_harness::measure_queries`), with the graph-engine
//! issue's latency targets checked: neighbors (distance 2) p50 ≤ 300 µs and p95 ≤ 1 ms,
//! impact answers cut at 1,000 results p50 ≤ 500 µs, callers p50 ≤ 20 µs, shortest path
//! p50 ≤ 10 µs, open-to-first-answer ≤ 1 ms; then the allocations a query makes, by answer
//! size (`tsgraph_bench::row_allocs`).
//!
//! Usage: `cargo run --release -p tsgraph-bench --bin query-bench -- DIR [--samples N] [--seed N]
//! [--rounds N]` (DIR is indexed first when it has no store; the store is
//! `DIR/.tsgraph/graph.redb`). With `--rounds N` each sample's time is the median of N timed
//! passes, which steadies the figures on a noisy machine (the default, 1, is one pass).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use tsgraph::{IndexOptions, Project};
use tsgraph_bench::alloc::CountingAlloc;
use tsgraph_bench::row_allocs::allocations_by_answer_size;
use tsgraph_bench::table::Table;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;
use tsgraph_bench_harness::{QueryLatency, measure_queries, write_latency_table};

struct Args {
    root: PathBuf,
    samples: usize,
    seed: u64,
    rounds: usize,
}

fn parse_args() -> Result<Args> {
    let mut root = None;
    let (mut samples, mut seed, mut rounds) = (500, 1, 1);
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut number = |name: &str| -> Result<u64> {
            let text = it.next().with_context(|| format!("{name} needs a value"))?;
            text.parse()
                .with_context(|| format!("{name}: not a number: {text}"))
        };
        match arg.as_str() {
            "--samples" => samples = number("--samples")? as usize,
            "--seed" => seed = number("--seed")?,
            "--rounds" => rounds = number("--rounds")? as usize,
            "-h" | "--help" => {
                println!(
                    "usage: query-bench DIR [--samples N (default 500)] [--seed N (default 1)] [--rounds N (default 1)]"
                );
                std::process::exit(0);
            }
            flag if flag.starts_with('-') => bail!("unknown argument {flag} (try --help)"),
            dir if root.is_none() => root = Some(PathBuf::from(dir)),
            extra => bail!("unexpected argument {extra}: one directory only"),
        }
    }
    let root = root.context("usage: query-bench DIR")?;
    Ok(Args {
        root: root
            .canonicalize()
            .with_context(|| format!("cannot open {}", root.display()))?,
        samples: samples.max(1),
        seed,
        rounds: rounds.max(1),
    })
}

fn main() -> Result<()> {
    let args = parse_args()?;
    let project = Project::open(&args.root, None)?;
    if !project.is_indexed()? {
        eprintln!("indexing {} first", args.root.display());
        project.index(&IndexOptions::default())?;
    }
    let db = project.store().path().to_path_buf();
    let overlay = project.store().overlay_len()?;
    drop(project);
    let measured = measure_queries(&db, args.samples, args.seed, args.rounds)?;
    println!("query-bench: {}", args.root.display());
    println!("graph file overlay: {overlay} entries (changes since the graph file was built)");
    let mut out = std::io::stdout();
    write_latency_table(&mut out, measured.samples, &measured.latencies)?;

    let find = |name: &str| measured.latencies.iter().find(|l| l.name == name);
    let at = |name: &str, p: f64| find(name).map(|l| l.percentile(p));
    let impact_cut = find("impact depth 5").and_then(QueryLatency::truncated_median);
    let mut targets = Table::new(&["target", "measured", "limit", "result"]);
    for (name, measured, limit) in [
        (
            "neighbors distance 2, p50",
            at("neighbors distance 2", 50.0),
            300,
        ),
        (
            "neighbors distance 2, p95",
            at("neighbors distance 2", 95.0),
            1_000,
        ),
        ("impact cut at 1,000 results, p50", impact_cut, 500),
        ("callers, p50", at("callers depth 5", 50.0), 20),
        ("shortest path, p50", at("shortest path", 50.0), 10),
        (
            "open to first answer, median",
            Some(measured.first_answer),
            1_000,
        ),
    ] {
        let limit = Duration::from_micros(limit);
        let (shown, verdict) = match measured {
            Some(time) => (
                format!("{:.0} µs", time.as_secs_f64() * 1e6),
                if time <= limit { "PASS" } else { "MISS" },
            ),
            None => ("no sample".to_owned(), "-"),
        };
        targets.row(&[
            name.to_owned(),
            shown,
            format!("≤ {} µs", limit.as_micros()),
            verdict.to_owned(),
        ]);
    }
    println!();
    print!("{}", targets.render());

    // Allocations: counted on a snapshot of its own, after the timings (counting is off
    // while they run).
    let store = tsgraph::engine::Store::open_read_only(&db)?;
    let snapshot = store.snapshot()?;
    let stride = (snapshot.node_count()? as usize / args.samples).max(1);
    println!();
    println!("allocations from query start to the last TOON byte, warm:");
    print!(
        "{}",
        allocations_by_answer_size(&snapshot, stride)?.render()
    );
    Ok(())
}
