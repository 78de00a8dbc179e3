// The reference runtime as an adapter: 12 wirings (the switch combinations) over two stores.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Adapter, World } from '@approval-conformance/core';
import { GatedStore } from './gated-store.js';
import { MemoryStore } from './memory-store.js';
import { ReferenceRuntime } from './runtime.js';
import { PostgresStore, postgresUrl } from './postgres-store.js';
import { SqliteStore } from './sqlite-store.js';
import type { ApprovalStore, StoredApproval } from './store.js';
import { WIRING_INFO, WIRINGS } from './wirings.js';

/** Every store the runtime has; `postgres` runs only where a server is configured (see `availableStores`). */
export const STORES = ['memory', 'sqlite', 'postgres'] as const;

/** The stores this process can run: PostgreSQL only with APPROVAL_CONFORMANCE_POSTGRES set. */
export const availableStores = (): string[] => STORES.filter((s) => s !== 'postgres' || postgresUrl() !== undefined);

/** The runtime is versioned with its package (the same file is one level up from src/ and from dist/). */
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

async function openStore(store: string, scratchDir: string): Promise<ApprovalStore> {
  if (store === 'memory') return new MemoryStore();
  if (store === 'sqlite') return new SqliteStore(join(scratchDir, 'approvals.sqlite'));
  if (store === 'postgres') return PostgresStore.open(postgresUrl(), scratchDir);
  throw new Error(`unknown store '${store}'; the reference runtime has ${STORES.join(', ')}`);
}

export const referenceAdapter: Adapter = {
  framework: 'reference',
  version,
  wirings: WIRING_INFO,
  get stores() {
    return availableStores();
  },
  // Every scenario applies: the runtime has a store, a restart, and a store anyone with access can edit.
  applicability: () => ({ applicable: true }),
  async createWorld(env): Promise<World> {
    const switches = WIRINGS.get(env.wiring);
    if (!switches) throw new Error(`unknown wiring '${env.wiring}'; the reference runtime has ${[...WIRINGS.keys()].join(', ')}`);
    // Every store call outside the runtime's gates is awaited through `external`: a server answers later.
    const io = <T>(work: T | Promise<T>) => env.external(Promise.resolve(work));
    let store = await io(openStore(env.store, env.scratchDir));
    const start = () =>
      new ReferenceRuntime(switches, new GatedStore(store, env.gate, env.history, env.external), env, env.history);
    let runtime = start();
    return {
      propose: (turn, request) => runtime.propose(turn, request),
      resume: (turn, answer) => runtime.resume(turn, answer),
      inspect: async (approvalId) => {
        const record = await io(store.read(approvalId));
        return { state: record?.state ?? 'absent', version: record?.version ?? 0 };
      },
      restart: async () => {
        // A new process: the memory store starts empty, the SQLite file is opened again.
        await io(store.close());
        store = await io(openStore(env.store, env.scratchDir));
        runtime = start();
      },
      tamper: async (approvalId, action) => io(store.setAction(approvalId, action)),
      snapshot: async () => ({ records: await io(store.dump()), proposals: runtime.proposals }),
      restore: async (snapshot) => {
        const { records, proposals } = snapshot as { records: StoredApproval[]; proposals: number };
        await io(store.load(records));
        runtime.proposals = proposals;
      },
      close: async () => (store.dispose ? store.dispose() : store.close()),
    };
  },
};
