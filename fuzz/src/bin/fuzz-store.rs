//! libFuzzer entry point of the `store` target (see `tsgraph_fuzz::store`); built by `fuzz/run.sh`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tsgraph_fuzz::store(data));
