#!/usr/bin/env bash
# Installs each standalone reproduction (reports/repro/*/, or the folders named) from the registry with install
# scripts off, as a maintainer would (npm install in an empty folder, then node repro.mjs), and runs it: each must show
# its bug (exit 1). Reproductions whose package.json pins the same dependencies share one install. One line per
# reproduction, then a count; exits 1 if any did not install or did not show its bug.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then dirs=("$@"); else dirs=(reports/repro/*/); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0
failed=0
for d in "${dirs[@]}"; do
  d=${d%/}
  [ -f "$d/package.json" ] || continue
  n=$((n + 1))
  name=$(basename "$d")
  # One install per set of dependencies: the folder is named after them.
  key=$(node -e 'const p = require(require("path").resolve(process.argv[1], "package.json")); console.log(require("crypto").createHash("sha256").update(JSON.stringify(p.dependencies)).digest("hex").slice(0, 16))' "$d")
  install="$work/$key"
  if [ ! -d "$install/node_modules" ] && [ ! -f "$install/failed" ]; then
    mkdir -p "$install"
    cp "$d/package.json" "$install/"
    (cd "$install" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >install.log 2>&1) || touch "$install/failed"
  fi
  if [ -f "$install/failed" ]; then
    echo "FAIL $name: npm install failed:"
    tail -5 "$install/install.log"
    failed=$((failed + 1))
    continue
  fi
  cp "$d/repro.mjs" "$install/repro.mjs"
  out=$(cd "$install" && timeout 120 node repro.mjs 2>&1)
  code=$?
  if [ "$code" -eq 1 ]; then
    echo "ok   $name: $(printf '%s\n' "$out" | grep -v '^\s*$' | grep -m1 -E 'applied|told' || printf '%s\n' "$out" | head -1)"
  else
    echo "FAIL $name: exit $code, where 1 (the bug shows) was expected:"
    printf '%s\n' "$out" | tail -5
    failed=$((failed + 1))
  fi
done
echo "$n reproductions installed from the registry and run; $failed did not show their bug"
[ "$n" -gt 0 ] && [ "$failed" -eq 0 ]
