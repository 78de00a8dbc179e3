// The ADK adapter on the pinned versions: 2.0.0 (requireConfirmation, the pinned-arguments check, a call with a
// response skipped) and 0.1.2 (the first release: only toolContext.requestConfirmation, no checks). Each test runs a
// cell whose space is small, or the double-resume cells (a few hundred schedules, seconds).
import { describe, expect, it } from 'vitest';
import { exploreCell, judgeWay, SCENARIOS, TWO_APPROVALS_WAYS, type Adapter, type PropertyVerdict, type ScenarioId } from '@approval-conformance/core';
import { skipStore } from '@approval-conformance/testkit';
import { adkAdapter } from './adapter.js';
import { detectFeatures } from './features.js';
import { pinnedLib, type PinnedLine } from './lib.js';

const verdicts = (list: readonly PropertyVerdict[]) => Object.fromEntries(list.map((v) => [v.property, v.verdict]));

const adapters = new Map<PinnedLine, Promise<Adapter>>();
const load = (line: PinnedLine) => {
  if (!adapters.has(line)) adapters.set(line, pinnedLib(line).then(adkAdapter));
  return adapters.get(line)!;
};

const cell = async (line: PinnedLine, wiring: string, scenario: ScenarioId, store = 'memory') => {
  const result = await exploreCell({ adapter: await load(line), wiring, store, scenario: SCENARIOS.get(scenario)! });
  expect(result.exhausted).toBe(true);
  return result;
};

// The tamper scenario's ways, in the order the world offers them: the edit, the scenario's forge, then the world's.
const TAMPER = { edit: 0, forge: 1, 'edit-pinned': 2, 'edit-both': 3 } as const;
const tamper = async (line: PinnedLine, wiring: string, way: keyof typeof TAMPER) =>
  (await judgeWay({ adapter: await load(line), wiring, scenario: 'tamper' }, { gate: 'holder:1', choice: TAMPER[way] }, 'integrity')).holds;

describe('feature detection', () => {
  it('finds what each version can do by trying it', async () => {
    expect(await detectFeatures(await pinnedLib('2'))).toEqual({
      requireConfirmation: true,
      database: true,
      agentFails: undefined,
      requestedResumeFails: expect.stringMatching(/refuses the answer to a confirmation a tool asked for itself: .*confirmation_not_required/),
    });
    expect(await detectFeatures(await pinnedLib('0'))).toEqual({ requireConfirmation: false, database: false, agentFails: undefined, requestedResumeFails: undefined });
  });

  it("marks the docs' default of each version, and says why a wiring cannot run", async () => {
    const [v2, v0] = [await load('2'), await load('0')];
    expect(v2.wirings.map((w) => w.id)).toEqual(['require-confirmation', 'request-confirmation', 'guarded-require-confirmation']);
    expect(v2.applicability('double-resume', 'request-confirmation', 'memory')).toMatchObject({ applicable: false, reason: expect.stringMatching(/confirmation_not_required/) });
    expect(v0.applicability('double-resume', 'require-confirmation', 'memory')).toMatchObject({ applicable: false, reason: expect.stringMatching(/requireConfirmation/) });
    expect(v0.applicability('replay', 'request-confirmation', 'postgres')).toMatchObject({ applicable: false, reason: expect.stringMatching(/DatabaseSessionService/) });
  });
});

describe('@google/adk 2.0.0', () => {
  it('runs the effect twice when two tabs confirm at once: each request decides from its own copy of the session', async () => {
    const result = await cell('2', 'require-confirmation', 'double-resume');
    expect(verdicts(result.verdicts)).toEqual({ 'at-most-once': 'fail', 'no-resurrection': 'fail', 'fresh-view': 'fail' });
    const story = result.verdicts.find((v) => v.property === 'at-most-once')!.counterexample!.story;
    expect(story.filter((l) => l.includes('effect applied'))).toHaveLength(2);
    expect(story.filter((l) => l.includes('read the record: a1 unspent'))).toHaveLength(2);
  });

  it('skips a confirmation of a call that already has a response (a replay after completion)', async () => {
    expect(verdicts((await cell('2', 'require-confirmation', 'replay')).verdicts)).toEqual({ 'at-most-once': 'pass', binding: 'pass', integrity: 'pass' });
  });

  it('keeps two confirmations of one response apart, answered together or in two requests', async () => {
    const all = { 'at-most-once': 'pass', binding: 'pass', integrity: 'pass', disclosure: 'pass' };
    expect(verdicts((await cell('2', 'require-confirmation', 'two-approvals')).verdicts)).toEqual(all);
    expect(verdicts((await cell('2', 'guarded-require-confirmation', 'two-approvals')).verdicts)).toEqual(all);
    // Not by running nothing: answered in one message, the transfer runs once and the notice never.
    const subject = { adapter: await load('2'), wiring: 'require-confirmation', scenario: 'two-approvals' as const };
    const way = { gate: 'user:1', choice: TWO_APPROVALS_WAYS.indexOf('one-request-denial-first') };
    const effects = (await judgeWay(subject, way, 'integrity')).history.filter((e) => e.kind === 'effect');
    expect(effects.map((e) => `${e.action.operation} ${e.approvalId}`)).toEqual(['transfer a1']);
  });

  it("refuses an edit of the agent's call or of its pinned copy alone, but runs one of both, and a forged answer", async () => {
    expect(await tamper('2', 'require-confirmation', 'edit')).toBe(true);
    expect(await tamper('2', 'require-confirmation', 'edit-pinned')).toBe(true);
    expect(await tamper('2', 'require-confirmation', 'edit-both')).toBe(false);
    expect(await tamper('2', 'require-confirmation', 'forge')).toBe(false);
  });

  it('passes every cell guarded, and recovers after a crash on a durable store only', async () => {
    expect(verdicts((await cell('2', 'guarded-require-confirmation', 'double-resume')).verdicts)).toEqual({
      'at-most-once': 'pass',
      'no-resurrection': 'pass',
      'fresh-view': 'pass',
    });
    expect(verdicts((await cell('2', 'guarded-require-confirmation', 'tamper')).verdicts)).toEqual({ integrity: 'pass' });
    // In memory the guard's records die with the process, as the session does: nobody can tell the user it ran.
    expect(verdicts((await cell('2', 'guarded-require-confirmation', 'crash-restart')).verdicts)).toMatchObject({ 'at-most-once': 'pass', disclosure: 'fail' });
  });

  it.skipIf(skipStore('postgres'))('on PostgreSQL: a retry after a crash runs it again, and the guard recovers it', async () => {
    const plain = await cell('2', 'require-confirmation', 'crash-restart', 'postgres');
    expect(verdicts(plain.verdicts)).toEqual({ 'at-most-once': 'fail', 'no-resurrection': 'fail', disclosure: 'fail' });
    const story = plain.verdicts.find((v) => v.property === 'at-most-once')!.counterexample!.story;
    expect(story.slice(-3)).toEqual([
      't1 crashed',
      't2 read the record: a1 unspent (v4)',
      't2 called transfer(amount=100) on acct-1 for a1 in world w1 — effect applied (dispatch t2/a1)',
    ]);
    const guarded = await cell('2', 'guarded-require-confirmation', 'crash-restart', 'postgres');
    expect(verdicts(guarded.verdicts)).toEqual({ 'at-most-once': 'pass', 'no-resurrection': 'pass', disclosure: 'pass' });
    expect(verdicts((await cell('2', 'require-confirmation', 'replay', 'postgres')).verdicts)).toEqual({ 'at-most-once': 'pass', binding: 'pass', integrity: 'pass' });
  });
});

describe('@google/adk 0.1.2', () => {
  it('runs the effect twice when two tabs confirm at once', async () => {
    expect(verdicts((await cell('0', 'request-confirmation', 'double-resume')).verdicts)).toEqual({
      'at-most-once': 'fail',
      'no-resurrection': 'fail',
      'fresh-view': 'fail',
    });
  });

  it('keeps two confirmations apart where the tool asks by itself', async () => {
    expect(verdicts((await cell('0', 'request-confirmation', 'two-approvals')).verdicts)).toEqual({
      'at-most-once': 'pass',
      binding: 'pass',
      integrity: 'pass',
      disclosure: 'pass',
    });
  });

  it('runs it again when a stale tab confirms after it completed: nothing says the call already has a response', async () => {
    const result = await cell('0', 'request-confirmation', 'replay');
    expect(verdicts(result.verdicts)).toEqual({ 'at-most-once': 'fail', binding: 'pass', integrity: 'pass' });
  });

  it("runs an edit of the confirmation call's pinned copy: the call it runs is the pinned one, checked against nothing", async () => {
    expect(await tamper('0', 'request-confirmation', 'edit')).toBe(true);
    expect(await tamper('0', 'request-confirmation', 'edit-pinned')).toBe(false);
  });
});
