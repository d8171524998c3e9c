//! Token economy on the design documents' own cases: each case is a fixture project
//! (`tests/fixtures/seed-*`) queried in every format; the o200k token counts are printed
//! next to the document's Format A (its own text for seeds 000 and 001, the same style
//! rendered from our JSON for the others), and TOON is checked to lose no fact: the facts
//! rebuilt from the decoded TOON must equal those rebuilt from the JSON output.
//!
//! Targets: TOON ≤ 40 % of Format A's tokens in total; ≥ 70 % fewer tokens than pretty JSON
//! of the same facts. The program exits 1 when a check or a target fails.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use tiktoken_rs::CoreBPE;
use tsgraph::{
    Direction, Format, NeighborOptions, PathOptions, Project, QueryRequest, SearchOptions,
    SymbolArg, TraversalOptions,
};
use tsgraph_bench::format_a;
use tsgraph_bench::table::Table;
use tsgraph_tests::facts::{from_json, from_toon};

/// One case: the seed, its fixture, the question, and the seed's own Format A if it has one.
struct Case {
    name: &'static str,
    fixture: &'static str,
    query: &'static str,
    request: QueryRequest,
    format_a: Option<&'static str>,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "000 find_path",
            fixture: "seed-000",
            query: "path",
            request: QueryRequest::Path {
                from: SymbolArg::new("indexProject"),
                to: SymbolArg::new("SqliteWriter.addNodes"),
                options: PathOptions::default(),
            },
            format_a: Some(include_str!("../../seeds/000-format-a.txt")),
        },
        Case {
            name: "001 get_neighbors",
            fixture: "seed-001",
            query: "neighbors",
            request: QueryRequest::Neighbors {
                symbol: SymbolArg::new("src/chain.ts:funcA"),
                options: NeighborOptions {
                    distance: 2,
                    direction: Direction::Both,
                    ..NeighborOptions::default()
                },
            },
            format_a: Some(include_str!("../../seeds/001-format-a.txt")),
        },
        Case {
            name: "002 get_file_symbols",
            fixture: "seed-002",
            query: "file-symbols",
            request: QueryRequest::FileSymbols {
                file: "src/db/Types.ts".to_owned(),
            },
            format_a: None,
        },
        Case {
            name: "002 search_nodes",
            fixture: "seed-002",
            query: "search",
            request: QueryRequest::Search {
                pattern: "*Node".to_owned(),
                options: SearchOptions::default(),
            },
            format_a: None,
        },
        Case {
            name: "003 callers",
            fixture: "seed-003",
            query: "callers",
            request: QueryRequest::Callers {
                symbol: SymbolArg::new("formatDate"),
                options: TraversalOptions::default(),
            },
            format_a: None,
        },
    ]
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

fn answer(project: &Project, request: &QueryRequest, format: Format) -> Result<String> {
    let mut out = Vec::new();
    project.query(request, format, &mut out)?;
    Ok(String::from_utf8(out)?)
}

fn tokens(bpe: &CoreBPE, text: &str) -> usize {
    bpe.encode_ordinary(text).len()
}

fn pct(part: usize, whole: usize) -> String {
    if whole == 0 {
        "-".to_owned()
    } else {
        format!("{:.0}%", part as f64 * 100.0 / whole as f64)
    }
}

fn main() -> Result<()> {
    let bpe = tiktoken_rs::o200k_base_singleton();
    let mut table = Table::new(&[
        "case",
        "Format A",
        "TOON",
        "TOON/A",
        "text",
        "JSON",
        "Mermaid",
        "pretty JSON of the facts",
        "TOON saves vs pretty",
        "facts equal",
    ]);
    let (mut sum_a, mut sum_toon, mut sum_pretty) = (0, 0, 0);
    let mut failures = Vec::new();
    for case in cases() {
        let dir = tempfile::tempdir()?;
        let project = Project::open(
            fixtures().join(case.fixture),
            Some(&dir.path().join("g.redb")),
        )
        .with_context(|| case.fixture)?;
        project.index(&Default::default())?;
        let toon = answer(&project, &case.request, Format::Toon)?;
        let text = answer(&project, &case.request, Format::Text)?;
        let json = answer(&project, &case.request, Format::Json)?;
        let mermaid = answer(&project, &case.request, Format::Mermaid)?;
        let format_a = match case.format_a {
            Some(text) => text.to_owned(),
            None => format_a::render(&json)?,
        };
        let from_toon =
            from_toon(&toon, case.query).with_context(|| format!("{}: TOON", case.name))?;
        let from_json = from_json(&json).with_context(|| format!("{}: JSON", case.name))?;
        let equal = from_toon == from_json;
        if !equal {
            failures.push(format!(
                "{}: the facts of TOON and JSON differ\n--- from TOON\n{}\n--- from JSON\n{}",
                case.name,
                serde_json::to_string_pretty(&from_toon)?,
                serde_json::to_string_pretty(&from_json)?
            ));
        }
        let pretty = serde_json::to_string_pretty(&from_json)?;
        let (a, t, p) = (
            tokens(bpe, &format_a),
            tokens(bpe, &toon),
            tokens(bpe, &pretty),
        );
        sum_a += a;
        sum_toon += t;
        sum_pretty += p;
        table.row(&[
            case.name.to_owned(),
            a.to_string(),
            t.to_string(),
            pct(t, a),
            tokens(bpe, &text).to_string(),
            tokens(bpe, &json).to_string(),
            tokens(bpe, &mermaid).to_string(),
            p.to_string(),
            pct(p - t.min(p), p),
            if equal { "yes" } else { "NO" }.to_owned(),
        ]);
        if std::env::var_os("TOKEN_BENCH_SHOW").is_some() {
            println!(
                "==== {} (TOON)\n{toon}\n==== Format A\n{format_a}",
                case.name
            );
        }
    }
    table.separator();
    table.row(&[
        "total".to_owned(),
        sum_a.to_string(),
        sum_toon.to_string(),
        pct(sum_toon, sum_a),
        String::new(),
        String::new(),
        String::new(),
        sum_pretty.to_string(),
        pct(sum_pretty - sum_toon.min(sum_pretty), sum_pretty),
        String::new(),
    ]);
    print!("{}", table.render());
    println!(
        "o200k_base tokens (tiktoken-rs). Format A: the seed's own text (000, 001) or the same \
         style rendered from our JSON (002, 003). Pretty JSON: the facts rebuilt from the JSON \
         output, pretty-printed."
    );
    let toon_share = sum_toon as f64 / sum_a as f64;
    let saving = 1.0 - sum_toon as f64 / sum_pretty as f64;
    println!(
        "TOON / Format A: {:.1}% (target ≤ 40%); TOON vs pretty JSON: {:.1}% fewer (target ≥ 70%)",
        toon_share * 100.0,
        saving * 100.0
    );
    if toon_share > 0.40 {
        failures.push(format!("TOON is {:.1}% of Format A", toon_share * 100.0));
    }
    if saving < 0.70 {
        failures.push(format!(
            "TOON saves only {:.1}% against pretty JSON",
            saving * 100.0
        ));
    }
    if !failures.is_empty() {
        for failure in &failures {
            eprintln!("{failure}");
        }
        bail!("{} check(s) failed", failures.len());
    }
    Ok(())
}
