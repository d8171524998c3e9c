//! The design documents' Format A ("everything, the baseline"), rendered from tsgraph's JSON
//! output for the cases whose seed has no Format A text of its own (file symbols, search,
//! callers): every field of every node, derivable ones included, in the documents' style.

use std::fmt::Write as _;

use serde_json::Value;

fn quoted(value: &Value) -> String {
    match value {
        Value::String(s) => format!("{s:?}"),
        Value::Null => "<nil>".to_owned(),
        other => other.to_string(),
    }
}

/// One `Node(…)` block at `indent` spaces, with `extra` fields (depth, via, …) at the end.
fn node(out: &mut String, node: &Value, indent: usize, extra: &[(&str, Value)]) {
    let pad = " ".repeat(indent);
    let field = |out: &mut String, key: &str, value: String| {
        let _ = writeln!(out, "{pad}  {key}: {value}");
    };
    let _ = writeln!(out, "{pad}Node(");
    let kind = node["kind"].as_str().unwrap_or("");
    field(out, "id", quoted(&node["id"]));
    field(out, "type", quoted(&node["kind"]));
    field(out, "name", quoted(&node["name"]));
    field(out, "module", quoted(&node["module"]));
    field(out, "package", quoted(&node["package"]));
    field(out, "filePath", quoted(&node["file"]));
    field(out, "startLine", node["startLine"].to_string());
    field(out, "endLine", node["endLine"].to_string());
    field(out, "exported", node["exported"].to_string());
    let flag = |key: &str| node[key].as_bool().unwrap_or(false).to_string();
    match kind {
        "Function" | "Method" => {
            let params: Vec<String> = node["parameters"]
                .as_array()
                .map(|list| list.iter().map(quoted).collect())
                .unwrap_or_default();
            field(out, "parameters", format!("[{}]", params.join(", ")));
            field(out, "returnType", quoted(&node["returnType"]));
            field(out, "async", flag("async"));
            if kind == "Method" {
                field(
                    out,
                    "visibility",
                    quoted(&Value::String(
                        node["visibility"].as_str().unwrap_or("public").to_owned(),
                    )),
                );
                field(out, "static", flag("static"));
            }
        }
        "Property" => {
            field(out, "propertyType", quoted(&node["type"]));
            field(out, "optional", flag("optional"));
            field(out, "readonly", flag("readonly"));
            field(
                out,
                "visibility",
                quoted(&Value::String(
                    node["visibility"].as_str().unwrap_or("").to_owned(),
                )),
            );
            field(out, "static", flag("static"));
        }
        "Variable" => {
            field(out, "variableType", quoted(&node["type"]));
            field(out, "isConst", flag("const"));
        }
        "TypeAlias" => field(out, "aliasedType", quoted(&node["type"])),
        "File" => {
            let id = node["id"].as_str().unwrap_or("");
            let extension = id.rfind('.').map_or("", |i| &id[i..]);
            field(out, "extension", format!("{extension:?}"));
        }
        _ => {}
    }
    for (key, value) in extra {
        field(out, key, quoted(value));
    }
    let _ = writeln!(out, "{pad})");
}

/// Format A of a callers, search or file-symbols result given as tsgraph JSON.
pub fn render(json: &str) -> anyhow::Result<String> {
    let value: Value = serde_json::from_str(json)?;
    let query = value["query"].as_str().unwrap_or("");
    let mut out = String::new();
    let nodes = value["nodes"].as_array().cloned().unwrap_or_default();
    match query {
        "callers" | "callees" | "impact" => {
            let _ = writeln!(out, "Dependencies(");
            let _ = writeln!(out, "  query: {query:?}");
            out.push_str("  target:\n");
            node(&mut out, &value["symbol"], 2, &[]);
            let _ = writeln!(out, "  count: {}", nodes.len());
        }
        "search" => {
            let _ = writeln!(out, "SearchResult(");
            let _ = writeln!(out, "  pattern: {}", quoted(&value["pattern"]));
            let _ = writeln!(out, "  total: {}", value["total"]);
            let _ = writeln!(out, "  count: {}", nodes.len());
        }
        "file-symbols" => {
            let _ = writeln!(out, "FileSymbols(");
            let _ = writeln!(out, "  filePath: {}", quoted(&value["file"]));
            let _ = writeln!(out, "  count: {}", nodes.len());
        }
        other => anyhow::bail!("no Format A rendering for {other}"),
    }
    out.push_str("  nodes: [\n");
    for n in &nodes {
        let mut extra = Vec::new();
        if let Some(depth) = n.get("depth").filter(|_| query != "file-symbols") {
            extra.push(("depth", depth.clone()));
            extra.push(("via", n["via"]["id"].clone()));
            extra.push(("edgeType", n["via"]["edge"]["kind"].clone()));
        }
        if let Some(matched) = n.get("match") {
            extra.push(("match", matched.clone()));
        }
        if let Some(parent) = n.get("parent") {
            extra.push(("parent", parent.clone()));
        }
        node(&mut out, n, 4, &extra);
    }
    out.push_str("  ]\n)\n");
    Ok(out)
}
