// The LangGraph server adapter on the pinned version: the real server in-process, driven through its real client.
// Each test runs a cell whose space is small, or replays one schedule of a larger one.
import { describe, expect, it } from 'vitest';
import { exploreCell, parseSchedule, replaySelector, runWorld, SCENARIOS, type Adapter, type PropertyVerdict, type ScenarioId } from '@approval-conformance/core';
import { langgraphServerAdapter } from './adapter.js';
import { pinnedLib } from './lib.js';
import { serverFor } from './server.js';

const verdicts = (list: readonly PropertyVerdict[]) => Object.fromEntries(list.map((v) => [v.property, v.verdict]));

describe('langgraph-server 1.5.1', () => {
  let adapter: Adapter;
  const load = async () => (adapter ??= await langgraphServerAdapter(await pinnedLib()));
  const cell = async (wiring: string, scenario: ScenarioId, store = 'memory') => {
    const result = await exploreCell({ adapter: await load(), wiring, store, scenario: SCENARIOS.get(scenario)! });
    expect(result.exhausted).toBe(true);
    return result;
  };

  it('has every strategy, each resumed two ways; the file store only where the server restarts', async () => {
    const a = await load();
    expect(a.version).toBe('1.5.1');
    expect(a.wirings.map((w) => w.id)).toEqual([
      'reject',
      'reject-by-id',
      'enqueue',
      'enqueue-by-id',
      'interrupt',
      'interrupt-by-id',
      'rollback',
      'rollback-by-id',
      'guarded-reject',
    ]);
    expect(a.wirings.find((w) => w.docsDefault)?.id).toBe('reject');
    expect(a.applicability('crash-restart', 'reject', 'file')).toEqual({ applicable: true });
    expect(a.applicability('double-resume', 'reject', 'file')).toMatchObject({ applicable: false });
  });

  it('rejects the second resume while the first runs (reject, the default): the action runs once', async () => {
    const result = await cell('reject', 'double-resume');
    // The effect runs in the interrupting node, before the checkpoint that spends the approval.
    expect(verdicts(result.verdicts)).toEqual({ 'at-most-once': 'pass', 'no-resurrection': 'fail', 'fresh-view': 'pass' });
  });

  it('lets a retried plain resume approve the next interrupt, which no human saw; a resume by id does not', async () => {
    expect(verdicts((await cell('reject', 'replay')).verdicts)).toEqual({ 'at-most-once': 'pass', binding: 'pass', integrity: 'fail' });
    expect(verdicts((await cell('reject-by-id', 'replay')).verdicts)).toEqual({ 'at-most-once': 'pass', binding: 'pass', integrity: 'pass' });
  });

  it('lets a plain resume answer both pending interrupts, so a denied call runs; a resume by id and the guard do not', async () => {
    const plain = await cell('reject', 'two-approvals');
    expect(verdicts(plain.verdicts)).toEqual({ 'at-most-once': 'pass', binding: 'pass', integrity: 'fail', disclosure: 'pass' });
    expect(plain.verdicts.find((v) => v.property === 'integrity')!.counterexample!.explanation).toMatch(/executed a2 as notify\(.*\) on customer-1, but user had denied it\.$/);
    const all = { 'at-most-once': 'pass', binding: 'pass', integrity: 'pass', disclosure: 'pass' };
    expect(verdicts((await cell('reject-by-id', 'two-approvals')).verdicts)).toEqual(all);
    expect(verdicts((await cell('guarded-reject', 'two-approvals')).verdicts)).toEqual(all);
  });

  it('runs the action twice under interrupt: the first run is cancelled after its tool call, and the second resumes', async () => {
    const a = await load();
    // The shortest story the exhaustive cell finds (12 steps, out of 640 schedules).
    const schedule = parseSchedule('t1:1 t2:1 t1:2 t1:3 t2:2 t1:4 t1:5 t1:6 t2:3 t2:4 t2:5 t2:6');
    const run = await runWorld({ adapter: a, wiring: 'interrupt', store: 'memory', scenario: SCENARIOS.get('double-resume')! }, replaySelector(schedule));
    // The schedule ends where the property fails: the turns are stopped there.
    expect(run).toMatchObject({ status: 'stopped', turnErrors: [], unhandled: [] });
    const effects = run.history.events.filter((e) => e.kind === 'effect');
    expect(effects.map((e) => e.actor)).toEqual(['t1', 't2']);
  });

  it('loses what the file persistence had not written yet: a retry after a crash runs the action again', async () => {
    const memory = await cell('reject', 'crash-restart', 'memory');
    expect(verdicts(memory.verdicts)).toEqual({ 'at-most-once': 'pass', 'no-resurrection': 'fail', disclosure: 'fail' });
    const file = await cell('reject', 'crash-restart', 'file');
    expect(verdicts(file.verdicts)).toEqual({ 'at-most-once': 'fail', 'no-resurrection': 'fail', disclosure: 'pass' });
  });

  it('runs a forged approval (anyone who can create a run can resume)', async () => {
    expect(verdicts((await cell('reject', 'tamper')).verdicts)).toEqual({ integrity: 'fail' });
  });

  it('keeps every property of double-resume and tamper with the approval guard on the server graph', async () => {
    expect(verdicts((await cell('guarded-reject', 'double-resume')).verdicts)).toEqual({
      'at-most-once': 'pass',
      'no-resurrection': 'pass',
      'fresh-view': 'pass',
    });
    expect(verdicts((await cell('guarded-reject', 'tamper')).verdicts)).toEqual({ integrity: 'pass' });
  });

  it('starts each world from empty server state: no run or stream is kept from the worlds before', async () => {
    await cell('reject', 'double-resume');
    const server = await serverFor(await pinnedLib());
    // The last world's runs only: the setup's and the two resumes'.
    expect(Object.keys(server.streams.readers).length).toBeLessThanOrEqual(3);
    expect(Object.keys(server.opsConn.data!['runs']).length).toBeLessThanOrEqual(3);
  });
});
