//! One function per command: parse nothing, print results, return the exit code.

use std::io::{self, Read, Write};
use std::path::Path;

use crate::{
    Direction, Format, IndexOptions, IndexSummary, NeighborOptions, PathOptions, Project,
    QueryRequest, SymbolArg, TraversalOptions,
};
use anyhow::Context;
use tsgraph_encoders::toon;

use super::args::{Cli, Command, DelimiterArg, DirectionArg, FormatArg, SymbolArgs, TraversalArgs};

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
        } => {
            let root = dir.as_deref().unwrap_or(&cli.project);
            let db = cli.db.as_deref();
            let options = IndexOptions {
                max_file_size: *max_file_size,
                ..IndexOptions::default()
            };
            if *rebuild {
                let (project, summary) = Project::rebuild(root, db, &options)?;
                write_summary(out, &summary, project.store().path())?;
                if *verbose {
                    write_details(out, &summary)?;
                }
            } else {
                let project = Project::open(root, db)?;
                let sync = project.sync(&options)?;
                match &sync.full {
                    Some(summary) => {
                        write_summary(out, summary, project.store().path())?;
                        if *verbose {
                            write_details(out, summary)?;
                        }
                    }
                    None => write_sync(out, &sync, project.store().path())?,
                }
            }
        }
        Command::Callers { symbol, limits } => {
            query(
                cli,
                out,
                stderr,
                QueryRequest::Callers {
                    symbol: symbol_arg(symbol),
                    options: traversal(limits),
                },
            )?;
        }
        Command::Callees { symbol, limits } => {
            query(
                cli,
                out,
                stderr,
                QueryRequest::Callees {
                    symbol: symbol_arg(symbol),
                    options: traversal(limits),
                },
            )?;
        }
        Command::Impact { symbol, limits } => {
            query(
                cli,
                out,
                stderr,
                QueryRequest::Impact {
                    symbol: symbol_arg(symbol),
                    options: traversal(limits),
                },
            )?;
        }
        Command::Path {
            from,
            to,
            from_file,
            to_file,
            max_depth,
        } => {
            let request = QueryRequest::Path {
                from: SymbolArg::in_file(from.clone(), from_file.clone()),
                to: SymbolArg::in_file(to.clone(), to_file.clone()),
                options: PathOptions {
                    max_depth: *max_depth,
                    ..PathOptions::default()
                },
            };
            query(cli, out, stderr, request)?;
        }
        Command::Neighbors {
            symbol,
            distance,
            direction,
            max_nodes,
        } => {
            let direction = match direction {
                DirectionArg::In => Direction::In,
                DirectionArg::Out => Direction::Out,
                DirectionArg::Both => Direction::Both,
            };
            let options = NeighborOptions {
                distance: *distance,
                direction,
                max_nodes: *max_nodes,
            };
            query(
                cli,
                out,
                stderr,
                QueryRequest::Neighbors {
                    symbol: symbol_arg(symbol),
                    options,
                },
            )?;
        }
        Command::Export => {
            let project = open_indexed(cli, stderr)?;
            project.export(out)?;
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
        Command::Decode => decode(stdin, out)?,
    }
    Ok(())
}

fn symbol_arg(args: &SymbolArgs) -> SymbolArg {
    SymbolArg::in_file(args.symbol.clone(), args.file.clone())
}

fn traversal(args: &TraversalArgs) -> TraversalOptions {
    TraversalOptions {
        max_depth: args.max_depth,
        max_nodes: args.max_nodes,
    }
}

/// Opens the project's store, indexing the project first when it has never been indexed.
/// Opens the project's store read-only, indexing the project first (as a writer) when it
/// has never been indexed.
fn open_indexed(cli: &Cli, stderr: &mut dyn Write) -> anyhow::Result<Project> {
    match Project::open_read_only(&cli.project, cli.db.as_deref()) {
        Err(crate::Error::NotIndexed { .. }) => {}
        other => return Ok(other?),
    }
    {
        let writer = Project::open(&cli.project, cli.db.as_deref())?;
        if !writer.is_indexed()? {
            let summary = writer.index(&IndexOptions::default())?;
            write_summary(stderr, &summary, writer.store().path())?;
        }
    }
    Ok(Project::open_read_only(&cli.project, cli.db.as_deref())?)
}

fn query(
    cli: &Cli,
    out: &mut dyn Write,
    stderr: &mut dyn Write,
    request: QueryRequest,
) -> anyhow::Result<()> {
    let project = open_indexed(cli, stderr)?;
    let format = match cli.format {
        FormatArg::Toon => Format::Toon,
        FormatArg::Json => Format::Json,
    };
    project.query(&request, format, out)?;
    Ok(())
}

/// What an incremental `index` did.
fn write_sync(out: &mut dyn Write, sync: &crate::SyncSummary, store: &Path) -> io::Result<()> {
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
    for warning in &summary.warnings {
        writeln!(out, "warning: {warning}")?;
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

fn decode(stdin: &mut dyn Read, out: &mut dyn Write) -> anyhow::Result<()> {
    let text = read_stdin(stdin)?;
    let value = toon::to_value(&text).map_err(|err| anyhow::anyhow!("standard input: {err}"))?;
    let json = serde_json::to_string_pretty(&value)?;
    out.write_all(json.as_bytes())?;
    out.write_all(b"\n")?;
    Ok(())
}
