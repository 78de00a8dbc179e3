// Where an application's one stored record (a chat transcript, a serialized run state) keeps its text: in memory,
// gone with the process, or in a row of a SQLite database the adapter opens, durable across a restart.

export interface TextBacking {
  get(): string | undefined;
  set(text: string): void;
  /** The bytes to snapshot, and how to put them back. */
  dump(): unknown;
  load(dump: unknown): void;
  close(): void;
}

export function memoryTextBacking(): TextBacking {
  let text: string | undefined;
  return {
    get: () => text,
    set: (next) => void (text = next),
    dump: () => text,
    load: (dump) => void (text = dump as string | undefined),
    close: () => {},
  };
}

/** As much of a better-sqlite3 database as the backing uses (core does not load the native module itself). */
export interface SqliteDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): { get(...params: unknown[]): unknown; run(...params: unknown[]): unknown };
  close(): unknown;
}

/** One row (`id`) of `table`, its text in `column`, in a database the caller opened; `close` closes it. */
export function sqliteTextBacking(db: SqliteDatabase, where: { table: string; column: string; id: string }): TextBacking {
  const { table, column, id } = where;
  // No fsync in a world's scratch database: a crash in a world is its process stopping, never the machine's, and what
  // a stopped process committed is in the file for the next one to open. Syncing only cost time.
  db.exec('PRAGMA synchronous = OFF');
  db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, ${column} TEXT NOT NULL)`);
  const get = () => (db.prepare(`SELECT ${column} FROM ${table} WHERE id = ?`).get(id) as Record<string, string> | undefined)?.[column];
  const set = (text: string) =>
    void db.prepare(`INSERT INTO ${table} (id, ${column}) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET ${column} = excluded.${column}`).run(id, text);
  return {
    get,
    set,
    dump: get,
    load(dump) {
      db.prepare(`DELETE FROM ${table}`).run();
      if (typeof dump === 'string') set(dump);
    },
    close: () => void db.close(),
  };
}
