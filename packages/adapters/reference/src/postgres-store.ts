// The PostgreSQL store: a real server, one schema per world (dropped with it). The compare-and-set is a single
// conditional `UPDATE ... WHERE state = $expected RETURNING`; the lock is a row in a locks table, taken by an INSERT
// that changes nothing while another holder has it (waiters in this process queue until it is released, as with
// SQLite). Every call is a query over the wire: the runtime awaits it outside its gates, through `io`.
import { basename } from 'node:path';
import pg from 'pg';
import { type Action } from '@approval-conformance/core/contract';
import { worldNamePrefix } from '@approval-conformance/core/kit';
import { KeyedMutex } from './mutex.js';
import type { ApprovalState, ApprovalStore, StoredApproval, WriteResult } from './store.js';

/** Where the server is: APPROVAL_CONFORMANCE_POSTGRES (the runner's --postgres sets it). */
export const postgresUrl = () => process.env['APPROVAL_CONFORMANCE_POSTGRES'];

interface Row {
  approval_id: string;
  state: ApprovalState;
  version: number;
  action: Action;
  world: string;
}

const toRecord = (row: Row): StoredApproval => ({
  approvalId: row.approval_id,
  state: row.state,
  version: row.version,
  action: row.action,
  world: row.world,
});

export class PostgresStore implements ApprovalStore {
  readonly #client: pg.Client;
  readonly #schema: string;
  readonly #waiters = new KeyedMutex();

  /** The world's connection and schema, for the approval guard's table beside the runtime's (guarded wirings). */
  get queryable(): pg.Client {
    return this.#client;
  }

  get schema(): string {
    return this.#schema;
  }

  private constructor(client: pg.Client, schema: string) {
    this.#client = client;
    this.#schema = schema;
  }

  /** Connects, and creates the world's schema if it is new (a restart finds it there). */
  static async open(url: string | undefined, scratchDir: string): Promise<PostgresStore> {
    if (!url) throw new Error('no PostgreSQL server: set APPROVAL_CONFORMANCE_POSTGRES (or pass --postgres URL)');
    // One schema per world, named after the worker and its scratch folder: the same across a restart, unique across
    // worlds, and findable by the runner when it has to stop the worker (see ADAPTERS.md).
    const folder = basename(scratchDir).replace(/^approval-conformance-/, '').replace(/[^A-Za-z0-9]/g, '_').toLowerCase();
    const schema = `${worldNamePrefix()}${folder}`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`
      CREATE SCHEMA IF NOT EXISTS ${schema};
      SET search_path TO ${schema};
      CREATE TABLE IF NOT EXISTS approvals (
        approval_id TEXT PRIMARY KEY,
        state TEXT NOT NULL CHECK (state IN ('unspent', 'spent')),
        version INTEGER NOT NULL,
        action JSONB NOT NULL,
        world TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS locks (approval_id TEXT PRIMARY KEY);
      DELETE FROM locks;`);
    // Locks belong to the process that took them; a process that opens the store starts with none (above).
    return new PostgresStore(client, schema);
  }

  async create(approvalId: string, action: Action, world: string): Promise<WriteResult> {
    const before = await this.read(approvalId);
    const { rows } = await this.#client.query<{ version: number }>(
      `INSERT INTO approvals (approval_id, state, version, action, world) VALUES ($1, 'unspent', 1, $2, $3)
       ON CONFLICT (approval_id) DO UPDATE SET state = 'unspent', version = approvals.version + 1,
         action = excluded.action, world = excluded.world
       RETURNING version`,
      [approvalId, JSON.stringify(action), world],
    );
    return { from: before?.state ?? 'absent', version: rows[0]!.version };
  }

  async read(approvalId: string): Promise<StoredApproval | undefined> {
    const { rows } = await this.#client.query<Row>('SELECT * FROM approvals WHERE approval_id = $1', [approvalId]);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  async write(approvalId: string, state: ApprovalState): Promise<WriteResult> {
    // A blind write; reading `from` first is only for the history.
    const before = await this.read(approvalId);
    if (!before) throw new Error(`no approval ${approvalId} in the store`);
    const { rows } = await this.#client.query<{ version: number }>(
      'UPDATE approvals SET state = $1, version = version + 1 WHERE approval_id = $2 RETURNING version',
      [state, approvalId],
    );
    return { from: before.state, version: rows[0]!.version };
  }

  async compareAndSet(approvalId: string, expected: ApprovalState, next: ApprovalState) {
    const { rows } = await this.#client.query<{ version: number }>(
      'UPDATE approvals SET state = $1, version = version + 1 WHERE approval_id = $2 AND state = $3 RETURNING version',
      [next, approvalId, expected],
    );
    if (rows[0]) return { ok: true, from: expected, version: rows[0].version };
    const now = await this.read(approvalId);
    if (!now) throw new Error(`no approval ${approvalId} in the store`);
    return { ok: false, from: now.state, version: now.version };
  }

  async setAction(approvalId: string, action: Action): Promise<void> {
    await this.#client.query('UPDATE approvals SET action = $1 WHERE approval_id = $2', [JSON.stringify(action), approvalId]);
  }

  async dump(): Promise<StoredApproval[]> {
    const { rows } = await this.#client.query<Row>('SELECT * FROM approvals ORDER BY approval_id');
    return rows.map(toRecord);
  }

  async load(records: readonly StoredApproval[]): Promise<void> {
    for (const r of records) {
      await this.#client.query(
        `INSERT INTO approvals (approval_id, state, version, action, world) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (approval_id) DO UPDATE SET state = excluded.state, version = excluded.version,
           action = excluded.action, world = excluded.world`,
        [r.approvalId, r.state, r.version, JSON.stringify(r.action), r.world],
      );
    }
  }

  async lock(approvalId: string, io: <T>(work: Promise<T>) => Promise<T> = (w) => w): Promise<() => Promise<void>> {
    // Waiters in this process queue on the mutex (not I/O: another turn must move first); the row is the lock
    // itself, visible to any other connection.
    await this.#waiters.acquire(approvalId);
    const taken = await io(this.#client.query('INSERT INTO locks (approval_id) VALUES ($1) ON CONFLICT DO NOTHING', [approvalId]));
    if (taken.rowCount === 0) {
      this.#waiters.release(approvalId);
      throw new Error(`the lock on ${approvalId} is held by another connection to schema ${this.#schema}`);
    }
    return async () => {
      await this.#client.query('DELETE FROM locks WHERE approval_id = $1', [approvalId]);
      this.#waiters.release(approvalId);
    };
  }

  /** The process stops: its connection closes, its data stays. */
  async close(): Promise<void> {
    await this.#client.end();
  }

  /** The world is done: its schema goes, so runs leave nothing behind. */
  async dispose(): Promise<void> {
    await this.#client.query(`DROP SCHEMA IF EXISTS ${this.#schema} CASCADE`);
    await this.#client.end();
  }
}
