import { describe, expect, it } from 'vitest';
import {
  approve,
  cas,
  crash,
  deliver,
  disclose,
  effect,
  forge,
  proposed,
  read,
  tamper,
  write,
} from './build.fixtures.js';
import type { HistoryEvent } from './events.js';
import { narrate } from './narrate.js';

describe('narrate', () => {
  const cases: [HistoryEvent, string][] = [
    [proposed('t0', 'a1'), 't0 proposed a1: transfer(amount=100) on acct-1, in world w1'],
    [read('t1', 'a1', 1, 'unspent'), 't1 read the record: a1 unspent (v1)'],
    [write('t2', 'a1', 3, 'unspent', 'spent'), 't2 wrote the record: a1 unspent → spent (v3)'],
    [cas('t1', 'a1', 2, 'unspent', 'spent'), 't1 wrote the record by compare-and-set: a1 unspent → spent (v2)'],
    [deliver('t1', 'a1', 'c1'), 't1 delivered the card for a1 to connection c1'],
    [
      deliver('t1', 'a1', 'c2', { live: false }),
      't1 delivered the card for a1 to connection c2 — nobody listening, dropped',
    ],
    [approve('a1'), 'user approved a1: transfer(amount=100) on acct-1'],
    [forge('a1'), 'holder forged an approval for a1: transfer(amount=100) on acct-1'],
    [tamper('a1', 'amount 100 → 1000'), 'holder tampered with a1: amount 100 → 1000'],
    [
      effect('t1', 'a1', 'd1'),
      't1 called transfer(amount=100) on acct-1 for a1 in world w1 — effect applied (dispatch d1)',
    ],
    [
      effect('t1', 'a1', 'd1', { applied: false }),
      't1 called transfer(amount=100) on acct-1 for a1 in world w1 — refused by the backend, not applied (dispatch d1)',
    ],
    [
      effect('t1', 'a1', 'd3', { requiresApproval: false, action: { operation: 'search', targets: [], params: { q: 'x' } } }),
      't1 called search(q="x") (needs no approval) in world w1 — effect applied (dispatch d3)',
    ],
    [disclose('t1', 'a1'), 't1 told the user a1 happened'],
    [disclose('t1', 'a1', 'not-happened'), 't1 told the user a1 did not happen'],
    [disclose('t1', 'a1', 'unknown'), 't1 told the user nothing definite about a1'],
    [crash('t1'), 't1 crashed'],
  ];
  it.each(cases.map(([event, sentence]) => ({ event, sentence })))('$event.kind: $sentence', ({ event, sentence }) => {
    expect(narrate(event)).toBe(sentence);
  });
});
