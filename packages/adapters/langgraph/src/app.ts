// What the app does around the graph, the same whether it invokes the graph itself or a LangGraph server runs it:
// shows a card for each interrupt it finds (guarded: after the guard's record of it), and tells the user what the
// graph's result says became of each effect.
import type { Action, WorldEnv } from '@approval-conformance/core/contract';
import type { GuardedApp } from '@approval-conformance/core/kit';
import { GuardError } from '@approval-conformance/guard';
import { followUpId } from './graph.js';

/** An interrupt of the approval graph, as the thread's state holds it. */
export interface Interrupt {
  readonly id?: string;
  readonly value?: { approval?: string; action?: Action; world?: string };
}

/** What the user is told of an effect the graph reports: unguarded `true`, guarded what the guard says became of it. */
export function told(executed: unknown): 'happened' | 'unknown' | undefined {
  if (executed === true || executed === 'ran' || executed === 'ran-before') return 'happened';
  return executed === 'unknown' ? 'unknown' : undefined;
}

/**
 * Shows the card of each interrupt but those in `except`, noting its id for a resume by id. Guarded, the record is
 * written before the card is shown, bound to the action and the world it was proposed in; a card another turn
 * recorded already is not shown again.
 */
export async function showCards(
  env: Pick<WorldEnv, 'connections' | 'backend'>,
  app: GuardedApp | undefined,
  interruptIds: Map<string, string>,
  turn: string,
  interrupts: readonly Interrupt[],
  except: ReadonlySet<string>,
): Promise<void> {
  for (const it of interrupts) {
    const approvalId = it.value?.approval;
    if (!approvalId || !it.value?.action || except.has(approvalId)) continue;
    if (it.id) interruptIds.set(approvalId, it.id);
    if (app && !(await proposed(env, app, turn, approvalId, it.value.action, it.value.world))) continue;
    await env.connections.deliverCard(turn, approvalId, it.value.action);
  }
}

/** The guard's record of a card about to be shown; false if another turn recorded one for this approval already. */
async function proposed(env: Pick<WorldEnv, 'backend'>, app: GuardedApp, turn: string, approvalId: string, action: Action, proposedIn: string | undefined) {
  try {
    await app.propose(turn, approvalId, action, proposedIn ?? env.backend.world);
    return true;
  } catch (error) {
    if (error instanceof GuardError && error.code === 'already-proposed') return false;
    throw error;
  }
}

/**
 * The interrupts the thread paused on for `approvals`, in their order, or undefined if any has none (another run on
 * the thread moved it on): what a request that proposed several calls in one step shows.
 */
export function interruptsFor(interrupts: readonly Interrupt[], approvals: readonly string[]): Interrupt[] | undefined {
  const mine = approvals.map((approval) => interrupts.find((it) => it.value?.approval === approval));
  return mine.every((it) => it?.value?.action) ? (mine as Interrupt[]) : undefined;
}

/** What a request that proposed `interrupts` paused on, for `World.proposeMany`. */
export const pendingOf = (interrupts: readonly Interrupt[]) =>
  interrupts.map((it) => ({ approvalId: it.value!.approval!, action: it.value!.action! }));

/** The resume a request sends: a plain value (the first answer's), or with `byId` a map of each answer's interrupt id. */
export function resumeOf(answers: readonly { approvalId: string; approved: boolean }[], interruptIds: ReadonlyMap<string, string>, byId: boolean) {
  const ids = answers.map((a) => interruptIds.get(a.approvalId));
  if (byId && ids.every((id) => id !== undefined)) return Object.fromEntries(answers.map((a, i) => [ids[i]!, { approved: a.approved }]));
  return { approved: answers[0]!.approved };
}

/** Tells the user what the parallel graph's result says of each call's effect (kept under the call's name). */
export async function discloseEach(env: Pick<WorldEnv, 'connections'>, turn: string, result: Record<string, unknown>): Promise<void> {
  for (const [approvalId, executed] of Object.entries((result['executed'] ?? {}) as Record<string, unknown>)) {
    const says = told(executed);
    if (says) await env.connections.disclose(turn, approvalId, says);
  }
}

/** Tells the user what the graph's result says of the effect of `approval` and of its follow-up's. */
export async function discloseEffects(env: Pick<WorldEnv, 'connections'>, turn: string, approval: string, result: Record<string, unknown>): Promise<void> {
  const executed = told(result['executed']);
  if (executed) await env.connections.disclose(turn, approval, executed);
  const executed2 = told(result['executed2']);
  if (executed2) await env.connections.disclose(turn, followUpId(approval), executed2);
}
