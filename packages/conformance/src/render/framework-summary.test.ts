import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIOS, SCENARIOS } from '@approval-conformance/core';
import { cell } from '../results.fixtures.js';
import type { ResultTarget, RunOptions } from '../results.js';
import { MARKDOWN, type Block } from './blocks.js';
import { frameworkSummary, leftOut } from './framework-summary.js';

const matrix: RunOptions = { scenarios: [...DEFAULT_SCENARIOS], mode: 'exhaustive', seed: 1, reduce: true };
const named: RunOptions = { ...matrix, scenarios: ['three-tabs'], wirings: ['plain', 'slow'] };

describe('leftOut', () => {
  it('says the default matrix left a wiring out only where the run was the default matrix and finished', () => {
    expect([...leftOut(['slow'], { options: matrix, complete: true })]).toEqual([['default', ['slow']]]);
    expect([...leftOut(['slow'], { complete: true })]).toEqual([['default', ['slow']]]);
  });

  it("tells a wiring the run's --wiring left out from one it named and did not finish", () => {
    expect([...leftOut(['other', 'slow'], { options: named, complete: false })]).toEqual([
      ['filtered', ['other']],
      ['unfinished', ['slow']],
    ]);
    // Finished, the wiring it did not name is still only filtered.
    expect([...leftOut(['other'], { options: named, complete: true })]).toEqual([['filtered', ['other']]]);
  });

  it('does not know, for an unfinished run of every wiring, whether the default matrix or the stop left a wiring out', () => {
    expect([...leftOut(['slow'], { options: matrix, complete: false })]).toEqual([['unfinished-or-default', ['slow']]]);
  });
});

describe("a framework page's wirings with no cell", () => {
  const target: ResultTarget = {
    framework: 'ai',
    version: '7.0.0',
    spec: 'ai@7.0.0',
    packages: {},
    wirings: [
      { id: 'plain', description: 'the docs' },
      { id: 'slow', description: 'a slow one' },
      { id: 'other', description: 'one the run did not name' },
    ],
  };
  const text = (blocks: Block[]) => blocks.flatMap((b) => (b.kind === 'p' ? [b.inline] : [])).join('\n');
  const cells = [{ ...cell({ version: '7.0.0', verdict: 'pass' }), wiring: 'plain' }];
  const page = (options: RunOptions, complete: boolean) =>
    text(frameworkSummary(MARKDOWN, 'ai', { targets: [target], cells, scenarios: [...SCENARIOS.values()], options, complete }));

  it('names the filter, or the unfinished run, never the default matrix, for a run of named wirings', () => {
    const said = page(named, false);
    expect(said).toContain("Not in these results: `other` (this run's `--wiring` did not name them)");
    expect(said).toContain('Not in these results: `slow` (the run named them and did not finish them: continue it with `--resume`).');
    expect(said).not.toContain('default matrix');
  });

  it('keeps saying the default matrix leaves them out for time, where it does', () => {
    expect(page(matrix, true)).toContain('Not in these results: `slow`, `other` (the default matrix leaves them out for time');
  });
});
