// The app, as ADK's docs write tool confirmation: a request runs the agent with `runner.runAsync` until it stops on
// an `adk_request_confirmation` call, and shows that call as the card (the original call's tool and arguments); the
// human's answer comes back as a new `runAsync` whose message is the user's function response to that call,
// `{ confirmed }`, and the app tells the user what the tool's response says. Guarded, the app also writes the guard's
// record before it shows a card, records the click with the guard, and tells the user what the guard says became of
// a call.
import { type Action, type Answer } from '@approval-conformance/core/contract';
import { actionOfCall, type Connections, type GuardedApp, type GuardedOutcome } from '@approval-conformance/core/kit';
import { GuardError } from '@approval-conformance/guard';
import { currentRequest, inRequest, newRequest } from './context.js';
import { GATE, partsOf, type Any } from './record.js';
import { USER } from './sessions.js';
import { needsApproval, saysDone } from './tools.js';

export interface App {
  /** The runner of the current process (a restart makes a new one). */
  readonly runner: () => Any;
  readonly sessionId: string;
  readonly connections: Pick<Connections, 'deliverCard' | 'disclose'>;
  /** The gate call's id for each approval, as the client got it with the card (the answer names it). */
  readonly gates: Map<string, string>;
  readonly guard?: () => GuardedApp;
}

/** The user's request that starts a run. */
export const USER_MESSAGE = 'Please do what we discussed.';

const guardedSays = (outcome: GuardedOutcome | undefined): 'happened' | 'unknown' | undefined =>
  outcome === 'ran' || outcome === 'ran-before' ? 'happened' : outcome === 'unknown' ? 'unknown' : undefined;

/** Guarded: the guard's record of a card, before it is shown. A card the guard will not record is not shown. */
async function recordCard(guard: GuardedApp, turn: string, approvalId: string, action: Action): Promise<boolean> {
  const world = currentRequest().proposedWorlds.get(approvalId);
  if (world === undefined) return false;
  try {
    await guard.propose(turn, approvalId, action, world);
    return true;
  } catch (error) {
    if (error instanceof GuardError) return false;
    throw error;
  }
}

/**
 * One request: `runAsync` with `message`, each event shown as it comes (a card for a confirmation call, what became
 * of a call for a tool's response). Returns the first card it showed, and the error the run threw, if it threw.
 */
async function runAndShow(app: App, turn: string, message: Any): Promise<{ cards: { approvalId: string; action: Action }[]; told: Set<string>; error?: unknown }> {
  const told = new Set<string>();
  const cards: { approvalId: string; action: Action }[] = [];
  try {
    for await (const event of app.runner().runAsync({ userId: USER, sessionId: app.sessionId, newMessage: message })) {
      for (const part of partsOf(event)) {
        const call = part.functionCall;
        if (call?.name === GATE) {
          const original = call.args?.originalFunctionCall;
          if (!original?.id) continue;
          const action = actionOfCall(original.name, original.args);
          app.gates.set(original.id, call.id);
          if (app.guard && !(await recordCard(app.guard(), turn, original.id, action))) continue;
          await app.connections.deliverCard(turn, original.id, action);
          cards.push({ approvalId: original.id, action });
        }
        const response = part.functionResponse;
        if (response && response.name !== GATE && needsApproval(response.name) && typeof response.id === 'string') {
          // The first pass of a tool that asks by itself answers "pending": nothing to tell yet.
          if (response.response?.pending !== undefined) continue;
          told.add(response.id);
          if (app.guard) {
            const says = guardedSays(currentRequest().outcomes.get(response.id)?.shift());
            if (says) await app.connections.disclose(turn, response.id, says);
          } else {
            await app.connections.disclose(turn, response.id, saysDone(response.name, response.response) ? 'happened' : 'not-happened');
          }
        }
      }
    }
    return { cards, told };
  } catch (error) {
    return { cards, told, error };
  }
}

/**
 * ADK refusing the request before any tool ran: a session that is not there (the in-memory store after a restart),
 * a confirmation that does not match what the agent asked (2.0's `IntentMismatchError`), a reserved call in the
 * message. The app answers with an error and says nothing about the action: nothing ran under this request.
 */
export const isRefusal = (error: unknown) =>
  error instanceof Error && (error.name === 'IntentMismatchError' || /Session not found|Tool confirmation rejected|may not contain/.test(error.message));

/** A new request: run to the confirmations; returns every approval it paused on, in the order it showed them. */
export function proposeAll(app: App, turn: string): Promise<{ approvalId: string; action: Action }[]> {
  return inRequest(newRequest(turn), async () => {
    const { cards, error } = await runAndShow(app, turn, { role: 'user', parts: [{ text: USER_MESSAGE }] });
    if (error !== undefined) throw error;
    return cards;
  });
}

/** A new request: run to the confirmation; returns the approval it paused on, if it paused on one. */
export const propose = async (app: App, turn: string) => (await proposeAll(app, turn))[0];

/** The human's click reaching the server: only the guard records it (ADK's answer travels in the resume). */
export function approve(app: App, turn: string, approvalId: string): Promise<void> {
  return inRequest(newRequest(turn), async () => {
    await app.guard?.().approve(turn, approvalId);
  });
}

/** The user's function responses to confirmation calls, each `[gateId, confirmed]`, in one message. */
export const confirmations = (answers: readonly (readonly [string, boolean])[]) => ({
  role: 'user',
  parts: answers.map(([gateId, confirmed]) => ({ functionResponse: { id: gateId, name: GATE, response: { confirmed } } })),
});

/** The user's function response to the confirmation call `gateId`. */
export const confirmation = (gateId: string, confirmed: boolean) => confirmations([[gateId, confirmed]]);

/**
 * One resume: the user's answers to the cards' confirmation calls (one, or several in one message), run. A run that
 * throws a tool's error is answered with an error: the user is told the actions failed; one ADK refused tells nothing.
 * Guarded, a request that ran nothing for an approval asks the guard what became of it (`recover`), and the user is
 * told it happened if the guard's record says it ran.
 */
export function resume(app: App, turn: string, answers: readonly Answer[]): Promise<void> {
  return inRequest(newRequest(turn), async () => {
    const known = answers.filter((a) => app.gates.has(a.approvalId));
    if (known.length === 0) return;
    const { told, error } = await runAndShow(app, turn, confirmations(known.map((a) => [app.gates.get(a.approvalId)!, a.approved])));
    const ids = [...new Set(known.map((a) => a.approvalId))].filter((id) => !told.has(id));
    if (error !== undefined && !isRefusal(error)) {
      for (const id of ids) await app.connections.disclose(turn, id, 'not-happened');
      return;
    }
    for (const id of ids) {
      if (app.guard && (await app.guard().recover(turn, id)) === 'ran') await app.connections.disclose(turn, id, 'happened');
    }
  });
}
