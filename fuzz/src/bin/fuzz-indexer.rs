//! libFuzzer entry point of the `indexer` target (see `tsgraph_fuzz::indexer`); built by `fuzz/run.sh`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tsgraph_fuzz::indexer(data));
