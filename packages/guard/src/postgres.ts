// The PostgreSQL backend (node-postgres). A record is one row: its id, its version, and the record as JSON. The
// compare-and-set is one UPDATE ... WHERE version = $n: under READ COMMITTED a second UPDATE of the same row waits for
// the first to commit, then re-checks its WHERE on the new row and changes nothing, so of two connections spending one
// approval exactly one wins. No transaction spans the guard's calls, so none is left open across an await of the app.
//
// The record column is JSON, not JSONB: JSON keeps the text as written, so any action JSON.stringify writes comes back
// as it was, as it does from SQLite and memory. JSONB refuses strings holding \u0000 or a lone surrogate, which would
// make such an action impossible to propose on this backend alone.
import type pg from 'pg';
import type { ApprovalRecord } from './record.js';
import type { GuardStore } from './store.js';

/** A pg.Pool or a pg.Client: anything with `query`. */
export type Queryable = Pick<pg.Pool, 'query'>;

export interface PostgresGuardStoreOptions {
  /** The table, optionally schema-qualified (`app.approval_guard`). Default `approval_guard`. */
  readonly table?: string;
}

export class PostgresGuardStore implements GuardStore {
  readonly #db: Queryable;
  readonly #table: string;
  #ready: Promise<unknown> | undefined;

  constructor(db: Queryable, { table = 'approval_guard' }: PostgresGuardStoreOptions = {}) {
    if (!/^([A-Za-z_][A-Za-z0-9_]*\.)?[A-Za-z_][A-Za-z0-9_]*$/.test(table)) {
      throw new TypeError(`table '${table}' is not a plain SQL name (letters, digits, _; optionally schema.table)`);
    }
    this.#db = db;
    this.#table = table;
  }

  /** Creates the table if it is missing. Optional: the first call that needs it does the same. */
  async setup(): Promise<void> {
    await this.#setup();
  }

  /**
   * Creates the table if it is missing; called before the first query. Two connections creating it at once is not
   * covered by IF NOT EXISTS: the second fails on a catalog index (23505) or finds the table, or its row type, made
   * meanwhile (42P07, 42710), after the first committed, so the table is there and the store goes on. Any other
   * failure (the server was down) is not remembered: the next call tries again rather than failing for good.
   */
  #setup(): Promise<unknown> {
    return (this.#ready ??= this.#db
      .query(`CREATE TABLE IF NOT EXISTS ${this.#table} (id TEXT PRIMARY KEY, version INTEGER NOT NULL, record JSON NOT NULL)`)
      .catch((error: unknown) => {
        const code = (error as { code?: unknown }).code;
        if (code === '23505' || code === '42P07' || code === '42710') return;
        this.#ready = undefined;
        throw error;
      }));
  }

  async insert(record: ApprovalRecord): Promise<boolean> {
    await this.#setup();
    const result = await this.#db.query(`INSERT INTO ${this.#table} (id, version, record) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`, [
      record.id,
      record.version,
      JSON.stringify(record),
    ]);
    return result.rowCount === 1;
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    await this.#setup();
    const result = await this.#db.query(`SELECT record FROM ${this.#table} WHERE id = $1`, [id]);
    return result.rows[0]?.record as ApprovalRecord | undefined;
  }

  async replace(next: ApprovalRecord, expected: number): Promise<boolean> {
    await this.#setup();
    const result = await this.#db.query(`UPDATE ${this.#table} SET version = $1, record = $2 WHERE id = $3 AND version = $4`, [
      next.version,
      JSON.stringify(next),
      next.id,
      expected,
    ]);
    return result.rowCount === 1;
  }
}
