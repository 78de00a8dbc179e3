// The approval guard's records (guarded wirings), in the same kind of store as Mastra's: in memory, gone with the
// process like an InMemoryStore, or in a SQLite file beside the LibSQL one, durable across a restart.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { memoryGuardRecords, sqliteGuardRecords, type GuardRecords } from '@approval-conformance/core/kit';
import { STORES } from './stores.js';

export function openGuardRecords(kind: string, scratchDir: () => string): GuardRecords {
  if (kind === 'memory') return memoryGuardRecords();
  if (kind === 'libsql' || kind === 'libsql-shared') return sqliteGuardRecords(new Database(join(scratchDir(), 'guard.sqlite')));
  throw new Error(`unknown store '${kind}'; the Mastra adapter has ${STORES.join(', ')}`);
}
