// The framework's own fix: the human-in-the-loop docs' one-time approval bound to the exact tool arguments
// (mastra-ai/mastra#20417, "Bind approval to the exact tool arguments"), as the docs write it. The click adds the
// fingerprint of the call the user reviewed (`fingerprint-${JSON.stringify({ toolName, args })}`) to a Set in the
// process, then continues the run with approveToolCallGenerate; the agent's `beforeToolCall` hook deletes the
// fingerprint of the call about to run from that Set, and blocks the call (`proceed: false`) when it was not there.
//
// The Set lives in the process, as in the docs (they say production keeps it in durable storage scoped to the user,
// run, call and policy, and show no such store): on libsql-shared each of the two processes has its own. Its add and
// delete are synchronous, between Mastra's own awaits; each is a gate here, declaring the process's Set written.
import type { Access, GateFn, WorldEnv } from '@approval-conformance/core/contract';
import { currentRequest } from './context.js';
import { needsApproval } from './tools.js';

/** The docs' fingerprint of a call: its tool name and arguments, as JSON. */
export const actionFingerprint = (toolName: string, args: unknown) => `fingerprint-${JSON.stringify({ toolName, args })}`;

/** One process's approved fingerprints, behind gates. */
export class OneTimeApprovals {
  readonly #approved = new Set<string>();
  readonly #access: Access;
  readonly #gate: GateFn;
  readonly #accessed: WorldEnv['accessed'];

  constructor(env: Pick<WorldEnv, 'gate' | 'accessed'>, process: number) {
    this.#access = { key: `app:one-time-approvals/p${process}`, mode: 'write' };
    this.#gate = env.gate;
    this.#accessed = env.accessed;
  }

  /** The click: the reviewed call's fingerprint added, before the run is continued. */
  async add(turn: string, fingerprint: string): Promise<void> {
    const label = 'approvedFingerprints.add';
    await this.#gate(turn, label, { access: [this.#access] });
    this.#observed(label, () => this.#approved.add(fingerprint));
  }

  /** The agent's `beforeToolCall` hook, as the docs write it: a sensitive call runs only if its fingerprint was approved. */
  readonly beforeToolCall = async ({ toolName, input }: { toolName: string; input: unknown }) => {
    if (!needsApproval(toolName)) return undefined;
    const label = 'approvedFingerprints.delete';
    await this.#gate(currentRequest().turn, label, { access: [this.#access] });
    if (!this.#observed(label, () => this.#approved.delete(actionFingerprint(toolName, input)))) {
      return { proceed: false, output: `Tool call blocked: approval did not match ${toolName} arguments.` };
    }
    return undefined;
  };

  /**
   * One operation on the Set, reported for the check of declarations from what it did to the Set (never from the
   * gate's declaration): it looked the fingerprint up, and wrote the Set if its contents changed.
   */
  #observed<T>(label: string, work: () => T): T {
    const before = this.contents()[this.#access.key];
    const result = work();
    this.#accessed?.({ key: this.#access.key, mode: 'read' }, label);
    if (this.contents()[this.#access.key] !== before) this.#accessed?.({ key: this.#access.key, mode: 'write' }, label);
    return result;
  }

  /** The Set by the key its gates declare, for the check of declarations. */
  contents(): Record<string, string> {
    return { [this.#access.key]: JSON.stringify([...this.#approved].sort()) };
  }
}
