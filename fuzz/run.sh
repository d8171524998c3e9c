#!/usr/bin/env bash
# Fuzzes one target with libFuzzer on the stable toolchain.
#
#   fuzz/run.sh TARGET [EXECUTIONS]     TARGET: indexer | toon | store; default 1000000
#
# The `fuzz-TARGET` binary is built optimised with LLVM's SanitizerCoverage passes
# (stable rustc flags; cargo-fuzz's `-Zsanitizer` is the part that needs nightly, and it is not
# used) and linked with libFuzzer from the libfuzzer-sys crate (needs a C++ compiler). It
# runs in one process on one core, starting from the seed corpus (the repository's fixtures,
# written by the `fuzz-seeds` binary) and the corpus of earlier runs (fuzz/corpus/TARGET, not
# committed). A crashing or hanging input (over 10 s) is saved as
# fuzz/regressions/TARGET/crash-… or timeout-…, which the replay test then runs on every
# `cargo test`. FUZZ_CARGO overrides the cargo command (e.g. "flock /tmp/lock cargo"), and
# extra libFuzzer flags can follow the execution count.
set -euo pipefail

target=${1:?usage: fuzz/run.sh TARGET [EXECUTIONS] [LIBFUZZER FLAGS...]}
runs=${2:-1000000}
shift $(( $# >= 2 ? 2 : 1 ))
# redb checks a page against its checksum after reading it, and a damaged page number can claim
# a page of up to a GiB or two: the store target gets room for that transient allocation.
rss_limit=2048
case "$target" in
  indexer) max_len=16384 ;;
  toon) max_len=4096 ;;
  store) max_len=1024; rss_limit=6144 ;;
  *) echo "fuzz/run.sh: unknown target '$target' (indexer, toon, store)" >&2; exit 64 ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cargo=${FUZZ_CARGO:-cargo}
host=$(rustc -vV | sed -n 's/^host: //p')
target_dir="$root/target/fuzz"

# The seed corpus, written by an ordinary (uninstrumented) build.
seeds="$target_dir/seeds/$target"
rm -rf "$seeds"
(cd "$root" && $cargo run --quiet --locked -p tsgraph-fuzz --bin fuzz-seeds -- "$target" "$seeds")

# The instrumented build, in the `fuzz` profile (release with debug assertions and overflow
# checks; see Cargo.toml). An explicit --target keeps the flags off build scripts and
# procedural macros.
(cd "$root" && RUSTFLAGS="-Cpasses=sancov-module \
  -Cllvm-args=-sanitizer-coverage-level=4 \
  -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
  -Cllvm-args=-sanitizer-coverage-pc-table \
  -Cllvm-args=-sanitizer-coverage-trace-compares" \
  $cargo build --quiet --locked --profile fuzz -p tsgraph-fuzz --features libfuzzer \
    --bin "fuzz-$target" --target "$host" --target-dir "$target_dir")

corpus="$here/corpus/$target"
regressions="$here/regressions/$target"
mkdir -p "$corpus" "$regressions"
exec "$target_dir/$host/fuzz/fuzz-$target" \
  -runs="$runs" -max_len="$max_len" -timeout=10 -rss_limit_mb="$rss_limit" \
  -artifact_prefix="$regressions/" -print_final_stats=1 "$@" \
  "$corpus" "$seeds"
