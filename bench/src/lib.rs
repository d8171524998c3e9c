//! Shared code of the tsgraph benchmark programs (`toon-bench`, `index-bench`,
//! `gen-monorepo`, `token-bench`): the design documents' Format A, a counting allocator,
//! CPU-time sampling, the seeded generator, the synthetic TOON data set, the synthetic
//! monorepo generator, machine facts and a plain-text table printer.
//!
//! Nothing here is a test and nothing runs in CI; the binaries under `src/bin/` are run by
//! hand (see `bench/README.md`).

pub mod alloc;
pub mod format_a;
pub mod machine;
pub mod monorepo;
pub mod phase_cpu;
pub mod rng;
pub mod row_allocs;
pub mod table;
pub mod timing;
pub mod toon_data;
