//! Queries' arguments as JSON front ends take them — the MCP server's tools, the Node
//! addon's methods — in camelCase as ts-graph-mcp names them, and their translation into
//! [`QueryRequest`]s and [`Output`]s. One definition serves every such front end, so an
//! argument means the same and is refused with the same message in each. With the `schema`
//! feature the argument types also derive their JSON schemas (the MCP tools' input schemas).
//!
//! ```
//! use tsgraph::args::SymbolTraversal;
//! use tsgraph::{Format, QueryRequest};
//!
//! let args: SymbolTraversal =
//!     serde_json::from_value(serde_json::json!({"symbol": "saveUser", "maxDepth": 2})).unwrap();
//! assert!(matches!(args.callers().unwrap(), QueryRequest::Callers { .. }));
//! // No format given: TOON, within the CLI's budget for it.
//! assert_eq!(args.output(Format::cli_max_tokens).budget.tokens, tsgraph::CLI_MAX_TOKENS);
//! ```

use serde::Deserialize;
use tsgraph_engine::NodeKind;
use tsgraph_indexer::{Position, TextEdit};
use tsgraph_query::{
    Direction, EdgeKinds, NeighborOptions, PathOptions, SearchOptions, TraversalOptions,
};

use crate::request::{DiffSpec, Format, Output, QueryRequest, SymbolArg};

/// The largest value any limit takes.
const MAX_LIMIT: u32 = 1_000_000;

/// An output format.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum OutputFormat {
    /// Compact TOON, the fewest tokens (default).
    #[default]
    Toon,
    /// Hierarchical text grouped by file, with line ranges for reading the source.
    Text,
    /// JSON with every fact.
    Json,
    /// A Mermaid flowchart.
    Mermaid,
}

impl From<OutputFormat> for Format {
    fn from(format: OutputFormat) -> Format {
        match format {
            OutputFormat::Toon => Format::Toon,
            OutputFormat::Text => Format::Text,
            OutputFormat::Json => Format::Json,
            OutputFormat::Mermaid => Format::Mermaid,
        }
    }
}

/// Arguments of `get_callers`, `get_callees` and `get_impact`.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SymbolTraversal {
    /// The symbol: a node ID (`src/db/user.ts:saveUser`, `src/services/User.ts:UserService.save`,
    /// or a file path), or a bare or dotted name (`saveUser`, `UserService.save`), matched
    /// exactly, then ignoring case.
    pub symbol: String,
    /// A file path or path suffix that narrows a name to one file (`src/db/user.ts`, `user.ts`).
    pub file: Option<String>,
    /// Hops from the symbol, 1 to 1000000 (default 100).
    pub max_depth: Option<u32>,
    /// Result nodes reached at most, 1 to 1000000 (default 10000); past it the answer says
    /// it was truncated and its totals are lower bounds. The token budget, not this, bounds
    /// what is printed.
    pub max_nodes: Option<u32>,
    /// Edge kinds to follow, any of CALLS, IMPORTS, EXTENDS, IMPLEMENTS, USES_TYPE,
    /// REFERENCES, INCLUDES, CONTAINS (default: CALLS and INCLUDES for callers and callees,
    /// every kind but CONTAINS for impact).
    pub edge_kinds: Option<Vec<String>>,
    /// The answer's token budget (estimated o200k tokens; default 2000, 0 for none). An
    /// answer that does not fit lists the results that do, nearest first, after the totals,
    /// then the files of what it left out and `next` (the offset and generation to ask with).
    pub max_tokens: Option<u32>,
    /// Results to skip: the `next.offset` of a previous answer (default 0).
    pub offset: Option<u32>,
    /// The `next.generation` of the previous answer the offset came from: an answer at
    /// another generation says its pages may not line up (`staleFrom`).
    pub generation: Option<u64>,
    /// Output format (default toon).
    pub format: Option<OutputFormat>,
}

/// Arguments of `get_change_impact`.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ChangeArgs {
    /// The change: left out for the working tree and index against HEAD (uncommitted
    /// work), a revision (`main`, `HEAD~3`) for the working tree against it, or `A..B`
    /// between two revisions (the graph should be at B).
    pub diff: Option<String>,
    /// Hops from each changed symbol, 1 to 1000000 (default 100).
    pub max_depth: Option<u32>,
    /// Result nodes reached at most over all changed symbols (default 10000).
    pub max_nodes: Option<u32>,
    /// Edge kinds to follow (default every kind but CONTAINS).
    pub edge_kinds: Option<Vec<String>>,
    /// The answer's token budget (estimated o200k tokens; default 2000, 0 for none).
    pub max_tokens: Option<u32>,
    /// Results to skip: the `next.offset` of a previous answer (default 0).
    pub offset: Option<u32>,
    /// The `next.generation` of the previous answer the offset came from.
    pub generation: Option<u64>,
    /// Output format (default toon).
    pub format: Option<OutputFormat>,
}

impl ChangeArgs {
    /// The request.
    pub fn request(&self) -> Result<QueryRequest, ArgError> {
        Ok(QueryRequest::ChangeImpact {
            diff: DiffSpec::parse(self.diff.as_deref()),
            options: traversal_options(self.max_depth, self.max_nodes, &self.edge_kinds)?,
        })
    }

    /// How the answer is written.
    pub fn output(&self, default: DefaultBudget) -> Output {
        output(
            self.format,
            self.max_tokens,
            self.offset,
            self.generation,
            default,
        )
    }
}

/// Arguments of `find_path`.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PathArgs {
    /// Where the path starts: a node ID or a bare or dotted name.
    pub from: String,
    /// Where it ends: a node ID or a bare or dotted name.
    pub to: String,
    /// A file path or suffix narrowing `from`.
    pub from_file: Option<String>,
    /// A file path or suffix narrowing `to`.
    pub to_file: Option<String>,
    /// How many shortest distinct paths, 1 to 20 (default 1).
    pub k: Option<u32>,
    /// Longest path searched, in hops, 1 to 1000000 (default 20).
    pub max_depth: Option<u32>,
    /// Nodes one search visits at most (default 100000); past it the answer says it was
    /// truncated.
    pub max_nodes: Option<u32>,
    /// Edge kinds to follow (default CALLS, REFERENCES, EXTENDS, IMPLEMENTS, INCLUDES).
    pub edge_kinds: Option<Vec<String>>,
    /// Output format (default toon).
    pub format: Option<OutputFormat>,
}

/// Which edges `get_neighbors` follows.
#[derive(Debug, Clone, Copy, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum DirectionArg {
    /// Edges into the symbol.
    In,
    /// Edges out of it.
    Out,
    /// Both.
    Both,
}

/// Arguments of `get_neighbors`.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NeighborArgs {
    /// The center: a node ID or a bare or dotted name.
    pub symbol: String,
    /// A file path or suffix narrowing the name.
    pub file: Option<String>,
    /// Hops from the center, 1 to 1000000 (default 1).
    pub distance: Option<u32>,
    /// in, out or both (default both).
    pub direction: Option<DirectionArg>,
    /// Result nodes at most, the center included (default 10000).
    pub max_nodes: Option<u32>,
    /// Edge kinds to follow (default every kind).
    pub edge_kinds: Option<Vec<String>>,
    /// The answer's token budget (estimated o200k tokens; default 2000, 0 for none). An
    /// answer that does not fit lists the results that do, nearest first, after the totals,
    /// then the files of what it left out and `next` (the offset and generation to ask with).
    pub max_tokens: Option<u32>,
    /// Results to skip: the `next.offset` of a previous answer (default 0).
    pub offset: Option<u32>,
    /// The `next.generation` of the previous answer the offset came from: an answer at
    /// another generation says its pages may not line up (`staleFrom`).
    pub generation: Option<u64>,
    /// Output format (default toon).
    pub format: Option<OutputFormat>,
}

/// Arguments of `search_nodes`.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchArgs {
    /// What to find, matched against names and dotted symbol paths ignoring case: a name
    /// (`saveUser`), a prefix (`save*`), a glob (`*Service.save*`, `User?`), or a misspelt
    /// name (fuzzy matching is the fallback). Give this or `topic`.
    #[serde(default)]
    pub query: String,
    /// Topic search instead of a pattern: the words of a phrase (`user store`) against the
    /// words of names (createUserStore, SessionStore, user_store), file paths and leading doc
    /// comments, plurals as singulars, ranked BM25-style with whole-name matches first; the edges between the
    /// hits follow the nodes.
    pub topic: Option<String>,
    /// Only nodes of these kinds: File, Function, Class, Method, Interface, TypeAlias,
    /// Variable, Property, Enum.
    pub kinds: Option<Vec<String>>,
    /// Only nodes in files matching this glob (`src/db/**`).
    pub file: Option<String>,
    /// Only nodes of this module.
    pub module: Option<String>,
    /// Only nodes of this package (its package.json name).
    pub package: Option<String>,
    /// Only exported (true) or unexported (false) nodes.
    pub exported: Option<bool>,
    /// Results skipped, for paging (default 0): also the `next.offset` of a budgeted answer.
    pub offset: Option<u32>,
    /// Results returned at most, 1 to 1000000 (default 50).
    pub limit: Option<u32>,
    /// The answer's token budget (estimated o200k tokens; default 2000, 0 for none): a page
    /// that does not fit lists the matches that do and ends with `next`.
    pub max_tokens: Option<u32>,
    /// The `next.generation` of the previous answer the offset came from.
    pub generation: Option<u64>,
    /// Output format (default toon).
    pub format: Option<OutputFormat>,
}

/// Which way `get_package_deps` goes.
#[derive(Debug, Clone, Copy, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum DepsDirectionArg {
    /// The packages it depends on.
    Out,
    /// The packages that depend on it.
    In,
}

/// Arguments of `get_package_deps`.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DepsArgs {
    /// A package name: a workspace package of the project (`@libs/toolkit`, its package.json
    /// name) or an outside package it imports (`express`).
    pub package: String,
    /// out (default): what the package depends on; in: who depends on it.
    pub direction: Option<DepsDirectionArg>,
    /// Hops from the package, 1 to 1000000 (default 10).
    pub max_depth: Option<u32>,
    /// Output format (default toon).
    pub format: Option<OutputFormat>,
}

impl DepsArgs {
    /// `get_package_deps`.
    pub fn request(&self) -> Result<QueryRequest, ArgError> {
        if self.package.trim().is_empty() {
            return Err(ArgError("package must not be empty".into()));
        }
        let defaults = tsgraph_query::DepsOptions::default();
        Ok(QueryRequest::Deps {
            package: self.package.clone(),
            direction: match self.direction {
                None | Some(DepsDirectionArg::Out) => tsgraph_query::DepsDirection::Out,
                Some(DepsDirectionArg::In) => tsgraph_query::DepsDirection::In,
            },
            max_depth: limit("maxDepth", self.max_depth, defaults.max_depth)?,
        })
    }
}

/// Arguments of `get_file_symbols`.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FileArgs {
    /// The file: its path from the project root, or a path suffix naming one file.
    pub file: String,
    /// The answer's token budget (estimated o200k tokens; default 2000, 0 for none). An
    /// answer that does not fit lists the results that do, nearest first, after the totals,
    /// then the files of what it left out and `next` (the offset and generation to ask with).
    pub max_tokens: Option<u32>,
    /// Results to skip: the `next.offset` of a previous answer (default 0).
    pub offset: Option<u32>,
    /// The `next.generation` of the previous answer the offset came from: an answer at
    /// another generation says its pages may not line up (`staleFrom`).
    pub generation: Option<u64>,
    /// Output format (default toon).
    pub format: Option<OutputFormat>,
}

/// A front end's token budget per format when a call gives no `maxTokens`:
/// [`Format::cli_max_tokens`] (the CLI's, and the Node addon's) or [`Format::mcp_max_tokens`].
pub type DefaultBudget = fn(Format) -> Option<usize>;

/// How an answer is written: its format and its budget (`default`'s when `max_tokens` is
/// not given, none for 0), from `offset` (at `generation`).
fn output(
    format: Option<OutputFormat>,
    max_tokens: Option<u32>,
    offset: Option<u32>,
    generation: Option<u64>,
    default: DefaultBudget,
) -> Output {
    let format: Format = format.unwrap_or_default().into();
    Output::new(format).with_max_tokens(
        (max_tokens.map(|t| t as usize), default(format)),
        offset.unwrap_or(0) as usize,
        generation,
    )
}

impl SymbolTraversal {
    /// How the answer is written.
    pub fn output(&self, default: DefaultBudget) -> Output {
        output(
            self.format,
            self.max_tokens,
            self.offset,
            self.generation,
            default,
        )
    }
}

impl NeighborArgs {
    /// How the answer is written.
    pub fn output(&self, default: DefaultBudget) -> Output {
        output(
            self.format,
            self.max_tokens,
            self.offset,
            self.generation,
            default,
        )
    }
}

impl FileArgs {
    /// How the answer is written.
    pub fn output(&self, default: DefaultBudget) -> Output {
        output(
            self.format,
            self.max_tokens,
            self.offset,
            self.generation,
            default,
        )
    }
}

impl SearchArgs {
    /// How the answer is written (the facade pages a search by its own offset).
    pub fn output(&self, default: DefaultBudget) -> Output {
        output(
            self.format,
            self.max_tokens,
            self.offset,
            self.generation,
            default,
        )
    }
}

/// The query kinds [`query`] takes, in the Node addon's and the web UI's names.
pub const QUERY_KINDS: [&str; 9] = [
    "search",
    "callers",
    "callees",
    "impact",
    "changeImpact",
    "path",
    "neighbors",
    "fileSymbols",
    "packageDeps",
];

/// A query's request and how its answer is written, from its kind (one of
/// [`QUERY_KINDS`]) and the JSON text of its arguments (the MCP tool's), within `default`'s
/// budget when the arguments give none.
///
/// ```
/// use tsgraph::{Format, QueryRequest};
///
/// let (request, output) =
///     tsgraph::args::query("callers", r#"{"symbol":"saveUser","format":"json"}"#, Format::cli_max_tokens).unwrap();
/// assert!(matches!(request, QueryRequest::Callers { .. }));
/// assert_eq!(output.format, Format::Json);
/// let err = tsgraph::args::query("callerz", "{}", Format::cli_max_tokens).unwrap_err();
/// assert!(err.0.contains("unknown query kind `callerz`"));
/// ```
pub fn query(
    kind: &str,
    args: &str,
    default: DefaultBudget,
) -> Result<(QueryRequest, Output), ArgError> {
    let (request, output) = match kind {
        "search" => {
            let args: SearchArgs = ArgError::parse(kind, args)?;
            (args.request()?, args.output(default))
        }
        "callers" | "callees" | "impact" => {
            let args: SymbolTraversal = ArgError::parse(kind, args)?;
            let request = match kind {
                "callers" => args.callers()?,
                "callees" => args.callees()?,
                _ => args.impact()?,
            };
            (request, args.output(default))
        }
        "changeImpact" => {
            let args: ChangeArgs = ArgError::parse(kind, args)?;
            (args.request()?, args.output(default))
        }
        "path" => {
            let args: PathArgs = ArgError::parse(kind, args)?;
            (args.request()?, args.output())
        }
        "neighbors" => {
            let args: NeighborArgs = ArgError::parse(kind, args)?;
            (args.request()?, args.output(default))
        }
        "fileSymbols" => {
            let args: FileArgs = ArgError::parse(kind, args)?;
            (args.request()?, args.output(default))
        }
        "packageDeps" => {
            let args: DepsArgs = ArgError::parse(kind, args)?;
            (args.request()?, args.output())
        }
        other => {
            return Err(ArgError(format!(
                "unknown query kind `{other}` (one of {})",
                QUERY_KINDS.join(", ")
            )));
        }
    };
    Ok((request, output))
}

/// Why an argument cannot be used; the message names the argument.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ArgError(pub String);

impl ArgError {
    /// A JSON argument given as text, read into `T`; the error names the argument (`name`)
    /// and the field at fault.
    pub fn parse<T: serde::de::DeserializeOwned>(name: &str, text: &str) -> Result<T, ArgError> {
        serde_json::from_str(text).map_err(|err| ArgError(format!("{name}: {err}")))
    }

    /// The error as JSON, in the form of [`crate::Error::to_json`]:
    /// `{"error":{"code":"invalid_argument","message"}}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"error": {"code": "invalid_argument", "message": self.0}})
    }
}

/// A change to a file's text as an editor sends it (the Language Server Protocol's
/// `TextDocumentContentChangeEvent`): the text that replaces `range`, or the whole text when
/// there is no range.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContentChange {
    /// The replaced range; none: the whole text.
    pub range: Option<RangeArg>,
    /// The new text.
    pub text: String,
}

/// A range between two editor positions.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeArg {
    /// Where it starts.
    pub start: PositionArg,
    /// Where it ends (excluded).
    pub end: PositionArg,
}

/// An editor position: zero-based line, and zero-based column in UTF-16 code units.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionArg {
    /// Zero-based line.
    pub line: u32,
    /// Zero-based column, in UTF-16 code units.
    pub character: u32,
}

impl ContentChange {
    /// The change as the indexer's edit.
    pub fn edit(&self) -> TextEdit {
        match self.range {
            None => TextEdit::whole(self.text.clone()),
            Some(RangeArg { start, end }) => {
                TextEdit::lines(start.position(), end.position(), self.text.clone())
            }
        }
    }
}

impl PositionArg {
    fn position(self) -> Position {
        Position {
            line: self.line,
            character: self.character,
        }
    }
}

impl PathArgs {
    /// How the answer is written: a path answer is bounded by `k`, not by a budget.
    pub fn output(&self) -> Output {
        Output::new(self.format.unwrap_or_default().into())
    }
}

impl DepsArgs {
    /// How the answer is written: a package graph is bounded by `maxDepth`, not by a budget.
    pub fn output(&self) -> Output {
        Output::new(self.format.unwrap_or_default().into())
    }
}

fn limit(name: &str, value: Option<u32>, default: u32) -> Result<u32, ArgError> {
    match value {
        None => Ok(default),
        Some(value) if (1..=MAX_LIMIT).contains(&value) => Ok(value),
        Some(value) => Err(ArgError(format!(
            "{name} must be 1 to {MAX_LIMIT}, not {value}"
        ))),
    }
}

fn edge_kinds(kinds: &Option<Vec<String>>) -> Result<Option<EdgeKinds>, ArgError> {
    match kinds {
        None => Ok(None),
        Some(kinds) => EdgeKinds::parse(&kinds.join(","))
            .map(Some)
            .map_err(|err| ArgError(format!("edgeKinds: {err}"))),
    }
}

/// A walk's limits and edge kinds as a tool call gave them (the defaults where it did not).
fn traversal_options(
    max_depth: Option<u32>,
    max_nodes: Option<u32>,
    kinds: &Option<Vec<String>>,
) -> Result<TraversalOptions, ArgError> {
    let defaults = TraversalOptions::default();
    Ok(TraversalOptions {
        max_depth: limit("maxDepth", max_depth, defaults.max_depth)?,
        max_nodes: limit("maxNodes", max_nodes, defaults.max_nodes as u32)? as usize,
        edge_kinds: edge_kinds(kinds)?,
    })
}

fn symbol(symbol: &str, file: &Option<String>) -> Result<SymbolArg, ArgError> {
    if symbol.trim().is_empty() {
        return Err(ArgError("symbol must not be empty".into()));
    }
    Ok(SymbolArg::in_file(symbol.to_owned(), file.clone()))
}

impl SymbolTraversal {
    /// The traversal's limits.
    fn options(&self) -> Result<TraversalOptions, ArgError> {
        traversal_options(self.max_depth, self.max_nodes, &self.edge_kinds)
    }

    /// `get_callers`.
    pub fn callers(&self) -> Result<QueryRequest, ArgError> {
        Ok(QueryRequest::Callers {
            symbol: symbol(&self.symbol, &self.file)?,
            options: self.options()?,
        })
    }

    /// `get_callees`.
    pub fn callees(&self) -> Result<QueryRequest, ArgError> {
        Ok(QueryRequest::Callees {
            symbol: symbol(&self.symbol, &self.file)?,
            options: self.options()?,
        })
    }

    /// `get_impact`.
    pub fn impact(&self) -> Result<QueryRequest, ArgError> {
        Ok(QueryRequest::Impact {
            symbol: symbol(&self.symbol, &self.file)?,
            options: self.options()?,
        })
    }
}

impl PathArgs {
    /// `find_path`.
    pub fn request(&self) -> Result<QueryRequest, ArgError> {
        let defaults = PathOptions::default();
        let k = limit("k", self.k, defaults.k as u32)? as usize;
        if k > PathOptions::MAX_K {
            return Err(ArgError(format!(
                "k must be 1 to {}, not {k}",
                PathOptions::MAX_K
            )));
        }
        Ok(QueryRequest::Path {
            from: symbol(&self.from, &self.from_file)?,
            to: symbol(&self.to, &self.to_file)?,
            options: PathOptions {
                max_depth: limit("maxDepth", self.max_depth, defaults.max_depth)?,
                max_nodes: limit("maxNodes", self.max_nodes, defaults.max_nodes as u32)? as usize,
                k,
                edge_kinds: edge_kinds(&self.edge_kinds)?,
            },
        })
    }
}

impl NeighborArgs {
    /// `get_neighbors`.
    pub fn request(&self) -> Result<QueryRequest, ArgError> {
        let defaults = NeighborOptions::default();
        Ok(QueryRequest::Neighbors {
            symbol: symbol(&self.symbol, &self.file)?,
            options: NeighborOptions {
                distance: limit("distance", self.distance, defaults.distance)?,
                direction: match self.direction {
                    None | Some(DirectionArg::Both) => Direction::Both,
                    Some(DirectionArg::In) => Direction::In,
                    Some(DirectionArg::Out) => Direction::Out,
                },
                max_nodes: limit("maxNodes", self.max_nodes, defaults.max_nodes as u32)? as usize,
                edge_kinds: edge_kinds(&self.edge_kinds)?,
            },
        })
    }
}

impl SearchArgs {
    /// `search_nodes`.
    pub fn request(&self) -> Result<QueryRequest, ArgError> {
        let topic = self.topic.as_deref().map(str::trim);
        match (self.query.trim().is_empty(), topic) {
            (true, None) => return Err(ArgError("give query (a pattern) or topic".into())),
            (false, Some(_)) => {
                return Err(ArgError("give query (a pattern) or topic, not both".into()));
            }
            (_, Some("")) => return Err(ArgError("topic must not be empty".into())),
            _ => {}
        }
        let defaults = SearchOptions::default();
        let mut kinds = Vec::new();
        for kind in self.kinds.iter().flatten() {
            match NodeKind::parse(kind) {
                Some(kind) => kinds.push(kind),
                None => {
                    let known: Vec<&str> = NodeKind::ALL.iter().map(|k| k.as_str()).collect();
                    return Err(ArgError(format!(
                        "kinds: unknown kind `{kind}`; one of {}",
                        known.join(", ")
                    )));
                }
            }
        }
        let options = SearchOptions {
            kinds,
            file: self.file.clone(),
            module: self.module.clone(),
            package: self.package.clone(),
            exported: self.exported,
            offset: self.offset.unwrap_or(0) as usize,
            limit: limit("limit", self.limit, defaults.limit as u32)? as usize,
            ..defaults
        };
        Ok(match topic {
            Some(text) => QueryRequest::Topic {
                text: text.to_owned(),
                options,
            },
            None => QueryRequest::Search {
                pattern: self.query.clone(),
                options,
            },
        })
    }
}

impl FileArgs {
    /// `get_file_symbols`.
    pub fn request(&self) -> Result<QueryRequest, ArgError> {
        if self.file.trim().is_empty() {
            return Err(ArgError("file must not be empty".into()));
        }
        Ok(QueryRequest::FileSymbols {
            file: self.file.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_out_of_range_and_unknown_kinds_name_the_argument() {
        let args: SymbolTraversal =
            serde_json::from_value(serde_json::json!({"symbol": "f", "maxDepth": 0})).unwrap();
        let err = args.callers().unwrap_err();
        assert!(err.0.starts_with("maxDepth"), "{}", err.0);
        let args: SymbolTraversal = serde_json::from_value(
            serde_json::json!({"symbol": "f", "edgeKinds": ["CALLS", "WIBBLE"]}),
        )
        .unwrap();
        assert!(args.callers().unwrap_err().0.starts_with("edgeKinds"));
        let args: SearchArgs =
            serde_json::from_value(serde_json::json!({"query": "x", "kinds": ["Widget"]})).unwrap();
        assert!(
            args.request()
                .unwrap_err()
                .0
                .contains("unknown kind `Widget`")
        );
        let args: PathArgs =
            serde_json::from_value(serde_json::json!({"from": "a", "to": "b", "k": 21})).unwrap();
        assert!(args.request().unwrap_err().0.starts_with("k must be"));
    }

    #[test]
    fn content_changes_are_ranged_or_whole_and_unknown_fields_are_named() {
        let changes: Vec<ContentChange> = ArgError::parse(
            "edits",
            r#"[{"range": {"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 4}}, "text": "x"}, {"text": "all"}]"#,
        )
        .unwrap();
        let mut text = "ab\ncdef\n".to_owned();
        changes[0].edit().apply_to(&mut text).unwrap();
        assert_eq!(text, "ab\ncdx\n");
        changes[1].edit().apply_to(&mut text).unwrap();
        assert_eq!(text, "all");
        let err = ArgError::parse::<Vec<ContentChange>>("edits", r#"[{"txt": "x"}]"#).unwrap_err();
        assert!(err.0.starts_with("edits: unknown field `txt`"), "{err}");
        assert_eq!(err.to_json()["error"]["code"], "invalid_argument");
    }

    #[test]
    fn unknown_arguments_are_refused_and_defaults_apply() {
        assert!(
            serde_json::from_value::<SymbolTraversal>(
                serde_json::json!({"symbol": "f", "depth": 2})
            )
            .is_err()
        );
        let args: SymbolTraversal =
            serde_json::from_value(serde_json::json!({"symbol": "f", "file": "a.ts"})).unwrap();
        match args.impact().unwrap() {
            QueryRequest::Impact { symbol, options } => {
                assert_eq!(symbol, SymbolArg::in_file("f", Some("a.ts".into())));
                assert_eq!(options, TraversalOptions::default());
            }
            other => panic!("{other:?}"),
        }
    }
}
