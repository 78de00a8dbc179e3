// `run --reuse RESULTS`: which units of this run can be copied from RESULTS instead of run, and why the others run.
// A unit is copied when its key (keys.ts) is the one RESULTS recorded for it and it finished there (no error or
// timeout); a framework version all of whose units are copied starts no worker at all.
import { runsOn, SCENARIOS, type ExploreOptions } from '@approval-conformance/core';
import { unitProperties } from './units.js';
import type { ResultCell, ResultsFile, ResultTarget } from '../results.js';
import type { Target } from './pool.js';
import { unitKey, type WorkerTask } from './protocol.js';
import { unitDigest, type KeyParts } from './keys.js';

export interface Reused {
  /** The target's record in RESULTS, when every unit of it is copied (its worker does not start). */
  readonly whole?: ResultTarget;
  /** Copied units (`wiring/store/scenario`) and their cells. */
  readonly units: ReadonlyMap<string, readonly ResultCell[]>;
  /** Why units of it run that RESULTS has: undefined when none does, or those that run are simply not in RESULTS. */
  readonly why?: string;
}

const keyOf = (t: { framework: string; version: string }) => `${t.framework}@${t.version}`;

/** Whether a unit explored with `options` checks contents: unset, core checks them (keys.ts says so too). */
const checksContents = (options: ExploreOptions) => options.checkContents ?? true;

/** Why the parts of a key differ between RESULTS' record of a version and this run, in words; undefined if they agree. */
function partsDiffer(before: KeyParts | undefined, now: KeyParts): string | undefined {
  if (!before) return 'RESULTS recorded no keys for it (written before --reuse existed, or by a local build)';
  if (before.suite !== now.suite) return "the suite's code or lockfile changed since";
  if (before.node !== now.node) return `Node is ${now.node} here, ${before.node} there`;
  if (before.adapter !== now.adapter) return 'its adapter changed since';
  if (before.tree !== now.tree) return 'its installed tree differs from the one there';
  return undefined;
}

/**
 * What of `target` this run can copy from `results`. `parts` is this run's key parts for the version, or why it has
 * none (a local build, a version not installed here).
 */
export function reuseFor(
  results: ResultsFile,
  target: Target,
  parts: KeyParts | string,
  filters: WorkerTask['filters'],
  options: ExploreOptions,
): Reused {
  if (typeof parts === 'string') return { units: new Map(), why: parts };
  const before = results.targets?.find((t) => keyOf(t) === keyOf(target));
  if (!before || before.error !== undefined) return { units: new Map(), why: before ? 'it would not load there' : 'RESULTS does not have it' };
  const differ = partsDiffer(before.keys, parts);
  if (differ) return { units: new Map(), why: differ };

  const scope = { ...filters, ...target.only };
  const byUnit = new Map<string, ResultCell[]>();
  for (const cell of results.cells) {
    if (keyOf(cell) !== keyOf(target)) continue;
    byUnit.set(unitKey(cell), [...(byUnit.get(unitKey(cell)) ?? []), cell]);
  }
  const units = new Map<string, readonly ResultCell[]>();
  let unfinished = 0;
  let otherOptions = 0;
  /** Units whose key is this run's but for checking contents: the option named, as `run` changed its default. */
  let otherContents = 0;
  for (const [key, cells] of byUnit) {
    const { wiring, store, scenario } = cells[0]!;
    const spec = SCENARIOS.get(scenario);
    // Only the units this run would run: its filters, the version's own narrowing, the scenario's wirings.
    if (!spec || !scope.scenarios.includes(scenario) || !(scope.wirings?.includes(wiring) ?? true) || !(scope.stores?.includes(store) ?? true)) continue;
    if (!runsOn(spec, wiring)) continue;
    const properties = unitProperties(scenario, filters);
    if (properties.length === 0) continue;
    const digest = unitDigest(parts, { wiring, store, scenario, properties }, options);
    const same = cells.length === properties.length && properties.every((p) => cells.some((c) => c.property === p && c.key === digest));
    if (!same) {
      const flipped = unitDigest(parts, { wiring, store, scenario, properties }, { ...options, checkContents: !checksContents(options) });
      if (cells.some((c) => c.key === flipped)) otherContents++;
      else otherOptions++;
    } else if (cells.some((c) => c.verdict === 'error' || c.verdict === 'timeout')) unfinished++;
    else units.set(key, cells);
  }
  // Every unit of the version's plan copied: the plan is the same when RESULTS asked for it the same way.
  const samePlan =
    before.spec === target.spec &&
    before.units !== undefined &&
    units.size === before.units &&
    JSON.stringify(planFilters(results.options)) === JSON.stringify(planFilters(filters));
  if (samePlan) return { whole: before, units };
  const checked = checksContents(options);
  const whys = [
    ...(otherContents
      ? [`${otherContents} unit${otherContents === 1 ? '' : 's'} ran ${checked ? 'without checking contents there (this run checks them)' : 'checking contents there (this run does not: --no-check-contents)'}`]
      : []),
    ...(otherOptions ? [`${otherOptions} unit${otherOptions === 1 ? '' : 's'} ran with other options or properties there`] : []),
    ...(unfinished ? [`${unfinished} ended in error or timeout there`] : []),
  ];
  return { units, ...(whys.length ? { why: whys.join('; ') } : units.size ? {} : { why: 'none of its units is in RESULTS' }) };
}

/** The filters that shape a version's plan, as RESULTS records them and as this run has them. */
function planFilters(f: { scenarios?: readonly string[]; wirings?: readonly string[]; stores?: readonly string[]; properties?: readonly string[] } | undefined) {
  return { scenarios: f?.scenarios ?? null, wirings: f?.wirings ?? null, stores: f?.stores ?? null, properties: f?.properties ?? null };
}
