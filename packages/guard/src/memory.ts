// The in-memory backend: one process, records in a Map. Each call is atomic because it runs without an await.
import type { ApprovalRecord } from './record.js';
import type { GuardStore } from './store.js';

export class MemoryGuardStore implements GuardStore {
  readonly #records = new Map<string, ApprovalRecord>();

  /** Optionally holding `records` already (as `records()` gave them: a copy of another store's state). */
  constructor(records: Iterable<ApprovalRecord> = []) {
    for (const record of records) this.#records.set(record.id, structuredClone(record));
  }

  /** Every record, copied: plain data to keep, and to start another store from. */
  records(): ApprovalRecord[] {
    return [...this.#records.values()].map((record) => structuredClone(record));
  }

  async insert(record: ApprovalRecord): Promise<boolean> {
    if (this.#records.has(record.id)) return false;
    this.#records.set(record.id, structuredClone(record));
    return true;
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    const found = this.#records.get(id);
    return found && structuredClone(found);
  }

  async replace(next: ApprovalRecord, expected: number): Promise<boolean> {
    if (this.#records.get(next.id)?.version !== expected) return false;
    this.#records.set(next.id, structuredClone(next));
    return true;
  }
}
