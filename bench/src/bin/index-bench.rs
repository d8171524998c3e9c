//! `index-bench`: indexes a directory with tsgraph and reports sizes, tree-sitter parse-only
//! time against full index time (their ratio), what the graph holds, the store's size and
//! peak memory.
//!
//! Usage: `cargo run --release -p tsgraph-bench --bin index-bench -- DIR [--runs N]
//! [--threads N]`; fetch the pinned corpus with `bench/fetch-corpus.sh` and pass
//! `bench/corpus`.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use tsgraph_bench::machine::{self, human_bytes};
use tsgraph_bench::phase_cpu::{PhaseClock, PhaseCpu};
use tsgraph_bench::table::Table;
use tsgraph_bench::timing::process_cpu_time;
use tsgraph_engine::Store;
use tsgraph_indexer::{IndexOptions, IndexSummary, ParseSummary, index_project, parse_project};

struct Args {
    root: PathBuf,
    runs: usize,
    threads: usize,
    /// Run only this phase and print its peak memory (the child process of [`fresh_peak`]).
    peak_of: Option<String>,
}

fn parse_args() -> Result<Args> {
    let mut root = None;
    let mut runs = 2;
    let mut threads = 2;
    let mut peak_of = None;
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut number = |flag: &str| -> Result<usize> {
            let text = it.next().with_context(|| format!("{flag} needs a value"))?;
            text.parse()
                .with_context(|| format!("{flag}: not a number: {text}"))
        };
        match arg.as_str() {
            "--runs" => runs = number("--runs")?.max(1),
            "--threads" => threads = number("--threads")?,
            "--peak-of" => peak_of = it.next(),
            "-h" | "--help" => {
                println!("usage: index-bench DIR [--runs N (default 2)] [--threads N (default 2)]");
                std::process::exit(0);
            }
            flag if flag.starts_with('-') => bail!("unknown argument {flag} (try --help)"),
            dir if root.is_none() => root = Some(PathBuf::from(dir)),
            extra => bail!("unexpected argument {extra}: one directory only"),
        }
    }
    let root =
        root.context("usage: index-bench DIR (e.g. bench/corpus after bench/fetch-corpus.sh)")?;
    let root = root
        .canonicalize()
        .with_context(|| format!("cannot open {}", root.display()))?;
    if !root.is_dir() {
        bail!("{} is not a directory", root.display());
    }
    Ok(Args {
        root,
        runs,
        threads,
        peak_of,
    })
}

/// One parse-only run and one index run.
struct Run {
    parse: ParseSummary,
    parse_cpu: Duration,
    index: IndexSummary,
    index_cpu: Duration,
    /// The index run's CPU time by phase.
    phases: Option<PhaseCpu>,
    store_size: u64,
}

/// The phases whose peak memory is measured, as `--peak-of` names them.
const PARSE: &str = "parse";
const INDEX: &str = "index";

/// The peak resident memory of `phase` run alone in a fresh process (this program again,
/// with `--peak-of`). Measured in-process after other phases, the figure would carry what
/// they left allocated (the allocator keeps freed memory) and read far above what a user's
/// `tsgraph index` costs.
fn fresh_peak(args: &Args, phase: &str) -> Result<u64> {
    let exe = std::env::current_exe().context("cannot find this program to measure memory")?;
    let output = std::process::Command::new(exe)
        .arg(&args.root)
        .args(["--threads", &args.threads.to_string(), "--peak-of", phase])
        .output()
        .context("cannot start the memory-measuring run")?;
    let text = String::from_utf8_lossy(&output.stdout);
    let peak = text
        .trim()
        .strip_prefix("peak ")
        .and_then(|b| b.parse().ok());
    match peak {
        Some(peak) if output.status.success() => Ok(peak),
        _ => bail!(
            "the {phase} run alone failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ),
    }
}

/// The child side of [`fresh_peak`]: runs `phase` once and prints `peak BYTES`.
fn print_peak(args: &Args, options: &IndexOptions, phase: &str) -> Result<()> {
    match phase {
        PARSE => {
            parse_project(&args.root, options).context("parse-only run failed")?;
        }
        INDEX => {
            index_into_temporary_store(args, options)?;
        }
        other => bail!("--peak-of {other}: expected {PARSE} or {INDEX}"),
    }
    let peak = machine::peak_rss().context("no VmHWM in /proc/self/status")?;
    println!("peak {peak}");
    Ok(())
}

fn main() -> Result<()> {
    tsgraph::tune_allocator();
    let args = parse_args()?;
    let options = IndexOptions {
        threads: args.threads,
        ..IndexOptions::default()
    };
    if let Some(phase) = &args.peak_of {
        return print_peak(&args, &options, phase);
    }
    let mut runs = Vec::with_capacity(args.runs);
    for _ in 0..args.runs {
        runs.push(run_once(&args, &options)?);
    }
    let best_parse = runs
        .iter()
        .min_by_key(|r| r.parse.time)
        .context("no runs")?;
    let best_index = runs
        .iter()
        .min_by_key(|r| r.index.total_time)
        .context("no runs")?;
    let s = &best_index.index;
    let parse = &best_parse.parse;

    println!("index-bench: {}", args.root.display());
    println!(
        "machine: {} cores, {}, {} RAM; {} indexer threads; build: {}",
        machine::cores(),
        machine::cpu_model(),
        machine::total_memory().map_or_else(|| "?".to_owned(), human_bytes),
        args.threads,
        if cfg!(debug_assertions) {
            "DEBUG (figures meaningless: use --release)"
        } else {
            "release"
        }
    );
    println!(
        "{} run(s) of parse-only then index; times are the better of {} (wall, as the indexer \
         reports them), CPU is all threads of that run",
        args.runs, args.runs
    );
    println!();

    let mb = |bytes: u64, d: Duration| bytes as f64 / 1e6 / d.as_secs_f64().max(1e-9);
    let mut t = Table::new(&["measure", "value", "note"]);
    t.row(&[
        "files".to_owned(),
        s.files.to_string(),
        format!(
            "indexed (.ts .tsx .mts .cts .js .jsx .mjs .cjs, no .d.ts); parse-only saw {}",
            parse.files
        ),
    ]);
    t.row(&["lines".to_owned(), s.lines.to_string(), String::new()]);
    t.row(&[
        "bytes".to_owned(),
        s.bytes.to_string(),
        human_bytes(s.bytes),
    ]);
    let skipped_bytes: u64 = s.skipped_too_large.iter().map(|(_, b)| b).sum();
    t.row(&[
        "skipped, over 1 MiB".to_owned(),
        s.skipped_too_large.len().to_string(),
        format!("{} in those files", human_bytes(skipped_bytes)),
    ]);
    t.separator();
    t.row(&[
        format!("parse only ({} threads)", args.threads),
        ms(parse.time),
        format!(
            "{:.1} MB/s; CPU {}",
            mb(parse.bytes, parse.time),
            ms(best_parse.parse_cpu)
        ),
    ]);
    t.row(&[
        format!("full index ({} threads)", args.threads),
        ms(s.total_time),
        format!(
            "{:.1} MB/s; CPU {}; of which walk+parse+extract {}",
            mb(s.bytes, s.total_time),
            ms(best_index.index_cpu),
            ms(s.parse_time)
        ),
    ]);
    if let Some(phases) = best_index.phases {
        for (phase, cpu) in [
            ("  CPU: walk, parse, extract", phases.extract),
            ("  CPU: model, resolve", phases.resolve),
            ("  CPU: link, write, commit", phases.link_write),
        ] {
            t.row(&[
                phase.to_owned(),
                ms(cpu),
                format!(
                    "{:.0}% of the index's CPU; all threads",
                    100.0 * cpu.as_secs_f64() / best_index.index_cpu.as_secs_f64().max(1e-9)
                ),
            ]);
        }
    }
    t.row(&[
        "index / parse".to_owned(),
        format!(
            "{:.2}x",
            s.total_time.as_secs_f64() / parse.time.as_secs_f64().max(1e-9)
        ),
        "full index time over parse-only time".to_owned(),
    ]);
    t.separator();
    t.row(&["nodes".to_owned(), s.nodes.to_string(), String::new()]);
    t.row(&["edges".to_owned(), s.edges.to_string(), String::new()]);
    for (kind, count) in &s.edges_by_kind {
        t.row(&[
            format!("  {}", kind.as_str()),
            count.to_string(),
            format!("{:.1}%", 100.0 * *count as f64 / s.edges.max(1) as f64),
        ]);
    }
    let calls = s.resolved_calls + s.unresolved_calls;
    t.row(&[
        "calls resolved".to_owned(),
        s.resolved_calls.to_string(),
        format!(
            "{:.1}% of {calls} call sites",
            100.0 * s.resolved_calls as f64 / calls.max(1) as f64
        ),
    ]);
    t.row(&[
        "calls unresolved".to_owned(),
        s.unresolved_calls.to_string(),
        "globals, methods on values, package imports".to_owned(),
    ]);
    t.row(&[
        "ERROR-byte share".to_owned(),
        format!("{:.3}%", 100.0 * s.error_share()),
        format!("{} bytes inside tree-sitter ERROR nodes", s.error_bytes),
    ]);
    t.separator();
    t.row(&[
        "store file".to_owned(),
        human_bytes(best_index.store_size),
        format!(
            "{} bytes; {:.0} bytes/node; {:.2}x the source bytes",
            best_index.store_size,
            best_index.store_size as f64 / s.nodes.max(1) as f64,
            best_index.store_size as f64 / s.bytes.max(1) as f64
        ),
    ]);
    let rss_note = "VmHWM of a fresh process running that phase alone";
    t.row(&[
        "peak RSS, parse only".to_owned(),
        human_bytes(fresh_peak(&args, PARSE)?),
        rss_note.to_owned(),
    ]);
    t.row(&[
        "peak RSS, index".to_owned(),
        human_bytes(fresh_peak(&args, INDEX)?),
        rss_note.to_owned(),
    ]);
    t.row(&[
        "warnings".to_owned(),
        s.warnings.len().to_string(),
        "including one per skipped file".to_owned(),
    ]);
    print!("{}", t.render());

    if !s.skipped_too_large.is_empty() {
        println!();
        println!("Skipped (over {} bytes):", options.max_file_size);
        for (path, size) in &s.skipped_too_large {
            println!("  {path} ({})", human_bytes(*size));
        }
    }
    let other: Vec<&String> = s
        .warnings
        .iter()
        .filter(|w| !w.contains("byte limit"))
        .collect();
    if !other.is_empty() {
        println!();
        println!("Other warnings ({}; first 10):", other.len());
        for w in other.iter().take(10) {
            println!("  {w}");
        }
    }
    Ok(())
}

/// Parse-only, then a full index into a fresh store in a temporary folder.
fn run_once(args: &Args, options: &IndexOptions) -> Result<Run> {
    let cpu = process_cpu_time();
    let parse = parse_project(&args.root, options).context("parse-only run failed")?;
    let parse_cpu = process_cpu_time().saturating_sub(cpu);
    // Progress on stderr, so that a crash in the index phase still leaves the parse figures.
    eprintln!(
        "parse only: {} files, {} bytes, {}; indexing…",
        parse.files,
        parse.bytes,
        ms(parse.time)
    );

    let cpu = process_cpu_time();
    let clock = PhaseClock::default();
    let (index, store_size) = index_into_temporary_store(args, &clock.watch(options))?;
    let phases = clock.phases();
    let index_cpu = process_cpu_time().saturating_sub(cpu);
    eprintln!(
        "index: {} files, {} nodes, {} edges, {}",
        index.files,
        index.nodes,
        index.edges,
        ms(index.total_time)
    );
    Ok(Run {
        parse,
        parse_cpu,
        index,
        index_cpu,
        phases,
        store_size,
    })
}

/// A full index of the project into a fresh store in a temporary folder, and the size the
/// store file has once closed.
fn index_into_temporary_store(args: &Args, options: &IndexOptions) -> Result<(IndexSummary, u64)> {
    let tmp = tempfile::tempdir().context("cannot create a temporary folder for the store")?;
    let path = tmp.path().join("graph.redb");
    let store = Store::open_or_create(&path)
        .with_context(|| format!("cannot create the store {}", path.display()))?;
    let index = index_project(&args.root, &store, options).context("index run failed")?;
    drop(store);
    let store_size = std::fs::metadata(&path)
        .with_context(|| format!("cannot stat {}", path.display()))?
        .len();
    Ok((index, store_size))
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1e3)
}
