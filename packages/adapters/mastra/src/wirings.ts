// The wirings: an agent's tool approvals (`requireApproval`, generate until suspended, `approveToolCallGenerate`) and
// a workflow step's `suspend()` resumed with `run.resume()`, each as documented and each with the approval guard.
import type { WiringInfo } from '@approval-conformance/core/contract';
import type { Features } from './features.js';

export interface Wiring extends WiringInfo {
  readonly protocol: 'agent' | 'workflow';
  /** The app adds the approval guard (@approval-conformance/guard) to the documented pattern, and nothing else. */
  readonly guarded: boolean;
  /** The docs' one-time approval: the reviewed call's fingerprint, consumed by the agent's beforeToolCall hook. */
  readonly oneTime?: true;
  /** Why this version cannot run it, if it cannot. */
  readonly unavailable: (features: Features) => string | undefined;
}

const agent = (f: Features) =>
  f.agentApproval ? undefined : `this version cannot run the agent tool-approval pattern (${f.agentProblem ?? 'requireApproval, approveToolCallGenerate'})`;
const workflow = (f: Features) =>
  f.workflowSuspend ? undefined : `this version cannot run the workflow suspend/resume pattern (${f.workflowProblem ?? 'suspend, run.resume'})`;

const AGENT = "createTool({ requireApproval: true }); agent.generate() until it ends suspended on the call; the click's request continues the run with approveToolCallGenerate({ runId, toolCallId }) (or declineToolCallGenerate)";
const WORKFLOW = "a workflow step calls suspend() with the planned action for approval; the click's request resumes the run with run.resume({ step, resumeData }), and the step performs the effect if approved";
const GUARD =
  ' with the approval guard (@approval-conformance/guard): the app records each card before showing it, records the click on the server, ' +
  "and the effect spends the approval (bound to the action and the world) before it calls the backend with the guard's idempotency key";

const ONE_TIME =
  "agent-approval with the human-in-the-loop docs' one-time approval bound to the exact tool arguments (#20417): the click adds the reviewed " +
  'call\'s fingerprint (its tool name and arguments as JSON) to a Set in the process before approveToolCallGenerate, and the agent\'s ' +
  "beforeToolCall hook deletes the running call's fingerprint from it, blocking the call (proceed: false) when it was not there; the " +
  'Set in each process, as the docs show it (libsql-shared: one per process)';

export const WIRINGS: readonly Wiring[] = [
  { id: 'agent-approval', description: AGENT, protocol: 'agent', guarded: false, unavailable: agent, docsDefault: true },
  {
    id: 'one-time-approval',
    description: ONE_TIME,
    protocol: 'agent',
    guarded: false,
    oneTime: true,
    remedy: 'https://mastra.ai/docs/agents/human-in-the-loop#bind-approval-to-the-exact-tool-arguments',
    unavailable: (f) => agent(f) ?? (f.toolHooks ? undefined : `this version has no agent tool hooks (beforeToolCall; ${f.toolHooksProblem ?? '1.49+'})`),
  },
  { id: 'workflow-suspend', description: WORKFLOW, protocol: 'workflow', guarded: false, unavailable: workflow },
  { id: 'guarded-agent-approval', description: `agent-approval${GUARD}`, protocol: 'agent', guarded: true, unavailable: agent },
  { id: 'guarded-workflow-suspend', description: `workflow-suspend${GUARD}`, protocol: 'workflow', guarded: true, unavailable: workflow },
];
