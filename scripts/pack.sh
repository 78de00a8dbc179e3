#!/usr/bin/env bash
# The published packages as tarballs, all into one folder, to install together until they are on the registry (one
# tarball alone does not install: the CLI depends on the adapters and the core, at the same version). Each package's
# prepack builds it, so no `pnpm build` is needed first.
#
#   pnpm release:pack                  # or: bash scripts/pack.sh; writes dist-tarballs/ (its old tarballs removed)
#   bash scripts/pack.sh --out DIR     # another folder
#
# Then, in any folder (Node >= 20.19):
#
#   npm install -g ./dist-tarballs/*.tgz            # the CLI: approval-conformance --help
#   npm install ./dist-tarballs/approval-conformance-guard-*.tgz better-sqlite3   # the guard, into an app
#
# Sourced (by pack-smoke.sh), it only defines PACKAGES and pack_packages.

# The packages a user installs, in dependency order. The pins and the testkit are private and never published.
PACKAGES=(packages/core packages/guard packages/adapters/reference packages/adapters/langgraph packages/adapters/langgraph-server packages/adapters/ai-sdk packages/adapters/openai-agents packages/adapters/mastra packages/adapters/adk packages/adapters/cloudflare-agents packages/adapters/mcp packages/adapters/dbos packages/conformance)

# pack_packages DEST LOG: `pnpm pack` each of PACKAGES (from the repository's root) into DEST, each pack's output in
# LOG; on a failure, LOG's tail on stderr and status 1.
pack_packages() {
  local dest=$1 log=$2 dir
  for dir in "${PACKAGES[@]}"; do
    (cd "$dir" && pnpm pack --pack-destination "$dest" >"$log" 2>&1) || {
      tail -20 "$log" >&2
      printf 'pnpm pack failed in %s\n' "$dir" >&2
      return 1
    }
  done
}

# Run, not sourced: pack into the folder, and say how to install what it holds.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -uo pipefail
  cd "$(dirname "$0")/.." || exit 1
  out=dist-tarballs
  while [ $# -gt 0 ]; do
    case "$1" in
      --out) [ $# -ge 2 ] || { printf 'pack: --out needs a folder\n' >&2; exit 2; }; out=$2; shift ;;
      -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
      *) printf 'pack: unknown option %s (see --help)\n' "$1" >&2; exit 2 ;;
    esac
    shift
  done
  mkdir -p "$out" || exit 1
  out=$(cd "$out" && pwd)
  rm -f "$out"/*.tgz
  log=$(mktemp "${TMPDIR:-/tmp}/pack.XXXXXX")
  trap 'rm -f "$log"' EXIT
  printf 'pack: building and packing %s packages into %s\n' "${#PACKAGES[@]}" "$out"
  pack_packages "$out" "$log" || exit 1
  tarballs=("$out"/*.tgz)
  [ "${#tarballs[@]}" -eq "${#PACKAGES[@]}" ] || { printf 'pack: expected %s tarballs in %s, got %s\n' "${#PACKAGES[@]}" "$out" "${#tarballs[@]}" >&2; exit 1; }
  for tarball in "${tarballs[@]}"; do printf '  %s\n' "$(basename "$tarball")"; done
  guard=$(ls "$out"/approval-conformance-guard-*.tgz)
  printf '\nInstall the CLI (all of them together):  npm install -g %s/*.tgz\n' "$out"
  printf 'Add the guard to an app:                 npm install %s better-sqlite3\n' "$guard"
fi
