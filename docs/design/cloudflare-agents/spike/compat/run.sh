#!/bin/bash
# Resolve (lockfile only, no download) candidate ai-chat/agents/ai combos; strict peer deps so conflicts fail.
combos=(
 "@cloudflare/ai-chat@0.0.6 agents@0.3.10 ai@6"
 "@cloudflare/ai-chat@0.1.2 agents@0.5.0 ai@6"
 "@cloudflare/ai-chat@0.4.6 agents@0.12.0 ai@6"
 "@cloudflare/ai-chat@0.9.4 agents@0.17.1 ai@6"
 "@cloudflare/ai-chat@0.10.2 agents@0.20.1 ai@7"
 "@cloudflare/ai-chat@0.12.0 agents@0.24.0 ai@7"
 "@cloudflare/ai-chat@0.12.0 agents@0.32.0 ai@7"
 "@cloudflare/ai-chat@0.12.2 agents@0.32.0 ai@7"
 "@cloudflare/ai-chat@0.12.2 agents@0.32.0 ai@6"
 "@cloudflare/ai-chat@0.12.2 agents@0.24.0 ai@7"
)
for c in "${combos[@]}"; do
  d=$(echo "$c" | tr ' @/' '___'); rm -rf "$d"; mkdir "$d"; cd "$d"; echo '{"name":"x","private":true}' > package.json
  if npm install --package-lock-only --ignore-scripts --strict-peer-deps --no-audit --no-fund $c zod@4 > log 2>&1; then
    echo "OK   $c -> $(node -e 'const l=require("./package-lock.json").packages;console.log(["agents","ai","@cloudflare/ai-chat","@ai-sdk/provider"].map(p=>p+"@"+(l["node_modules/"+p]||{}).version).join(" "))')"
  else echo "FAIL $c :: $(grep -m2 -E 'ERESOLVE|Could not resolve|peer|notarget' log | tr '\n' ' ' | cut -c1-200)"; fi
  cd ..
done
