import { describe, expect, it } from 'vitest';
import { approve, effect, forge, proposed, TRANSFER, TRANSFER_1000 } from '../history/build.fixtures.js';
import { CAS_HOLDS, SETUP } from '../history/essay.fixtures.js';
import { binding } from './binding.js';

describe('binding', () => {
  it('holds when the executed action and world are the approved ones', () => {
    expect(binding(CAS_HOLDS).holds).toBe(true);
  });

  it('holds when the parameters only come in a different key order', () => {
    const approved = { operation: 'transfer', targets: ['acct-1'], params: { amount: 100, memo: 'rent' } };
    const executed = { operation: 'transfer', targets: ['acct-1'], params: { memo: 'rent', amount: 100 } };
    expect(binding([approve('a1', approved), effect('t1', 'a1', 'd1', { action: executed })]).holds).toBe(true);
  });

  it('fails a re-proposal: the model chose other arguments when the code before the pause re-ran', () => {
    const result = binding([...SETUP, effect('t1', 'a1', 'd1', { action: TRANSFER_1000 })]);
    expect(result.holds).toBe(false);
    expect(result.witness).toEqual([3, 4]);
    expect(result.explanation).toBe(
      't1 executed a1 as transfer(amount=1000) on acct-1 in world w1, but user approved transfer(amount=100) on acct-1 in world w1: the params differ.',
    );
  });

  it('fails world drift: the target changed between showing the card and executing it', () => {
    const result = binding([...SETUP, effect('t1', 'a1', 'd1', { world: 'w2' })]);
    expect(result.witness).toEqual([0, 3, 4]);
    expect(result.explanation).toContain('the world differ');
  });

  it('names every part that differs', () => {
    const other = { operation: 'delete', targets: ['acct-2'], params: {} };
    const result = binding([proposed('t0', 'a1'), approve('a1'), effect('t1', 'a1', 'd1', { action: other, world: 'w2' })]);
    expect(result.explanation).toContain('the operation, targets, params and world differ');
  });

  it('compares with the last human approval, and counts an effect the backend refused', () => {
    const history = [approve('a1'), approve('a1', TRANSFER_1000), effect('t1', 'a1', 'd1', { action: TRANSFER, applied: false })];
    expect(binding(history).witness).toEqual([1, 2]);
  });

  it('is not concerned with effects no human approved, nor tools that need no approval', () => {
    expect(binding([forge('a1'), effect('t1', 'a1', 'd1', { action: TRANSFER_1000 })]).holds).toBe(true);
    expect(binding([approve('a1'), effect('t1', 'a1', 'd1', { action: TRANSFER_1000, requiresApproval: false })]).holds).toBe(true);
  });
});
