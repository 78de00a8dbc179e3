// The record: the serialized RunState (`state.toString()`) the app stores. What it says about each approval: a call
// to a tool that needs approval is unspent while the state holds no result for it, and spent once it does.
import type { RecordState } from '@approval-conformance/core/contract';
import { needsApproval } from './tools.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

export const parseState = (text: string | undefined): Json | undefined => (text === undefined ? undefined : (JSON.parse(text) as Json));

/** Every item of the state that may carry a call or its result: generated items, interruptions, model outputs. */
function* rawItems(state: Json): Generator<Json> {
  for (const item of (state['generatedItems'] ?? []) as Json[]) if (item['rawItem']) yield item['rawItem'];
  for (const item of (state['currentStep']?.['data']?.['interruptions'] ?? []) as Json[]) if (item['rawItem']) yield item['rawItem'];
  for (const response of (state['modelResponses'] ?? []) as Json[]) yield* (response['output'] ?? []) as Json[];
}

export function recordStates(text: string | undefined): Map<string, RecordState> {
  const states = new Map<string, RecordState>();
  const state = parseState(text);
  if (!state) return states;
  const calls = new Set<string>();
  for (const raw of rawItems(state)) {
    if (raw['type'] === 'function_call' && needsApproval(raw['name'])) calls.add(raw['callId']);
  }
  const results = new Set<string>();
  for (const item of (state['generatedItems'] ?? []) as Json[]) {
    if (item['rawItem']?.['type'] === 'function_call_result') results.add(item['rawItem']['callId']);
  }
  for (const call of calls) states.set(call, results.has(call) ? 'spent' : 'unspent');
  return states;
}
