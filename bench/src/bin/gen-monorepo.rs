//! `gen-monorepo`: writes a deterministic synthetic TypeScript monorepo of a requested size,
//! with a manifest (`tsgraph-gen.json`) of what it holds, for the scaling benchmarks.
//!
//! Usage: `cargo run --release -p tsgraph-bench --bin gen-monorepo -- --lines 1000000
//! --out DIR [--seed N]`, or `--size 100k|1m|5m` instead of `--lines`.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use tsgraph_bench::machine::human_bytes;
use tsgraph_bench::monorepo::{self, DirSink, GenOptions, MANIFEST_FILE, MIN_LINES};

const USAGE: &str =
    "usage: gen-monorepo (--lines N | --size 100k|1m|5m) --out DIR [--seed N (default 1)]";

struct Args {
    options: GenOptions,
    out: PathBuf,
}

fn parse_args() -> Result<Args> {
    let mut lines = None;
    let mut seed = 1;
    let mut out = None;
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |flag: &str| it.next().with_context(|| format!("{flag} needs a value"));
        match arg.as_str() {
            "--lines" => {
                let text = value("--lines")?;
                lines = Some(
                    text.parse()
                        .with_context(|| format!("--lines: not a number: {text}"))?,
                );
            }
            "--size" => {
                let text = value("--size")?;
                lines = Some(monorepo::parse_size(&text).with_context(|| {
                    format!("--size: expected 100k, 1m, 5m or a number, got {text}")
                })?);
            }
            "--seed" => {
                let text = value("--seed")?;
                seed = text
                    .parse()
                    .with_context(|| format!("--seed: not a number: {text}"))?;
            }
            "--out" => out = Some(PathBuf::from(value("--out")?)),
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => bail!("unexpected argument {other}\n{USAGE}"),
        }
    }
    let lines: u64 = lines.with_context(|| format!("--lines or --size is required\n{USAGE}"))?;
    if lines < MIN_LINES {
        bail!("--lines must be at least {MIN_LINES}, got {lines}");
    }
    let out = out.with_context(|| format!("--out is required\n{USAGE}"))?;
    Ok(Args {
        options: GenOptions { lines, seed },
        out,
    })
}

fn main() -> Result<()> {
    let args = parse_args()?;
    let started = Instant::now();
    let mut sink = DirSink::new(&args.out)?;
    let manifest = monorepo::generate(&args.options, &mut sink)
        .with_context(|| format!("writing into {}", args.out.display()))?;
    let elapsed = started.elapsed();
    let libraries = manifest
        .packages
        .iter()
        .filter(|p| p.kind == "library")
        .count();
    let apps = manifest.packages.iter().filter(|p| p.kind == "app").count();
    println!("wrote {} (seed {})", args.out.display(), manifest.seed);
    println!(
        "  source files {:>9}  lines {:>10}  {} (target {} lines)",
        manifest.source_files,
        manifest.source_lines,
        human_bytes(manifest.source_bytes),
        manifest.target_lines
    );
    println!(
        "  all files    {:>9}  lines {:>10}  {}",
        manifest.files,
        manifest.lines,
        human_bytes(manifest.bytes)
    );
    println!(
        "  packages {} (3 hubs, {libraries} libraries, {apps} apps), entities {}, longest file {} lines",
        manifest.package_count, manifest.entities, manifest.max_file_lines
    );
    println!(
        "  callables {}, recorded call edges {}; facts in {MANIFEST_FILE}",
        manifest.calls.callables, manifest.calls.call_edges
    );
    println!("  time {:.2} s", elapsed.as_secs_f64());
    Ok(())
}
