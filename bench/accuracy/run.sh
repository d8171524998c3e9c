#!/usr/bin/env bash
# The accuracy benchmark: tsgraph's edges against the TypeScript checker.
#
# Fetches pinned npm packages that ship their TypeScript sources, and reads pinned GitHub
# snapshots of React applications, into bench/accuracy/corpus/ (git-ignored), runs the call-graph oracle of ../shared/oracle on each (the TypeScript
# checker), indexes the package with tsgraph, and scores tsgraph's `export` with the oracle's
# comparer. Prints one line per package (precision, recall, edges) and, with --details, the
# comparer's full report of missed and wrong edges by reason. Then scores the other kinds
# (IMPORTS, EXTENDS, IMPLEMENTS of classes and of members, USES_TYPE) with the edge oracle of
# ../shared/oracle-edges, one line per package with precision/recall per kind (its reports in
# the package's .tsgraph-bench/edges/); --calls-only skips that part.
#
# rxjs, zod and effect are the project's acceptance corpora: they are deliberately not here.
#
# Usage: bench/accuracy/run.sh [--details] [--calls-only] [PACKAGE | OWNER/NAME ...]
#        (needs node, npm, git, a release build)
# Env:   ORACLE_DIR (default ../shared/oracle), EDGES_ORACLE_DIR (default ../shared/oracle-edges),
#        TSGRAPH (default target/release/tsgraph), MIRRORS (where the GitHub snapshots are,
#        each as OWNER+NAME/repo, a git directory; default /work/.mirror)
set -euo pipefail
# The folder helpers run in command substitutions: a failure there stops them too.
shopt -s inherit_errexit

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
corpus="$here/corpus"
oracle_src="${ORACLE_DIR:-$repo/../shared/oracle}"
edges_src="${EDGES_ORACLE_DIR:-$repo/../shared/oracle-edges}"
tsgraph="${TSGRAPH:-$repo/target/release/tsgraph}"
mirrors="${MIRRORS:-/work/.mirror}"

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

# React/TSX applications, as public GitHub snapshots: owner/name  commit  tsconfig (the
# repository's own: its path aliases and workspaces are part of what is measured). The
# snapshots are read from $MIRRORS, where the fetch tool puts them; without node_modules both
# the checker and tsgraph see external packages as unresolved.
SNAPSHOTS=(
  # yarn workspaces (excalidraw-app, packages/*), tsconfig paths to each package's sources.
  "excalidraw/excalidraw 4872083c044491b6d5c96ae134a75464f96d6831 tsconfig.json"
  # A Next.js application: the `@/*` path alias, React components and hooks.
  "umami-software/umami c0ea3aefbee7a3429ee2f824b06dc4a9dbe0b7e1 tsconfig.json"
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
accessor_notes=()
below=()
edge_kinds=(IMPORTS EXTENDS IMPLEMENTS IMPLEMENTS_MEMBER USES_TYPE)

# Whether the command line names this entry (every entry when it names none).
is_wanted() {
  [[ ${#wanted[@]} -eq 0 ]] || [[ " ${wanted[*]} " =~ " $1 " ]]
}

# An npm package's folder in the corpus, unpacked once, with a tsconfig written for the
# benchmark: the package's own sources only, checked strictly.
package_folder() {
  local spec="$1" src="$2" options="$3"
  local folder
  folder="$corpus/$(printf '%s' "$spec" | sed -e 's|^@||' -e 's|/|-|g')"
  if [[ ! -d "$folder" ]]; then
    local tmp tarball
    tmp="$(mktemp -d "$corpus/.fetch.XXXXXX")"
    tarball="$(cd "$tmp" && npm pack --silent "$spec" 2>/dev/null | tail -n 1)" || die "npm pack $spec failed"
    mkdir "$tmp/unpacked"
    tar -xzf "$tmp/$tarball" -C "$tmp/unpacked" --strip-components=1 || die "cannot unpack $tarball"
    mv "$tmp/unpacked" "$folder"
    rm -rf "$tmp"
  fi
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
  printf '%s' "$folder"
}

# A GitHub snapshot's folder in the corpus: its TypeScript sources and JSON configuration at
# the pinned commit, taken once from the snapshot the fetch tool brought to $MIRRORS (large
# binary files may be absent from it, so only those paths are read). Empty when the snapshot
# or its pinned commit is not there.
snapshot_folder() {
  local repo="$1" commit="$2"
  local folder="$corpus/github-${repo//\//-}@${commit:0:12}"
  local git_dir="$mirrors/${repo//\//+}/repo"
  if [[ ! -d "$folder" ]]; then
    git --git-dir="$git_dir" cat-file -e "$commit^{commit}" 2>/dev/null || return 0
    local tmp wanted got
    tmp="$(mktemp -d "$corpus/.fetch.XXXXXX")"
    wanted=(-- '*.ts' '*.tsx' '*.json')
    # git archive exits with an error when a blob elsewhere in the snapshot is absent, even
    # after writing every path asked for: the archive is checked against the tree instead.
    git --git-dir="$git_dir" archive --output="$tmp.tar" "$commit" "${wanted[@]}" 2>/dev/null || true
    got="$(tar -tf "$tmp.tar" 2>/dev/null | grep -v '/$' | sort || true)"
    if [[ "$got" != "$(git --git-dir="$git_dir" ls-tree -r --name-only "$commit" | grep -E '\.(ts|tsx|json)$' | sort)" ]]; then
      rm -rf "$tmp" "$tmp.tar"
      die "the snapshot of $repo at $commit in $git_dir lacks some of its sources"
    fi
    tar -xf "$tmp.tar" -C "$tmp"
    rm -f "$tmp.tar"
    mv "$tmp" "$folder"
  fi
  printf '%s' "$folder"
}

# Scores one project: the CALLS table's row (and the comparer's report with --details), then
# the other kinds' row. $4 is the edge oracle's layout option (--npm-layout, or none).
score() {
  local label="$1" folder="$2" tsconfig="$3" layout="${4:-}"
  local out="$folder/.tsgraph-bench"
  mkdir -p "$out"
  if [[ ! -s "$out/oracle.jsonl" ]]; then
    node "$oracle/oracle.mjs" "$folder" "$folder/$tsconfig" --var-wrappers \
      --nodes "$out/oracle.nodes.jsonl" >"$out/oracle.jsonl" 2>"$out/oracle.log" \
      || die "oracle failed on $label (see $out/oracle.log)"
  fi
  "$tsgraph" --project "$folder" index --rebuild --db "$out/graph.redb" >"$out/index.log" 2>&1 \
    || die "tsgraph index failed on $label (see $out/index.log)"
  "$tsgraph" --project "$folder" export --db "$out/graph.redb" >"$out/export.jsonl"
  # The checker proves static calls only: may-calls — dispatch to implementations of an
  # interface or abstract member, and the entries of a table called by a computed key
  # (`element`) — are facts it does not report, so they are set aside and counted.
  local may_call='"resolution":"(dispatch|element)"'
  grep -Ev "$may_call" "$out/export.jsonl" >"$out/candidate.jsonl" || true
  local may precision recall oracle_edges candidate_edges last
  may=$(grep -Ec "$may_call" "$out/export.jsonl" || true)
  node "$oracle/compare.mjs" "$out/oracle.jsonl" "$out/candidate.jsonl" \
    --ignore-file-callers --ctor-as-class --initializer-neutral \
    --nodes "$out/oracle.nodes.jsonl" --top 40 >"$out/compare.txt"
  last="$(tail -n 1 "$out/compare.txt")"
  precision="$(sed -n 's/.*precision=\([0-9.]*\).*/\1/p' <<<"$last")"
  recall="$(sed -n 's/.*recall=\([0-9.]*\).*/\1/p' <<<"$last")"
  oracle_edges="$(grep -c . "$out/oracle.jsonl" || true)"
  candidate_edges="$(grep -c '"kind":"CALLS"' "$out/candidate.jsonl" || true)"
  printf '%-34s %9s %9s %9s %9s %9s\n' "$label" "$precision" "$recall" "$oracle_edges" "$candidate_edges" "$may"
  check_thresholds "$label" CALLS "$(grep -m1 '^TP=' "$out/compare.txt")" 0.99 0.95
  if [[ $details -eq 1 ]]; then
    sed 's/^/    /' "$out/compare.txt"
  fi
  [[ $edges -eq 1 ]] || return 0
  # The edge oracle indexes and reads its own copy of the sources.
  # shellcheck disable=SC2086 # $layout is one option or none
  TSGRAPH="$tsgraph" OUT="$out/edges" bash "$edges_src/run.sh" "$(basename "$folder")" "$folder" \
    "$tsconfig" $layout >"$out/edges.txt" 2>"$out/edges.log" \
    || die "the edge oracle failed on $label (see $out/edges.log)"
  local row kind line report p r n c
  row="$(printf '%-34s' "$label")"
  for kind in "${edge_kinds[@]}"; do
    line="$(grep "^$kind precision=" "$out/edges.txt" || true)"
    report="$out/edges/$kind.txt"
    if [[ $kind == IMPLEMENTS_MEMBER ]]; then
      with_accessor_signatures "$folder" "$tsconfig" "$out"
      line="$(tail -n 1 "$accessor_report")"
      report="$accessor_report"
    fi
    p="$(sed -n 's/.*precision=\([0-9.]*\).*/\1/p' <<<"$line")"
    r="$(sed -n 's/.* recall=\([0-9.]*\).*/\1/p' <<<"$line")"
    n="$(sed -n 's/.*oracle=\([0-9]*\).*/\1/p' <<<"$line")"
    c="$(sed -n 's/.*candidate=\([0-9]*\).*/\1/p' <<<"$line")"
    check_thresholds "$label" "$kind" "$(grep -m1 '^TP=' "$report" || true)" 0.98 0.95
    # A kind neither side has scores nothing.
    if [[ "$n" == 0 && "$c" == 0 ]]; then row+="$(printf ' %13s' '-')"; else row+="$(printf ' %13s' "$p/$r")"; fi
  done
  edge_rows+=("$row")
}

# Notes, for the end of the report, where a kind of a project is below the thresholds the
# accuracy issue sets (precision $4, recall $5), from exact counts ("TP=… FP=… FN=…" in $3):
# the tables round to three places.
check_thresholds() {
  local label="$1" kind="$2" counts="$3" min_precision="$4" min_recall="$5"
  [[ -n "$counts" ]] || return 0
  local verdict
  verdict="$(awk -v c="$counts" -v mp="$min_precision" -v mr="$min_recall" 'BEGIN {
    split(c, f, /[ =]/); tp = f[2]; fp = f[4]; fn = f[6]
    if (tp + fp + fn == 0) exit
    p = tp + fp ? tp / (tp + fp) : 1; r = tp + fn ? tp / (tp + fn) : 1
    if (p < mp || r < mr) printf "precision %.4f (TP %d, FP %d), recall %.4f (FN %d)", p, tp, fp, r, fn }')"
  [[ -z "$verdict" ]] || below+=("$label $kind: $verdict")
}

# Member IMPLEMENTS scored with the edges to interface accessor signatures, which the edge
# oracle does not model (it knows method and property signatures only, so an edge to `get
# size()` of an interface is "target unknown to the oracle" there): accessor-signatures.mjs
# asks the same checker for exactly those edges, they join a copy of the oracle's file, and the
# oracle's own comparer scores the kind again into $accessor_report. The count goes to the
# table's footnote.
with_accessor_signatures() {
  local folder="$1" tsconfig="$2" out="$3"
  # Kept beside the oracle's answers, as they are: the sources are pinned (an empty file is
  # an answer too: no such edges).
  local checked="$out/accessor-signatures.jsonl" joined="$out/edges/oracle-with-accessors.jsonl"
  accessor_report="$out/edges/IMPLEMENTS_MEMBER-with-accessors.txt"
  if [[ ! -e "$checked" ]]; then
    TYPESCRIPT="$oracle/node_modules/typescript" node "$here/accessor-signatures.mjs" "$folder" "$tsconfig" \
      >"$checked.part" 2>"$out/accessor-signatures.log" \
      || die "accessor-signatures.mjs failed on $folder (see $out/accessor-signatures.log)"
    mv "$checked.part" "$checked"
  fi
  cat "$out/edges/oracle.jsonl" "$checked" >"$joined"
  node "$edges_src/edges-compare.mjs" "$joined" "$out/edges/export.jsonl" --kind IMPLEMENTS_MEMBER \
    >"$accessor_report" || die "edges-compare failed on $joined"
  local added
  added=$(grep -c . "$checked" || true)
  if [[ $added -gt 0 ]]; then
    accessor_notes+=("$(basename "$folder"): $added edges to interface accessor signatures from the checker")
  fi
}

printf 'CALLS\n%-34s %9s %9s %9s %9s %9s\n' project precision recall oracle candidate may-call
for entry in "${PACKAGES[@]}"; do
  read -r spec src options <<<"$entry"
  is_wanted "${spec%@*}" || continue
  folder="$(package_folder "$spec" "$src" "$options")"
  score "$spec" "$folder" tsconfig.tsgraph-bench.json --npm-layout
done
for entry in "${SNAPSHOTS[@]}"; do
  read -r repo commit tsconfig <<<"$entry"
  is_wanted "$repo" || continue
  folder="$(snapshot_folder "$repo" "$commit")"
  if [[ -z "$folder" ]]; then
    printf '%-34s skipped: commit %s is not in %s (fetch github:%s; a newer snapshot needs the pin moved)\n' \
      "$repo" "${commit:0:12}" "$mirrors" "$repo"
    continue
  fi
  score "$repo" "$folder" "$tsconfig"
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
  for note in "${accessor_notes[@]}"; do printf 'IMPL_MEMBER with %s (the edge oracle scores method and property signatures only)\n' "$note"; done
fi
printf '\nBelow the thresholds (CALLS precision 0.99, other kinds 0.98; recall 0.95; exact counts): %s\n' \
  "$([[ ${#below[@]} -eq 0 ]] && echo none)"
for line in "${below[@]}"; do printf '  %s\n' "$line"; done
