// `run --shard I/N`: one of N machines runs its share of the planned matrix. Every shard plans the whole matrix (every
// version's units, in order), weighs each unit by what it cost before, and deals the units out the same way:
// costliest first, each to the shard where it would end soonest (longest processing time first, counting the load of a
// version new to the shard). The same plan and costs give the same split on every machine; the split and its digest go into each shard's results, so that `merge`
// can check the shards are the parts of one plan and cover it exactly once.
import { createHash } from 'node:crypto';
import { UsageError } from '../usage-error.js';
import type { ShardInfo } from '../results.js';

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

/** `I/N`, with 1 ≤ I ≤ N. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const [index, count] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!match || count < 1 || index < 1 || index > count || count > 1000) {
    throw new UsageError(`--shard takes I/N, this machine's share of N (1 ≤ I ≤ N ≤ 1000), e.g. --shard 2/4; got '${text}'.`);
  }
  return { index, count };
}

/** A version of the plan and the keys of its units in plan order; a version that would not load has the one unit `*`. */
export interface PlannedTarget {
  readonly target: string;
  readonly units: readonly string[];
}

/** Which shard runs each unit: target → unit key → shard (1-based), in plan order. */
export type Assignment = ShardInfo['units'];

/**
 * What loading a version costs a shard that runs any of its units (milliseconds): its worker installs (from the
 * cache) and imports the framework. A constant, not a measurement, so that every machine splits alike.
 */
export const LOAD_MS = 4000;

/**
 * Deals the units out to `count` shards, balanced by `cost` (milliseconds): costliest first, each to the shard where
 * it would end soonest, counting the load of its version on a shard that has none of it yet, so that a version's
 * small units gather on few shards. Ties go by plan order, then shard.
 */
export function assignShards(plan: readonly PlannedTarget[], count: number, cost: (target: string, unit: string) => number, loadMs = LOAD_MS): Assignment {
  const units = plan.flatMap(({ target, units }) => units.map((unit) => ({ target, unit, cost: cost(target, unit) })));
  const order = units.map((_, i) => i).sort((a, b) => units[b]!.cost - units[a]!.cost || a - b);
  const load = new Array<number>(count).fill(0);
  const loaded = Array.from({ length: count }, () => new Set<string>());
  const shardOf = new Array<number>(units.length);
  for (const i of order) {
    const { target, cost } = units[i]!;
    const end = (s: number) => load[s]! + cost + (loaded[s]!.has(target) ? 0 : loadMs);
    let best = 0;
    for (let s = 1; s < count; s++) if (end(s) < end(best)) best = s;
    load[best] = end(best);
    loaded[best]!.add(target);
    shardOf[i] = best + 1;
  }
  const assignment: Record<string, [string, number][]> = {};
  units.forEach(({ target, unit }, i) => (assignment[target] ??= []).push([unit, shardOf[i]!]));
  for (const { target } of plan) assignment[target] ??= [];
  return assignment;
}

/** The unit keys of `shard`, per target; targets with none of its units are left out. */
export function unitsOf(assignment: Assignment, shard: number): Map<string, Set<string>> {
  const mine = new Map<string, Set<string>>();
  for (const [target, units] of Object.entries(assignment)) {
    const keys = units.filter(([, s]) => s === shard).map(([unit]) => unit);
    if (keys.length > 0) mine.set(target, new Set(keys));
  }
  return mine;
}

/** What identifies the plan a shard is part of: the suite, the options, and the whole split. */
export function planDigest(suite: string, options: unknown, count: number, assignment: Assignment): string {
  const text = JSON.stringify({ suite, options, count, assignment: Object.entries(assignment).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) });
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
