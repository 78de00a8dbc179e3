// What whoever holds Mastra's storage can do to a suspended run: edit the approved call's arguments in its stored
// snapshots, wherever they hold the call (the agent's `agentic-loop` and `executionWorkflow` rows; the workflow's
// step input and suspend payload), written back with the storage's own write.
import type { Action } from '@approval-conformance/core/contract';
import { inputOf } from './model.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** Visit every object in a JSON value. */
function visit(value: unknown, fn: (o: Json) => void): void {
  if (Array.isArray(value)) for (const v of value) visit(v, fn);
  else if (value && typeof value === 'object') {
    fn(value as Json);
    for (const v of Object.values(value)) visit(v, fn);
  }
}

/** An agent snapshot with call `callId`'s tool and arguments changed wherever it holds the call. */
export function editCall(snapshot: unknown, callId: string, action: Action): unknown {
  const edited = structuredClone(snapshot);
  visit(edited, (o) => {
    if (o['toolCallId'] !== callId) return;
    if ('toolName' in o) o['toolName'] = action.operation;
    if ('args' in o) o['args'] = inputOf(action);
    if (typeof o['input'] === 'string') o['input'] = JSON.stringify(inputOf(action));
    else if ('input' in o) o['input'] = inputOf(action);
  });
  return edited;
}

/** A workflow snapshot with approval `approvalId`'s action changed wherever it holds the proposal. */
export function editProposal(snapshot: unknown, approvalId: string, action: Action): unknown {
  const edited = structuredClone(snapshot);
  visit(edited, (o) => {
    if (o['approvalId'] === approvalId && 'action' in o) o['action'] = structuredClone(action);
  });
  return edited;
}
