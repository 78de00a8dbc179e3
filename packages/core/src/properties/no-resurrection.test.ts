import { describe, expect, it } from 'vitest';
import { effect, spend, write } from '../history/build.fixtures.js';
import { CAS_HOLDS, DOUBLE_EFFECT, LOST_UPDATE, SETUP } from '../history/essay.fixtures.js';
import { noResurrection } from './no-resurrection.js';

describe('no-resurrection', () => {
  it('holds when the spend is recorded before the effect', () => {
    expect(noResurrection(CAS_HOLDS).holds).toBe(true);
    expect(noResurrection(LOST_UPDATE).holds).toBe(true);
  });

  it('fails right after the effect when the spend is recorded after it, before the record step', () => {
    const result = noResurrection(DOUBLE_EFFECT);
    expect(result.holds).toBe(false);
    expect(result.witness).toEqual([1, 6]);
    expect(result.explanation).toBe("t1's effect for a1 ran while the record still said unspent (v1).");
  });

  it('fails with one turn alone in "after" mode: the window exists even without a race', () => {
    const history = [...SETUP, effect('t1', 'a1', 'd1'), spend('t1', 'a1', 2)];
    expect(noResurrection(history).witness).toEqual([1, 4]);
  });

  it('fails an effect for an approval the record never held', () => {
    const result = noResurrection([effect('t1', 'a1', 'd1')]);
    expect(result.witness).toEqual([0]);
    expect(result.explanation).toBe("t1's effect for a1 ran while the record did not hold a1 at all.");
  });

  it('fails a later write that sets a spent record back to unspent', () => {
    const history = [...SETUP, spend('t1', 'a1', 2), effect('t1', 'a1', 'd1'), write('t2', 'a1', 3, 'spent', 'unspent')];
    const result = noResurrection(history);
    expect(result.witness).toEqual([5, 6]);
    expect(result.explanation).toBe("t2 set a1's record back to unspent (v3) after t1's effect (dispatch d1) had run.");
  });

  it('ignores an effect the backend refused, and rewrites before any effect', () => {
    const history = [...SETUP, effect('t1', 'a1', 'd1', { applied: false }), write('t1', 'a1', 2, 'unspent', 'absent')];
    expect(noResurrection(history).holds).toBe(true);
  });

  it('keeps approvals apart: a1 spent says nothing about a2', () => {
    const history = [...SETUP, spend('t1', 'a1', 2), effect('t1', 'a2', 'd1')];
    expect(noResurrection(history).witness).toEqual([5]);
  });
});
