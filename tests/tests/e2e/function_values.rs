//! Values that carry functions (tests/fixtures/function-values): a table of functions called
//! by a literal key reaches its entry; called by a computed key it may reach every function it
//! holds (may-calls, marked in every answer); a variable holding a function, and a factory's
//! returned object, are called through; a value references the functions it holds. Callees,
//! callers, impact and paths go through all of these.

use std::collections::BTreeSet;

use tsgraph::{Format, PathOptions, Project, QueryRequest, SymbolArg, TraversalOptions};
use tsgraph_tests::golden;

fn indexed() -> (tempfile::TempDir, Project) {
    tsgraph_tests::indexed_fixture("function-values")
}

/// Every CALLS edge as `SOURCE -> TARGET (resolution)`.
fn calls(project: &Project) -> BTreeSet<String> {
    tsgraph_tests::edge_rows(project, "CALLS")
        .into_iter()
        .map(|v| {
            format!(
                "{} -> {} ({})",
                v["source"].as_str().unwrap_or(""),
                v["target"].as_str().unwrap_or(""),
                v["resolution"].as_str().unwrap_or("")
            )
        })
        .collect()
}

fn has(edges: &BTreeSet<String>, wanted: &[&str]) {
    for edge in wanted {
        assert!(edges.contains(*edge), "missing {edge}: {edges:#?}");
    }
}

#[test]
fn a_literal_key_calls_its_entry_and_a_computed_key_may_call_every_entry() {
    let (_dir, project) = indexed();
    let calls = calls(&project);
    has(
        &calls,
        &[
            // `renderers.html(…)` and `renderers["text"](…)`: proved.
            "src/tables.ts:renderLiteral -> src/render.ts:renderHtml (alias)",
            "src/tables.ts:renderLiteral -> src/render.ts:renderText (alias)",
            // `renderers[kind](…)`: either.
            "src/tables.ts:renderKind -> src/render.ts:renderHtml (element)",
            "src/tables.ts:renderKind -> src/render.ts:renderText (element)",
            // A `Record<Kind, Renderer>` annotation does not hide what the value holds.
            "src/tables.ts:renderTyped -> src/render.ts:renderHtml (element)",
            "src/tables.ts:renderTyped -> src/render.ts:renderText (element)",
            // Entries written in place, through an import.
            "src/dispatch.ts:handle -> src/handlers.ts:handlers.open (element)",
            "src/dispatch.ts:handle -> src/handlers.ts:handlers.close (element)",
            // A list of functions.
            "src/handlers.ts:runStep -> src/handlers.ts:stepParse (element)",
            "src/handlers.ts:runStep -> src/handlers.ts:stepEmit (element)",
            // A table in a class field.
            "src/dispatch.ts:Router.go -> src/render.ts:renderHtml (element)",
            "src/dispatch.ts:Router.go -> src/render.ts:renderText (element)",
            // A variable holding a function.
            "src/tables.ts:validate -> src/render.ts:checkInput (alias)",
        ],
    );
    // A string entry is no function; a class indexed by a computed key is no table.
    let stray: Vec<&String> = calls
        .iter()
        .filter(|edge| {
            edge.contains("handlers.label") || edge.starts_with("src/dispatch.ts:Router.again ")
        })
        .collect();
    assert!(stray.is_empty(), "{stray:#?}");
}

#[test]
fn a_factorys_returned_object_is_called_through() {
    let (_dir, project) = indexed();
    has(
        &calls(&project),
        &[
            "src/factory.ts:listDirect -> src/factory.ts:listAll (alias)",
            "src/factory.ts:listThroughVariable -> src/factory.ts:listAll (alias)",
            "src/factory.ts:listShared -> src/factory.ts:listAll (alias)",
        ],
    );
}

#[test]
fn a_value_references_the_functions_it_holds() {
    let (_dir, project) = indexed();
    let references = tsgraph_tests::edges_of(&project, "REFERENCES");
    for edge in [
        "src/tables.ts:renderers -> src/render.ts:renderHtml",
        "src/tables.ts:renderers -> src/render.ts:renderText",
        "src/tables.ts:typedRenderers -> src/render.ts:renderText",
        "src/handlers.ts:steps -> src/handlers.ts:stepEmit",
        "src/factory.ts:makeClient -> src/factory.ts:listAll",
    ] {
        assert!(references.contains(edge), "missing {edge}: {references:#?}");
    }
}

#[test]
fn callers_and_impact_mark_the_calls_a_table_may_make() {
    let (_dir, project) = indexed();
    let request = QueryRequest::Callers {
        symbol: SymbolArg::new("renderText"),
        options: TraversalOptions::default(),
    };
    let [toon, text, json, mermaid] =
        golden(&project, "function-values", "callers-renderText", &request);
    let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let may: BTreeSet<(String, bool)> = value["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .map(|n| {
            (
                n["id"].as_str().unwrap_or("").to_owned(),
                n["mayCall"] == serde_json::Value::Bool(true),
            )
        })
        .collect();
    for wanted in [
        ("src/tables.ts:renderLiteral", false),
        ("src/tables.ts:renderKind", true),
        ("src/tables.ts:renderTyped", true),
        ("src/dispatch.ts:Router.go", true),
    ] {
        assert!(
            may.contains(&(wanted.0.to_owned(), wanted.1)),
            "{wanted:?}: {may:#?}"
        );
    }
    assert!(toon.contains(",may,"), "{toon}");
    assert!(text.contains("may call: "), "{text}");
    assert!(mermaid.contains("-.->"), "{mermaid}");

    let mut out = Vec::new();
    let impact = QueryRequest::Impact {
        symbol: SymbolArg::new("renderText"),
        options: TraversalOptions::default(),
    };
    project
        .query(&impact, Format::Json, &mut out)
        .expect("impact");
    let impact = String::from_utf8(out).expect("UTF-8");
    for id in [
        "src/tables.ts:renderKind",
        "src/dispatch.ts:Router.go",
        "src/tables.ts:renderers",
    ] {
        assert!(
            impact.contains(&format!("\"id\":\"{id}\"")),
            "{id}: {impact}"
        );
    }
}

#[test]
fn callees_and_paths_go_through_a_table() {
    let (_dir, project) = indexed();
    let callees = QueryRequest::Callees {
        symbol: SymbolArg::new("handle"),
        options: TraversalOptions::default(),
    };
    let [toon, ..] = golden(&project, "function-values", "callees-handle", &callees);
    assert!(toon.contains("handlers.close"), "{toon}");

    let path = QueryRequest::Path {
        from: SymbolArg::new("handle"),
        to: SymbolArg::new("handlers.close"),
        options: PathOptions::default(),
    };
    let [toon, text, json, mermaid] =
        golden(&project, "function-values", "path-handle-close", &path);
    let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let nodes = &value["paths"][0]["nodes"];
    assert_eq!(nodes[1]["id"], "src/handlers.ts:handlers.close", "{json}");
    assert_eq!(nodes[1]["mayCall"], true, "{json}");
    assert!(toon.contains("{id,kind,lines,may,"), "{toon}");
    assert!(text.contains(", may call-->"), "{text}");
    assert!(mermaid.contains("-.->|CALLS|"), "{mermaid}");
}
