// The approval record and its state machine, as pure functions: each step takes the record as read and returns the
// record to write, or the refusal. The guard writes the result by compare-and-set on `version`, so a step decided on
// a stale read never lands: it is decided again on the fresh record.
//
//   (none) --propose--> unspent --approve--> approved --spend--> spent (outcome pending --settle--> ran | failed | unknown)
//   unspent | approved --deny--> denied
//   unspent | approved --expire--> expired
//
// An approved record can still be denied (the user changed their mind) or expired until it is spent: the spend is a
// compare-and-set like every other write, so exactly one of them lands, and a deny that comes too late is told the
// approval was spent, never that it took effect.
import { refuse, type GuardError } from './errors.js';
import { canonicalJson, fingerprint, type GuardedAction } from './fingerprint.js';

export type ApprovalState = 'unspent' | 'approved' | 'denied' | 'spent' | 'expired';

/** What the spent approval's effect did, as far as the guard was told. `pending` until the caller settles it. */
export type Outcome = 'pending' | 'ran' | 'failed' | 'unknown';

export interface ApprovalRecord {
  readonly id: string;
  readonly state: ApprovalState;
  /** Bumped by every write: the compare-and-set compares it. */
  readonly version: number;
  readonly action: GuardedAction;
  /** The action's fingerprint (fingerprint.ts), shown on the card and checked before the action runs. */
  readonly fingerprint: string;
  /** The world version the action was proposed in. */
  readonly world: string;
  /** Set once spent. */
  readonly outcome?: Outcome;
  /** The key the spend passed to the tool, so that a retried delivery is applied once. */
  readonly idempotencyKey?: string;
  /** Who spent it (a process), when the caller said: recovery redelivers only what a process now gone left pending. */
  readonly owner?: string;
}

type Step = ApprovalRecord | GuardError;

export function proposed(id: string, action: GuardedAction, world: string): ApprovalRecord {
  // The record keeps the action as its fingerprint saw it (its JSON) and only what the fingerprint binds, so the
  // action a ticket hands back to run is exactly the approved one, the same on every backend: not a Date in memory
  // and a string in SQLite, and no extra property the caller's object carried that the approval never covered.
  const bound: GuardedAction = {
    tool: action.tool,
    args: JSON.parse(canonicalJson(action.args ?? null)) as unknown,
    ...(action.targets ? { targets: [...action.targets] } : {}),
  };
  return { id, state: 'unspent', version: 1, action: bound, fingerprint: fingerprint(action), world };
}

/** The user said yes to the card showing `shown` (the card's fingerprint). */
export function approve(r: ApprovalRecord, shown: string): Step {
  if (r.state === 'approved') return r.fingerprint === shown ? r : refuse.mismatch(r.id, r.state);
  if (r.state !== 'unspent') return refusal(r);
  if (shown !== r.fingerprint) return refuse.mismatch(r.id, r.state);
  return { ...r, state: 'approved', version: r.version + 1 };
}

export function deny(r: ApprovalRecord): Step {
  if (r.state === 'denied') return r;
  if (r.state !== 'unspent' && r.state !== 'approved') return refusal(r);
  return { ...r, state: 'denied', version: r.version + 1 };
}

export function expire(r: ApprovalRecord): Step {
  if (r.state === 'expired') return r;
  if (r.state !== 'unspent' && r.state !== 'approved') return refusal(r);
  return { ...r, state: 'expired', version: r.version + 1 };
}

/** Spend, before acting: only an approved record, for exactly the approved action, in the world it was proposed in. */
export function spend(r: ApprovalRecord, action: GuardedAction, world: string, owner?: string): Step {
  if (r.state !== 'approved') return refusal(r);
  if (fingerprint(action) !== r.fingerprint) return refuse.mismatch(r.id, r.state);
  if (world !== r.world) return refuse.moved(r.id, r.state);
  const version = r.version + 1;
  return { ...r, state: 'spent', version, outcome: 'pending', idempotencyKey: `${r.id}:${version}`, ...(owner === undefined ? {} : { owner }) };
}

/** What the effect did, once known; `ran` or `failed`, once settled, stays as it is. */
export function settle(r: ApprovalRecord, outcome: Exclude<Outcome, 'pending'>): Step {
  if (r.state === 'unspent' || r.state === 'approved') return refuse.notSpent(r.id, r.state);
  if (r.state !== 'spent') return refusal(r);
  // `ran` and `failed` are known and stay; `unknown` may still be learned (a redelivery after a crash returns).
  if (r.outcome === 'ran' || r.outcome === 'failed' || r.outcome === outcome) return r;
  return { ...r, outcome, version: r.version + 1 };
}

/** Why a record in this state cannot take the step. */
function refusal(r: ApprovalRecord): GuardError {
  switch (r.state) {
    case 'unspent':
      return refuse.notApproved(r.id, r.state);
    case 'denied':
      return refuse.denied(r.id);
    case 'expired':
      return refuse.expired(r.id);
    case 'spent':
      return refuse.spent(r.id);
    case 'approved':
      // No step refuses an approved record for its state alone (each handles it); kept for exhaustiveness.
      return refuse.notSpent(r.id, r.state);
  }
}
