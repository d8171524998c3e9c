//! Token budgets and completeness: answers about a generated hub (a function with many
//! direct and transitive callers across many files) stay within their budget by a real
//! o200k tokenizer, carry the totals of the whole answer, list the direct tier first, name
//! the files of what they leave out, and page through every result; the token estimate
//! holds to ±10 % on the seeds' cases and on large answers.

use std::collections::BTreeSet;
use std::path::Path;
use tsgraph_tests::cli_in as cli;

use tiktoken_rs::CoreBPE;
use tsgraph::query::{Budget, TraversalOptions};
use tsgraph::{Format, IndexOptions, Output, Project, QueryRequest, SymbolArg};

/// Writes a project whose `hub` (in `src/hub.ts`) has `direct` callers, five to a file
/// under `src/direct/`, and `transitive` callers of those, each calling one direct caller,
/// spread over `files` files under `src/far/`.
pub(crate) fn hub_project(root: &Path, direct: usize, transitive: usize, files: usize) {
    let write = |path: &str, text: String| {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    write(
        "package.json",
        r#"{"name":"hub-app","version":"1.0.0"}"#.to_owned(),
    );
    write(
        "tsconfig.json",
        r#"{"compilerOptions":{"strict":true},"include":["src"]}"#.to_owned(),
    );
    write(
        "src/hub.ts",
        "export function hub(value: number): number {\n  return value + 1;\n}\n".to_owned(),
    );
    for file in 0..direct.div_ceil(5) {
        let mut text = String::from("import { hub } from \"../hub\";\n");
        for i in (file * 5..direct).take(5) {
            text.push_str(&format!(
                "export function directCaller{i}(n: number): number {{\n  return hub(n) * {i};\n}}\n"
            ));
        }
        write(&format!("src/direct/group{file}.ts"), text);
    }
    for file in 0..files {
        let mut text = String::new();
        let mine: Vec<usize> = (0..transitive).filter(|t| t % files == file).collect();
        let callees: BTreeSet<usize> = mine.iter().map(|t| t % direct).collect();
        for callee in &callees {
            text.push_str(&format!(
                "import {{ directCaller{callee} }} from \"../direct/group{}\";\n",
                callee / 5
            ));
        }
        for t in mine {
            text.push_str(&format!(
                "export function farCaller{t}(): number {{\n  return directCaller{}({t});\n}}\n",
                t % direct
            ));
        }
        write(&format!("src/far/module{file}.ts"), text);
    }
}

fn indexed_hub(direct: usize, transitive: usize, files: usize) -> (tempfile::TempDir, Project) {
    let dir = tempfile::tempdir().expect("tempdir");
    hub_project(dir.path(), direct, transitive, files);
    let project = Project::open(dir.path(), None).expect("open");
    project.index(&IndexOptions::default()).expect("index");
    (dir, project)
}

fn callers_of_hub() -> QueryRequest {
    QueryRequest::Callers {
        symbol: SymbolArg::new("hub"),
        options: TraversalOptions::default(),
    }
}

fn answer(project: &Project, request: &QueryRequest, format: Format, budget: Budget) -> String {
    let mut out = Vec::new();
    project
        .query_with(request, &Output::new(format).with_budget(budget), &mut out)
        .expect("query");
    String::from_utf8(out).expect("utf-8")
}

/// The hub's callers in `format` under `budget`.
fn hub_callers(project: &Project, format: Format, budget: Budget) -> String {
    answer(project, &callers_of_hub(), format, budget)
}

/// `request` answered in JSON under `budget`, parsed.
fn json_answer(project: &Project, request: &QueryRequest, budget: Budget) -> serde_json::Value {
    serde_json::from_str(&answer(project, request, Format::Json, budget)).expect("json")
}

/// The value of `key` on any line of a TOON answer, indented or not (a field of a nested
/// object such as `next`).
pub(crate) fn nested_field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .find_map(|line| line.trim().strip_prefix(key)?.strip_prefix(": "))
}

fn o200k() -> &'static CoreBPE {
    tiktoken_rs::o200k_base_singleton()
}

fn tokens(text: &str) -> usize {
    o200k().encode_ordinary(text).len()
}

/// The value of a top-level TOON field (`key: value`).
fn toon_field<'a>(answer: &'a str, key: &str) -> Option<&'a str> {
    answer
        .lines()
        .find_map(|line| line.strip_prefix(key)?.strip_prefix(": "))
}

/// The IDs of the node rows of a TOON callers answer (the first cell of each row of a
/// `functions[...]` table).
fn toon_rows(answer: &str) -> Vec<(String, u32)> {
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in answer.lines() {
        if line.starts_with("functions[") {
            in_table = true;
            continue;
        }
        if in_table && let Some(row) = line.strip_prefix("  ") {
            let cells: Vec<&str> = row.split(',').collect();
            let id = cells[0].trim_matches('"').to_owned();
            rows.push((id, cells[2].parse().expect("depth")));
            continue;
        }
        in_table = false;
    }
    rows
}

#[test]
fn a_budgeted_answer_fits_carries_totals_lists_direct_first_and_pages_through_everything() {
    let (_dir, project) = indexed_hub(60, 1200, 40);
    let budget = 2_000;
    let mut offset = 0;
    let mut generation = None;
    let mut seen: Vec<String> = Vec::new();
    let mut pages = 0;
    loop {
        let text = hub_callers(
            &project,
            Format::Toon,
            Budget {
                tokens: budget,
                offset,
                generation,
            },
        );
        pages += 1;
        let real = tokens(&text);
        assert!(real <= budget, "page {pages}: {real} tokens\n{text}");
        assert_eq!(toon_field(&text, "total"), Some("1260"), "{text}");
        assert_eq!(toon_field(&text, "direct"), Some("60"));
        assert_eq!(toon_field(&text, "depths[2]"), Some("60,1200"));
        assert_eq!(toon_field(&text, "complete"), Some("false"));
        let rows = toon_rows(&text);
        assert_eq!(
            toon_field(&text, "listed").map(|n| n.parse::<usize>().expect("present")),
            Some(rows.len())
        );
        assert!(!rows.is_empty(), "{text}");
        // Nearest first: every direct caller before any transitive one.
        let listed_before = seen.len();
        for (i, (_, depth)) in rows.iter().enumerate() {
            let expected = if listed_before + i < 60 { 1 } else { 2 };
            assert_eq!(
                *depth,
                expected,
                "row {} of page {pages}",
                listed_before + i
            );
        }
        seen.extend(rows.into_iter().map(|(id, _)| id));
        let Some(next) = text.split("next:\n").nth(1) else {
            // The last page names no files left out.
            assert!(!text.contains("unlisted["), "{text}");
            break;
        };
        // The files of what is left out, most first, and how to continue.
        assert!(text.contains("unlisted["), "{text}");
        offset = nested_field(next, "offset")
            .expect("next offset")
            .parse()
            .expect("number");
        generation = nested_field(next, "generation").map(|g| g.parse().expect("number"));
        assert_eq!(offset, seen.len());
        assert!(pages < 100, "paging does not end");
    }
    assert!(pages > 3, "{pages} pages");
    let distinct: BTreeSet<&String> = seen.iter().collect();
    assert_eq!(distinct.len(), 1260, "every caller once");
    assert_eq!(seen.len(), 1260);
}

#[test]
fn the_direct_tier_is_listed_whole_when_it_fits_and_the_rest_is_counted_by_file() {
    let (_dir, project) = indexed_hub(8, 600, 30);
    let text = hub_callers(&project, Format::Toon, Budget::tokens(1_000));
    let rows = toon_rows(&text);
    assert!(rows.len() >= 8, "{text}");
    assert!(rows[..8].iter().all(|(_, depth)| *depth == 1), "{text}");
    // The transitive tier: 600 callers in 30 files, 20 each; the first 10 files named.
    let unlisted = text
        .split("unlisted[10]{file,nodes}:\n")
        .nth(1)
        .expect(&text);
    let named: Vec<&str> = unlisted.lines().take(10).collect();
    assert!(
        named.iter().all(|l| l.trim().starts_with("src/far/module")),
        "{text}"
    );
    let more_files: usize = toon_field(&text, "moreFiles")
        .expect("moreFiles")
        .parse()
        .expect("present");
    assert_eq!(more_files, 20);
    let more_nodes: usize = toon_field(&text, "moreNodes")
        .expect("moreNodes")
        .parse()
        .expect("present");
    let named_nodes: usize = named
        .iter()
        .map(|l| {
            l.rsplit(',')
                .next()
                .expect("present")
                .parse::<usize>()
                .expect("present")
        })
        .sum();
    assert_eq!(named_nodes + more_nodes + rows.len(), 608);
}

#[test]
fn totals_cut_by_the_node_limit_are_marked_as_lower_bounds_in_every_format() {
    let (_dir, project) = indexed_hub(20, 400, 20);
    let request = QueryRequest::Callers {
        symbol: SymbolArg::new("hub"),
        options: TraversalOptions {
            max_nodes: 100,
            ..TraversalOptions::default()
        },
    };
    let budget = Budget::tokens(600);
    let toon = answer(&project, &request, Format::Toon, budget);
    assert_eq!(toon_field(&toon, "exact"), Some("false"), "{toon}");
    assert_eq!(toon_field(&toon, "truncated"), Some("true"));
    let text = answer(&project, &request, Format::Text, budget);
    assert!(
        text.contains("counts are lower bounds: the walk stopped at its node limit"),
        "{text}"
    );
    assert!(
        text.contains("incomplete: part of the results is listed; the node limit cut the walk")
    );
    let json = json_answer(&project, &request, budget);
    assert_eq!(json["listing"]["exact"], false);
    assert_eq!(json["complete"], false);
    let mermaid = answer(&project, &request, Format::Mermaid, budget);
    assert!(mermaid.contains("of at least 100 nodes"), "{mermaid}");
}

#[test]
fn a_page_asked_at_another_generation_says_so() {
    let (_dir, project) = indexed_hub(10, 100, 10);
    let first = json_answer(&project, &callers_of_hub(), Budget::tokens(1_500));
    let next = &first["next"];
    let offset = next["offset"].as_u64().expect("a next page") as usize;
    let generation = next["generation"].as_u64().expect("generation");
    let same = json_answer(
        &project,
        &callers_of_hub(),
        Budget {
            tokens: 1_500,
            offset,
            generation: Some(generation),
        },
    );
    assert_eq!(same["listing"]["offset"], offset);
    assert!(same["listing"].get("staleFrom").is_none(), "{same}");
    let stale = json_answer(
        &project,
        &callers_of_hub(),
        Budget {
            tokens: 1_500,
            offset,
            generation: Some(generation + 3),
        },
    );
    assert_eq!(stale["listing"]["staleFrom"], generation + 3);
}

#[test]
fn an_answer_within_its_budget_is_whole_and_says_it_is_complete() {
    let (_dir, project) = indexed_hub(5, 10, 2);
    for format in Format::ALL {
        let whole = hub_callers(&project, format, Budget::UNBOUNDED);
        let budgeted = hub_callers(&project, format, Budget::tokens(20_000));
        assert_eq!(whole, budgeted, "{format:?}");
    }
    let toon = hub_callers(&project, Format::Toon, Budget::tokens(20_000));
    assert_eq!(toon_field(&toon, "complete"), Some("true"));
    assert!(!toon.contains("listed:"));
}

#[test]
fn the_token_estimate_holds_to_ten_percent_on_the_seeds_and_on_large_answers() {
    let mut checked = 0;
    let mut check = |name: &str, text: &str| {
        let real = tokens(text);
        let estimate = tsgraph::encoders::tokens::estimate(text.as_bytes());
        let ratio = estimate as f64 / real as f64;
        assert!(
            (0.9..=1.1).contains(&ratio),
            "{name}: estimate {estimate}, o200k {real}"
        );
        checked += 1;
    };
    // The seeds' cases in the seeds' formats (TOON, text, JSON), as the golden answers hold
    // them. The small ones vary most — a token either way is a large share of a 40-token
    // answer —, so they count from 150 tokens.
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("golden");
    for seed in ["seed-000", "seed-001", "seed-002", "seed-003"] {
        for entry in std::fs::read_dir(golden.join(seed)).expect("goldens") {
            let path = entry.expect("entry").path();
            let seed_format = path
                .extension()
                .is_some_and(|e| e == "toon" || e == "txt" || e == "json");
            let text = std::fs::read_to_string(&path).expect("read");
            if seed_format && tokens(&text) >= 150 {
                check(&path.display().to_string(), &text);
            }
        }
    }
    // Large answers: every caller of a hub and its neighbors, whole, in every format.
    let (_dir, project) = indexed_hub(40, 800, 25);
    let neighbors = QueryRequest::Neighbors {
        symbol: SymbolArg::new("directCaller3"),
        options: tsgraph::query::NeighborOptions {
            distance: 2,
            ..Default::default()
        },
    };
    for request in [callers_of_hub(), neighbors] {
        for format in Format::ALL {
            let text = answer(&project, &request, format, Budget::UNBOUNDED);
            assert!(tokens(&text) > 1_000, "{format:?} is large");
            check(&format!("{format:?}"), &text);
        }
    }
    assert!(checked > 20, "{checked} answers checked");
}

#[test]
fn the_cli_budgets_toon_and_text_by_default_pages_with_offset_and_leaves_json_whole() {
    let dir = tempfile::tempdir().expect("tempdir");
    hub_project(dir.path(), 30, 600, 20);
    let (code, toon, err) = cli(dir.path(), &["callers", "hub"]);
    assert_eq!(code, 0, "{err}");
    assert!(tokens(&toon) <= tsgraph::CLI_MAX_TOKENS, "{toon}");
    assert_eq!(toon_field(&toon, "total"), Some("630"));
    let (_, text, _) = cli(
        dir.path(),
        &["callers", "hub", "--format", "text", "--max-tokens", "600"],
    );
    assert!(tokens(&text) <= 600, "{text}");
    assert!(
        text.contains("630 callers: 30 direct, 600 transitive"),
        "{text}"
    );
    assert!(text.contains("by depth: 1: 30, 2: 600"), "{text}");
    // `next: offset N, generation G`
    let next = text
        .lines()
        .find_map(|l| l.strip_prefix("next: offset "))
        .expect("a continuation");
    let (offset, generation) = next
        .split_once(", generation ")
        .expect("offset and generation");
    let offset: usize = offset.parse().expect("offset");
    let listed_to = format!("listed: 1-{offset} of 630");
    assert!(text.contains(&listed_to), "{text}");
    let offset_arg = offset.to_string();
    let args = ["--offset", offset_arg.as_str(), "--generation", generation];
    let mut continued = vec!["callers", "hub", "--format", "text", "--max-tokens", "600"];
    continued.extend(&args);
    let (code, page, err) = cli(dir.path(), &continued);
    assert_eq!(code, 0, "{err}");
    let from = format!("listed: {}-", offset + 1);
    assert!(page.contains(&from), "{page}");
    assert!(!page.contains("note: the offset was given at generation"));
    // JSON is whole unless asked otherwise; --max-tokens 0 unbounds TOON.
    let (_, json, _) = cli(dir.path(), &["callers", "hub", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(json["nodes"].as_array().map(Vec::len), Some(630));
    assert_eq!(json["complete"], true);
    let (_, whole, _) = cli(dir.path(), &["callers", "hub", "--max-tokens", "0"]);
    assert_eq!(toon_rows(&whole).len(), 630);
    assert_eq!(toon_field(&whole, "complete"), Some("true"));
    // Paths are never cut, so they take no offset.
    let (code, _, err) = cli(dir.path(), &["path", "farCaller1", "hub", "--offset", "3"]);
    assert_eq!(code, tsgraph_cli::EXIT_USAGE, "{err}");
}

#[test]
fn a_search_page_cut_by_its_budget_continues_from_the_search_offset() {
    let (_dir, project) = indexed_hub(10, 300, 10);
    let search = |offset: usize| QueryRequest::Search {
        pattern: "farCaller*".to_owned(),
        options: tsgraph::query::SearchOptions {
            offset,
            limit: 200,
            ..Default::default()
        },
    };
    let first = answer(&project, &search(10), Format::Json, Budget::tokens(1_500));
    let first: serde_json::Value = serde_json::from_str(&first).expect("json");
    assert_eq!(first["total"], 300);
    assert_eq!(first["listing"]["offset"], 10);
    assert_eq!(first["listing"]["total"], 300);
    let listed = first["listing"]["listed"].as_u64().expect("listed") as usize;
    assert!(listed > 0 && listed < 200, "{first}");
    assert_eq!(first["next"]["offset"], 10 + listed);
    assert_eq!(first["complete"], false);
    // The continuation's first match is the one after the page.
    let whole = answer(&project, &search(0), Format::Json, Budget::UNBOUNDED);
    let whole: serde_json::Value = serde_json::from_str(&whole).expect("json");
    let next = answer(
        &project,
        &search(10 + listed),
        Format::Json,
        Budget::tokens(1_500),
    );
    let next: serde_json::Value = serde_json::from_str(&next).expect("json");
    assert_eq!(next["nodes"][0]["id"], whole["nodes"][10 + listed]["id"]);
    // A search page is complete only when it holds every match.
    assert_eq!(whole["complete"], false, "200 of 300");
}

#[test]
fn an_offset_past_the_end_is_an_error() {
    let (_dir, project) = indexed_hub(3, 3, 1);
    let mut out = Vec::new();
    let err = project
        .query_with(
            &callers_of_hub(),
            &Output::new(Format::Toon).with_budget(Budget {
                tokens: 500,
                offset: 7,
                generation: None,
            }),
            &mut out,
        )
        .expect_err("past the end");
    assert!(
        err.to_string()
            .contains("offset 7 is past the end of the answer (6 results)"),
        "{err}"
    );
}

#[test]
fn a_class_lists_every_direct_caller_of_all_its_methods_before_any_transitive_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("src")).expect("mkdir");
    std::fs::write(root.join("package.json"), r#"{"name":"class-app"}"#).expect("write");
    let mut text = String::from(
        "export class Store {\n  load(): number {\n    return 1;\n  }\n  save(): number {\n    return 2;\n  }\n}\n",
    );
    for i in 0..30 {
        let method = if i % 2 == 0 { "load" } else { "save" };
        text.push_str(&format!(
            "export function direct{i}(s: Store): number {{\n  return s.{method}();\n}}\n"
        ));
        for j in 0..4 {
            text.push_str(&format!(
                "export function far{i}x{j}(s: Store): number {{\n  return direct{i}(s);\n}}\n"
            ));
        }
    }
    std::fs::write(root.join("src/store.ts"), text).expect("write");
    let project = Project::open(root, None).expect("open");
    project.index(&IndexOptions::default()).expect("index");
    let request = QueryRequest::Callers {
        symbol: SymbolArg::new("Store"),
        options: TraversalOptions::default(),
    };
    let json = answer(&project, &request, Format::Json, Budget::tokens(3_000));
    let json: serde_json::Value = serde_json::from_str(&json).expect("json");
    let depths: Vec<u64> = json["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .flat_map(|s| s["nodes"].as_array().cloned().unwrap_or_default())
        .map(|n| n["depth"].as_u64().expect("depth"))
        .collect();
    let listed = json["listing"]["listed"].as_u64().expect("a listing") as usize;
    assert_eq!(depths.len(), listed);
    // 30 direct callers over the two methods, then 120 transitive ones.
    let direct = depths.iter().filter(|d| **d == 1).count();
    assert_eq!(direct, listed.min(30), "{json}");
}
