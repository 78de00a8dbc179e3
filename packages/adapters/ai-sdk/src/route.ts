// The app's chat route, as the docs write it: load the chat, append the client's new messages, run the model with
// the tools, save the transcript on finish, and send the client what happened. The cookbook route first runs the
// tools the client answered "Yes, confirmed." to, as the 5.x human-in-the-loop recipe does. Guarded, the route
// also writes the guard's record before it shows a card, and tells the client what the guard says became of a call.
import type { Action } from '@approval-conformance/core/contract';
import type { Connections, CountingBackend, GuardedApp, GuardedOutcome } from '@approval-conformance/core/kit';
import { GuardError } from '@approval-conformance/guard';
import { currentRequest, inRequest } from './context.js';
import { APPROVAL_SECRET } from './features.js';
import type { AiLib } from './lib.js';
import { actionOf } from './model.js';
import type { ChatStore } from './store.js';
import { GuardedToolError, needsApproval, runTool } from './tools.js';
import {
  APPROVAL,
  approvalOfCall,
  isAnswer,
  outputText,
  partsOf,
  toolCalls,
  type ApprovalNames,
  type Message,
  type Part,
} from './transcript.js';
import type { Wiring } from './wirings.js';

export interface Route {
  readonly lib: AiLib;
  readonly wiring: Wiring;
  readonly tools: Record<string, unknown>;
  readonly model: unknown;
  readonly store: () => ChatStore;
  readonly names: () => ApprovalNames;
  readonly backend: CountingBackend;
  readonly connections: Pick<Connections, 'deliverCard' | 'disclose'>;
  /** Guarded wirings: the app's guard calls, for this process. */
  readonly guard?: () => GuardedApp;
}

/** What the client is shown: cards for new approvals, and what became of approved calls. */
type Shown =
  | { readonly kind: 'card'; readonly approvalId: string; readonly action: Action }
  | { readonly kind: 'outcome'; readonly approvalId: string; readonly says: 'happened' | 'not-happened' | 'unknown' };

/**
 * Guarded: what the client is told of a guarded call, from what the guard said of it (not from the tool's output):
 * it ran, now or before; it may have run; or, refused, nothing: nothing ran under this call, but the approval may
 * have run under another turn, so "it did not happen" could be false.
 */
const guardedSays = (outcome: GuardedOutcome | undefined): 'happened' | 'unknown' | undefined =>
  outcome === 'ran' || outcome === 'ran-before' ? 'happened' : outcome === 'unknown' ? 'unknown' : undefined;

/** The guard's outcome for the next result of call `toolCallId` in this request (a call may have run twice). */
const nextOutcome = (toolCallId: string): GuardedOutcome | undefined => currentRequest().outcomes.get(toolCallId)?.shift();

/** SDK errors that are the runtime refusing a request it should refuse (a bad signature, an unknown approval). */
const REFUSALS = /InvalidToolApproval|ToolCallNotFoundForApproval/;

const isRefusal = (error: unknown) => REFUSALS.test(String((error as Error)?.name ?? ''));

/** The messages a call added: 7.x keeps them on `responseMessages`, earlier versions on `response.messages`. */
async function responseMessages(result: Record<string, unknown>): Promise<Message[]> {
  if ('responseMessages' in result) return (await result['responseMessages']) as Message[];
  return ((await result['response']) as { messages: Message[] }).messages;
}

const isErrorOutput = (part: Part) => /^error-/.test(String(part['output']?.type ?? ''));
const isDenied = (part: Part) => part['output']?.type === 'execution-denied' || outputText(part)?.startsWith('Error: User denied');

/** What the client learns from finished messages: outcomes of approved calls, cards for new approvals. */
function shownFrom(messages: readonly Message[], route: Route, approvalOf: ReadonlyMap<string, string>): Shown[] {
  const shown: Shown[] = [];
  const calls = new Map(toolCalls(messages).map((c) => [c['toolCallId'] as string, c]));
  const names = route.names();
  for (const message of messages) {
    for (const part of partsOf(message)) {
      if (part['type'] === 'tool-result' && !isDenied(part) && !isAnswer(part)) {
        const approvalId = approvalOf.get(part['toolCallId']);
        if (approvalId && route.guard) {
          const says = guardedSays(nextOutcome(part['toolCallId']));
          if (says) shown.push({ kind: 'outcome', approvalId, says });
        } else if (approvalId) shown.push({ kind: 'outcome', approvalId, says: isErrorOutput(part) ? 'not-happened' : 'happened' });
      } else if (part['type'] === 'tool-approval-request') {
        const call = calls.get(part['toolCallId']);
        if (call) shown.push({ kind: 'card', approvalId: names.name(part['approvalId']), action: actionOf(call['toolName'], call['input']) });
      } else if (part['type'] === 'tool-call' && route.wiring.approval === 'cookbook' && needsApproval(part['toolName'])) {
        shown.push({ kind: 'card', approvalId: part['toolCallId'], action: actionOf(part['toolName'], part['input']) });
      }
    }
  }
  return shown;
}

/**
 * The cookbook's `processToolCalls`: in the last message, each tool result that is the client's answer is replaced
 * by the tool's own output (it runs now) or by the denial.
 */
async function runAnswered(messages: Message[], route: Route): Promise<{ messages: Message[]; shown: Shown[] }> {
  const last = messages.at(-1);
  if (last?.role !== 'tool') return { messages, shown: [] };
  const calls = new Map(toolCalls(messages).map((c) => [c['toolCallId'] as string, c]));
  const shown: Shown[] = [];
  const content: Part[] = [];
  for (const part of partsOf(last)) {
    const answer = part['type'] === 'tool-result' ? outputText(part) : undefined;
    const call = calls.get(part['toolCallId']);
    // Only the tools the recipe lists in its executions (those that ask for confirmation) are run here.
    if (!call || !needsApproval(call['toolName']) || (answer !== APPROVAL.YES && answer !== APPROVAL.NO)) {
      content.push(part);
      continue;
    }
    let value = 'Error: User denied access to tool execution';
    if (answer === APPROVAL.YES) {
      try {
        value = await runTool(route.backend, call['toolName'], route.guard)(call['input'], { toolCallId: call['toolCallId'] });
        shown.push({ kind: 'outcome', approvalId: call['toolCallId'], says: 'happened' });
      } catch (error) {
        value = `Error: ${(error as Error).message}`;
        // Guarded: a refused spend tells nothing definite; a call that may have run says so.
        const says = error instanceof GuardedToolError ? guardedSays(error.outcome) : 'not-happened';
        if (says) shown.push({ kind: 'outcome', approvalId: call['toolCallId'], says });
      }
    }
    content.push({ ...part, output: { type: 'text', value } });
  }
  return { messages: [...messages.slice(0, -1), { role: 'tool', content }], shown };
}

/** Guarded: what the guard said of each call this request ran, for a request that failed after running them. */
function ranBeforeFailing(approvalOf: ReadonlyMap<string, string>): Shown[] {
  const shown: Shown[] = [];
  for (const [toolCallId, outcomes] of currentRequest().outcomes) {
    const approvalId = approvalOf.get(toolCallId);
    const says = approvalId && guardedSays(outcomes.at(-1));
    if (approvalId && says) shown.push({ kind: 'outcome', approvalId, says });
  }
  return shown;
}

async function show(route: Route, turn: string, shown: readonly Shown[]) {
  for (const s of shown) {
    if (s.kind === 'card') {
      if (route.guard && !(await recordCard(route.guard(), turn, s))) continue;
      await route.connections.deliverCard(turn, s.approvalId, s.action);
    } else await route.connections.disclose(turn, s.approvalId, s.says);
  }
}

/**
 * Guarded: the guard's record of a card, written before the card is shown, bound to the action and to the world
 * the model proposed it in. A card the guard will not record (its id is taken) is not shown: nothing could spend it.
 */
async function recordCard(app: GuardedApp, turn: string, card: Extract<Shown, { kind: 'card' }>): Promise<boolean> {
  const world = currentRequest().proposedWorlds.get(card.approvalId);
  if (world === undefined) throw new Error(`the model proposed no ${card.approvalId} in this request`);
  try {
    await app.propose(turn, card.approvalId, card.action, world);
    return true;
  } catch (error) {
    if (error instanceof GuardError) return false;
    throw error;
  }
}

/** One request to the chat route: the client's new messages, from turn `turn`. */
export async function serve(route: Route, turn: string, incoming: readonly Message[]): Promise<void> {
  const { lib, wiring } = route;
  const style = wiring.approval === 'cookbook' ? 'cookbook' : 'native';
  const store = route.store();
  const stored = (await store.load(turn)) ?? [];
  let messages: Message[] = [...stored, ...incoming];
  const approvalOf = approvalOfCall(messages, style, route.names(), needsApproval);

  await inRequest({ turn, approvalOfCall: approvalOf, dispatches: new Map(), proposedWorlds: new Map(), outcomes: new Map() }, async () => {
    let early: Shown[] = [];
    if (style === 'cookbook') ({ messages, shown: early } = await runAnswered(messages, route));
    const options = {
      model: route.model,
      tools: route.tools,
      messages,
      maxRetries: 0,
      ...(wiring.approval === 'signed' ? { experimental_toolApprovalSecret: APPROVAL_SECRET } : {}),
    };
    if (wiring.path === 'generate') {
      let result: Record<string, unknown>;
      try {
        result = await lib.ai['generateText'](options);
      } catch (error) {
        // The route answers with an error and saves nothing. A refusal is the runtime doing its job. Guarded, the
        // error page still says what the guard saw run in this request: a call can run before the SDK fails the
        // request (an answer to one of two pending approvals runs its tool, then the prompt lacks the other's result).
        if (route.guard) await show(route, turn, ranBeforeFailing(approvalOf));
        if (isRefusal(error)) return;
        throw error;
      }
      const added = await responseMessages(result);
      const all = [...messages, ...added];
      await store.save(turn, all);
      const later = approvalOfCall(all, style, route.names(), needsApproval);
      await show(route, turn, [...early, ...shownFrom(added, route, later)]);
      return;
    }
    // streamText: the client sees each part as it streams; the transcript is saved when the stream finishes.
    await show(route, turn, early);
    // The route reads errors from the stream's parts; without onError the SDK would also log each to the console.
    const result = lib.ai['streamText']({ ...options, onError: () => {} }) as Record<string, unknown>;
    let failed: unknown;
    const calls = new Map<string, Part>();
    for await (const part of result['fullStream'] as AsyncIterable<Part>) {
      if (part['type'] === 'error') failed ??= part['error'];
      if (part['type'] === 'tool-call') calls.set(part['toolCallId'], part);
      const fromStream = streamed(part, route, approvalOf, calls);
      if (fromStream) await show(route, turn, [fromStream]);
    }
    if (failed !== undefined) {
      if (isRefusal(failed)) return;
      throw failed;
    }
    await store.save(turn, [...messages, ...(await responseMessages(result))]);
  });
}

/** What one stream part shows the client. */
function streamed(part: Part, route: Route, approvalOf: ReadonlyMap<string, string>, calls: ReadonlyMap<string, Part>): Shown | undefined {
  const type = part['type'];
  if ((type === 'tool-result' && !part['preliminary']) || type === 'tool-error') {
    const approvalId = approvalOf.get(part['toolCallId']);
    return approvalId ? { kind: 'outcome', approvalId, says: type === 'tool-error' ? 'not-happened' : 'happened' } : undefined;
  }
  if (type === 'tool-approval-request') {
    const call = part['toolCall'] ?? calls.get(part['toolCallId']);
    route.names().learn(part['approvalId'], call['toolCallId']);
    return { kind: 'card', approvalId: route.names().name(part['approvalId']), action: actionOf(call['toolName'], call['input']) };
  }
  if (type === 'tool-call' && route.wiring.approval === 'cookbook' && needsApproval(part['toolName'])) {
    return { kind: 'card', approvalId: part['toolCallId'], action: actionOf(part['toolName'], part['input']) };
  }
  return undefined;
}
