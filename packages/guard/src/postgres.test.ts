// What is particular to the PostgreSQL store, checked without a server: the table is created on first use and a
// failure then is not kept for the store's lifetime, and the table name is checked before it is put into SQL.
import { describe, expect, it } from 'vitest';
import { PostgresGuardStore, type Queryable } from './postgres.js';
import { proposed } from './record.js';

/** A connection that fails its first `failures` queries (the server restarting), then answers like an empty table. */
function flaky(failures: number) {
  const seen: string[] = [];
  const db = {
    query: async (sql: string) => {
      seen.push(sql.split(' ').slice(0, 2).join(' '));
      if (failures-- > 0) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      return { rowCount: 1, rows: [] };
    },
  };
  return { db: db as unknown as Queryable, seen };
}

describe('PostgresGuardStore', () => {
  it('tries to create its table again after a failed first try, rather than failing for good', async () => {
    const { db, seen } = flaky(1);
    const store = new PostgresGuardStore(db);
    const record = proposed('call-1', { tool: 't', args: 1 }, 'w');
    await expect(store.insert(record)).rejects.toThrow('ECONNREFUSED');
    expect(await store.insert(record)).toBe(true);
    expect(seen).toEqual(['CREATE TABLE', 'CREATE TABLE', 'INSERT INTO']);
    // Created once it worked: not again.
    await store.get('call-1');
    expect(seen.filter((s) => s === 'CREATE TABLE')).toHaveLength(2);
  });

  it('creates its table ahead of time on setup(), and not again', async () => {
    const { db, seen } = flaky(0);
    const store = new PostgresGuardStore(db);
    await store.setup();
    await store.get('call-1');
    expect(seen).toEqual(['CREATE TABLE', 'SELECT record']);
  });

  it.each(['approvals; DROP TABLE users', 'a.b.c', '1table', 'app."x"'])('refuses the table name %j', (table) => {
    expect(() => new PostgresGuardStore(flaky(0).db, { table })).toThrow(TypeError);
  });

  it.each(['approval_guard', 'app.approval_guard', '_x1'])('takes the table name %j', (table) => {
    expect(() => new PostgresGuardStore(flaky(0).db, { table })).not.toThrow();
  });
});
