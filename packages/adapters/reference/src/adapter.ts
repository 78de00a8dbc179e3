// The reference runtime as an adapter: 12 wirings (the switch combinations) over two stores.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Adapter, type PendingApproval, type World } from '@approval-conformance/core/contract';
import { GatedGuardStore, GuardedApp, virtualNow } from '@approval-conformance/core/kit';
import Database from 'better-sqlite3';
import { MemoryGuardStore, type GuardStore } from '@approval-conformance/guard';
import { SqliteGuardStore } from '@approval-conformance/guard/sqlite';
import { PostgresGuardStore } from '@approval-conformance/guard/postgres';
import { GatedStore } from './gated-store.js';
import { MemoryStore } from './memory-store.js';
import { ReferenceRuntime } from './runtime.js';
import { PostgresStore, postgresUrl } from './postgres-store.js';
import { SqliteStore } from './sqlite-store.js';
import type { ApprovalStore, StoredApproval } from './store.js';
import { GUARDED, GUARDED_INFO, WIRING_INFO, WIRINGS } from './wirings.js';

/** Every store the runtime has; `postgres` runs only where a server is configured (see `availableStores`). */
export const STORES = ['memory', 'sqlite', 'postgres'] as const;

/** How long the reference runtime waits for an answer (late-answer): a minute, as a request's timeout often is. */
export const ANSWER_TIMEOUT = 60_000;

/** The stores this process can run: PostgreSQL only with APPROVAL_CONFORMANCE_POSTGRES set. */
export const availableStores = (): string[] => STORES.filter((s) => s !== 'postgres' || postgresUrl() !== undefined);

/** The runtime is versioned with its package (the same file is one level up from src/ and from dist/). */
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

async function openStore(store: string, scratchDir: () => string): Promise<ApprovalStore> {
  if (store === 'memory') return new MemoryStore();
  if (store === 'sqlite') return new SqliteStore(join(scratchDir(), 'approvals.sqlite'));
  if (store === 'postgres') return PostgresStore.open(postgresUrl(), scratchDir());
  throw new Error(`unknown store '${store}'; the reference runtime has ${STORES.join(', ')}`);
}

/** The guard's records, in the same kind of store as the runtime's: gone with the process in memory, durable otherwise. */
async function openGuardStore(store: string, scratchDir: () => string, runtimeStore: ApprovalStore): Promise<{ store: GuardStore; close(): void }> {
  if (store === 'memory') return { store: new MemoryGuardStore(), close: () => {} };
  if (store === 'sqlite') {
    const db = new Database(join(scratchDir(), 'guard.sqlite'));
    // As the runtime's own store (sqlite-store.ts): no fsync in a world's scratch database.
    db.pragma('synchronous = OFF');
    return { store: new SqliteGuardStore(db), close: () => db.close() };
  }
  if (store === 'postgres') {
    const pgStore = runtimeStore as PostgresStore;
    return { store: new PostgresGuardStore(pgStore.queryable, { table: `${pgStore.schema}.approval_guard` }), close: () => {} };
  }
  throw new Error(`unknown store '${store}'`);
}

export const referenceAdapter: Adapter = {
  framework: 'reference',
  version,
  wirings: [...WIRING_INFO, ...GUARDED_INFO],
  get stores() {
    return availableStores();
  },
  // One runtime and one store handle serve every turn.
  turnsAlike: () => true,
  // Every scenario applies: the runtime has a store, a restart, and a store anyone with access can edit.
  applicability: () => ({ applicable: true }),
  async createWorld(env): Promise<World> {
    const switches = WIRINGS.get(env.wiring) ?? GUARDED.get(env.wiring);
    if (!switches) throw new Error(`unknown wiring '${env.wiring}'; the reference runtime has ${[...WIRINGS.keys(), ...GUARDED.keys()].join(', ')}`);
    const isGuarded = GUARDED.has(env.wiring);
    // Every store call outside the runtime's gates is awaited through `external`: a server answers later.
    const io = <T>(work: T | Promise<T>) => env.external(Promise.resolve(work));
    let store = await io(openStore(env.store, () => env.scratchDir));
    // Guarded: the guard's store, and the client's copy of each card's fingerprint (the client outlives a restart).
    let guard = isGuarded ? await io(openGuardStore(env.store, () => env.scratchDir, store)) : undefined;
    const cards = new Map<string, string>();
    // Each start is a new process, named for the guard's recovery (it redelivers what a process now gone left pending).
    let incarnation = 0;
    const start = () =>
      new ReferenceRuntime(
        switches,
        new GatedStore(store, env.gate, env.history, env.external, { report: !isGuarded, accessed: env.accessed }),
        env,
        env.history,
        guard && new GuardedApp(new GatedGuardStore(guard.store, env.gate, io, env.history), env.backend, cards, `p${++incarnation}`),
      );
    let runtime = start();
    // When each pending approval was proposed, on the run's virtual clock (none outside one: there no time passes).
    // An answer that comes more than ANSWER_TIMEOUT later is refused: the runtime stopped waiting for it.
    let proposedAt = new Map<string, number>();
    const noted = (pending: PendingApproval | undefined) => {
      const at = virtualNow();
      if (pending && at !== undefined) proposedAt.set(pending.approvalId, at);
      return pending;
    };
    const world: World = {
      propose: async (turn, request) => noted(await runtime.propose(turn, request)),
      proposeMany: async (turn, requests) => {
        const all = await runtime.proposeMany(turn, requests);
        all?.forEach(noted);
        return all;
      },
      answerTimeout: ANSWER_TIMEOUT,
      async resume(turn, answer) {
        const proposed = proposedAt.get(answer.approvalId);
        const now = virtualNow();
        // Past its wait (the scenario records the expiry): refused, and the user told it did not happen.
        if (proposed !== undefined && now !== undefined && now - proposed > ANSWER_TIMEOUT) return env.connections.disclose(turn, answer.approvalId, 'not-happened');
        return runtime.resume(turn, answer);
      },
      ...(isGuarded ? { approve: (turn: string, approvalId: string) => runtime.approve(turn, approvalId) } : {}),
      inspect: async (approvalId) => {
        const record = await io(store.read(approvalId));
        return { state: record?.state ?? 'absent', version: record?.version ?? 0 };
      },
      restart: async () => {
        // A new process: the memory store starts empty, the SQLite file is opened again.
        await io(store.close());
        guard?.close();
        store = await io(openStore(env.store, () => env.scratchDir));
        guard = isGuarded ? await io(openGuardStore(env.store, () => env.scratchDir, store)) : undefined;
        runtime = start();
      },
      tamper: async (approvalId, action) => io(store.setAction(approvalId, action)),
      // The records and the guard's, by the keys the gates declare; not on a server, where reading them costs a query.
      ...(env.store === 'postgres'
        ? {}
        : {
            contents: async () => ({
              ...Object.fromEntries((await io(store.dump())).map((r) => [`record:${r.approvalId}`, JSON.stringify(r)])),
              ...(guard?.store instanceof MemoryGuardStore ? Object.fromEntries(guard.store.records().map((r) => [`guard:${r.id}`, JSON.stringify(r)])) : {}),
            }),
          }),
      snapshot: async () => ({ records: await io(store.dump()), proposals: runtime.proposals, proposedAt: [...proposedAt] }),
      restore: async (snapshot) => {
        const { records, proposals, proposedAt: at } = snapshot as { records: StoredApproval[]; proposals: number; proposedAt: [string, number][] };
        await io(store.load(records));
        runtime.proposals = proposals;
        proposedAt = new Map(at);
      },
      close: async () => {
        guard?.close();
        await (store.dispose ? store.dispose() : store.close());
      },
    };
    // The setup snapshot holds the runtime's records only: a guarded world runs its setup every schedule.
    const { snapshot: _snapshot, restore: _restore, ...unsnapshotted } = world;
    return isGuarded ? unsnapshotted : world;
  },
};
