//! The `tsgraph` command, built as a binary of this crate so that end-to-end tests can run it
//! as a real process (Cargo tells a test the path of its own package's binaries only). It is
//! `tsgraph/src/main.rs` line for line: the same CLI entry point with the process's streams.

use std::io;
use std::process::ExitCode;

fn main() -> ExitCode {
    let (mut stdin, mut stdout, mut stderr) =
        (io::stdin().lock(), io::stdout().lock(), io::stderr().lock());
    let mut streams = tsgraph::cli::Streams {
        stdin: &mut stdin,
        stdout: &mut stdout,
        stderr: &mut stderr,
    };
    ExitCode::from(tsgraph::cli::run(std::env::args_os(), &mut streams))
}
