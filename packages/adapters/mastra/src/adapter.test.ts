// The Mastra adapter on the pinned versions: 1.71.0 (the latest) and 1.0.4 (the first with approveToolCallGenerate).
// Each cell here is small (a few dozen schedules); the full tables come from the runner.
import { describe, expect, it } from 'vitest';
import { exploreCell, judgeWay, SCENARIOS, type Adapter, type PropertyVerdict } from '@approval-conformance/core';
import { mastraAdapter } from './adapter.js';
import { detectFeatures } from './features.js';
import { pinnedLib, type PinnedLine } from './lib.js';

const verdicts = (list: readonly PropertyVerdict[]) => Object.fromEntries(list.map((v) => [v.property, v.verdict]));

const adapters = new Map<PinnedLine, Promise<Adapter>>();
const load = (line: PinnedLine) => {
  if (!adapters.has(line)) adapters.set(line, pinnedLib(line).then(mastraAdapter));
  return adapters.get(line)!;
};

const cell = async (line: PinnedLine, wiring: string, scenario: string, store = 'memory') =>
  exploreCell({ adapter: await load(line), wiring, store, scenario: SCENARIOS.get(scenario as never)! });

describe('feature detection', () => {
  it('finds that 1.71 runs both patterns and blocks a call from a beforeToolCall hook, by trying them', async () => {
    expect(await detectFeatures(await pinnedLib('1.71'))).toEqual({ agentApproval: true, workflowSuspend: true, toolHooks: true });
  });

  it('finds that 1.0 runs both patterns, and that its agents have no tool hooks', async () => {
    const features = await detectFeatures(await pinnedLib('1.0'));
    expect(features).toMatchObject({ agentApproval: true, workflowSuspend: true, toolHooks: false });
    expect((await load('1.0')).applicability(SCENARIOS.get('double-resume')!.id, 'one-time-approval', 'memory')).toMatchObject({ applicable: false });
  });
});

describe.each([{ line: '1.71' as const }, { line: '1.0' as const }])('@mastra/core $line', ({ line }) => {
  it('runs the tool twice when two requests approve the same suspended call (the suite catches the documented pattern)', async () => {
    const result = await cell(line, 'agent-approval', 'double-resume');
    expect(result.exhausted).toBe(true);
    expect(verdicts(result.verdicts)).toEqual({ 'at-most-once': 'fail', 'no-resurrection': 'fail', 'fresh-view': 'fail' });
    const amo = result.verdicts.find((v) => v.property === 'at-most-once')!.counterexample!;
    expect(amo.story.filter((l) => l.includes('effect applied'))).toHaveLength(2);
  });

  it('runs the edited arguments when the holder of the storage edits a suspended call, unless guarded', async () => {
    const way = { gate: 'holder:1', choice: 0 };
    const adapter = await load(line);
    expect((await judgeWay({ adapter, wiring: 'agent-approval', scenario: 'tamper' }, way, 'integrity')).holds).toBe(false);
    expect((await judgeWay({ adapter, wiring: 'guarded-agent-approval', scenario: 'tamper' }, way, 'integrity')).holds).toBe(true);
  });

  // The agent asks for one call at a time, so two approvals at once are two suspended runs: each answer resumes its
  // own run (the client holds each card's run id), the transfer runs once and the notice never.
  it.each(['agent-approval', 'workflow-suspend'])('keeps two suspended runs apart, one approved and one denied (%s)', async (wiring) => {
    const subject = { adapter: await load(line), wiring, scenario: 'two-approvals' as const };
    const judged = await judgeWay(subject, { gate: 't1:1', choice: 0 }, 'integrity');
    expect(judged.holds).toBe(true);
    expect(judged.history.filter((e) => e.kind === 'effect').map((e) => `${e.action.operation} ${e.approvalId}`)).toEqual(['transfer a1']);
    expect(verdicts((await cell(line, wiring, 'two-approvals')).verdicts)).toEqual({
      'at-most-once': 'pass',
      binding: 'pass',
      integrity: 'pass',
      disclosure: 'pass',
    });
  });

  it('refuses a second approval once the run completed: at most once on replay', async () => {
    expect(verdicts((await cell(line, 'agent-approval', 'replay')).verdicts)['at-most-once']).toBe('pass');
  });
});

describe("the docs' one-time approval consumed in beforeToolCall (the framework's own fix), on 1.71", () => {
  it('blocks a call whose arguments the holder of the storage edited after the user reviewed them', async () => {
    const way = { gate: 'holder:1', choice: 0 };
    const adapter = await load('1.71');
    expect((await judgeWay({ adapter, wiring: 'one-time-approval', scenario: 'tamper' }, way, 'integrity')).holds).toBe(true);
  });

  it('runs a doubly approved call twice: each click adds the fingerprint again before its run consumes it', async () => {
    const result = await cell('1.71', 'one-time-approval', 'double-resume');
    expect(result.exhausted).toBe(true);
    expect(verdicts(result.verdicts)['at-most-once']).toBe('fail');
    const amo = result.verdicts.find((v) => v.property === 'at-most-once')!.counterexample!;
    expect(amo.story.filter((l) => l.includes('effect applied'))).toHaveLength(2);
  });

  it('says where it comes from', async () => {
    const wiring = (await load('1.71')).wirings.find((w) => w.id === 'one-time-approval')!;
    expect(wiring.remedy).toMatch(/^https:\/\/mastra\.ai\/docs\/agents\/human-in-the-loop#/);
  });
});

describe('what changed between 1.0.4 and 1.71.0', () => {
  it('1.61 claims a workflow run before it resumes it: two resumes run the step once (1.0.4 ran it twice)', async () => {
    expect(verdicts((await cell('1.71', 'workflow-suspend', 'double-resume')).verdicts)['at-most-once']).toBe('pass');
    expect(verdicts((await cell('1.0', 'workflow-suspend', 'double-resume')).verdicts)['at-most-once']).toBe('fail');
  });

  it('1.51 checks the tool call id: a stale approval of a1 no longer approves the follow-up call a1.2', async () => {
    expect(verdicts((await cell('1.71', 'agent-approval', 'replay')).verdicts)['integrity']).toBe('pass');
    expect(verdicts((await cell('1.0', 'agent-approval', 'replay')).verdicts)['integrity']).toBe('fail');
  });

  it('the approval guard runs a doubly approved call once on 1.0.4', async () => {
    const result = await cell('1.0', 'guarded-agent-approval', 'double-resume');
    expect(verdicts(result.verdicts)).toEqual({ 'at-most-once': 'pass', 'no-resurrection': 'pass', 'fresh-view': 'pass' });
  });
});
