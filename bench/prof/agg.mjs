// Aggregates a --cpu-prof .cpuprofile: self and total time by category (core, adapter, deps, node internals), function
// and file. usage: [FROM=exploreExhaustive] node bench/prof/agg.mjs <file.cpuprofile> [top]. FROM keeps only the
// samples from the first one under that function on (the cell, not the module loading).
import { readFileSync } from 'node:fs';
const prof = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const top = Number(process.argv[3] ?? 15);
const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
// self time per node from samples/timeDeltas
const self = new Map();
let total = 0;
// only samples from the first one under exploreExhaustive on (the cell, not the process start)
let from = 0;
const under = (id, name) => { for (let x = id; x !== undefined; x = parent.get(x)) if (nodes.get(x).callFrame.functionName === name) return true; return false; };
if (process.env.FROM) { from = prof.samples.findIndex((s) => under(s, process.env.FROM)); console.log(`from sample ${from} of ${prof.samples.length}`); }
for (let i = from; i < prof.samples.length; i++) {
  const dt = prof.timeDeltas[i] ?? 0; total += dt;
  self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + dt);
}
const cat = (n) => {
  const u = n.callFrame.url;
  if (!u) return n.callFrame.functionName ? `(native) ${n.callFrame.functionName}` : '(native)';
  if (u.startsWith('node:')) return 'node-internal';
  if (u.includes('/packages/core/')) return 'core';
  if (u.includes('/packages/adapters/')) return 'adapter';
  if (u.includes('/packages/')) return 'our-other';
  if (u.includes('tsx') || u.includes('esbuild')) return 'tsx';
  if (u.includes('node_modules')) return 'deps';
  return 'other';
};
const short = (u) => u.replace(/^file:\/\//, '').replace(/.*\/node_modules\/\.pnpm\/([^/]+)\/node_modules\//, '$1:').replace(`${process.cwd()}/`, '');
const fkey = (n) => `${n.callFrame.functionName || '(anon)'} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
const selfFn = new Map(), selfFile = new Map(), selfCat = new Map(), totFn = new Map(), totFile = new Map(), totCat = new Map();
for (const [id, t] of self) {
  const n = nodes.get(id);
  add(selfFn, fkey(n), t); add(selfFile, short(n.callFrame.url) || '(native)', t); add(selfCat, cat(n), t);
  // total: charge every distinct ancestor key once
  const seenF = new Set(), seenFi = new Set(), seenC = new Set();
  for (let x = id; x !== undefined; x = parent.get(x)) {
    const m = nodes.get(x);
    const k = fkey(m), fi = short(m.callFrame.url) || '(native)', c = cat(m);
    if (!seenF.has(k)) { seenF.add(k); add(totFn, k, t); }
    if (!seenFi.has(fi)) { seenFi.add(fi); add(totFile, fi, t); }
    if (!seenC.has(c)) { seenC.add(c); add(totCat, c, t); }
  }
}
const pr = (title, m, k = top) => {
  console.log(`\n== ${title} (total ${(total / 1e6).toFixed(2)} s)`);
  for (const [key, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, k)) console.log(`${(t / 1e6).toFixed(2).padStart(7)} s ${(100 * t / total).toFixed(1).padStart(5)}%  ${key}`);
};
pr('self by category', selfCat, 20); pr('total by category', totCat, 20);
pr('self by function', selfFn); pr('total by function', totFn, 30);
pr('self by file', selfFile); pr('total by file (core+adapter)', new Map([...totFile].filter(([k]) => k.includes('packages/'))), 25);
