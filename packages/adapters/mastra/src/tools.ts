// The effect and the agent's tools. `transfer` and `notify` need approval (`requireApproval: true`); `note` does not.
// Every effect goes to the counting backend, named by the approval it runs under (the agent's tool call id, which the
// model made the approval's name; the workflow's approval); in the guarded wirings, an effect that needs approval
// goes through the guard's spend first.
import { GuardedToolError } from '@approval-conformance/core/kit';
import type { Action } from '@approval-conformance/core/contract';
import type { CountingBackend, GuardedApp } from '@approval-conformance/core/kit';
import { currentRequest } from './context.js';
import type { MastraLib } from './lib.js';
import { actionOf } from './model.js';

export const NEEDS_APPROVAL: Readonly<Record<string, boolean>> = { transfer: true, notify: true, note: false };

export const needsApproval = (toolName: string) => NEEDS_APPROVAL[toolName] === true;

/** What a tool returns when it ran: the app tells the user it happened when it sees this output. */
export const doneOutput = (toolName: string) => `${toolName} done`;

export { GuardedToolError };

export interface Effects {
  readonly backend: CountingBackend;
  readonly guard?: () => GuardedApp;
}

/** The action's effect under approval `approvalId`, in the current request: the backend's call, or the guard's. */
export async function perform(effects: Effects, approvalId: string, action: Action): Promise<string> {
  const { turn, dispatches, outcomes } = currentRequest();
  const gated = needsApproval(action.operation);
  // One request may run the effect twice for one approval: two dispatches, not a retry.
  const n = (dispatches.get(approvalId) ?? 0) + 1;
  dispatches.set(approvalId, n);
  const dispatch = n === 1 ? `${turn}/${approvalId}` : `${turn}/${approvalId}#${n}`;
  if (effects.guard && gated) {
    const outcome = await effects.guard().run(turn, approvalId, action, dispatch);
    outcomes.set(approvalId, [...(outcomes.get(approvalId) ?? []), outcome]);
    if (outcome === 'refused' || outcome === 'unknown') throw new GuardedToolError(action.operation, outcome);
    return doneOutput(action.operation);
  }
  await effects.backend.call(turn, { approvalId, dispatch, action, requiresApproval: gated });
  return doneOutput(action.operation);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** The input schema every tool declares: the action's targets and parameters. */
export const inputSchema = (lib: MastraLib) => {
  const { z } = lib.zod;
  return z.object({ targets: z.array(z.string()), params: z.record(z.string(), z.any()) });
};

/** The agent's tools, by name. The call id comes from the execution context Mastra passes (`agent.toolCallId`). */
export function buildTools(lib: MastraLib, effects: Effects): Record<string, unknown> {
  const { createTool } = lib.tools;
  const schema = inputSchema(lib);
  return Object.fromEntries(
    Object.entries(NEEDS_APPROVAL).map(([name, gated]) => [
      name,
      createTool({
        id: name,
        description: `${name} for the user`,
        inputSchema: schema,
        ...(gated ? { requireApproval: true } : {}),
        async execute(input: unknown, context: Any) {
          const callId: string | undefined = context?.agent?.toolCallId ?? context?.toolCallId;
          if (callId === undefined) throw new Error(`Mastra ran ${name} without saying which call it is`);
          return perform(effects, callId, actionOf(name, input));
        },
      }),
    ]),
  );
}
