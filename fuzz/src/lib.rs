//! Fuzz targets of tsgraph. Each target is a function of arbitrary bytes that must return
//! normally whatever the bytes are; a panic is a finding.
//!
//! - [`indexer`]: TypeScript sources (one file, or several separated by `//- path` lines) are
//!   decoded, extracted and linked; the batch must be one the store accepts.
//! - [`toon`]: the TOON decoder, in strict and lenient mode; a document it accepts must come
//!   back unchanged through the encoder and the decoder.
//! - [`store`]: a store file with bytes changed at fuzzed places is opened and read in full; it
//!   must give an error or exactly the intact graph.
//!
//! The same functions run three ways: under libFuzzer (`fuzz/run.sh TARGET [EXECUTIONS]`, the
//! `fuzz-*` binaries of the `libfuzzer` feature), in the replay test that CI runs (every saved
//! regression input plus a few thousand seeded mutations of the seed corpus), and by hand.

mod indexer;
mod seeds;
mod store;
mod toon;

use std::path::PathBuf;

pub use indexer::{indexer, split_sources};
pub use seeds::seeds;
pub use store::{read_all, store};
pub use toon::toon;

/// The targets, by the names `fuzz/run.sh` and the regression folders use.
pub const TARGETS: [&str; 3] = ["indexer", "toon", "store"];

/// Runs the target called `name` on `data`; `false` for an unknown name.
pub fn run_target(name: &str, data: &[u8]) -> bool {
    match name {
        "indexer" => indexer(data),
        "toon" => toon(data),
        "store" => store(data),
        _ => return false,
    }
    true
}

/// `fuzz/regressions/<target>`: inputs that once failed, replayed by every test run.
pub fn regressions_dir(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("regressions")
        .join(target)
}
