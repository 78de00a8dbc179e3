import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../history/events.js';
import { independent } from './commute.js';
import type { Access, Released } from './gate.js';

const TRANSFER = { operation: 'transfer', targets: ['acct-1'], params: {} };

const events: Record<string, (turn: string, approvalId: string) => HistoryEvent> = {
  'record-write': (actor, approvalId) => ({ kind: 'record-write', actor, approvalId, version: 1, from: 'unspent', state: 'spent' }),
  'record-read': (actor, approvalId) => ({ kind: 'record-read', actor, approvalId, version: 2, state: 'spent' }),
  effect: (actor, approvalId) => ({
    kind: 'effect', actor, approvalId, dispatch: `${actor}/${approvalId}`, action: TRANSFER, world: 'w1', applied: true, requiresApproval: true,
  }),
  proposed: (actor, approvalId) => ({ kind: 'proposed', actor, approvalId, action: TRANSFER, world: 'w1' }),
  disclosure: (actor, approvalId) => ({ kind: 'disclosure', actor, approvalId, says: 'happened' }),
};

/** A release of `turn` at a gate with `access`, that recorded events of `kind` about `approvals`. */
function release(turn: string, access: Access[] | undefined, recorded: [string, string][] = [], crash = false): Released {
  return {
    gate: { id: `${turn}:1`, turn, label: 'x', access, choices: 1, overtakes: false, crashable: crash, reachedAfter: 0 },
    release: { gate: `${turn}:1`, choice: 0, ...(crash ? { crash: true as const } : {}) },
    produced: recorded.map(([kind, approvalId]) => events[kind]!(turn, approvalId)),
  };
}

const read = (key: string): Access[] => [{ key, mode: 'read' }];
const write = (key: string): Access[] => [{ key, mode: 'write' }];
const model: Access[] = [{ key: 'fingerprint', mode: 'read' }, { key: 'proposal', mode: 'write' }];

describe('independent', () => {
  it('never lets a turn commute with itself, a crash with anything, or a gate that declared nothing', () => {
    expect(independent(release('t1', read('record:a1')), release('t1', read('record:a1')))).toBe(false);
    expect(independent(release('t1', read('record:a1'), [], true), release('t2', read('record:a1')))).toBe(false);
    expect(independent(release('t1', undefined), release('t2', write('card')))).toBe(false);
  });

  it('lets reads commute, and a read with a write of another kind, but not with a write of its own', () => {
    expect(independent(release('t1', read('record:a1')), release('t2', read('record:a1')))).toBe(true);
    expect(independent(release('t1', read('record:a1')), release('t2', write('world'), [['effect', 'a1']]))).toBe(true);
    expect(independent(release('t1', read('record:a1')), release('t2', write('record:a1')))).toBe(false);
    expect(independent(release('t1', read('lock:a1')), release('t2', write('lock:a1')))).toBe(false);
  });

  it('lets a read of one part commute with a write of another only when both are declared exact', () => {
    const exact = (key: string, mode: 'read' | 'write'): Access[] => [{ key, mode, exact: true }];
    expect(independent(release('t1', read('record:run-1')), release('t2', write('record:run-2')))).toBe(false);
    expect(independent(release('t1', exact('record:run-1', 'read')), release('t2', exact('record:run-2', 'write')))).toBe(true);
    expect(independent(release('t1', exact('record:run-1', 'read')), release('t2', exact('record:run-1', 'write')))).toBe(false);
    expect(independent(release('t1', exact('app:run-1', 'read')), release('t2', exact('app:run-2', 'write')))).toBe(true);
    expect(independent(release('t1', exact('record:run-1', 'read')), release('t2', write('record:run-2')))).toBe(false);
  });

  it('keeps every pair of record writes, and every pair of effects, in order', () => {
    expect(independent(release('t1', write('record:a1')), release('t2', write('record:a2')))).toBe(false);
    expect(independent(release('t1', write('world'), [['effect', 'a1']]), release('t2', write('world'), [['effect', 'a2']]))).toBe(false);
  });

  it('lets cards and disclosures commute with the record, and cards with effects', () => {
    expect(independent(release('t1', write('card')), release('t2', write('record:a1'), [['record-write', 'a1']]))).toBe(true);
    expect(independent(release('t1', write('card')), release('t2', write('world'), [['effect', 'a1']]))).toBe(true);
    expect(independent(release('t1', write('tell')), release('t2', write('record:a1'), [['record-write', 'a1']]))).toBe(true);
    expect(independent(release('t1', write('tell')), release('t2', write('tell')))).toBe(true);
    // Two cards to a dead connection: which is reported first would swap.
    expect(independent(release('t1', write('card')), release('t2', write('card')))).toBe(false);
  });

  it("lets an effect commute with a record write, a proposal or a disclosure only when it recorded nothing about the effect's approval", () => {
    const effect = release('t1', write('world'), [['effect', 'a1']]);
    expect(independent(effect, release('t2', write('record:checkpoints')))).toBe(true);
    expect(independent(effect, release('t2', write('record:checkpoints'), [['record-write', 'a2']]))).toBe(true);
    expect(independent(effect, release('t2', write('record:checkpoints'), [['record-write', 'a1']]))).toBe(false);
    expect(independent(effect, release('t2', model, [['proposed', 'a2']]))).toBe(true);
    expect(independent(effect, release('t2', model, [['proposed', 'a1']]))).toBe(false);
    expect(independent(effect, release('t2', write('tell'), [['disclosure', 'a2']]))).toBe(true);
    expect(independent(effect, release('t2', write('tell'), [['disclosure', 'a1']]))).toBe(false);
  });

  it('keeps proposals in order among themselves, and lets them commute with the record', () => {
    expect(independent(release('t1', model, [['proposed', 'a1']]), release('t2', model, [['proposed', 'a2']]))).toBe(false);
    expect(independent(release('t1', model, [['proposed', 'a2']]), release('t2', write('record:a1'), [['record-write', 'a1']]))).toBe(true);
  });

  it("commutes the guard's record as the record, and application state with every other kind", () => {
    const spend = release('t1', write('guard:a1'), [['record-write', 'a1']]);
    expect(independent(spend, release('t2', write('card')))).toBe(true);
    expect(independent(spend, release('t2', write('tell'), [['disclosure', 'a1']]))).toBe(true);
    expect(independent(spend, release('t2', model, [['proposed', 'a2']]))).toBe(true);
    expect(independent(spend, release('t2', write('world'), [['effect', 'a2']]))).toBe(true);
    expect(independent(spend, release('t2', write('world'), [['effect', 'a1']]))).toBe(false);
    expect(independent(spend, release('t2', write('guard:a2'), [['record-write', 'a2']]))).toBe(false);
    expect(independent(spend, release('t2', write('guard:a2'), [['record-write', 'a2']]), { recordHistory: false })).toBe(true);
    expect(independent(spend, release('t2', read('guard:a1')))).toBe(false);
    // The framework's store beside the guard: app state, recording nothing.
    for (const other of [spend, release('t2', write('world'), [['effect', 'a1']]), release('t2', write('tell')), release('t2', model)]) {
      expect(independent(release('t3', write('app:cp1')), other)).toBe(true);
    }
    expect(independent(release('t1', write('app:cp1')), release('t2', write('app:cp2')))).toBe(true);
    expect(independent(release('t1', write('app:cp1')), release('t2', write('app:cp1')))).toBe(false);
    expect(independent(release('t1', read('app:checkpoints')), release('t2', write('app:cp2')))).toBe(false);
  });

  it('takes a compare-and-set that lost (it recorded a read, no write) as the read it was, and one that won as a write', () => {
    const cas: Access[] = [{ key: 'guard:a1', mode: 'write', conditional: true }];
    const lost = (turn: string) => release(turn, cas, [['record-read', 'a1']]);
    const won = release('t3', cas, [['record-write', 'a1']]);
    // Two spends that lost to a third commute with each other and with reads; not with the write they lost to.
    expect(independent(lost('t1'), lost('t2'))).toBe(true);
    expect(independent(lost('t1'), release('t2', read('guard:a1')))).toBe(true);
    expect(independent(lost('t1'), won)).toBe(false);
    expect(independent(won, release('t2', read('guard:a1')))).toBe(false);
    // Without the mark, a write is a write, whatever it recorded.
    expect(independent(release('t1', write('guard:a1'), [['record-read', 'a1']]), lost('t2'))).toBe(false);
  });
});
