// The three backends as the tests open them: memory; SQLite on a file in a temporary folder of its own; PostgreSQL
// (the testkit's server) in a schema of its own, dropped afterwards. Each `fresh()` is an empty store, so tests do not
// share records; `teardown()` removes everything the backend made.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testPostgres } from '@approval-conformance/testkit';
import Database from 'better-sqlite3';
import pg from 'pg';
import { MemoryGuardStore } from './memory.js';
import { PostgresGuardStore } from './postgres.js';
import { SqliteGuardStore } from './sqlite.js';
import type { GuardStore } from './store.js';

export const BACKENDS = ['memory', 'sqlite', 'postgres'] as const;
export type Backend = (typeof BACKENDS)[number];

export interface Opened {
  /** An empty store. */
  fresh(): Promise<GuardStore>;
  teardown(): Promise<void>;
}

let schemas = 0;

/** A schema no other test (nor another run on the same server) uses: the pid and a counter. */
export const uniqueSchema = (what: string) => `guard_${what}_${process.pid}_${++schemas}`;

export async function openBackend(backend: Backend): Promise<Opened> {
  if (backend === 'memory') return { fresh: async () => new MemoryGuardStore(), teardown: async () => {} };
  if (backend === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'ac-guard-'));
    const dbs: Database.Database[] = [];
    return {
      fresh: async () => {
        const db = new Database(join(dir, `guard-${dbs.length}.sqlite`));
        dbs.push(db);
        return new SqliteGuardStore(db);
      },
      teardown: async () => {
        for (const db of dbs) db.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const url = testPostgres().url;
  if (!url) throw new Error('no PostgreSQL server: skip this backend with skipStore("postgres")');
  // Ten connections, so that concurrent spends really are concurrent at the server.
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const schema = uniqueSchema('test');
  await pool.query(`CREATE SCHEMA ${schema}`);
  let tables = 0;
  return {
    fresh: async () => new PostgresGuardStore(pool, { table: `${schema}.approvals_${++tables}` }),
    teardown: async () => {
      await pool.query(`DROP SCHEMA ${schema} CASCADE`);
      await pool.end();
    },
  };
}
