#!/usr/bin/env bash
# Renders the HTML report in headless Chromium (Debian's chromium package; installed with apt when missing and run
# as root) and checks what the browser built: a sequence diagram for a real counterexample, its story beside it,
# and no script element, even for a story that contains "<script>". Writes screenshots to a folder.
#
#   bash scripts/check-html-report.sh [REPORTS_DIR] [SCREENSHOT_DIR]     (defaults: reports, .ci/out/screenshots)
set -euo pipefail
cd "$(dirname "$0")/.."
reports=$(realpath "${1:-reports}")
mkdir -p "${2:-.ci/out/screenshots}"
shots=$(realpath "${2:-.ci/out/screenshots}")

if ! command -v chromium >/dev/null; then
  [ "$(id -u)" = 0 ] || { echo "check-html-report: chromium is missing; install Debian's chromium package" >&2; exit 2; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
fi
browser() {
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$(mktemp -d)" "$@" 2>/dev/null
}
fail() { echo "check-html-report: $*" >&2; exit 1; }

# 1. A real counterexample from the reports: the first version page with a diagram.
page=$(ls "$reports"/html/*.html 2>/dev/null | head -1)
[ -n "$page" ] || fail "no $reports/html/*.html; run 'pnpm conformance' (or 'report') first"
dom=$(browser --dump-dom "file://$page")
grep -q '<svg[^>]*class="sequence"' <<<"$dom" || fail "$page: no sequence diagram in the rendered page"
grep -q '<ol class="story">' <<<"$dom" || fail "$page: no story in the rendered page"
! grep -qi '<script' <<<"$dom" || fail "$page: the rendered page has a script element"
browser --screenshot="$shots/counterexample.png" --window-size=1400,1600 "file://$page"
browser --screenshot="$shots/index.png" --window-size=1400,900 "file://$reports/index.html"

# 2. A story that says <script>: rendered as text, never run.
tmp=$(mktemp -d)
node -e '
  const fs = require("fs");
  const evil = "<script>document.title=\"pwned\"</script>";
  const cell = { id: "ai@6.0.0/w/memory/tamper/integrity", framework: "ai", version: "6.0.0", wiring: "w", store: "memory",
    scenario: "tamper", property: "integrity", verdict: "fail", mode: "exhaustive", exhaustive: true, schedules: 3,
    counterexample: { steps: 1, schedule: "t1:1", story: ["holder tampered with a1: " + evil], explanation: evil, witness: [0],
      history: [{ kind: "tamper", actor: "holder", approvalId: "a1", what: evil }] } };
  fs.writeFileSync(process.argv[1], JSON.stringify({ schemaVersion: 2, cells: [cell] }));
' "$tmp/results.json"
pnpm --silent conformance report "$tmp/results.json" >/dev/null
dom=$(browser --dump-dom "file://$tmp/html/ai@6.0.0.html")
grep -q 'holder tampered with a1: &lt;script&gt;document.title="pwned"&lt;/script&gt;' <<<"$dom" || fail "the <script> story is not shown as text"
! grep -qi '<script' <<<"$dom" || fail "the <script> story became a script element"
! grep -q '<title>pwned</title>' <<<"$dom" || fail "the <script> story ran"
browser --screenshot="$shots/escaped.png" --window-size=1000,500 "file://$tmp/html/ai@6.0.0.html"

echo "check-html-report: ok ($page rendered with its diagram; a <script> story stays text). Screenshots in $shots/."
