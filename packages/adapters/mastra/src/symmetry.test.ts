// The symmetry reduction takes two turns that make the same call to be the same but for their names, and releases
// the first one first. On libsql-shared they are not: t2 is served by a second Mastra instance over the same file,
// while t1's instance ran the setup and caches the run. The adapter vetoes symmetry there, so runs that start with
// t2 are explored too; on libsql (one instance) they are taken to be the first turn's runs with the names swapped.
import { describe, expect, it } from 'vitest';
import { exploreCell, SCENARIOS, type Adapter } from '@approval-conformance/core';
import { mastraAdapter } from './adapter.js';
import { pinnedLib } from './lib.js';

/** The turn whose resume first got past a gate, in each schedule the explorer ran. */
async function firstMovers(adapter: Adapter, store: string): Promise<string[]> {
  const first = new Set<string>();
  const watching: Adapter = {
    ...adapter,
    createWorld: async (env) => {
      let seen: string | undefined;
      return adapter.createWorld({
        ...env,
        gate: async (turn, label, options) => {
          const choice = await env.gate(turn, label, options);
          if (seen === undefined && (turn === 't1' || turn === 't2')) first.add((seen = turn));
          return choice;
        },
      });
    },
  };
  const cell = await exploreCell({ adapter: watching, wiring: 'workflow-suspend', store, scenario: SCENARIOS.get('double-resume')! });
  expect(cell.exhausted).toBe(true);
  return [...first].sort();
}

describe('symmetry on Mastra', () => {
  it('is vetoed where the two turns are served by two Mastra instances (libsql-shared), and used where one serves both', async () => {
    const adapter = await mastraAdapter(await pinnedLib('1.71'));
    expect(adapter.turnsAlike?.('workflow-suspend', 'libsql-shared')).toBe(false);
    expect(adapter.turnsAlike?.('workflow-suspend', 'libsql')).toBe(true);
    expect(await firstMovers(adapter, 'libsql-shared')).toEqual(['t1', 't2']);
    expect(await firstMovers(adapter, 'libsql')).toEqual(['t1']);
  });
});
