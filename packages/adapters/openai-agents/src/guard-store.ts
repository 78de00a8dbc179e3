// The approval guard's records (guarded wirings), in the same kind of store as the run state: in memory, gone with the
// process like the in-memory run state, or in a SQLite file beside it, durable across a restart.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { memoryGuardRecords, sqliteGuardRecords, type GuardRecords } from '@approval-conformance/core/kit';

export function openGuardRecords(kind: string, scratchDir: () => string): GuardRecords {
  if (kind === 'memory') return memoryGuardRecords();
  if (kind === 'sqlite') return sqliteGuardRecords(new Database(join(scratchDir(), 'guard.sqlite')));
  throw new Error(`unknown store '${kind}'; the OpenAI Agents adapter has memory, sqlite`);
}
