//! One function per command: parse nothing, print results, return the exit code.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use tsgraph::encoders::toon;
use tsgraph::engine::NodeKind;
use tsgraph::{
    DepsDirection, DiffSpec, Direction, Error, ExportFormat, Format, IndexOptions, IndexSummary,
    LiveProject, NeighborOptions, Output, PathOptions, Project, QueryRequest, SearchOptions,
    SymbolArg, TraversalOptions, discover_root,
};

use super::args::{
    Cli, Command, DelimiterArg, DepsDirectionArg, DirectionArg, ExportFormatArg, FormatArg,
    KindArg, LiveArgs, OutputArgs, PageArgs, SymbolArgs, TraversalArgs,
};

pub(super) fn dispatch(
    cli: &Cli,
    out: &mut dyn Write,
    stdin: &mut dyn Read,
    stderr: &mut dyn Write,
) -> anyhow::Result<()> {
    match &cli.command {
        Command::Index {
            dir,
            rebuild,
            max_file_size,
            verbose,
            explain,
        } => {
            let root = folder_or_project(cli, dir.as_deref())?;
            let (progress, bar) = super::progress::index_progress();
            let options = IndexOptions {
                max_file_size: *max_file_size,
                progress,
                ..IndexOptions::default()
            };
            let db = cli.db.as_deref();
            refuse_without_sources(&root, db, &options)?;
            let opened = if *rebuild {
                None
            } else {
                open_unless_other_schema(&root, db, stderr)?
            };
            if let Some(project) = opened {
                let sync = project.sync(&options)?;
                bar.finish_and_clear();
                match &sync.full {
                    Some(summary) => {
                        write_summary(out, summary, project.store().path())?;
                        if *verbose {
                            write_details(out, summary)?;
                        }
                    }
                    None => {
                        write_sync(out, &sync, project.store().path())?;
                        if *explain {
                            write_relinked(out, &sync)?;
                        }
                    }
                }
            } else {
                let (project, summary) = Project::rebuild(&root, db, &options)?;
                bar.finish_and_clear();
                write_summary(out, &summary, project.store().path())?;
                if *verbose {
                    write_details(out, &summary)?;
                }
            }
        }
        Command::Bench {
            dir,
            report,
            samples,
            seed,
            max_file_size,
        } => {
            let root = folder_or_project(cli, dir.as_deref())?;
            let (progress, bar) = super::progress::index_progress();
            let options = tsgraph_bench_harness::BenchOptions {
                index: IndexOptions {
                    max_file_size: *max_file_size,
                    progress,
                    ..IndexOptions::default()
                },
                samples: *samples as usize,
                seed: *seed,
                // A fresh process is timed only when this is the tsgraph executable (not a
                // program embedding the CLI, such as a test).
                cli: std::env::current_exe()
                    .ok()
                    .filter(|exe| exe.file_stem().is_some_and(|stem| stem == "tsgraph")),
            };
            refuse_without_sources(&root, None, &options.index)?;
            let measured = tsgraph_bench_harness::run(&root, &options)?;
            bar.finish_and_clear();
            bench_report(&measured, report.as_deref(), out)?;
        }
        Command::Watch { live } => watch(cli, live, out, stderr)?,
        Command::Mcp { live } => mcp(cli, live, stderr)?,
        Command::Lsp { live } => lsp(cli, live)?,
        Command::Ui { live, port, open } => ui(cli, live, *port, *open, out, stderr)?,
        Command::Callers {
            symbol,
            limits,
            page,
            output,
        } => query(
            cli,
            out,
            stderr,
            (output, page),
            QueryRequest::Callers {
                symbol: symbol_arg(symbol),
                options: traversal(limits),
            },
        )?,
        Command::Callees {
            symbol,
            limits,
            page,
            output,
        } => query(
            cli,
            out,
            stderr,
            (output, page),
            QueryRequest::Callees {
                symbol: symbol_arg(symbol),
                options: traversal(limits),
            },
        )?,
        Command::Impact {
            symbol,
            file,
            diff,
            limits,
            page,
            output,
        } => {
            let request = match (diff, symbol) {
                (Some(diff), _) => QueryRequest::ChangeImpact {
                    diff: DiffSpec::parse(Some(diff)),
                    options: traversal(limits),
                },
                (None, symbol) => QueryRequest::Impact {
                    symbol: SymbolArg::in_file(symbol.clone().unwrap_or_default(), file.clone()),
                    options: traversal(limits),
                },
            };
            query(cli, out, stderr, (output, page), request)?
        }
        Command::Path {
            from,
            to,
            from_file,
            to_file,
            max_depth,
            max_nodes,
            k,
            edge_kinds,
            output,
        } => {
            let request = QueryRequest::Path {
                from: SymbolArg::in_file(from.clone(), from_file.clone()),
                to: SymbolArg::in_file(to.clone(), to_file.clone()),
                options: PathOptions {
                    max_depth: *max_depth,
                    max_nodes: *max_nodes as usize,
                    k: *k as usize,
                    edge_kinds: *edge_kinds,
                },
            };
            query(cli, out, stderr, (output, &NO_PAGE), request)?;
        }
        Command::Neighbors {
            symbol,
            distance,
            direction,
            max_nodes,
            edge_kinds,
            page,
            output,
        } => {
            let direction = match direction {
                DirectionArg::In => Direction::In,
                DirectionArg::Out => Direction::Out,
                DirectionArg::Both => Direction::Both,
            };
            let options = NeighborOptions {
                distance: *distance,
                direction,
                max_nodes: *max_nodes as usize,
                edge_kinds: *edge_kinds,
            };
            query(
                cli,
                out,
                stderr,
                (output, page),
                QueryRequest::Neighbors {
                    symbol: symbol_arg(symbol),
                    options,
                },
            )?;
        }
        Command::Search {
            pattern,
            topic,
            kind,
            file,
            module,
            package,
            exported,
            page,
            limit,
            output,
        } => {
            let options = SearchOptions {
                kinds: kind.iter().map(|k| node_kind(*k)).collect(),
                file: file.clone(),
                module: module.clone(),
                package: package.clone(),
                exported: exported.then_some(true),
                offset: page.offset,
                limit: *limit as usize,
                ..SearchOptions::default()
            };
            let request = match topic {
                Some(text) => QueryRequest::Topic {
                    text: text.clone(),
                    options,
                },
                None => QueryRequest::Search {
                    pattern: pattern.clone().unwrap_or_default(),
                    options,
                },
            };
            query(cli, out, stderr, (output, page), request)?;
        }
        Command::FileSymbols { file, page, output } => {
            let request = QueryRequest::FileSymbols { file: file.clone() };
            query(cli, out, stderr, (output, page), request)?;
        }
        Command::Deps {
            package,
            direction,
            max_depth,
            output,
        } => {
            let request = QueryRequest::Deps {
                package: package.clone(),
                direction: match direction {
                    DepsDirectionArg::In => DepsDirection::In,
                    DepsDirectionArg::Out => DepsDirection::Out,
                },
                max_depth: *max_depth,
            };
            query(cli, out, stderr, (output, &NO_PAGE), request)?;
        }
        Command::Export { format, out: path } => {
            let project = open_indexed(cli, stderr)?;
            export(
                &project,
                export_format(*format),
                path.as_deref(),
                out,
                stderr,
            )?;
        }
        Command::Encode {
            delimiter,
            indent,
            auto,
            flatten,
            truncate,
        } => {
            let options = toon_options(*delimiter, *indent);
            let records = auto.then(|| toon::records::RecordsOptions {
                flatten: flatten.clone(),
                truncate: truncate.clone(),
                toon: options,
                ..Default::default()
            });
            encode(stdin, out, stderr, options, records.as_ref())?;
        }
        Command::Decode { indent } => decode(stdin, out, *indent)?,
    }
    Ok(())
}

/// The format a command answers in, for errors written as JSON.
pub(super) fn format_of(command: &Command) -> Option<Format> {
    let output = match command {
        Command::Callers { output, .. }
        | Command::Callees { output, .. }
        | Command::Impact { output, .. }
        | Command::Path { output, .. }
        | Command::Neighbors { output, .. }
        | Command::Search { output, .. }
        | Command::FileSymbols { output, .. }
        | Command::Deps { output, .. } => output,
        _ => return None,
    };
    Some(format(output.format))
}

/// Prints the benchmark report; with `--report FILE.md`, also writes it there with the
/// latency chart beside it (`FILE.svg`).
fn bench_report(
    measured: &tsgraph_bench_harness::BenchReport,
    report: Option<&Path>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    measured.write_markdown(out, None)?;
    let Some(report) = report else {
        return Ok(());
    };
    let mut file = std::fs::File::create(report)
        .map(io::BufWriter::new)
        .with_context(|| format!("{}: cannot create the report", report.display()))?;
    // The chart beside the report, never over it (a report named `x.svg`).
    let chart = if report.extension().is_some_and(|ext| ext == "svg") {
        report.with_extension("latency.svg")
    } else {
        report.with_extension("svg")
    };
    tsgraph_bench_harness::write_latency_chart(&chart, &measured.latencies)?;
    let chart_name = chart
        .file_name()
        .map(|name| name.to_string_lossy().into_owned());
    measured.write_markdown(&mut file, chart_name.as_deref())?;
    file.flush()
        .with_context(|| format!("{}: cannot write the report", report.display()))?;
    writeln!(out, "\nwrote {} and {}", report.display(), chart.display())?;
    Ok(())
}

/// The folder a command names, else the project.
fn folder_or_project(cli: &Cli, dir: Option<&Path>) -> anyhow::Result<PathBuf> {
    match dir {
        Some(dir) => Ok(dir.to_path_buf()),
        None => project_root(cli),
    }
}

fn export_format(arg: ExportFormatArg) -> ExportFormat {
    match arg {
        ExportFormatArg::Jsonl => ExportFormat::JsonLines,
        ExportFormatArg::Graphml => ExportFormat::GraphMl,
        ExportFormatArg::Dot => ExportFormat::Dot,
        ExportFormatArg::Neo4j => ExportFormat::Neo4j,
    }
}

/// `export`: onto stdout or into the `--out` file; Neo4j's two files into the `--out`
/// folder, with the import command on stderr.
fn export(
    project: &Project,
    format: ExportFormat,
    path: Option<&Path>,
    out: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<()> {
    let create = |path: &Path| -> Result<io::BufWriter<std::fs::File>, Error> {
        std::fs::File::create(path)
            .map(io::BufWriter::new)
            .map_err(|source| Error::Io {
                path: path.to_owned(),
                source,
            })
    };
    match (format, path) {
        (ExportFormat::Neo4j, Some(folder)) => {
            std::fs::create_dir_all(folder).map_err(|source| Error::Io {
                path: folder.to_owned(),
                source,
            })?;
            let nodes_path = folder.join("nodes.csv");
            let relationships_path = folder.join("relationships.csv");
            let mut nodes = create(&nodes_path)?;
            let mut relationships = create(&relationships_path)?;
            project.export_neo4j(&mut nodes, &mut relationships)?;
            writeln!(
                stderr,
                "wrote {nodes} and {relationships}; load them into an empty database with:\n  \
                 neo4j-admin database import full --nodes={nodes} --relationships={relationships} \
                 <database>",
                nodes = nodes_path.display(),
                relationships = relationships_path.display(),
            )?;
        }
        (_, Some(file)) => {
            project.export_as(format, &mut create(file)?)?;
        }
        (_, None) => {
            project.export_as(format, out)?;
        }
    }
    Ok(())
}

fn format(arg: FormatArg) -> Format {
    match arg {
        FormatArg::Toon => Format::Toon,
        FormatArg::Text => Format::Text,
        FormatArg::Json => Format::Json,
        FormatArg::Mermaid => Format::Mermaid,
    }
}

fn node_kind(kind: KindArg) -> NodeKind {
    match kind {
        KindArg::File => NodeKind::File,
        KindArg::Function => NodeKind::Function,
        KindArg::Class => NodeKind::Class,
        KindArg::Method => NodeKind::Method,
        KindArg::Interface => NodeKind::Interface,
        KindArg::TypeAlias => NodeKind::TypeAlias,
        KindArg::Variable => NodeKind::Variable,
        KindArg::Property => NodeKind::Property,
        KindArg::Enum => NodeKind::Enum,
    }
}

fn symbol_arg(args: &SymbolArgs) -> SymbolArg {
    SymbolArg::in_file(args.symbol.clone(), args.file.clone())
}

fn traversal(args: &TraversalArgs) -> TraversalOptions {
    TraversalOptions {
        max_depth: args.max_depth,
        max_nodes: args.max_nodes as usize,
        edge_kinds: args.edge_kinds,
    }
}

/// The project root: `--project`, or the nearest folder at or above the current one with a
/// project marker.
fn project_root(cli: &Cli) -> anyhow::Result<PathBuf> {
    match &cli.project {
        Some(root) => Ok(root.clone()),
        None => {
            let cwd = std::env::current_dir().context("reading the current folder")?;
            Ok(discover_root(&cwd)?)
        }
    }
}

/// A folder with neither a store nor a source file is an error, before any store is created
/// there.
/// The project's store opened as its writer, or `None` when it was written by another schema
/// version of tsgraph (said on `stderr`): it holds nothing but what indexing the project
/// gives, so `index` replaces it rather than asking for `--rebuild`.
fn open_unless_other_schema(
    root: &Path,
    db: Option<&Path>,
    stderr: &mut dyn Write,
) -> anyhow::Result<Option<Project>> {
    match Project::open(root, db) {
        Err(err) if say_other_schema(&err, stderr)? => Ok(None),
        other => Ok(Some(other?)),
    }
}

/// Whether `err` is a store written by another schema version; if so, says on `log` that the
/// project is indexed again into a new store.
fn say_other_schema(err: &tsgraph::Error, log: &mut dyn Write) -> io::Result<bool> {
    let tsgraph::Error::Store(tsgraph::engine::StoreError::SchemaMismatch {
        path,
        found,
        expected,
    }) = err
    else {
        return Ok(false);
    };
    writeln!(
        log,
        "tsgraph: {} has schema version {found}, this tsgraph writes {expected}: indexing the \
         project again into a new store",
        path.display()
    )?;
    Ok(true)
}

fn refuse_without_sources(
    root: &Path,
    db: Option<&Path>,
    options: &IndexOptions,
) -> Result<(), Error> {
    if !store_exists(root, db) && !tsgraph::indexer::has_sources(root, options) {
        return Err(Error::NoSources {
            root: root.to_path_buf(),
        });
    }
    Ok(())
}

fn store_exists(root: &Path, db: Option<&Path>) -> bool {
    match db {
        Some(db) => db.exists(),
        None => root
            .join(tsgraph::STORE_DIR)
            .join(tsgraph::STORE_FILE)
            .exists(),
    }
}

/// Opens the project's store read-only, indexing the project first (as a writer) when it
/// has never been indexed. A folder without sources and without a store is an error, and no
/// store is created.
fn open_indexed(cli: &Cli, stderr: &mut dyn Write) -> anyhow::Result<Project> {
    let root = project_root(cli)?;
    let db = cli.db.as_deref();
    if !root.is_dir() {
        return Err(Error::Io {
            path: root,
            source: io::Error::new(io::ErrorKind::NotFound, "no such folder"),
        }
        .into());
    }
    refuse_without_sources(&root, db, &IndexOptions::default())?;
    match Project::open_read_only(&root, db) {
        Err(tsgraph::Error::NotIndexed { .. }) => {}
        other => return Ok(other?),
    }
    {
        let writer = Project::open(&root, db)?;
        if !writer.is_indexed()? {
            let summary = writer.index(&IndexOptions::default())?;
            write_summary(stderr, &summary, writer.store().path())?;
        }
    }
    Ok(Project::open_read_only(&root, db)?)
}

/// The page of commands that take none (path, deps).
const NO_PAGE: PageArgs = PageArgs {
    offset: 0,
    generation: None,
};

fn query(
    cli: &Cli,
    out: &mut dyn Write,
    stderr: &mut dyn Write,
    (output, page): (&OutputArgs, &PageArgs),
    request: QueryRequest,
) -> anyhow::Result<()> {
    let project = open_indexed(cli, stderr)?;
    let format = format(output.format);
    let output_options = Output {
        snippets: output.snippets,
        ..Output::new(format)
    }
    .with_max_tokens(
        (output.max_tokens, format.cli_max_tokens()),
        page.offset,
        page.generation,
    );
    let summary = project.query_with(&request, &output_options, out)?;
    if output.explain {
        match summary.explain {
            Some(explain) => write!(stderr, "{explain}")?,
            None => writeln!(stderr, "plan: a scan of the store's indexes (no traversal)")?,
        }
    }
    Ok(())
}

/// Opens the project for a long-running command: its store synced with the disk (indexed
/// when it never was), the summary on `log`.
fn open_live(cli: &Cli, args: &LiveArgs, log: &mut dyn Write) -> anyhow::Result<Arc<LiveProject>> {
    let root = project_root(cli)?;
    let db = cli.db.as_deref();
    let options = IndexOptions {
        max_file_size: args.max_file_size,
        ..IndexOptions::default()
    };
    refuse_without_sources(&root, db, &options)?;
    let live = match LiveProject::open(&root, db, options.clone()) {
        Err(err) if say_other_schema(&err, log)? => {
            Project::rebuild(&root, db, &options)?;
            LiveProject::open(&root, db, options)?
        }
        other => other?,
    };
    writeln!(log, "tsgraph: watching {}", live.root().display())?;
    writeln!(log, "tsgraph: store {}", live.store_path().display())?;
    Ok(Arc::new(live))
}

/// `watch`: one line on `out` per update, until the process is stopped.
fn watch(
    cli: &Cli,
    args: &LiveArgs,
    out: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<()> {
    let live = open_live(cli, args, stderr)?;
    let (sender, lines) = std::sync::mpsc::channel::<String>();
    let _watcher = tsgraph::watch(live, move |update| {
        let _ = sender.send(update.to_string());
    })?;
    writeln!(out, "ready")?;
    out.flush()?;
    for line in lines {
        writeln!(out, "{line}")?;
        out.flush()?;
    }
    Ok(())
}

/// `mcp`: the protocol owns stdout; everything else goes to stderr.
fn mcp(cli: &Cli, args: &LiveArgs, stderr: &mut dyn Write) -> anyhow::Result<()> {
    let live = open_live(cli, args, stderr)?;
    crate::mcp::serve(live, Box::new(io::stderr()))?;
    Ok(())
}

/// `lsp`: the language server over stdio. The project is the one given with `--project`,
/// else the client's workspace (known only once the client says it, at initialize).
fn lsp(cli: &Cli, args: &LiveArgs) -> anyhow::Result<()> {
    let (connection, io_threads) = lsp_server::Connection::stdio();
    let setup = crate::lsp::Setup {
        root: cli.project.clone(),
        db: cli.db.clone(),
        options: IndexOptions {
            max_file_size: args.max_file_size,
            ..IndexOptions::default()
        },
    };
    crate::lsp::serve(connection, setup, Box::new(io::stderr()))?;
    io_threads.join().context("closing the LSP connection")?;
    Ok(())
}

/// `ui`: the web page's server, until the process is stopped. Its address goes to `out`,
/// first and alone, so a program that started it can read it.
fn ui(
    cli: &Cli,
    args: &LiveArgs,
    port: Option<u16>,
    open: bool,
    out: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<()> {
    let live = open_live(cli, args, stderr)?;
    let options = crate::ui::Options {
        port: port.unwrap_or(0),
        open,
    };
    crate::ui::serve(live, &options, out, Box::new(io::stderr()))?;
    Ok(())
}

/// What an incremental `index` did.
fn write_sync(out: &mut dyn Write, sync: &tsgraph::SyncSummary, store: &Path) -> io::Result<()> {
    if sync.is_noop() {
        writeln!(
            out,
            "up to date: {} files checked in {} ms",
            sync.checked,
            sync.time.as_millis()
        )?;
    } else {
        writeln!(
            out,
            "updated in {} ms: {} added, {} changed, {} removed; {} files re-linked ({} checked)",
            sync.time.as_millis(),
            sync.added.len(),
            sync.changed.len(),
            sync.removed.len(),
            sync.relinked,
            sync.checked
        )?;
    }
    writeln!(out, "store: {}", store.display())
}

/// Each file an update re-linked, with why.
fn write_relinked(out: &mut dyn Write, sync: &tsgraph::SyncSummary) -> io::Result<()> {
    for (path, reason) in &sync.relinked_files {
        writeln!(out, "re-linked {path}: {reason}")?;
    }
    if !sync.is_noop() {
        writeln!(
            out,
            "summaries read: {} of {} files; importers' import uses read: {}",
            sync.summaries_read, sync.checked, sync.uses_read
        )?;
    }
    let walk = match sync.walk_skipped {
        true => "skipped, the folders and ignore files as the last walk left them",
        false => "whole",
    };
    writeln!(out, "walk: {walk}")?;
    if sync.model_kept {
        writeln!(
            out,
            "project model: the one the store kept, its files unchanged"
        )?;
    }
    Ok(())
}

fn write_summary(out: &mut dyn Write, summary: &IndexSummary, store: &Path) -> io::Result<()> {
    writeln!(
        out,
        "indexed {} files, {} lines, {} bytes in {} ms (walk and parse {} ms)",
        summary.files,
        summary.lines,
        summary.bytes,
        summary.total_time.as_millis(),
        summary.parse_time.as_millis()
    )?;
    write!(out, "nodes {}, edges {}:", summary.nodes, summary.edges)?;
    for (kind, count) in summary.edges_by_kind.iter().filter(|(_, n)| *n > 0) {
        write!(out, " {kind} {count}")?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "calls: {} resolved, {} unresolved",
        summary.resolved_calls, summary.unresolved_calls
    )?;
    write!(out, "imports:")?;
    for (i, (outcome, count)) in summary.imports_by_outcome.iter().enumerate() {
        let sep = if i == 0 { " " } else { ", " };
        write!(out, "{sep}{count} {outcome}")?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "syntax errors: {:.2}% of bytes inside ERROR nodes",
        summary.error_share() * 100.0
    )?;
    for (path, errors, bytes) in summary.error_files.iter().take(5) {
        writeln!(
            out,
            "  {path}: {errors} of {bytes} bytes inside ERROR nodes"
        )?;
    }
    for (path, size) in &summary.skipped_too_large {
        writeln!(out, "skipped: {path} ({size} bytes, over the size limit)")?;
    }
    // One line per problem: a warning that repeats a skipped file is not written again.
    let skipped = |warning: &str| {
        summary
            .skipped_too_large
            .iter()
            .any(|(path, _)| warning.starts_with(&format!("{path}: skipped")))
    };
    let mut written: Vec<&str> = Vec::new();
    for warning in summary.warnings.iter().filter(|w| !skipped(w)) {
        if !written.contains(&warning.as_str()) {
            writeln!(out, "warning: {warning}")?;
            written.push(warning);
        }
    }
    writeln!(out, "store: {}", store.display())
}

/// `index --verbose`: every unresolved import and every file with parse errors.
fn write_details(out: &mut dyn Write, summary: &IndexSummary) -> io::Result<()> {
    for import in &summary.unresolved_imports {
        writeln!(
            out,
            "unresolved import: {}:{}: `{}` ({})",
            import.file, import.line, import.specifier, import.reason
        )?;
    }
    for (path, errors, bytes) in &summary.error_files {
        writeln!(out, "parse errors: {path}: {errors} of {bytes} bytes")?;
    }
    Ok(())
}

fn read_stdin(stdin: &mut dyn Read) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    stdin
        .read_to_end(&mut bytes)
        .context("reading standard input")?;
    String::from_utf8(bytes).map_err(|err| {
        let valid = err.utf8_error().valid_up_to();
        let line = err.as_bytes()[..valid]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        anyhow::anyhow!("standard input: invalid UTF-8 at byte {valid} (line {line})")
    })
}

fn toon_options(delimiter: DelimiterArg, indent: u32) -> toon::Options {
    toon::Options {
        indent: indent as usize,
        delimiter: match delimiter {
            DelimiterArg::Comma => toon::Delimiter::Comma,
            DelimiterArg::Tab => toon::Delimiter::Tab,
            DelimiterArg::Pipe => toon::Delimiter::Pipe,
        },
    }
}

/// JSON on stdin to TOON on stdout; with records options, an array is encoded in the form
/// its shape calls for (said on stderr) and anything else as plain TOON.
fn encode(
    stdin: &mut dyn Read,
    out: &mut dyn Write,
    stderr: &mut dyn Write,
    options: toon::Options,
    records: Option<&toon::records::RecordsOptions>,
) -> anyhow::Result<()> {
    let text = read_stdin(stdin)?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|err| {
        anyhow::anyhow!(
            "standard input: invalid JSON at {}:{}: {err}",
            err.line(),
            err.column()
        )
    })?;
    // Encode into memory first so that a failure leaves nothing on stdout.
    let encoded = match (records, &value) {
        (Some(records), serde_json::Value::Array(items)) => {
            let (form, encoded) = toon::records::encode_auto(items, records)?;
            writeln!(stderr, "form: {form}")?;
            encoded
        }
        _ => toon::to_string(&value, &options)?,
    };
    out.write_all(encoded.as_bytes())?;
    out.write_all(b"\n")?;
    Ok(())
}

fn decode(stdin: &mut dyn Read, out: &mut dyn Write, indent: u32) -> anyhow::Result<()> {
    let text = read_stdin(stdin)?;
    let options = toon::decode::DecodeOptions {
        indent: indent as usize,
        ..Default::default()
    };
    let value = toon::decode::to_value_with(&text, &options)
        .map_err(|err| anyhow::anyhow!("standard input: {err}"))?;
    let json = serde_json::to_string_pretty(&value)?;
    out.write_all(json.as_bytes())?;
    out.write_all(b"\n")?;
    Ok(())
}
