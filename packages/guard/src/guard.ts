// The guard: an application calls it where its framework pauses for approval (propose, before the card is shown),
// where the user answers (approve or deny), and where the tool is about to run (spend, then settle; or `run`, which
// does both around the effect). Every decision is taken on the record as read and written by compare-and-set, so a
// decision taken on a stale view never lands: it is taken again on the fresh record.
import { GuardError, refuse } from './errors.js';
import type { GuardedAction } from './fingerprint.js';
import * as step from './record.js';
import type { ApprovalRecord, Outcome } from './record.js';
import type { GuardStore } from './store.js';

/** What the card carries, so that the answer can be bound to exactly what the user saw. */
export interface Card {
  readonly approvalId: string;
  readonly fingerprint: string;
  readonly action: GuardedAction;
}

/** A spent approval: the key to pass to the tool, and the action to run (the record's, not the caller's). */
export interface Ticket {
  readonly approvalId: string;
  readonly idempotencyKey: string;
  readonly action: GuardedAction;
}

/** The world version now: a value, or a function the guard calls after reading the record, so the check is fresh. */
export type World = string | (() => string);

const now = (world: World) => (typeof world === 'function' ? world() : world);

/** How many times a step is decided again after losing a compare-and-set before the guard gives up. */
const ATTEMPTS = 16;

export class ApprovalGuard {
  readonly #store: GuardStore;
  /** Each ticket's record as its spend wrote it: settling it needs no second read unless another write came between. */
  readonly #spent = new WeakMap<Ticket, ApprovalRecord>();

  constructor(store: GuardStore) {
    this.#store = store;
  }

  /** Records the proposal (unspent) before its card is shown; the card carries the id and the fingerprint. */
  async propose(approvalId: string, action: GuardedAction, world: string): Promise<Card> {
    const record = step.proposed(approvalId, action, world);
    if (!(await this.#store.insert(record))) throw refuse.proposed(approvalId);
    // The record's action (plain JSON, only what the fingerprint binds): what the user is shown is what would run.
    return { approvalId, fingerprint: record.fingerprint, action: record.action };
  }

  /** The user approved the card with this fingerprint. */
  approve(approvalId: string, fingerprint: string): Promise<ApprovalRecord> {
    return this.#apply(approvalId, (r) => step.approve(r, fingerprint));
  }

  deny(approvalId: string): Promise<ApprovalRecord> {
    return this.#apply(approvalId, step.deny);
  }

  expire(approvalId: string): Promise<ApprovalRecord> {
    return this.#apply(approvalId, step.expire);
  }

  /**
   * Spends the approval, before acting: atomically, once, for exactly the approved action in the world it was
   * proposed in. An approval that a transcript or a run state claims, but the record does not hold, is refused.
   */
  async spend(approvalId: string, action: GuardedAction, world: World, { owner }: { readonly owner?: string } = {}): Promise<Ticket> {
    const spent = await this.#apply(approvalId, (r) => step.spend(r, action, now(world), owner));
    const ticket: Ticket = { approvalId, idempotencyKey: spent.idempotencyKey!, action: spent.action };
    this.#spent.set(ticket, spent);
    return ticket;
  }

  /** What the effect did: `ran`, `failed` (it surely did not apply), or `unknown` (it may have). */
  async settle(ticket: Ticket, outcome: Exclude<Outcome, 'pending'>): Promise<ApprovalRecord> {
    const settled = await this.#apply(ticket.approvalId, (r) => step.settle(r, outcome), this.#spent.get(ticket));
    this.#spent.set(ticket, settled);
    return settled;
  }

  /**
   * Spends, runs `effect` with the ticket (its idempotency key), and settles. If the effect throws, the guard cannot
   * know whether it applied. With `redeliver: n` (only for a tool that honours idempotency keys) it delivers the same
   * ticket again, up to n times: a delivery that returns means the action ran exactly once (now, or before, the
   * repeat refused by its key), and the caller is told it ran. Otherwise the record says `unknown`, and the error
   * (code `outcome-unknown`) says so, so that the caller never tells the user it did not happen.
   *
   * Recording the outcome comes after the effect, so a store failure then must not change what the caller hears: the
   * record stays spent with outcome `pending` (what recovery reads as "started, outcome not recorded"), and `run`
   * still returns the effect's result, or throws `outcome-unknown`, as the effect decided.
   */
  async run<T>(
    approvalId: string,
    action: GuardedAction,
    world: World,
    effect: (ticket: Ticket) => Promise<T>,
    { redeliver = 0, owner }: { readonly redeliver?: number; readonly owner?: string } = {},
  ): Promise<T> {
    const ticket = await this.spend(approvalId, action, world, owner === undefined ? {} : { owner });
    let failure: unknown;
    for (let delivery = 0; delivery <= redeliver; delivery++) {
      let result: T;
      try {
        result = await effect(ticket);
      } catch (error) {
        failure = error;
        continue;
      }
      await this.settle(ticket, 'ran').catch(() => undefined);
      return result;
    }
    await this.settle(ticket, 'unknown').catch(() => undefined);
    throw new GuardError(
      'outcome-unknown',
      approvalId,
      `the action of approval '${approvalId}' was started and then failed: it may have run. Tell the user so; deliver it again with idempotency key '${ticket.idempotencyKey}' to find out. It will not run again under a new spend of this approval.`,
      'spent',
      { cause: failure },
    );
  }

  /**
   * After a crash: a spent approval whose outcome a process that is gone (`owner` is this process) left pending or
   * unknown is delivered again with its own idempotency key, never spent again, and settled `ran` if the delivery
   * returns (the tool applies a key once). Leave `effect` out for a tool that takes no idempotency key: delivering
   * again could run the action a second time, so such an approval is settled `unknown` (it may have run) instead.
   * Returns the record's outcome afterwards; the approval is never forgotten.
   */
  async recover(approvalId: string, owner: string, effect?: (ticket: Ticket) => Promise<unknown>): Promise<Outcome | undefined> {
    const record = await this.#store.get(approvalId);
    if (!record || record.state !== 'spent') return undefined;
    if (record.outcome === 'ran' || record.outcome === 'failed' || record.owner === owner) return record.outcome;
    const ticket: Ticket = { approvalId, idempotencyKey: record.idempotencyKey!, action: record.action };
    this.#spent.set(ticket, record);
    if (effect === undefined) return record.outcome === 'unknown' ? 'unknown' : (await this.settle(ticket, 'unknown')).outcome;
    try {
      await effect(ticket);
    } catch {
      return (await this.settle(ticket, 'unknown')).outcome;
    }
    return (await this.settle(ticket, 'ran')).outcome;
  }

  /** The record as it is now: after a crash, what recovery reads (a spent approval is never run again nor forgotten). */
  status(approvalId: string): Promise<ApprovalRecord | undefined> {
    return this.#store.get(approvalId);
  }

  /** Whether an approval found in a transcript or run state counts: only when the record holds it approved for `action`. */
  async counts(approvalId: string, action: GuardedAction): Promise<boolean> {
    const record = await this.#store.get(approvalId);
    return record !== undefined && !(step.spend(record, action, record.world) instanceof GuardError);
  }

  /**
   * Reads, decides, and writes by compare-and-set; a lost race is decided again on the fresh record. `known`, a
   * record this guard read or wrote, is decided on first without reading: if it is stale the compare-and-set fails.
   */
  async #apply(
    approvalId: string,
    decide: (r: ApprovalRecord) => ApprovalRecord | GuardError,
    known?: ApprovalRecord,
  ): Promise<ApprovalRecord> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      // Only a write is decided on the known record: a refusal or a no-op is decided again on a fresh read.
      const unread = attempt === 0 && known !== undefined;
      const record = unread ? known : await this.#store.get(approvalId);
      if (!record) throw refuse.unknown(approvalId);
      const next = decide(record);
      if (unread && (next instanceof GuardError || next === record)) continue;
      if (next instanceof GuardError) throw next;
      if (next === record) return record;
      if (await this.#store.replace(next, record.version)) return next;
    }
    throw refuse.contended(approvalId);
  }
}
