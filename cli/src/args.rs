//! The command line, as clap parses it. Each subcommand takes only the options it uses.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use tsgraph::query::EdgeKinds;

/// The largest `--max-depth`, `--max-nodes`, `--distance` and `--k` accepted.
pub(crate) const MAX_LIMIT: u32 = 1_000_000;

/// Index a TypeScript/JavaScript project into a code graph and query it.
///
/// The project is the nearest folder at or above the current one with a tsconfig.json, a
/// package.json or a .git (or the folder given with --project). Exit codes: 0 answer,
/// 1 error, 2 symbol or file not found or ambiguous, 64 usage error.
#[derive(Debug, Parser)]
#[command(name = "tsgraph", version, about, long_about)]
pub(crate) struct Cli {
    /// The project folder (default: the nearest folder at or above the current one with a
    /// tsconfig.json, a package.json or a .git). Before or after the command.
    #[arg(long, global = true, value_name = "DIR")]
    pub(crate) project: Option<PathBuf>,
    /// The store file (default: PROJECT/.tsgraph/graph.redb). Before or after the command;
    /// not for `bench` (a temporary store), `encode` or `decode` (no store).
    #[arg(long, global = true, value_name = "PATH")]
    pub(crate) db: Option<PathBuf>,
    #[command(subcommand)]
    pub(crate) command: Command,
}

impl Cli {
    /// Parses `args` (the program name first). `--project` and `--db` are global, so clap
    /// takes them on either side of the command; this refuses `--db` where no store is read.
    pub(crate) fn parse_args(
        args: impl IntoIterator<Item = std::ffi::OsString>,
    ) -> Result<Cli, clap::Error> {
        let cli = Cli::try_parse_from(args)?;
        let storeless = match cli.command {
            Command::Bench { .. } => Some("bench (it indexes into a temporary store)"),
            Command::Encode { .. } => Some("encode"),
            Command::Decode { .. } => Some("decode"),
            _ => None,
        };
        match (storeless, &cli.db) {
            (Some(command), Some(_)) => Err(<Cli as clap::CommandFactory>::command().error(
                clap::error::ErrorKind::ArgumentConflict,
                format!("--db does not apply to {command}"),
            )),
            _ => Ok(cli),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatArg {
    Toon,
    Text,
    Json,
    Mermaid,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExportFormatArg {
    /// JSON lines: nodes, then edges.
    Jsonl,
    /// GraphML (networkx, Gephi, yEd, igraph).
    Graphml,
    /// Graphviz DOT.
    Dot,
    /// Neo4j admin-import CSV: nodes.csv and relationships.csv in the --out folder.
    Neo4j,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum DirectionArg {
    In,
    Out,
    Both,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum DepsDirectionArg {
    /// Who depends on the package.
    In,
    /// What the package depends on.
    Out,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum DelimiterArg {
    Comma,
    Tab,
    Pipe,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum KindArg {
    File,
    Function,
    Class,
    Method,
    Interface,
    TypeAlias,
    Variable,
    Property,
    Enum,
}

/// Options of the long-running commands.
#[derive(Debug, clap::Args)]
pub(crate) struct LiveArgs {
    /// Skip files larger than this many bytes.
    #[arg(long, default_value_t = 1024 * 1024)]
    pub(crate) max_file_size: u64,
}

/// How a query's answer is written.
#[derive(Debug, clap::Args)]
pub(crate) struct OutputArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Toon)]
    pub(crate) format: FormatArg,
    /// With --format text: this many source lines per result (at each call site for
    /// callers).
    #[arg(long, default_value_t = 0, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=100))]
    pub(crate) snippets: u32,
    /// After the answer, write to stderr the plan the query ran (its walk, direction, edge
    /// kinds and bounds), the adjacency lists it read, the nodes it reached and where it
    /// stopped. Traversals and paths only.
    #[arg(long)]
    pub(crate) explain: bool,
    /// The answer's token budget (o200k tokens, estimated); 0 for none. An answer that does
    /// not fit lists the results that do, nearest first, after the totals, and ends with the
    /// files of what it left out and the --offset that continues it. Default: 4000 for toon,
    /// text and mermaid, none for json. Paths and deps are never cut
    #[arg(long, value_name = "N")]
    pub(crate) max_tokens: Option<usize>,
}

/// Where a listing starts: the continuation a budgeted answer ends with.
#[derive(Debug, clap::Args)]
pub(crate) struct PageArgs {
    /// Results skipped before the first listed (the `next` offset of a previous answer)
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub(crate) offset: usize,
    /// The generation the offset belongs to (the `next` generation of a previous answer):
    /// an answer at another generation says its pages may not line up
    #[arg(long, value_name = "G")]
    pub(crate) generation: Option<u64>,
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

fn limit_parser() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=i64::from(MAX_LIMIT))
}

fn edge_kinds(text: &str) -> Result<EdgeKinds, String> {
    EdgeKinds::parse(text)
}

/// Depth, size limits and edge kinds of callers, callees and impact.
#[derive(Debug, clap::Args)]
pub(crate) struct TraversalArgs {
    /// Hops from the symbol, 1 to 1000000.
    #[arg(long, default_value_t = 100, value_name = "N", value_parser = limit_parser(), allow_negative_numbers = true)]
    pub(crate) max_depth: u32,
    /// Result nodes reached at most, 1 to 1000000; past it the result says it was truncated
    /// and its totals are lower bounds (the token budget bounds what is printed).
    #[arg(long, default_value_t = 10_000, value_name = "N", value_parser = limit_parser(), allow_negative_numbers = true)]
    pub(crate) max_nodes: u32,
    /// The edge kinds followed, comma-separated (callers and callees: CALLS,INCLUDES; impact:
    /// every kind but CONTAINS).
    #[arg(long, value_name = "KINDS", value_parser = edge_kinds)]
    pub(crate) edge_kinds: Option<EdgeKinds>,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Index the project (or DIR) into PROJECT/.tsgraph/graph.redb.
    Index {
        /// The folder to index (default: the project).
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
        /// After an update, list each re-linked file with the rule that re-linked it (its
        /// text changed, it uses a changed export — which, from where —, it has edges into a
        /// changed node, …).
        #[arg(long)]
        explain: bool,
    },
    /// Measure tsgraph on this project: a fresh index into a temporary store (time by phase,
    /// memory, store size, graph counts), then query latencies over sampled symbols.
    Bench {
        /// The folder to measure (default: the project).
        dir: Option<PathBuf>,
        /// Also write the report here (Markdown), with the latency chart beside it
        /// (the same name, .svg).
        #[arg(long, value_name = "FILE.md")]
        report: Option<PathBuf>,
        /// Symbols sampled for the latency queries, 1 to 100000.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        samples: u32,
        /// The sampling seed: the same project and seed ask the same questions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Skip files larger than this many bytes.
        #[arg(long, default_value_t = 1024 * 1024)]
        max_file_size: u64,
    },
    /// Keep the store level with the files: sync now, then update on every change, one log
    /// line per update (until interrupted).
    Watch {
        #[command(flatten)]
        live: LiveArgs,
    },
    /// Serve the graph tools to an MCP client over stdio (syncs at start, then watches; logs
    /// go to stderr).
    Mcp {
        #[command(flatten)]
        live: LiveArgs,
    },
    /// Serve a language server over stdio beside the editor's TypeScript server: call and
    /// type hierarchy, references and workspace symbols from the graph, answered for the
    /// text the editor holds (syncs at start, then watches; logs go to stderr).
    Lsp {
        #[command(flatten)]
        live: LiveArgs,
    },
    /// Serve a web page on 127.0.0.1 to look at the graph: search, callers and callees as
    /// trees, impact, paths and neighbourhoods drawn, live as files change (syncs at start,
    /// then watches). Prints the page's address with a one-time token; logs go to stderr.
    Ui {
        #[command(flatten)]
        live: LiveArgs,
        /// The port (default: a free one the system picks).
        #[arg(long)]
        port: Option<u16>,
        /// Open the page in the default browser.
        #[arg(long)]
        open: bool,
    },
    /// Functions and methods that call SYMBOL, transitively (a class: per method).
    Callers {
        #[command(flatten)]
        symbol: SymbolArgs,
        #[command(flatten)]
        limits: TraversalArgs,
        #[command(flatten)]
        page: PageArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// What SYMBOL calls and includes, transitively (a class: per method).
    Callees {
        #[command(flatten)]
        symbol: SymbolArgs,
        #[command(flatten)]
        limits: TraversalArgs,
        #[command(flatten)]
        page: PageArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Everything that depends on SYMBOL, transitively, each with what it was reached through.
    /// With --diff, what a git change breaks: every symbol it touched (signature, body, added),
    /// each with its dependents, and the declarations it removed with the places still naming them
    Impact {
        /// Node ID, or a bare or dotted symbol name (not with --diff).
        #[arg(required_unless_present = "diff", conflicts_with = "diff")]
        symbol: Option<String>,
        /// Narrow a name to the file with this path (or path suffix).
        #[arg(long, conflicts_with = "diff")]
        file: Option<String>,
        /// The change: nothing for the working tree and index against HEAD, REV for the
        /// working tree against REV, A..B between two revisions (the graph should be at B).
        #[arg(long, value_name = "REV|A..B", num_args = 0..=1, default_missing_value = "")]
        diff: Option<String>,
        #[command(flatten)]
        limits: TraversalArgs,
        #[command(flatten)]
        page: PageArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// The shortest path(s) from FROM to TO over calls, references, heritage and
    /// interface-to-implementation links.
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
        /// Longest path searched, 1 to 1000000 hops.
        #[arg(long, default_value_t = 20, value_name = "N", value_parser = limit_parser(), allow_negative_numbers = true)]
        max_depth: u32,
        /// Nodes visited at most by a search, 1 to 1000000.
        #[arg(long, default_value_t = 100_000, value_name = "N", value_parser = limit_parser(), allow_negative_numbers = true)]
        max_nodes: u32,
        /// The N shortest distinct paths, 1 to 20.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=20))]
        k: u32,
        /// The edge kinds followed, comma-separated.
        #[arg(long, value_name = "KINDS", value_parser = edge_kinds)]
        edge_kinds: Option<EdgeKinds>,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Everything within DISTANCE hops of SYMBOL, and the edges between.
    Neighbors {
        #[command(flatten)]
        symbol: SymbolArgs,
        /// Hops from the symbol, 1 to 1000000.
        #[arg(long, default_value_t = 1, value_name = "N", value_parser = limit_parser(), allow_negative_numbers = true)]
        distance: u32,
        /// Which edges to follow.
        #[arg(long, value_enum, default_value_t = DirectionArg::Both)]
        direction: DirectionArg,
        /// Result nodes at most, the center included, 1 to 1000000.
        #[arg(long, default_value_t = 10_000, value_name = "N", value_parser = limit_parser(), allow_negative_numbers = true)]
        max_nodes: u32,
        /// The edge kinds followed, comma-separated (default: every kind).
        #[arg(long, value_name = "KINDS", value_parser = edge_kinds)]
        edge_kinds: Option<EdgeKinds>,
        #[command(flatten)]
        page: PageArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Symbols whose name or dotted path matches PATTERN: exact, prefix, glob (`*Service`,
    /// `get*User`) or, when nothing else matches, fuzzy; ignoring case; best first. With
    /// --topic, symbols and files whose names share words with a phrase instead.
    Search {
        /// The pattern (not with --topic).
        #[arg(required_unless_present = "topic", conflicts_with = "topic")]
        pattern: Option<String>,
        /// Topic search: the words of TEXT ("user store") against the words of names
        /// (createUserStore, SessionStore), file paths and leading doc comments, plurals as singulars, ranked
        /// BM25-style with whole-name matches first; the edges between the hits follow.
        #[arg(long, value_name = "TEXT")]
        topic: Option<String>,
        /// Only these kinds (repeatable).
        #[arg(long, value_enum)]
        kind: Vec<KindArg>,
        /// Only files matching this glob (`src/db/**`).
        #[arg(long, value_name = "GLOB")]
        file: Option<String>,
        /// Only this module.
        #[arg(long)]
        module: Option<String>,
        /// Only this package.
        #[arg(long)]
        package: Option<String>,
        /// Only exported symbols.
        #[arg(long)]
        exported: bool,
        #[command(flatten)]
        page: PageArgs,
        /// Results shown at most, 1 to 1000000.
        #[arg(long, default_value_t = 50, value_name = "N", value_parser = limit_parser(), allow_negative_numbers = true)]
        limit: u32,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Every symbol of FILE, nested by container, with signatures.
    FileSymbols {
        /// An indexed path, or a unique suffix of one.
        file: String,
        #[command(flatten)]
        page: PageArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// The packages PACKAGE depends on (or, with --direction in, that depend on it),
    /// transitively, with the imports that create each dependency.
    Deps {
        /// A package name (the `name` of a package.json, or of a package the project
        /// imports from outside).
        package: String,
        /// out: what PACKAGE depends on; in: who depends on PACKAGE.
        #[arg(long, value_enum, default_value_t = DepsDirectionArg::Out)]
        direction: DepsDirectionArg,
        /// Hops from the package, 1 to 1000000.
        #[arg(long, default_value_t = 10, value_name = "N", value_parser = limit_parser(), allow_negative_numbers = true)]
        max_depth: u32,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Every node and edge, for another tool or graph engine.
    Export {
        /// jsonl (default), graphml, dot, or neo4j (two CSV files for `neo4j-admin database
        /// import full`, written into the --out folder).
        #[arg(long, value_enum, default_value_t = ExportFormatArg::Jsonl)]
        format: ExportFormatArg,
        /// Write here instead of stdout: a file, or for neo4j a folder (created if missing).
        #[arg(long, value_name = "PATH", required_if_eq("format", "neo4j"))]
        out: Option<PathBuf>,
    },
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
    Decode {
        /// Spaces per indentation level of the input.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=16))]
        indent: u32,
    },
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
