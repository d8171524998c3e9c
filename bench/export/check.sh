#!/usr/bin/env bash
# Proves tsgraph's exports parse with standard readers: indexes a project, exports it as JSON
# lines, GraphML, DOT and Neo4j CSV, and loads them with networkx, pydot and Python's csv
# module (check.py), comparing node and edge sets with the JSON lines export.
#
# Usage: bench/export/check.sh [PROJECT]   (default: the end-to-end fixture tests/fixtures/basic)
# Env:   TSGRAPH (default target/release/tsgraph). networkx and pydot are installed from PyPI
#        into bench/export/.venv when python3 cannot import them.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
tsgraph="${TSGRAPH:-$repo/target/release/tsgraph}"
project="${1:-$repo/tests/fixtures/basic}"
[[ -x "$tsgraph" ]] || { echo "export-check: $tsgraph not found: cargo build --release first" >&2; exit 1; }

python=python3
if ! python3 -c 'import networkx, pydot' 2>/dev/null; then
  if [[ ! -x "$here/.venv/bin/python" ]]; then
    python3 -m venv "$here/.venv"
    "$here/.venv/bin/pip" install --quiet networkx pydot
  fi
  python="$here/.venv/bin/python"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
db="$work/graph.redb"
"$tsgraph" --project "$project" index --db "$db" >/dev/null
"$tsgraph" --project "$project" export --db "$db" --out "$work/graph.jsonl"
"$tsgraph" --project "$project" export --db "$db" --format graphml --out "$work/graph.graphml"
"$tsgraph" --project "$project" export --db "$db" --format dot --out "$work/graph.dot"
"$tsgraph" --project "$project" export --db "$db" --format neo4j --out "$work/neo4j" 2>/dev/null
"$python" "$here/check.py" "$work"
