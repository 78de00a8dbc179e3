import { describe, expect, it } from 'vitest';
import { actionDifferences, actionsEqual, canonicalJson, formatAction } from './action.js';
import { TRANSFER } from './build.fixtures.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: 'x' } })).toBe('{"a":{"c":"x","d":[2,1]},"b":1}');
  });

  it('drops undefined members as JSON does', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(canonicalJson([undefined])).toBe('[null]');
  });
});

describe('actionsEqual', () => {
  it('ignores the order of parameter keys', () => {
    const a = { operation: 'transfer', targets: ['acct-1'], params: { amount: 100, memo: { to: 'bob', why: 'rent' } } };
    const b = { operation: 'transfer', targets: ['acct-1'], params: { memo: { why: 'rent', to: 'bob' }, amount: 100 } };
    expect(actionsEqual(a, b)).toBe(true);
  });

  it('respects the order of targets: transferring from a to b is not from b to a', () => {
    const a = { ...TRANSFER, targets: ['acct-1', 'acct-2'] };
    const b = { ...TRANSFER, targets: ['acct-2', 'acct-1'] };
    expect(actionsEqual(a, b)).toBe(false);
    expect(actionDifferences(a, b)).toEqual(['targets']);
  });

  it('names every part that differs', () => {
    const other = { operation: 'delete', targets: ['acct-2'], params: { amount: 1 } };
    expect(actionDifferences(TRANSFER, other)).toEqual(['operation', 'targets', 'params']);
    expect(actionDifferences(TRANSFER, { ...TRANSFER, params: { amount: '100' } })).toEqual(['params']);
  });
});

describe('formatAction', () => {
  it('prints parameters sorted by name, values as JSON, then the targets', () => {
    const action = { operation: 'transfer', targets: ['acct-1', 'acct-2'], params: { memo: 'rent', amount: 100 } };
    expect(formatAction(action)).toBe('transfer(amount=100, memo="rent") on acct-1, acct-2');
  });

  it('leaves out the targets when there are none', () => {
    expect(formatAction({ operation: 'ping', targets: [], params: {} })).toBe('ping()');
  });
});
