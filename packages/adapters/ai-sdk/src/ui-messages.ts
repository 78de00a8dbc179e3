// The record of the UI wirings: the chat's UIMessages (useChat's shape). An approval lives on its tool part
// (`part.approval.id`): pending while the part waits for or carries the answer (`approval-requested`,
// `approval-responded`), spent once the part has an outcome of the tool's own (`output-available`, `output-error`,
// `output-denied`), as the ModelMessage transcript says it with a tool result.
import type { Action, RecordState } from '@approval-conformance/core/contract';
import { actionOf } from './model.js';
import type { ApprovalNames, Part } from './transcript.js';

/** A UIMessage, loosely typed: its parts differ by version. */
export interface UiMessage {
  readonly id: string;
  readonly role: string;
  readonly parts: readonly Part[];
}

/** A typed (`tool-NAME`) or dynamic tool part. */
export const isToolPart = (part: Part) =>
  typeof part['toolCallId'] === 'string' && (part['type'] === 'dynamic-tool' || String(part['type']).startsWith('tool-'));

export const toolNameOf = (part: Part): string => (part['type'] === 'dynamic-tool' ? part['toolName'] : String(part['type']).slice(5));

export const toolParts = (messages: readonly UiMessage[]): Part[] =>
  messages.flatMap((m) => (m.parts ?? []).filter(isToolPart));

const SPENT = new Set(['output-available', 'output-error', 'output-denied']);

/** What the messages say of each approval they hold, by the suite's name (learnt from the part's call). */
export function uiRecordStates(messages: readonly UiMessage[] | undefined, names: ApprovalNames): Map<string, RecordState> {
  const states = new Map<string, RecordState>();
  for (const part of toolParts(messages ?? [])) {
    const sdkId = part['approval']?.id;
    if (typeof sdkId !== 'string') continue;
    names.learn(sdkId, part['toolCallId']);
    states.set(names.name(sdkId), SPENT.has(part['state']) ? 'spent' : 'unspent');
  }
  return states;
}

/** The suite's name for the approval a tool call runs under, if its part carries one. */
export function approvalOfPart(messages: readonly UiMessage[], toolCallId: string, names: ApprovalNames): string | undefined {
  const sdkId = toolParts(messages).findLast((p) => p['toolCallId'] === toolCallId)?.['approval']?.id;
  return typeof sdkId === 'string' ? names.name(sdkId) : undefined;
}

/** The card the user can answer for approval `name`: its part waiting for an answer. */
export const cardFor = (messages: readonly UiMessage[], name: string, names: ApprovalNames): Part | undefined =>
  toolParts(messages).find((p) => p['state'] === 'approval-requested' && names.name(p['approval']?.id) === name);

/** Every card the last response paused on, in the order of its calls. */
export function allPausedOn(messages: readonly UiMessage[], names: ApprovalNames): { approvalId: string; action: Action }[] {
  const last = messages.findLast((m) => m.role === 'assistant');
  return toolParts(last ? [last] : [])
    .filter((p) => p['state'] === 'approval-requested')
    .map((part) => ({ approvalId: names.name(part['approval'].id), action: actionOf(toolNameOf(part), part['input']) }));
}

/** The card the last response paused on, if any: the newest assistant message's part waiting for an answer. */
export function pausedOn(messages: readonly UiMessage[], names: ApprovalNames): { approvalId: string; action: Action } | undefined {
  const last = messages.findLast((m) => m.role === 'assistant');
  const part = toolParts(last ? [last] : []).findLast((p) => p['state'] === 'approval-requested');
  return part && { approvalId: names.name(part['approval'].id), action: actionOf(toolNameOf(part), part['input']) };
}
