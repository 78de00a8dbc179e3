import { describe, expect, it } from 'vitest';
import { cell, failing } from '../results.fixtures.js';
import { compareUnit } from './compare.js';

const UNIT = 'ai@7.0.173/native-approval/memory/double-resume';
const pass = (schedules: number, exhaustive = true) => cell({ version: '7.0.173', verdict: 'pass', schedules, exhaustive });
const fail = (steps: number, exhaustive = true) => {
  const c = failing('7.0.173');
  return { ...c, exhaustive, counterexample: { ...c.counterexample!, steps } };
};

describe('compareUnit: the reduced result against the unreduced and sampled ones', () => {
  it('agrees when both ran every schedule and give the same verdict and length', () => {
    expect(compareUnit(UNIT, [fail(4)], [fail(4)])).toMatchObject({ agrees: true, differences: [] });
    expect(compareUnit(UNIT, [pass(12)], [pass(90)])).toMatchObject({ agrees: true, how: '12 reduced against 90 unreduced schedules, exhaustive' });
  });

  it('differs when the lengths or the verdicts differ, and shows the schedule that breaks it', () => {
    expect(compareUnit(UNIT, [fail(5)], [fail(4)]).differences).toEqual(['at-most-once: reduced fail (5 steps), unreduced fail (4 steps): t1:1 t2:1 t1:2 t2:2']);
    expect(compareUnit(UNIT, [pass(12)], [fail(4)]).agrees).toBe(false);
  });

  it('past the cap, differs only where the unreduced prefix or a sample finds what the reduced run lacks', () => {
    expect(compareUnit(UNIT, [fail(4)], [pass(1500, false)], [pass(300, false)]).agrees).toBe(true);
    expect(compareUnit(UNIT, [fail(4)], [pass(1500, false)], [fail(6, false)]).agrees).toBe(true);
    expect(compareUnit(UNIT, [pass(12)], [pass(1500, false)], [fail(6, false)]).differences).toEqual([
      'at-most-once: reduced pass, but a sampled schedule breaks it, fail (6 steps): t1:1 t2:1 t1:2 t2:2',
    ]);
    expect(compareUnit(UNIT, [fail(5)], [fail(4, false)], []).agrees).toBe(false);
  });

  it('says what became of an unreduced run that timed out, and judges by the samples', () => {
    const timedOut = cell({ version: '7.0.173', verdict: 'timeout', schedules: 0, exhaustive: false, reason: 'ran past 900 s' });
    expect(compareUnit(UNIT, [pass(1)], [timedOut], [pass(300, false)])).toMatchObject({
      agrees: true,
      how: '1 reduced against an unreduced run that ended timeout (ran past 900 s), and 300 sampled',
    });
    expect(compareUnit(UNIT, [pass(1)], [timedOut], [fail(6, false)]).agrees).toBe(false);
  });

  it('never counts a cell the reduced run could not judge as agreeing', () => {
    const error = cell({ version: '7.0.173', verdict: 'error', reason: "the adapter's declared accesses do not cover what its code did" });
    expect(compareUnit(UNIT, [error], [pass(90)]).differences[0]).toMatch(/^at-most-once: the reduced run could not judge it \(error: the adapter's/);
  });
});
