// The agent-approval wiring, as Mastra documents tool approvals: a tool created with `requireApproval: true`; the
// request's `agent.generate()` ends suspended on the call, and the app shows the card with the run id; the click's
// request continues the run with `approveToolCallGenerate({ runId, toolCallId })` (or declines it), and the app
// tells the user what the run's tool results say ran.
import type { Action, Answer } from '@approval-conformance/core/contract';
import { refused, showCard, tellOutcome, tellUnreturned, USER_MESSAGE, type Shows } from './app.js';
import { inRequest } from './context.js';
import { actionOf } from './model.js';
import { actionFingerprint, type OneTimeApprovals } from './one-time.js';
import { doneOutput, needsApproval } from './tools.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

export interface AgentApp extends Shows {
  /** The agent of the process that serves `turn`. */
  readonly agent: (turn: string) => Any;
  /** The run id the client holds for each card it was shown. */
  readonly runs: Map<string, string>;
  readonly nextRunId: () => string;
  /** The docs' one-time approvals (one-time-approval): the Set of the process that serves `turn`. */
  readonly oneTime?: (turn: string) => OneTimeApprovals;
  /** The fingerprint of the call each card showed, as the client reviewed it (one-time-approval). */
  readonly fingerprints?: Map<string, string>;
}

/** The call a generate result is suspended on, if any. */
function suspendedOn(result: Any): { approvalId: string; action: Action; runId: string; fingerprint: string } | undefined {
  if (result?.finishReason !== 'suspended') return undefined;
  const payload = result.suspendPayload?.requireToolApproval ?? result.suspendPayload;
  if (typeof payload?.toolCallId !== 'string') return undefined;
  const fingerprint = actionFingerprint(payload.toolName, payload.args);
  return { approvalId: payload.toolCallId, action: actionOf(payload.toolName, payload.args), runId: result.runId, fingerprint };
}

/** Each tool result in a generate result: its call, and whether its output says the action ran. */
function toolResults(result: Any): { approvalId: string; toolName: string; ran: boolean }[] {
  const results: Any[] = [...(result?.toolResults ?? [])];
  return results.map((r) => {
    const p = r?.payload ?? r;
    const output = p?.result ?? p?.output;
    return { approvalId: p?.toolCallId, toolName: p?.toolName, ran: !p?.isError && output === doneOutput(p?.toolName) };
  });
}

/** Shows what a generate result asks for or did: the outcome of each approved call, then a card it suspended on. */
async function show(app: AgentApp, turn: string, result: Any) {
  for (const r of toolResults(result)) if (needsApproval(r.toolName)) await tellOutcome(app, turn, r.approvalId, r.ran);
  await tellUnreturned(app, turn);
  const pending = suspendedOn(result);
  if (!pending) return undefined;
  app.runs.set(pending.approvalId, pending.runId);
  app.fingerprints?.set(pending.approvalId, pending.fingerprint);
  return (await showCard(app, turn, pending.approvalId, pending.action)) ? pending : undefined;
}

/** A new request: generate until the run suspends on a call; returns the approval it suspended on. */
export function propose(app: AgentApp, turn: string): Promise<{ approvalId: string; action: Action } | undefined> {
  return inRequest(turn, async () => {
    const result = await app.agent(turn).generate(USER_MESSAGE, { runId: app.nextRunId() });
    const pending = await show(app, turn, result);
    return pending && { approvalId: pending.approvalId, action: pending.action };
  });
}

/** The click's request: continue the run with the approval (or the denial), and tell the user what ran. */
export function resume(app: AgentApp, turn: string, answer: Answer): Promise<void> {
  return inRequest(turn, async () => {
    const runId = app.runs.get(answer.approvalId);
    if (runId === undefined) return;
    const agent = app.agent(turn);
    const call = { runId, toolCallId: answer.approvalId };
    // One-time approval: the reviewed call's fingerprint goes into the process's Set before the run continues.
    const fingerprint = app.fingerprints?.get(answer.approvalId);
    if (answer.approved && app.oneTime && fingerprint !== undefined) await app.oneTime(turn).add(turn, fingerprint);
    let result: Any;
    try {
      result = answer.approved ? await agent.approveToolCallGenerate(call) : await agent.declineToolCallGenerate(call);
    } catch (error) {
      return refused(app, turn, answer.approvalId);
    }
    await show(app, turn, result);
  });
}
