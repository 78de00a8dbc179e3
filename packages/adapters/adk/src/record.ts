// The record: the session's events. ADK keeps an approval as an injected call of `adk_request_confirmation` whose
// arguments pin the original call; the approval is unspent until the session holds a response to that original call
// after the gate (the tool's result, or its refusal once denied), and spent from then on. A tool that asks by itself
// answers its first call with a placeholder (`{ pending }`, our tool's), which 0.x stores after the gate: not a spend.
import type { RecordState } from '@approval-conformance/core/contract';
import { needsApproval } from './tools.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Any = any;

/** The injected call that asks for confirmation (`REQUEST_CONFIRMATION_FUNCTION_CALL_NAME` in every version). */
export const GATE = 'adk_request_confirmation';

export const partsOf = (event: Any): Any[] => (Array.isArray(event?.content?.parts) ? event.content.parts : []);

/** The gate calls in `events`: the gate's id, where it is, and the original call it pins. */
export function gatesIn(events: readonly Any[]): { gateId: string; index: number; call: Any }[] {
  const gates: { gateId: string; index: number; call: Any }[] = [];
  events.forEach((event, index) => {
    for (const part of partsOf(event)) {
      const call = part.functionCall;
      if (call?.name === GATE && call.args?.originalFunctionCall?.id) gates.push({ gateId: call.id, index, call: call.args.originalFunctionCall });
    }
  });
  return gates;
}

/** Whether a function response is call `callId`'s result: not the gate's answer, not a first pass's placeholder. */
export const isResultOf = (response: Any, callId: string) =>
  response?.id === callId && response.name !== GATE && response.response?.pending === undefined;

/** What the events say about each approval (each original call a gate asks about, of a tool that needs it). */
export function recordStates(events: readonly Any[]): Map<string, RecordState> {
  const states = new Map<string, RecordState>();
  for (const { index, call } of gatesIn(events)) {
    if (!needsApproval(call.name)) continue;
    const answered = events.slice(index + 1).some((e) => partsOf(e).some((p) => isResultOf(p.functionResponse, call.id)));
    if (states.get(call.id) !== 'spent') states.set(call.id, answered ? 'spent' : 'unspent');
  }
  return states;
}

/** The approval a gate id stands for, in `events`. */
export const approvalOfGate = (events: readonly Any[], gateId: string): string | undefined => gatesIn(events).find((g) => g.gateId === gateId)?.call.id;

/** How a gate names an event a request appends: `user message`, `confirm a1`, `call a1`, `ask a1`, `result a1`, `reply`. */
export function describeEvent(event: Any, known: readonly Any[]): string {
  const names: string[] = [];
  for (const part of partsOf(event)) {
    if (part.functionCall?.name === GATE) names.push(`ask ${part.functionCall.args?.originalFunctionCall?.id ?? '?'}`);
    else if (part.functionCall) names.push(`call ${part.functionCall.id ?? part.functionCall.name}`);
    else if (part.functionResponse?.name === GATE) names.push(`confirm ${approvalOfGate(known, part.functionResponse.id) ?? '?'}`);
    else if (part.functionResponse) names.push(`result ${part.functionResponse.id ?? part.functionResponse.name}`);
    else if (typeof part.text === 'string') names.push(event.author === 'user' ? 'user message' : 'reply');
  }
  return names.length > 0 ? names.join(', ') : 'event';
}
