# Sourced by pack-smoke.sh and release-check.sh: better-sqlite3's binary for an install made with scripts off.
#
#   better_sqlite3_binary FROM_PACKAGE_DIR REUSE LOG
#
# In the current folder (an app whose node_modules holds better-sqlite3): when REUSE is true and the workspace package
# in FROM_PACKAGE_DIR resolves the same better-sqlite3 version with a built binary, that binary stands in for the
# prebuilt one a user's install downloads (this machine reaches only the registry); else it is built from source
# (`npm rebuild --build-from-source`, its output in LOG) against the Node headers installed with Node. Then it must
# load. Uses the caller's step, took and die.
better_sqlite3_binary() {
  local from=$1 reuse=$2 log=$3 installed workspace nodedir
  installed=$(node -p 'require("better-sqlite3/package.json").version') || die "better-sqlite3 is not installed in $PWD"
  workspace=$(cd "$from" && node -p 'require.resolve("better-sqlite3/package.json")' 2>/dev/null)
  if $reuse && [ -n "$workspace" ] && [ "$(node -p 'require(process.argv[1]).version' "$workspace")" = "$installed" ] &&
    [ -f "$(dirname "$workspace")/build/Release/better_sqlite3.node" ]; then
    step "better-sqlite3 $installed: the binary $from's install built, in place of the prebuilt one npm would download"
    mkdir -p node_modules/better-sqlite3/build/Release
    cp "$(dirname "$workspace")/build/Release/better_sqlite3.node" node_modules/better-sqlite3/build/Release/ || die "could not copy $from's better-sqlite3 binary"
  else
    step "build better-sqlite3 $installed from source (npm rebuild --build-from-source)"
    # The Node headers installed with Node, when they match this Node: no download (node-gyp's default is to fetch them).
    nodedir=$(node -e '
      const { readFileSync } = require("fs"); const { dirname, join } = require("path");
      for (const prefix of [join(dirname(process.execPath), ".."), "/usr", "/usr/local"]) {
        try {
          const text = readFileSync(join(prefix, "include/node/node_version.h"), "utf8");
          const part = (n) => new RegExp(`#define NODE_${n}_VERSION (\\d+)`).exec(text)[1];
          if (`v${part("MAJOR")}.${part("MINOR")}.${part("PATCH")}` === process.version) { console.log(prefix); break; }
        } catch {}
      }
    ')
    npm_config_nodedir=${npm_config_nodedir:-$nodedir} npm rebuild better-sqlite3 --build-from-source --loglevel=error >"$log" 2>&1 ||
      { tail -30 "$log" >&2; die "building better-sqlite3 failed (above, and in $log; node-gyp needs python3, make and a C++ compiler)"; }
  fi
  node -e 'new (require("better-sqlite3"))(":memory:").prepare("select 1").get()' || die "better-sqlite3 does not load in $PWD"
  took
}
