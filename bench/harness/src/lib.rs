//! `tsgraph bench`: what tsgraph costs on a given project, for a team deciding whether it
//! fits their monorepo. A fresh index into a temporary store (time by phase, throughput,
//! peak memory, store size, graph counts, parse-error share), then warm query latencies over
//! sampled symbols, then the time from opening the store to a first answer — in this
//! process and, given the CLI, in a fresh one.
//!
//! ```no_run
//! # fn main() -> Result<(), tsgraph::Error> {
//! let report = tsgraph_bench_harness::run(std::path::Path::new("."), &Default::default())?;
//! report.write_markdown(&mut std::io::stdout(), None).expect("stdout");
//! # Ok(()) }
//! ```

mod chart;
mod latency;
pub mod machine;
mod report;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tsgraph::encoders::graph::ToonSink;
use tsgraph::engine::{NodeKind, Store};
use tsgraph::indexer::{IndexOptions, IndexSummary, index_project};
use tsgraph::query::Query;

pub use chart::write_latency_chart;
pub use latency::{AnswerSize, QueryLatency};
pub use report::write_latency_table;

use tsgraph::Error;

/// How to run the benchmark.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// The indexing options (threads, size limit, progress).
    pub index: IndexOptions,
    /// Symbols sampled for the latency queries (default 200).
    pub samples: usize,
    /// The sampling seed (default 1): the same project and seed ask the same questions.
    pub seed: u64,
    /// The tsgraph executable, to time a first answer in a fresh process; `None` skips it.
    pub cli: Option<PathBuf>,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            index: IndexOptions::default(),
            samples: 200,
            seed: 1,
            cli: None,
        }
    }
}

/// Everything `tsgraph bench` measured.
#[derive(Debug, Clone)]
pub struct BenchReport {
    /// The project.
    pub root: PathBuf,
    /// The fresh index.
    pub index: IndexSummary,
    /// Peak resident memory of the index (VmHWM after a reset), where the OS reports it.
    pub peak_rss: Option<u64>,
    /// The store file's size after the index.
    pub store_bytes: u64,
    /// Where the store's bytes go, table by table, largest first.
    pub store_tables: Vec<tsgraph::engine::TableSpace>,
    /// Nodes per kind.
    pub nodes_by_kind: Vec<(NodeKind, u64)>,
    /// Symbols the latency queries were asked about.
    pub samples: usize,
    /// Warm latencies per query.
    pub latencies: Vec<QueryLatency>,
    /// Opening the store and answering one `callers` query in this process (median of 5).
    pub first_answer_in_process: Duration,
    /// The same through the CLI in a fresh process (median of 5), and that process's floor
    /// (`tsgraph --version`), when the CLI was given.
    pub first_answer_fresh_process: Option<(Duration, Duration)>,
}

/// Runs the benchmark on the project at `root` (see the module docs). The index goes into a
/// temporary store, so the project's own store is neither used nor touched.
pub fn run(root: &Path, options: &BenchOptions) -> Result<BenchReport, Error> {
    let temporary = tempfile::tempdir().map_err(|source| Error::Io {
        path: std::env::temp_dir(),
        source,
    })?;
    let db = temporary.path().join("graph.redb");
    let store = Store::open_or_create(&db)?;
    machine::reset_peak_rss();
    let index = index_project(root, &store, &options.index)?;
    let peak_rss = machine::peak_rss();
    let store_tables = store.space()?;
    drop(store);
    let store_bytes = std::fs::metadata(&db)
        .map_err(|source| Error::Io {
            path: db.clone(),
            source,
        })?
        .len();

    let queries = measure_queries(&db, options.samples, options.seed, 1)?;
    let first_answer_fresh_process = match (&options.cli, &queries.probe) {
        (Some(cli), Some(id)) => Some(fresh_process(cli, root, &db, id)?),
        _ => None,
    };
    Ok(BenchReport {
        root: root.to_path_buf(),
        index,
        peak_rss,
        store_bytes,
        store_tables,
        nodes_by_kind: queries.nodes_by_kind,
        samples: queries.samples,
        latencies: queries.latencies,
        first_answer_in_process: queries.first_answer,
        first_answer_fresh_process,
    })
}

/// What [`measure_queries`] found.
#[derive(Debug, Clone)]
pub struct QueryMeasures {
    /// Nodes per kind.
    pub nodes_by_kind: Vec<(NodeKind, u64)>,
    /// Symbols the queries were asked about.
    pub samples: usize,
    /// Warm latencies per query.
    pub latencies: Vec<QueryLatency>,
    /// Opening the store and answering one `callers` query (median of 5).
    pub first_answer: Duration,
    /// The ID that query was about (the first sample), if there was one.
    pub probe: Option<String>,
}

/// The query half of [`run`] on an existing store: warm latencies of representative
/// queries over `samples` symbols sampled with `seed` (each sample's time the median of
/// `rounds` timed passes), and the time from opening the store to a first answer.
pub fn measure_queries(
    db: &Path,
    samples: usize,
    seed: u64,
    rounds: usize,
) -> Result<QueryMeasures, Error> {
    let store = Store::open_read_only(db)?;
    let snapshot = store.snapshot()?;
    let census = latency::census(&snapshot, samples, seed)?;
    let latencies = latency::measure(&snapshot, &census.symbols, rounds)?;
    let probe = census.symbols.first().map(|(key, _)| *key);
    let probe_id = match probe {
        Some(key) => snapshot
            .node(key)?
            .map(|guard| guard.view().map(|n| n.id().to_owned())),
        None => None,
    }
    .transpose()?;
    drop(snapshot);
    drop(store);
    let first_answer = median_of_5(|| first_answer(db, probe))?;
    Ok(QueryMeasures {
        nodes_by_kind: census.nodes_by_kind,
        samples: census.symbols.len(),
        latencies,
        first_answer,
        probe: probe_id,
    })
}

/// Opens the store and answers `callers` (depth 5) about `probe`, as a freshly started
/// server would; returns the time.
fn first_answer(db: &Path, probe: Option<tsgraph::engine::NodeKey>) -> Result<Duration, Error> {
    let started = Instant::now();
    let store = Store::open_read_only(db)?;
    let snapshot = store.snapshot()?;
    if let Some(key) = probe {
        let mut out = Vec::new();
        let options = latency::TRAVERSAL;
        Query::new(&snapshot).callers(key, &options, &mut ToonSink::new(&mut out))?;
    }
    Ok(started.elapsed())
}

/// The CLI's `callers ID` in a fresh process, and its floor (`--version`), medians of 5.
fn fresh_process(
    cli: &Path,
    root: &Path,
    db: &Path,
    id: &str,
) -> Result<(Duration, Duration), Error> {
    let time = |args: &[&std::ffi::OsStr]| -> Result<Duration, Error> {
        let started = Instant::now();
        let status = std::process::Command::new(cli)
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .map_err(|source| Error::Io {
                path: cli.to_path_buf(),
                source,
            })?;
        let elapsed = started.elapsed();
        if !status.success() {
            return Err(Error::Io {
                path: cli.to_path_buf(),
                source: std::io::Error::other(format!("exited with {status}")),
            });
        }
        Ok(elapsed)
    };
    let answer = median_of_5(|| {
        time(&[
            "--project".as_ref(),
            root.as_os_str(),
            "callers".as_ref(),
            id.as_ref(),
            "--max-depth".as_ref(),
            "5".as_ref(),
            "--db".as_ref(),
            db.as_os_str(),
        ])
    })?;
    let floor = median_of_5(|| time(&["--version".as_ref()]))?;
    Ok((answer, floor))
}

fn median_of_5(mut run: impl FnMut() -> Result<Duration, Error>) -> Result<Duration, Error> {
    let mut times = (0..5).map(|_| run()).collect::<Result<Vec<_>, _>>()?;
    times.sort_unstable();
    Ok(times[2])
}
