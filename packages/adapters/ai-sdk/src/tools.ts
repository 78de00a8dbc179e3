// The agent's tools. `transfer` and `notify` need approval; `note` does not (a forged approval for it must still not
// run it). Every execute goes to the counting backend, named by the approval it runs under.
import type { CountingBackend } from '@approval-conformance/core';
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

/** Run a tool for real: the effect, attributed to the approval the call runs under. */
export function runTool(backend: CountingBackend, toolName: string) {
  return async (input: unknown, options: { toolCallId: string }) => {
    const { turn, approvalOfCall, dispatches } = currentRequest();
    const approvalId = approvalOfCall.get(options.toolCallId) ?? options.toolCallId;
    // One request may call the tool twice for one approval (a duplicated answer): two dispatches, not a retry.
    const n = (dispatches.get(approvalId) ?? 0) + 1;
    dispatches.set(approvalId, n);
    await backend.call(turn, {
      approvalId,
      dispatch: n === 1 ? `${turn}/${approvalId}` : `${turn}/${approvalId}#${n}`,
      action: actionOf(toolName, input),
      requiresApproval: needsApproval(toolName),
    });
    return `${toolName} done`;
  };
}

/**
 * The tool set. Native: every tool has execute, and the gated ones `needsApproval: true`. Cookbook (the 5.x
 * human-in-the-loop recipe): the gated tools have no execute; the route runs them after the client's answer.
 */
export function buildTools(lib: AiLib, backend: CountingBackend, style: 'native' | 'cookbook') {
  const { tool, jsonSchema } = lib.ai;
  const tools: Record<string, unknown> = {};
  for (const [name, gated] of Object.entries(NEEDS_APPROVAL)) {
    const base = { description: `${name} for the user`, inputSchema: jsonSchema(INPUT) };
    if (style === 'cookbook' && gated) tools[name] = tool(base);
    else tools[name] = tool({ ...base, ...(gated ? { needsApproval: true } : {}), execute: runTool(backend, name) });
  }
  return tools;
}
