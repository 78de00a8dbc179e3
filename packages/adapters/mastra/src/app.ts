// What the app shows the user, the same in both wirings: a card for an approval (guarded: the guard's record of it
// first; a card the guard will not record is not shown), and what became of an approved action. Guarded, what the
// user is told comes from the guard's outcome for the call, not from what the framework returned.
import type { Action } from '@approval-conformance/core/contract';
import type { Connections, GuardedApp, GuardedOutcome } from '@approval-conformance/core/kit';
import { GuardError } from '@approval-conformance/guard';
import { currentRequest } from './context.js';

/** The user's request that starts a run. */
export const USER_MESSAGE = 'Please do what we discussed.';

export interface Shows {
  readonly connections: Pick<Connections, 'deliverCard' | 'disclose'>;
  readonly guard?: () => GuardedApp;
}

/** A card for `approvalId`, shown to the user; guarded, recorded by the guard first. Returns whether it was shown. */
export async function showCard(app: Shows, turn: string, approvalId: string, action: Action): Promise<boolean> {
  if (app.guard) {
    const world = currentRequest().proposedWorlds.get(approvalId);
    if (world === undefined) return false;
    try {
      await app.guard().propose(turn, approvalId, action, world);
    } catch (error) {
      if (error instanceof GuardError) return false;
      throw error;
    }
  }
  await app.connections.deliverCard(turn, approvalId, action);
  return true;
}

const guardedSays = (outcome: GuardedOutcome | undefined): 'happened' | 'unknown' | undefined =>
  outcome === 'ran' || outcome === 'ran-before' ? 'happened' : outcome === 'unknown' ? 'unknown' : undefined;

/**
 * What became of approval `approvalId`'s action, as the app tells it: `ran` when the framework returned the action's
 * success output, `failed` when it returned anything else. Guarded, the guard's outcome decides instead (and a call
 * the guard refused tells nothing).
 */
export async function tellOutcome(app: Shows, turn: string, approvalId: string, ran: boolean): Promise<void> {
  if (app.guard) {
    const says = guardedSays(currentRequest().outcomes.get(approvalId)?.shift());
    if (says) await app.connections.disclose(turn, approvalId, says);
    return;
  }
  await app.connections.disclose(turn, approvalId, ran ? 'happened' : 'not-happened');
}

/**
 * Guarded: tells what the guard says became of calls the framework returned no result for (the tool threw, as a
 * guarded tool does when its outcome is unknown), so that no outcome the guard settled goes untold.
 */
export async function tellUnreturned(app: Shows, turn: string): Promise<void> {
  if (!app.guard) return;
  for (const [approvalId, left] of currentRequest().outcomes) {
    for (const outcome of left.splice(0)) {
      const says = guardedSays(outcome);
      if (says) await app.connections.disclose(turn, approvalId, says);
    }
  }
}

/**
 * Mastra refusing a resume before anything ran (no suspended run, a run not suspended, a resume already claimed):
 * the app answers with an error and says nothing about the action. Guarded, it asks the guard what became of the
 * approval, and tells the user it happened if the guard's record says it ran, or that it may have if the record
 * cannot say (a process died between the effect and its outcome, and the tool takes no key to ask it again).
 */
export async function refused(app: Shows, turn: string, approvalId: string): Promise<void> {
  if (!app.guard) return;
  const recovered = await app.guard().recover(turn, approvalId);
  const says = recovered === 'ran' ? 'happened' : recovered === 'unknown' ? 'unknown' : undefined;
  if (says) await app.connections.disclose(turn, approvalId, says);
}
