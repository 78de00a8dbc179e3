// The state machine against a model small enough to check by eye: random sequences of steps on a few approvals, each
// step applied to the records the way the guard applies it (read, decide, write the result), and after every step the
// safety invariants. The model is a table of what each step does in each state; the invariants are stated separately,
// on the records alone, so that a wrong table and a wrong state machine that agree still break one of them:
//
//   - a record is spent at most once (at most one spend succeeds per id, ever);
//   - a spend succeeds only from approved, with the approved action's fingerprint, in the world it was proposed in;
//   - every refusal is a GuardError with the code the model expects, the id, and the record's state;
//   - every write bumps the version by one (so the compare-and-set sees it), and a step that changes nothing writes
//     nothing;
//   - a known outcome (ran, failed) never changes: `unknown` alone may still be learned, by a redelivery after a crash;
//   - a record is never changed in place (the guard compares what it read).
import { fc } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { GuardError, type GuardErrorCode } from './errors.js';
import { fingerprint, type GuardedAction } from './fingerprint.js';
import * as step from './record.js';
import type { ApprovalRecord, ApprovalState, Outcome } from './record.js';

const IDS = ['a', 'b'] as const;
type Id = (typeof IDS)[number];
const WORLD = 'w1';

const actionOf = (id: Id): GuardedAction => ({ tool: 'transfer', args: { to: id, amount: 10 }, targets: [`acct-${id}`] });
const tampered = (id: Id): GuardedAction => ({ tool: 'transfer', args: { to: id, amount: 10_000 }, targets: [`acct-${id}`] });

type Step =
  | { readonly kind: 'propose'; readonly id: Id }
  | { readonly kind: 'approve'; readonly id: Id; readonly card: 'right' | 'wrong' }
  | { readonly kind: 'deny'; readonly id: Id }
  | { readonly kind: 'expire'; readonly id: Id }
  | { readonly kind: 'spend'; readonly id: Id; readonly as: 'approved' | 'tampered' | 'other-world' }
  | { readonly kind: 'settle'; readonly id: Id; readonly outcome: Exclude<Outcome, 'pending'> };

const id = fc.constantFrom(...IDS);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('propose' as const), id }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('approve' as const), id, card: fc.constantFrom('right' as const, 'wrong' as const) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('deny' as const), id }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('expire' as const), id }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('spend' as const), id, as: fc.constantFrom('approved' as const, 'tampered' as const, 'other-world' as const) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('settle' as const), id, outcome: fc.constantFrom('ran' as const, 'failed' as const, 'unknown' as const) }), weight: 2 },
);

/** The model: per id, a state and an outcome. */
interface Model {
  readonly state: ApprovalState;
  readonly outcome: Outcome | undefined;
}

/** What the model says a step does: the next model entry (unchanged: a no-op), or the refusal's code. */
function expected(m: Model | undefined, s: Step): Model | GuardErrorCode {
  if (s.kind === 'propose') return m ? 'already-proposed' : { state: 'unspent', outcome: undefined };
  if (!m) return 'unknown-approval';
  const stateRefusal: Partial<Record<ApprovalState, GuardErrorCode>> = { denied: 'denied', expired: 'expired', spent: 'already-spent' };
  switch (s.kind) {
    case 'approve':
      if (m.state !== 'unspent' && m.state !== 'approved') return stateRefusal[m.state]!;
      if (s.card === 'wrong') return 'action-mismatch';
      return { ...m, state: 'approved' };
    case 'deny':
      if (m.state === 'denied') return m;
      if (m.state !== 'unspent' && m.state !== 'approved') return stateRefusal[m.state]!;
      return { ...m, state: 'denied' };
    case 'expire':
      if (m.state === 'expired') return m;
      if (m.state !== 'unspent' && m.state !== 'approved') return stateRefusal[m.state]!;
      return { ...m, state: 'expired' };
    case 'spend':
      if (m.state === 'unspent') return 'not-approved';
      if (m.state !== 'approved') return stateRefusal[m.state]!;
      if (s.as === 'tampered') return 'action-mismatch';
      if (s.as === 'other-world') return 'world-moved';
      return { state: 'spent', outcome: 'pending' };
    case 'settle':
      if (m.state === 'unspent' || m.state === 'approved') return 'not-approved';
      if (m.state !== 'spent') return stateRefusal[m.state]!;
      // `ran` and `failed` are known and stay; `pending` and `unknown` take what is learned.
      return m.outcome === 'ran' || m.outcome === 'failed' ? m : { ...m, outcome: s.outcome };
  }
}

/** The step on the record as read: the pure functions, plus the guard's two checks that need the store. */
function apply(records: ReadonlyMap<Id, ApprovalRecord>, s: Step): ApprovalRecord | GuardError {
  const r = records.get(s.id);
  if (s.kind === 'propose') {
    if (r) return new GuardError('already-proposed', s.id, 'the guard refuses the insert');
    return step.proposed(s.id, actionOf(s.id), WORLD);
  }
  if (!r) return new GuardError('unknown-approval', s.id, 'the guard finds no record');
  switch (s.kind) {
    case 'approve':
      return step.approve(r, s.card === 'right' ? fingerprint(actionOf(s.id)) : fingerprint(tampered(s.id)));
    case 'deny':
      return step.deny(r);
    case 'expire':
      return step.expire(r);
    case 'spend':
      return step.spend(r, s.as === 'tampered' ? tampered(s.id) : actionOf(s.id), s.as === 'other-world' ? 'w2' : WORLD);
    case 'settle':
      return step.settle(r, s.outcome);
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** How often each step kind succeeded across all runs: the property means little unless every transition happened. */
const taken = new Map<string, number>();

function check(steps: readonly Step[]): void {
  const records = new Map<Id, ApprovalRecord>();
  const model = new Map<Id, Model>();
  const spends = new Map<Id, number>();
  const settled = new Map<Id, Outcome>();
  for (const s of steps) {
    const before = records.get(s.id);
    const want = expected(model.get(s.id), s);
    // Frozen: a step that changed the record it was given in place would throw here.
    const got = apply(records, s);

    if (typeof want === 'string') {
      expect(got, `${JSON.stringify(s)} should be refused`).toBeInstanceOf(GuardError);
      const error = got as GuardError;
      expect(error.code, JSON.stringify(s)).toBe(want);
      expect(error.approvalId).toBe(s.id);
      if (before && want !== 'already-proposed') expect(error.state).toBe(before.state);
      taken.set(`refused ${want}`, (taken.get(`refused ${want}`) ?? 0) + 1);
      continue;
    }
    expect(got, `${JSON.stringify(s)} should succeed: ${got instanceof GuardError ? got.message : ''}`).not.toBeInstanceOf(GuardError);
    const next = got as ApprovalRecord;
    expect({ state: next.state, outcome: next.outcome }).toEqual(want);
    const kind = `${s.kind}${next === before ? ' (no-op)' : ''}`;
    taken.set(kind, (taken.get(kind) ?? 0) + 1);

    if (next === before) {
      // Nothing changed, so nothing is written (the guard returns the record as read).
      expect(want).toEqual(model.get(s.id));
    } else {
      // Every write bumps the version by one: the compare-and-set on the old version then refuses a stale writer.
      expect(next.version).toBe((before?.version ?? 0) + 1);
      expect(next.id).toBe(s.id);
      records.set(s.id, deepFreeze(next));
    }
    model.set(s.id, want);

    if (s.kind === 'spend') {
      // Only from approved, for the approved action, in its world; and never twice.
      expect(before?.state).toBe('approved');
      expect(fingerprint(actionOf(s.id))).toBe(before?.fingerprint);
      expect(before?.world).toBe(WORLD);
      expect(next.idempotencyKey).toBe(`${s.id}:${next.version}`);
      spends.set(s.id, (spends.get(s.id) ?? 0) + 1);
      expect(spends.get(s.id)).toBe(1);
    }

    // Checked on the record alone, whatever the model says: a known outcome stays.
    const outcome = records.get(s.id)!.outcome;
    if (settled.has(s.id)) expect(outcome).toBe(settled.get(s.id));
    else if (outcome === 'ran' || outcome === 'failed') settled.set(s.id, outcome);
  }
  // And a record is spent exactly when one spend of it succeeded.
  for (const [id, r] of records) expect(spends.get(id) ?? 0).toBe(r.state === 'spent' ? 1 : 0);
}

describe('the approval record', () => {
  it('follows the model on random step sequences, and keeps the safety invariants after every step', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 60, size: 'max' }), (steps) => check(steps)),
      { numRuns: 500 },
    );
    // Every kind of step succeeded, and every refusal happened, at least once (a few dozen times, in practice), so no
    // invariant above held only because it was never reached.
    const codes: GuardErrorCode[] = ['unknown-approval', 'already-proposed', 'not-approved', 'denied', 'expired', 'already-spent', 'action-mismatch', 'world-moved'];
    for (const kind of ['propose', 'approve', 'deny', 'expire', 'spend', 'settle', 'approve (no-op)', 'settle (no-op)', ...codes.map((c) => `refused ${c}`)]) {
      expect(taken.get(kind) ?? 0, kind).toBeGreaterThan(0);
    }
  });

  it('keeps a known outcome whatever is settled after it, and lets an unknown one be learned', () => {
    let r: ApprovalRecord | GuardError = step.proposed('x', actionOf('a'), WORLD);
    r = step.approve(r, r.fingerprint) as ApprovalRecord;
    const spent = step.spend(r, actionOf('a'), WORLD) as ApprovalRecord;
    for (const known of ['ran', 'failed'] as const) {
      const settled = step.settle(spent, known) as ApprovalRecord;
      for (const outcome of ['ran', 'failed', 'unknown'] as const) expect(step.settle(settled, outcome)).toBe(settled);
    }
    const unknown = step.settle(spent, 'unknown') as ApprovalRecord;
    expect(step.settle(unknown, 'unknown')).toBe(unknown);
    expect(step.settle(unknown, 'ran')).toMatchObject({ outcome: 'ran', version: unknown.version + 1 });
  });

  it('keeps only what the fingerprint binds, as plain JSON, so the action a ticket hands back is the approved one', () => {
    const extra = { tool: 'transfer', args: { at: new Date(0), amount: 5 }, targets: ['b', 'a'], confirm: false } as GuardedAction;
    const r = step.proposed('x', extra, WORLD);
    expect(r.action).toEqual({ tool: 'transfer', args: { at: '1970-01-01T00:00:00.000Z', amount: 5 }, targets: ['b', 'a'] });
    expect(r.fingerprint).toBe(fingerprint(extra));
    expect(fingerprint(r.action)).toBe(r.fingerprint);
  });
});
