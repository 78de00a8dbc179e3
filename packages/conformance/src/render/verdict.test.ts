import { describe, expect, it } from 'vitest';
import { verdictCell } from './verdict.js';

const ce = { steps: 8, schedule: '', story: [], history: [], explanation: '', witness: [] };

describe('verdictCell', () => {
  it.each([
    [{ verdict: 'pass', mode: 'exhaustive', exhaustive: true, schedules: 1 }, 'pass (1 schedule)'],
    [{ verdict: 'pass', mode: 'exhaustive', exhaustive: true, schedules: 18 }, 'pass (18 schedules)'],
    [{ verdict: 'pass', mode: 'sampled', exhaustive: false, schedules: 500 }, 'pass (sampled 500)'],
    [{ verdict: 'pass', mode: 'exhaustive', exhaustive: false, schedules: 20000 }, 'pass (partial 20000)'],
    [{ verdict: 'fail', mode: 'exhaustive', exhaustive: true, schedules: 9, counterexample: ce }, 'fail (8 steps)'],
    [{ verdict: 'fail', mode: 'exhaustive', exhaustive: false, schedules: 20000, counterexample: ce }, 'fail (8 steps; partial 20000)'],
    [{ verdict: 'fail', mode: 'sampled', exhaustive: false, schedules: 50, counterexample: ce }, 'fail (8 steps; sampled 50)'],
    [{ verdict: 'not-applicable', mode: 'exhaustive', exhaustive: false, schedules: 0 }, 'n/a'],
    [{ verdict: 'error', mode: 'exhaustive', exhaustive: false, schedules: 0 }, 'error'],
    [{ verdict: 'timeout', mode: 'exhaustive', exhaustive: false, schedules: 3 }, 'timeout'],
  ] as const)('%j reads %s, and only an exhaustive pass reads as a plain pass', (cell, text) => {
    expect(verdictCell(cell)).toBe(text);
  });
});
