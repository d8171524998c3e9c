#!/usr/bin/env bash
# The Node package's tests: builds the addon and the executable, then runs Node's test runner
# on test/ — the API against the built addon, and the npm packages packed, installed from
# their tarballs into a clean folder and used there. Needs Node 18+ and npm; the type check
# installs TypeScript from the npm registry. PROFILE=release tests a release build.
set -euo pipefail
cd "$(dirname "$0")"
profile="${PROFILE:-debug}"
release=""
[ "$profile" = release ] && release="--release"
# shellcheck disable=SC2086 # empty, or one flag
cargo build --locked $release -p tsgraph-cli -p tsgraph-node
target="$(cd ../.. && pwd)/target/$profile"
export TSGRAPH_NATIVE="$target/libtsgraph_node.so"
export TSGRAPH_PROFILE="$profile"
node --test test/*.test.mjs
