//! The command line, as clap parses it.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// Index a TypeScript/JavaScript project into a code graph and query it.
#[derive(Debug, Parser)]
#[command(name = "tsgraph", version, about)]
pub(crate) struct Cli {
    /// The project folder.
    #[arg(long, global = true, default_value = ".")]
    pub(crate) project: PathBuf,
    /// The store file (default: PROJECT/.tsgraph/graph.redb).
    #[arg(long, global = true)]
    pub(crate) db: Option<PathBuf>,
    /// Output format of queries.
    #[arg(long, global = true, value_enum, default_value_t = FormatArg::Toon)]
    pub(crate) format: FormatArg,
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatArg {
    Toon,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum DirectionArg {
    In,
    Out,
    Both,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum DelimiterArg {
    Comma,
    Tab,
    Pipe,
}

/// A symbol: a node ID (`src/a.ts:UserService.save`), or a bare or dotted name.
#[derive(Debug, clap::Args)]
pub(crate) struct SymbolArgs {
    /// Node ID, or a bare or dotted symbol name.
    pub(crate) symbol: String,
    /// Narrow a name to the file with this path (or path suffix).
    #[arg(long)]
    pub(crate) file: Option<String>,
}

/// Depth and size limits of callers, callees and impact.
#[derive(Debug, clap::Args)]
pub(crate) struct TraversalArgs {
    /// Hops from the symbol.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) max_depth: u32,
    /// Result nodes at most; past it the result says it was truncated.
    #[arg(long, default_value_t = 500)]
    pub(crate) max_nodes: usize,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Index DIR (default: --project) into DIR/.tsgraph/graph.redb.
    Index {
        /// The folder to index.
        dir: Option<PathBuf>,
        /// Delete the store first (after a schema change or corruption).
        #[arg(long)]
        rebuild: bool,
        /// Skip files larger than this many bytes.
        #[arg(long, default_value_t = 1024 * 1024)]
        max_file_size: u64,
        /// Also list every import that resolved to nothing, and every file with parse errors.
        #[arg(long)]
        verbose: bool,
    },
    /// Functions and methods that call SYMBOL, transitively.
    Callers {
        #[command(flatten)]
        symbol: SymbolArgs,
        #[command(flatten)]
        limits: TraversalArgs,
    },
    /// What SYMBOL calls, transitively.
    Callees {
        #[command(flatten)]
        symbol: SymbolArgs,
        #[command(flatten)]
        limits: TraversalArgs,
    },
    /// Everything that depends on SYMBOL, transitively, with the edge kind that reached it.
    Impact {
        #[command(flatten)]
        symbol: SymbolArgs,
        #[command(flatten)]
        limits: TraversalArgs,
    },
    /// A shortest path from FROM to TO over calls and references.
    Path {
        /// Start: node ID or name.
        from: String,
        /// End: node ID or name.
        to: String,
        /// Narrow FROM to this file.
        #[arg(long)]
        from_file: Option<String>,
        /// Narrow TO to this file.
        #[arg(long)]
        to_file: Option<String>,
        /// Longest path searched.
        #[arg(long, default_value_t = 20)]
        max_depth: u32,
    },
    /// Everything within DISTANCE hops of SYMBOL, and the edges between.
    Neighbors {
        #[command(flatten)]
        symbol: SymbolArgs,
        /// Hops from the symbol.
        #[arg(long, default_value_t = 1)]
        distance: u32,
        /// Which edges to follow.
        #[arg(long, value_enum, default_value_t = DirectionArg::Both)]
        direction: DirectionArg,
        /// Result nodes at most.
        #[arg(long, default_value_t = 500)]
        max_nodes: usize,
    },
    /// Every node and edge as JSON lines.
    Export,
    /// Read JSON on stdin, write TOON on stdout.
    Encode {
        /// The delimiter of inline arrays and tables.
        #[arg(long, value_enum, default_value_t = DelimiterArg::Comma)]
        delimiter: DelimiterArg,
        /// Spaces per indentation level.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=16))]
        indent: u32,
        /// For an array of records, pick the form from the data's shape (TOON table,
        /// flattened table, hybrid table + JSON sidecar, or JSON); the form goes to stderr.
        #[arg(long)]
        auto: bool,
        /// With --auto: lift this nested field (dotted path) into columns; repeatable.
        #[arg(long, value_name = "PATH", requires = "auto")]
        flatten: Vec<String>,
        /// With --auto: cut a field to at most MAX characters (`content=200`); repeatable.
        #[arg(long, value_name = "FIELD=MAX", requires = "auto", value_parser = parse_truncation)]
        truncate: Vec<(String, usize)>,
    },
    /// Read TOON on stdin, write JSON on stdout.
    Decode,
}

/// Parses `FIELD=MAX` for `--truncate`.
fn parse_truncation(text: &str) -> Result<(String, usize), String> {
    let (field, max) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not FIELD=MAX"))?;
    let max = max
        .parse::<usize>()
        .map_err(|err| format!("`{max}` in `{text}`: {err}"))?;
    Ok((field.to_owned(), max))
}
