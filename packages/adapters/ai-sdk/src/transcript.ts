// The record: the chat's persisted messages (the SDK's ModelMessage shape). The SDK keeps nothing between calls, so
// what the transcript says about a tool call is all there is: an approval is pending while its call has no result,
// and spent once a result is written.
import type { RecordState } from '@approval-conformance/core/contract';

/** A ModelMessage, loosely typed: its parts differ by version. */
export interface Message {
  readonly role: string;
  readonly content: unknown;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Part = Record<string, any>;

/** The cookbook's answers (5.x human-in-the-loop): the client writes one of these as the tool's output. */
export const APPROVAL = { YES: 'Yes, confirmed.', NO: 'No, denied.' } as const;

export const partsOf = (message: Message): Part[] => (Array.isArray(message.content) ? (message.content as Part[]) : []);

function* parts(messages: readonly Message[], role: string, type: string) {
  for (const message of messages) {
    if (message.role !== role) continue;
    for (const part of partsOf(message)) if (part['type'] === type) yield part;
  }
}

export const toolCalls = (messages: readonly Message[]) => [...parts(messages, 'assistant', 'tool-call')];
export const approvalRequests = (messages: readonly Message[]) => [
  ...parts(messages, 'assistant', 'tool-approval-request'),
];
export const toolResults = (messages: readonly Message[]) => [...parts(messages, 'tool', 'tool-result')];

/** A tool result's output as text, when it is text: where the cookbook's answers live. */
export function outputText(part: Part): string | undefined {
  const output = part['output'];
  if (typeof output === 'string') return output;
  if (output?.type === 'text' || output?.type === 'json') return typeof output.value === 'string' ? output.value : undefined;
  return undefined;
}

/** Whether a result is the client's cookbook answer rather than the tool's own output. */
export const isAnswer = (part: Part) => {
  const text = outputText(part);
  return text === APPROVAL.YES || text === APPROVAL.NO;
};

/** The suite's name for each approval, by the SDK's approval id: the tool call id it was first issued for. */
export class ApprovalNames {
  readonly #bySdkId = new Map<string, string>();

  constructor(entries: Iterable<readonly [string, string]> = []) {
    for (const [id, name] of entries) this.#bySdkId.set(id, name);
  }

  learn(sdkId: string, name: string): void {
    if (!this.#bySdkId.has(sdkId)) this.#bySdkId.set(sdkId, name);
  }

  name(sdkId: string): string {
    return this.#bySdkId.get(sdkId) ?? sdkId;
  }

  sdkId(name: string): string | undefined {
    for (const [id, n] of this.#bySdkId) if (n === name) return id;
    return undefined;
  }

  entries(): [string, string][] {
    return [...this.#bySdkId];
  }
}

export type ApprovalStyle = 'native' | 'cookbook';

/**
 * toolCallId → approval name, for every call that runs under an approval: the native request's approval, or (in
 * the cookbook) the call itself when its tool needs approval.
 */
export function approvalOfCall(
  messages: readonly Message[],
  style: ApprovalStyle,
  names: ApprovalNames,
  needsApproval: (toolName: string) => boolean,
): Map<string, string> {
  const map = new Map<string, string>();
  if (style === 'native') {
    for (const request of approvalRequests(messages)) {
      names.learn(request['approvalId'], request['toolCallId']);
      map.set(request['toolCallId'], names.name(request['approvalId']));
    }
  } else {
    for (const call of toolCalls(messages)) {
      if (needsApproval(call['toolName'])) map.set(call['toolCallId'], call['toolCallId']);
    }
  }
  return map;
}

/** What the transcript says of each approval it holds: unspent while its call has no result of the tool's own. */
export function recordStates(
  messages: readonly Message[] | undefined,
  style: ApprovalStyle,
  names: ApprovalNames,
  needsApproval: (toolName: string) => boolean,
): Map<string, RecordState> {
  const states = new Map<string, RecordState>();
  if (!messages) return states;
  const answered = new Set(toolResults(messages).filter((r) => !isAnswer(r)).map((r) => r['toolCallId'] as string));
  for (const [call, approval] of approvalOfCall(messages, style, names, needsApproval)) {
    states.set(approval, answered.has(call) ? 'spent' : 'unspent');
  }
  return states;
}
