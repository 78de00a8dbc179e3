// The AI SDK adapter on the pinned versions: 6.x and 7.x (native and signed approval) and 5.x (the cookbook).
import { describe, expect, it } from 'vitest';
import { exploreCell, judgeWay, SCENARIOS, type Adapter, type PropertyVerdict } from '@approval-conformance/core';
import { aiSdkAdapter } from './adapter.js';
import { pinnedLib, type PinnedLine } from './lib.js';

const verdicts = (list: readonly PropertyVerdict[]) => Object.fromEntries(list.map((v) => [v.property, v.verdict]));

const adapters = new Map<PinnedLine, Promise<Adapter>>();
const load = (line: PinnedLine) => {
  if (!adapters.has(line)) adapters.set(line, pinnedLib(line).then(aiSdkAdapter));
  return adapters.get(line)!;
};

const cell = async (line: PinnedLine, wiring: string, scenario: string, store = 'memory') =>
  exploreCell({ adapter: await load(line), wiring, store, scenario: SCENARIOS.get(scenario as never)! });

// The tamper scenario's ways, in the order the world offers them.
const NATIVE_TAMPER = { edit: 0, forge: 1, 're-point': 2, 'forge-unneeded': 3 } as const;

describe('ai 5.x', () => {
  it('has no native approval: only the cookbook rows apply', async () => {
    const a = await load(5);
    expect(a.version).toMatch(/^5\./);
    expect(a.applicability('double-resume', 'native-approval', 'memory')).toEqual({
      applicable: false,
      reason: 'this version has no native tool approval (needsApproval, 6.0+)',
    });
    expect(a.applicability('double-resume', 'signed-approval-stream', 'sqlite')).toMatchObject({ applicable: false });
    expect(a.applicability('double-resume', 'cookbook-hitl', 'sqlite')).toEqual({ applicable: true });
  });

  it('runs the answered call twice when two requests carry the same "Yes, confirmed."', async () => {
    const result = await cell(5, 'cookbook-hitl', 'double-resume');
    expect(result.exhausted).toBe(true);
    expect(verdicts(result.verdicts)['at-most-once']).toBe('fail');
  });

  it('runs the tool twice when one message carries the same "Yes, confirmed." twice', async () => {
    const a = await load(5);
    const twice = await judgeWay({ adapter: a, wiring: 'cookbook-hitl', scenario: 'replay' }, { gate: 'client:1', choice: 1 }, 'at-most-once');
    expect(twice.holds).toBe(false);
    expect(twice.explanation).toMatch(/dispatch t1\/a1\) then t1 \(dispatch t1\/a1#2\)/);
  });

  it('runs only the tools the recipe lists, so a forged answer for `note` does nothing', async () => {
    const a = await load(5);
    const result = await judgeWay({ adapter: a, wiring: 'cookbook-hitl', scenario: 'tamper' }, { gate: 'holder:1', choice: 2 }, 'integrity');
    expect(result.holds).toBe(true);
  });
});

describe.each([
  { line: 6 as const, major: '6.x' },
  { line: 7 as const, major: '7.x' },
])('ai $major', ({ line, major }) => {
  it('detects native and signed approval by trying them', async () => {
    const a = await load(line);
    expect(a.version.startsWith(major.slice(0, 2))).toBe(true);
    for (const wiring of ['native-approval', 'signed-approval-stream', 'cookbook-hitl']) {
      expect(a.applicability('double-resume', wiring, 'sqlite')).toEqual({ applicable: true });
    }
  });

  it.each(['native-approval', 'signed-approval-stream', 'cookbook-hitl-stream'])(
    'runs the effect twice when two requests carry the same approval (%s)',
    async (wiring) => {
      const result = await cell(line, wiring, 'double-resume');
      expect(result.exhausted).toBe(true);
      expect(verdicts(result.verdicts)).toEqual({ 'at-most-once': 'fail', 'no-resurrection': 'fail', 'fresh-view': 'fail' });
      const amo = result.verdicts.find((v) => v.property === 'at-most-once')!.counterexample!;
      expect(amo.story.filter((l) => l.includes('effect applied'))).toHaveLength(2);
    },
  );

  it('runs the effect again when a stale client sends the approval after the result was saved', async () => {
    const a = await load(line);
    const again = await judgeWay({ adapter: a, wiring: 'native-approval', scenario: 'replay' }, { gate: 'client:1', choice: 0 }, 'at-most-once');
    expect(again.holds).toBe(false);
    expect(again.explanation).toMatch(/t2 had read it spent/);
  });

  // 6.0.0 and 7.0.0 ran it twice; later releases collect each tool call once.
  it('runs the effect once when one message carries the same approval twice', async () => {
    const a = await load(line);
    const twice = await judgeWay({ adapter: a, wiring: 'native-approval', scenario: 'replay' }, { gate: 'client:1', choice: 1 }, 'at-most-once');
    expect(twice.holds).toBe(true);
  });

  it.each([
    ['edit', 'native-approval', false],
    ['edit', 'signed-approval', true],
    ['re-point', 'native-approval', false],
    ['re-point', 'signed-approval', true],
    ['forge', 'native-approval', false],
    ['forge', 'signed-approval', false],
    ['forge-unneeded', 'signed-approval', true],
  ] as const)('tamper by %s on %s: integrity holds = %s', async (way, wiring, holds) => {
    const a = await load(line);
    const result = await judgeWay({ adapter: a, wiring, scenario: 'tamper' }, { gate: 'holder:1', choice: NATIVE_TAMPER[way] }, 'integrity');
    expect(result.holds).toBe(holds);
  });

  // 6.x re-asks the tool whether it needs approval and denies a call to one that does not; 7.x's approval policy
  // answers "not applicable" for such a tool and runs it.
  it(`${line === 6 ? 'denies' : 'runs'} a forged approval for a tool that needs none, without a signature`, async () => {
    const a = await load(line);
    const way = { gate: 'holder:1', choice: NATIVE_TAMPER['forge-unneeded'] };
    const result = await judgeWay({ adapter: a, wiring: 'native-approval', scenario: 'tamper' }, way, 'integrity');
    expect(result.holds).toBe(line === 6);
    if (line === 7) expect(result.explanation).toMatch(/^t1 executed f1 on an approval holder forged: no human approved it. holder had tampered/);
  });

  it.each(['memory', 'sqlite'])('tells the user a tool failed when it had applied its effect (%s)', async (store) => {
    const result = await cell(line, 'native-approval', 'error-after-effect', store);
    expect(verdicts(result.verdicts)).toEqual({ disclosure: 'fail', 'at-most-once': 'fail' });
  });

  // A request that answers one of two cards: the SDK runs the approved call, then refuses to prompt the model while
  // the other call has no result, so the route fails and the user is never told the transfer ran.
  it('runs the approved one of two calls, then fails the request: the user never learns it ran', async () => {
    const result = await cell(line, 'native-approval', 'two-approvals');
    expect(verdicts(result.verdicts)).toEqual({ 'at-most-once': 'pass', binding: 'pass', integrity: 'pass', disclosure: 'fail' });
    const { explanation, steps } = result.verdicts.find((v) => v.property === 'disclosure')!.counterexample!;
    expect(explanation).toBe("t1's effect for a1 (dispatch t1/a1) reached the world, but the user was never told it happened.");
    expect(steps).toBe(4);
    expect(result.findings).toContain('t1 threw: Tool result is missing for tool call a2.');
  });

  it('re-runs the effect after a crash between the effect and the save (SQLite)', async () => {
    const result = await cell(line, 'native-approval-stream', 'crash-restart', 'sqlite');
    expect(result.exhausted).toBe(true);
    expect(verdicts(result.verdicts)).toEqual({ 'at-most-once': 'fail', 'no-resurrection': 'fail', disclosure: 'pass' });
  });
});
