//! The `tsgraph` command: index a TypeScript project and ask its code graph questions.

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
