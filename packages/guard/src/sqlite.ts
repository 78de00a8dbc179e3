// The SQLite backend (better-sqlite3). A record is one row: its id, its version, and the record as JSON. The
// compare-and-set is one UPDATE ... WHERE version = ?, which SQLite runs atomically under its write lock, so two
// processes on one database file spend an approval once. WAL mode and a busy timeout let them share the file.
//
// Durability is the application's choice: the store leaves `synchronous` as it finds it. Unset, better-sqlite3's build
// makes it NORMAL in WAL mode (no fsync per commit): a spend survives the process crashing, but a power loss or an OS
// crash can roll back the last commits, a spend among them, and the approval of an action that ran would read approved
// again. Where that matters, `db.pragma('synchronous = FULL')` before creating the store: an fsync for each of an
// approval's four commits, 1 to 4 ms per approval instead of 0.15 here (pnpm bench:guard).
import type Database from 'better-sqlite3';
import type { ApprovalRecord } from './record.js';
import type { GuardStore } from './store.js';

export interface SqliteGuardStoreOptions {
  /** The table (created if missing). Default `approval_guard`. */
  readonly table?: string;
}

export class SqliteGuardStore implements GuardStore {
  readonly #insert: Database.Statement;
  readonly #get: Database.Statement;
  readonly #replace: Database.Statement;

  /** Over an open database (`new Database(file)`); the caller closes it. */
  constructor(db: Database.Database, { table = 'approval_guard' }: SqliteGuardStoreOptions = {}) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(table)) throw new TypeError(`table '${table}' is not a plain SQL name (letters, digits, _)`);
    // The busy timeout first: switching to WAL (or finding it on) and creating the table take locks too, and another
    // process opening the same file at the same moment must make these wait, not fail with SQLITE_BUSY.
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, version INTEGER NOT NULL, record TEXT NOT NULL)`);
    this.#insert = db.prepare(`INSERT INTO ${table} (id, version, record) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING`);
    this.#get = db.prepare(`SELECT record FROM ${table} WHERE id = ?`);
    this.#replace = db.prepare(`UPDATE ${table} SET version = ?, record = ? WHERE id = ? AND version = ?`);
  }

  async insert(record: ApprovalRecord): Promise<boolean> {
    return this.#insert.run(record.id, record.version, JSON.stringify(record)).changes === 1;
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    const row = this.#get.get(id) as { record: string } | undefined;
    return row && (JSON.parse(row.record) as ApprovalRecord);
  }

  async replace(next: ApprovalRecord, expected: number): Promise<boolean> {
    return this.#replace.run(next.version, JSON.stringify(next), next.id, expected).changes === 1;
  }
}
