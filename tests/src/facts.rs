//! The facts of a query result, rebuilt two ways — from tsgraph's JSON output and from its
//! TOON output — so the token benchmark can check that TOON loses nothing: everything it
//! leaves out must follow from what it writes (names and files from IDs, CONTAINS edges
//! from IDs, path edge ends from node order, hoisted module/package/exported, defaults).

use std::collections::BTreeSet;

use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde_json::{Map, Value};

/// One node's facts.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct NodeFacts {
    /// The section (class method or path rank) it belongs to; empty for one section.
    pub section: String,
    /// The node ID (its name and file follow from it).
    pub id: String,
    /// Its kind.
    pub kind: String,
    /// Its module.
    pub module: String,
    /// Its package.
    pub package: String,
    /// First line.
    pub start_line: u64,
    /// Last line.
    pub end_line: u64,
    /// Exported.
    pub exported: bool,
    /// Modifiers (visibility, static, abstract, async, readonly, const, default, optional),
    /// sorted.
    pub modifiers: Vec<String>,
    /// Functions and methods: the parameters.
    pub parameters: Option<Vec<String>>,
    /// Return type (functions, methods) or declared type (others).
    pub type_text: Option<String>,
    /// Traversals: hops from the root, or the position on a path.
    pub depth: Option<u64>,
    /// Traversals: the node it was reached through, when not the root.
    pub via: Option<String>,
    /// Traversals: the kind of the edge it was reached through.
    pub rel: Option<String>,
    /// Search: how it matched.
    pub matched: Option<String>,
    /// Traversals: reached through a call found by dispatch (a call that may happen).
    pub may_call: bool,
}

/// One edge's facts.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct EdgeFacts {
    /// Source ID (stored direction).
    pub source: String,
    /// Target ID.
    pub target: String,
    /// Kind.
    pub kind: String,
    /// Call count (CALLS, INCLUDES).
    pub calls: Option<u64>,
}

/// Every fact of one result, in a canonical order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Facts {
    /// The symbol asked about, if any.
    pub root: Option<String>,
    /// The nodes, sorted.
    pub nodes: Vec<NodeFacts>,
    /// The edges, sorted.
    pub edges: Vec<EdgeFacts>,
}

const MODIFIERS: &[&str] = &[
    "public",
    "protected",
    "private",
    "static",
    "abstract",
    "async",
    "readonly",
    "const",
    "default",
];

fn callable(kind: &str) -> bool {
    kind == "Function" || kind == "Method"
}

fn str_of<'a>(value: &'a Value, key: &str) -> Result<&'a str> {
    value[key]
        .as_str()
        .with_context(|| format!("`{key}` is not a string in {value}"))
}

/// The container an ID implies: the ID without its last `.segment`, or its file.
fn container(id: &str) -> Option<String> {
    let (file, symbol) = id.split_once(':')?;
    Some(match symbol.rsplit_once('.') {
        Some((parent, _)) => format!("{file}:{parent}"),
        None => file.to_owned(),
    })
}

// ---- from JSON ------------------------------------------------------------------------

/// The facts of a JSON result (tsgraph's `--format json`).
pub fn from_json(text: &str) -> Result<Facts> {
    let value: Value = serde_json::from_str(text).context("JSON output")?;
    let query = str_of(&value, "query")?;
    let mut facts = Facts {
        root: value["symbol"]["id"].as_str().map(str::to_owned),
        ..Facts::default()
    };
    if query == "neighbors" {
        facts.root = None;
        let mut center = json_node(&value["center"], "")?;
        center.depth = Some(0);
        facts.nodes.push(center);
    }
    let sections: Vec<(String, &Value)> = if let Some(paths) = value["paths"].as_array() {
        paths
            .iter()
            .enumerate()
            .map(|(i, p)| {
                (
                    if paths.len() > 1 {
                        i.to_string()
                    } else {
                        String::new()
                    },
                    p,
                )
            })
            .collect()
    } else if let Some(sections) = value["sections"].as_array() {
        sections
            .iter()
            .map(|s| Ok((str_of(&s["target"], "id")?.to_owned(), s)))
            .collect::<Result<_>>()?
    } else {
        vec![(String::new(), &value)]
    };
    for (section, body) in sections {
        for node in body["nodes"].as_array().context("nodes")? {
            let mut facts_node = json_node(node, &section)?;
            facts_node.depth = node["depth"]
                .as_u64()
                .or(node["distance"].as_u64())
                .or(node["step"].as_u64());
            if query == "file-symbols" || query == "search" {
                facts_node.depth = None;
            }
            if let Some(via) = node.get("via") {
                let depth = facts_node.depth.unwrap_or(0);
                if query != "neighbors" {
                    facts_node.via = (depth > 1)
                        .then(|| str_of(via, "id").map(str::to_owned))
                        .transpose()?;
                    facts_node.rel = Some(str_of(&via["edge"], "kind")?.to_owned());
                }
            }
            facts_node.matched = node["match"].as_str().map(str::to_owned);
            facts.nodes.push(facts_node);
        }
        if let Some(edges) = body["edges"].as_array() {
            for edge in edges {
                let kind = str_of(edge, "kind")?;
                facts.edges.push(EdgeFacts {
                    source: str_of(edge, "source")?.to_owned(),
                    target: str_of(edge, "target")?.to_owned(),
                    kind: kind.to_owned(),
                    calls: edge["calls"].as_u64(),
                });
            }
        }
    }
    facts.nodes.sort();
    facts.edges.sort();
    facts.edges.dedup();
    Ok(facts)
}

fn json_node(node: &Value, section: &str) -> Result<NodeFacts> {
    let id = str_of(node, "id")?;
    let kind = str_of(node, "kind")?;
    // Name and file are derivable from the ID; check that they are.
    let file = str_of(node, "file")?;
    let name = str_of(node, "name")?;
    if id != file && !id.starts_with(&format!("{file}:")) {
        bail!("{id}: the file {file} does not follow from the ID");
    }
    let symbol = id.strip_prefix(&format!("{file}:")).unwrap_or("");
    let last = symbol.rsplit('.').next().unwrap_or(symbol);
    if kind != "File" && last.split('~').next() != Some(name) {
        bail!("{id}: the name {name} does not follow from the ID");
    }
    let mut modifiers: Vec<String> = Vec::new();
    if let Some(visibility) = node["visibility"].as_str() {
        modifiers.push(visibility.to_owned());
    }
    for (key, word) in [
        ("static", "static"),
        ("abstract", "abstract"),
        ("async", "async"),
        ("readonly", "readonly"),
        ("const", "const"),
        ("defaultExport", "default"),
        ("optional", "optional"),
    ] {
        if node[key] == Value::Bool(true) {
            modifiers.push(word.to_owned());
        }
    }
    modifiers.sort();
    let parameters = node["parameters"].as_array().map(|list| {
        list.iter()
            .filter_map(|p| p.as_str().map(str::to_owned))
            .collect()
    });
    let type_text = node["returnType"]
        .as_str()
        .or(node["type"].as_str())
        .map(str::to_owned);
    Ok(NodeFacts {
        section: section.to_owned(),
        id: id.to_owned(),
        kind: kind.to_owned(),
        module: str_of(node, "module")?.to_owned(),
        package: str_of(node, "package")?.to_owned(),
        start_line: node["startLine"].as_u64().context("startLine")?,
        end_line: node["endLine"].as_u64().context("endLine")?,
        exported: node["exported"].as_bool().context("exported")?,
        modifiers,
        parameters: if callable(kind) { parameters } else { None },
        type_text,
        depth: None,
        via: None,
        rel: None,
        matched: None,
        may_call: node["mayCall"] == Value::Bool(true),
    })
}

// ---- from TOON ------------------------------------------------------------------------

/// What a TOON document hoists, passed down into its groups.
#[derive(Clone, Default)]
struct Context_ {
    query: String,
    file: Option<String>,
    module: String,
    package: String,
    exported: bool,
    rel: Option<String>,
    section: String,
}

const KNOWN_KEYS: &[&str] = &[
    "callers",
    "callees",
    "impact",
    "maxDepth",
    "file",
    "module",
    "package",
    "exported",
    "rel",
    "center",
    "distance",
    "direction",
    "search",
    "total",
    "offset",
    "edgeKinds",
    "nodes",
    "path",
    "paths",
    "edges",
    "targets",
    "truncated",
    "limit",
    "from",
    "to",
    "found",
    "stopped",
    "unresolved",
];

fn kind_of_group(key: &str) -> Option<&'static str> {
    Some(match key {
        "files" => "File",
        "functions" => "Function",
        "classes" => "Class",
        "methods" => "Method",
        "interfaces" => "Interface",
        "typeAliases" => "TypeAlias",
        "variables" => "Variable",
        "properties" => "Property",
        "enums" => "Enum",
        _ => return None,
    })
}

/// The facts of a TOON result (tsgraph's default output), decoded with the crate's strict
/// TOON decoder.
pub fn from_toon(text: &str, query: &str) -> Result<Facts> {
    let value = tsgraph_encoders::toon::to_value(text).context("decoding the TOON output")?;
    let top = value.as_object().context("a TOON result is an object")?;
    let mut ctx = Context_ {
        query: query.to_owned(),
        file: top.get("file").and_then(Value::as_str).map(str::to_owned),
        module: top
            .get("module")
            .and_then(Value::as_str)
            .unwrap_or(".")
            .to_owned(),
        package: top
            .get("package")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
        exported: top.get("exported") == Some(&Value::Bool(true)),
        rel: top.get("rel").and_then(Value::as_str).map(str::to_owned),
        section: String::new(),
    };
    if ctx.rel.is_none() && (query == "callers" || query == "callees") {
        // Callers and callees reached by calls say nothing: CALLS is implied.
        ctx.rel = Some("CALLS".to_owned());
    }
    let mut facts = Facts {
        root: top
            .get(query)
            .and_then(Value::as_str)
            .filter(|_| matches!(query, "callers" | "callees" | "impact"))
            .map(str::to_owned),
        ..Facts::default()
    };
    if let Some(center) = top.get("center") {
        let mut node = toon_row(center, str_of(center, "kind")?, &ctx)?;
        node.depth = Some(0);
        facts.nodes.push(node);
    }
    let has_modules = !top.contains_key("module");
    let has_packages = !top.contains_key("package");
    walk(top, &ctx, has_modules, has_packages, &mut facts)?;
    if let Some(paths) = top.get("paths").and_then(Value::as_array) {
        for (i, path) in paths.iter().enumerate() {
            let section = Context_ {
                section: i.to_string(),
                ..ctx.clone()
            };
            path_facts(path, &section, &mut facts)?;
        }
    } else if top.contains_key("path") {
        path_facts(&value, &ctx, &mut facts)?;
    }
    if let Some(targets) = top.get("targets").and_then(Value::as_object) {
        for (target, body) in targets {
            let section = Context_ {
                section: expand(target, ctx.file.as_deref(), None),
                ..ctx.clone()
            };
            let body = body.as_object().context("a target is an object")?;
            walk(body, &section, has_modules, has_packages, &mut facts)?;
        }
    }
    if query == "neighbors" {
        neighbor_edges(top, &ctx, &mut facts)?;
    }
    facts.nodes.sort();
    facts.edges.sort();
    facts.edges.dedup();
    Ok(facts)
}

/// Kind tables at this level, and module/package groups below it.
fn walk(
    object: &Map<String, Value>,
    ctx: &Context_,
    modules: bool,
    packages: bool,
    facts: &mut Facts,
) -> Result<()> {
    for (key, value) in object {
        if let Some(kind) = kind_of_group(key) {
            for row in value.as_array().context("a kind group is a table")? {
                facts.nodes.push(toon_row(row, kind, ctx)?);
            }
        } else if !KNOWN_KEYS.contains(&key.as_str())
            && let Some(inner) = value.as_object()
        {
            // A module group (when modules differ), else a package group.
            let mut deeper = ctx.clone();
            if modules {
                deeper.module = key.clone();
                walk(inner, &deeper, false, packages, facts)?;
            } else if packages {
                deeper.package = if key == "-" {
                    String::new()
                } else {
                    key.clone()
                };
                walk(inner, &deeper, false, false, facts)?;
            }
        }
    }
    Ok(())
}

/// The full ID of a short one (a symbol path when the file is hoisted); an ID with a `:` is
/// already whole (a node of another file than the hoisted one).
fn expand(id: &str, file: Option<&str>, kind: Option<&str>) -> String {
    match file {
        Some(file) if kind != Some("File") && id != file && !id.contains(':') => {
            format!("{file}:{id}")
        }
        _ => id.to_owned(),
    }
}

fn toon_row(row: &Value, kind: &str, ctx: &Context_) -> Result<NodeFacts> {
    let kind = row["kind"].as_str().unwrap_or(kind);
    let id = expand(str_of(row, "id")?, ctx.file.as_deref(), Some(kind));
    let (start_line, end_line) = match &row["lines"] {
        Value::Number(n) => {
            let line = n.as_u64().context("lines")?;
            (line, line)
        }
        Value::String(range) => {
            let (a, b) = range.split_once('-').context("lines a-b")?;
            (a.parse()?, b.parse()?)
        }
        other => bail!("{id}: lines {other}"),
    };
    let sig = row["sig"].as_str().unwrap_or("");
    let (modifiers, parameters, type_text) = parse_signature(sig, callable(kind))?;
    let depth = row["depth"].as_u64().or(row["distance"].as_u64());
    let via = row["via"]
        .as_str()
        .map(|v| expand(v, ctx.file.as_deref(), None));
    let rel = row["rel"]
        .as_str()
        .map(str::to_owned)
        .or_else(|| depth.and(ctx.rel.clone()))
        .filter(|_| matches!(ctx.query.as_str(), "callers" | "callees" | "impact"));
    Ok(NodeFacts {
        section: ctx.section.clone(),
        id,
        kind: kind.to_owned(),
        module: ctx.module.clone(),
        package: ctx.package.clone(),
        start_line,
        end_line,
        exported: row["exported"].as_bool().unwrap_or(ctx.exported),
        modifiers,
        parameters,
        type_text,
        depth,
        via,
        rel,
        matched: row["match"].as_str().map(str::to_owned),
        may_call: row["may"].as_bool().unwrap_or(false),
    })
}

/// A signature's modifiers, parameters (functions and methods) and type.
pub type Signature = (Vec<String>, Option<Vec<String>>, Option<String>);

/// Splits a one-string signature (`public async (a: A, b: (x, y) => z): R`, `readonly?: T`)
/// into modifiers, parameters and type.
pub fn parse_signature(sig: &str, callable: bool) -> Result<Signature> {
    let mut rest = sig;
    let mut modifiers = Vec::new();
    'words: loop {
        for word in MODIFIERS {
            if let Some(after) = rest.strip_prefix(word)
                && (after.is_empty() || after.starts_with([' ', '?', ':', '(']))
            {
                modifiers.push((*word).to_owned());
                rest = after.strip_prefix(' ').unwrap_or(after);
                continue 'words;
            }
        }
        break;
    }
    let mut parameters = None;
    if callable {
        let mut list = Vec::new();
        if let Some(inner) = rest.strip_prefix('(') {
            let (params, after) = split_balanced(inner)?;
            list = params;
            rest = after;
        }
        parameters = Some(list);
    } else if let Some(after) = rest.strip_prefix('?') {
        modifiers.push("optional".to_owned());
        rest = after;
    }
    let type_text = match rest.strip_prefix(": ") {
        Some(t) => Some(t.to_owned()),
        None if rest.is_empty() => None,
        None => bail!("signature `{sig}`: unexpected `{rest}`"),
    };
    modifiers.sort();
    Ok((modifiers, parameters, type_text))
}

/// The parameters up to the `)` that closes the list, split at top-level `, `, and the rest.
fn split_balanced(text: &str) -> Result<(Vec<String>, &str)> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut start = 0;
    let mut params = Vec::new();
    for (i, c) in text.char_indices() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '(' | '[' | '{' | '<' => depth += 1,
            '>' if text[..i].ends_with('=') => {} // an arrow `=>`
            ')' | ']' | '}' | '>' if depth > 0 => depth -= 1,
            ')' => {
                let last = text[start..i].trim();
                if !last.is_empty() {
                    params.push(last.to_owned());
                }
                return Ok((params, &text[i + 1..]));
            }
            ',' if depth == 0 => {
                params.push(text[start..i].trim().to_owned());
                start = i + 1;
            }
            _ => {}
        }
    }
    bail!("unbalanced parameter list `({text}`")
}

/// A path's nodes from its table, and its edges from the node order: an IMPLEMENTS hop
/// between members is stored from the implementation to the interface member.
fn path_facts(body: &Value, ctx: &Context_, facts: &mut Facts) -> Result<()> {
    let rows = body["path"].as_array().context("path table")?;
    let mut nodes = Vec::new();
    for (position, row) in rows.iter().enumerate() {
        let mut node = toon_row(row, str_of(row, "kind")?, ctx)?;
        node.depth = Some(position as u64);
        nodes.push(node);
    }
    let hops = body["edges"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    for (pair, hop) in nodes.windows(2).zip(hops) {
        let kind = str_of(hop, "type")?;
        let member = |n: &NodeFacts| n.kind == "Method" || n.kind == "Property";
        let (source, target) = if kind == "IMPLEMENTS" && member(&pair[0]) && member(&pair[1]) {
            (&pair[1], &pair[0])
        } else {
            (&pair[0], &pair[1])
        };
        facts.edges.push(EdgeFacts {
            source: source.id.clone(),
            target: target.id.clone(),
            kind: kind.to_owned(),
            calls: hop["calls"].as_u64(),
        });
    }
    facts.nodes.extend(nodes);
    Ok(())
}

/// Neighbors: the written edges, and the CONTAINS edges the IDs imply.
fn neighbor_edges(top: &Map<String, Value>, ctx: &Context_, facts: &mut Facts) -> Result<()> {
    if let Some(edges) = top.get("edges").and_then(Value::as_array) {
        for edge in edges {
            facts.edges.push(EdgeFacts {
                source: expand(str_of(edge, "source")?, ctx.file.as_deref(), None),
                target: expand(str_of(edge, "target")?, ctx.file.as_deref(), None),
                kind: str_of(edge, "type")?.to_owned(),
                calls: edge["calls"].as_u64(),
            });
        }
    }
    let ids: BTreeSet<String> = facts.nodes.iter().map(|n| n.id.clone()).collect();
    for id in &ids {
        if let Some(parent) = container(id).filter(|p| ids.contains(p)) {
            facts.edges.push(EdgeFacts {
                source: parent,
                target: id.clone(),
                kind: "CONTAINS".to_owned(),
                calls: None,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_split_into_their_facts() {
        let (m, p, t) = parse_signature(
            "public async (a: A, cb: (x: X, y: Y) => Z): Promise<void>",
            true,
        )
        .expect("parses");
        assert_eq!(m, ["async", "public"]);
        assert_eq!(p.expect("params"), ["a: A", "cb: (x: X, y: Y) => Z"]);
        assert_eq!(t.as_deref(), Some("Promise<void>"));
        let (m, p, t) = parse_signature("readonly?: string", false).expect("parses");
        assert_eq!(m, ["optional", "readonly"]);
        assert!(p.is_none());
        assert_eq!(t.as_deref(), Some("string"));
        let (_, p, t) = parse_signature("", true).expect("parses");
        assert_eq!(p, Some(Vec::new()));
        assert!(t.is_none());
        assert!(parse_signature("(a: A", true).is_err());
    }
}
