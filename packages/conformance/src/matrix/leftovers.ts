// A worker stopped mid-unit (past --timeout, or crashed) cannot drop the PostgreSQL schemas its worlds made. Worlds
// name them `w_<pid>_...` (see ADAPTERS.md), so the runner drops that worker's once it is gone.
import pg from 'pg';

/** Drops the schemas of the worker with this pid; how many it dropped. Best effort: a server gone is no error here. */
export async function dropLeftoverSchemas(pid: number | undefined): Promise<number> {
  const url = process.env['APPROVAL_CONFORMANCE_POSTGRES'];
  if (!url || pid === undefined) return 0;
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string }>(`SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE $1`, [`w\\_${pid}\\_%`]);
    for (const { name } of rows) await client.query(`DROP SCHEMA IF EXISTS "${name.replace(/"/g, '""')}" CASCADE`);
    return rows.length;
  } catch {
    return 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}
