// Total (inclusive) and self time of the functions whose url matches a pattern, anonymous ones named by their caller:
// node bench/prof/totof.mjs <file> <regex> [top]. Columns are into tsx output (one line per file).
import { readFileSync } from 'node:fs';
const [file, pat, k = 30] = process.argv.slice(2);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map(); for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const key = (x) => { const n = nodes.get(x); const f = n.callFrame; let name = f.functionName; if (!name) { const p = parent.get(x); name = `anon<${p !== undefined ? nodes.get(p).callFrame.functionName || 'anon' : '-'}`; } return `${name} ${f.url.replace(/.*\/(packages|node_modules)\//, '')}:${f.columnNumber}`; };
const tot = new Map(), self = new Map(); let total = 0;
for (let i = 0; i < prof.samples.length; i++) { const dt = prof.timeDeltas[i] ?? 0; total += dt; const seen = new Set(); let first = true;
  for (let x = prof.samples[i]; x !== undefined; x = parent.get(x)) { const n = nodes.get(x); if (!new RegExp(pat).test(n.callFrame.url)) { first = false; continue; } const kk = key(x); if (first) self.set(kk, (self.get(kk) ?? 0) + dt); first = false; if (seen.has(kk)) continue; seen.add(kk); tot.set(kk, (tot.get(kk) ?? 0) + dt); } }
for (const [kk, t] of [...tot].sort((a, b) => b[1] - a[1]).slice(0, +k)) console.log(`${(t / 1e6).toFixed(3).padStart(7)} total ${((self.get(kk) ?? 0) / 1e6).toFixed(3).padStart(6)} self  ${kk}`);
