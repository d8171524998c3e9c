//! The `tsgraph` command's front ends on the tsgraph library: the command line (parsing,
//! dispatch, printing and exit codes), the MCP server, the language server and the web UI. `main.rs` only hands [`run`] the
//! process's arguments and standard streams, so tests can run the whole CLI in-process.
//!
//! ```
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.ts"), "export function main() { helper(); }\nfunction helper() {}\n").unwrap();
//! let (mut stdin, mut stdout, mut stderr) = (std::io::empty(), Vec::new(), Vec::new());
//! let mut streams = tsgraph_cli::Streams { stdin: &mut stdin, stdout: &mut stdout, stderr: &mut stderr };
//! let args = ["tsgraph", "callers", "helper", "--project"].map(std::ffi::OsString::from);
//! let args = args.into_iter().chain([dir.path().as_os_str().to_owned()]);
//! assert_eq!(tsgraph_cli::run(args, &mut streams), 0);
//! assert!(String::from_utf8(stdout).unwrap().starts_with("callers: \"a.ts:helper\""));
//! ```

mod args;
mod commands;
pub mod lsp;
pub mod mcp;
mod progress;
pub mod ui;

use std::ffi::OsString;
use std::io::{self, Read, Write};

use args::Cli;

pub use tsgraph::{EXIT_ERROR, EXIT_SYMBOL, EXIT_USAGE};

/// The standard streams a command reads and writes.
pub struct Streams<'a> {
    /// Standard input (`encode`, `decode`).
    pub stdin: &'a mut dyn Read,
    /// Standard output: results only.
    pub stdout: &'a mut dyn Write,
    /// Standard error: errors, warnings and index summaries of implicit indexing.
    pub stderr: &'a mut dyn Write,
}

/// Runs the CLI with `args` (the program name first) and returns the exit code.
pub fn run(args: impl IntoIterator<Item = OsString>, streams: &mut Streams<'_>) -> u8 {
    let cli = match Cli::parse_args(args) {
        Ok(cli) => cli,
        Err(err) => {
            let code = if err.use_stderr() { EXIT_USAGE } else { 0 };
            let rendered = err.render().to_string();
            let target: &mut dyn Write = if err.use_stderr() {
                &mut *streams.stderr
            } else {
                &mut *streams.stdout
            };
            let _ = target.write_all(rendered.as_bytes());
            return code;
        }
    };
    let json_errors = commands::format_of(&cli.command) == Some(tsgraph::Format::Json);
    let mut out = io::BufWriter::new(&mut *streams.stdout);
    let result = commands::dispatch(&cli, &mut out, &mut *streams.stdin, &mut *streams.stderr)
        .and_then(|()| {
            out.flush()?;
            Ok(())
        });
    match result {
        Ok(()) => 0,
        Err(err) if is_broken_pipe(&err) => 0,
        Err(err) => {
            // Nothing half-written reaches stdout after an error.
            drop(out.into_parts());
            let code = err
                .downcast_ref::<tsgraph::Error>()
                .map_or(EXIT_ERROR, tsgraph::Error::exit_code);
            let _ = writeln!(streams.stderr, "tsgraph: {err:#}");
            if json_errors {
                // The same error, for a program reading stdout.
                let json = match err.downcast_ref::<tsgraph::Error>() {
                    Some(e) => e.to_json(),
                    None => {
                        serde_json::json!({"error": {"code": "error", "message": format!("{err:#}")}})
                    }
                };
                let _ = writeln!(streams.stdout, "{json}");
            }
            code
        }
    }
}

/// Runs the CLI on this process's arguments and standard streams: all a `main` needs.
pub fn run_process() -> u8 {
    // Not locked for the whole run: `mcp` hands stdin and stdout to the protocol's own
    // reader and writer threads. The CLI buffers stdout itself.
    let (mut stdin, mut stdout, mut stderr) = (io::stdin(), io::stdout(), io::stderr());
    let mut streams = Streams {
        stdin: &mut stdin,
        stdout: &mut stdout,
        stderr: &mut stderr,
    };
    run(std::env::args_os(), &mut streams)
}

/// A reader that went away (`tsgraph export | head`) is not an error.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        let io = cause.downcast_ref::<io::Error>().or_else(|| {
            cause
                .downcast_ref::<tsgraph::query::SinkError>()
                .and_then(tsgraph::query::SinkError::io)
        });
        // (`tsgraph::Error::Query` is transparent: the chain holds the `SinkError` itself.)
        io.is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_pipe_under_a_query_error_is_told_apart() {
        let closed = tsgraph::query::SinkError::from(io::Error::from(io::ErrorKind::BrokenPipe));
        let err = tsgraph::Error::from(tsgraph::query::QueryError::Output(closed));
        assert!(is_broken_pipe(&anyhow::Error::from(err).context("callers")));
        let other = tsgraph::query::SinkError::message("a table row with 3 cells, 4 expected");
        let err = tsgraph::Error::from(tsgraph::query::QueryError::Output(other));
        assert!(!is_broken_pipe(&anyhow::Error::from(err)));
    }
}
