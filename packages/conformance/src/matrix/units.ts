// A framework version's units, and the cells each yields: not-applicable with the reason, or an exploration's
// verdicts. Shared by the worker process and by tests that run a unit in-process.
import {
  exploreCell,
  runsOn,
  SCENARIOS,
  type Adapter,
  type CellCheckpoints,
  type ExploreOptions,
  type PropertyId,
  type ScenarioId,
} from '@approval-conformance/core';
import { cellId, type ResultCell } from '../results.js';
import { readCheckpoint, writeCheckpoint } from './checkpoints.js';
import { unitKey, type Unit, type WorkerTask } from './protocol.js';

/** The properties a unit of `scenario` checks: the scenario's own, narrowed by --property. */
export function unitProperties(scenario: ScenarioId, filters: { readonly properties?: readonly PropertyId[] | undefined }): PropertyId[] {
  return SCENARIOS.get(scenario)!.properties.filter((p) => filters.properties?.includes(p) ?? true);
}

/** The units of `adapter` the task's filters select, in a stable order: scenario, then wiring, then store. */
export function planUnits(adapter: Adapter, filters: WorkerTask['filters']): Unit[] {
  const wirings = adapter.wirings.map((w) => w.id).filter((w) => filters.wirings?.includes(w) ?? true);
  const stores = adapter.stores.filter((s) => filters.stores?.includes(s) ?? true);
  return filters.scenarios.flatMap((scenario) => {
    const properties = unitProperties(scenario, filters);
    if (properties.length === 0) return [];
    return wirings.filter((wiring) => runsOn(SCENARIOS.get(scenario)!, wiring)).flatMap((wiring) =>
      stores.map((store) => ({
        key: unitKey({ wiring, store, scenario }),
        wiring,
        store,
        scenario,
        properties,
        ...(adapter.applicability(scenario, wiring, store).applicable ? {} : { notApplicable: true as const }),
      })),
    );
  });
}

/** Where a unit saves its checkpoints, and how often; and where it says so. */
export interface UnitSaving {
  readonly file: string;
  /** The unit's key (keys.ts): a checkpoint saved under another is not gone on from. */
  readonly key: string;
  /** Go on from the checkpoint in `file`, if it has the key. */
  readonly resume: boolean;
  /** Milliseconds between saves (0: after every schedule, for tests). */
  readonly everyMs: number;
  /** Milliseconds between lines saying how far the unit has got. */
  readonly sayEveryMs: number;
  readonly log: (line: string) => void;
}

/**
 * Saves the exploration between runs once `everyMs` has passed since the last save, and says how far it has got once
 * `sayEveryMs` has. The clock decides only when to save, never what is explored. A save that fails is said once and
 * given up: the unit runs on as if it saved nothing.
 */
function checkpointsFor(unit: Unit, saving: UnitSaving, started: number): { checkpoints: CellCheckpoints; before: number } {
  const found = saving.resume ? readCheckpoint(saving.file, saving.key) : undefined;
  const name = unit.key.replace(/\//g, ' ');
  if (found && 'none' in found) {
    if (found.none !== 'no checkpoint') saving.log(`${name}: ${found.none}`);
  } else if (found) {
    const { schedules, bounded, pruned } = found.cell.exploration;
    saving.log(`${name}: going on from its checkpoint (${schedules + bounded + pruned} schedules run before, in ${Math.round(found.ms / 1000)} s)`);
  }
  const resumed = found && !('none' in found) ? found : undefined;
  const before = resumed?.ms ?? 0;
  let savedAt = performance.now();
  let saidAt = savedAt;
  let broken = false;
  const save: CellCheckpoints['save'] = (take) => {
    const now = performance.now();
    if (broken || now - savedAt < saving.everyMs) return;
    savedAt = now;
    const cell = take();
    try {
      writeCheckpoint(saving.file, { checkpoint: 1, key: saving.key, ms: before + Math.round(now - started), cell });
    } catch (error) {
      broken = true;
      saving.log(`${name}: could not save a checkpoint (${error instanceof Error ? error.message : String(error)}); it runs on without`);
      return;
    }
    if (now - saidAt >= saving.sayEveryMs) {
      saidAt = now;
      const { schedules, bounded, pruned } = cell.exploration;
      saving.log(`${name}: ${schedules + bounded + pruned} schedules so far, still running (checkpoint saved)`);
    }
  };
  return { checkpoints: { ...(resumed ? { resume: resumed.cell } : {}), save }, before };
}

export async function runUnit(adapter: Adapter, unit: Unit, options: ExploreOptions, saving?: UnitSaving): Promise<ResultCell[]> {
  const { wiring, store, scenario, properties } = unit;
  const base = { framework: adapter.framework, version: adapter.version, wiring, store, scenario };
  const applicable = adapter.applicability(scenario, wiring, store);
  if (!applicable.applicable) {
    return properties.map((property) => ({
      id: cellId({ ...base, property }),
      ...base,
      property,
      verdict: 'not-applicable' as const,
      mode: options.mode ?? 'exhaustive',
      exhaustive: false,
      schedules: 0,
      reason: applicable.reason,
    }));
  }
  const started = performance.now();
  const { checkpoints, before } = saving ? checkpointsFor(unit, saving, started) : { checkpoints: {}, before: 0 };
  const result = await exploreCell({ adapter, wiring, store, scenario: { ...SCENARIOS.get(scenario)!, properties } }, options, checkpoints);
  // The checkpoint stays until the runner has saved these cells (commands/run.ts): a run interrupted now keeps it.
  const ms = before + Math.round(performance.now() - started);
  const findings = result.findings.length > 0 ? { findings: result.findings } : {};
  return result.verdicts.map((v) => ({
    id: cellId({ ...base, property: v.property }),
    ...base,
    mode: result.mode,
    ...v,
    ...findings,
    ms,
  }));
}
