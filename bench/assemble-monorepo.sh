#!/usr/bin/env bash
# Assembles a real TypeScript monorepo from published packages that import each other by
# name: each pinned package is unpacked into bench/monorepo/packages/<name>/ and a root
# package.json declares them as npm workspaces. Used to measure how many relative, alias and
# workspace specifiers the project model resolves (see bench/README.md).
#
# Idempotent; the folder is git-ignored. Usage: bench/assemble-monorepo.sh
set -euo pipefail

# Versions that depend on each other (the effect 3 family with its matching @effect/*
# packages), so that what one package imports by name exists in the other.
PACKAGES=(
  "effect@3.22.4"
  "@effect/platform@0.97.2"
  "@effect/experimental@0.61.1"
  "@effect/rpc@0.76.2"
  "@effect/sql@0.52.1"
  "@effect/cli@0.77.2"
  "@effect/printer@0.51.0"
  "@effect/printer-ansi@0.51.0"
  "@effect/ai@0.37.0"
  "@tanstack/query-core@5.108.0"
  "@tanstack/react-query@5.108.0"
  "@tanstack/solid-query@5.104.0"
  "@tanstack/router-core@1.171.39"
  "@tanstack/react-router@1.170.46"
  "@trpc/server@11.25.2"
  "@trpc/client@11.25.2"
  "@trpc/react-query@11.19.0"
)

die() { echo "assemble-monorepo: error: $*" >&2; exit 1; }
command -v npm >/dev/null 2>&1 || die "npm is not installed"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$here/monorepo"
mkdir -p "$root/packages"
for spec in "${PACKAGES[@]}"; do
  name="${spec%@*}"
  folder="$root/packages/$(printf '%s' "$name" | sed -e 's|^@||' -e 's|/|-|g')"
  [[ -d "$folder" ]] && continue
  tmp="$(mktemp -d "$root/.fetch.XXXXXX")"
  tarball="$(cd "$tmp" && npm pack --silent "$spec" 2>/dev/null | tail -n 1)" || die "npm pack $spec failed"
  mkdir "$tmp/unpacked"
  tar -xzf "$tmp/$tarball" -C "$tmp/unpacked" --strip-components=1 || die "cannot unpack $tarball"
  mv "$tmp/unpacked" "$folder"
  rm -rf "$tmp"
done
cat >"$root/package.json" <<JSON
{
  "name": "tsgraph-assembled-monorepo",
  "private": true,
  "workspaces": ["packages/*"]
}
JSON
echo "monorepo: $root (${#PACKAGES[@]} workspace packages)"
