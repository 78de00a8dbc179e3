// The PostgreSQL worlds' schemas: rows copied out and back exactly, a reused schema as clean as a new one, and
// nothing left on the server once a cell is released.
import { afterAll, describe, expect, it } from 'vitest';
import { skipStore, testPostgres } from '@approval-conformance/core';
import { connect, dumpSchema, leaseSchema, loadSchema, releaseSchemas, returnSchema } from './pg-schema.js';

const SAVER = {};

describe.skipIf(skipStore('postgres'))('PostgreSQL world schemas', () => {
  const url = () => testPostgres().url!;
  const admin = () => connect(url());
  const mine = async () => {
    const pool = admin();
    const { rows } = await pool.query<{ n: string }>(`SELECT nspname AS n FROM pg_namespace WHERE nspname LIKE $1 ORDER BY 1`, [`w\\_${process.pid}\\_%`]);
    await pool.end();
    return rows.map((r) => r.n);
  };
  // What a saver's setup would make: a table with bytea and JSONB columns, and a row that must survive a reset.
  const setUp = async (lease: ReturnType<typeof leaseSchema>) => {
    await lease.pool.query(`CREATE SCHEMA IF NOT EXISTS "${lease.schema}"`);
    await lease.pool.query(`CREATE TABLE IF NOT EXISTS "${lease.schema}".t (id text PRIMARY KEY, blob bytea, meta jsonb)`);
    await lease.pool.query(`CREATE TABLE IF NOT EXISTS "${lease.schema}".migrations (v int)`);
    if ((await lease.pool.query(`SELECT 1 FROM "${lease.schema}".migrations`)).rowCount === 0)
      await lease.pool.query(`INSERT INTO "${lease.schema}".migrations VALUES (1)`);
    lease.clean ??= await dumpSchema(lease.pool, lease.schema);
  };
  afterAll(releaseSchemas);

  it("copies a schema's rows out and back exactly, quotes and bytes included", async () => {
    const lease = leaseSchema(url(), SAVER);
    await setUp(lease);
    await lease.pool.query(`INSERT INTO "${lease.schema}".t VALUES ($1, $2, $3)`, ["it's", Buffer.from([0, 1, 255]), { a: "'; DROP" }]);
    const dump = await dumpSchema(lease.pool, lease.schema);
    await lease.pool.query(`DELETE FROM "${lease.schema}".t`);
    await loadSchema(lease.pool, lease.schema, dump);
    const { rows } = await lease.pool.query(`SELECT * FROM "${lease.schema}".t`);
    expect(rows).toEqual([{ id: "it's", blob: Buffer.from([0, 1, 255]), meta: { a: "'; DROP" } }]);
    await returnSchema(lease);
  });

  it('hands the next world the same schema emptied back to its state after setup', async () => {
    await releaseSchemas();
    const first = leaseSchema(url(), SAVER);
    await setUp(first);
    await first.pool.query(`INSERT INTO "${first.schema}".t VALUES ('x', NULL, NULL)`);
    await returnSchema(first);
    const second = leaseSchema(url(), SAVER);
    expect(second.schema).toBe(first.schema);
    await setUp(second);
    expect((await second.pool.query(`SELECT * FROM "${second.schema}".t`)).rows).toEqual([]);
    expect((await second.pool.query(`SELECT v FROM "${second.schema}".migrations`)).rows).toEqual([{ v: 1 }]);
    await returnSchema(second);
    expect(await mine()).toEqual([first.schema]);
    await releaseSchemas();
    expect(await mine()).toEqual([]);
  });

  it('drops a schema whose connection still has a query running, rather than reuse it', async () => {
    const lease = leaseSchema(url(), SAVER);
    await setUp(lease);
    const slow = lease.pool.query('SELECT pg_sleep(0)');
    const queued = lease.pool.query(`SELECT 1`);
    const returned = returnSchema(lease);
    await Promise.all([slow, queued, returned]);
    expect(await mine()).toEqual([]);
  });

  it('drops a schema that gained a table since setup, and never reuses one across savers', async () => {
    const lease = leaseSchema(url(), SAVER);
    await setUp(lease);
    expect(leaseSchema(url(), {}).schema).not.toBe(lease.schema);
    await lease.pool.query(`CREATE TABLE "${lease.schema}".extra (x int)`);
    await returnSchema(lease);
    expect(await mine()).toEqual([]);
    const other = leaseSchema(url(), SAVER);
    expect(other.schema).not.toBe(lease.schema);
    await other.pool.end();
  });

  it('names every new schema afresh, so a leftover of a killed process with the same pid is never taken', () => {
    const names = new Set(Array.from({ length: 50 }, () => leaseSchema(url(), {}).schema));
    expect(names.size).toBe(50);
    for (const name of names) expect(name).toMatch(new RegExp(`^w_${process.pid}_[0-9a-f]{12}$`));
  });
});
