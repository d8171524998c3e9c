#!/usr/bin/env bash
# Type-checks a tree written by gen-monorepo with the real TypeScript compiler: copies it to a
# scratch folder, links each workspace package into node_modules/ (what `npm install` would
# do, without touching the registry), and builds every project reference with `tsc -b`.
# Prints tsc's diagnostics; exits non-zero when there are any.
#
# Usage: bench/tsc-check-monorepo.sh DIR   (TSC=/path/to/tsc to pick the compiler; by default
# `npx --yes -p typescript@5 tsc`)
set -euo pipefail

die() { echo "tsc-check-monorepo: error: $*" >&2; exit 1; }
[[ $# -eq 1 ]] || die "usage: $0 DIR"
[[ -f "$1/tsconfig.json" && -f "$1/tsgraph-gen.json" ]] || die "$1 is not a generated tree"
command -v python3 >/dev/null 2>&1 || die "python3 is needed to read package names"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cp -r "$1/." "$scratch/"
rm -rf "$scratch/.tsgraph"
cd "$scratch"
for dir in packages/* apps/*; do
  name="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["name"])' "$dir/package.json")"
  mkdir -p "node_modules/$(dirname "$name")"
  ln -s "$scratch/$dir" "node_modules/$name"
done
read -r -a tsc <<<"${TSC:-npx --yes -p typescript@5 tsc}"
"${tsc[@]}" --version
start=$(date +%s)
"${tsc[@]}" -b tsconfig.json
echo "tsc -b: no errors ($(find . -path ./node_modules -prune -o -name '*.d.ts' -path '*/dist/*' -print | wc -l) declaration files built in $(( $(date +%s) - start )) s)"
