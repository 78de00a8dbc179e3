// Every reduction of the explorer, on its own and all together, gives the verdicts and the shortest counterexample
// lengths that running every schedule to its end gives: on every reference wiring, and on small cells of every
// framework and wiring family, the guarded wirings and the backend without keys included, Mastra's fake timers, exact
// accesses and changes in place, and its two processes on one LibSQL file, where symmetry is vetoed. Larger cells are
// compared the same way by `approval-conformance audit` (CI runs a seeded sample of them on every commit).
import { describe, expect, it } from 'vitest';
import { exploreCell, SCENARIOS, type Adapter, type Reductions, type ScenarioId } from '@approval-conformance/core';
import { referenceAdapter, WIRINGS } from '@approval-conformance/adapter-reference';
import { langgraphAdapter, pinnedLib as langgraphLib } from '@approval-conformance/adapter-langgraph';
import { aiSdkAdapter, pinnedLib as aiLib } from '@approval-conformance/adapter-ai-sdk';
import { openaiAgentsAdapter, pinnedLib as agentsLib } from '@approval-conformance/adapter-openai-agents';
import { mastraAdapter, pinnedLib as mastraLib } from '@approval-conformance/adapter-mastra';
import { langgraphServerAdapter, pinnedLib as serverLib } from '@approval-conformance/adapter-langgraph-server';
import { adkAdapter, pinnedLib as adkLib } from '@approval-conformance/adapter-adk';

/**
 * Commuting releases against every schedule run to its end; then each other reduction added to it alone (the ground
 * it stands on: each is checked with and without itself), then all of them.
 */
const VARIANTS: readonly [string, Reductions | true][] = [
  ['commute', { commute: true, sourceSets: false, bound: false, symmetry: false }],
  ['commute + source-sets', { commute: true, sourceSets: true, bound: false, symmetry: false }],
  ['commute + bound', { commute: true, sourceSets: false, bound: true, symmetry: false }],
  ['commute + symmetry', { commute: true, sourceSets: false, bound: false, symmetry: true }],
  ['the default ones', true],
  ['all', { commute: true, sourceSets: true, bound: true, symmetry: true }],
];

/** Verdicts and lengths only: the schedule counts are what a reduction changes. */
async function outcome(adapter: Adapter, wiring: string, store: string, scenario: ScenarioId, reduce: Reductions | boolean) {
  const cell = await exploreCell({ adapter, wiring, store, scenario: SCENARIOS.get(scenario)! }, { reduce });
  expect(cell.exhausted).toBe(true);
  return Object.fromEntries(cell.verdicts.map((v) => [v.property, `${v.verdict} ${v.counterexample?.steps ?? ''}`.trim()]));
}

async function sameWithEveryReduction(adapter: Adapter, wiring: string, store: string, scenario: ScenarioId) {
  const full = await outcome(adapter, wiring, store, scenario, false);
  for (const [name, reduce] of VARIANTS) {
    expect(await outcome(adapter, wiring, store, scenario, reduce), `${scenario} on ${wiring}/${store}, ${name}`).toEqual(full);
  }
}

describe('every reduction keeps every verdict and shortest length', () => {
  it.each([...WIRINGS.keys()])('reference %s (double-resume and overlapping-turns)', async (wiring) => {
    for (const scenario of ['double-resume', 'overlapping-turns'] as const) {
      await sameWithEveryReduction(referenceAdapter, wiring, 'memory', scenario);
    }
  });

  it('reference guarded-after-snapshot (the guard, and the backend without keys)', async () => {
    for (const scenario of ['double-resume', 'overlapping-turns', 'double-resume-no-keys', 'crash-restart-no-keys'] as const) {
      await sameWithEveryReduction(referenceAdapter, 'guarded-after-snapshot', 'memory', scenario);
    }
  });

  const langgraph = new Map<number, Promise<Adapter>>();
  const pinnedLangGraph = (line: 0 | 1) => langgraph.get(line) ?? langgraph.set(line, langgraphLib(line).then(langgraphAdapter)).get(line)!;
  it.each([
    [1, 'interrupt-node', 'double-resume'],
    [0, 'interrupt-node', 'double-resume'],
    [1, 'separate-node', 'replay'],
    [0, 'separate-node', 'replay'],
    [1, 'separate-node', 'crash-restart'],
    [0, 'separate-node', 'crash-restart'],
    [1, 'separate-node', 'tamper'],
  ] as const)('langgraph (pinned line %s) %s %s', async (line, wiring, scenario) => {
    await sameWithEveryReduction(await pinnedLangGraph(line), wiring, 'memory', scenario);
  });

  it.each([
    [1, 'guarded-interrupt-node', 'crash-restart'],
    [1, 'guarded-separate-node', 'replay-no-keys'],
  ] as const)('langgraph (pinned line %s) %s %s', async (line, wiring, scenario) => {
    await sameWithEveryReduction(await pinnedLangGraph(line), wiring, 'memory', scenario);
  });

  it.each([7, 6, 5] as const)('ai (pinned line %s): small cells', async (line) => {
    const adapter = await aiSdkAdapter(await aiLib(line));
    const wiring = line === 5 ? 'cookbook-hitl' : 'native-approval';
    for (const scenario of ['double-resume', 'overlapping-turns', 'replay', 'tamper'] as const) {
      await sameWithEveryReduction(adapter, wiring, 'memory', scenario);
    }
  });

  it('ai (pinned line 7): the guarded and UI wirings', async () => {
    const adapter = await aiSdkAdapter(await aiLib(7));
    await sameWithEveryReduction(adapter, 'guarded-native-approval', 'memory', 'double-resume-no-keys');
    await sameWithEveryReduction(adapter, 'ui-client-history', 'memory', 'replay');
  });

  it('openai-agents (pinned line 0.20): run state, plain, guarded and server-owned (a take in one gate)', async () => {
    const adapter = await openaiAgentsAdapter(await agentsLib('0.20'));
    for (const [wiring, store, scenario] of [
      ['run-state', 'memory', 'double-resume'],
      ['guarded-run-state', 'memory', 'crash-restart'],
      ['server-owned-state', 'sqlite', 'double-resume'],
    ] as const) {
      await sameWithEveryReduction(adapter, wiring, store, scenario);
    }
  });

  it('langgraph-server (pinned 1.5.1): gated ops and queue claims, a crash in the file persistence\'s window, the guard', async () => {
    const adapter = await langgraphServerAdapter(await serverLib());
    // Its double-resume cells are too large unreduced for a test (two turns of a dozen gates each): audit covers them.
    for (const [wiring, store, scenario] of [
      ['reject', 'file', 'crash-restart'],
      ['enqueue', 'memory', 'tamper'],
      ['guarded-reject', 'memory', 'crash-restart'],
    ] as const) {
      await sameWithEveryReduction(adapter, wiring, store, scenario);
    }
  });

  it('adk (pinned 2.0.0 and 0.1.2): the session service gated, a crash, the guard and its blind appends, the pinned copy edited', async () => {
    const adk2 = await adkAdapter(await adkLib('2'));
    for (const [wiring, store, scenario] of [
      ['require-confirmation', 'memory', 'crash-restart'],
      ['require-confirmation', 'memory', 'tamper'],
      ['guarded-require-confirmation', 'memory', 'crash-restart'],
      // Under the guard the memory store's appends are blind (`Access.blind`): 48 schedules reduced, 717 unreduced.
      ['guarded-require-confirmation', 'memory', 'two-approvals'],
    ] as const) {
      await sameWithEveryReduction(adk2, wiring, store, scenario);
    }
    await sameWithEveryReduction(await adkAdapter(await adkLib('0')), 'request-confirmation', 'memory', 'replay');
  });

  it('mastra (pinned line 1.71): fake timers, exact accesses and changes in place on memory; two processes on libsql-shared', async () => {
    const adapter = await mastraAdapter(await mastraLib('1.71'));
    for (const [wiring, store, scenario] of [
      ['workflow-suspend', 'memory', 'double-resume'],
      ['workflow-suspend', 'libsql-shared', 'double-resume'],
      ['guarded-workflow-suspend', 'memory', 'double-resume'],
      ['agent-approval', 'memory', 'crash-restart'],
      // The one-time approvals: a Set per process, gated where the click adds and the hook deletes (its double-resume
      // is too large unreduced for a test: audit covers it).
      ['one-time-approval', 'memory', 'crash-restart'],
    ] as const) {
      await sameWithEveryReduction(adapter, wiring, store, scenario);
    }
  });
});
