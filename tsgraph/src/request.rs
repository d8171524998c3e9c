//! Query requests as the CLI and MCP server state them.

use tsgraph_query::{
    Budget, DepsDirection, NeighborOptions, PathOptions, SearchOptions, TraversalOptions,
};

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// TOON: the fewest tokens, for agents.
    #[default]
    Toon,
    /// Hierarchical text, grouped by file and kind, with `offset`/`limit` per result.
    Text,
    /// JSON: every fact, one object per result.
    Json,
    /// A Mermaid flowchart.
    Mermaid,
}

impl Format {
    /// Every format, in the order the CLI lists them.
    pub const ALL: [Format; 4] = [Format::Toon, Format::Text, Format::Json, Format::Mermaid];

    /// The name used on the command line.
    pub const fn as_str(self) -> &'static str {
        match self {
            Format::Toon => "toon",
            Format::Text => "text",
            Format::Json => "json",
            Format::Mermaid => "mermaid",
        }
    }
}

impl Format {
    /// The token budget the CLI gives an answer in this format when none is asked for:
    /// TOON, text and Mermaid are read by agents and people, so they are bounded; JSON is
    /// read by programs, so it is whole.
    pub const fn cli_max_tokens(self) -> Option<usize> {
        match self {
            Format::Json => None,
            Format::Toon | Format::Text | Format::Mermaid => Some(CLI_MAX_TOKENS),
        }
    }

    /// The token budget the MCP server gives an answer when a call asks for none: agents
    /// read every format, so every one is bounded.
    pub const fn mcp_max_tokens(self) -> Option<usize> {
        Some(MCP_MAX_TOKENS)
    }
}

/// The CLI's token budget for TOON, text and Mermaid answers (see
/// [`Format::cli_max_tokens`]).
pub const CLI_MAX_TOKENS: usize = 4_000;

/// The MCP server's token budget when a call gives no `maxTokens`.
pub const MCP_MAX_TOKENS: usize = 2_000;

/// How an answer is written: its format, the source lines per result (text), and its
/// token budget with the offset to list from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Output {
    /// The format.
    pub format: Format,
    /// With [`Format::Text`]: source lines per result (read from the project's files).
    pub snippets: u32,
    /// The budget (default: none) and the offset.
    pub budget: Budget,
}

impl Output {
    /// Every result in `format`, without source lines.
    pub const fn new(format: Format) -> Output {
        Output {
            format,
            snippets: 0,
            budget: Budget::UNBOUNDED,
        }
    }

    /// The same, within `budget`.
    pub const fn with_budget(self, budget: Budget) -> Output {
        Output { budget, ..self }
    }

    /// The same, within the budget a front end was asked for: `max_tokens` tokens (0: no
    /// bound; not given: the front end's `default`, `None` for no bound), listed from
    /// `offset` at `generation` (a continuation's).
    pub const fn with_max_tokens(
        self,
        (max_tokens, default): (Option<usize>, Option<usize>),
        offset: usize,
        generation: Option<u64>,
    ) -> Output {
        let tokens = match max_tokens {
            Some(0) => usize::MAX,
            Some(tokens) => tokens,
            None => match default {
                Some(tokens) => tokens,
                None => usize::MAX,
            },
        };
        self.with_budget(Budget {
            tokens,
            offset,
            generation,
        })
    }
}

/// A whole-graph export format (see [`crate::Project::export_as`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExportFormat {
    /// One JSON object per line: nodes, then edges with every stored fact.
    #[default]
    JsonLines,
    /// GraphML, for networkx, Gephi, yEd, igraph, JGraphT and graph databases' importers.
    GraphMl,
    /// Graphviz DOT.
    Dot,
    /// Neo4j admin-import CSV: a nodes file and a relationships file with typed headers
    /// (see [`crate::Project::export_neo4j`]).
    Neo4j,
}

impl ExportFormat {
    /// Every export format, in the order the CLI lists them.
    pub const ALL: [ExportFormat; 4] = [
        ExportFormat::JsonLines,
        ExportFormat::GraphMl,
        ExportFormat::Dot,
        ExportFormat::Neo4j,
    ];

    /// The name used on the command line.
    pub const fn as_str(self) -> &'static str {
        match self {
            ExportFormat::JsonLines => "jsonl",
            ExportFormat::GraphMl => "graphml",
            ExportFormat::Dot => "dot",
            ExportFormat::Neo4j => "neo4j",
        }
    }
}

/// A symbol as a user names it: a node ID, or a bare or dotted name, optionally in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolArg {
    /// The ID or name.
    pub symbol: String,
    /// A file path (or path suffix) to narrow a name to.
    pub file: Option<String>,
}

impl SymbolArg {
    /// A symbol without a file.
    pub fn new(symbol: impl Into<String>) -> SymbolArg {
        SymbolArg {
            symbol: symbol.into(),
            file: None,
        }
    }

    /// A symbol narrowed to `file`.
    pub fn in_file(symbol: impl Into<String>, file: Option<String>) -> SymbolArg {
        SymbolArg {
            symbol: symbol.into(),
            file,
        }
    }
}

/// Which change `impact --diff` measures.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum DiffSpec {
    /// The working tree and the index against `HEAD` (`--diff`).
    #[default]
    WorkingTree,
    /// The working tree against a revision (`--diff REV`).
    Since(String),
    /// One revision against another (`--diff A..B`); the graph should be at `B`.
    Between(String, String),
}

impl DiffSpec {
    /// `None` or `""`: the working tree against `HEAD`; `A..B`: between two revisions;
    /// anything else: the working tree against that revision.
    pub fn parse(text: Option<&str>) -> DiffSpec {
        match text.map(str::trim).filter(|t| !t.is_empty()) {
            None => DiffSpec::WorkingTree,
            Some(text) => match text.split_once("..") {
                Some((from, to)) if !from.is_empty() && !to.is_empty() && !to.starts_with('.') => {
                    DiffSpec::Between(from.to_owned(), to.to_owned())
                }
                _ => DiffSpec::Since(text.to_owned()),
            },
        }
    }

    /// The revision the old text comes from.
    pub fn base(&self) -> &str {
        match self {
            DiffSpec::WorkingTree => "HEAD",
            DiffSpec::Since(rev) | DiffSpec::Between(rev, _) => rev,
        }
    }

    /// How answers name the change: `HEAD`, the revision, or `A..B`.
    pub fn describe(&self) -> String {
        match self {
            DiffSpec::WorkingTree => "HEAD".to_owned(),
            DiffSpec::Since(rev) => rev.clone(),
            DiffSpec::Between(from, to) => format!("{from}..{to}"),
        }
    }
}

/// One question about the graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueryRequest {
    /// Transitive callers (a class: per method).
    Callers {
        /// Whose callers.
        symbol: SymbolArg,
        /// Depth, size limits and edge kinds.
        options: TraversalOptions,
    },
    /// Transitive callees (a class: per method).
    Callees {
        /// Whose callees.
        symbol: SymbolArg,
        /// Depth, size limits and edge kinds.
        options: TraversalOptions,
    },
    /// Transitive dependents over every dependency kind.
    Impact {
        /// Whose dependents.
        symbol: SymbolArg,
        /// Depth, size limits and edge kinds.
        options: TraversalOptions,
    },
    /// The shortest path(s).
    Path {
        /// From.
        from: SymbolArg,
        /// To.
        to: SymbolArg,
        /// Search limits and the number of paths.
        options: PathOptions,
    },
    /// Everything around a symbol.
    Neighbors {
        /// The center.
        symbol: SymbolArg,
        /// Distance, direction, size limit.
        options: NeighborOptions,
    },
    /// Symbols matching a pattern.
    Search {
        /// Exact, prefix, glob (`*Service`) or fuzzy pattern, on names and dotted paths.
        pattern: String,
        /// Filters and paging.
        options: SearchOptions,
    },
    /// Symbols and files whose names share words with a phrase (topic search).
    Topic {
        /// The phrase (`user store`).
        text: String,
        /// Filters and paging.
        options: SearchOptions,
    },
    /// What a change breaks: the symbols a git diff touched, each with everything that
    /// depends on it, and the declarations it removed with the places that still name them.
    ChangeImpact {
        /// Which change.
        diff: DiffSpec,
        /// Depth, size limits and edge kinds of each symbol's impact.
        options: TraversalOptions,
    },
    /// Every symbol of one file.
    FileSymbols {
        /// An indexed path or a unique suffix of one.
        file: String,
    },
    /// The packages a package depends on (or that depend on it), with the imports that
    /// create each dependency.
    Deps {
        /// A package name of the project (`@libs/toolkit`), or of a package outside it that
        /// the project imports.
        package: String,
        /// Out: what it depends on; in: who depends on it.
        direction: DepsDirection,
        /// Hops from the package, at least 1.
        max_depth: u32,
    },
}
