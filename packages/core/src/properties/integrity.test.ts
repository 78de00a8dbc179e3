import { describe, expect, it } from 'vitest';
import { approve, deny, effect, expire, forge, NOTIFY, tamper, TRANSFER_1000 } from '../history/build.fixtures.js';
import { CAS_HOLDS, SETUP } from '../history/essay.fixtures.js';
import { integrity } from './integrity.js';

describe('integrity', () => {
  it('holds when a human approved exactly what ran', () => {
    expect(integrity(CAS_HOLDS).holds).toBe(true);
  });

  it('fails a forged approval, even one the backend refused to apply', () => {
    const result = integrity([forge('a1'), effect('t1', 'a1', 'd1', { applied: false })]);
    expect(result.holds).toBe(false);
    expect(result.witness).toEqual([0, 1]);
    expect(result.explanation).toBe('t1 executed a1 on an approval holder forged: no human approved it.');
  });

  it('fails an effect with no approval at all', () => {
    const result = integrity([effect('t1', 'a1', 'd1')]);
    expect(result.witness).toEqual([0]);
    expect(result.explanation).toBe('t1 executed a1 on no approval at all: no human approved it.');
  });

  it('fails an approval re-pointed to another id: the human approved a1, a2 ran', () => {
    expect(integrity([...SETUP, tamper('a2', 're-pointed a1 to a2'), effect('t1', 'a2', 'd1')]).witness).toEqual([4, 5]);
  });

  it('fails arguments edited by whoever holds the state, and names the tamper', () => {
    const history = [...SETUP, tamper('a1', 'amount 100 → 1000'), effect('t1', 'a1', 'd1', { action: TRANSFER_1000 })];
    const result = integrity(history);
    expect(result.witness).toEqual([3, 4, 5]);
    expect(result.explanation).toBe(
      't1 executed a1 as transfer(amount=1000) on acct-1, but user approved transfer(amount=100) on acct-1. holder had tampered with it (amount 100 → 1000).',
    );
  });

  it('holds when the user approved one call and denied the other, and only the approved one ran', () => {
    expect(integrity([approve('a1'), deny('a2', NOTIFY), effect('t1', 'a1', 'd1')]).holds).toBe(true);
  });

  it('fails a call the user denied, naming the denial: an answer cross-wired onto the other call', () => {
    const result = integrity([approve('a1'), deny('a2', NOTIFY), effect('t1', 'a2', 'd1', { action: NOTIFY })]);
    expect(result.witness).toEqual([1, 2]);
    expect(result.explanation).toBe(
      't1 executed a2 as notify(template="refund-sent") on customer-1, but user had denied it.',
    );
  });

  it('holds when an approval expired unanswered and nothing ran', () => {
    expect(integrity([expire('a1'), approve('a1')]).holds).toBe(true);
  });

  it('fails a late answer that ran an expired approval: no approval after the expiry revives it', () => {
    const result = integrity([expire('a1'), approve('a1'), effect('t1', 'a1', 'd1')]);
    expect(result.witness).toEqual([0, 2]);
    expect(result.explanation).toBe('t1 executed a1 as transfer(amount=100) on acct-1, but t0 had stopped waiting for its answer: it had expired, and no answer after that may run it.');
  });

  it('ignores tools that need no approval', () => {
    expect(integrity([effect('t1', 'a1', 'd1', { requiresApproval: false })]).holds).toBe(true);
  });

  it('fails a tool that needs no approval when it ran on a forged one', () => {
    const result = integrity([forge('f1'), effect('t1', 'f1', 'd1', { requiresApproval: false })]);
    expect(result.witness).toEqual([0, 1]);
    expect(result.explanation).toBe('t1 executed f1 on an approval holder forged: no human approved it.');
  });

  it('accepts a later human approval of the altered action', () => {
    expect(integrity([approve('a1'), approve('a1', TRANSFER_1000), effect('t1', 'a1', 'd1', { action: TRANSFER_1000 })]).holds).toBe(true);
  });
});
