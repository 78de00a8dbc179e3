// The approval guard on LangGraph's two documented patterns (the effect after interrupt() in the same node, or in the
// next node), with LangGraph's own resume, checkpointing and dispatch still in the loop. The same pattern without the
// guard fails where the guarded one holds. A crash on MemorySaver takes the guard's record with the process, as it
// takes the checkpoints: the retry finds nothing, so the user is never told the action ran.
import { describe, expect, it } from 'vitest';
import { exploreCell, SCENARIOS, type Adapter, type ScenarioId } from '@approval-conformance/core';
import { skipStore } from '@approval-conformance/testkit';
import { langgraphAdapter } from './adapter.js';
import { pinnedLib } from './lib.js';

async function verdicts(adapter: Adapter, wiring: string, scenario: ScenarioId, store = 'memory') {
  const cell = await exploreCell({ adapter, wiring, store, scenario: SCENARIOS.get(scenario)! });
  expect(cell.exhausted).toBe(true);
  return Object.fromEntries(cell.verdicts.map((v) => [v.property, v.verdict]));
}

const everyPass = (scenario: ScenarioId) => Object.fromEntries(SCENARIOS.get(scenario)!.properties.map((p) => [p, 'pass']));

describe.each([
  { line: 1 as const, version: '1.7.3' },
  { line: 0 as const, version: '0.2.74' },
])('langgraph $version, guarded', ({ line }) => {
  let adapter: Adapter;
  const load = async () => (adapter ??= await langgraphAdapter(await pinnedLib(line)));

  // The unguarded patterns run it twice here (adapter.test.ts).
  it.each(['guarded-separate-node', 'guarded-interrupt-node'])('%s runs the effect once when two resumes race', async (wiring) => {
    expect(await verdicts(await load(), wiring, 'double-resume')).toEqual(everyPass('double-resume'));
  });

  it('refuses an edited state, a re-proposed action and a duplicated "yes" on the next interrupt', async () => {
    const a = await load();
    expect(await verdicts(a, 'guarded-separate-node', 'tamper')).toEqual({ integrity: 'pass' });
    expect(await verdicts(a, 'separate-node', 'tamper')).toEqual({ integrity: 'fail' });
    expect(await verdicts(a, 'guarded-interrupt-node', 're-proposal')).toEqual({ binding: 'pass' });
    expect(await verdicts(a, 'interrupt-node', 're-proposal')).toEqual({ binding: 'fail' });
    expect(await verdicts(a, 'guarded-separate-node', 'replay')).toEqual(everyPass('replay'));
  });

  it.each(['sqlite', 'postgres'])('recovers a spent approval after a crash (%s)', async (store) => {
    if (skipStore(store)) return;
    expect(await verdicts(await load(), 'guarded-separate-node', 'crash-restart', store)).toEqual(everyPass('crash-restart'));
    await adapter.release?.();
  });

  it('loses the record with the process on MemorySaver: the retry cannot say the action ran', async () => {
    expect(await verdicts(await load(), 'guarded-separate-node', 'crash-restart')).toEqual({
      ...everyPass('crash-restart'),
      disclosure: 'fail',
    });
  });
});
