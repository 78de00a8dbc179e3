// The PostgreSQL worlds' schemas: rows copied out and back exactly, a schema per world that is gone after it, and
// connections handed on only when idle and closed when the cell is released.
import { afterAll, describe, expect, it } from 'vitest';
import { worldNamePrefix } from '@approval-conformance/core';
import { skipStore, testPostgres } from '@approval-conformance/testkit';
import { connect, dropSchema, dumpSchema, loadSchema, newSchemaName, releaseConnections, takeConnection } from './pg-schema.js';

describe.skipIf(skipStore('postgres'))('PostgreSQL world schemas', () => {
  const url = () => testPostgres().url!;
  const mine = async () => {
    const pool = connect(url());
    const { rows } = await pool.query<{ n: string }>(`SELECT nspname AS n FROM pg_namespace WHERE nspname LIKE $1 ORDER BY 1`, [`${worldNamePrefix().replace(/_/g, '\\_')}%`]);
    await pool.end();
    return rows.map((r) => r.n);
  };
  const setUp = async (schema: string) => {
    const pool = takeConnection(url());
    await pool.query(`CREATE SCHEMA "${schema}"`);
    // A column named t, like the dump's row alias.
    await pool.query(`CREATE TABLE "${schema}".t (id text PRIMARY KEY, blob bytea, meta jsonb, t text)`);
    await pool.query(`CREATE TABLE "${schema}".migrations (v int)`);
    await pool.query(`INSERT INTO "${schema}".migrations VALUES (1)`);
    return pool;
  };
  afterAll(releaseConnections);

  it("copies a schema's rows out and back exactly: quotes, dollar signs, bytes and NULLs", async () => {
    const schema = newSchemaName();
    const pool = await setUp(schema);
    const row = { id: "it's $j$ \\x00", blob: Buffer.from([0, 1, 255]), meta: { a: "'; DROP $$" }, t: 'ends in $j' };
    await pool.query(`INSERT INTO "${schema}".t VALUES ($1, $2, $3, $4), ('n', NULL, NULL, NULL)`, [row.id, row.blob, row.meta, row.t]);
    const dump = await dumpSchema(pool, schema);
    await pool.query(`DELETE FROM "${schema}".t`);
    await pool.query(`INSERT INTO "${schema}".migrations VALUES (2)`);
    await loadSchema(pool, schema, dump);
    expect((await pool.query(`SELECT * FROM "${schema}".t`)).rows).toEqual([row, { id: 'n', blob: null, meta: null, t: null }]);
    expect((await pool.query(`SELECT v FROM "${schema}".migrations`)).rows).toEqual([{ v: 1 }]);
    await dropSchema(url(), pool, schema);
    expect(await mine()).toEqual([]);
  });

  it('hands an idle connection to the next world and closes the spares on release', async () => {
    await releaseConnections();
    const schema = newSchemaName();
    const pool = await setUp(schema);
    await dropSchema(url(), pool, schema);
    expect(takeConnection(url())).toBe(pool);
    await dropSchema(url(), pool, newSchemaName());
    await releaseConnections();
    expect(pool.ending).toBe(true);
    expect(takeConnection(url())).not.toBe(pool);
  });

  it('closes a connection once it has served a hundred worlds', async () => {
    await releaseConnections();
    const pool = takeConnection(url());
    for (let i = 0; i < 99; i++) {
      await dropSchema(url(), pool, newSchemaName());
      expect(takeConnection(url())).toBe(pool);
    }
    await dropSchema(url(), pool, newSchemaName());
    expect(pool.ending).toBe(true);
  });

  it('closes, rather than hands on, a connection that is still busy when its world has closed', async () => {
    const schema = newSchemaName();
    const pool = await setUp(schema);
    const dropping = dropSchema(url(), pool, schema);
    const late = pool.query('SELECT 1'); // sent after the world closed: the connection is not the next world's
    await Promise.allSettled([dropping, late]);
    expect(pool.ending).toBe(true);
    expect(takeConnection(url())).not.toBe(pool);
    expect(await mine()).toEqual([]);
  });

  it('drops the schema on a new connection when the world ended its own (a failed restart)', async () => {
    const schema = newSchemaName();
    const pool = await setUp(schema);
    await pool.end();
    await dropSchema(url(), pool, schema);
    expect(await mine()).toEqual([]);
  });

  it('names every schema afresh, so a leftover of a killed process with the same pid is never taken', () => {
    const names = new Set(Array.from({ length: 50 }, newSchemaName));
    expect(names.size).toBe(50);
    for (const name of names) expect(name).toMatch(new RegExp(`^${worldNamePrefix()}[0-9a-f]{12}$`));
  });
});
