//! The `tsgraph` command: index a TypeScript project and ask its code graph questions.

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
