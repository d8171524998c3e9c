//! Running the CLI as a real process (the `tsgraph-cli` binary of this crate).

use std::path::Path;
use std::process::{Command, Output};

/// A `tsgraph` command for the project at `project`.
pub(crate) fn tsgraph(project: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tsgraph-cli"));
    command.arg("--project").arg(project);
    command
}

/// Runs `command` and returns its output, with stdout and stderr as text.
pub(crate) fn output(command: &mut Command) -> (Output, String, String) {
    let output = command.output().expect("tsgraph runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output, stdout, stderr)
}
