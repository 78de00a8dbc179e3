#!/usr/bin/env bash
# The published packages, as a user gets them: build, `pnpm pack` every publishable package, check what each tarball
# holds, `npm install` the tarballs together into an empty folder, and run the CLI and the README's API example
# there. The framework versions install on demand into a fresh cache, so `ai@7.0.185` (pinned only in the workspace)
# is installed from the registry, as it is for a user, and its verdicts must equal the committed reports'.
#
#   bash scripts/pack-smoke.sh            # about 2 minutes on 2 cores, 70-110 s of it building better-sqlite3
#   bash scripts/pack-smoke.sh --keep     # keep the folder (printed) to look around in
#   bash scripts/pack-smoke.sh --no-build # skip the full build (each package's prepack still builds what it needs)
#   bash scripts/pack-smoke.sh --reuse-native  # better-sqlite3's binary from the workspace's build (CI: 30 s)
#
# better-sqlite3 is the one native dependency. A user's `npm install` downloads its prebuilt binary (its install
# script, prebuild-install), but this machine reaches only the registry: so the tarballs install with scripts off and
# better-sqlite3 alone is then built from source (`npm rebuild --build-from-source`) against the Node headers
# installed with Node, as .pnpmfile.cjs does for the workspace. With --reuse-native the binary the workspace built
# (the same better-sqlite3 version, the same Node) stands in for the downloaded one instead.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
# shellcheck source=scripts/better-sqlite3.sh
. scripts/better-sqlite3.sh
# PACKAGES, the packages a user installs, and pack_packages, which packs them (as `pnpm release:pack` does).
# shellcheck source=scripts/pack.sh
. scripts/pack.sh

keep=false
build=true
reuse_native=false
for arg in "$@"; do
  case "$arg" in
    --keep) keep=true ;;
    --no-build) build=false ;;
    --reuse-native) reuse_native=true ;;
    -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) printf 'pack-smoke: unknown option %s (see --help)\n' "$arg" >&2; exit 2 ;;
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
  printf 'pack-smoke: %s\n' "$*" >&2
  [ "$keep" = true ] || printf 'pack-smoke: rerun with --keep to keep the folder it worked in\n' >&2
  exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/pack-smoke.XXXXXX")
if [ "$keep" = true ]; then
  printf 'pack-smoke: working in %s (kept)\n' "$work"
else
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/tarballs" "$work/app" "$work/cache"

if [ "$build" = true ]; then
  step "build (pnpm build)"
  pnpm build >"$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; die "pnpm build failed"; }
  took
fi

step "pnpm pack each publishable package (the CLI's build removed first: its prepack must build it)"
# A pack of an unbuilt package once made a tarball whose bin pointed at a missing dist/cli.js; each package's
# prepack runs its build now.
rm -rf packages/conformance/dist packages/conformance/tsconfig.tsbuildinfo
pack_packages "$work/tarballs" "$work/pack.log" || die "pnpm pack failed (above)"
cli_listing=$(tar tzf "$work"/tarballs/approval-conformance-[0-9]*.tgz)
grep -qx package/dist/cli.js <<<"$cli_listing" || die "the CLI's tarball has no dist/cli.js: its prepack did not build it"
[ -f packages/conformance/dist/cli.js ] || die "packing the CLI did not build packages/conformance/dist"

tarballs=("$work"/tarballs/*.tgz)
[ "${#tarballs[@]}" -eq "${#PACKAGES[@]}" ] || die "expected ${#PACKAGES[@]} tarballs, got ${#tarballs[@]}"
took

step "check what each tarball holds"
for tarball in "${tarballs[@]}"; do
  name=$(basename "$tarball")
  listing=$(tar tzf "$tarball") || die "cannot read $name"
  # No tests, fixtures or TypeScript sources: dist only (and the schema, ADAPTERS.md, README, LICENSE).
  stray=$(grep -E '\.test\.|\.fixtures\.|^package/src/|\.tmp\.' <<<"$listing")
  [ -z "$stray" ] || die "$name holds files that must not ship: $(tr '\n' ' ' <<<"$stray")"
  for file in package/README.md package/LICENSE package/package.json package/dist/index.js package/dist/index.d.ts; do
    grep -qx "$file" <<<"$listing" || die "$name has no ${file#package/}"
  done
  # Every compiled file has its source: tsc -b never deletes what a removed source once emitted.
  dir=$(tar xzf "$tarball" -O package/package.json | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).repository.directory')
  while read -r js; do
    [ -f "$repo/$dir/src/${js#package/dist/}" ] || [ -f "$repo/$dir/src/$(sed 's/\.js$/.ts/' <<<"${js#package/dist/}")" ] ||
      die "$name ships ${js#package/}, which no source in $dir/src compiles to (a stale build: rm -rf $dir/dist $dir/tsconfig.tsbuildinfo and build again)"
  done < <(grep -E '^package/dist/.*\.js$' <<<"$listing")
  # The manifest: engines, files, repository, MIT, and no runtime dependency on a package that is never published.
  tar xzf "$tarball" -O package/package.json | node -e '
    const name = process.argv[1];
    const pkg = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const problems = [];
    if (pkg.private) problems.push("it is private");
    if (pkg.license !== "MIT") problems.push(`license is ${pkg.license}`);
    if (!pkg.engines?.node) problems.push("no engines.node");
    if (!Array.isArray(pkg.files)) problems.push("no files");
    if (!pkg.repository?.url || !pkg.repository?.directory) problems.push("no repository (url and directory)");
    if (JSON.stringify(pkg.exports ?? {}).includes("@approval-conformance/source")) problems.push("its exports keep the source condition (src/ is not in the tarball): publishConfig.exports");
    for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
      for (const [dep, range] of Object.entries(pkg[field] ?? {})) {
        if (/-pin-|\/testkit$/.test(dep)) problems.push(`${field} has ${dep}, which is never published`);
        if (String(range).startsWith("workspace:")) problems.push(`${field}.${dep} is still ${range}`);
      }
    }
    if (problems.length) { console.error(`${name}: ${problems.join("; ")}`); process.exit(1); }
  ' "$name" || die "$name's package.json is not ready to publish"
done
echo "    ${#tarballs[@]} tarballs: dist, README, LICENSE; engines, files, repository; no unpublished dependency"
took

step "npm install the tarballs together into an empty folder (scripts off)"
cd "$work/app" || die "no $work/app"
npm install --ignore-scripts --no-audit --no-fund --loglevel=error "${tarballs[@]}" >"$work/npm-install.log" 2>&1 ||
  { tail -30 "$work/npm-install.log" >&2; die "npm install of the tarballs failed"; }
# Which installed packages have install scripts: only better-sqlite3 is expected to need one.
scripted=$(node -e '
  const lock = require("./package-lock.json");
  console.log(Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript).map(([path]) => path.replace(/^.*node_modules\//, "")).join(" "));
')
echo "    installed; packages with install scripts: ${scripted:-none}"
took

better_sqlite3_binary "$repo/packages/adapters/reference" "$reuse_native" "$work/rebuild.log"

# A fresh cache, so a framework version installs from the registry here, as it does for a user.
export APPROVAL_CONFORMANCE_CACHE="$work/cache"
cli() { npx --no-install approval-conformance "$@"; }

step "npx approval-conformance --help"
help=$(cli --help) || die "'approval-conformance --help' failed"
grep -q '^Usage: approval-conformance <command>' <<<"$help" || die "--help printed no usage: $help"
[ "$(cli --version)" = "$(node -p 'require("./node_modules/approval-conformance/package.json").version')" ] || die "--version does not print the package's version"
took

# Every cell of a run against the committed reports' cell of the same id: same verdict, same counterexample length.
same_as_reports() {
  node -e '
    const [file, published] = process.argv.slice(1).map((f) => JSON.parse(require("fs").readFileSync(f, "utf8")));
    const byId = new Map(published.cells.map((c) => [c.id, c]));
    const moved = [];
    for (const cell of file.cells) {
      const was = byId.get(cell.id);
      if (!was) moved.push(`${cell.id}: not in reports/results.json`);
      else if (was.verdict !== cell.verdict || was.counterexample?.steps !== cell.counterexample?.steps) {
        moved.push(`${cell.id}: ${cell.verdict} ${cell.counterexample?.steps ?? ""} here, ${was.verdict} ${was.counterexample?.steps ?? ""} in reports/`);
      }
    }
    if (moved.length) { console.error(moved.join("\n")); process.exit(1); }
    console.log(`    ${file.cells.length} cells, every verdict and counterexample length as in reports/results.json`);
  ' "$1" "$repo/reports/results.json"
}

step "npx approval-conformance run --framework reference --scenario double-resume --store memory --quiet"
out=$(cli run --framework reference --scenario double-resume --store memory --quiet --fail-on error --json reference.json) ||
  die "the reference run failed: $out"
grep -q '^reference@0\.0\.0: 39 cells: 21 pass, 18 fail\.$' <<<"$out" || die "the reference run printed an unexpected summary: $out"
same_as_reports reference.json || die "the reference run's verdicts differ from reports/results.json (above)"
took

step "npx approval-conformance run --framework ai@7.0.185 --scenario tamper --store memory --quiet (installs ai@7.0.185 on demand)"
out=$(cli run --framework ai@7.0.185 --scenario tamper --store memory --quiet --fail-on error --json ai.json) ||
  die "the ai@7.0.185 run failed: $out"
[ -f "$APPROVAL_CONFORMANCE_CACHE/ai@7.0.185/ready.json" ] || die "ai@7.0.185 was not installed on demand into the cache"
grep -q '^ai@7\.0\.185: [0-9]* cells: ' <<<"$out" || die "the ai@7.0.185 run printed an unexpected summary: $out"
same_as_reports ai.json || die "ai@7.0.185 installed on demand gives other verdicts than its pin did (above)"
took

# DBOS runs only on PostgreSQL: with no server, an installed CLI says so in one line (exit 2) before it installs or
# runs anything; with one (CI's), the version installs on demand and gives the published verdicts.
step "npx approval-conformance run --framework dbos, with no PostgreSQL server: one clear error"
out=$(env -u APPROVAL_CONFORMANCE_POSTGRES npx --no-install approval-conformance run --framework dbos@5.3.0 --scenario tamper --quiet 2>&1)
code=$?
[ "$code" -eq 2 ] || die "dbos with no server exited $code, where 2 was expected: $out"
[ "$(grep -c . <<<"$out")" -eq 1 ] && grep -q 'keeps everything in PostgreSQL, and no PostgreSQL server is configured: pass --postgres URL' <<<"$out" ||
  die "dbos with no server printed other than one line naming the fix: $out"
took

if [ -n "${APPROVAL_CONFORMANCE_POSTGRES:-}" ]; then
  step "npx approval-conformance run --framework dbos@5.3.0 --scenario tamper --quiet (installs it on demand; on \$APPROVAL_CONFORMANCE_POSTGRES)"
  out=$(cli run --framework dbos@5.3.0 --scenario tamper --quiet --fail-on error --json dbos.json) || die "the dbos@5.3.0 run failed: $out"
  [ -f "$APPROVAL_CONFORMANCE_CACHE/dbos@5.3.0/ready.json" ] || die "dbos@5.3.0 was not installed on demand into the cache"
  same_as_reports dbos.json || die "dbos@5.3.0 installed on demand gives other verdicts than its pin did (above)"
  took
else
  echo "    (the installed dbos run is skipped: no APPROVAL_CONFORMANCE_POSTGRES; CI gives one)"
fi

step "the README's programmatic API example, with node"
cp "$repo/packages/conformance/examples/run.mjs" . || die "no examples/run.mjs"
out=$(node run.mjs) || die "the API example failed: $out"
grep -q '^39 cells, 18 fail$' <<<"$out" || die "the API example printed: $out"
grep -q '^read back 39 cells$' <<<"$out" || die "the API example did not read its results back: $out"
grep -q 'export declare function run(' node_modules/approval-conformance/dist/api.d.ts || die "dist has no typed run()"
took

# A third party's adapter, as one is made and shipped: init-adapter outside the workspace, its dependencies from the
# tarballs, built, tested and packed; its tarball installed next to the CLI, which then finds it by its npm name.
# The toy's documented pattern must fail at-most-once on double-resume and the guarded wiring pass; audit must
# agree; replay must reproduce; repro must write a script that shows the bug with node.
step "init-adapter smoke-toy outside the workspace: install from the tarballs, build, test, npm pack, install next to the CLI; run, audit, replay and repro it by name with --adapter (the repro run with node)"
adapter_name=smoke-toy
adapter_pkg=approval-conformance-adapter-$adapter_name
adapter_dir=$work/adapter
cli init-adapter "$adapter_name" "$adapter_dir" >"$work/init-adapter.log" 2>&1 ||
  { cat "$work/init-adapter.log" >&2; die "init-adapter failed"; }
grep -q "^Wrote the $adapter_name adapter into $adapter_dir (" "$work/init-adapter.log" || die "init-adapter printed: $(cat "$work/init-adapter.log")"
[ -f "$adapter_dir/src/descriptor.ts" ] || die "init-adapter wrote no src/descriptor.ts"
(
  cd "$adapter_dir" || exit 1
  # --no-save: package.json keeps the suite's packages at their version, as they will be on the registry.
  npm install --no-save --ignore-scripts --no-audit --no-fund --loglevel=error \
    "$work"/tarballs/approval-conformance-core-[0-9]*.tgz "$work"/tarballs/approval-conformance-guard-[0-9]*.tgz &&
    npm run build && npm run typecheck && npm test && npm pack --pack-destination "$work" --loglevel=error
) >"$work/adapter.log" 2>&1 || { tail -40 "$work/adapter.log" >&2; die "the scaffold did not install, build, pass its tests or pack (above; all of it in $work/adapter.log)"; }
sed 's/\x1b\[[0-9;]*m//g' "$work/adapter.log" | grep -Eq 'Tests +3 passed' || die "the scaffold's tests did not all run: $(grep -E 'Tests' "$work/adapter.log")"
adapter_tgz=$(ls "$work/$adapter_pkg"-*.tgz) || die "npm pack wrote no $adapter_pkg tarball"
# What it ships: the built entries, no sources, no tests.
listing=$(tar tzf "$adapter_tgz")
for file in package/package.json package/README.md package/dist/index.js package/dist/descriptor.js package/dist/descriptor.d.ts; do
  grep -qx "$file" <<<"$listing" || die "$(basename "$adapter_tgz") has no ${file#package/}"
done
! grep -Eq '^package/src/|\.test\.' <<<"$listing" || die "$(basename "$adapter_tgz") ships sources or tests: $(grep -E '^package/src/|\.test\.' <<<"$listing" | tr '\n' ' ')"
# Next to the CLI: its core and guard are the CLI's own (one copy of core, the versions equal).
npm install --ignore-scripts --no-audit --no-fund --loglevel=error "$adapter_tgz" >"$work/adapter-install.log" 2>&1 ||
  { tail -30 "$work/adapter-install.log" >&2; die "npm install of the adapter's tarball next to the CLI failed"; }
[ "$(find node_modules -path '*/@approval-conformance/core/package.json' | wc -l)" -eq 1 ] ||
  die "the adapter brought a core of its own: $(find node_modules -path '*/@approval-conformance/core/package.json' | tr '\n' ' ')"

out=$(cli run --adapter "$adapter_pkg" --framework "$adapter_name" --quiet --fail-on error --json adapter.json) ||
  die "the run of $adapter_name with --adapter $adapter_pkg failed: $out"
grep -q "^$adapter_name@0\.1\.0: [0-9]* cells: " <<<"$out" || die "the $adapter_name run printed an unexpected summary: $out"
node -e '
  const [name] = process.argv.slice(1);
  const { cells } = JSON.parse(require("fs").readFileSync("adapter.json", "utf8"));
  const verdict = (wiring) => cells.find((c) => c.id === `${name}@0.1.0/${wiring}/memory/double-resume/at-most-once`);
  const bad = verdict("resume"), guarded = verdict("guarded-resume");
  const problems = [];
  if (bad?.verdict !== "fail" || !bad.counterexample?.schedule) problems.push(`resume: ${bad?.verdict ?? "no cell"}, not fail with a counterexample`);
  if (guarded?.verdict !== "pass") problems.push(`guarded-resume: ${guarded?.verdict ?? "no cell"}, not pass`);
  const errors = cells.filter((c) => c.verdict === "error" || c.verdict === "timeout").map((c) => c.id);
  if (errors.length) problems.push(`error or timeout cells: ${errors.join(", ")}`);
  if (problems.length) { console.error(problems.join("\n")); process.exit(1); }
  console.log(`    ${cells.length} cells; double-resume at-most-once: resume fails (${bad.counterexample.steps} steps), guarded-resume passes`);
' "$adapter_name" || die "the $adapter_name run's verdicts are not the scaffold's (above)"

# By its folder too, as init-adapter's steps say: with its own copy of core (its node_modules), which works beside the
# CLI's.
out=$(cli run --adapter "$adapter_dir" --framework "$adapter_name" --wiring resume --scenario double-resume --quiet) ||
  die "the run of $adapter_name with --adapter $adapter_dir (its folder) failed: $out"
grep -q "^$adapter_name@0\.1\.0: 3 cells: 3 fail\.$" <<<"$out" || die "the $adapter_name run by its folder printed: $out"

out=$(cli audit --adapter "$adapter_pkg" --framework "$adapter_name" --cells 4 --seed 1 --jobs 1 --quiet 2>&1) ||
  die "audit of $adapter_name failed: $out"
grep -q '^4 of 4 audited cells agreed' <<<"$out" || die "audit of $adapter_name: $out"

cell="$adapter_name@0.1.0/resume/memory/double-resume/at-most-once"
out=$(cli replay --adapter "$adapter_pkg" adapter.json --cell "$cell" 2>&1) || die "replay of $cell failed: $out"
grep -q '^Reproduced' <<<"$out" || die "replay of $cell did not reproduce: $out"

# The scaffold's repro: a standalone script over the toy alone (its ./runtime entry, found in this folder's
# node_modules where the adapter is installed), which shows the bug: exit 1.
cli repro --adapter "$adapter_pkg" adapter.json --cell "$cell" --out adapter-repro >"$work/adapter-repro.log" 2>&1 ||
  { cat "$work/adapter-repro.log" >&2; die "repro of $cell failed"; }
for file in package.json repro.mjs README.md; do [ -f "adapter-repro/$file" ] || die "repro of $cell wrote no $file"; done
out=$(cd adapter-repro && node repro.mjs 2>&1)
status=$?
[ "$status" -eq 1 ] && grep -q '^BUG: the approval was not kept\.$' <<<"$out" || die "the standalone repro of $cell did not show the bug (exit $status): $out"
took

printf '\npack-smoke: ok, in %ss\n' "$((SECONDS - started))"
