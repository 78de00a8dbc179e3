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

step "the README's programmatic API example, with node"
cp "$repo/packages/conformance/examples/run.mjs" . || die "no examples/run.mjs"
out=$(node run.mjs) || die "the API example failed: $out"
grep -q '^39 cells, 18 fail$' <<<"$out" || die "the API example printed: $out"
grep -q '^read back 39 cells$' <<<"$out" || die "the API example did not read its results back: $out"
grep -q 'export declare function run(' node_modules/approval-conformance/dist/api.d.ts || die "dist has no typed run()"
took

printf '\npack-smoke: ok, in %ss\n' "$((SECONDS - started))"
