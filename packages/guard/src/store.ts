// Where the guard keeps its records. A backend needs three operations, and one of them must be atomic: `replace`
// writes only if the stored version is still the one the guard read (compare-and-set), so that of two processes
// spending one approval exactly one wins.
import type { ApprovalRecord } from './record.js';

export interface GuardStore {
  /** Adds a new record; false (and nothing written) if one with its id exists. */
  insert(record: ApprovalRecord): Promise<boolean>;
  get(id: string): Promise<ApprovalRecord | undefined>;
  /** Writes `next` in place of the record with its id, only if that record's version is still `expected`. */
  replace(next: ApprovalRecord, expected: number): Promise<boolean>;
}
