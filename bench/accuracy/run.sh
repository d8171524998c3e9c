#!/usr/bin/env bash
# The accuracy benchmark: tsgraph's edges against the TypeScript checker.
#
# Fetches pinned npm packages that ship their TypeScript sources into bench/accuracy/corpus/
# (git-ignored), runs the call-graph oracle of ../shared/oracle on each (the TypeScript
# checker), indexes the package with tsgraph, and scores tsgraph's `export` with the oracle's
# comparer. Prints one line per package (precision, recall, edges) and, with --details, the
# comparer's full report of missed and wrong edges by reason. Then scores the other kinds
# (IMPORTS, EXTENDS, IMPLEMENTS of classes and of members, USES_TYPE) with the edge oracle of
# ../shared/oracle-edges, one line per package with precision/recall per kind (its reports in
# the package's .tsgraph-bench/edges/); --calls-only skips that part.
#
# rxjs, zod and effect are the project's acceptance corpora: they are deliberately not here.
#
# Usage: bench/accuracy/run.sh [--details] [--calls-only] [PACKAGE ...]
#        (needs node, npm, a release build)
# Env:   ORACLE_DIR (default ../shared/oracle), EDGES_ORACLE_DIR (default ../shared/oracle-edges),
#        TSGRAPH (default target/release/tsgraph)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
corpus="$here/corpus"
oracle_src="${ORACLE_DIR:-$repo/../shared/oracle}"
edges_src="${EDGES_ORACLE_DIR:-$repo/../shared/oracle-edges}"
tsgraph="${TSGRAPH:-$repo/target/release/tsgraph}"

# name@version  source-folder-inside-the-package  extra tsconfig "compilerOptions" (JSON)
PACKAGES=(
  "@tanstack/query-core@5.108.0 src {}"
  "mobx@7.1.3 src {}"
  "immer@11.2.10 src {}"
  "@trpc/server@11.25.2 src {}"
  "@effect/platform@0.97.2 src {}"
  "@reduxjs/toolkit@2.14.0 src {\"jsx\":\"react-jsx\"}"
  "@tanstack/router-core@1.171.39 src {}"
  "@tanstack/react-router@1.170.46 src {\"jsx\":\"react-jsx\"}"
  # Generic-heavy: deep key paths, mapped and conditional types, builders typed by inference.
  "@tanstack/form-core@1.33.5 src {}"
  "@tanstack/db@0.15.2 src {}"
)

details=0
edges=1
wanted=()
for arg in "$@"; do
  case "$arg" in
    --details) details=1 ;;
    --calls-only) edges=0 ;;
    *) wanted+=("$arg") ;;
  esac
done

die() { echo "accuracy: error: $*" >&2; exit 1; }
command -v node >/dev/null || die "node is not installed"
command -v npm >/dev/null || die "npm is not installed"
[[ -x "$tsgraph" ]] || die "$tsgraph not found: cargo build --release first"
[[ -f "$oracle_src/oracle.mjs" ]] || die "no oracle at $oracle_src (set ORACLE_DIR)"
[[ $edges -eq 0 || -f "$edges_src/run.sh" ]] || die "no edge oracle at $edges_src (set EDGES_ORACLE_DIR, or --calls-only)"

# The oracle runs with its own pinned TypeScript, installed once next to a copy of it.
oracle="$corpus/.oracle"
if [[ ! -d "$oracle/node_modules/typescript" ]]; then
  mkdir -p "$oracle"
  cp "$oracle_src/oracle.mjs" "$oracle_src/compare.mjs" "$oracle_src/package.json" "$oracle/"
  (cd "$oracle" && npm install --silent >/dev/null) || die "npm install of the oracle's typescript failed"
fi

# The other kinds' rows, printed after the CALLS table.
edge_rows=()
edge_kinds=(IMPORTS EXTENDS IMPLEMENTS IMPLEMENTS_MEMBER USES_TYPE)
printf 'CALLS\n%-34s %9s %9s %9s %9s %9s\n' package precision recall oracle candidate dispatch
for entry in "${PACKAGES[@]}"; do
  read -r spec src options <<<"$entry"
  name="${spec%@*}"
  if [[ ${#wanted[@]} -gt 0 ]] && [[ ! " ${wanted[*]} " =~ " $name " ]]; then
    continue
  fi
  folder="$corpus/$(printf '%s' "$spec" | sed -e 's|^@||' -e 's|/|-|g')"
  if [[ ! -d "$folder" ]]; then
    tmp="$(mktemp -d "$corpus/.fetch.XXXXXX")"
    tarball="$(cd "$tmp" && npm pack --silent "$spec" 2>/dev/null | tail -n 1)" || die "npm pack $spec failed"
    mkdir "$tmp/unpacked"
    tar -xzf "$tmp/$tarball" -C "$tmp/unpacked" --strip-components=1 || die "cannot unpack $tarball"
    mv "$tmp/unpacked" "$folder"
    rm -rf "$tmp"
  fi
  # The package's own sources only, checked strictly: a tsconfig written for the benchmark.
  cat >"$folder/tsconfig.tsgraph-bench.json" <<JSON
{
  "compilerOptions": {
    "target": "esnext", "module": "esnext", "moduleResolution": "bundler",
    "strict": true, "skipLibCheck": true, "noEmit": true, "jsx": "preserve",
    "allowJs": false, "experimentalDecorators": true
  },
  "include": ["$src"]
}
JSON
  node -e 'const f=process.argv[1];const c=JSON.parse(require("fs").readFileSync(f));Object.assign(c.compilerOptions, JSON.parse(process.argv[2]));require("fs").writeFileSync(f, JSON.stringify(c,null,2))' \
    "$folder/tsconfig.tsgraph-bench.json" "$options"
  out="$folder/.tsgraph-bench"
  mkdir -p "$out"
  if [[ ! -s "$out/oracle.jsonl" ]]; then
    node "$oracle/oracle.mjs" "$folder" "$folder/tsconfig.tsgraph-bench.json" --var-wrappers \
      --nodes "$out/oracle.nodes.jsonl" >"$out/oracle.jsonl" 2>"$out/oracle.log" \
      || die "oracle failed on $spec (see $out/oracle.log)"
  fi
  "$tsgraph" --project "$folder" index --rebuild --db "$out/graph.redb" >"$out/index.log" 2>&1 \
    || die "tsgraph index failed on $spec (see $out/index.log)"
  "$tsgraph" --project "$folder" export --db "$out/graph.redb" >"$out/export.jsonl"
  # The oracle follows static dispatch only: dispatch edges (to implementations of an
  # interface or abstract member) are facts it does not report, so they are set aside.
  grep -v '"resolution":"dispatch"' "$out/export.jsonl" >"$out/candidate.jsonl" || true
  dispatch=$(grep -c '"resolution":"dispatch"' "$out/export.jsonl" || true)
  node "$oracle/compare.mjs" "$out/oracle.jsonl" "$out/candidate.jsonl" \
    --ignore-file-callers --ctor-as-class --initializer-neutral \
    --nodes "$out/oracle.nodes.jsonl" --top 40 >"$out/compare.txt"
  last="$(tail -n 1 "$out/compare.txt")"
  precision="$(sed -n 's/.*precision=\([0-9.]*\).*/\1/p' <<<"$last")"
  recall="$(sed -n 's/.*recall=\([0-9.]*\).*/\1/p' <<<"$last")"
  oracle_edges="$(grep -c . "$out/oracle.jsonl" || true)"
  candidate_edges="$(grep -c '"kind":"CALLS"' "$out/candidate.jsonl" || true)"
  printf '%-34s %9s %9s %9s %9s %9s\n' "$spec" "$precision" "$recall" "$oracle_edges" "$candidate_edges" "$dispatch"
  if [[ $details -eq 1 ]]; then
    sed 's/^/    /' "$out/compare.txt"
  fi
  if [[ $edges -eq 1 ]]; then
    # The edge oracle indexes and reads its own copy of the package's sources.
    TSGRAPH="$tsgraph" OUT="$out/edges" bash "$edges_src/run.sh" "$(basename "$folder")" "$folder" \
      tsconfig.tsgraph-bench.json --npm-layout >"$out/edges.txt" 2>"$out/edges.log" \
      || die "the edge oracle failed on $spec (see $out/edges.log)"
    row="$(printf '%-34s' "$spec")"
    for kind in "${edge_kinds[@]}"; do
      line="$(grep "^$kind precision=" "$out/edges.txt" || true)"
      p="$(sed -n 's/.*precision=\([0-9.]*\).*/\1/p' <<<"$line")"
      r="$(sed -n 's/.* recall=\([0-9.]*\).*/\1/p' <<<"$line")"
      n="$(sed -n 's/.*oracle=\([0-9]*\).*/\1/p' <<<"$line")"
      c="$(sed -n 's/.*candidate=\([0-9]*\).*/\1/p' <<<"$line")"
      # A kind neither side has scores nothing.
      if [[ "$n" == 0 && "$c" == 0 ]]; then row+="$(printf ' %13s' '-')"; else row+="$(printf ' %13s' "$p/$r")"; fi
    done
    edge_rows+=("$row")
  fi
done
if [[ $edges -eq 1 ]]; then
  printf '\nOther kinds (precision/recall; - where neither side has any)\n%-34s' package
  for kind in "${edge_kinds[@]}"; do
    header="$kind"
    [[ $kind == IMPLEMENTS_MEMBER ]] && header="IMPL_MEMBER"
    printf ' %13s' "$header"
  done
  printf '\n'
  printf '%s\n' "${edge_rows[@]}"
fi
