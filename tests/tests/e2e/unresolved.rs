//! Callers say how many call sites of the symbol's name the indexer could not resolve (a
//! receiver of unknown type: `any`, an untyped parameter), since those may reach it: a
//! `save` method called twice through such receivers, once through a typed one; `load`,
//! called only through the typed one, has none.

use tsgraph::{Format, Project, QueryRequest, SymbolArg, TraversalOptions};
use tsgraph_tests::golden;

fn indexed() -> (tempfile::TempDir, Project) {
    tsgraph_tests::indexed_fixture("unresolved-calls")
}

fn callers(symbol: &str) -> QueryRequest {
    QueryRequest::Callers {
        symbol: SymbolArg::new(symbol),
        options: TraversalOptions::default(),
    }
}

/// The output of `request` in every format, checked against its golden files.
fn outputs(project: &Project, name: &str, request: &QueryRequest) -> [String; 4] {
    golden(project, "unresolved-calls", name, request)
}

const NOTE: &str = "2 call sites of `.save` could not be resolved and may reach it";

#[test]
fn callers_count_the_unresolved_calls_of_the_name() {
    let (_dir, project) = indexed();
    let [toon, text, json, mermaid] = outputs(&project, "callers-Repo.save", &callers("Repo.save"));
    assert!(toon.contains("\nunresolved: 2\n"), "{toon}");
    assert!(text.contains(NOTE), "{text}");
    let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(value["summary"]["unresolved"], 2);
    assert!(mermaid.contains(NOTE), "{mermaid}");
    // The typed call is an edge, not a count.
    assert_eq!(value["nodes"][0]["id"], "src/use.ts:typed");
}

#[test]
fn a_class_counts_per_method() {
    let (_dir, project) = indexed();
    let [toon, text, json, _] = outputs(&project, "callers-Repo", &callers("Repo"));
    assert!(
        toon.contains("  \"src/repo.ts:Repo.save\":\n    unresolved: 2\n"),
        "{toon}"
    );
    assert_eq!(toon.matches("unresolved:").count(), 1, "{toon}");
    assert_eq!(text.matches(NOTE).count(), 1, "{text}");
    let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let counts: Vec<(&str, u64)> = value["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .map(|s| {
            (
                s["target"]["name"].as_str().unwrap_or(""),
                s["unresolved"].as_u64().unwrap_or(99),
            )
        })
        .collect();
    assert_eq!(counts, [("save", 2), ("load", 0)]);
    assert_eq!(value["summary"]["unresolved"], 2);
}

#[test]
fn none_unresolved_says_nothing_but_json_says_zero() {
    let (_dir, project) = indexed();
    let [toon, text, json, mermaid] = outputs(&project, "callers-Repo.load", &callers("Repo.load"));
    assert!(!toon.contains("\nunresolved:"), "{toon}");
    assert!(!text.contains("could not be resolved"), "{text}");
    assert!(!mermaid.contains("could not be resolved"), "{mermaid}");
    let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(value["summary"]["unresolved"], 0);
}

#[test]
fn callers_list_the_first_few_unresolved_sites_and_count_them_all() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("project");
    std::fs::create_dir_all(root.join("src")).expect("src");
    std::fs::write(root.join("package.json"), r#"{"name":"many"}"#).expect("package.json");
    std::fs::write(
        root.join("src/repo.ts"),
        "export class Repo {\n  save(row: string): void {}\n}\n",
    )
    .expect("repo");
    let calls: String = (0..7)
        .map(|i| format!("export function untyped{i}(x: any) {{\n  x.save(\"{i}\");\n}}\n"))
        .collect();
    std::fs::write(root.join("src/use.ts"), calls).expect("use");
    let project = Project::open(&root, Some(&dir.path().join("graph.redb"))).expect("open");
    project.index(&Default::default()).expect("index");
    let mut out = Vec::new();
    project
        .query(&callers("Repo.save"), Format::Json, &mut out)
        .expect("query");
    let json: serde_json::Value = serde_json::from_slice(&out).expect("JSON");
    assert_eq!(json["summary"]["unresolved"], 7);
    let sites = json["summary"]["unresolvedSites"]
        .as_array()
        .expect("sites");
    assert_eq!(sites.len(), tsgraph::query::UNRESOLVED_LISTED);
    assert_eq!(sites[0]["file"], "src/use.ts");
    assert_eq!(sites[0]["line"], 2);
    assert_eq!(sites[0]["call"], "x.save");
    assert_eq!(sites[0]["caller"], "src/use.ts:untyped0");
}

#[test]
fn unresolved_sites_name_the_declarations_they_may_reach() {
    let (_dir, project) = indexed();
    let [_, text, json, _] = outputs(&project, "callers-Repo.save", &callers("Repo.save"));
    let json: serde_json::Value = serde_json::from_str(&json).expect("json");
    let site = &json["summary"]["unresolvedSites"][0];
    assert_eq!(
        site["candidates"],
        serde_json::json!(["src/cache.ts:Cache.save", "src/repo.ts:Repo.save"]),
        "{json}"
    );
    assert_eq!(site["candidateCount"], 2);
    assert!(
        text.contains("; may reach src/cache.ts:Cache.save, src/repo.ts:Repo.save"),
        "{text}"
    );
}
