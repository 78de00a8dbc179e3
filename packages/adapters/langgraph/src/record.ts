// What a checkpoint says about an approval: pending (its interrupt is written and its task has no output yet), or
// answered. An approval is named by the interrupt's payload (`{ approval: 'a1', ... }`), which the adapter's graph
// writes, so the name is the same in every version and every run.
import type { RecordState } from '@approval-conformance/core/contract';

/** Channels that are bookkeeping, not a task's output. */
const BOOKKEEPING = new Set(['__interrupt__', '__resume__', '__error__', '__no_writes__']);

type Write = readonly [taskId: string, channel: string, value: unknown];

export interface TupleLike {
  readonly pendingWrites?: readonly Write[];
}

/** The approval names in an `__interrupt__` write: v1 writes `[{ id, value }]`, v0 an Interrupt `{ value, ns }`. */
function approvalsIn(value: unknown): string[] {
  const items = Array.isArray(value) ? value : [value];
  return items.flatMap((item) => {
    const payload = (item as { value?: { approval?: unknown } } | null)?.value;
    return typeof payload?.approval === 'string' ? [payload.approval] : [];
  });
}

/** The approvals the checkpoint holds as pending; undefined when the thread has no checkpoint at all. */
export function pendingApprovals(tuple: TupleLike | undefined): Set<string> | undefined {
  if (!tuple) return undefined;
  const writes = tuple.pendingWrites ?? [];
  const answered = new Set(writes.filter(([, channel]) => !BOOKKEEPING.has(channel)).map(([task]) => task));
  const pending = new Set<string>();
  for (const [task, channel, value] of writes) {
    if (channel === '__interrupt__' && !answered.has(task)) for (const a of approvalsIn(value)) pending.add(a);
  }
  return pending;
}

/**
 * The record state of one approval: pending is unspent; once seen, a checkpoint that no longer holds it pending says
 * it is spent. A thread with no checkpoint (an in-memory saver after a restart) holds nothing: absent.
 */
export function approvalState(
  pending: ReadonlySet<string> | undefined,
  approvalId: string,
  seen: ReadonlySet<string>,
): RecordState {
  if (pending === undefined) return 'absent';
  if (pending.has(approvalId)) return 'unspent';
  return seen.has(approvalId) ? 'spent' : 'absent';
}
