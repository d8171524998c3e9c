//! Query requests as the CLI and MCP server state them.

use tsgraph_query::{NeighborOptions, PathOptions, TraversalOptions};

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// TOON: compact, for agents.
    #[default]
    Toon,
    /// JSON: one stable object per result.
    Json,
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

/// One question about the graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueryRequest {
    /// Transitive callers.
    Callers {
        /// Whose callers.
        symbol: SymbolArg,
        /// Depth and size limits.
        options: TraversalOptions,
    },
    /// Transitive callees.
    Callees {
        /// Whose callees.
        symbol: SymbolArg,
        /// Depth and size limits.
        options: TraversalOptions,
    },
    /// Transitive dependents.
    Impact {
        /// Whose dependents.
        symbol: SymbolArg,
        /// Depth and size limits.
        options: TraversalOptions,
    },
    /// A shortest path.
    Path {
        /// From.
        from: SymbolArg,
        /// To.
        to: SymbolArg,
        /// Search limits.
        options: PathOptions,
    },
    /// Everything around a symbol.
    Neighbors {
        /// The center.
        symbol: SymbolArg,
        /// Distance, direction, size limit.
        options: NeighborOptions,
    },
}
