import { describe, expect, it } from 'vitest';
import { exploreCell } from '../explore/cell.js';
import { toyAdapter } from '../explore/toy.fixtures.js';
import { SCENARIOS } from './index.js';

const lateAnswer = SCENARIOS.get('late-answer')!;
const explore = (expires: 'refuses' | 'runs') => exploreCell({ adapter: toyAdapter({ expires }), wiring: 'only', store: 'memory', scenario: lateAnswer });

describe('late-answer', () => {
  it("holds for a runtime that refuses an answer once its own timeout has passed, on a virtual clock (the toy does not sleep)", async () => {
    const cell = await explore('refuses');
    expect(cell.exhausted).toBe(true);
    expect(cell.verdicts.map((v) => [v.property, v.verdict])).toEqual([['integrity', 'pass'], ['disclosure', 'pass']]);
  });

  it('fails integrity for one that runs the late answer, naming the expiry', async () => {
    const cell = await explore('runs');
    const integrity = cell.verdicts.find((v) => v.property === 'integrity')!;
    expect(integrity.verdict).toBe('fail');
    expect(integrity.counterexample?.story.join('\n')).toMatch(/t0 stopped waiting for the answer to a1: it expired[\s\S]*user approved a1[\s\S]*t1 called transfer/);
  });

  it("is not-applicable, never an error, on a world that says no timeout for an answer (an adapter older than the scenario)", async () => {
    const cell = await exploreCell({ adapter: toyAdapter(), wiring: 'only', store: 'memory', scenario: lateAnswer });
    expect(cell.verdicts.map((v) => [v.verdict, v.reason])).toEqual([
      ['not-applicable', expect.stringMatching(/^the world says no timeout for a pending answer/)],
      ['not-applicable', expect.stringMatching(/^the world says no timeout for a pending answer/)],
    ]);
  });
});
