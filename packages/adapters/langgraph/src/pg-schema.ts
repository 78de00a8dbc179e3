// A PostgresSaver's whole state is the rows of its schema's tables: the explorer's setup snapshot copies them out as
// JSON and a fresh world's schema (already set up by the saver) takes them back, so the setup runs once per cell.
import type pg from 'pg';

export interface SchemaRows {
  readonly tables: readonly { readonly name: string; readonly rows: string }[];
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function tablesOf(pool: pg.Pool, schema: string): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY 1`,
    [schema],
  );
  return rows.map((r) => r.name);
}

/** Every table's rows, as JSON text (bytea columns come out as hex, JSONB as JSON). */
export async function dumpSchema(pool: pg.Pool, schema: string): Promise<SchemaRows> {
  const tables = [];
  for (const name of await tablesOf(pool, schema)) {
    const t = `${quote(schema)}.${quote(name)}`;
    const { rows } = await pool.query<{ rows: string }>(`SELECT coalesce(json_agg(t), '[]')::text AS rows FROM ${t} t`);
    tables.push({ name, rows: rows[0]!.rows });
  }
  return { tables };
}

/** Puts dumped rows back: each table emptied, then filled from the JSON in one statement. */
export async function loadSchema(pool: pg.Pool, schema: string, dump: SchemaRows): Promise<void> {
  const have = new Set(await tablesOf(pool, schema));
  for (const { name, rows } of dump.tables) {
    if (!have.has(name)) throw new Error(`the snapshot has table ${name}, which schema ${schema} lacks`);
    const t = `${quote(schema)}.${quote(name)}`;
    await pool.query(`DELETE FROM ${t}`);
    await pool.query(`INSERT INTO ${t} SELECT * FROM json_populate_recordset(NULL::${t}, $1::json)`, [rows]);
  }
}
