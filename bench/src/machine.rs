//! Facts about the machine and the process: the facade's, which `tsgraph bench` reports too.

pub use tsgraph_bench_harness::machine::*;
