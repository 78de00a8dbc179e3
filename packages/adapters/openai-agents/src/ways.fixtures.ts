// Runs one of a scenario's adversary choices to the end, in program order, and judges the history: how a test asks
// "what does this runtime do when the holder re-points the approval?" rather than "what is the shortest failure?".
import { PROPERTIES, runWorld, SCENARIOS, type Adapter, type PropertyId, type Selector } from '@approval-conformance/core';

export async function runWay(
  adapter: Adapter,
  wiring: string,
  scenarioId: string,
  way: { gate: string; choice: number },
  property: PropertyId,
  store = 'memory',
) {
  const scenario = SCENARIOS.get(scenarioId as never)!;
  const selector: Selector = {
    next(pending) {
      const chosen = pending.find((g) => g.id === way.gate);
      if (chosen) return { gate: chosen.id, choice: way.choice };
      const first = pending[0];
      return first ? { gate: first.id, choice: 0 } : 'stop';
    },
  };
  const run = await runWorld({ adapter, wiring, store, scenario }, selector);
  if (run.status !== 'complete') throw new Error(`the run ended ${run.status}: ${run.reason ?? ''}`);
  return { ...PROPERTIES[property](run.history.events), errors: run.turnErrors.map((e) => ('message' in e ? e.message : e.status)) };
}
