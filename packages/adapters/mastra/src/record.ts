// The record: Mastra's workflow snapshots. What they say about each approval: an agent's tool call is unspent while
// its run's snapshot (`agentic-loop`) is suspended on it; a workflow's approval is unspent while its run is
// suspended at `confirm` with it. Once the run moves on (it runs, it completes, its rows are deleted) the approval
// is spent: the snapshot no longer offers it to a resume.
import type { PendingOf } from './storage.js';
import { CONFIRM, WORKFLOW } from './workflow-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** The agent's outer workflow, whose snapshot a resume loads first. */
export const AGENT_LOOP = 'agentic-loop';

const parsed = (row: Any): Any => (typeof row === 'string' ? JSON.parse(row) : row);

export const agentPending: PendingOf = async (read) => {
  const pending = new Set<string>();
  const row = parsed(await read(AGENT_LOOP));
  if (row?.status !== 'suspended') return pending;
  for (const step of Object.values((row.context ?? {}) as Record<string, Any>)) {
    const call = step?.status === 'suspended' ? step.suspendPayload?.requireToolApproval : undefined;
    if (typeof call?.toolCallId === 'string') pending.add(call.toolCallId);
  }
  return pending;
};

export const workflowPending: PendingOf = async (read) => {
  const pending = new Set<string>();
  const row = parsed(await read(WORKFLOW));
  const step = row?.context?.[CONFIRM];
  if (row?.status !== 'suspended' || step?.status !== 'suspended') return pending;
  const approvalId = step.suspendPayload?.approvalId ?? step.payload?.approvalId;
  if (typeof approvalId === 'string') pending.add(approvalId);
  return pending;
};
