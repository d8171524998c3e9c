#!/usr/bin/env bash
# Edit → answer in fresh processes (issue 23's freshness targets): on a copy of a project
# already indexed, ROUNDS times append an exported function to FILE, then time `tsgraph
# index` (which re-links what the edit reaches) and `tsgraph callers` of the new function
# (which fails unless the edit reached the graph), each a new process; print each round,
# the medians, and a full rebuild's time for scale.
#
#   bench/freshness.sh BIN PROJECT FILE [ROUNDS]
#   bench/freshness.sh target/release/tsgraph bench/corpus/effect@4.1.0 src/Hash.ts
#   bench/freshness.sh target/release/tsgraph /work/gen1m-t packages/core/src/index.ts
#
# The project is copied to a temporary folder (its store too, when it has one) with its
# files' times; the copy is indexed first if it has none. A sync skips the walk while the
# folders and ignore files are as the last whole walk left them, and lists a walk only of
# folders unchanged for five seconds: the copy's are all new, so the script waits that long
# and lists them before the rounds, as a project whose layout settled long ago would be.
set -euo pipefail
bin="$(realpath "$1")"
source="$2"
file="$3"
rounds="${4:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -a "$source" "$work/project"
cd "$work/project"
"$bin" index >/dev/null 2>&1
sleep 6
"$bin" index >/dev/null 2>&1
# A build from before `index --explain` still says how many files it re-linked.
explain=""
"$bin" index --help | grep -q -- --explain && explain="--explain"

ms() { echo $(( ($2 - $1) / 1000000 )); }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

: >"$work/index.txt"
: >"$work/answer.txt"
for round in $(seq 1 "$rounds"); do
  printf '\nexport function appendedByBench%s(): number { return %s; }\n' "$round" "$round" >>"$file"
  start=$(date +%s%N)
  "$bin" index $explain >"$work/out.txt" 2>&1
  indexed=$(date +%s%N)
  if ! "$bin" callers "appendedByBench$round" --file "$file" >/dev/null 2>"$work/err.txt"; then
    echo "round $round: the new function is not in the graph: $(cat "$work/err.txt")" >&2
    exit 1
  fi
  answered=$(date +%s%N)
  relinked=$(grep -oE '[0-9]+ files re-linked' "$work/out.txt" | grep -oE '^[0-9]+' || echo 0)
  echo "round $round: index $(ms "$start" "$indexed") ms, callers $(ms "$indexed" "$answered") ms, edit → answer $(ms "$start" "$answered") ms; $relinked files re-linked"
  ms "$start" "$indexed" >>"$work/index.txt"
  ms "$start" "$answered" >>"$work/answer.txt"
done
echo "median: index $(median <"$work/index.txt") ms, edit → answer $(median <"$work/answer.txt") ms"
grep '^re-linked ' "$work/out.txt" | head -10
start=$(date +%s%N)
"$bin" index --rebuild >/dev/null 2>&1
echo "full rebuild: $(ms "$start" "$(date +%s%N)") ms"
