// The approval guard's records (guarded wirings), in the same kind of store as the chat: in memory, gone with the
// process like the memory chat store, or in a SQLite file beside the chat's, durable across a restart. Each says what
// it holds and takes it back, so that a guarded world's setup snapshot holds the guard's records too.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MemoryGuardStore, type ApprovalRecord, type GuardStore } from '@approval-conformance/guard';
import { SqliteGuardStore } from '@approval-conformance/guard/sqlite';

export interface GuardRecords {
  readonly store: GuardStore;
  /** Every record, as plain data (read past the gates). */
  dump(): Promise<ApprovalRecord[]>;
  /** Put back what `dump` gave, in place of what the store holds. */
  load(records: readonly ApprovalRecord[]): Promise<void>;
  close(): void;
}

/** In memory: a MemoryGuardStore, copied out, and replaced by a copy behind the same `store`. */
function memoryGuardRecords(): GuardRecords {
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
  };
}

const TABLE = 'approval_guard';

function sqliteGuardRecords(scratchDir: string): GuardRecords {
  const db = new Database(join(scratchDir, 'guard.sqlite'));
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
  };
}

export function openGuardRecords(kind: string, scratchDir: string): GuardRecords {
  if (kind === 'memory') return memoryGuardRecords();
  if (kind === 'sqlite') return sqliteGuardRecords(scratchDir);
  throw new Error(`unknown store '${kind}'; the AI SDK adapter has memory, sqlite`);
}
