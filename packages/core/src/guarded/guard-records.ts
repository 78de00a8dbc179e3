// The approval guard's records as a guarded world keeps them: the store its GuardedApp spends on, and a copy of what it
// holds, so that the world's setup snapshot holds the guard's records too. In memory they are gone with the process,
// as an in-memory framework store is; in SQLite (a database the adapter opens beside the framework's) they survive a
// restart, as they do in a PostgreSQL table.
import { MemoryGuardStore, type ApprovalRecord, type GuardStore } from '@approval-conformance/guard';
import { SqliteGuardStore } from '@approval-conformance/guard/sqlite';
import { PostgresGuardStore, type Queryable } from '@approval-conformance/guard/postgres';
import type { RecordState } from '../history/events.js';
import { guardRecordState } from './gated-guard-store.js';

export interface GuardRecords {
  readonly store: GuardStore;
  /** Every record, as plain data (read past the gates). */
  dump(): Promise<ApprovalRecord[]>;
  /** Puts back what `dump` gave, in place of what the store holds. */
  load(records: readonly ApprovalRecord[]): Promise<void>;
  close(): void;
  /** The record of `approvalId` as the suite's record states say it (read past the gates): a world's `inspect`. */
  inspect(approvalId: string): Promise<{ state: RecordState; version: number }>;
}

/** The records by the key the guard's gates declare (`guard:a1`), for the check of declarations (`World.contents`). */
export async function guardContents(records: GuardRecords): Promise<Record<string, string>> {
  return Object.fromEntries((await records.dump()).map((record) => [`guard:${record.id}`, JSON.stringify(record)]));
}

async function inspect(store: GuardStore, approvalId: string) {
  const record = await store.get(approvalId);
  return { state: guardRecordState(record), version: record?.version ?? 0 };
}

/** In memory: a MemoryGuardStore, replaced by a copy behind the same `store` on `load`. */
export function memoryGuardRecords(): GuardRecords {
  let records = new MemoryGuardStore();
  const store: GuardStore = {
    insert: (record) => records.insert(record),
    get: (id) => records.get(id),
    replace: (next, expected) => records.replace(next, expected),
  };
  return {
    store,
    dump: async () => records.records(),
    async load(loaded) {
      records = new MemoryGuardStore(loaded);
    },
    close: () => {},
    inspect: (approvalId) => inspect(store, approvalId),
  };
}

/** A better-sqlite3 database, as SqliteGuardStore takes it. */
type SqliteDatabase = ConstructorParameters<typeof SqliteGuardStore>[0];

const TABLE = 'approval_guard';

/** In a SQLite database the caller opened (`new Database(file)`); `close` closes it. */
export function sqliteGuardRecords(db: SqliteDatabase): GuardRecords {
  // No fsync in a world's scratch database: a crash in a world is its process stopping, never the machine's, and what
  // a stopped process committed is in the file for the next one to open. Syncing only cost time.
  db.exec('PRAGMA synchronous = OFF');
  const store = new SqliteGuardStore(db, { table: TABLE });
  return {
    store,
    dump: async () =>
      (db.prepare(`SELECT record FROM ${TABLE} ORDER BY id`).all() as { record: string }[]).map((row) => JSON.parse(row.record) as ApprovalRecord),
    async load(records) {
      db.prepare(`DELETE FROM ${TABLE}`).run();
      for (const record of records) await store.insert(record);
    },
    close: () => db.close(),
    inspect: (approvalId) => inspect(store, approvalId),
  };
}

/**
 * In a PostgreSQL table (schema-qualified, a world's own), over a connection the caller keeps (`close` leaves it
 * open): the records survive a restart.
 */
export function postgresGuardRecords(db: Queryable, table: string): GuardRecords {
  const store = new PostgresGuardStore(db, { table });
  return {
    store,
    async dump() {
      await store.setup();
      const { rows } = await db.query(`SELECT record FROM ${table} ORDER BY id`);
      return rows.map((row: { record: unknown }) => (typeof row.record === 'string' ? JSON.parse(row.record) : row.record) as ApprovalRecord);
    },
    async load(records) {
      await store.setup();
      await db.query(`DELETE FROM ${table}`);
      for (const record of records) await store.insert(record);
    },
    close: () => {},
    inspect: (approvalId) => inspect(store, approvalId),
  };
}
