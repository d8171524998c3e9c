//! `toon-bench`: the TOON encoder against serde_json and the `toon-format` crate on a
//! synthetic table: CPU time, allocations, peak heap and token counts, as ratios measured in
//! the same run.
//!
//! Usage: `cargo run --release -p tsgraph-bench --bin toon-bench [-- --rows N --rounds N
//! --rival-every N --token-rows N]` (`--token-rows 0`: all rows).

use std::any::Any;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use tiktoken_rs::CoreBPE;
use tsgraph_bench::alloc::{self, AllocStats, CountingAlloc};
use tsgraph_bench::machine;
use tsgraph_bench::table::Table;
use tsgraph_bench::timing::{Contender, Samples, interleave};
use tsgraph_bench::toon_data;
use tsgraph_encoders::toon::{self, Encoder, Options};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// The data set's seed: fixed, so every run encodes the same bytes.
const SEED: u64 = 0x7453_6772_6170_6821;

/// Target: our encode's CPU time at most this multiple of `serde_json::to_string`'s.
const TARGET_VS_JSON: f64 = 1.3;
/// Target: `toon-format` at least this many times slower than our `to_string`.
const TARGET_VS_RIVAL: f64 = 25.0;
/// Target: peak heap during an encode at most this multiple of the output's size.
const TARGET_PEAK: f64 = 2.0;

struct Args {
    rows: usize,
    rounds: usize,
    rival_every: usize,
    token_rows: usize,
}

fn parse_args() -> Result<Args> {
    let mut args = Args {
        rows: 100_000,
        rounds: 11,
        rival_every: 2,
        token_rows: 0,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = |it: &mut dyn Iterator<Item = String>| -> Result<usize> {
            let text = it.next().with_context(|| format!("{flag} needs a value"))?;
            text.parse()
                .with_context(|| format!("{flag}: not a number: {text}"))
        };
        match flag.as_str() {
            "--rows" => args.rows = value(&mut it)?,
            "--rounds" => args.rounds = value(&mut it)?.max(1),
            "--rival-every" => args.rival_every = value(&mut it)?.max(1),
            "--token-rows" => args.token_rows = value(&mut it)?,
            "-h" | "--help" => {
                println!(
                    "usage: toon-bench [--rows N] [--rounds N] [--rival-every N] [--token-rows N]"
                );
                std::process::exit(0);
            }
            other => bail!("unknown argument {other} (try --help)"),
        }
    }
    if args.rows == 0 {
        bail!("--rows must be at least 1");
    }
    Ok(args)
}

fn main() -> Result<()> {
    let args = parse_args()?;
    let opts = Options::default();
    let rows = toon_data::generate(args.rows, SEED);
    let n = rows.len();

    println!("toon-bench: TOON encoder vs serde_json and toon-format 0.7");
    println!(
        "machine: {} cores, {}, {} RAM; build: {}",
        machine::cores(),
        machine::cpu_model(),
        machine::total_memory().map_or_else(|| "?".to_owned(), machine::human_bytes),
        if cfg!(debug_assertions) {
            "DEBUG (figures meaningless: use --release)"
        } else {
            "release"
        }
    );
    println!(
        "data: {n} rows x {} fields (u64, i64, f64, bool, 3 short strings, 1 string needing quotes), seed {SEED:#x}",
        toon_data::FIELDS.len()
    );
    println!();

    // ---- outputs, once: sizes and like-for-like checks ---------------------------------------
    let json = serde_json::to_string(&rows)?;
    let ours = toon::to_string(&rows, &opts)?;
    let by_hand = toon_data::write_by_hand(Vec::new(), &rows, opts)?;
    let rival_started = Instant::now();
    let rival = toon_format::encode_default(&rows).context("toon-format failed to encode")?;
    let rival_wall = rival_started.elapsed();
    let by_hand_same = by_hand == ours.as_bytes();

    // ---- speed ---------------------------------------------------------------------------------
    let rounds = args.rounds;
    let samples = {
        let rows = &rows;
        let cap = ours.len().max(json.len());
        let mut json_buf = Vec::with_capacity(cap);
        let mut writer_buf = Vec::with_capacity(cap);
        let mut append_buf = Vec::with_capacity(cap);
        let mut hand_buf = Vec::with_capacity(cap);
        let mut encoder = Encoder::new(opts);
        let mut contenders = vec![
            contender("serde_json::to_string (baseline)", 1, move || {
                Ok(Box::new(serde_json::to_string(rows)?))
            }),
            contender("serde_json::to_writer, reused Vec", 1, move || {
                json_buf.clear();
                serde_json::to_writer(&mut json_buf, rows)?;
                Ok(Box::new(()))
            }),
            contender("toon::to_string", 1, move || {
                Ok(Box::new(toon::to_string(rows, &opts)?))
            }),
            contender("toon::to_writer, reused Vec", 1, move || {
                writer_buf.clear();
                toon::to_writer(&mut writer_buf, rows, &opts)?;
                Ok(Box::new(()))
            }),
            contender("Encoder::append_to_vec, reused", 1, move || {
                append_buf.clear();
                encoder.append_to_vec(&mut append_buf, rows)?;
                Ok(Box::new(()))
            }),
            contender("Writer by hand, reused Vec", 1, move || {
                hand_buf.clear();
                toon_data::write_by_hand(&mut hand_buf, rows, opts)?;
                Ok(Box::new(()))
            }),
            contender("toon_format::encode_default", args.rival_every, move || {
                Ok(Box::new(toon_format::encode_default(rows)?))
            }),
        ];
        interleave(&mut contenders, rounds)?
    };
    let median_of = |name: &str| -> Result<Duration> {
        samples
            .iter()
            .find(|s| s.name.starts_with(name))
            .map(Samples::median)
            .with_context(|| format!("no samples for {name}"))
    };
    let base = median_of("serde_json::to_string")?;
    let t_string = median_of("toon::to_string")?;
    let t_writer = median_of("toon::to_writer")?;
    let t_append = median_of("Encoder::append_to_vec")?;
    let t_hand = median_of("Writer by hand")?;
    let t_rival = median_of("toon_format")?;

    let mut speed = Table::new(&[
        "encode (100% = serde_json::to_string)",
        "median CPU",
        "min..max",
        "runs",
        "output MB/s",
        "x baseline",
    ]);
    for s in &samples {
        let out_len = if s.name.starts_with("serde_json") {
            json.len()
        } else if s.name.starts_with("toon_format") {
            rival.len()
        } else {
            ours.len()
        };
        let med = s.median();
        let min = s.times.iter().min().copied().unwrap_or_default();
        let max = s.times.iter().max().copied().unwrap_or_default();
        speed.row(&[
            s.name.to_owned(),
            ms(med),
            format!("{}..{}", ms(min), ms(max)),
            s.times.len().to_string(),
            format!("{:.0}", out_len as f64 / 1e6 / med.as_secs_f64().max(1e-9)),
            format!("{:.2}", ratio(med, base)),
        ]);
    }
    println!(
        "Speed: thread CPU time per encode of all {n} rows, median of {rounds} interleaved rounds \
         (toon-format in 1 of every {} rounds), after one warm-up run each",
        args.rival_every
    );
    print!("{}", speed.render());
    println!(
        "(toon-format's first, cold encode took {} wall)",
        ms(rival_wall)
    );
    println!();

    // ---- allocations -----------------------------------------------------------------------
    // Each case runs once to warm up (buffers reach their size), then once more counted.
    let mut allocs = Table::new(&[
        "allocations (2nd run, counted)",
        "allocs",
        "reallocs",
        "allocs/row",
        "bytes allocated",
        "peak heap",
        "peak / output",
    ]);
    let mut cases: Vec<(&str, AllocStats, usize)> = Vec::new();
    {
        let mut buf = Vec::new();
        toon::to_writer(&mut buf, &rows, &opts)?;
        buf.clear();
        let (r, stats) = alloc::measure(|| toon::to_writer(&mut buf, &rows, &opts));
        r?;
        cases.push(("toon::to_writer, reused Vec", stats, buf.len()));
    }
    {
        let mut encoder = Encoder::new(opts);
        let mut buf = Vec::new();
        encoder.append_to_vec(&mut buf, &rows)?;
        buf.clear();
        let (r, stats) = alloc::measure(|| encoder.append_to_vec(&mut buf, &rows));
        r?;
        cases.push(("Encoder::append_to_vec, reused", stats, buf.len()));
    }
    {
        let mut buf = Vec::new();
        toon_data::write_by_hand(&mut buf, &rows, opts)?;
        buf.clear();
        let (r, stats) =
            alloc::measure(|| toon_data::write_by_hand(&mut buf, &rows, opts).map(drop));
        r?;
        cases.push(("Writer by hand, reused Vec", stats, buf.len()));
    }
    {
        drop(toon::to_string(&rows, &opts)?);
        let (r, stats) = alloc::measure(|| toon::to_string(&rows, &opts));
        cases.push(("toon::to_string (fresh String)", stats, r?.len()));
    }
    {
        let (r, stats) = alloc::measure(|| {
            let mut buf = Vec::new();
            toon::to_writer(&mut buf, &rows, &opts).map(|()| buf)
        });
        cases.push(("toon::to_writer, fresh Vec", stats, r?.len()));
    }
    {
        let (r, stats) = alloc::measure(|| serde_json::to_string(&rows));
        cases.push(("serde_json::to_string (reference)", stats, r?.len()));
    }
    {
        let (r, stats) = alloc::measure(|| toon_format::encode_default(&rows));
        cases.push(("toon_format::encode_default (reference)", stats, r?.len()));
    }
    for (name, s, out_len) in &cases {
        allocs.row(&[
            (*name).to_owned(),
            s.allocs.to_string(),
            s.reallocs.to_string(),
            format!("{:.5}", s.allocations() as f64 / n as f64),
            machine::human_bytes(s.bytes),
            machine::human_bytes(s.peak_above_start as u64),
            format!(
                "{:.2}x",
                s.peak_above_start as f64 / (*out_len).max(1) as f64
            ),
        ]);
    }
    println!(
        "Heap: counting allocator; 'peak heap' is the most heap in use above the level before \
         the call (a realloc that moves counts old + new block); output = the call's output size"
    );
    print!("{}", allocs.render());
    println!();

    // ---- tokens ---------------------------------------------------------------------------
    let token_rows = if args.token_rows == 0 {
        n
    } else {
        args.token_rows.min(n)
    };
    let sample = &rows[..token_rows];
    let (auto_form, auto_text) = toon_data::records_auto(sample)?;
    let auto_name = format!("TOON records, auto (chose {auto_form})");
    let texts: Vec<(&str, String)> = vec![
        ("JSON, pretty", serde_json::to_string_pretty(sample)?),
        ("JSON, compact", serde_json::to_string(sample)?),
        ("TOON (toon::to_string)", toon::to_string(sample, &opts)?),
        (&auto_name, auto_text),
    ];
    let o200k = tiktoken_rs::o200k_base_singleton();
    let cl100k = tiktoken_rs::cl100k_base_singleton();
    let token_started = Instant::now();
    let counted: Vec<(&str, TokenCount)> = texts
        .iter()
        .map(|(name, text)| {
            let count_of = TokenCount {
                bytes: text.len(),
                o200k: count(o200k, text),
                cl100k: count(cl100k, text),
            };
            (*name, count_of)
        })
        .collect();
    let token_time = token_started.elapsed();
    let json_tokens = counted
        .iter()
        .find(|(name, _)| *name == "JSON, compact")
        .map(|(_, c)| *c)
        .context("compact JSON was not counted")?;
    let mut tokens = Table::new(&[
        "format",
        "bytes",
        "o200k tokens",
        "vs compact JSON",
        "cl100k tokens",
        "vs compact JSON",
    ]);
    for (name, c) in &counted {
        tokens.row(&[
            (*name).to_owned(),
            c.bytes.to_string(),
            c.o200k.to_string(),
            pct(c.o200k, json_tokens.o200k),
            c.cl100k.to_string(),
            pct(c.cl100k, json_tokens.cl100k),
        ]);
    }
    println!(
        "Tokens: the first {token_rows} of {n} rows{} (tiktoken-rs o200k_base and cl100k_base; \
         counting took {:.1} s)",
        if token_rows == n { " (all)" } else { "" },
        token_time.as_secs_f64()
    );
    print!("{}", tokens.render());
    println!();

    // ---- like for like -------------------------------------------------------------------
    println!("Output checks:");
    println!(
        "  ours (to_string) {} bytes; Writer by hand {}; serde_json {} bytes (TOON = {:.1}% of JSON)",
        ours.len(),
        if by_hand_same {
            "identical".to_owned()
        } else {
            format!("DIFFERS ({} bytes)", by_hand.len())
        },
        json.len(),
        100.0 * ours.len() as f64 / json.len() as f64
    );
    let rival_same = rival == ours;
    if rival_same {
        println!(
            "  toon-format 0.7: identical output ({} bytes)",
            rival.len()
        );
    } else {
        println!(
            "  toon-format 0.7: DIFFERS: {} bytes vs our {} ({:+} bytes); {}",
            rival.len(),
            ours.len(),
            rival.len() as i64 - ours.len() as i64,
            first_difference(&ours, &rival)
        );
    }
    println!();

    // ---- targets --------------------------------------------------------------------------
    let mut targets = Table::new(&["target", "measured", "target", "result"]);
    let vs_json = |name: &str, t: Duration, targets: &mut Table| {
        let r = ratio(t, base);
        targets.row(&[
            format!("CPU {name} / serde_json::to_string"),
            format!("{r:.2}x"),
            format!("<= {TARGET_VS_JSON}x"),
            verdict(r <= TARGET_VS_JSON).to_owned(),
        ]);
    };
    vs_json("toon::to_string", t_string, &mut targets);
    vs_json("toon::to_writer (reused Vec)", t_writer, &mut targets);
    vs_json("Encoder::append_to_vec (reused)", t_append, &mut targets);
    vs_json("Writer by hand (reused Vec)", t_hand, &mut targets);
    let speedup = ratio(t_rival, t_string);
    targets.row(&[
        "CPU toon-format encode_default / toon::to_string".to_owned(),
        format!("{speedup:.1}x"),
        format!(">= {TARGET_VS_RIVAL}x"),
        verdict(speedup >= TARGET_VS_RIVAL).to_owned(),
    ]);
    targets.row(&[
        "toon-format output == ours".to_owned(),
        if rival_same {
            "identical".to_owned()
        } else {
            format!("{:+} bytes", rival.len() as i64 - ours.len() as i64)
        },
        "identical".to_owned(),
        verdict(rival_same).to_owned(),
    ]);
    for (name, s, _) in &cases[..3] {
        // Allocations per document (the encoder's scratch, the writer's 8 KiB buffer) are not
        // per row; "0 per row" means no allocation inside the row loop, i.e. fewer than one
        // per thousand rows in total.
        let per_row = s.allocations() as f64 / n as f64;
        targets.row(&[
            format!("allocs/row after warm-up, {name}"),
            format!("{per_row:.5} ({} in total)", s.allocations()),
            "0 (< 0.001)".to_owned(),
            verdict(per_row < 0.001).to_owned(),
        ]);
    }
    for (name, s, out_len) in &cases[3..5] {
        let r = s.peak_above_start as f64 / (*out_len).max(1) as f64;
        targets.row(&[
            format!("peak heap / output, {name}"),
            format!("{r:.2}x"),
            format!("<= {TARGET_PEAK}x"),
            verdict(r <= TARGET_PEAK).to_owned(),
        ]);
    }
    println!("Targets ({n} rows, {} cores):", machine::cores());
    print!("{}", targets.render());
    Ok(())
}

fn contender<'a>(
    name: &'static str,
    every: usize,
    run: impl FnMut() -> Result<Box<dyn Any>> + 'a,
) -> Contender<'a> {
    Contender {
        name,
        every,
        run: Box::new(run),
    }
}

/// One text's size and token counts.
#[derive(Debug, Clone, Copy)]
struct TokenCount {
    bytes: usize,
    o200k: usize,
    cl100k: usize,
}

fn count(bpe: &CoreBPE, text: &str) -> usize {
    bpe.encode_ordinary(text).len()
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-12)
}

fn pct(a: usize, b: usize) -> String {
    format!("{:.1}%", 100.0 * a as f64 / b.max(1) as f64)
}

fn verdict(pass: bool) -> &'static str {
    if pass { "PASS" } else { "MISS" }
}

/// Where two documents first differ: line number and both lines (shortened).
fn first_difference(ours: &str, theirs: &str) -> String {
    let mut a = ours.lines();
    let mut b = theirs.lines();
    let mut line = 1;
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => line += 1,
            (None, None) => return "same lines, different line endings".to_owned(),
            (x, y) => {
                return format!(
                    "first difference on line {line}: ours {:?} / theirs {:?}",
                    shorten(x.unwrap_or("<end>")),
                    shorten(y.unwrap_or("<end>"))
                );
            }
        }
    }
}

fn shorten(s: &str) -> &str {
    match s.char_indices().nth(80) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}
