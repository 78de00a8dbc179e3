// A framework version's units, and the cells each yields: not-applicable with the reason, or an exploration's
// verdicts. Shared by the worker process and by tests that run a unit in-process.
import { exploreCell, runsOn, SCENARIOS, type Adapter, type ExploreOptions, type PropertyId, type ScenarioId } from '@approval-conformance/core';
import { cellId, type ResultCell } from '../results.js';
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

export async function runUnit(adapter: Adapter, unit: Unit, options: ExploreOptions): Promise<ResultCell[]> {
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
  const result = await exploreCell({ adapter, wiring, store, scenario: { ...SCENARIOS.get(scenario)!, properties } }, options);
  const ms = Math.round(performance.now() - started);
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
