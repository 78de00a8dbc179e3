// The agent's tools. `transfer` and `notify` need approval (`needsApproval: true`); `note` does not. Every execute
// goes to the counting backend, named by the approval it runs under (its call id, which the model made the
// approval's name); in the guarded wirings, a call to a tool that needs approval goes through the guard's spend first.
import { GuardedToolError } from '@approval-conformance/core/kit';
import type { CountingBackend, GuardedApp } from '@approval-conformance/core/kit';
import { currentRequest } from './context.js';
import type { AgentsLib } from './lib.js';
import { actionOf } from './model.js';

export const NEEDS_APPROVAL: Readonly<Record<string, boolean>> = { transfer: true, notify: true, note: false };

export const needsApproval = (toolName: string) => NEEDS_APPROVAL[toolName] === true;

/** What a tool returns when it ran: the app tells the user it happened when it sees this output. */
export const doneOutput = (toolName: string) => `${toolName} done`;

const PARAMETERS = {
  type: 'object',
  properties: {
    targets: { type: 'array', items: { type: 'string' } },
    params: { type: 'object', properties: {}, additionalProperties: true },
  },
  required: ['targets', 'params'],
  additionalProperties: false,
} as const;

export { GuardedToolError };

/** The call id of the call being run: from the details the SDK passes, else the input's own. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const callIdOf = (details: any): string | undefined => details?.toolCall?.callId ?? details?.toolCall?.call_id;

export interface ToolOptions {
  /** Rethrow tool errors (`errorFunction: null`) instead of the default: the error's text as the tool's output. */
  readonly rethrow: boolean;
  readonly guard?: () => GuardedApp;
}

export function buildTools(lib: AgentsLib, backend: CountingBackend, options: ToolOptions): unknown[] {
  const { tool } = lib.agents;
  return Object.entries(NEEDS_APPROVAL).map(([name, gated]) =>
    tool({
      name,
      description: `${name} for the user`,
      parameters: PARAMETERS,
      strict: false,
      ...(gated ? { needsApproval: true } : {}),
      ...(options.rethrow ? { errorFunction: null } : {}),
      async execute(input: unknown, _context: unknown, details: unknown) {
        const { turn, dispatches, outcomes } = currentRequest();
        const callId = callIdOf(details);
        if (callId === undefined) throw new Error(`the SDK ran ${name} without saying which call it is`);
        const approvalId = callId;
        // One request may call the tool twice for one approval: two dispatches, not a retry.
        const n = (dispatches.get(approvalId) ?? 0) + 1;
        dispatches.set(approvalId, n);
        const dispatch = n === 1 ? `${turn}/${approvalId}` : `${turn}/${approvalId}#${n}`;
        const action = actionOf(name, input);
        if (options.guard && gated) {
          const outcome = await options.guard().run(turn, approvalId, action, dispatch);
          outcomes.set(callId, [...(outcomes.get(callId) ?? []), outcome]);
          if (outcome === 'refused' || outcome === 'unknown') throw new GuardedToolError(name, outcome);
          return doneOutput(name);
        }
        await backend.call(turn, { approvalId, dispatch, action, requiresApproval: gated });
        return doneOutput(name);
      },
    }),
  );
}
