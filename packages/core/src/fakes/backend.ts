// The counting backend and its tool transport: the world the approved action reaches. It counts effects per approval
// (each call records an `effect` event), can honour idempotency keys, and can be told to apply an effect and then
// time out, the way a real transport loses the reply to a call that did go through.
import type { Action } from '../history/events.js';
import type { Recorder } from '../history/recorder.js';
import type { GateFn } from '../scheduler/gate.js';

export interface ToolCall {
  readonly approvalId: string;
  /** The runtime's decision to call the tool; a transport retry repeats it. */
  readonly dispatch: string;
  readonly action: Action;
  readonly requiresApproval?: boolean;
  /** Sent by runtimes that derive a key from the approval; the backend applies a key once. */
  readonly idempotencyKey?: string;
}

export interface BackendOptions {
  /** Honour idempotency keys (default true): a repeated key is refused, not applied. */
  readonly honourIdempotencyKeys?: boolean;
  /** Apply the effect, then throw as if the reply timed out, on these calls (1-based, counted over all calls). */
  readonly timeoutAfterApplyOnCalls?: readonly number[];
  /** Apply the effect, then throw an ordinary tool error, on these calls. */
  readonly errorAfterApplyOnCalls?: readonly number[];
  /** An at-least-once transport: after a timeout, send the same call again, up to this many times (default 0). */
  readonly transportRetries?: number;
}

export class ToolTimeout extends Error {
  override readonly name = 'ToolTimeout';
}

export class ToolFailed extends Error {
  override readonly name = 'ToolFailed';
}

export class CountingBackend {
  readonly #history: Recorder;
  readonly #gate: GateFn;
  readonly #options: BackendOptions;
  readonly #keys = new Set<string>();
  #calls = 0;
  #worldVersion = 1;

  constructor(history: Recorder, gate: GateFn, options: BackendOptions = {}) {
    this.#history = history;
    this.#gate = gate;
    this.#options = options;
  }

  /** Whether the backend applies an idempotency key once, as the app that calls it is told (`honourIdempotencyKeys`). */
  get honoursKeys(): boolean {
    return this.#options.honourIdempotencyKeys ?? true;
  }

  /** A fingerprint of the world now: changes whenever the world drifts. */
  get world(): string {
    return `w${this.#worldVersion}`;
  }

  snapshot() {
    return { keys: [...this.#keys], calls: this.#calls, worldVersion: this.#worldVersion };
  }

  /** Its state as text, for the check of declarations (`World.contents`): what a tool call declares it writes, `world`. */
  contents(): string {
    return JSON.stringify(this.snapshot());
  }

  restore(state: ReturnType<CountingBackend['snapshot']>): void {
    this.#keys.clear();
    for (const key of state.keys) this.#keys.add(key);
    this.#calls = state.calls;
    this.#worldVersion = state.worldVersion;
  }

  /** The world changes under an approval (a target is deleted or edited). */
  drift(): void {
    this.#worldVersion++;
  }

  /**
   * One call through the transport: a gate, then the backend applies (or refuses) the action. An at-least-once
   * transport sends the same call again after a timeout, with the same dispatch id and idempotency key.
   */
  async call(actor: string, call: ToolCall): Promise<{ readonly applied: boolean }> {
    const retries = this.#options.transportRetries ?? 0;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#attempt(actor, call, attempt);
      } catch (error) {
        if (!(error instanceof ToolTimeout) || attempt >= retries) throw error;
      }
    }
  }

  async #attempt(actor: string, call: ToolCall, attempt: number): Promise<{ readonly applied: boolean }> {
    const label = attempt === 0 ? 'tool.call' : 'tool.retry';
    await this.#gate(actor, `${label}(${call.action.operation})`, {
      access: [{ key: 'world', mode: 'write' }],
    });
    const n = ++this.#calls;
    const key = call.idempotencyKey;
    const duplicate = key !== undefined && (this.#options.honourIdempotencyKeys ?? true) && this.#keys.has(key);
    if (key !== undefined) this.#keys.add(key);
    this.#history.emit({
      kind: 'effect',
      actor,
      approvalId: call.approvalId,
      dispatch: call.dispatch,
      action: call.action,
      world: this.world,
      applied: !duplicate,
      requiresApproval: call.requiresApproval ?? true,
    });
    if (this.#options.timeoutAfterApplyOnCalls?.includes(n)) throw new ToolTimeout(`${call.action.operation} timed out`);
    if (this.#options.errorAfterApplyOnCalls?.includes(n)) throw new ToolFailed(`${call.action.operation} failed`);
    return { applied: !duplicate };
  }
}
