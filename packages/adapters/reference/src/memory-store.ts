// The in-memory store: a Map, where a compare-and-set is atomic because nothing else runs between its read and its
// write (no await inside it).
import type { Action } from '@approval-conformance/core/contract';
import { KeyedMutex } from './mutex.js';
import type { ApprovalState, ApprovalStore, StoredApproval, WriteResult } from './store.js';

export class MemoryStore implements ApprovalStore {
  readonly #records = new Map<string, StoredApproval>();
  readonly #locks = new KeyedMutex();

  create(approvalId: string, action: Action, world: string): WriteResult {
    const from = this.#records.get(approvalId)?.state ?? 'absent';
    const version = (this.#records.get(approvalId)?.version ?? 0) + 1;
    this.#records.set(approvalId, { approvalId, state: 'unspent', version, action, world });
    return { from, version };
  }

  read(approvalId: string): StoredApproval | undefined {
    return this.#records.get(approvalId);
  }

  write(approvalId: string, state: ApprovalState): WriteResult {
    const record = this.#must(approvalId);
    const version = record.version + 1;
    this.#records.set(approvalId, { ...record, state, version });
    return { from: record.state, version };
  }

  compareAndSet(approvalId: string, expected: ApprovalState, next: ApprovalState) {
    const record = this.#must(approvalId);
    if (record.state !== expected) return { ok: false, from: record.state, version: record.version };
    return { ok: true, ...this.write(approvalId, next) };
  }

  setAction(approvalId: string, action: Action): void {
    this.#records.set(approvalId, { ...this.#must(approvalId), action });
  }

  dump(): StoredApproval[] {
    return [...this.#records.values()];
  }

  load(records: readonly StoredApproval[]): void {
    for (const record of records) this.#records.set(record.approvalId, record);
  }

  async lock(approvalId: string): Promise<() => void> {
    await this.#locks.acquire(approvalId);
    return () => this.#locks.release(approvalId);
  }

  close(): void {}

  #must(approvalId: string): StoredApproval {
    const record = this.#records.get(approvalId);
    if (!record) throw new Error(`no approval ${approvalId} in the store`);
    return record;
  }
}
