#!/usr/bin/env bash
# Renders every Mermaid golden file (tests/golden/**/*.mmd) with mermaid-cli, to check that each
# query kind's Mermaid output is a diagram Mermaid accepts, and renders a broken diagram to check
# that a failure is seen. Local only (not in CI): it needs npm and a Chromium.
#
# Usage: tests/mermaid-render.sh        Env: CHROMIUM (default: chromium on PATH),
#                                            MMDC_DIR (default: target/mermaid-cli)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${MMDC_DIR:-$repo/target/mermaid-cli}"
chromium="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
[[ -x "$chromium" ]] || { echo "mermaid-render: no Chromium (apt-get install chromium, or set CHROMIUM)" >&2; exit 1; }
mkdir -p "$work/out"
if [[ ! -x "$work/node_modules/.bin/mmdc" ]]; then
  (cd "$work" && PUPPETEER_SKIP_DOWNLOAD=1 npm install --silent @mermaid-js/mermaid-cli@11) \
    || { echo "mermaid-render: npm install of @mermaid-js/mermaid-cli failed" >&2; exit 1; }
fi
printf '{"executablePath":"%s","args":["--no-sandbox","--disable-gpu"]}\n' "$chromium" >"$work/puppeteer.json"
render() { "$work/node_modules/.bin/mmdc" -q -p "$work/puppeteer.json" -i "$1" -o "$2" >"$2.log" 2>&1 && ! grep -qi 'syntax error' "$2"; }

printf 'flowchart LR\n  a["x"] -->|y z|\n  end --> o\n' >"$work/broken.mmd"
if render "$work/broken.mmd" "$work/out/broken.svg"; then
  echo "mermaid-render: a broken diagram rendered: the check cannot fail" >&2
  exit 1
fi

ok=0 failed=0
while IFS= read -r file; do
  name="${file#"$repo/tests/golden/"}"
  name="${name//\//__}"
  if render "$file" "$work/out/${name%.mmd}.svg"; then
    ok=$((ok + 1))
  else
    failed=$((failed + 1))
    echo "FAILED ${file#"$repo/"} (see $work/out/${name%.mmd}.svg.log)"
  fi
done < <(find "$repo/tests/golden" -name '*.mmd' | sort)
echo "mermaid-render: $ok rendered, $failed failed"
[[ $failed -eq 0 ]]
