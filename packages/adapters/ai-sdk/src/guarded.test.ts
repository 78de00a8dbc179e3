// The approval guard on the AI SDK's documented patterns: native approval (6.x) and the 5.x cookbook, with the guard
// added and the SDK's own code still in the loop. The same pattern without the guard fails where the guarded one holds.
// A crash on the memory store takes the guard's record with the process, as it takes the transcript: the retry finds
// nothing, so the user is never told the action ran (the reference runtime's guarded wiring has the same cell).
import { describe, expect, it } from 'vitest';
import { exploreCell, SCENARIOS, type Adapter, type ScenarioId } from '@approval-conformance/core';
import { aiSdkAdapter } from './adapter.js';
import { pinnedLib, type PinnedLine } from './lib.js';

const adapters = new Map<PinnedLine, Promise<Adapter>>();
const load = (line: PinnedLine) => {
  if (!adapters.has(line)) adapters.set(line, pinnedLib(line).then(aiSdkAdapter));
  return adapters.get(line)!;
};

async function verdicts(line: PinnedLine, wiring: string, scenario: ScenarioId, store = 'memory') {
  const cell = await exploreCell({ adapter: await load(line), wiring, store, scenario: SCENARIOS.get(scenario)! });
  expect(cell.exhausted).toBe(true);
  return Object.fromEntries(cell.verdicts.map((v) => [v.property, v.verdict]));
}

const everyPass = (scenario: ScenarioId) => Object.fromEntries(SCENARIOS.get(scenario)!.properties.map((p) => [p, 'pass']));

describe.each([
  { line: 6 as const, guarded: 'guarded-native-approval', unguarded: 'native-approval', other: 'guarded-cookbook-hitl' },
  { line: 5 as const, guarded: 'guarded-cookbook-hitl', unguarded: 'cookbook-hitl', other: 'guarded-native-approval' },
])('ai $line.x: $guarded', ({ line, guarded, unguarded, other }) => {
  it('applies where its pattern is the documented one, and only there', async () => {
    const a = await load(line);
    expect(a.applicability('double-resume', guarded, 'sqlite')).toEqual({ applicable: true });
    expect(a.applicability('double-resume', other, 'sqlite')).toMatchObject({ applicable: false });
  });

  it('runs the effect once when two requests carry the same approval, where the unguarded pattern runs it twice', async () => {
    expect(await verdicts(line, guarded, 'double-resume')).toEqual(everyPass('double-resume'));
    expect(await verdicts(line, unguarded, 'double-resume')).toMatchObject({ 'at-most-once': 'fail' });
  });

  it('keeps two pending approvals apart, and says what ran when the request then fails', async () => {
    expect(await verdicts(line, guarded, 'two-approvals')).toEqual(everyPass('two-approvals'));
  });

  it('refuses every edit and forgery of the transcript (the spend checks the approval and the call)', async () => {
    expect(await verdicts(line, guarded, 'tamper')).toEqual({ integrity: 'pass' });
    expect(await verdicts(line, unguarded, 'tamper')).toEqual({ integrity: 'fail' });
  });

  it('recovers a spent approval after a crash on SQLite; on memory the record is lost with the process', async () => {
    expect(await verdicts(line, guarded, 'crash-restart', 'sqlite')).toEqual(everyPass('crash-restart'));
    expect(await verdicts(line, guarded, 'crash-restart', 'memory')).toEqual({ ...everyPass('crash-restart'), disclosure: 'fail' });
  });
});

it('tells 6.x and later to use the native pattern for the guarded cookbook', async () => {
  expect((await load(7)).applicability('tamper', 'guarded-cookbook-hitl', 'memory')).toEqual({
    applicable: false,
    reason: "from 6.0 the SDK's own tool approval is the documented pattern; its guarded form is guarded-native-approval",
  });
});
