// The OpenAI Agents adapter on the pinned versions: 0.20.0 (approvals bound to their arguments, the scripted test
// model) and 0.14.3 (before 0.15: no binding, a hand-written model).
import { describe, expect, it } from 'vitest';
import { exploreCell, judgeWay, SCENARIOS, type Adapter, type PropertyVerdict } from '@approval-conformance/core';
import { openaiAgentsAdapter } from './adapter.js';
import { detectFeatures } from './features.js';
import { pinnedLib, type PinnedLine } from './lib.js';

const verdicts = (list: readonly PropertyVerdict[]) => Object.fromEntries(list.map((v) => [v.property, v.verdict]));

const adapters = new Map<PinnedLine, Promise<Adapter>>();
const load = (line: PinnedLine) => {
  if (!adapters.has(line)) adapters.set(line, pinnedLib(line).then(openaiAgentsAdapter));
  return adapters.get(line)!;
};

const cell = async (line: PinnedLine, wiring: string, scenario: string, store = 'memory') =>
  exploreCell({ adapter: await load(line), wiring, store, scenario: SCENARIOS.get(scenario as never)! });

// The tamper scenario's ways, in the order the world offers them: the edit, the scenario's forge, then the world's.
const TAMPER = {
  '0.20': { edit: 0, forge: 1, 'edit-bound': 2, 'forge-approval': 3 },
  '0.14': { edit: 0, forge: 1, 'forge-approval': 2 },
} as const;

describe("the guide's server-owned approval state (the framework's own fix)", () => {
  it.each(['memory', 'sqlite'])('takes each stored request once: two decisions at once run the effect once (%s)', async (store) => {
    const result = await cell('0.20', 'server-owned-state', 'double-resume', store);
    expect(result.exhausted).toBe(true);
    expect(verdicts(result.verdicts)).toEqual({ 'at-most-once': 'pass', 'no-resurrection': 'pass', 'fresh-view': 'pass' });
    expect(verdicts((await cell('0.20', 'server-owned-state', 'replay', store)).verdicts)).toEqual({ 'at-most-once': 'pass', binding: 'pass', integrity: 'pass' });
  });

  it('never tells the user of an effect that ran before a crash: the retry finds the request taken', async () => {
    const result = await cell('0.20', 'server-owned-state', 'crash-restart', 'sqlite');
    expect(verdicts(result.verdicts)).toEqual({ 'at-most-once': 'pass', 'no-resurrection': 'pass', disclosure: 'fail' });
    const story = result.verdicts.find((v) => v.property === 'disclosure')!.counterexample!.story;
    expect(story.at(-1)).toMatch(/t2 read the record: a1 spent/);
  });

  it('takes two decisions of one request as one batch: the approved call runs once, the denied one never', async () => {
    expect(verdicts((await cell('0.20', 'server-owned-state', 'two-approvals')).verdicts)).toEqual({
      'at-most-once': 'pass',
      binding: 'pass',
      integrity: 'pass',
      disclosure: 'pass',
    });
  });

  it('says where it comes from', async () => {
    const wiring = (await load('0.20')).wirings.find((w) => w.id === 'server-owned-state')!;
    expect(wiring.remedy).toMatch(/^https:\/\/openai\.github\.io\/openai-agents-js\/guides\/human-in-the-loop/);
    expect(wiring.docsDefault).toBeUndefined();
  });
});

describe('feature detection', () => {
  it.each([
    ['0.20' as const, { runState: true, approvalBinding: true, streaming: true, scriptedModel: true }],
    ['0.14' as const, { runState: true, approvalBinding: false, streaming: true, scriptedModel: false }],
  ])('finds what %s can do by trying it', async (line, features) => {
    expect(await detectFeatures(await pinnedLib(line))).toEqual(features);
  });
});

describe.each([{ line: '0.20' as const }, { line: '0.14' as const }])('@openai/agents $line', ({ line }) => {
  it('runs the effect twice when two requests resume the same stored state (the suite catches the documented pattern)', async () => {
    const result = await cell(line, 'run-state', 'double-resume');
    expect(result.exhausted).toBe(true);
    expect(verdicts(result.verdicts)).toEqual({ 'at-most-once': 'fail', 'no-resurrection': 'fail', 'fresh-view': 'fail' });
    const amo = result.verdicts.find((v) => v.property === 'at-most-once')!.counterexample!;
    expect(amo.story.filter((l) => l.includes('effect applied'))).toHaveLength(2);
  });

  // The click stores state.approve(a1); the request that carries the denial of a2 restores that state, rejects a2
  // and runs it, so it runs the approved a1 too, beside the request that carries a1's approval.
  it('runs the approved call twice when the approval and the denial of two calls come in two requests', async () => {
    const result = await cell(line, 'run-state', 'two-approvals');
    expect(verdicts(result.verdicts)).toEqual({ 'at-most-once': 'fail', binding: 'pass', integrity: 'pass', disclosure: 'pass' });
    const { story, steps } = result.verdicts.find((v) => v.property === 'at-most-once')!.counterexample!;
    expect(steps).toBe(5);
    expect(story.filter((l) => /called transfer.*effect applied/.test(l))).toHaveLength(2);
  });

  it('refuses to resume a state that already ran (a stale tab replays it): at most once', async () => {
    const result = await cell(line, 'run-state', 'replay', 'sqlite');
    expect(verdicts(result.verdicts)).toEqual({ 'at-most-once': 'pass', binding: 'pass', integrity: 'pass' });
  });

  it('tells the user a failed tool did not happen, with the default error handling and with errors rethrown', async () => {
    expect(verdicts((await cell(line, 'run-state', 'error-after-effect')).verdicts)).toEqual({ disclosure: 'fail', 'at-most-once': 'pass' });
    // Rethrown, nothing is stored: the retry runs it again.
    expect(verdicts((await cell(line, 'run-state-rethrow', 'error-after-effect')).verdicts)).toEqual({ disclosure: 'fail', 'at-most-once': 'fail' });
  });

  it('runs an approval the holder wrote into a state that had none', async () => {
    const a = await load(line);
    const way = { gate: 'holder:1', choice: TAMPER[line]['forge-approval'] };
    const result = await judgeWay({ adapter: a, wiring: 'run-state', scenario: 'tamper' }, way, 'integrity');
    expect(result.holds).toBe(false);
  });

  it('does not run on a client that claims an approval the stored state lacks', async () => {
    const a = await load(line);
    const result = await judgeWay({ adapter: a, wiring: 'run-state', scenario: 'tamper' }, { gate: 'holder:1', choice: TAMPER[line].forge }, 'integrity');
    expect(result.holds).toBe(true);
  });

  it('runs the rethrow wiring only where a tool throws', async () => {
    const a = await load(line);
    expect(a.applicability('double-resume', 'run-state-rethrow', 'memory')).toMatchObject({ applicable: false });
    expect(a.applicability('error-after-effect', 'run-state-rethrow', 'memory')).toEqual({ applicable: true });
  });
});

describe('argument binding (approvalInvocations, 0.15+)', () => {
  it('0.20 refuses an approved call whose arguments the holder edited, but runs one it bound again', async () => {
    const a = await load('0.20');
    const edit = await judgeWay({ adapter: a, wiring: 'run-state', scenario: 'tamper' }, { gate: 'holder:1', choice: TAMPER['0.20'].edit }, 'integrity');
    expect(edit.holds).toBe(true);
    const bound = await judgeWay({ adapter: a, wiring: 'run-state', scenario: 'tamper' }, { gate: 'holder:1', choice: TAMPER['0.20']['edit-bound'] }, 'integrity');
    expect(bound.holds).toBe(false);
  });

  it('0.14 runs the edited arguments: nothing binds them to the approval', async () => {
    const a = await load('0.14');
    const edit = await judgeWay({ adapter: a, wiring: 'run-state', scenario: 'tamper' }, { gate: 'holder:1', choice: TAMPER['0.14'].edit }, 'integrity');
    expect(edit.holds).toBe(false);
  });
});

describe('guarded-run-state', () => {
  it('keeps two pending approvals apart: the approved call runs once, the denied one never', async () => {
    expect(verdicts((await cell('0.20', 'guarded-run-state', 'two-approvals')).verdicts)).toEqual({
      'at-most-once': 'pass',
      binding: 'pass',
      integrity: 'pass',
      disclosure: 'pass',
    });
  });

  it('runs the effect once when two requests resume the same state, and refuses every tampering', async () => {
    expect(verdicts((await cell('0.20', 'guarded-run-state', 'double-resume')).verdicts)).toEqual({
      'at-most-once': 'pass',
      'no-resurrection': 'pass',
      'fresh-view': 'pass',
    });
    expect(verdicts((await cell('0.14', 'guarded-run-state', 'tamper')).verdicts)).toEqual({ integrity: 'pass' });
  });

  it('recovers a spent approval after a crash on SQLite (the SDK refuses the terminal state; the guard says it ran)', async () => {
    expect(verdicts((await cell('0.20', 'guarded-run-state', 'crash-restart', 'sqlite')).verdicts)).toEqual({
      'at-most-once': 'pass',
      'no-resurrection': 'pass',
      disclosure: 'pass',
    });
  });
});
