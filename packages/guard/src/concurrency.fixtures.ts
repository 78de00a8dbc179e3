// A process for concurrency.test.ts: opens the SQLite file DB (where the test proposed and approved approvals 0..N-1),
// says `ready`, waits for the test's `go` (so that two of these start together, set by messages, not by a delay), then
// runs every approval as fast as it can, in order. Each effect appends `ID PID` to LOG (one small O_APPEND write, so
// lines from two processes never mix); the process reports which approvals it won and which it was refused.
//
//   node --import tsx --conditions=@approval-conformance/source concurrency.fixtures.ts DB LOG N
import { appendFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { GuardError } from './errors.js';
import type { GuardedAction } from './fingerprint.js';
import { ApprovalGuard } from './guard.js';
import { SqliteGuardStore } from './sqlite.js';

export const WORLD = 'ledger@1';
export const approvalId = (i: number) => `approval-${i}`;
export const actionOf = (i: number): GuardedAction => ({ tool: 'transfer', args: { to: `acct-${i}`, amount: i }, targets: [`acct-${i}`] });

export type FromChild =
  | { readonly type: 'ready' }
  | { readonly type: 'done'; readonly won: readonly number[]; readonly refused: readonly number[] }
  | { readonly type: 'failed'; readonly message: string };

const send = (message: FromChild) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

async function main(): Promise<void> {
  const [file, log, count] = process.argv.slice(2);
  const n = Number(count);
  if (!file || !log || !Number.isInteger(n)) throw new Error('usage: concurrency.fixtures.ts DB LOG N');
  const db = new Database(file);
  const guard = new ApprovalGuard(new SqliteGuardStore(db));
  const go = new Promise<void>((resolve) => process.once('message', () => resolve()));
  await send({ type: 'ready' });
  await go;
  const won: number[] = [];
  const refused: number[] = [];
  for (let i = 0; i < n; i++) {
    try {
      await guard.run(approvalId(i), actionOf(i), WORLD, async (ticket) => appendFileSync(log, `${ticket.approvalId} ${process.pid}\n`));
      won.push(i);
    } catch (error) {
      // The one refusal a lost race may give: the other process spent it first.
      if (!(error instanceof GuardError && error.code === 'already-spent')) throw error;
      refused.push(i);
    }
  }
  db.close();
  await send({ type: 'done', won, refused });
}

// Run as the child's script, not when the test imports the shared names above.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    () => process.disconnect(),
    async (error: unknown) => {
      await send({ type: 'failed', message: String((error as Error).stack ?? error) });
      process.exit(1);
    },
  );
}
