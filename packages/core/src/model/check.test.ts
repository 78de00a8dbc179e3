import { describe, expect, it } from 'vitest';
import { checkModel, type Spec } from './check.js';

// A counter that may step +1 or +2 up to 6: the shortest way to reach 5 takes three steps (2, 2, 1 in some order).
const counter: Spec<number> = {
  init: 0,
  next: (n) => [1, 2].filter((d) => n + d <= 6).map((d) => ({ name: `+${d} (n=${n + d})`, next: n + d })),
  key: String,
  describeInit: 'init (n=0)',
  invariants: { 'never five': (n) => n !== 5, 'at most six': (n) => n <= 6 },
};

describe('checkModel', () => {
  it('counts every distinct reachable state once', () => {
    expect(checkModel(counter).statesExplored).toBe(7);
  });

  it('returns the shortest trace to a violation, counted in states including the initial one', () => {
    const verdict = checkModel(counter).invariants['never five'];
    expect(verdict).toEqual({
      verdict: 'violated',
      traceStates: 4,
      trace: ['init (n=0)', '+1 (n=1)', '+2 (n=3)', '+2 (n=5)'],
    });
  });

  it('says holds for an invariant true in every reachable state', () => {
    expect(checkModel(counter).invariants['at most six']).toEqual({ verdict: 'holds' });
  });

  it('catches a violation in the initial state with a one-state trace', () => {
    const bad: Spec<number> = { ...counter, invariants: { positive: (n) => n > 0 } };
    expect(checkModel(bad).invariants['positive']).toEqual({
      verdict: 'violated',
      traceStates: 1,
      trace: ['init (n=0)'],
    });
  });
});
