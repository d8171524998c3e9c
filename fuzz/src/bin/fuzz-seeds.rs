//! Writes the seed corpus of a fuzz target into a folder: `fuzz-seeds TARGET DIR`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [target, dir] = args.as_slice() else {
        eprintln!(
            "usage: fuzz-seeds TARGET DIR (targets: {})",
            tsgraph_fuzz::TARGETS.join(", ")
        );
        return ExitCode::from(64);
    };
    if !tsgraph_fuzz::TARGETS.contains(&target.as_str()) {
        eprintln!(
            "fuzz-seeds: unknown target `{target}` (targets: {})",
            tsgraph_fuzz::TARGETS.join(", ")
        );
        return ExitCode::from(64);
    }
    let dir = std::path::Path::new(dir);
    if let Err(err) = std::fs::create_dir_all(dir) {
        eprintln!("fuzz-seeds: {}: {err}", dir.display());
        return ExitCode::FAILURE;
    }
    let seeds = tsgraph_fuzz::seeds(target);
    for (name, bytes) in &seeds {
        if let Err(err) = std::fs::write(dir.join(name), bytes) {
            eprintln!("fuzz-seeds: {}: {err}", dir.join(name).display());
            return ExitCode::FAILURE;
        }
    }
    println!("{} seeds for {target} in {}", seeds.len(), dir.display());
    ExitCode::SUCCESS
}
