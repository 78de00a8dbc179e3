// The approval guard on the reference runtime's most unsafe switch setting (spend recorded after the effect, checked
// on the restored snapshot, turns not serialised): the guard alone makes every property hold in every scenario, on
// every store that outlives a crash. The one cell it cannot fix is a crash on the memory store, which takes the
// guard's record with the process: the retry finds nothing, so the user is never told the action ran. Against a tool
// that takes no idempotency key the guard keeps at-most-once by its own compare-and-set; a crash between the effect
// and recording its outcome then leaves the user told it may have run, a gap the scenario allows.
import { describe, expect, it } from 'vitest';
import { exploreCell, SCENARIOS, type ScenarioId } from '@approval-conformance/core';
import { referenceAdapter } from './adapter.js';

async function verdicts(scenario: ScenarioId, wiring: string, store: string) {
  const cell = await exploreCell({ adapter: referenceAdapter, wiring, store, scenario: SCENARIOS.get(scenario)! });
  expect(cell.exhausted).toBe(true);
  return Object.fromEntries(cell.verdicts.map((v) => [v.property, v.verdict]));
}

const everyPass = (scenario: ScenarioId) => Object.fromEntries(SCENARIOS.get(scenario)!.properties.map((p) => [p, 'pass']));

describe('guarded-after-snapshot: the reference runtime with the approval guard', () => {
  it.each(['memory', 'sqlite'])('keeps every property in every scenario on %s (but a crash in memory)', async (store) => {
    for (const scenario of SCENARIOS.keys()) {
      const crash = scenario === 'crash-restart' || scenario === 'crash-restart-no-keys';
      const disclosure = !crash ? undefined : store === 'memory' ? 'fail' : scenario === 'crash-restart-no-keys' ? 'allowed' : undefined;
      const expected = { ...everyPass(scenario), ...(disclosure ? { disclosure } : {}) };
      expect(await verdicts(scenario, 'guarded-after-snapshot', store), scenario).toEqual(expected);
    }
  });

  it('is the switch setting that fails without the guard', async () => {
    expect(await verdicts('double-resume', 'after-snapshot', 'memory')).toMatchObject({ 'at-most-once': 'fail' });
  });
});
