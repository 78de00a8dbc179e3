// The agent's tools. `transfer` and `notify` need approval; `note` does not (a forged approval for it must still not
// run it). Every execute goes to the counting backend, named by the approval it runs under; in the guarded wirings, a
// call that runs under an approval goes through the approval guard's spend first.
import { GuardedToolError } from '@approval-conformance/core/kit';
import type { CountingBackend, GuardedApp } from '@approval-conformance/core/kit';
import { currentRequest } from './context.js';
import type { AiLib } from './lib.js';
import { actionOf } from './model.js';

/** The tools by name, and whether each needs a human's approval. */
export const NEEDS_APPROVAL: Readonly<Record<string, boolean>> = { transfer: true, notify: true, note: false };

export const needsApproval = (toolName: string) => NEEDS_APPROVAL[toolName] === true;

const INPUT = {
  type: 'object',
  properties: { targets: { type: 'array', items: { type: 'string' } }, params: { type: 'object' } },
  required: ['targets', 'params'],
} as const;

export { GuardedToolError };

/**
 * Run a tool for real: the effect, attributed to the approval the call runs under. Guarded (`guard` given), a call
 * that runs under an approval (or to a tool that needs one) is the guard's `run`: spent first, for exactly this
 * action, then called with the guard's idempotency key; it returns when the action ran (now or before) and throws a
 * GuardedToolError when it did not run now or may have run. What became of it is kept in the request, for the route.
 */
export function runTool(backend: CountingBackend, toolName: string, guard?: () => GuardedApp) {
  return async (input: unknown, options: { toolCallId: string }) => {
    const { turn, approvalOfCall, dispatches, outcomes } = currentRequest();
    const underApproval = approvalOfCall.get(options.toolCallId);
    const approvalId = underApproval ?? options.toolCallId;
    // One request may call the tool twice for one approval (a duplicated answer): two dispatches, not a retry.
    const n = (dispatches.get(approvalId) ?? 0) + 1;
    dispatches.set(approvalId, n);
    const dispatch = n === 1 ? `${turn}/${approvalId}` : `${turn}/${approvalId}#${n}`;
    if (guard && (underApproval !== undefined || needsApproval(toolName))) {
      const outcome = await guard().run(turn, approvalId, actionOf(toolName, input), dispatch);
      outcomes.set(options.toolCallId, [...(outcomes.get(options.toolCallId) ?? []), outcome]);
      if (outcome === 'refused' || outcome === 'unknown') throw new GuardedToolError(toolName, outcome);
      return `${toolName} done`;
    }
    await backend.call(turn, {
      approvalId,
      dispatch,
      action: actionOf(toolName, input),
      requiresApproval: needsApproval(toolName),
    });
    return `${toolName} done`;
  };
}

/**
 * The tool set. Native: every tool has execute, and the gated ones `needsApproval: true`. Cookbook (the 5.x
 * human-in-the-loop recipe): the gated tools have no execute; the route runs them after the client's answer.
 * Guarded, every execute goes through the guard when its call runs under an approval.
 */
export function buildTools(lib: AiLib, backend: CountingBackend, style: 'native' | 'cookbook', guard?: () => GuardedApp) {
  const { tool, jsonSchema } = lib.ai;
  const tools: Record<string, unknown> = {};
  for (const [name, gated] of Object.entries(NEEDS_APPROVAL)) {
    const base = { description: `${name} for the user`, inputSchema: jsonSchema(INPUT) };
    if (style === 'cookbook' && gated) tools[name] = tool(base);
    else tools[name] = tool({ ...base, ...(gated ? { needsApproval: true } : {}), execute: runTool(backend, name, guard) });
  }
  return tools;
}
