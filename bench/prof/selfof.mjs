// Self time of the functions whose url matches a pattern: node bench/prof/selfof.mjs <file> <regex> [top]
import { readFileSync } from 'node:fs';
const [file, pat, k = 25] = process.argv.slice(2);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map(); let total = 0;
for (let i = 0; i < prof.samples.length; i++) { const dt = prof.timeDeltas[i] ?? 0; total += dt; self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + dt); }
const m = new Map();
for (const [id, t] of self) { const n = nodes.get(id); const u = n.callFrame.url; if (!new RegExp(pat).test(u + ' ' + n.callFrame.functionName)) continue;
  const key = `${n.callFrame.functionName || '(anon)'} ${u.replace(/.*\/(packages|node_modules)\//, '')}:${n.callFrame.lineNumber + 1}:${n.callFrame.columnNumber}`; m.set(key, (m.get(key) ?? 0) + t); }
let sum = 0; for (const t of m.values()) sum += t;
console.log(`matching self ${(sum / 1e6).toFixed(2)} s of ${(total / 1e6).toFixed(2)} s`);
for (const [key, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, +k)) console.log(`${(t / 1e6).toFixed(3).padStart(7)} s  ${key}`);
