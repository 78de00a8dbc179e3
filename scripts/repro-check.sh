#!/usr/bin/env bash
# Installs each standalone reproduction (reports/repro/*/, or the folders named) from the registry with install
# scripts off, as a maintainer would (npm install in an empty folder, then node repro.mjs), and runs it: each must show
# its bug (exit 1). Reproductions whose package.json pins the same dependencies share one install, and each runs in
# that folder under a name of its own. One line per reproduction, in order, then a count; exits 1 if any did not
# install or did not show its bug.
#
#   bash scripts/repro-check.sh                      # every folder in reports/repro, 4 at a time
#   bash scripts/repro-check.sh --jobs 1 DIR [DIR ...]  # the folders named, one after the other
#
# The installs (one per set of dependencies) run all at once, then the scripts JOBS at a time: a script spends most
# of its time waiting (a server starting, a timer, the backend's held reply), so 4 at a time keeps 2 cores busy
# without making any one of them late (each has 120 s).
set -uo pipefail
cd "$(dirname "$0")/.."

jobs=4
dirs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs)
      [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { printf 'repro-check: --jobs needs a whole number of 1 or more, not %s\n' "${2:-nothing}" >&2; exit 2; }
      jobs=$2
      shift 2
      ;;
    -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) printf 'repro-check: unknown option %s (see --help)\n' "$1" >&2; exit 2 ;;
    *) dirs+=("$1"); shift ;;
  esac
done
[ "${#dirs[@]}" -gt 0 ] || dirs=(reports/repro/*/)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The reproductions, and the install each uses: the folder is named after its dependencies.
names=()
installs=()
for d in "${dirs[@]}"; do
  d=${d%/}
  [ -f "$d/package.json" ] || continue
  key=$(node -e 'const p = require(require("path").resolve(process.argv[1], "package.json")); console.log(require("crypto").createHash("sha256").update(JSON.stringify(p.dependencies)).digest("hex").slice(0, 16))' "$d")
  install="$work/$key"
  if [ ! -d "$install" ]; then
    mkdir -p "$install"
    cp "$d/package.json" "$install/"
  fi
  name=$(basename "$d")
  cp "$d/repro.mjs" "$install/repro-$name.mjs"
  names+=("$name")
  installs+=("$install")
done
n=${#names[@]}
[ "$n" -gt 0 ] || { echo "repro-check: no reproduction (a folder with a package.json) in: ${dirs[*]}" >&2; exit 1; }

# Every install at once: they wait on the registry.
pids=()
for install in "$work"/*/; do
  install=${install%/}
  (cd "$install" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >install.log 2>&1 || touch failed) &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done

# One reproduction: its line (ok or FAIL, and why) into $work/out/NAME.
mkdir -p "$work/out"
check() { # NAME INSTALL
  local name=$1 install=$2 out code
  if [ -f "$install/failed" ]; then
    { echo "FAIL $name: npm install failed:"; tail -5 "$install/install.log"; } >"$work/out/$name"
    return
  fi
  out=$(cd "$install" && timeout 120 node "repro-$name.mjs" 2>&1)
  code=$?
  if [ "$code" -eq 1 ]; then
    echo "ok   $name: $(printf '%s\n' "$out" | grep -v '^\s*$' | grep -m1 -E 'applied|told' || printf '%s\n' "$out" | head -1)" >"$work/out/$name"
  else
    { echo "FAIL $name: exit $code, where 1 (the bug shows) was expected:"; printf '%s\n' "$out" | tail -5; } >"$work/out/$name"
  fi
}

# JOBS at a time; each line is printed in order once it and those before it are done.
running=0
printed=0
print_ready() {
  while [ "$printed" -lt "$n" ] && [ -f "$work/out/${names[$printed]}.done" ]; do
    cat "$work/out/${names[$printed]}"
    printed=$((printed + 1))
  done
}
for i in "${!names[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
    print_ready
  fi
  (check "${names[$i]}" "${installs[$i]}"; touch "$work/out/${names[$i]}.done") &
  running=$((running + 1))
done
wait
print_ready

failed=$(grep -l '^FAIL' "$work"/out/* 2>/dev/null | wc -l)
echo "$n reproductions installed from the registry and run; $failed did not show their bug"
[ "$failed" -eq 0 ]
