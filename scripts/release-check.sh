#!/usr/bin/env bash
# The release, end to end against a real registry: a throwaway Verdaccio on loopback (every package but ours proxied
# to the npm registry), a clone of the committed HEAD in which `pnpm release` runs as a maintainer would (changeset
# version, install, build, changeset publish) with the registry pointed at that Verdaccio, then `npm install
# approval-conformance` from it alone into an empty folder, and `npx approval-conformance run --framework reference`
# there, whose verdicts must equal HEAD's reports/results.json. Nothing in this repository changes: the release's
# version bumps, changelogs and git tags stay in the clone, which goes with the work folder (its logs stay after a
# failure).
#
#   bash scripts/release-check.sh                 # about 1 minute and 75 s of CPU on 2 cores, half of it the build
#   bash scripts/release-check.sh --keep          # keep the work folder (printed) and its logs to look around in
#   bash scripts/release-check.sh --build-native  # build better-sqlite3 from source in the installed folder (70-110 s)
#
# better-sqlite3 is the one native dependency. A user's `npm install` downloads its prebuilt binary (its install
# script, prebuild-install), but this machine reaches only the registry: so approval-conformance installs with scripts
# off and the binary the clone's install built (the same better-sqlite3 version, the same Node) stands in for the
# downloaded one, as with scripts/pack-smoke.sh --reuse-native; with --build-native, or when the versions differ, it
# is built from source (`npm rebuild --build-from-source`) against the Node headers installed with Node.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
# shellcheck source=scripts/better-sqlite3.sh
. scripts/better-sqlite3.sh

# Verdaccio 6.10 wants Node 22; 6.8.0 runs on Node 20, with its install scripts off.
VERDACCIO=verdaccio@6.8.0

keep=false
build_native=false
for arg in "$@"; do
  case "$arg" in
    --keep) keep=true ;;
    --build-native) build_native=true ;;
    -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) printf 'release-check: unknown option %s (see --help)\n' "$arg" >&2; exit 2 ;;
  esac
done

started=$SECONDS
step_started=$SECONDS
step() {
  printf '\n==> %s\n' "$*"
  step_started=$SECONDS
}
took() { printf '    (%ss)\n' "$((SECONDS - step_started))"; }
die() {
  printf 'release-check: %s\n' "$*" >&2
  printf 'release-check: every step'"'"'s log is in %s/' "$logs" >&2
  [ "$keep" = true ] && printf '\n' >&2 || printf ' (kept; --keep keeps the whole folder)\n' >&2
  failed=true
  exit 1
}
# The last lines of a step's log, then die: LOG MESSAGE
fail() {
  tail -30 "$1" >&2
  die "$2 (log: $1)"
}

work=$(mktemp -d "${TMPDIR:-/tmp}/release-check.XXXXXX")
logs=$work/logs
verdaccio_pid=""
failed=false
# Verdaccio stopped, and the folder removed: all of it after a success, all but the logs after a failure.
cleanup() {
  if [ -n "$verdaccio_pid" ]; then
    kill "$verdaccio_pid" 2>/dev/null
    wait "$verdaccio_pid" 2>/dev/null
  fi
  [ "$keep" = true ] && return
  if [ "$failed" = true ]; then
    find "$work" -mindepth 1 -maxdepth 1 ! -name logs -exec rm -rf {} +
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
[ "$keep" = false ] || printf 'release-check: working in %s (kept)\n' "$work"
mkdir -p "$logs" "$work/verdaccio/storage" "$work/app" "$work/cache"

step "a clone of HEAD ($(git rev-parse --short HEAD)), installed from the store (pnpm install --frozen-lockfile --prefer-offline)"
# A clone, not a worktree: changeset publish tags each release, and a worktree's tags would land in this repository.
git clone -q --no-checkout "$repo" "$work/repo" >"$logs/clone.log" 2>&1 || fail "$logs/clone.log" "git clone of $repo failed"
git -C "$work/repo" checkout -q --detach "$(git rev-parse HEAD)" >>"$logs/clone.log" 2>&1 || fail "$logs/clone.log" "checking out HEAD in the clone failed"
(cd "$work/repo" && pnpm install --frozen-lockfile --prefer-offline) >"$logs/install.log" 2>&1 || fail "$logs/install.log" "pnpm install in the clone failed"
took

step "Verdaccio ($VERDACCIO) on loopback: approval-conformance and @approval-conformance/* local, the rest proxied to the npm registry"
(cd "$work/verdaccio" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error --prefer-offline "$VERDACCIO") >"$logs/verdaccio-install.log" 2>&1 ||
  fail "$logs/verdaccio-install.log" "npm install $VERDACCIO failed"
cat >"$work/verdaccio/config.yaml" <<EOF
storage: $work/verdaccio/storage
auth:
  htpasswd:
    file: $work/verdaccio/htpasswd
    # It checks the password on every request with the token: bcrypt's cheapest cost for a throwaway user.
    rounds: 4
uplinks:
  npmjs:
    url: https://registry.npmjs.org/
packages:
  'approval-conformance':
    access: \$all
    publish: \$all
  '@approval-conformance/*':
    access: \$all
    publish: \$all
  '**':
    access: \$all
    proxy: npmjs
log: { type: stdout, format: pretty, level: http }
EOF
# A free port from the kernel; another process may take it before Verdaccio binds it, so try three.
for attempt in 1 2 3; do
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') || die "python3 could not pick a free port"
  registry="http://127.0.0.1:$port/"
  node "$work/verdaccio/node_modules/verdaccio/bin/verdaccio" --config "$work/verdaccio/config.yaml" --listen "127.0.0.1:$port" \
    >"$logs/verdaccio.log" 2>&1 </dev/null &
  verdaccio_pid=$!
  for _ in $(seq 150); do
    curl -sf "${registry}-/ping" >/dev/null 2>&1 && break 2
    kill -0 "$verdaccio_pid" 2>/dev/null || break
    sleep 0.2
  done
  kill "$verdaccio_pid" 2>/dev/null
  wait "$verdaccio_pid" 2>/dev/null
  verdaccio_pid=""
  grep -q EADDRINUSE "$logs/verdaccio.log" || fail "$logs/verdaccio.log" "Verdaccio did not answer on $registry within 30 s"
done
[ -n "$verdaccio_pid" ] || fail "$logs/verdaccio.log" "Verdaccio found no free port in three tries"
# A user to publish as: its token goes into the clone's .npmrc, with the registry.
token=$(curl -sf -XPUT -H 'content-type: application/json' "${registry}-/user/org.couchdb.user:ci" -d '{"name":"ci","password":"ci-password-1"}' |
  node -e 'console.log(JSON.parse(require("fs").readFileSync(0, "utf8")).token ?? "")') || true
[ -n "$token" ] || fail "$logs/verdaccio.log" "Verdaccio did not create the user to publish as"
printf 'registry=%s\n//127.0.0.1:%s/:_authToken=%s\n' "$registry" "$port" "$token" >>"$work/repo/.npmrc"
echo "    $registry (pid $verdaccio_pid)"
took

step "pnpm release in the clone (changeset version, pnpm install --no-frozen-lockfile, pnpm build, changeset publish), to Verdaccio"
# changeset publish asks the registry in npm_config_registry (or the npm registry), and pnpm publish uses it too;
# a package's publishConfig naming a registry would win over both, so none may.
(cd "$work/repo" && node -e '
  const workspace = JSON.parse(require("child_process").execFileSync("pnpm", ["ls", "-r", "--depth", "-1", "--json"], { encoding: "utf8" }));
  const own = workspace.map((p) => require(`${p.path}/package.json`)).filter((p) => Object.keys(p.publishConfig ?? {}).some((k) => k.endsWith("registry")));
  if (own.length) { console.error(`publishConfig names a registry in ${own.map((p) => p.name).join(", ")}`); process.exit(1); }
') || die "a package would publish to a registry of its own, not to Verdaccio (above)"
(cd "$work/repo" && npm_config_registry=$registry TURBO_TELEMETRY_DISABLED=1 pnpm release) >"$logs/release.log" 2>&1 </dev/null ||
  fail "$logs/release.log" "pnpm release failed in the clone"
# Every package that is not private, at the version changeset version gave it, is the registry's latest.
published=$(cd "$work/repo" && node -e '
  const { readFileSync } = require("fs");
  const registry = process.argv[1];
  const workspace = JSON.parse(require("child_process").execFileSync("pnpm", ["ls", "-r", "--depth", "-1", "--json"], { encoding: "utf8" }));
  const pkgs = workspace.map((p) => JSON.parse(readFileSync(`${p.path}/package.json`, "utf8"))).filter((p) => !p.private);
  Promise.all(pkgs.map(async (p) => {
    const res = await fetch(registry + p.name.replace("/", "%2f"));
    const latest = res.ok ? (await res.json())["dist-tags"]?.latest : `HTTP ${res.status}`;
    return latest === p.version ? "" : `${p.name}: ${p.version} here, ${latest ?? "none"} on the registry`;
  })).then((problems) => {
    problems = problems.filter(Boolean);
    if (problems.length) { console.error(problems.join("\n")); process.exit(1); }
    console.log(pkgs.map((p) => `${p.name}@${p.version}`).join(" "));
  });
' "$registry") || die "changeset publish did not publish every public package to Verdaccio (above; log: $logs/release.log)"
published_count=$(wc -w <<<"$published")
grep -q '\bapproval-conformance@' <<<"$published" || die "approval-conformance was not published (log: $logs/release.log)"
version=$(node -p 'require(process.argv[1]).version' "$work/repo/packages/conformance/package.json")
echo "    $published_count packages: $published"
took

step "npm install approval-conformance from Verdaccio into an empty folder (scripts off)"
cd "$work/app" || die "no $work/app"
npm install --registry "$registry" --ignore-scripts --no-audit --no-fund --loglevel=error approval-conformance >"$logs/npm-install.log" 2>&1 ||
  fail "$logs/npm-install.log" "npm install approval-conformance from Verdaccio failed"
installed=$(node -p 'require("./node_modules/approval-conformance/package.json").version' 2>/dev/null) || die "approval-conformance is not in $work/app/node_modules"
[ "$installed" = "$version" ] || die "npm installed approval-conformance $installed, not the $version just published"
# Every installed package came through Verdaccio: it stores the metadata of each package it proxied.
node -e '
  const { existsSync } = require("fs");
  const names = [...new Set(Object.keys(require("./package-lock.json").packages).filter(Boolean).map((p) => p.replace(/^.*node_modules\//, "")))];
  const missed = names.filter((n) => !existsSync(`${process.argv[1]}/${n}/package.json`));
  if (missed.length) { console.error(`not from Verdaccio: ${missed.join(" ")}`); process.exit(1); }
  console.log(`    ${names.length} packages, all through Verdaccio; with install scripts: ${Object.entries(require("./package-lock.json").packages).filter(([, p]) => p.hasInstallScript).map(([p]) => p.replace(/^.*node_modules\//, "")).join(" ") || "none"}`);
' "$work/verdaccio/storage" || die "npm installed packages that did not come from Verdaccio (above)"
took

better_sqlite3_binary "$work/repo/packages/adapters/reference" "$( $build_native && echo false || echo true )" "$logs/rebuild.log"

# A fresh cache; no PostgreSQL (CI's would add a store the committed reports do not have for this row).
export APPROVAL_CONFORMANCE_CACHE="$work/cache"
unset APPROVAL_CONFORMANCE_POSTGRES

step "npx approval-conformance --version"
printed=$(npx --no-install approval-conformance --version 2>&1) || die "'npx approval-conformance --version' failed: $printed"
[ "$printed" = "$version" ] || die "'npx approval-conformance --version' printed '$printed', not the published $version"
echo "    $printed"
took

step "npx approval-conformance run --framework reference --quiet"
npx --no-install approval-conformance run --framework reference --quiet --fail-on error --json "$logs/reference.json" >"$logs/run.log" 2>&1 ||
  fail "$logs/run.log" "'npx approval-conformance run --framework reference' failed in $work/app"
head -1 "$logs/run.log" | sed 's/^/    /'
# Passes and failures (the reference row fails on purpose where the design model says), no error, and every cell's
# verdict and counterexample length as in the committed reports (the row's version aside: the release bumped it).
node -e '
  const { readFileSync } = require("fs");
  const [file, published] = process.argv.slice(1).map((f) => JSON.parse(readFileSync(f, "utf8")));
  const unversioned = (id) => id.replace(/^reference@[^/]*/, "reference");
  const byId = new Map(published.cells.filter((c) => c.framework === "reference").map((c) => [unversioned(c.id), c]));
  const count = (v) => file.cells.filter((c) => c.verdict === v).length;
  const problems = [];
  if (!file.complete) problems.push("the results are not complete");
  if (!count("pass") || !count("fail")) problems.push(`expected passes and failures, got ${count("pass")} pass and ${count("fail")} fail`);
  for (const cell of file.cells) {
    const was = byId.get(unversioned(cell.id));
    if (cell.verdict === "error" || cell.verdict === "timeout") problems.push(`${cell.id}: ${cell.verdict}`);
    else if (!was) problems.push(`${cell.id}: not in reports/results.json`);
    else if (was.verdict !== cell.verdict || was.counterexample?.steps !== cell.counterexample?.steps) {
      problems.push(`${cell.id}: ${cell.verdict} ${cell.counterexample?.steps ?? ""} here, ${was.verdict} ${was.counterexample?.steps ?? ""} in reports/`);
    }
  }
  if (problems.length) { console.error(problems.slice(0, 20).join("\n")); process.exit(1); }
  console.log(`    ${file.cells.length} cells (${count("pass")} pass, ${count("fail")} fail), every verdict and counterexample length as in reports/results.json`);
' "$logs/reference.json" "$work/repo/reports/results.json" || die "the reference row installed from Verdaccio does not give the committed reports' verdicts (above; results: $logs/reference.json)"
took

printf '\nrelease-check: published %s packages to a local Verdaccio, installed approval-conformance %s from it with npm, and ran the reference row: ok (%ss)\n' \
  "$published_count" "$version" "$((SECONDS - started))"
