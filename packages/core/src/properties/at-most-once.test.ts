import { describe, expect, it } from 'vitest';
import { crash, effect, read, spend } from '../history/build.fixtures.js';
import { CAS_HOLDS, DOUBLE_EFFECT, LOST_UPDATE, SETUP } from '../history/essay.fixtures.js';
import { atMostOnce } from './at-most-once.js';

describe('at-most-once', () => {
  it('holds for the compare-and-set design', () => {
    expect(atMostOnce(CAS_HOLDS)).toEqual({ property: 'at-most-once', holds: true, witness: [], explanation: '' });
  });

  it('fails the 7-step double effect: both turns acted on a snapshot that said unspent', () => {
    const result = atMostOnce(DOUBLE_EFFECT);
    expect(result.holds).toBe(false);
    expect(result.witness).toEqual([4, 5, 6, 7]);
    expect(result.explanation).toBe(
      "a1's effect reached the world twice: t1 (dispatch d1) then t2 (dispatch d2); both had read it unspent (v1).",
    );
  });

  it('fails the 9-step lost update, witnessed by each turn’s last read before it acted', () => {
    const result = atMostOnce(LOST_UPDATE);
    expect(result.witness).toEqual([6, 7, 9, 11]);
    expect(result.explanation).toContain('t1 (dispatch d1) then t2 (dispatch d2)');
  });

  it('does not count a transport retry of the same dispatch twice', () => {
    const history = [...SETUP, read('t1', 'a1', 1, 'unspent'), spend('t1', 'a1', 2), effect('t1', 'a1', 'd1'), effect('t1', 'a1', 'd1')];
    expect(atMostOnce(history).holds).toBe(true);
  });

  it('does not count an effect the backend refused as a duplicate idempotency key', () => {
    const history = [...SETUP, effect('t1', 'a1', 'd1'), effect('t2', 'a1', 'd2', { applied: false })];
    expect(atMostOnce(history).holds).toBe(true);
  });

  it('counts per approval: one effect each for two approvals is fine', () => {
    expect(atMostOnce([effect('t1', 'a1', 'd1'), effect('t2', 'a2', 'd2')]).holds).toBe(true);
  });

  it('catches a turn retried after a crash that dispatches again, and says who had not read', () => {
    const history = [effect('t1', 'a1', 'd1'), crash('t1'), read('t1', 'a1', 1, 'unspent'), effect('t1', 'a1', 'd2')];
    const result = atMostOnce(history);
    expect(result.witness).toEqual([0, 2, 3]);
    expect(result.explanation).toBe(
      "a1's effect reached the world twice: t1 (dispatch d1) then t1 (dispatch d2); t1 had not read it, t1 had read it unspent (v1).",
    );
  });

  it('reports the first violation, the same on the prefix that ends at it', () => {
    const history = [effect('t1', 'a1', 'd1'), effect('t2', 'a1', 'd2'), effect('t3', 'a1', 'd3')];
    expect(atMostOnce(history).witness).toEqual([0, 1]);
    expect(atMostOnce(history.slice(0, 2))).toEqual(atMostOnce(history));
  });
});
