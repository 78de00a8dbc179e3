// The Cloudflare Agents adapter on the pinned pair (@cloudflare/ai-chat 0.12.2 + agents 0.32.0), in workerd.
// Every cell is explored exhaustively over the real framework; the verdicts come from those explorations.
import { afterAll, describe, expect, it } from 'vitest';
import {
  exploreCell,
  randomSelector,
  replaySelector,
  runWorld,
  SCENARIOS,
  type CellResult,
  type ExploreOptions,
  type ScenarioId,
} from '@approval-conformance/core';
import { cloudflareAgentsAdapter, WIRED } from './adapter.js';
import { stopRuntime } from './runtime.js';

// One workerd for the whole file, stopped once in afterAll: the adapter's release stops it after every cell, which
// here would start a dozen, each about 1.5 s of CPU (Miniflare's setup, workerd compiling the 3 MB bundle). Every world
// is an object of its own, in one workerd or another.
const { release: _perCell, ...adapter } = cloudflareAgentsAdapter();
const verdicts = (r: CellResult) => Object.fromEntries(r.verdicts.map((v) => [v.property, v.verdict]));
const steps = (r: CellResult) => Object.fromEntries(r.verdicts.filter((v) => v.counterexample).map((v) => [v.property, v.counterexample!.steps]));
const cell = (scenario: ScenarioId, options: ExploreOptions = {}, wiring = 'ai-chat-approval') =>
  exploreCell({ adapter, wiring, store: 'durable-object', scenario: SCENARIOS.get(scenario)! }, options);

afterAll(stopRuntime);

describe('cloudflare-agents', () => {
  it('is the installed ai-chat, applicable to the wired scenarios only', () => {
    expect(adapter.version).toBe('0.12.2');
    expect(adapter.applicability('double-resume', 'ai-chat-approval', 'durable-object')).toEqual({ applicable: true });
    for (const scenario of ['tamper', 'replay', 'two-approvals', 'three-tabs', 'error-after-effect', 'tool-retry', 'world-drift', 're-proposal']) {
      expect(adapter.applicability(scenario as ScenarioId, 'ai-chat-approval', 'durable-object')).toEqual({ applicable: true });
    }
    expect(adapter.applicability('crash-restart-no-keys', 'guarded-ai-chat-approval', 'durable-object')).toEqual({ applicable: true });
    expect(adapter.applicability('crash-restart-no-keys', 'ai-chat-approval', 'durable-object').applicable).toBe(false);
  });

  // Signed approvals: ai 7 has experimental_toolApprovalSecret, but the pinned agents' applyChunkToParts stores the
  // approval without the signature (tried on the installed builder before any world is built): every cell n/a.
  it('makes every signed-ai-chat-approval cell not applicable: ai-chat drops the signature it would need', async () => {
    const reason =
      "@cloudflare/ai-chat 0.12.2 (agents 0.32.0) drops the approval's signature when it stores the tool part (applyChunkToParts keeps { id, descriptor }), so with experimental_toolApprovalSecret every approved call fails 'missing signature' and the tool never runs: a signed approval cannot be used";
    for (const scenario of WIRED) {
      if (SCENARIOS.get(scenario)!.guardedOnly) continue;
      expect(adapter.applicability(scenario, 'signed-ai-chat-approval', 'durable-object')).toEqual({ applicable: false, reason });
    }
    expect(adapter.wirings.find((w) => w.id === 'signed-ai-chat-approval')?.docsDefault).toBeUndefined();
    expect(adapter.wirings.filter((w) => w.docsDefault).map((w) => w.id)).toEqual(['ai-chat-approval']);
    // The other wirings are not asked about signatures.
    expect(adapter.applicability('tamper', 'ai-chat-approval', 'durable-object')).toEqual({ applicable: true });
  });

  // The flip approval-requested -> approval-responded refuses the second answer, so the tool runs once; but it runs
  // while the record still says approval-responded (unspent), spent only once its output is stored.
  it('runs the tool once when two tabs answer the same approval, while the record still says unspent', async () => {
    const result = await cell('double-resume');
    expect(result.exhausted).toBe(true);
    expect(result.findings).toEqual([]);
    expect(verdicts(result)).toEqual({ 'at-most-once': 'pass', 'no-resurrection': 'fail', 'fresh-view': 'pass' });
    expect(steps(result)).toEqual({ 'no-resurrection': 3 });
    expect(result.verdicts.find((v) => v.property === 'no-resurrection')!.counterexample!.schedule).toBe('t1:1 t1:2 t1:3');
    expect(result.schedules).toBe(10);
  });

  // t1 resumes a1 while t2, in a new tab, sends a new request: the card t2 is shown is the one the record holds.
  it('shows the card the record holds when a resume and a new request overlap', async () => {
    const result = await cell('overlapping-turns');
    expect(result.exhausted).toBe(true);
    expect(verdicts(result)).toEqual({ 'shown-is-recorded': 'pass' });
    expect(result.schedules).toBe(12);
  });

  // The process dies after the tool ran but before its output was stored: the part still says approval-responded,
  // and after the restart the retried approval's continuation runs the tool again.
  it('runs the tool again when the object restarts after the effect and the client retries', async () => {
    const result = await cell('crash-restart');
    expect(result.exhausted).toBe(true);
    expect(result.schedules).toBe(5);
    // The tool's output reached the tabs before the process died, and again after the retry ran it: told both times.
    expect(verdicts(result)).toEqual({ 'at-most-once': 'fail', 'no-resurrection': 'fail', disclosure: 'pass' });
    const amo = result.verdicts.find((v) => v.property === 'at-most-once')!.counterexample!;
    expect(amo.schedule).toBe('t1:1 t1:2 t1:3 t1:4! t2:1 t2:2 t2:3');
    expect(amo.explanation).toMatch(/dispatch t1\/a1.*dispatch t2\/a1/);
    const told = amo.history.filter((e) => e.kind === 'disclosure').map((e) => `${e.actor} ${e.kind === 'disclosure' ? e.says : ''}`);
    expect(told).toEqual(['t1 happened', 't2 happened']);
    expect(steps(result)['no-resurrection']).toBe(3);
  });

  // Guarded: the tool's execute spends the approval with the guard before the backend; after the restart the retry's
  // spend is refused (spent already) and recovered with the same idempotency key, which the backend applies once.
  it('runs the tool at most once across the restart when the guard spends the approval first', async () => {
    const result = await cell('crash-restart', {}, 'guarded-ai-chat-approval');
    expect(result.exhausted).toBe(true);
    expect(result.findings).toEqual([]);
    expect(result.schedules).toBe(8);
    expect(verdicts(result)).toEqual({ 'at-most-once': 'pass', 'no-resurrection': 'pass', disclosure: 'pass' });
  });

  // As core's reductions test: every reduction gives the verdicts and shortest counterexamples that none gives, with
  // the world's declarations and contents checked (a release that touched what it did not declare makes the cell
  // `error`). Kept small: none, the defaults, all.
  it('gives with each reduction the verdicts and shortest lengths that none gives', async () => {
    const none = await cell('double-resume', { reduce: false, checkContents: true });
    expect(none.schedules).toBe(20);
    const variants = [{ name: 'defaults', reduce: true as const }];
    for (const { name, reduce } of variants) {
      const reduced = await cell('double-resume', { reduce, checkContents: true });
      expect({ name, exhausted: reduced.exhausted, verdicts: verdicts(reduced), steps: steps(reduced) }).toEqual({
        name,
        exhausted: true,
        verdicts: verdicts(none),
        steps: steps(none),
      });
      expect(reduced.schedules).toBeLessThanOrEqual(none.schedules);
    }
  });

  // The scenarios whose wiring needed more than the resume: a client's edit of the chat (tamper), the model's
  // follow-up approval (replay), two calls in one step (two-approvals), a tool that fails after its effect.
  it('judges tamper, replay, two-approvals and error-after-effect on the real framework', async () => {
    const tamper = await cell('tamper');
    expect({ schedules: tamper.schedules, verdicts: verdicts(tamper), steps: steps(tamper) }).toEqual({
      schedules: 2,
      verdicts: { integrity: 'fail' },
      steps: { integrity: 4 },
    });
    // The edit (holder:1 = 0) is the shortest: the client's copy of the chat, sent back, is what the tool runs.
    expect(tamper.verdicts[0]!.counterexample!.explanation).toMatch(/acct-666.*holder had tampered/);
    const replay = await cell('replay');
    expect({ schedules: replay.schedules, verdicts: verdicts(replay) }).toEqual({
      schedules: 1,
      verdicts: { 'at-most-once': 'pass', binding: 'pass', integrity: 'pass' },
    });
    const two = await cell('two-approvals');
    expect({ exhausted: two.exhausted, schedules: two.schedules, verdicts: verdicts(two) }).toEqual({
      exhausted: true,
      schedules: 10,
      verdicts: { 'at-most-once': 'pass', binding: 'pass', integrity: 'pass', disclosure: 'pass' },
    });
    const error = await cell('error-after-effect');
    expect({ schedules: error.schedules, verdicts: verdicts(error), steps: steps(error) }).toEqual({
      schedules: 1,
      verdicts: { disclosure: 'fail', 'at-most-once': 'pass' },
      steps: { disclosure: 7 },
    });
  });

  // Guarded: t1's continuation runs the tool and t2's answer reaches the object after the part left
  // approval-requested, so the framework refuses it and nothing runs in t2's request. Once t2's answer is handled, the
  // app asks the guard what became of a1 (`recover`, one gated read of its record after t1 settled it `ran`): t2's tab
  // is told it happened. (The same recovery tells a crash-restart retry on ai-chat before 0.9.4, which refuses it.)
  it('tells a tab whose answer the framework refused what the guard says became of the approval', async () => {
    const subject = { adapter, wiring: 'guarded-ai-chat-approval', store: 'durable-object', scenario: SCENARIOS.get('double-resume')! };
    const order = ['t2:1', 't1:1', 't2:2', 't1:2', 't1:3', 't1:4', 't1:5', 't1:6', 't2:3', 't1:7'];
    const run = await runWorld(subject, replaySelector(order.map((gate) => ({ gate, choice: 0 }))));
    expect(run.status).toBe('complete');
    const said = run.history.events.flatMap((e) =>
      e.kind === 'effect' ? [`${e.actor} effect ${e.applied}`] : e.kind === 'disclosure' ? [`${e.actor} ${e.says}`] : [],
    );
    expect(said).toEqual(['t1 effect true', 't1 happened', 't2 happened']);
    // t2 read the guard's record (its recovery) after t1's settle wrote it.
    const t2Reads = run.history.events.filter((e) => e.kind === 'record-read' && e.actor === 't2');
    expect(t2Reads.at(-1)).toMatchObject({ approvalId: 'a1', state: 'spent' });
  });

  it('replays a random schedule to the same history', async () => {
    const subject = { adapter, wiring: 'ai-chat-approval', store: 'durable-object', scenario: SCENARIOS.get('double-resume')! };
    const first = await runWorld(subject, randomSelector(7));
    expect(first.status).toBe('complete');
    const events = (run: typeof first) => JSON.stringify(run.history.events);
    for (let i = 0; i < 2; i++) {
      const again = await runWorld(subject, replaySelector(first.schedule));
      expect(again.status).toBe('complete');
      expect(events(again)).toBe(events(first));
    }
  });
});
