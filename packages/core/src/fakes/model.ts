// The model as an adversary: every decision is a choice among scripted alternatives, and the scheduler enumerates
// the choices like it enumerates interleavings. A property must hold whatever the model picks.
import type { Access, GateFn } from '../scheduler/gate.js';

/**
 * What the code after a model call may touch before its turn's next gate: it reads the world's fingerprint and
 * records the proposal (`proposed`), and names it (a counter of the world's). Anything else it does (save a
 * transcript, call a tool) goes through gates of its own.
 */
const DECIDE: Access[] = [
  { key: 'fingerprint', mode: 'read' },
  { key: 'proposal', mode: 'write' },
];

export class AdversarialModel {
  readonly #gate: GateFn;

  constructor(gate: GateFn) {
    this.#gate = gate;
  }

  /** One model call. With one alternative it is just a gate; with several, each is explored. */
  async decide<T>(actor: string, decision: string, alternatives: readonly T[]): Promise<T> {
    if (alternatives.length === 0) throw new Error(`model decision '${decision}' has no alternatives`);
    const choice = await this.#gate(actor, `model.${decision}`, { choices: alternatives.length, access: DECIDE });
    return alternatives[choice]!;
  }
}
