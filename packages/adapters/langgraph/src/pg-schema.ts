// PostgreSQL worlds: each world gets a schema of its own, set up by the saver and dropped at close, on one connection
// of its own. Connecting costs about as much as a short schedule, so a closed world's idle connection goes to the
// next world of the same cell and `releaseConnections` closes the spare ones when the cell ends. (The schema itself
// is never reused: emptied tables keep dead rows and statistics, and the order the server returns rows in could then
// change from run to run.) A PostgresSaver's whole state is the rows of its schema's tables, which is what the
// explorer's setup snapshot copies.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { worldNamePrefix } from '@approval-conformance/core/kit';

/** Every table's rows, as JSON text (bytea columns come out as hex, JSONB as JSON), in the order the table holds them. */
export interface SchemaRows {
  readonly tables: readonly { readonly name: string; readonly rows: string }[];
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A dollar-quoted literal, whatever the server's string settings; the tag is one the text does not contain. */
function literal(text: string): string {
  let tag = 'j';
  while (text.includes(`$${tag}`)) tag = `j${randomBytes(4).toString('hex')}`;
  return `$${tag}$${text}$${tag}$`;
}

/** A schema name no other world, nor a killed worker whose pid has come back, can have used. */
export const newSchemaName = () => `${worldNamePrefix()}${randomBytes(6).toString('hex')}`;

/** Every table's rows, read in one statement (one snapshot of the schema). */
export async function dumpSchema(pool: pg.Pool, schema: string): Promise<SchemaRows> {
  const { rows: names } = await pool.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY 1`,
    [schema],
  );
  if (names.length === 0) return { tables: [] };
  const columns = names.map(({ name }, i) => `(SELECT coalesce(json_agg(t.*), '[]')::text FROM ${quote(schema)}.${quote(name)} t) AS t${i}`);
  const { rows } = await pool.query<Record<string, string>>(`SELECT ${columns.join(', ')}`);
  return { tables: names.map(({ name }, i) => ({ name, rows: rows[0]![`t${i}`]! })) };
}

/** Puts dumped rows back into a schema the saver has set up: each table emptied and filled, in one transaction. */
export async function loadSchema(pool: pg.Pool, schema: string, dump: SchemaRows): Promise<void> {
  const sql = dump.tables.map(({ name, rows }) => {
    const t = `${quote(schema)}.${quote(name)}`;
    return `DELETE FROM ${t}; INSERT INTO ${t} SELECT * FROM json_populate_recordset(NULL::${t}, ${literal(rows)}::json);`;
  });
  if (sql.length > 0) await pool.query(sql.join('\n'));
}

/** One connection: LangGraph fires writes without awaiting them, and on several connections their answers could come
 * back in any order; on one they come back in the order sent, so every run is the same. */
export function connect(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  // An idle connection the server closes reports here; the next query connects again. A query's own failure still
  // rejects that query.
  pool.on('error', () => undefined);
  return pool;
}

const spare: pg.Pool[] = [];
const urls = new WeakMap<pg.Pool, string>();
/** Worlds a connection has served. A server process that has created and dropped thousands of schemas was seen to
 * slow down, so a connection serves a bounded number of worlds (the cost of connecting, shared by that many). */
const served = new WeakMap<pg.Pool, number>();
const MAX_WORLDS_PER_CONNECTION = 100;
const idle = (pool: pg.Pool) => !pool.ending && pool.waitingCount === 0 && pool.idleCount === pool.totalCount;

/** A connection for a new world: a closed world's idle one, or a new one. */
export function takeConnection(url: string): pg.Pool {
  const i = spare.findIndex((p) => urls.get(p) === url && idle(p));
  const pool = i >= 0 ? spare.splice(i, 1)[0]! : connect(url);
  urls.set(pool, url);
  return pool;
}

/** Drops a world's schema and keeps its connection for the next world when nothing is left running on it. */
export async function dropSchema(url: string, pool: pg.Pool, schema: string): Promise<void> {
  const on = pool.ending ? connect(url) : pool;
  try {
    await on.query(`DROP SCHEMA IF EXISTS ${quote(schema)} CASCADE`);
  } finally {
    const worlds = (served.get(pool) ?? 0) + 1;
    served.set(pool, worlds);
    if (on === pool && idle(pool) && worlds < MAX_WORLDS_PER_CONNECTION) {
      urls.set(pool, url);
      spare.push(pool);
    } else {
      await on.end();
    }
  }
}

/** Closes the spare connections: nothing of a finished cell stays open on the server. */
export async function releaseConnections(): Promise<void> {
  await Promise.allSettled(spare.splice(0).map((p) => p.end()));
}
