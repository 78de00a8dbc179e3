// How long the default matrix takes split over N machines (`run --shard I/N`), estimated from the per-unit times of a
// finished run and one measurement on this machine: how long loading the versions takes.
//
//   pnpm bench:shards                         1, 4 and 16 shards, from reports/results.json, 2 jobs per machine
//   pnpm bench:shards --results FILE --shards 1,2,8 --jobs 4
//
// Each shard plans the whole matrix (every version loaded once, `jobs` at a time, to list its units), takes its share
// as `run --shard` deals it, and runs it the way the pool does: versions costliest first, `jobs` at a time, each
// loaded again in its worker. The estimate is that shard's exploration time plus those loads; the slowest shard is
// the matrix's time. Installing the workspace on a fresh CI machine comes on top (about 1.5 min here).
import { readFile } from 'node:fs/promises';
import { SCENARIOS, type ScenarioId } from '@approval-conformance/core';
import { CostEstimate } from '../packages/conformance/src/matrix/estimate.js';
import { planTargets, type Target } from '../packages/conformance/src/matrix/pool.js';
import { assignShards, unitsOf } from '../packages/conformance/src/matrix/shard.js';
import type { ResultsFile } from '../packages/conformance/src/results.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at < 0 ? fallback : (args[at + 1] ?? fallback);
};
const file = flag('--results', 'reports/results.json');
const counts = flag('--shards', '1,4,16').split(',').map(Number);
const jobs = Number(flag('--jobs', '2'));

const results = JSON.parse(await readFile(file, 'utf8')) as ResultsFile;
const estimate = new CostEstimate(results.cells);
const unitKey = (c: { wiring: string; store: string; scenario: string }) => `${c.wiring}/${c.store}/${c.scenario}`;
const plan = (results.planned ?? []).map((target) => ({
  target,
  units: [...new Set(results.cells.filter((c) => `${c.framework}@${c.version}` === target).map(unitKey))],
}));
const ms = new Map(results.cells.filter((c) => c.ms !== undefined).map((c) => [`${c.framework}@${c.version}/${unitKey(c)}`, c.ms!]));
const cost = (target: string, unit: string) => ms.get(`${target}/${unit}`) ?? 0;

// Loading every version once, `jobs` at a time, as the plan phase of a shard does: measured here.
const targets: Target[] = plan.map(({ target }) => {
  const at = target.lastIndexOf('@');
  return { framework: target.slice(0, at), version: target.slice(at + 1), spec: target };
});
const started = performance.now();
await planTargets(targets, {
  jobs,
  timeoutMs: undefined,
  filters: { scenarios: (results.options?.scenarios ?? [...SCENARIOS.keys()]) as ScenarioId[] },
  options: { mode: 'exhaustive' },
  strictFilters: false,
});
const planMs = performance.now() - started;
const loadMs = (planMs * Math.min(jobs, targets.length)) / targets.length;

/** `jobs` lanes taking the next item as each frees: when the last one ends. */
function lanes(items: readonly number[]): number {
  const free = new Array<number>(Math.max(1, jobs)).fill(0);
  for (const item of items) {
    const lane = free.indexOf(Math.min(...free));
    free[lane]! += item;
  }
  return Math.max(...free);
}

const s = (x: number) => `${(x / 1000).toFixed(0)} s`;
const clock = (x: number) => `${Math.floor(x / 60_000)} min ${String(Math.round((x % 60_000) / 1000)).padStart(2, '0')} s`;
console.log(`${plan.length} versions, ${plan.reduce((n, p) => n + p.units.length, 0)} units, ${s([...ms.values()].reduce((a, b) => a + b, 0) / 1)} of exploration (${file}); loading all versions, ${jobs} at a time: ${s(planMs)} (${s(loadMs)} each)`);
console.log(`\n| shards | slowest shard (estimate) | its units | its versions |\n|---|---|---|---|`);
for (const n of counts) {
  const split = assignShards(plan, n, cost);
  const shards = Array.from({ length: n }, (_, i) => {
    const mine = unitsOf(split, i + 1);
    const versions = [...mine.entries()]
      .map(([target, units]) => ({ target, ms: [...units].reduce((t, u) => t + cost(target, u), 0) }))
      .sort((a, b) => {
        const [fa, va] = [a.target.slice(0, a.target.lastIndexOf('@')), a.target.slice(a.target.lastIndexOf('@') + 1)];
        const [fb, vb] = [b.target.slice(0, b.target.lastIndexOf('@')), b.target.slice(b.target.lastIndexOf('@') + 1)];
        return estimate.version(fb, vb) - estimate.version(fa, va);
      });
    // With one shard there is no plan phase: `run` without --shard loads each version once.
    const wall = (n > 1 ? planMs : 0) + lanes(versions.map((v) => loadMs + v.ms));
    return { wall, units: [...mine.values()].reduce((t, u) => t + u.size, 0), versions: mine.size };
  });
  const slowest = shards.reduce((a, b) => (b.wall > a.wall ? b : a));
  console.log(`| ${n} | ${clock(slowest.wall)} | ${slowest.units} | ${slowest.versions} |`);
}
