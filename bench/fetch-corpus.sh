#!/usr/bin/env bash
# Fetches the pinned TypeScript/JavaScript corpus of the index benchmark into bench/corpus/
# (git-ignored): one `npm pack` tarball per package, unpacked into its own folder.
#
# Idempotent: a package whose folder already exists is skipped. A package is unpacked into a
# temporary folder and renamed into place only once complete, so an interrupted run never
# leaves a half-unpacked folder that a later run would take for done.
#
# Usage: bench/fetch-corpus.sh            (from anywhere)
set -euo pipefail

# Pinned versions. Changing one changes every figure of the index benchmark: say so when
# comparing results across runs.
PACKAGES=(
  "effect@4.1.0"
  "@effect/platform@0.97.2"
  "@effect/platform-node@4.0.6"
  "@effect/sql@0.52.1"
  "@effect/cli@0.77.2"
  "@effect/ai@0.37.0"
  "zod@4.6.7"
  "rxjs@7.8.2"
  "@reduxjs/toolkit@2.14.0"
  "mobx@7.1.3"
  "immer@11.2.10"
  "@tanstack/query-core@5.108.0"
  "@tanstack/router-core@1.171.39"
  "@trpc/server@11.25.2"
  "@react-spectrum/s2@1.7.1"
)

die() {
  echo "fetch-corpus: error: $*" >&2
  exit 1
}

command -v npm >/dev/null 2>&1 || die "npm is not installed (needed for 'npm pack'); install Node.js/npm first"
command -v tar >/dev/null 2>&1 || die "tar is not installed"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
corpus="$here/corpus"
mkdir -p "$corpus"

fetched=0
skipped=0
for spec in "${PACKAGES[@]}"; do
  name="${spec%@*}"
  version="${spec##*@}"
  # "@scope/pkg@1.2.3" -> "scope-pkg@1.2.3": one flat folder per package.
  folder="$corpus/$(printf '%s' "$name" | sed -e 's|^@||' -e 's|/|-|g')@$version"
  if [[ -d "$folder" ]]; then
    skipped=$((skipped + 1))
    continue
  fi

  # Depending on the npm version, a missing version is an E404 ("No match found for version")
  # or an empty answer with exit 0, so check both the exit code and the answer.
  if ! found="$(npm view "$spec" version 2>"$corpus/.npm-view.err")"; then
    err="$(cat "$corpus/.npm-view.err")"
    rm -f "$corpus/.npm-view.err"
    if [[ "$err" == *"No match found for version"* ]]; then
      die "$name@$version does not exist on the npm registry; see: npm view $name versions"
    fi
    echo "$err" >&2
    die "cannot look up $spec on the npm registry (network? package name?)"
  fi
  rm -f "$corpus/.npm-view.err"
  if [[ "$found" != "$version" ]]; then
    die "$name@$version does not exist on the npm registry; see: npm view $name versions"
  fi

  tmp="$(mktemp -d "$corpus/.fetch.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  echo "fetching $spec"
  tarball="$(cd "$tmp" && npm pack --silent "$spec" 2>/dev/null | tail -n 1)" \
    || die "npm pack $spec failed"
  [[ -f "$tmp/$tarball" ]] || die "npm pack $spec did not produce a tarball"
  mkdir "$tmp/unpacked"
  # npm tarballs hold everything under a top-level `package/` folder.
  tar -xzf "$tmp/$tarball" -C "$tmp/unpacked" --strip-components=1 \
    || die "cannot unpack $tarball"
  mv "$tmp/unpacked" "$folder"
  rm -rf "$tmp"
  trap - EXIT
  fetched=$((fetched + 1))
done

echo "corpus: $corpus ($fetched fetched, $skipped already there)"
