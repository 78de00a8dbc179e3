import { describe, expect, it } from 'vitest';
import { assignShards, parseShard, planDigest, unitsOf } from './shard.js';

const plan = [
  { target: 'ai@6.0.326', units: ['a/memory/replay', 'a/sqlite/replay', 'b/memory/replay'] },
  { target: 'langgraph@1.7.3', units: ['n/sqlite/tamper', 'n/memory/tamper', 'n/memory/replay', 'm/memory/replay'] },
  { target: 'ai@5.0.277', units: ['*'] },
];
const costs: Record<string, number> = { 'n/sqlite/tamper': 90, 'n/memory/tamper': 40, 'n/memory/replay': 35, 'm/memory/replay': 30, 'a/memory/replay': 20, 'a/sqlite/replay': 10, 'b/memory/replay': 5 };
const cost = (_: string, unit: string) => costs[unit] ?? 0;

describe('run --shard', () => {
  it('reads I/N and refuses anything else with the form it takes', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/3', '4/3', '1/0', '1', 'a/b', '1/3/4', '-1/3', '1/1001']) {
      expect(() => parseShard(bad)).toThrow(/--shard takes I\/N/);
    }
  });

  it('gives every unit to exactly one shard, in plan order, and splits the same way every time', () => {
    const split = assignShards(plan, 3, cost, 0);
    expect(Object.keys(split)).toEqual(['ai@6.0.326', 'langgraph@1.7.3', 'ai@5.0.277']);
    for (const { target, units } of plan) expect(split[target]!.map(([unit]) => unit)).toEqual(units);
    expect(assignShards(plan, 3, cost, 0)).toEqual(split);
    const shares = [1, 2, 3].map((s) => unitsOf(split, s));
    const all = shares.flatMap((share) => [...share].flatMap(([target, units]) => [...units].map((u) => `${target}/${u}`)));
    expect(all.sort()).toEqual(plan.flatMap(({ target, units }) => units.map((u) => `${target}/${u}`)).sort());
  });

  it('balances by cost: costliest first, each to the least-loaded shard', () => {
    const split = assignShards(plan, 3, cost, 0);
    const load = [1, 2, 3].map((s) => Object.values(split).flat().filter(([, shard]) => shard === s).reduce((n, [unit]) => n + cost('', unit), 0));
    // 90 | 40 + 20 + 10 (+ the version that would not load) | 35 + 30 + 5: at most the average plus the largest unit.
    expect(load).toEqual([90, 70, 70]);
    expect(Math.max(...load)).toBeLessThanOrEqual(230 / 3 + 90);
  });

  it("gathers a version's small units on the shards that load it already, when loading costs more than they do", () => {
    // Each version has one large unit and seven small ones.
    const many = ['a@1', 'b@1'].map((target) => ({ target, units: Array.from({ length: 8 }, (_, i) => `w/memory/s${i}`) }));
    const small = (_: string, unit: string) => (unit.endsWith('s0') ? 2000 : 10);
    const versionsPerShard = (split: ReturnType<typeof assignShards>) => [1, 2].map((s) => unitsOf(split, s).size);
    expect(versionsPerShard(assignShards(many, 2, small, 0))).toEqual([2, 2]);
    expect(versionsPerShard(assignShards(many, 2, small, 1000))).toEqual([1, 1]);
  });

  it('with one shard runs everything; with more shards than units leaves some empty', () => {
    expect(Object.values(assignShards(plan, 1, cost, 0)).flat().every(([, s]) => s === 1)).toBe(true);
    const wide = assignShards(plan, 20, cost, 0);
    expect(new Set(Object.values(wide).flat().map(([, s]) => s)).size).toBe(8);
    expect(unitsOf(wide, 20).size).toBe(0);
  });

  it('names the plan by the suite, the options and the whole split', () => {
    const split = assignShards(plan, 3, cost, 0);
    const digest = planDigest('0.0.0', { mode: 'exhaustive' }, 3, split);
    expect(digest).toMatch(/^[0-9a-f]{16}$/);
    expect(planDigest('0.0.0', { mode: 'exhaustive' }, 3, split)).toBe(digest);
    expect(planDigest('0.0.1', { mode: 'exhaustive' }, 3, split)).not.toBe(digest);
    expect(planDigest('0.0.0', { mode: 'sampled' }, 3, split)).not.toBe(digest);
    expect(planDigest('0.0.0', { mode: 'exhaustive' }, 3, assignShards(plan, 3, () => 1, 0))).not.toBe(digest);
  });
});
