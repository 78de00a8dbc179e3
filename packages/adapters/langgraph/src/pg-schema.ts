// PostgreSQL worlds: each world gets a schema of its own on one connection of its own. Setting a schema up and
// dropping it costs more than most schedules, so a closed world's schema is emptied back to the state the saver's
// setup left and handed, with its idle connection, to the next world of the same cell; `releaseSchemas` drops the
// spare ones when the cell ends. A PostgresSaver's whole state is the rows of its schema's tables, which is also what
// the explorer's setup snapshot copies.
import pg from 'pg';

/** Every table's rows, as JSON text (bytea columns come out as hex, JSONB as JSON). */
export interface SchemaRows {
  readonly tables: readonly { readonly name: string; readonly rows: string }[];
}

export interface SchemaLease {
  readonly url: string;
  readonly schema: string;
  readonly pool: pg.Pool;
  /** The rows right after the saver's first setup of this schema: what a reused schema is emptied back to. */
  clean?: SchemaRows;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

export async function dumpSchema(pool: pg.Pool, schema: string): Promise<SchemaRows> {
  const { rows: names } = await pool.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY 1`,
    [schema],
  );
  const tables = [];
  for (const { name } of names) {
    const t = `${quote(schema)}.${quote(name)}`;
    const { rows } = await pool.query<{ rows: string }>(`SELECT coalesce(json_agg(t), '[]')::text AS rows FROM ${t} t`);
    tables.push({ name, rows: rows[0]!.rows });
  }
  return { tables };
}

/** Puts dumped rows back in one round trip: each table emptied and filled from the JSON, in one transaction. */
export async function loadSchema(pool: pg.Pool, schema: string, dump: SchemaRows): Promise<void> {
  const sql = dump.tables.map(({ name, rows }) => {
    const t = `${quote(schema)}.${quote(name)}`;
    return `DELETE FROM ${t}; INSERT INTO ${t} SELECT * FROM json_populate_recordset(NULL::${t}, ${literal(rows)}::json);`;
  });
  await pool.query(sql.join('\n'));
}

/** One connection: LangGraph fires writes without awaiting them, and on several connections their answers could come
 * back in any order; on one they come back in the order sent, so every run is the same. */
export const connect = (url: string) => new pg.Pool({ connectionString: url, max: 1 });

const spare: SchemaLease[] = [];
let made = 0;

/** A schema and a connection for a new world: a spare one, or a new name (the saver's setup creates it). */
export function leaseSchema(url: string): SchemaLease {
  const i = spare.findIndex((l) => l.url === url);
  if (i >= 0) return spare.splice(i, 1)[0]!;
  return { url, schema: `w_${process.pid}_${++made}`, pool: connect(url) };
}

const idle = (pool: pg.Pool) => pool.waitingCount === 0 && pool.idleCount === pool.totalCount;

/**
 * A world is done with its schema. When its connection is idle (no stopped turn left a query behind) and the schema's
 * clean state is known, the schema is emptied back to it and kept for the next world; otherwise it is dropped.
 */
export async function returnSchema(lease: SchemaLease): Promise<void> {
  if (lease.clean && idle(lease.pool)) {
    try {
      await loadSchema(lease.pool, lease.schema, lease.clean);
      spare.push(lease);
      return;
    } catch {
      // Fall through: drop it.
    }
  }
  await dropSchema(lease);
}

async function dropSchema({ pool, schema }: SchemaLease) {
  try {
    await pool.query(`DROP SCHEMA IF EXISTS ${quote(schema)} CASCADE`);
  } finally {
    await pool.end();
  }
}

/** Drops every spare schema and closes its connection: nothing of a finished cell stays on the server. */
export async function releaseSchemas(): Promise<void> {
  const all = spare.splice(0);
  await Promise.allSettled(all.map(dropSchema));
}
