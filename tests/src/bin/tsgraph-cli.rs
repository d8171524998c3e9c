//! The `tsgraph` command, built as a binary of this crate so that end-to-end tests can run it
//! as a real process (Cargo tells a test the path of its own package's binaries only): the
//! same entry point as `cli/src/main.rs`.

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(tsgraph_cli::run_process())
}
