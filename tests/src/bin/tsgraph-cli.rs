//! The `tsgraph` command, built as a binary of this crate so that end-to-end tests can run it
//! as a real process (Cargo tells a test the path of its own package's binaries only). It is
//! `tsgraph/src/main.rs` line for line: the same CLI entry point with the process's streams.

use std::io;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Not locked for the whole run: `mcp` hands stdin and stdout to the protocol's own
    // reader and writer threads. The CLI buffers stdout itself.
    let (mut stdin, mut stdout, mut stderr) = (io::stdin(), io::stdout(), io::stderr());
    let mut streams = tsgraph::cli::Streams {
        stdin: &mut stdin,
        stdout: &mut stdout,
        stderr: &mut stderr,
    };
    ExitCode::from(tsgraph::cli::run(std::env::args_os(), &mut streams))
}
