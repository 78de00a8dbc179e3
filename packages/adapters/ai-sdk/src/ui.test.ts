// The useChat wirings on the pinned versions: the SDK's own client (AbstractChat, addToolApprovalResponse) against the
// docs' routes, the history held by the client (sent whole) or by the server (the client sends its last message).
import { describe, expect, it } from 'vitest';
import {
  exploreCell,
  judgeWay,
  replaySchedule,
  SCENARIOS,
  TWO_APPROVALS_WAYS,
  type Adapter,
  type History,
  type PropertyVerdict,
  type ScenarioId,
} from '@approval-conformance/core';
import { aiSdkAdapter } from './adapter.js';
import { pinnedLib, type PinnedLine } from './lib.js';

const verdicts = (list: readonly PropertyVerdict[]) => Object.fromEntries(list.map((v) => [v.property, v.verdict]));

const adapters = new Map<PinnedLine, Promise<Adapter>>();
const load = (line: PinnedLine) => {
  if (!adapters.has(line)) adapters.set(line, pinnedLib(line).then(aiSdkAdapter));
  return adapters.get(line)!;
};

const cell = async (line: PinnedLine, wiring: string, scenario: ScenarioId, store = 'memory', reduce = true) =>
  exploreCell({ adapter: await load(line), wiring, store, scenario: SCENARIOS.get(scenario)! }, { reduce });

const UI = ['ui-client-history', 'ui-server-history'] as const;

/** The effects of a run, in words: `transfer a1 applied`. */
const effects = (history: History) =>
  history.flatMap((e) => (e.kind === 'effect' ? [`${e.action.operation} ${e.approvalId} ${e.applied ? 'applied' : 'refused'}`] : []));
const sent = (way: (typeof TWO_APPROVALS_WAYS)[number]) => ({ gate: 'user:1', choice: TWO_APPROVALS_WAYS.indexOf(way) });

// The tamper scenario's ways, in the order the world offers them.
const TAMPER = { edit: 0, forge: 1, 're-point': 2, 'forge-unneeded': 3 } as const;

it.each(UI)('5.x has no approval in useChat: %s is n/a', async (wiring) => {
  expect((await load(5)).applicability('double-resume', wiring, 'memory')).toEqual({
    applicable: false,
    reason: 'this version has no native tool approval for useChat (needsApproval and addToolApprovalResponse, 6.0+)',
  });
});

describe.each([{ line: 6 as const }, { line: 7 as const }])('ai $line.x', ({ line }) => {
  it.each(UI)('applies on both stores (%s)', async (wiring) => {
    const a = await load(line);
    for (const store of ['memory', 'sqlite']) expect(a.applicability('tamper', wiring, store)).toEqual({ applicable: true });
  });

  it.each(UI)('runs the effect twice when two tabs answer the same card (%s)', async (wiring) => {
    const result = await cell(line, wiring, 'double-resume');
    expect(result.exhausted).toBe(true);
    expect(verdicts(result.verdicts)).toEqual({ 'at-most-once': 'fail', 'no-resurrection': 'fail', 'fresh-view': 'fail' });
    const amo = result.verdicts.find((v) => v.property === 'at-most-once')!.counterexample!;
    expect(amo.story.filter((l) => l.includes('effect applied'))).toHaveLength(2);
  });

  // The route puts the client's last message in place of the stored one it continues: a tab still showing the card
  // answers it after the first answer's outcome was saved, and its stale message replaces the saved outcome.
  it('runs the call again for a stale tab although the server read it spent (server history)', async () => {
    const subject = { adapter: await load(line), wiring: 'ui-server-history', store: 'sqlite', scenario: SCENARIOS.get('double-resume')! };
    const { story } = await replaySchedule(subject, 't1:1 t2:1 t1:2 t1:3 t1:4 t1:5 t2:2 t2:3');
    expect(story).toContain('t2 read the record: a1 spent (v2)');
    expect(story.filter((l) => l.includes('effect applied'))).toHaveLength(2);
  });

  it.each(UI)('shows no card again once the client holds the outcome, so a later answer sends nothing (%s)', async (wiring) => {
    const result = await cell(line, wiring, 'replay');
    expect(verdicts(result.verdicts)).toEqual({ 'at-most-once': 'pass', binding: 'pass', integrity: 'pass' });
  });

  it.each(UI)('answers two cards in one tab: the approved call runs once, the denied one never (%s)', async (wiring) => {
    const subject = { adapter: await load(line), wiring, scenario: 'two-approvals' as const };
    for (const way of ['one-request', 'one-request-denial-first'] as const) {
      const judged = await judgeWay(subject, sent(way), 'integrity');
      expect(judged.holds).toBe(true);
      expect(effects(judged.history)).toEqual(['transfer a1 applied']);
    }
    // A tab each: the chat sends nothing while another card is open, so nothing runs.
    expect(effects((await judgeWay(subject, sent('two-requests'), 'integrity')).history)).toEqual([]);
  });

  it.each(UI)('runs the call as the client edited it in its own history (%s)', async (wiring) => {
    const a = await load(line);
    const edited = await judgeWay({ adapter: a, wiring, scenario: 'tamper' }, { gate: 'holder:1', choice: TAMPER.edit }, 'integrity');
    expect(edited.holds).toBe(false);
    expect(edited.explanation).toMatch(/^t1 executed a1 as transfer\(amount=100\) on acct-666, but user approved .* on acct-1/);
    const rePointed = await judgeWay({ adapter: a, wiring, scenario: 'tamper' }, { gate: 'holder:1', choice: TAMPER['re-point'] }, 'integrity');
    expect(rePointed.holds).toBe(false);
  });

  // As with native-approval: 6.x re-asks the tool whether it needs approval and denies the forged one; 7.x runs it.
  it(`${line === 6 ? 'denies' : 'runs'} an approval the client wrote for a tool that needs none`, async () => {
    const a = await load(line);
    const way = { gate: 'holder:1', choice: TAMPER['forge-unneeded'] };
    expect((await judgeWay({ adapter: a, wiring: 'ui-client-history', scenario: 'tamper' }, way, 'integrity')).holds).toBe(line === 6);
  });

  it('after a crash on the memory store the retry is refused (its message is gone), and the user never learns it ran', async () => {
    const result = await cell(line, 'ui-server-history', 'crash-restart');
    expect(verdicts(result.verdicts)).toEqual({ 'at-most-once': 'pass', 'no-resurrection': 'fail', disclosure: 'fail' });
    // The client's copy outlives the server: on client history the retry answers the card again.
    expect(verdicts((await cell(line, 'ui-client-history', 'crash-restart')).verdicts)['at-most-once']).toBe('fail');
  });
});

// 7.0.173's convertToModelMessages lets a later user message supersede an open card, so a new request goes through
// while the card is being answered (6.0.326 and 7.0.0 refuse it: a tool result is missing). The two requests on one
// chat then each save the whole transcript on finish, and the later save drops the card the other showed.
it('loses a shown card to an overlapping request on server history (7.x)', async () => {
  const result = await cell(7, 'ui-server-history', 'overlapping-turns', 'sqlite');
  const failure = result.verdicts.find((v) => v.property === 'shown-is-recorded')!;
  expect(failure.verdict).toBe('fail');
  expect(failure.counterexample!.explanation).toMatch(/^user approved a2 while the record said absent/);
  expect(verdicts((await cell(7, 'ui-client-history', 'overlapping-turns', 'sqlite')).verdicts)).toEqual({ 'shown-is-recorded': 'pass' });
});

// Every schedule run to its end gives the verdicts and lengths the reductions give (the access declarations hide none;
// `run --no-reduce` agrees on every cell of both wirings on 6.0.0, 6.0.326, 7.0.0 and 7.0.173).
it.each([
  ['ui-client-history', ['double-resume', 'overlapping-turns']],
  ['ui-server-history', ['overlapping-turns']],
] as const)('reduces soundly on 7.x (%s)', async (wiring, scenarios) => {
  for (const scenario of scenarios) {
    const outcome = async (reduce: boolean) =>
      Object.fromEntries((await cell(7, wiring, scenario, 'memory', reduce)).verdicts.map((v) => [v.property, `${v.verdict} ${v.counterexample?.steps ?? ''}`]));
    expect(await outcome(true)).toEqual(await outcome(false));
  }
});
