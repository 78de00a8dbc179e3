// The reference runtime under the scenarios beyond the calibration: what its three switches do not cover, it fails,
// and the suite says so.
import { describe, expect, it } from 'vitest';
import { exploreCell, SCENARIOS, type Adapter, type ScenarioId } from '@approval-conformance/core';
import { referenceAdapter } from './adapter.js';

async function verdicts(scenario: ScenarioId, wiring: string, store = 'memory') {
  const cell = await exploreCell({ adapter: referenceAdapter, wiring, store, scenario: SCENARIOS.get(scenario)! });
  expect(cell.exhausted).toBe(true);
  return Object.fromEntries(cell.verdicts.map((v) => [v.property, v.verdict]));
}

describe('the reference runtime beyond its switches', () => {
  it('never asks the model again on resume, so a re-proposal cannot change the action', async () => {
    expect(await verdicts('re-proposal', 'after-snapshot')).toEqual({ binding: 'pass' });
  });

  it('refuses an answer that comes after its own timeout (a minute), and tells the user it did not happen, on every wiring', async () => {
    for (const wiring of ['after-snapshot', 'cas-fresh', 'guarded-after-snapshot']) {
      expect(await verdicts('late-answer', wiring)).toEqual({ integrity: 'pass', disclosure: 'pass' });
    }
  });

  it('runs the action against a world that changed after the card was shown', async () => {
    expect(await verdicts('world-drift', 'cas-fresh')).toEqual({ binding: 'fail' });
  });

  it('tells the user a failed tool call did not happen, and lets a retry run it again when it spends after', async () => {
    expect(await verdicts('error-after-effect', 'after-snapshot')).toEqual({ disclosure: 'fail', 'at-most-once': 'fail' });
    expect(await verdicts('error-after-effect', 'cas-fresh')).toEqual({ disclosure: 'fail', 'at-most-once': 'pass' });
  });

  it('sends no idempotency key, so a transport retry applies the effect twice', async () => {
    expect(await verdicts('tool-retry', 'cas-fresh')).toEqual({ 'exactly-once-delivery': 'fail' });
  });

  it('runs the effect again after a crash when it spends after, and never tells the user of an effect before a crash', async () => {
    expect(await verdicts('crash-restart', 'after-snapshot', 'sqlite')).toEqual({
      'at-most-once': 'fail',
      'no-resurrection': 'fail',
      disclosure: 'fail',
    });
    expect(await verdicts('crash-restart', 'cas-fresh', 'sqlite')).toEqual({
      'at-most-once': 'pass',
      'no-resurrection': 'pass',
      disclosure: 'fail',
    });
  });

  it('keeps each card it shows in the record, when a resume and a new request overlap', async () => {
    expect(await verdicts('overlapping-turns', 'cas-fresh', 'sqlite')).toEqual({ 'shown-is-recorded': 'pass' });
  });

  it('executes an action edited in its store, and an approval no human gave', async () => {
    const cell = await exploreCell({ adapter: referenceAdapter, wiring: 'cas-fresh', store: 'memory', scenario: SCENARIOS.get('tamper')! });
    expect(cell.verdicts[0]).toMatchObject({ property: 'integrity', verdict: 'fail', exhaustive: true });
    expect(cell.verdicts[0]!.counterexample!.schedule).toMatch(/^holder:1(=1)? t1:1/);
  });

  it('ignores a second approval it does not have, and a replayed answer finds the record spent', async () => {
    expect(await verdicts('replay', 'before-fresh')).toEqual({ 'at-most-once': 'pass', binding: 'pass', integrity: 'pass' });
  });

  it('keeps two pending approvals apart: each answer reaches its own record, and the denied call never runs', async () => {
    expect(await verdicts('two-approvals', 'after-snapshot')).toEqual({
      'at-most-once': 'pass',
      binding: 'pass',
      integrity: 'pass',
      disclosure: 'pass',
    });
  });

  it('fails an app that cross-wires the answers (the "yes" for a1 resumes a2), with a short story', async () => {
    // The app's bug, not the runtime's: it sends each answer to the other card, as an app that answers "the pending
    // approval" by position might.
    const other = (id: string) => (id === 'a1' ? 'a2' : 'a1');
    const crossWired: Adapter = {
      ...referenceAdapter,
      createWorld: async (env) => {
        const world = await referenceAdapter.createWorld(env);
        return { ...world, resume: (turn, answer) => world.resume(turn, { ...answer, approvalId: other(answer.approvalId) }) };
      },
    };
    const cell = await exploreCell({ adapter: crossWired, wiring: 'cas-fresh', store: 'memory', scenario: SCENARIOS.get('two-approvals')! });
    const integrity = cell.verdicts.find((v) => v.property === 'integrity')!;
    expect(integrity).toMatchObject({ verdict: 'fail', exhaustive: true });
    const { explanation, story, steps } = integrity.counterexample!;
    expect(explanation).toMatch(/^t\d executed a2 as notify\(.*\) on customer-1, but user had denied it\.$/);
    expect(story).toContain('user denied a2: notify(template="refund-sent") on customer-1');
    expect(steps).toBeLessThanOrEqual(4);
  });
});
