// The model as an adversary: every decision is a choice among scripted alternatives, and the scheduler enumerates
// the choices like it enumerates interleavings. A property must hold whatever the model picks.
import type { GateFn } from '../scheduler/gate.js';

export class AdversarialModel {
  readonly #gate: GateFn;

  constructor(gate: GateFn) {
    this.#gate = gate;
  }

  /** One model call. With one alternative it is just a gate; with several, each is explored. */
  async decide<T>(actor: string, decision: string, alternatives: readonly T[]): Promise<T> {
    if (alternatives.length === 0) throw new Error(`model decision '${decision}' has no alternatives`);
    // No access declared: what follows a model call (a proposal, a tool call) is never assumed to commute.
    const choice = await this.#gate(actor, `model.${decision}`, { choices: alternatives.length });
    return alternatives[choice]!;
  }
}
