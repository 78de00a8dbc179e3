#!/usr/bin/env bash
# Installs each standalone reproduction (reports/repro/*/, or the folders named) into an empty folder, from the
# registry with install scripts off, as a maintainer would, and runs it: each must show its bug (exit 1). One line per
# reproduction, then a count; exits 1 if any did not install or did not show its bug.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then dirs=("$@"); else dirs=(reports/repro/*/); fi
n=0
failed=0
for d in "${dirs[@]}"; do
  d=${d%/}
  [ -f "$d/package.json" ] || continue
  n=$((n + 1))
  name=$(basename "$d")
  tmp=$(mktemp -d)
  cp "$d/package.json" "$d/repro.mjs" "$tmp/"
  if ! (cd "$tmp" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >install.log 2>&1); then
    echo "FAIL $name: npm install failed:"
    tail -5 "$tmp/install.log"
    failed=$((failed + 1))
  else
    out=$(cd "$tmp" && timeout 120 node repro.mjs 2>&1)
    code=$?
    if [ "$code" -eq 1 ]; then
      echo "ok   $name: $(printf '%s\n' "$out" | head -1)"
    else
      echo "FAIL $name: exit $code, where 1 (the bug shows) was expected:"
      printf '%s\n' "$out" | tail -5
      failed=$((failed + 1))
    fi
  fi
  rm -rf "$tmp"
done
echo "$n reproductions installed from the registry and run; $failed did not show their bug"
[ "$n" -gt 0 ] && [ "$failed" -eq 0 ]
