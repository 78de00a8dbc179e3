import { describe, expect, it } from 'vitest';
import { crash, disclose, effect } from '../history/build.fixtures.js';
import { CAS_HOLDS, SETUP } from '../history/essay.fixtures.js';
import { disclosure } from './disclosure.js';

describe('disclosure', () => {
  it('holds when every applied effect is disclosed as having happened', () => {
    expect(disclosure(CAS_HOLDS).holds).toBe(true);
  });

  it('fails a phantom failure: the tool applied its effect, then threw, and the user was told it did not happen', () => {
    const history = [...SETUP, effect('t1', 'a1', 'd1'), disclose('t1', 'a1', 'not-happened')];
    const result = disclosure(history);
    expect(result.holds).toBe(false);
    expect(result.witness).toEqual([4, 5]);
    expect(result.explanation).toBe(
      "t1 told the user a1 did not happen, but t1's effect (dispatch d1) had already reached the world.",
    );
  });

  it('fails a phantom failure even if a later turn says it happened', () => {
    const history = [effect('t1', 'a1', 'd1'), disclose('t1', 'a1', 'not-happened'), disclose('t2', 'a1')];
    expect(disclosure(history).witness).toEqual([0, 1]);
  });

  it('fails an effect never disclosed: the turn crashed after it', () => {
    const result = disclosure([...SETUP, effect('t1', 'a1', 'd1'), crash('t1'), disclose('t2', 'a1', 'unknown')]);
    expect(result.witness).toEqual([4]);
    expect(result.explanation).toBe("t1's effect for a1 (dispatch d1) reached the world, but the user was never told it happened.");
  });

  it('needs the disclosure after the effect: saying it happened before it did does not count', () => {
    expect(disclosure([disclose('t1', 'a1'), effect('t1', 'a1', 'd1')]).witness).toEqual([1]);
  });

  it('holds when nothing happened, whatever the user was told', () => {
    expect(disclosure([effect('t1', 'a1', 'd1', { applied: false }), disclose('t1', 'a1', 'not-happened')]).holds).toBe(true);
  });

  it('reports the undisclosed approval whose effect came first', () => {
    const history = [effect('t1', 'a2', 'd1'), effect('t1', 'a1', 'd2'), disclose('t1', 'a1')];
    expect(disclosure(history).witness).toEqual([0]);
    expect(disclosure([effect('t1', 'a1', 'd1'), effect('t2', 'a2', 'd2')]).witness).toEqual([0]);
  });
});
