#!/usr/bin/env bash
# The web UI's checks: the committed build in dist/ must be what the sources build to (the
# binary embeds dist/), the sources must type-check, and the page must work in a real
# browser (test/*.test.mjs: Debian's Chromium driven by playwright-core). Needs Node 18+,
# npm and the npm registry; the browser tests need /usr/bin/chromium (or CHROMIUM) and are
# skipped with a message without it, unless TSGRAPH_REQUIRE_BROWSER=1.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
committed="$(mktemp -d)"
trap 'rm -rf "$committed"' EXIT
cp -R dist "$committed/"
npm run --silent build
if ! diff -r "$committed/dist" dist; then
  echo "cli/ui/dist does not match its sources: run \`npm run build\` in cli/ui and commit dist/" >&2
  exit 1
fi
npm run --silent typecheck
(cd ../.. && cargo build --locked -p tsgraph-cli)
export TSGRAPH_BIN="${TSGRAPH_BIN:-$(cd ../.. && pwd)/target/debug/tsgraph}"
node --test test/*.test.mjs
