// The durable store the reference runtime keeps its approval records in: memory, SQLite and PostgreSQL. Calls may
// answer at once (memory, SQLite) or later (a server). `compareAndSet` must be a real compare-and-set, and `lock` a
// real per-approval lock, in each.
import type { Action } from '@approval-conformance/core/contract';

export type ApprovalState = 'unspent' | 'spent';

export interface StoredApproval {
  readonly approvalId: string;
  readonly state: ApprovalState;
  /** Bumped by every write. */
  readonly version: number;
  readonly action: Action;
  /** The world the action was approved against. */
  readonly world: string;
}

export interface WriteResult {
  /** The state just before the write (`absent` when there was no record). */
  readonly from: ApprovalState | 'absent';
  readonly version: number;
}

type Awaitable<T> = T | Promise<T>;

export interface ApprovalStore {
  create(approvalId: string, action: Action, world: string): Awaitable<WriteResult>;
  read(approvalId: string): Awaitable<StoredApproval | undefined>;
  /** A blind write: sets the state whatever it was. */
  write(approvalId: string, state: ApprovalState): Awaitable<WriteResult>;
  /** Sets `next` only if the record still holds `expected`, in one atomic step. */
  compareAndSet(approvalId: string, expected: ApprovalState, next: ApprovalState): Awaitable<WriteResult & { readonly ok: boolean }>;
  /** Changes the stored action, as anyone with write access to the store can (the tamper scenario). */
  setAction(approvalId: string, action: Action): Awaitable<void>;
  /** Every record, as plain data (for the explorer's setup snapshot), and putting such a list back. */
  dump(): Awaitable<StoredApproval[]>;
  load(records: readonly StoredApproval[]): Awaitable<void>;
  /**
   * Waits for, then holds, the approval's lock; the returned function releases it. `io` wraps the server calls in
   * it, never the wait for another holder.
   */
  lock(approvalId: string, io?: <T>(work: Promise<T>) => Promise<T>): Promise<() => Awaitable<void>>;
  close(): Awaitable<void>;
  /** The world is done: remove what it left on a shared server (a schema). Stores with nothing shared omit it. */
  dispose?(): Awaitable<void>;
}
