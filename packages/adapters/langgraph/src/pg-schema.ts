// PostgreSQL worlds: each world gets a schema of its own on one connection of its own. Setting a schema up and
// dropping it costs more than most schedules, so a closed world's schema is emptied back to the state the saver's
// setup left and handed, with its idle connection, to the next world of the same cell; `releaseSchemas` drops the
// spare ones when the cell ends. A PostgresSaver's whole state is the rows of its schema's tables, which is also what
// the explorer's setup snapshot copies.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Every table's rows, as JSON text (bytea columns come out as hex, JSONB as JSON), in the tables' physical order. */
export interface SchemaRows {
  readonly tables: readonly { readonly name: string; readonly rows: string }[];
}

export interface SchemaLease {
  readonly url: string;
  /** Whose schema it is (the saver class): a spare goes only to a world of the same saver. */
  readonly owner: unknown;
  readonly schema: string;
  readonly pool: pg.Pool;
  /** The rows right after the saver's first setup of this schema: what a reused schema is emptied back to. */
  clean?: SchemaRows;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A dollar-quoted literal, whatever the server's string settings; the tag is one the text does not contain. */
function literal(text: string): string {
  let tag = 'j';
  while (text.includes(`$${tag}$`)) tag = `j${randomBytes(4).toString('hex')}`;
  return `$${tag}$${text}$${tag}$`;
}

/** The schema's relations (tables, sequences, views), sorted: a reused schema must still have exactly these. */
async function relationsOf(pool: pg.Pool, schema: string): Promise<{ name: string; kind: string }[]> {
  const { rows } = await pool.query<{ name: string; kind: string }>(
    `SELECT c.relname AS name, c.relkind::text AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'S', 'v', 'm', 'f') ORDER BY 1`,
    [schema],
  );
  return rows;
}

/** Every table's rows, read in one statement (one snapshot of the schema). */
export async function dumpSchema(pool: pg.Pool, schema: string): Promise<SchemaRows> {
  const names = (await relationsOf(pool, schema)).filter((r) => r.kind === 'r').map((r) => r.name);
  if (names.length === 0) return { tables: [] };
  const columns = names.map((name, i) => `(SELECT coalesce(json_agg(t), '[]')::text FROM ${quote(schema)}.${quote(name)} t) AS t${i}`);
  const { rows } = await pool.query<Record<string, string>>(`SELECT ${columns.join(', ')}`);
  return { tables: names.map((name, i) => ({ name, rows: rows[0]![`t${i}`]! })) };
}

/**
 * Puts dumped rows back in one round trip and one transaction: the tables truncated (fresh files, so rows come
 * back in the order they are inserted, as in a new table, and no dead rows pile up), then filled from the JSON.
 */
export async function loadSchema(pool: pg.Pool, schema: string, dump: SchemaRows): Promise<void> {
  if (dump.tables.length === 0) return;
  const tables = dump.tables.map(({ name }) => `${quote(schema)}.${quote(name)}`);
  const fill = dump.tables.map(
    ({ rows }, i) => `INSERT INTO ${tables[i]} SELECT * FROM json_populate_recordset(NULL::${tables[i]}, ${literal(rows)}::json);`,
  );
  await pool.query(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY;\n${fill.join('\n')}`);
}

/** One connection: LangGraph fires writes without awaiting them, and on several connections their answers could come
 * back in any order; on one they come back in the order sent, so every run is the same. */
export const connect = (url: string) => new pg.Pool({ connectionString: url, max: 1 });

const spare: SchemaLease[] = [];

/**
 * A schema and a connection for a new world: a spare of the same saver, or a new name no other process can have
 * used (a killed worker leaves its schemas behind, and its pid comes back), which the saver's setup creates.
 */
export function leaseSchema(url: string, owner: unknown): SchemaLease {
  const i = spare.findIndex((l) => l.url === url && l.owner === owner);
  if (i >= 0) return spare.splice(i, 1)[0]!;
  return { url, owner, schema: `w_${process.pid}_${randomBytes(6).toString('hex')}`, pool: connect(url) };
}

const idle = (pool: pg.Pool) => !pool.ending && pool.waitingCount === 0 && pool.idleCount === pool.totalCount;

/**
 * A world is done with its schema. When its connection is idle (no query left behind), the schema still has just
 * the relations setup made, and its clean state is known, it is emptied back to that state and kept for the next
 * world; otherwise it is dropped.
 */
export async function returnSchema(lease: SchemaLease): Promise<void> {
  if (lease.clean && idle(lease.pool)) {
    try {
      const now = await relationsOf(lease.pool, lease.schema);
      const tables = now.filter((r) => r.kind === 'r').map((r) => r.name);
      const same = now.length === tables.length && tables.join('\0') === lease.clean.tables.map((t) => t.name).join('\0');
      if (same) {
        await loadSchema(lease.pool, lease.schema, lease.clean);
        spare.push(lease);
        return;
      }
    } catch {
      // Fall through: drop it.
    }
  }
  await dropSchema(lease);
}

/** Drops the schema (on a new connection if the world's has ended) and closes the connection. */
export async function dropSchema({ url, pool, schema }: Pick<SchemaLease, 'url' | 'pool' | 'schema'>): Promise<void> {
  const on = pool.ending ? connect(url) : pool;
  try {
    await on.query(`DROP SCHEMA IF EXISTS ${quote(schema)} CASCADE`);
  } finally {
    await on.end();
  }
}

/** Drops every spare schema and closes its connection: nothing of a finished cell stays on the server. */
export async function releaseSchemas(): Promise<void> {
  const all = spare.splice(0);
  await Promise.allSettled(all.map(dropSchema));
}
