// Which cells an audit checks: a seeded sample of the default matrix's units (a scenario on a wiring and store of one
// framework version), weighted toward what the reductions are most likely to get wrong: two turns at once, where
// releases race; the newest rules (the guard's and app kinds, Mastra's exact accesses, fake timers and changes in
// place, the symmetry veto on two processes, the backend without keys, the frameworks' own fixes with their reads
// and writes in one gate and their app-state Sets); and the newest version of each framework.
// Every framework in the population gets at least one cell when there are enough (whatever the seed), then the rest
// go by weight.
import { SCENARIOS, seededRandom, type ScenarioId } from '@approval-conformance/core';
import { frameworks } from '../registry.js';

export interface AuditUnit {
  readonly framework: string;
  readonly version: string;
  readonly wiring: string;
  readonly store: string;
  readonly scenario: ScenarioId;
  /** Schedules its reduced exploration ran, where known (the published results). */
  readonly schedules?: number;
  /** Whether it is the newest of its framework's versions in the population. */
  readonly newest?: boolean;
  /** Whether its wiring is the framework's own fix (`WiringInfo.remedy`). */
  readonly remedy?: boolean;
}

export const auditUnitId = (u: AuditUnit) => `${u.framework}@${u.version}/${u.wiring}/${u.store}/${u.scenario}`;

/** How much more likely a unit is to be chosen than a plain one. */
export function weightOf(u: AuditUnit): number {
  let weight = 1;
  if (SCENARIOS.get(u.scenario)?.symmetric !== undefined || u.scenario === 'overlapping-turns') weight *= 3;
  if (u.wiring.startsWith('guarded-')) weight *= 2;
  if (SCENARIOS.get(u.scenario)?.guardedOnly) weight *= 2;
  // The adapter's own say (Mastra's: its accesses are declared one by one where its code re-reads).
  weight *= frameworks().find((f) => f.name === u.framework)?.auditWeight ?? 1;
  if (u.store === 'libsql-shared') weight *= 2;
  if (u.remedy) weight *= 2;
  if (u.newest) weight *= 1.5;
  // A space that large is only ever sampled unreduced: still worth a look, less often.
  if ((u.schedules ?? 0) > 5000) weight *= 0.3;
  return weight;
}

/**
 * `n` units of `population`, chosen with seed `seed`: the same seed and population give the same cells, in the order
 * chosen. Weighted sampling without replacement (each unit keyed by u^(1/w), the largest keys taken).
 */
export function selectUnits(population: readonly AuditUnit[], n: number, seed: number): AuditUnit[] {
  const random = seededRandom(seed);
  const keyed = population.map((unit) => ({ unit, key: Math.pow(random(), 1 / weightOf(unit)) }));
  keyed.sort((a, b) => b.key - a.key || auditUnitId(a.unit).localeCompare(auditUnitId(b.unit)));
  const chosen: AuditUnit[] = [];
  // One per framework first, each its best-keyed unit, so that every framework is checked. The frameworks go in an
  // order of the seed's, drawn after the keys: with fewer cells than frameworks (CI's six), which are left out varies
  // from seed to seed, each as likely as another, rather than always the last by name.
  const frameworks = [...new Set(population.map((u) => u.framework))].sort();
  const order = new Map(frameworks.map((f) => [f, random()]));
  frameworks.sort((a, b) => order.get(a)! - order.get(b)!);
  for (const framework of frameworks) {
    const first = keyed.find((k) => k.unit.framework === framework);
    if (first && chosen.length < n) chosen.push(first.unit);
  }
  for (const { unit } of keyed) {
    if (chosen.length >= n) break;
    if (!chosen.includes(unit)) chosen.push(unit);
  }
  return chosen;
}
