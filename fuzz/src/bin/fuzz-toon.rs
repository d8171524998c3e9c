//! libFuzzer entry point of the `toon` target (see `tsgraph_fuzz::toon`); built by `fuzz/run.sh`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tsgraph_fuzz::toon(data));
