// Both SDK lines under the explorer, each cell explored to its end. Legacy push
// elicitation keeps one pending request per confirmation and takes it with the answer in one tick, so two answers
// run the tool once. Multi-round tool results keep nothing on the server: the confirmation travels in the request, and
// any request that carries it runs the tool, the codec's signed state or not.
import { describe, expect, it } from 'vitest';
import { SCENARIOS, type ScenarioId } from '@approval-conformance/core';
import { exploreCell } from '@approval-conformance/core/explorer';
import { descriptor } from './descriptor.js';
import { mcpAdapter } from './adapter.js';
import { pinnedLib } from './lib.js';

const [legacy, mrtr] = await Promise.all([pinnedLib('1'), pinnedLib('2')]);

async function verdicts(lib: typeof legacy, wiring: string, scenario: ScenarioId, store = 'memory') {
  const cell = await exploreCell({ adapter: mcpAdapter(lib), wiring, store, scenario: SCENARIOS.get(scenario)! });
  expect(cell.exhausted, 'every schedule in the bound was explored').toBe(true);
  return Object.fromEntries(cell.verdicts.map((v) => [v.property, v.counterexample ? `${v.verdict} (${v.counterexample.steps} steps)` : v.verdict]));
}

describe(`legacy push elicitation (@modelcontextprotocol/sdk ${legacy.version})`, () => {
  it('runs the tool once for two answers to one confirmation: the second finds no pending request', async () => {
    expect(await verdicts(legacy, 'elicit-input', 'double-resume')).toEqual({ 'at-most-once': 'pass', 'no-resurrection': 'pass', 'fresh-view': 'pass' });
  });
  it('drops an answer replayed after the call completed', async () => {
    expect(await verdicts(legacy, 'elicit-input', 'replay')).toEqual({ 'at-most-once': 'pass', binding: 'pass', integrity: 'pass' });
  });
  it('binds nothing of the world to the confirmation, and sends the backend no idempotency key', async () => {
    expect(await verdicts(legacy, 'elicit-input', 'world-drift')).toEqual({ binding: 'fail (2 steps)' });
    expect(await verdicts(legacy, 'elicit-input', 'tool-retry')).toEqual({ 'exactly-once-delivery': 'fail (3 steps)' });
  });
  it("runs it once across a restart, but the user is never told: the host's answer reaches a server that holds no such request", async () => {
    expect(await verdicts(legacy, 'elicit-input', 'crash-restart')).toEqual({ 'at-most-once': 'pass', 'no-resurrection': 'pass', disclosure: 'fail (4 steps)' });
  });
  it('acts on a forged accept: the host relays the answer, and a forged one comes the same way', async () => {
    expect(await verdicts(legacy, 'elicit-input', 'tamper')).toEqual({ integrity: 'fail (3 steps)' });
  });
  it("gives up on a late answer: the host's request timeout (60 s) tells the user the call failed, and the server drops the answer", async () => {
    expect(await verdicts(legacy, 'elicit-input', 'late-answer')).toEqual({ integrity: 'pass', disclosure: 'pass' });
  });
  it('tells the user a transfer failed when it ran and then threw: the host shows the error result', async () => {
    expect(await verdicts(legacy, 'elicit-input', 'error-after-effect')).toEqual({ disclosure: 'fail (5 steps)', 'at-most-once': 'pass' });
  });
  it('answers two elicitations pending at once, each its own', async () => {
    expect(Object.values(await verdicts(legacy, 'elicit-input', 'two-approvals'))).toEqual(['pass', 'pass', 'pass', 'pass']);
  });
  it("guarded: refuses a forged accept (the click is the server's page), but a restart leaves the host's answer nowhere to go", async () => {
    expect(await verdicts(legacy, 'guarded-elicit-input', 'tamper')).toEqual({ integrity: 'pass' });
    expect(await verdicts(legacy, 'guarded-elicit-input', 'crash-restart', 'sqlite')).toEqual({ 'at-most-once': 'pass', 'no-resurrection': 'pass', disclosure: 'fail (6 steps)' });
  });
});

describe(`multi-round tool results (@modelcontextprotocol/server ${mrtr.version})`, () => {
  for (const wiring of ['input-required', 'input-required-codec']) {
    it(`${wiring}: runs the tool for every request that carries the accepted confirmation`, async () => {
      expect(await verdicts(mrtr, wiring, 'double-resume')).toEqual({ 'at-most-once': 'fail (4 steps)', 'no-resurrection': 'fail (2 steps)', 'fresh-view': 'pass' });
      expect(await verdicts(mrtr, wiring, 'replay')).toMatchObject({ 'at-most-once': 'fail (5 steps)' });
    });
    it(`${wiring}: runs the call the host sends with the accepted confirmation, edited or not`, async () => {
      expect(await verdicts(mrtr, wiring, 'tamper')).toEqual({ integrity: 'fail (3 steps)' });
    });
  }
  it("input-required: runs it again when the host retries after the server's restart", async () => {
    expect(await verdicts(mrtr, 'input-required', 'crash-restart')).toEqual({ 'at-most-once': 'fail (5 steps)', 'no-resurrection': 'fail (2 steps)', disclosure: 'pass' });
  });
  it("input-required-codec: refuses the retry (the new process's key), so the user is told the transfer that ran did not", async () => {
    expect(await verdicts(mrtr, 'input-required-codec', 'crash-restart')).toEqual({ 'at-most-once': 'pass', 'no-resurrection': 'fail (2 steps)', disclosure: 'fail (5 steps)' });
  });
  it("input-required-codec: refuses an answer past the request state's time to live (600 s); without the codec nothing expires", async () => {
    expect(await verdicts(mrtr, 'input-required-codec', 'late-answer')).toEqual({ integrity: 'pass', disclosure: 'pass' });
    expect(mcpAdapter(mrtr).applicability('late-answer', 'input-required', 'memory')).toMatchObject({ applicable: false, reason: expect.stringMatching(/^nothing expires/) });
  });
  it('input-required: a retry after the tool threw runs it again, the user told it failed', async () => {
    expect(await verdicts(mrtr, 'input-required', 'error-after-effect')).toEqual({ disclosure: 'fail (6 steps)', 'at-most-once': 'fail (5 steps)' });
  });
  for (const wiring of ['guarded-input-required', 'guarded-input-required-codec']) {
    it(`${wiring}: spends the guard's record once, for the call the card showed, and finds it again after a restart`, async () => {
      expect(Object.values(await verdicts(mrtr, wiring, 'double-resume'))).toEqual(['pass', 'pass', 'pass']);
      expect(await verdicts(mrtr, wiring, 'tamper')).toEqual({ integrity: 'pass' });
      expect(await verdicts(mrtr, wiring, 'crash-restart', 'sqlite')).toEqual({ 'at-most-once': 'pass', 'no-resurrection': 'pass', disclosure: 'pass' });
    });
  }
});

describe('the descriptor', () => {
  it('names both lines, loads each pinned version, and picks the newest of each line', async () => {
    expect(await descriptor.shape()).toEqual({
      wirings: ['elicit-input', 'guarded-elicit-input', 'input-required', 'input-required-codec', 'guarded-input-required', 'guarded-input-required-codec'],
      stores: ['memory', 'sqlite'],
    });
    expect(descriptor.defaults(['1.12.3', '1.13.0', '1.32.2', '2.0.0', '2.4.0', '2.5.0-beta.1'])).toEqual(['1.32.2', '2.4.0']);
    expect(['1.13.0', '1.32.2', '2.0.0'].map((v) => descriptor.line!(v))).toEqual(['1', '1', '2']);
    const loaded = await descriptor.load('1.32.2', () => {});
    expect(loaded.adapter.wirings.map((w) => w.id)).toEqual(['elicit-input', 'guarded-elicit-input']);
    expect(loaded.packages['@modelcontextprotocol/sdk']).toBe('1.32.2');
  });
  it('says which scenarios it does not model, and where a store would only repeat the memory cell, never a pass', () => {
    expect(mcpAdapter(mrtr).applicability('three-tabs', 'input-required', 'memory')).toEqual({ applicable: true });
    expect(mcpAdapter(mrtr).applicability('three-tabs', 'input-required', 'sqlite')).toMatchObject({ applicable: false });
    expect(mcpAdapter(mrtr).applicability('three-tabs', 'guarded-input-required', 'sqlite')).toEqual({ applicable: true });
  });
});
