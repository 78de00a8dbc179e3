// What both lines share: the guard's records (guarded wirings), and what the host tells the user from a tool's result.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { WorldEnv } from '@approval-conformance/core/contract';
import { memoryGuardRecords, sqliteGuardRecords, WorldGuard, type GuardedOutcome } from '@approval-conformance/core/kit';

/**
 * The approval guard's records: in memory, gone with the server's process, or in a SQLite file beside it, durable
 * across a restart. The unguarded wirings keep nothing on the server, so the store is the guard's alone.
 */
export function openGuard(env: WorldEnv): WorldGuard {
  return new WorldGuard(env, () => {
    if (env.store === 'memory') return memoryGuardRecords();
    if (env.store === 'sqlite') return sqliteGuardRecords(new Database(join(env.scratchDir, 'guard.sqlite')));
    throw new Error(`unknown store '${env.store}'; the MCP adapter has memory, sqlite`);
  });
}

type ToolResult = { readonly content?: readonly { readonly text?: string }[]; readonly isError?: boolean };

const textOf = (result: ToolResult) => result.content?.[0]?.text;

/**
 * What the host tells the user of an unguarded tool's result: its text says the transfer was done, or the tool said
 * otherwise (declined), or the call failed (an error result, which the host shows as a failure).
 */
export const told = (result: ToolResult): 'happened' | 'not-happened' => (!result.isError && textOf(result) === 'done' ? 'happened' : 'not-happened');

/** A guarded tool's result is the guard's outcome: ran (now or before), refused, or unknown (it may have run). */
export function guardedTold(result: ToolResult): 'happened' | 'not-happened' | 'unknown' {
  const outcome = textOf(result) as GuardedOutcome | 'declined' | undefined;
  if (result.isError) return 'not-happened';
  if (outcome === 'ran' || outcome === 'ran-before') return 'happened';
  if (outcome === 'unknown') return 'unknown';
  return 'not-happened';
}
