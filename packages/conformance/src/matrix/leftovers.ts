// A worker stopped mid-unit (past --timeout, or crashed) cannot drop the PostgreSQL schemas its worlds made. The
// runner gives each worker a random tag, and worlds name their schemas `w_<tag>_...` (core's worldNamePrefix), so
// the runner drops exactly that worker's once it is gone, even on a server other runners share. Nor can it remove
// the temporary folders its worlds and frameworks made: each worker gets a temporary folder of its own (TMPDIR),
// which the runner removes once it is gone.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** A fresh tag for a worker process: lowercase hex, valid in an unquoted identifier. */
export const newWorkerTag = () => randomBytes(6).toString('hex');

/**
 * Drops the schemas and databases of the worker with this tag; how many it dropped. Best effort and bounded in time: a server that
 * is gone or slow is no error here, and never holds up the run for long.
 */
export async function dropLeftoverSchemas(tag: string): Promise<number> {
  const url = process.env['APPROVAL_CONFORMANCE_POSTGRES'];
  if (!url) return 0;
  let client: pg.Client | undefined;
  try {
    client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, statement_timeout: 10000, lock_timeout: 5000 });
    client.on('error', () => undefined);
    await client.connect();
    const { rows } = await client.query<{ name: string }>(`SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE $1`, [`w\\_${tag}\\_%`]);
    for (const { name } of rows) await client.query(`DROP SCHEMA IF EXISTS "${name.replace(/"/g, '""')}" CASCADE`);
    // A world may have a database of its own (DBOS's): a worker's are named the same way.
    const databases = await client.query<{ name: string }>(`SELECT datname AS name FROM pg_database WHERE datname LIKE $1`, [`w\\_${tag}\\_%`]);
    for (const { name } of databases.rows) await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
    return rows.length + databases.rows.length;
  } catch {
    return 0;
  } finally {
    await client?.end().catch(() => undefined);
  }
}

/**
 * A temporary folder for one worker process, and the environment that makes it the worker's `os.tmpdir()`; `remove`
 * deletes it with whatever the worker left there (call it once the worker has exited).
 */
export function workerTmp(): { readonly env: Record<string, string>; readonly remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'approval-conformance-worker-'));
  // Run from source, a worker compiles the suite's TypeScript through tsx, which caches it in tmpdir()/tsx-<uid>: the
  // worker's folder links to the shared cache, so that each worker does not compile everything again (removing the
  // folder removes the link, not the cache).
  try {
    symlinkSync(join(tmpdir(), `tsx-${userInfo().uid}`), join(dir, `tsx-${userInfo().uid}`), 'dir');
  } catch {
    // No link (no uid here, or links not allowed): tsx compiles into the worker's folder instead.
  }
  // A runner that exits first (Ctrl-C stops its workers and leaves) removes it on the way out.
  if (!hooked) process.once('exit', removeLive);
  hooked = true;
  live.add(dir);
  const remove = () => {
    live.delete(dir);
    removeQuietly(dir);
  };
  return { env: { TMPDIR: dir, TMP: dir, TEMP: dir }, remove };
}

/** The workers' temporary folders not removed yet. */
const live = new Set<string>();
let hooked = false;

function removeLive(): void {
  for (const dir of live) removeQuietly(dir);
  live.clear();
}

/**
 * A worker may still be writing in its folder as the runner removes it: the runner leaves at Ctrl-C before its workers
 * see it gone (each exits between two worlds or inside one), and a process a killed worker started may outlive it. A
 * world's scratch folder made during the removal leaves the folder not empty: try again a few times, then leave it in
 * the system's temporary folder rather than end the run on a stack trace.
 */
function removeQuietly(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
  } catch {
    // Left behind in tmp.
  }
}
