// The reference runtime: the approval protocol written as ordinary async code over a durable store, with the
// essay's three switches. It is the calibration subject: the explorer must find in it exactly what the design model
// finds in the spec. Each step below is one action of the model (Approval.tla), in the same order.
import type {
  Answer,
  Fakes,
  PendingApproval,
  ProposalRequest,
  Recorder,
  Switches,
} from '@approval-conformance/core/contract';
import type { GuardedApp } from '@approval-conformance/core/kit';
import type { GatedStore } from './gated-store.js';

export class ReferenceRuntime {
  readonly #switches: Switches;
  readonly #store: GatedStore;
  readonly #fakes: Fakes;
  readonly #history: Recorder;
  /** The approval guard an application adds (`guarded-*` wirings); the runtime's own steps stay as its switches make them. */
  readonly #guarding: GuardedApp | undefined;
  /** How many proposals this runtime has made: the next approval is `a${proposals + 1}`. */
  proposals = 0;

  constructor(switches: Switches, store: GatedStore, fakes: Fakes, history: Recorder, guarding?: GuardedApp) {
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
    await this.#guarding?.propose(turn, approvalId, action, world);
    await this.#fakes.connections.deliverCard(turn, approvalId, action);
    return { approvalId, action };
  }

  /** Two cards or more at once: the model proposes each in turn, before any answer, each with its own record. */
  async proposeMany(turn: string, requests: readonly ProposalRequest[]): Promise<PendingApproval[]> {
    const pending: PendingApproval[] = [];
    for (const request of requests) pending.push(await this.propose(turn, request));
    return pending;
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
      if (this.#guarding && (await this.#guarding.recover(turn, approvalId)) === 'ran') {
        await this.#fakes.connections.disclose(turn, approvalId, 'happened');
      }
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
      const outcome = await this.#guarding.run(turn, approvalId, view.action, dispatch);
      if (outcome === 'refused' || outcome === 'ran-before') {
        await unlock?.();
        if (outcome === 'ran-before') await this.#fakes.connections.disclose(turn, approvalId, 'happened');
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

  /** Guarded: the human's click reaches the server, which records the approval of the card the client holds. */
  async approve(turn: string, approvalId: string): Promise<void> {
    await this.#guarding?.approve(turn, approvalId);
  }
}
