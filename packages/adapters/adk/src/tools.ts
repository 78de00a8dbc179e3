// The agent's tools. `transfer` and `notify` need confirmation; `note` does not. Each is a `FunctionTool` that goes
// to the counting backend, named by the approval it runs under (its call id, which the model made the approval's
// name). How a tool asks for confirmation is the wiring's: `requireConfirmation: true` (2.0), or the tool's own
// `toolContext.requestConfirmation` when it has none yet. Guarded, a call to a tool that needs confirmation goes
// through the guard's spend first.
import type { Action } from '@approval-conformance/core/contract';
import type { CountingBackend, GuardedApp } from '@approval-conformance/core/kit';
import { actionOfCall } from '@approval-conformance/core/kit';
import { currentRequest } from './context.js';
import type { AdkLib } from './lib.js';

export const NEEDS_APPROVAL: Readonly<Record<string, boolean>> = { transfer: true, notify: true, note: false };

export const needsApproval = (toolName: string) => NEEDS_APPROVAL[toolName] === true;

/** What a tool returns when it ran: the app tells the user it happened when it sees this result. */
export const doneResult = (toolName: string) => ({ result: `${toolName} done` });

/** Whether a tool's response says it ran. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const saysDone = (toolName: string, response: any) => response?.result === doneResult(toolName).result;

// Gemini's schema types, as the docs write a FunctionTool's parameters without zod.
const PARAMETERS = {
  type: 'OBJECT',
  properties: {
    targets: { type: 'ARRAY', items: { type: 'STRING' } },
    params: { type: 'OBJECT', properties: {} },
  },
  required: ['targets', 'params'],
};

export type Confirmation = 'require-confirmation' | 'request-confirmation';

export interface ToolOptions {
  readonly confirmation: Confirmation;
  readonly guard?: () => GuardedApp;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

export function buildTools(lib: AdkLib, backend: CountingBackend, options: ToolOptions): unknown[] {
  const { FunctionTool } = lib.adk;
  return Object.entries(NEEDS_APPROVAL).map(([name, gated]) => {
    const run = async (args: unknown, context: Any) => {
      if (gated && options.confirmation === 'request-confirmation') {
        // The docs' pattern for a tool that asks by itself: ask when no confirmation came, refuse when it was denied.
        if (!context?.toolConfirmation) {
          context.requestConfirmation({ hint: `Please approve or reject ${name}.` });
          return { pending: 'waiting for confirmation' };
        }
        if (!context.toolConfirmation.confirmed) return { error: 'This tool call is rejected.' };
      }
      const { turn, dispatches, outcomes } = currentRequest();
      const callId: unknown = context?.functionCallId;
      if (typeof callId !== 'string') throw new Error(`ADK ran ${name} without saying which call it is`);
      const approvalId = callId;
      // One request may run the tool twice for one approval: two dispatches, not a retry.
      const n = (dispatches.get(approvalId) ?? 0) + 1;
      dispatches.set(approvalId, n);
      const dispatch = n === 1 ? `${turn}/${approvalId}` : `${turn}/${approvalId}#${n}`;
      const action: Action = actionOfCall(name, args);
      if (options.guard && gated) {
        const outcome = await options.guard().run(turn, approvalId, action, dispatch);
        outcomes.set(callId, [...(outcomes.get(callId) ?? []), outcome]);
        return outcome === 'ran' || outcome === 'ran-before' ? doneResult(name) : { error: `the approval guard says: ${outcome}` };
      }
      await backend.call(turn, { approvalId, dispatch, action, requiresApproval: gated });
      return doneResult(name);
    };
    return new FunctionTool({
      name,
      description: `${name} for the user`,
      parameters: PARAMETERS,
      ...(gated && options.confirmation === 'require-confirmation' ? { requireConfirmation: true } : {}),
      execute: run,
    });
  });
}
