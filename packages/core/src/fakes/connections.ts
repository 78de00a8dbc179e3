// Client connections: where confirmation cards and disclosures go. Events go to the newest open connection, as
// chat UIs route them; a card sent where nobody listens is recorded as dropped.
import type { Action } from '../history/events.js';
import type { Recorder } from '../history/recorder.js';
import type { Access, GateFn } from '../scheduler/gate.js';

// A delivery changes nothing but the connection it goes to; so does a disclosure (see `independent`).
const CARD: Access[] = [{ key: 'card', mode: 'write' }];
const TELL: Access[] = [{ key: 'tell', mode: 'write' }];

export class Connections {
  readonly #history: Recorder;
  readonly #gate: GateFn;
  readonly #open: string[] = [];

  constructor(history: Recorder, gate: GateFn) {
    this.#history = history;
    this.#gate = gate;
  }

  open(connection: string): void {
    this.#open.push(connection);
  }

  close(connection: string): void {
    const i = this.#open.indexOf(connection);
    if (i >= 0) this.#open.splice(i, 1);
  }

  snapshot(): readonly string[] {
    return [...this.#open];
  }

  restore(open: readonly string[]): void {
    this.#open.splice(0, this.#open.length, ...open);
  }

  get newest(): string | undefined {
    return this.#open[this.#open.length - 1];
  }

  /**
   * Send a confirmation card to a connection (the newest by default). `after` is what the caller's own code reads or
   * writes once the card is sent, before its turn's next gate (an app that reads its store to say what it paused on).
   */
  async deliverCard(
    actor: string,
    approvalId: string,
    action: Action,
    connection = this.newest,
    after: readonly Access[] = [],
  ): Promise<void> {
    await this.#gate(actor, `client.card(${approvalId})`, { access: [...CARD, ...after] });
    const target = connection ?? 'none';
    this.#history.emit({
      kind: 'delivery',
      actor,
      approvalId,
      connection: target,
      action,
      live: this.#open.includes(target),
    });
  }

  /** Tell the user what happened to an approval's action. `after` as for `deliverCard`. */
  async disclose(
    actor: string,
    approvalId: string,
    says: 'happened' | 'not-happened' | 'unknown',
    after: readonly Access[] = [],
  ): Promise<void> {
    await this.#gate(actor, `client.tell(${approvalId})`, { access: [...TELL, ...after] });
    this.#history.emit({ kind: 'disclosure', actor, approvalId, says });
  }
}
