// Where idle samples fall: the stack of the last busy sample before each idle stretch.
import { readFileSync } from 'node:fs';
const prof = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map(); for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const stack = (id) => { const s = []; for (let x = id; x !== undefined; x = parent.get(x)) { const f = nodes.get(x).callFrame; s.push(`${f.functionName || '(anon)'}@${f.url.replace(/.*\/(packages|node_modules)\//, '').slice(-50)}:${f.columnNumber}`); } return s; };
const m = new Map(); let prev;
for (let i = 0; i < prof.samples.length; i++) {
  const n = nodes.get(prof.samples[i]); const dt = prof.timeDeltas[i + 1] ?? 0;
  if (n.callFrame.functionName === '(idle)') { if (prev !== undefined) { const k = stack(prev).slice(0, 6).join(' < '); m.set(k, (m.get(k) ?? 0) + dt); } }
  else prev = prof.samples[i];
}
for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`${(t / 1e6).toFixed(3)} s  ${k}`);
