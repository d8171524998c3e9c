//! The `tsgraph` command: index a TypeScript project and ask its code graph questions.

fn main() -> std::process::ExitCode {
    tsgraph::tune_allocator();
    std::process::ExitCode::from(tsgraph_cli::run_process())
}
