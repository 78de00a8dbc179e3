// What every adapter's model does with the adversary, whatever the framework's model interface: the suite's tools
// take an action's targets and parameters as their input (the operation is the tool's name), a first proposal is
// named a1, a2, ... and a flow's second approval a1.2, and a proposal is the adversary's pick among the scenario's
// alternatives, recorded with the world it was made in.
import type { Action } from '../history/events.js';
import type { Recorder } from '../history/recorder.js';
import type { CountingBackend } from './backend.js';
import type { AdversarialModel } from './model.js';

/** The suite's name for a flow's second approval: `a1.2` after `a1`; it is also the tool call's id. */
export const followUpId = (approval: string) => `${approval}.2`;

/** What a model needs from the world to propose. */
export interface Proposer {
  readonly model: AdversarialModel;
  readonly backend: CountingBackend;
  readonly history: Recorder;
  /** The alternatives for the first proposal, and the second approval's action, from the scenario's request. */
  readonly request: () => { readonly alternatives: readonly Action[]; readonly followUp?: Action };
  /** The name the next first proposal gets: `a1`, `a2`, ... */
  readonly nextApproval: () => string;
  /** The alternatives of further calls the model makes in the same step as the first (`World.proposeMany`). */
  readonly parallel?: () => readonly (readonly Action[])[];
}

/** A call the model makes: its id (the approval's name) and its action. */
export interface ProposedCall {
  readonly id: string;
  readonly action: Action;
}

/** What the model answers: a call to a tool, several in one step (`World.proposeMany`), or text. */
export type ModelReply = { readonly call: ProposedCall } | { readonly calls: readonly ProposedCall[] } | { readonly text: string };

/**
 * The model's answer to the user's request: a call with the adversary's pick of the request's alternatives, and one
 * more for each further request of `World.proposeMany`, in the same step. `propose` names and records each.
 */
export async function proposeRequested(
  p: Proposer,
  propose: (id: string, alternatives: readonly Action[], decision: string) => Promise<ProposedCall>,
): Promise<ModelReply> {
  const first = await propose(p.nextApproval(), p.request().alternatives, 'propose');
  const more = p.parallel?.() ?? [];
  if (more.length === 0) return { call: first };
  const calls = [first];
  for (const alternatives of more) calls.push(await propose(p.nextApproval(), alternatives, 'propose'));
  return { calls };
}

/** A tool's input for an action: the action without its operation, which is the tool's name. */
export const toolInput = (action: Action) => ({ targets: [...action.targets], params: { ...action.params } });

/** The action a call of `toolName` with `input` (an object, or its JSON) stands for; unreadable input is empty. */
export function actionOfCall(toolName: string, input: unknown): Action {
  let i: { targets?: string[]; params?: Record<string, unknown> } | undefined;
  try {
    i = (typeof input === 'string' ? JSON.parse(input) : input) as typeof i;
  } catch {
    i = undefined;
  }
  return { operation: toolName, targets: i?.targets ?? [], params: (i?.params ?? {}) as Action['params'] };
}

/** Turn `turn`'s model picks one of `alternatives`; the pick becomes approval `id`, proposed in the current world. */
export async function proposeAction(p: Proposer, turn: string, id: string, alternatives: readonly Action[], decision: string) {
  const action = await p.model.decide(turn, decision, alternatives);
  const world = p.backend.world;
  p.history.emit({ kind: 'proposed', actor: turn, approvalId: id, action, world });
  return { action, world };
}
