// Small constructors for hand-written histories, so a test reads like the story it tells:
//   [read('t1', 'a1', 1, 'unspent'), spend('t1', 'a1', 2), effect('t1', 'a1', 'd1')]
// Defaults are the common case (a human-approved transfer of 100 from acct-1, in world w1); options override them.
import type {
  Action,
  Actor,
  Approve,
  Crash,
  Deny,
  Delivery,
  Disclosure,
  Effect,
  Proposed,
  RecordRead,
  RecordState,
  RecordWrite,
  Tamper,
} from './events.js';

export const TRANSFER: Action = { operation: 'transfer', targets: ['acct-1'], params: { amount: 100 } };
/** A second call that needs its own approval (the scenarios' NOTIFY). */
export const NOTIFY: Action = { operation: 'notify', targets: ['customer-1'], params: { template: 'refund-sent' } };
/** The same transfer with its amount changed, as a holder of the state might alter it. */
export const TRANSFER_1000: Action = { operation: 'transfer', targets: ['acct-1'], params: { amount: 1000 } };

export function proposed(actor: Actor, approvalId: string, action: Action = TRANSFER, world = 'w1'): Proposed {
  return { kind: 'proposed', actor, approvalId, action, world };
}

export function read(actor: Actor, approvalId: string, version: number, state: RecordState): RecordRead {
  return { kind: 'record-read', actor, approvalId, version, state };
}

/** A blind write: the writer did not check that the record still held `from`. */
export function write(
  actor: Actor,
  approvalId: string,
  version: number,
  from: RecordState,
  state: RecordState,
): RecordWrite {
  return { kind: 'record-write', actor, approvalId, version, from, state };
}

/** A compare-and-set: it happened only because the record still held `from`. */
export function cas(
  actor: Actor,
  approvalId: string,
  version: number,
  from: RecordState,
  state: RecordState,
): RecordWrite {
  return { ...write(actor, approvalId, version, from, state), conditional: true };
}

/** A blind spend: unspent → spent. */
export function spend(actor: Actor, approvalId: string, version: number): RecordWrite {
  return write(actor, approvalId, version, 'unspent', 'spent');
}

export function deliver(
  actor: Actor,
  approvalId: string,
  connection: string,
  options: { live?: boolean; action?: Action } = {},
): Delivery {
  return {
    kind: 'delivery',
    actor,
    approvalId,
    connection,
    action: options.action ?? TRANSFER,
    live: options.live ?? true,
  };
}

/** The user approves what they were shown. */
export function approve(approvalId: string, action: Action = TRANSFER, actor: Actor = 'user'): Approve {
  return { kind: 'approve', actor, approvalId, by: 'human', action };
}

/** An approval no human gave, made by whoever holds the state. */
export function deny(approvalId: string, action: Action = TRANSFER, actor: Actor = 'user'): Deny {
  return { kind: 'deny', actor, approvalId, action };
}

/** The runtime stopped waiting for an approval's answer: it expired (final). */
export function expire(approvalId: string, actor: Actor = 't0', action: Action = TRANSFER): Deny {
  return { kind: 'deny', actor, approvalId, action, expired: true };
}

export function forge(approvalId: string, action: Action = TRANSFER, actor: Actor = 'holder'): Approve {
  return { kind: 'approve', actor, approvalId, by: 'forged', action };
}

export function tamper(approvalId: string, what: string, actor: Actor = 'holder'): Tamper {
  return { kind: 'tamper', actor, approvalId, what };
}

export interface EffectOptions {
  readonly action?: Action;
  readonly world?: string;
  /** Default true: the world changed. */
  readonly applied?: boolean;
  /** Default true: the approved tool. */
  readonly requiresApproval?: boolean;
}

export function effect(actor: Actor, approvalId: string, dispatch: string, options: EffectOptions = {}): Effect {
  return {
    kind: 'effect',
    actor,
    approvalId,
    dispatch,
    action: options.action ?? TRANSFER,
    world: options.world ?? 'w1',
    applied: options.applied ?? true,
    requiresApproval: options.requiresApproval ?? true,
  };
}

export function disclose(actor: Actor, approvalId: string, says: Disclosure['says'] = 'happened'): Disclosure {
  return { kind: 'disclosure', actor, approvalId, says };
}

export function crash(actor: Actor): Crash {
  return { kind: 'crash', actor };
}
