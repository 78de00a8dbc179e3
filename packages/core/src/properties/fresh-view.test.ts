import { describe, expect, it } from 'vitest';
import { cas, effect, read, spend, write } from '../history/build.fixtures.js';
import { CAS_HOLDS, DOUBLE_EFFECT, LOST_UPDATE, SETUP } from '../history/essay.fixtures.js';
import { freshView } from './fresh-view.js';

describe('fresh-view', () => {
  it('holds for the compare-and-set design', () => {
    expect(freshView(CAS_HOLDS).holds).toBe(true);
  });

  it('holds for the 7-step double effect: no spend was written before either effect', () => {
    expect(freshView(DOUBLE_EFFECT).holds).toBe(true);
  });

  it('fails the 9-step lost update: t2 acted on v1 after t1 spent at v2, and its own blind write refreshed nothing', () => {
    const result = freshView(LOST_UPDATE);
    expect(result.holds).toBe(false);
    expect(result.witness).toEqual([7, 8, 11]);
    expect(result.explanation).toBe('t2 acted on a1 from a view of v1, but t1 had spent it at v2.');
  });

  it('holds for a turn acting after its own spend, whatever it read before', () => {
    const history = [...SETUP, read('t1', 'a1', 1, 'unspent'), spend('t1', 'a1', 2), effect('t1', 'a1', 'd1')];
    expect(freshView(history).holds).toBe(true);
  });

  it('holds for a turn that re-read the record after the spend (it saw spent and still acted: other properties judge that)', () => {
    const history = [...SETUP, spend('t1', 'a1', 2), read('t2', 'a1', 2, 'spent'), effect('t2', 'a1', 'd2')];
    expect(freshView(history).holds).toBe(true);
  });

  it('counts a compare-and-set as a read: its version is the view', () => {
    const history = [
      ...SETUP,
      read('t2', 'a1', 1, 'unspent'),
      spend('t1', 'a1', 2),
      cas('t2', 'a1', 3, 'spent', 'spent'),
      effect('t2', 'a1', 'd2'),
    ];
    expect(freshView(history).holds).toBe(true);
  });

  it('fails a turn that never read the record, and counts an effect the backend refused', () => {
    const history = [...SETUP, spend('t1', 'a1', 2), write('t2', 'a1', 3, 'spent', 'spent'), effect('t2', 'a1', 'd2', { applied: false })];
    const result = freshView(history);
    expect(result.witness).toEqual([4, 6]);
    expect(result.explanation).toBe('t2 acted on a1 without having read its record, but t1 had spent it at v2.');
  });

  it('judges against the latest spend only', () => {
    const history = [
      ...SETUP,
      spend('t1', 'a1', 2),
      read('t2', 'a1', 2, 'spent'),
      write('t3', 'a1', 3, 'spent', 'unspent'),
      spend('t3', 'a1', 4),
      effect('t2', 'a1', 'd2'),
    ];
    const result = freshView(history);
    expect(result.witness).toEqual([5, 7, 8]);
    expect(result.explanation).toBe('t2 acted on a1 from a view of v2, but t3 had spent it at v4.');
  });
});
