// The SQLite store: a real database file. The compare-and-set is one conditional UPDATE, checked by its change
// count; the lock is a row in a locks table, taken by an INSERT that changes nothing while another holder has it
// (waiters in this process queue until it is released, instead of polling).
import Database from 'better-sqlite3';
import type { Action } from '@approval-conformance/core/contract';
import { KeyedMutex } from './mutex.js';
import type { ApprovalState, ApprovalStore, StoredApproval, WriteResult } from './store.js';

interface Row {
  approval_id: string;
  state: ApprovalState;
  version: number;
  action: string;
  world: string;
}

export class SqliteStore implements ApprovalStore {
  readonly #db: Database.Database;
  readonly #waiters = new KeyedMutex();

  constructor(file: string) {
    this.#db = new Database(file);
    // No fsync: a crash here is a process that stops, never the machine, and what a stopped process wrote is in the
    // file for the next one that opens it. Syncing cost a third of every schedule on this store, and changed nothing.
    this.#db.pragma('synchronous = OFF');
    this.#db.pragma('journal_mode = WAL');
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS approvals (
        approval_id TEXT PRIMARY KEY,
        state TEXT NOT NULL CHECK (state IN ('unspent', 'spent')),
        version INTEGER NOT NULL,
        action TEXT NOT NULL,
        world TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS locks (approval_id TEXT PRIMARY KEY);
    `);
    // Locks belong to the process that took them; a process that opens the store starts with none.
    this.#db.exec('DELETE FROM locks');
  }

  create(approvalId: string, action: Action, world: string): WriteResult {
    const before = this.read(approvalId);
    const version = (before?.version ?? 0) + 1;
    this.#db
      .prepare(
        `INSERT INTO approvals (approval_id, state, version, action, world) VALUES (?, 'unspent', ?, ?, ?)
         ON CONFLICT (approval_id) DO UPDATE SET state = 'unspent', version = excluded.version,
           action = excluded.action, world = excluded.world`,
      )
      .run(approvalId, version, JSON.stringify(action), world);
    return { from: before?.state ?? 'absent', version };
  }

  read(approvalId: string): StoredApproval | undefined {
    const row = this.#db.prepare('SELECT * FROM approvals WHERE approval_id = ?').get(approvalId) as Row | undefined;
    if (!row) return undefined;
    return {
      approvalId: row.approval_id,
      state: row.state,
      version: row.version,
      action: JSON.parse(row.action) as Action,
      world: row.world,
    };
  }

  write(approvalId: string, state: ApprovalState): WriteResult {
    // A blind write: whatever the record held, it now holds `state`. Reading `from` first is only for the history.
    const before = this.read(approvalId);
    if (!before) throw new Error(`no approval ${approvalId} in the store`);
    const row = this.#db
      .prepare('UPDATE approvals SET state = ?, version = version + 1 WHERE approval_id = ? RETURNING version')
      .get(state, approvalId) as { version: number };
    return { from: before.state, version: row.version };
  }

  compareAndSet(approvalId: string, expected: ApprovalState, next: ApprovalState) {
    const result = this.#db
      .prepare('UPDATE approvals SET state = ?, version = version + 1 WHERE approval_id = ? AND state = ?')
      .run(next, approvalId, expected);
    const now = this.read(approvalId);
    if (!now) throw new Error(`no approval ${approvalId} in the store`);
    return result.changes === 1
      ? { ok: true, from: expected, version: now.version }
      : { ok: false, from: now.state, version: now.version };
  }

  setAction(approvalId: string, action: Action): void {
    this.#db.prepare('UPDATE approvals SET action = ? WHERE approval_id = ?').run(JSON.stringify(action), approvalId);
  }

  dump(): StoredApproval[] {
    const rows = this.#db.prepare('SELECT approval_id FROM approvals ORDER BY approval_id').all() as Row[];
    return rows.map((row) => this.read(row.approval_id)!);
  }

  load(records: readonly StoredApproval[]): void {
    const insert = this.#db.prepare(
      'INSERT OR REPLACE INTO approvals (approval_id, state, version, action, world) VALUES (?, ?, ?, ?, ?)',
    );
    for (const r of records) insert.run(r.approvalId, r.state, r.version, JSON.stringify(r.action), r.world);
  }

  async lock(approvalId: string): Promise<() => void> {
    // Waiters in this process queue on the mutex; the row is the lock itself, visible to any other connection.
    await this.#waiters.acquire(approvalId);
    const taken = this.#db.prepare('INSERT INTO locks (approval_id) VALUES (?) ON CONFLICT DO NOTHING').run(approvalId);
    if (taken.changes === 0) {
      this.#waiters.release(approvalId);
      throw new Error(`the lock on ${approvalId} is held by another connection to ${this.#db.name}`);
    }
    return () => {
      this.#db.prepare('DELETE FROM locks WHERE approval_id = ?').run(approvalId);
      this.#waiters.release(approvalId);
    };
  }

  close(): void {
    this.#db.close();
  }
}
