import { describe, expect, it } from 'vitest';
import { DOUBLE_EFFECT } from './essay.fixtures.js';
import { narrate } from './narrate.js';
import { story } from './story.js';

describe('story', () => {
  it('tells one sentence per event, line i for event i', () => {
    const lines = story(DOUBLE_EFFECT);
    expect(lines).toHaveLength(DOUBLE_EFFECT.length);
    expect(lines.slice(4, 8)).toEqual([
      't1 read the record: a1 unspent (v1)',
      't2 read the record: a1 unspent (v1)',
      't1 called transfer(amount=100) on acct-1 for a1 in world w1 — effect applied (dispatch d1)',
      't2 called transfer(amount=100) on acct-1 for a1 in world w1 — effect applied (dispatch d2)',
    ]);
    DOUBLE_EFFECT.forEach((event, i) => expect(lines[i]).toBe(narrate(event)));
  });

  it('tells an empty history as no lines', () => {
    expect(story([])).toEqual([]);
  });
});
