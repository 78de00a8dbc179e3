// DBOS under the explorer, on the suite's PostgreSQL server (scripts/postgres.sh, started once for the machine's
// tests), each cell explored to its end. The docs' wiring keeps at-most-once for concurrent answers (recv takes one
// message, in the transaction that records it), but a duplicate answer waits for the next card and answers it; the
// idempotency key per card stops that. Steps are at least once: a crash between the tool and its checkpoint runs it
// again on recovery. The guard keeps all of it.
import { afterAll, describe, expect, it } from 'vitest';
import { SCENARIOS, type ScenarioId } from '@approval-conformance/core';
import { exploreCell } from '@approval-conformance/core/explorer';
import { testPostgres } from '@approval-conformance/testkit';
import { dbosAdapter } from './adapter.js';
import { pinnedLib } from './lib.js';

const server = testPostgres();
const lib = await pinnedLib();
const adapter = dbosAdapter(lib);
afterAll(() => adapter.dispose?.());

async function verdicts(wiring: string, scenario: ScenarioId) {
  const cell = await exploreCell({ adapter, wiring, store: 'postgres', scenario: SCENARIOS.get(scenario)! });
  expect(cell.exhausted, 'every schedule in the bound was explored').toBe(true);
  expect(cell.findings, 'nothing the explorer found wrong with the subject or the adapter').toEqual([]);
  return Object.fromEntries(cell.verdicts.map((v) => [v.property, v.counterexample ? `${v.verdict} (${v.counterexample.steps} steps)` : v.verdict]));
}

describe.skipIf(!server.url)(`DBOS ${lib.version} (@dbos-inc/dbos-sdk), on PostgreSQL`, () => {
  it("recv-send: two answers at once run the transfer once: recv takes one message, in the transaction that records it", async () => {
    expect(await verdicts('recv-send', 'double-resume')).toEqual({ 'at-most-once': 'pass', 'no-resurrection': 'pass', 'fresh-view': 'pass' });
  });
  it('recv-send: an answer sent again waits for the next card, and answers it: an action no human approved runs', async () => {
    expect(await verdicts('recv-send', 'replay')).toEqual({ 'at-most-once': 'pass', binding: 'pass', integrity: 'fail (20 steps)' });
  });
  it('send-idempotency-key: the key per card keeps the second answer out, and the next card waits for its own', async () => {
    expect(await verdicts('send-idempotency-key', 'replay')).toEqual({ 'at-most-once': 'pass', binding: 'pass', integrity: 'pass' });
    // Two answers at once with one key: whichever is sent first wakes the workflow, which runs the transfer once.
    expect(await verdicts('send-idempotency-key', 'double-resume')).toEqual({ 'at-most-once': 'pass', 'no-resurrection': 'pass', 'fresh-view': 'pass' });
  });
  it('recv-send: a crash between the tool and its checkpoint runs the tool again on recovery (steps are at least once)', async () => {
    expect(await verdicts('recv-send', 'crash-restart')).toEqual({ 'at-most-once': 'fail (12 steps)', 'no-resurrection': 'pass', disclosure: 'pass' });
  });
  it("recv-send: acts on a world that moved, on a forged answer, and tells the user a transfer that threw failed", async () => {
    expect(await verdicts('recv-send', 'world-drift')).toEqual({ binding: 'fail (5 steps)' });
    expect(await verdicts('recv-send', 'tamper')).toEqual({ integrity: 'fail (6 steps)' });
    expect(await verdicts('recv-send', 'error-after-effect')).toEqual({ disclosure: 'fail (11 steps)', 'at-most-once': 'pass' });
  });
  it("recv-send: a late answer finds recv timed out (120 s), the workflow gone on, and the user is told nothing ran", async () => {
    expect(await verdicts('recv-send', 'late-answer')).toEqual({ integrity: 'pass', disclosure: 'pass' });
  });
  it('guarded-recv-send: keeps every property where the docs\' wiring does not', async () => {
    for (const scenario of ['replay', 'crash-restart', 'world-drift', 'tamper', 'error-after-effect', 'tool-retry'] as const) {
      const all = Object.values(await verdicts('guarded-recv-send', scenario));
      expect(all.length > 0 && all.every((v) => v === 'pass'), `${scenario}: ${all.join(', ')}`).toBe(true);
    }
  });
});
