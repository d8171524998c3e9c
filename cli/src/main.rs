//! The `tsgraph` command: index a TypeScript project and ask its code graph questions.

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(tsgraph_cli::run_process())
}
