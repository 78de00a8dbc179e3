// The approval guard's overhead per approval on each backend: propose, approve, and run with a no-op effect (spend and
// settle), timed as one, the way an application pays it for every card a user answers. Median and p95 over N
// approvals after a warm-up; the targets are under 1 ms in memory and under 5 ms on SQLite.
//
//   pnpm bench:guard                      memory, SQLite (a file), and PostgreSQL when a server is available
//   pnpm bench:guard sqlite --n 5000      one backend, more approvals
//
// SQLite runs on a file in the temporary folder, as the store leaves it: WAL, and better-sqlite3's build default for
// WAL, synchronous=NORMAL (no fsync per commit). `sqlite-full` is the same with synchronous=FULL, the setting for
// spends that must survive a power loss: each of the four commits of an approval waits for the disk. PostgreSQL comes from
// APPROVAL_CONFORMANCE_POSTGRES, or a throwaway server scripts/postgres.sh starts, in a schema of its own that is
// dropped after; that server runs with fsync=off, so its numbers are the round trips, not the disk.
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testPostgres } from '@approval-conformance/testkit';
import type BetterSqlite3 from 'better-sqlite3';
import type Pg from 'pg';
import { ApprovalGuard, MemoryGuardStore, type GuardStore } from '../packages/guard/src/index.js';
import { PostgresGuardStore } from '../packages/guard/src/postgres.js';
import { SqliteGuardStore } from '../packages/guard/src/sqlite.js';

// The drivers are the guard package's (dev)dependencies, not the root's.
const require = createRequire(new URL('../packages/guard/package.json', import.meta.url));
const Database = require('better-sqlite3') as typeof BetterSqlite3;
const pg = require('pg') as typeof Pg;

const BACKENDS = ['memory', 'sqlite', 'sqlite-full', 'postgres'] as const;
type Backend = (typeof BACKENDS)[number];
const TARGET_MS: Partial<Record<Backend, number>> = { memory: 1, sqlite: 5, 'sqlite-full': 5 };
const WARMUP = 200;

const args = process.argv.slice(2);
const nAt = args.indexOf('--n');
const n = nAt >= 0 ? Number(args[nAt + 1]) : 2000;
if (!Number.isInteger(n) || n < 20) {
  console.error(`bench:guard: --n takes a whole number of approvals (at least 20), not ${args[nAt + 1] ?? 'nothing'}`);
  process.exit(2);
}
const named = args.filter((a, i) => !(nAt >= 0 && (i === nAt || i === nAt + 1)));
const unknown = named.filter((a) => !(BACKENDS as readonly string[]).includes(a));
if (unknown.length) {
  console.error(`bench:guard: unknown ${unknown.join(', ')}; give backends (${BACKENDS.join(', ')}) or --n N`);
  process.exit(2);
}

/** A store on a fresh backend, and how to take it down. */
async function open(backend: Backend): Promise<{ store: GuardStore; close(): Promise<void> } | string> {
  if (backend === 'memory') return { store: new MemoryGuardStore(), close: async () => {} };
  if (backend === 'sqlite' || backend === 'sqlite-full') {
    const dir = await mkdtemp(join(tmpdir(), 'ac-bench-guard-'));
    const db = new Database(join(dir, 'guard.sqlite'));
    if (backend === 'sqlite-full') db.pragma('synchronous = FULL');
    return {
      store: new SqliteGuardStore(db),
      close: async () => {
        db.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const { url, reason } = testPostgres();
  if (!url) return reason!;
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const schema = `bench_guard_${process.pid}`;
  await pool.query(`CREATE SCHEMA ${schema}`);
  return {
    store: new PostgresGuardStore(pool, { table: `${schema}.approval_guard` }),
    close: async () => {
      await pool.query(`DROP SCHEMA ${schema} CASCADE`);
      await pool.end();
    },
  };
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

console.log(`${'backend'.padEnd(12)} ${'median'.padStart(10)} ${'p95'.padStart(10)} ${'max'.padStart(10)}   (ms per approval: propose + approve + run, ${n} approvals after ${WARMUP})`);
for (const backend of named.length ? (named as Backend[]) : BACKENDS) {
  const opened = await open(backend);
  if (typeof opened === 'string') {
    console.log(`${backend.padEnd(12)} skipped: ${opened}`);
    continue;
  }
  const guard = new ApprovalGuard(opened.store);
  const times: number[] = [];
  try {
    for (let i = 0; i < WARMUP + n; i++) {
      const id = `bench-${i}`;
      const action = { tool: 'transfer', args: { from: 'acct-1', to: 'acct-2', amount: i }, targets: ['acct-1', 'acct-2'] };
      const start = process.hrtime.bigint();
      const card = await guard.propose(id, action, 'w1');
      await guard.approve(id, card.fingerprint);
      await guard.run(id, action, 'w1', async (ticket) => ticket.idempotencyKey);
      if (i >= WARMUP) times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  } finally {
    await opened.close();
  }
  times.sort((a, b) => a - b);
  const target = TARGET_MS[backend];
  const p95 = quantile(times, 0.95);
  const verdict = target === undefined ? '' : `   target < ${target} ms: ${p95 < target ? 'met (p95)' : quantile(times, 0.5) < target ? 'met (median only)' : 'MISSED'}`;
  console.log(
    `${backend.padEnd(12)} ${quantile(times, 0.5).toFixed(3).padStart(10)} ${p95.toFixed(3).padStart(10)} ${times[times.length - 1]!.toFixed(3).padStart(10)}${verdict}`,
  );
}
