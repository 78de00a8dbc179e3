// The workflow-suspend wiring, as Mastra documents human approval in a workflow: a planning step (the model's
// decision, the adversary's here) names the action; the `confirm` step calls `suspend()` with it for approval and,
// resumed with `run.resume({ step, resumeData })`, performs the effect if approved. The request that starts the run
// shows the card with the run id; the click's request resumes the run and tells the user what the step returned.
import type { Action, Answer } from '@approval-conformance/core/contract';
import { refused, showCard, tellOutcome, type Shows } from './app.js';
import { inRequest } from './context.js';
import type { MastraLib } from './lib.js';
import { propose as decide, type Brain } from './model.js';
import { perform, type Effects } from './tools.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

export const WORKFLOW = 'approvalFlow';
export const CONFIRM = 'confirm';

/** The workflow: plan, then confirm (suspend for approval; resumed, the effect if approved). */
export function buildWorkflow(lib: MastraLib, brain: Brain, effects: Effects): Any {
  const { createWorkflow, createStep } = lib.workflows;
  const { z } = lib.zod;
  const action = z.object({ operation: z.string(), targets: z.array(z.string()), params: z.record(z.string(), z.any()) });
  const proposal = z.object({ approvalId: z.string(), action });
  const outcome = z.object({ approvalId: z.string(), ran: z.boolean() });
  const plan = createStep({
    id: 'plan',
    inputSchema: z.object({}),
    outputSchema: proposal,
    execute: async () => decide(brain, brain.nextApproval(), brain.request().alternatives, 'propose').then(({ id, action }) => ({ approvalId: id, action })),
  });
  const confirm = createStep({
    id: CONFIRM,
    inputSchema: proposal,
    outputSchema: outcome,
    suspendSchema: proposal,
    resumeSchema: z.object({ approved: z.boolean() }),
    execute: async ({ inputData, resumeData, suspend }: Any) => {
      if (!resumeData) {
        await suspend(inputData);
        return { approvalId: inputData.approvalId, ran: false };
      }
      if (!resumeData.approved) return { approvalId: inputData.approvalId, ran: false };
      await perform(effects, inputData.approvalId, inputData.action as Action);
      return { approvalId: inputData.approvalId, ran: true };
    },
  });
  return createWorkflow({ id: WORKFLOW, inputSchema: z.object({}), outputSchema: outcome }).then(plan).then(confirm).commit();
}

export interface WorkflowApp extends Shows {
  /** The workflow of the process that serves `turn`. */
  readonly workflow: (turn: string) => Any;
  /** The run id the client holds for each card it was shown. */
  readonly runs: Map<string, string>;
  readonly nextRunId: () => string;
}

/** `createRun` (1.x) or `createRunAsync` (0.x), with the run id given. */
const createRun = (workflow: Any, runId: string): Promise<Any> =>
  typeof workflow.createRunAsync === 'function' ? workflow.createRunAsync({ runId }) : Promise.resolve(workflow.createRun({ runId }));

/** The proposal a run's result is suspended on, if any. */
function suspendedOn(result: Any): { approvalId: string; action: Action } | undefined {
  if (result?.status !== 'suspended') return undefined;
  const payload = result.steps?.[CONFIRM]?.suspendPayload ?? result.suspendPayload;
  return typeof payload?.approvalId === 'string' ? { approvalId: payload.approvalId, action: payload.action } : undefined;
}

/** A new request: start a run; it suspends at `confirm`, and the card is shown. */
export function propose(app: WorkflowApp, turn: string): Promise<{ approvalId: string; action: Action } | undefined> {
  return inRequest(turn, async () => {
    const runId = app.nextRunId();
    const run = await createRun(app.workflow(turn), runId);
    const pending = suspendedOn(await run.start({ inputData: {} }));
    if (!pending) return undefined;
    app.runs.set(pending.approvalId, runId);
    return (await showCard(app, turn, pending.approvalId, pending.action)) ? pending : undefined;
  });
}

/** The click's request: resume the run at `confirm` with the answer, and tell the user what the step returned. */
export function resume(app: WorkflowApp, turn: string, answer: Answer): Promise<void> {
  return inRequest(turn, async () => {
    const runId = app.runs.get(answer.approvalId);
    if (runId === undefined) return;
    let result: Any;
    try {
      const run = await createRun(app.workflow(turn), runId);
      result = await run.resume({ step: CONFIRM, resumeData: { approved: answer.approved } });
    } catch {
      return refused(app, turn, answer.approvalId);
    }
    if (!answer.approved && result?.status === 'success') return;
    await tellOutcome(app, turn, answer.approvalId, result?.status === 'success' && result.result?.ran === true);
  });
}
