// The app, as the docs write the human-in-the-loop pattern with a stored RunState: a request runs the agent to its
// interruption, stores `state.toString()` and shows the cards; the human's click loads the state, `state.approve`s
// the item and stores it again; a resume loads it with `RunState.fromString`, calls `run`, stores the new state and
// tells the user what ran. Guarded, the app also writes the guard's record before it shows a card, records the click
// with the guard, and tells the user what the guard says became of a call.
import type { Action, Answer } from '@approval-conformance/core/contract';
import type { Connections, GuardedApp, GuardedOutcome } from '@approval-conformance/core/kit';
import { GuardError } from '@approval-conformance/guard';
import { currentRequest, inRequest, newRequest } from './context.js';
import type { AgentsLib } from './lib.js';
import { actionOf } from './model.js';
import type { StateStore } from './store.js';
import { doneOutput, needsApproval } from './tools.js';
import type { Wiring } from './wirings.js';

export interface App {
  readonly lib: AgentsLib;
  readonly wiring: Wiring;
  readonly agent: unknown;
  readonly store: () => StateStore;
  readonly connections: Pick<Connections, 'deliverCard' | 'disclose'>;
  readonly guard?: () => GuardedApp;
}

/** The user's request that starts a run. */
export const USER_MESSAGE = 'Please do what we discussed.';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

type Shown =
  | { readonly kind: 'card'; readonly approvalId: string; readonly action: Action }
  | { readonly kind: 'outcome'; readonly approvalId: string; readonly says: 'happened' | 'not-happened' | 'unknown' };

const guardedSays = (outcome: GuardedOutcome | undefined): 'happened' | 'unknown' | undefined =>
  outcome === 'ran' || outcome === 'ran-before' ? 'happened' : outcome === 'unknown' ? 'unknown' : undefined;

/** What one run item shows the user: a card for an approval item, what became of a call for a tool output. */
export function shownOf(app: App, item: Any): Shown | undefined {
  const raw = item?.rawItem;
  if (item?.type === 'tool_approval_item' && raw?.type === 'function_call') {
    return { kind: 'card', approvalId: raw.callId, action: actionOf(raw.name, raw.arguments) };
  }
  if (item?.type === 'tool_call_output_item' && raw?.type === 'function_call_result' && needsApproval(raw.name)) {
    if (app.guard) {
      const says = guardedSays(currentRequest().outcomes.get(raw.callId)?.shift());
      return says ? { kind: 'outcome', approvalId: raw.callId, says } : undefined;
    }
    const output = typeof item.output === 'string' ? item.output : (raw.output?.text ?? raw.output);
    return { kind: 'outcome', approvalId: raw.callId, says: output === doneOutput(raw.name) ? 'happened' : 'not-happened' };
  }
  return undefined;
}

export async function show(app: App, turn: string, shown: Shown | undefined) {
  if (!shown) return;
  if (shown.kind === 'outcome') return app.connections.disclose(turn, shown.approvalId, shown.says);
  if (app.guard && !(await recordCard(app.guard(), turn, shown))) return;
  await app.connections.deliverCard(turn, shown.approvalId, shown.action);
}

/** Guarded: the guard's record of a card, before it is shown. A card the guard will not record is not shown. */
async function recordCard(guard: GuardedApp, turn: string, card: Extract<Shown, { kind: 'card' }>): Promise<boolean> {
  const world = currentRequest().proposedWorlds.get(card.approvalId);
  if (world === undefined) return false;
  try {
    await guard.propose(turn, card.approvalId, card.action, world);
    return true;
  } catch (error) {
    if (error instanceof GuardError) return false;
    throw error;
  }
}

/**
 * One run: `run(agent, input)` and, once it finished, the state stored and what it did shown; or streamed, each
 * item shown as it streams and the state stored once the run completes. Returns the run's result, or the error the
 * run threw (nothing is stored then).
 */
async function runAndStore(app: App, turn: string, input: unknown): Promise<{ result?: Any; error?: unknown }> {
  const { run } = app.lib.agents;
  try {
    if (app.wiring.path === 'run') {
      const result = await run(app.agent, input);
      await app.store().save(turn, result.state.toString());
      for (const item of result.newItems ?? []) await show(app, turn, shownOf(app, item));
      return { result };
    }
    const result = await run(app.agent, input, { stream: true });
    for await (const event of result as AsyncIterable<Any>) {
      if (event?.type === 'run_item_stream_event') await show(app, turn, shownOf(app, event.item));
    }
    await result.completed;
    if (result.error) throw result.error;
    await app.store().save(turn, result.state.toString());
    return { result };
  } catch (error) {
    return { error };
  }
}

/** Every approval a run's result paused on, in the order of its calls. */
export function allPausedOn(result: Any): { approvalId: string; action: Action }[] {
  return (result.interruptions ?? [])
    .filter((i: Any) => i?.rawItem?.type === 'function_call')
    .map((i: Any) => ({ approvalId: i.rawItem.callId, action: actionOf(i.rawItem.name, i.rawItem.arguments) }));
}

/** The approval a run's result paused on: its first interrupted function call, if any. */
export const pausedOn = (result: Any): { approvalId: string; action: Action } | undefined => allPausedOn(result)[0];

/** A new request: run to the interruptions; returns every approval it paused on (several where the model called several tools). */
export function proposeAll(app: App, turn: string): Promise<{ approvalId: string; action: Action }[]> {
  return inRequest(newRequest(turn), async () => {
    const { result, error } = await runAndStore(app, turn, USER_MESSAGE);
    if (error !== undefined) throw error;
    return allPausedOn(result);
  });
}

/** A new request: run to the interruption; returns the approval the run paused on, if it paused on one. */
export const propose = async (app: App, turn: string) => (await proposeAll(app, turn))[0];

/** The stored state, restored, with its interruptions; undefined when there is none. */
async function restore(app: App, turn: string) {
  const text = await app.store().load(turn);
  if (text === undefined) return undefined;
  const state: Any = await app.lib.agents.RunState.fromString(app.agent, text);
  const interruptions: Any[] = typeof state.getInterruptions === 'function' ? state.getInterruptions() : [];
  return { state, itemOf: (approvalId: string) => interruptions.find((i) => i?.rawItem?.callId === approvalId) };
}

/** The human's click reaching the server: the state's `approve(item)` (guarded: the guard's record first), stored. */
export function approve(app: App, turn: string, approvalId: string): Promise<void> {
  return inRequest(newRequest(turn), async () => {
    await app.guard?.().approve(turn, approvalId);
    const restored = await restore(app, turn);
    const item = restored?.itemOf(approvalId);
    if (!restored || !item) return;
    restored.state.approve(item);
    await app.store().save(turn, restored.state.toString());
  });
}

/**
 * The SDK refusing the request before any tool ran: `RunState.fromString` rejecting a state, `run` refusing a
 * terminal state ("Accepted final output cannot be resumed") or a call whose arguments no longer match its approval.
 * The app answers with an error and says nothing about the action: nothing ran under this request.
 */
export const isRefusal = (app: App, error: unknown) => {
  const { UserError, ModelBehaviorError } = app.lib.agents;
  return (typeof UserError === 'function' && error instanceof UserError) || (typeof ModelBehaviorError === 'function' && error instanceof ModelBehaviorError);
};

/**
 * One resume with the request's answers (one, or several where the client sends them together): load the stored
 * state, restore it, `run` it, store what it became and tell the user what ran. A denial rejects its item first. A
 * run that throws a tool's error is answered with an error: the user is told the actions failed; one the SDK refused
 * tells nothing. Guarded, a state with nothing pending for an approval asks the guard what became of it (`recover`),
 * and the user is told it happened if the guard's record says it ran.
 */
export function resume(app: App, turn: string, answers: readonly Answer[]): Promise<void> {
  return inRequest(newRequest(turn), async () => {
    let restored;
    try {
      restored = await restore(app, turn);
    } catch (error) {
      if (isRefusal(app, error)) return;
      throw error;
    }
    if (!restored) return;
    const pending = answers.filter((a) => restored.itemOf(a.approvalId));
    if (pending.length < answers.length && app.guard) {
      for (const { approvalId } of answers.filter((a) => !restored.itemOf(a.approvalId))) {
        if ((await app.guard().recover(turn, approvalId)) === 'ran') await app.connections.disclose(turn, approvalId, 'happened');
      }
      if (pending.length === 0) return;
    }
    for (const answer of pending) if (!answer.approved) restored.state.reject(restored.itemOf(answer.approvalId));
    const { error } = await runAndStore(app, turn, restored.state);
    if (error === undefined || isRefusal(app, error)) return;
    for (const { approvalId } of answers) await app.connections.disclose(turn, approvalId, 'not-happened');
  });
}
