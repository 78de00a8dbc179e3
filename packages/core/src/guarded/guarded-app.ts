// What an application adds around its framework with the approval guard, the same in every `guarded-*` wiring: the
// record written before the card is shown, the human's click recorded on the server, the spend before the tool runs
// (with the guard's idempotency key, delivered once more if the call fails and the tool honours keys), and recovery of
// an approval already spent. The framework's own restore, claim and dispatch code stays in the loop around these calls; the adapter says
// where each goes and what the user is told.
import { ApprovalGuard, GuardError, type GuardedAction, type GuardStore } from '@approval-conformance/guard';
import type { Action } from '../history/events.js';
import type { CountingBackend } from '../fakes/backend.js';
import type { GatedGuardStore } from './gated-guard-store.js';

/** What became of a guarded effect, as the user is to be told. */
export type GuardedOutcome =
  /** It ran, exactly once. */
  | 'ran'
  /** It was refused before it ran (denied, forged, edited, re-proposed, the world moved): nothing happened. */
  | 'refused'
  /** It was spent before (a duplicate, a retry, a resume after a crash), and the guard's record says it ran. */
  | 'ran-before'
  /** It was started and failed, and may have run. */
  | 'unknown';

/** A guarded call that did not run now: the spend refused it, or it started and failed (it may have run). */
export class GuardedToolError extends Error {
  override readonly name = 'GuardedToolError';
  readonly outcome: Extract<GuardedOutcome, 'refused' | 'unknown'>;

  constructor(toolName: string, outcome: Extract<GuardedOutcome, 'refused' | 'unknown'>) {
    super(outcome === 'refused' ? `${toolName} was not run: the approval guard refused the spend` : `${toolName} was started and failed: it may have run`);
    this.outcome = outcome;
  }
}

export const guardedAction = (action: Action): GuardedAction => ({ tool: action.operation, args: action.params, targets: action.targets });

/** The guard's action back as the suite's. */
export const suiteAction = (action: GuardedAction): Action => ({
  operation: action.tool,
  params: action.args as Action['params'],
  targets: action.targets ?? [],
});

export class GuardedApp {
  readonly #store: GatedGuardStore;
  readonly #backend: CountingBackend;
  /** The client's copy of each card's fingerprint, which the user's click sends back (it outlives a restart). */
  readonly #cards: Map<string, string>;
  /** This process, as the guard records who spent an approval. */
  readonly process: string;

  constructor(store: GatedGuardStore, backend: CountingBackend, cards: Map<string, string>, process: string) {
    this.#store = store;
    this.#backend = backend;
    this.#cards = cards;
    this.process = process;
  }

  #guard(turn: string): ApprovalGuard {
    return new ApprovalGuard(this.#store.forTurn(turn));
  }

  /** Before the card is shown: the record, bound to the action and the world it was proposed in. */
  async propose(turn: string, approvalId: string, action: Action, world: string): Promise<void> {
    const card = await this.#guard(turn).propose(approvalId, guardedAction(action), world);
    this.#cards.set(approvalId, card.fingerprint);
  }

  /** The human's click reaches the server, which records the approval of the card the client holds. */
  async approve(turn: string, approvalId: string): Promise<void> {
    const shown = this.#cards.get(approvalId);
    if (shown === undefined) return;
    try {
      await this.#guard(turn).approve(approvalId, shown);
    } catch (error) {
      if (!(error instanceof GuardError)) throw error;
    }
  }

  /**
   * Where the framework would call the tool: spend first, for exactly this action in the world it was approved in,
   * then call with the guard's idempotency key, once more if the call fails and the tool honours keys (it applies a
   * key once, so a delivery that returns means the action ran exactly once; a tool that takes no key is called once,
   * and a failure may have run). A refused spend runs nothing; one refused because the approval was spent already is
   * recovered.
   */
  async run(turn: string, approvalId: string, action: Action, dispatch: string): Promise<GuardedOutcome> {
    try {
      await this.#guard(turn).run(
        approvalId,
        guardedAction(action),
        () => this.#backend.world,
        (ticket) => this.#backend.call(turn, { approvalId, dispatch, action, idempotencyKey: ticket.idempotencyKey }),
        { redeliver: this.#backend.honoursKeys ? 1 : 0, owner: this.process },
      );
      return 'ran';
    } catch (error) {
      if (!(error instanceof GuardError)) throw error;
      if (error.code === 'outcome-unknown') return 'unknown';
      if (error.code === 'already-spent') {
        const recovered = await this.recover(turn, approvalId);
        return recovered === 'ran' ? 'ran-before' : recovered === 'unknown' ? 'unknown' : 'refused';
      }
      return 'refused';
    }
  }

  /**
   * A spent approval is recovered, never spent again: if the process that spent it is gone and left its outcome
   * pending, its delivery goes again under the same idempotency key where the backend applies a key once; where it
   * takes none, the approval is settled unknown instead (a second delivery could run it twice). Returns what the
   * record says now; `ran` means the user is to be told it happened, `unknown` that it may have.
   */
  recover(turn: string, approvalId: string): Promise<string | undefined> {
    if (!this.#backend.honoursKeys) return this.#guard(turn).recover(approvalId, this.process);
    return this.#guard(turn).recover(approvalId, this.process, (ticket) =>
      this.#backend.call(turn, {
        approvalId,
        dispatch: `${turn}/${approvalId}`,
        action: suiteAction(ticket.action),
        idempotencyKey: ticket.idempotencyKey,
      }),
    );
  }
}
