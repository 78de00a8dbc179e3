// The reference runtime: the approval protocol written as ordinary async code over a durable store, with the
// essay's three switches. It is the calibration subject: the explorer must find in it exactly what the design model
// finds in the spec. Each step below is one action of the model (Approval.tla), in the same order.
import type { Action, Answer, Fakes, PendingApproval, ProposalRequest, Recorder, Switches } from '@approval-conformance/core';
import { ApprovalGuard, GuardError, type GuardedAction } from '@approval-conformance/guard';
import type { GatedGuardStore } from './gated-guard-store.js';
import type { GatedStore } from './gated-store.js';

/**
 * The approval guard an application adds (`guarded-*` wirings): its store, and the client's copy of each card's
 * fingerprint, which the user's click sends back. The runtime's own steps stay as its switches make them.
 */
export interface Guarding {
  readonly store: GatedGuardStore;
  readonly cards: Map<string, string>;
  /** This process, as the guard records who spent an approval. */
  readonly process: string;
}

const guarded = (action: Action): GuardedAction => ({ tool: action.operation, args: action.params, targets: action.targets });
/** The guard's action back as the suite's. */
const recorded = (action: GuardedAction): Action => ({ operation: action.tool, params: action.args as Action['params'], targets: action.targets ?? [] });

export class ReferenceRuntime {
  readonly #switches: Switches;
  readonly #store: GatedStore;
  readonly #fakes: Fakes;
  readonly #history: Recorder;
  readonly #guarding: Guarding | undefined;
  /** How many proposals this runtime has made: the next approval is `a${proposals + 1}`. */
  proposals = 0;

  constructor(switches: Switches, store: GatedStore, fakes: Fakes, history: Recorder, guarding?: Guarding) {
    this.#guarding = guarding;
    this.#switches = switches;
    this.#store = store;
    this.#fakes = fakes;
    this.#history = history;
  }

  /** Run to the pause: the model proposes, the card is persisted, then shown. */
  async propose(turn: string, request: ProposalRequest): Promise<PendingApproval> {
    const action = await this.#fakes.model.decide(turn, 'propose', request.alternatives);
    const approvalId = `a${++this.proposals}`;
    const world = this.#fakes.backend.world;
    this.#history.emit({ kind: 'proposed', actor: turn, approvalId, action, world });
    await this.#store.create(turn, approvalId, action, world);
    // Guarded: the guard's record is written before the card is shown, and the card carries its fingerprint.
    if (this.#guarding) {
      const card = await this.#guard(turn).propose(approvalId, guarded(action), world);
      this.#guarding.cards.set(approvalId, card.fingerprint);
    }
    await this.#fakes.connections.deliverCard(turn, approvalId, action);
    return { approvalId, action };
  }

  async resume(turn: string, answer: Answer): Promise<void> {
    const { spendMode, freshView, serialize } = this.#switches;
    const { approvalId } = answer;
    if (!answer.approved) return;

    // Restore: read the record once; this is the turn's view.
    const view = await this.#store.read(turn, approvalId);
    if (!view) return;

    // Serialize: one turn at a time between claiming and the effect.
    const unlock = serialize ? await this.#store.lock(turn, approvalId) : undefined;

    // Check: claim the approval if it is unspent, as seen live (fresh view) or in the view (snapshot).
    // A compare-and-set claims and spends in one step.
    const claimed =
      spendMode === 'cas'
        ? await this.#store.compareAndSet(turn, approvalId, 'unspent', 'spent')
        : (freshView ? await this.#store.read(turn, approvalId) : view)?.state === 'unspent';
    if (!claimed) {
      await unlock?.();
      // Guarded: a resume of an approval already spent is where recovery happens (a crash may have cut the spender
      // off before it told the user): the guard's record says what ran.
      if (this.#guarding) await this.#recover(turn, approvalId);
      return;
    }
    this.#history.emit({ kind: 'claim', actor: turn, approvalId });

    // Spend ('before'): record the spend as its own write, ahead of the effect.
    if (spendMode === 'before') await this.#store.write(turn, approvalId, 'spent');

    // Effect: call the tool with the action the view holds. If the tool reports an error, the runtime believes it.
    // Guarded: the guard spends the approval first, for exactly this action in the world it was approved in, and
    // the call carries its idempotency key; a refused spend runs nothing.
    let failed = false;
    const dispatch = `${turn}/${approvalId}`;
    if (this.#guarding) {
      const outcome = await this.#guardedEffect(turn, approvalId, view.action, dispatch);
      if (outcome === 'refused') {
        await unlock?.();
        return;
      }
      failed = outcome === 'unknown';
    } else {
      try {
        await this.#fakes.backend.call(turn, { approvalId, dispatch, action: view.action });
      } catch {
        failed = true;
      }
    }
    await unlock?.();
    if (failed) {
      // Guarded, a failure is one the guard could not resolve: the action may have run, and the user is told so.
      await this.#fakes.connections.disclose(turn, approvalId, this.#guarding ? 'unknown' : 'not-happened');
      return;
    }

    // Record ('after'): the spend is written only once the effect has happened.
    if (spendMode === 'after') await this.#store.write(turn, approvalId, 'spent');

    await this.#fakes.connections.disclose(turn, approvalId, 'happened');
  }

  #guard(turn: string): ApprovalGuard {
    return new ApprovalGuard(this.#guarding!.store.forTurn(turn));
  }

  /** Guarded: the human's click reaches the server, which records the approval of the card the client holds. */
  async approve(turn: string, approvalId: string): Promise<void> {
    const shown = this.#guarding?.cards.get(approvalId);
    if (shown === undefined) return;
    try {
      await this.#guard(turn).approve(approvalId, shown);
    } catch (error) {
      if (!(error instanceof GuardError)) throw error;
    }
  }

  /**
   * Spend, then call the tool with the guard's idempotency key, delivering it once more if the call fails (the
   * backend applies a key once, so a delivery that returns means the action ran exactly once).
   */
  async #guardedEffect(turn: string, approvalId: string, action: Action, dispatch: string): Promise<'ran' | 'refused' | 'unknown'> {
    try {
      await this.#guard(turn).run(
        approvalId,
        guarded(action),
        () => this.#fakes.backend.world,
        (ticket) => this.#fakes.backend.call(turn, { approvalId, dispatch, action, idempotencyKey: ticket.idempotencyKey }),
        { redeliver: 1, owner: this.#guarding!.process },
      );
      return 'ran';
    } catch (error) {
      if (!(error instanceof GuardError)) throw error;
      if (error.code === 'outcome-unknown') return 'unknown';
      if (error.code === 'already-spent') await this.#recover(turn, approvalId);
      return 'refused';
    }
  }

  /**
   * A spent approval is recovered, never spent again: if the process that spent it is gone and left its outcome
   * pending, its delivery goes again under the same idempotency key (the backend applies a key once), and once the
   * guard knows the action ran the user is told so.
   */
  async #recover(turn: string, approvalId: string): Promise<void> {
    const outcome = await this.#guard(turn).recover(approvalId, this.#guarding!.process, (ticket) =>
      this.#fakes.backend.call(turn, { approvalId, dispatch: `${turn}/${approvalId}`, action: recorded(ticket.action), idempotencyKey: ticket.idempotencyKey }),
    );
    if (outcome === 'ran') await this.#fakes.connections.disclose(turn, approvalId, 'happened');
  }
}
