import { describe, expect, it } from 'vitest';
import { effect } from '../history/build.fixtures.js';
import { CAS_HOLDS, DOUBLE_EFFECT } from '../history/essay.fixtures.js';
import { exactlyOnceDelivery } from './exactly-once-delivery.js';

describe('exactly-once-delivery', () => {
  it('holds when the world applied the effect once', () => {
    expect(exactlyOnceDelivery(CAS_HOLDS).holds).toBe(true);
  });

  it('fails a transport retry the backend applied again, and calls it a retry', () => {
    const result = exactlyOnceDelivery([effect('t1', 'a1', 'd1'), effect('t1', 'a1', 'd1')]);
    expect(result.holds).toBe(false);
    expect(result.witness).toEqual([0, 1]);
    expect(result.explanation).toBe(
      "The world applied a1's effect twice: t1 (dispatch d1) then t1 (dispatch d1, a retry of the same dispatch); nothing made the second attempt a no-op.",
    );
  });

  it('holds when the backend refused the retry by its idempotency key', () => {
    expect(exactlyOnceDelivery([effect('t1', 'a1', 'd1'), effect('t1', 'a1', 'd1', { applied: false })]).holds).toBe(true);
  });

  it('fails two dispatches as well', () => {
    const result = exactlyOnceDelivery(DOUBLE_EFFECT);
    expect(result.witness).toEqual([6, 7]);
    expect(result.explanation).toContain('t1 (dispatch d1) then t2 (dispatch d2)');
  });

  it('counts per approval', () => {
    expect(exactlyOnceDelivery([effect('t1', 'a1', 'd1'), effect('t1', 'a2', 'd1')]).holds).toBe(true);
  });
});
