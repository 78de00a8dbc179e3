import { describe, expect, it } from 'vitest';
import { approve, deliver, proposed, read, spend, write } from '../history/build.fixtures.js';
import { CAS_HOLDS, SETUP } from '../history/essay.fixtures.js';
import { shownIsRecorded } from './shown-is-recorded.js';

describe('shown-is-recorded', () => {
  it('holds when the card reached a live connection and the record holds it unspent when the user approves', () => {
    expect(shownIsRecorded(CAS_HOLDS).holds).toBe(true);
  });

  it('fails the dropped surface: overlapping turns, the second card routed to a connection nobody listens on', () => {
    const history = [
      proposed('t1', 'a1'),
      write('t1', 'a1', 1, 'absent', 'unspent'),
      deliver('t1', 'a1', 'c1'),
      proposed('t2', 'a2'),
      write('t2', 'a2', 2, 'absent', 'unspent'),
      deliver('t2', 'a2', 'c2', { live: false }),
    ];
    const result = shownIsRecorded(history);
    expect(result.holds).toBe(false);
    expect(result.witness).toEqual([5]);
    expect(result.explanation).toBe(
      't2 delivered the card for a2 to connection c2, where nobody was listening: the system believes it was shown, but it was dropped.',
    );
  });

  it('fails an approval of a card that never reached a live connection', () => {
    const result = shownIsRecorded([proposed('t1', 'a1'), write('t1', 'a1', 1, 'absent', 'unspent'), approve('a1')]);
    expect(result.witness).toEqual([2]);
    expect(result.explanation).toBe('user approved a1, but no card for a1 had reached a live connection.');
  });

  it('fails an approval of a card the record no longer holds unspent', () => {
    const history = [...SETUP, spend('t1', 'a1', 2), read('t2', 'a1', 2, 'spent'), approve('a1')];
    const result = shownIsRecorded(history);
    expect(result.witness).toEqual([4, 6]);
    expect(result.explanation).toBe(
      'user approved a1 while the record said spent (v2): the card the user acted on is not the one the record holds.',
    );
  });

  it('fails an approval shown but never persisted', () => {
    const result = shownIsRecorded([proposed('t1', 'a1'), deliver('t1', 'a1', 'c1'), approve('a1')]);
    expect(result.witness).toEqual([2]);
    expect(result.explanation).toContain('the record did not hold a1');
  });
});
