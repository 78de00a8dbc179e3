// The reference runtime as an adapter: 12 wirings (the switch combinations) over two stores.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Adapter, World } from '@approval-conformance/core';
import { GatedStore } from './gated-store.js';
import { MemoryStore } from './memory-store.js';
import { ReferenceRuntime } from './runtime.js';
import { SqliteStore } from './sqlite-store.js';
import type { ApprovalStore, StoredApproval } from './store.js';
import { WIRING_INFO, WIRINGS } from './wirings.js';

export const STORES = ['memory', 'sqlite'] as const;

/** The runtime is versioned with its package (the same file is one level up from src/ and from dist/). */
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

function openStore(store: string, scratchDir: string): ApprovalStore {
  if (store === 'memory') return new MemoryStore();
  if (store === 'sqlite') return new SqliteStore(join(scratchDir, 'approvals.sqlite'));
  throw new Error(`unknown store '${store}'; the reference runtime has ${STORES.join(', ')}`);
}

export const referenceAdapter: Adapter = {
  framework: 'reference',
  version,
  wirings: WIRING_INFO,
  stores: STORES,
  // Every scenario applies: the runtime has a store, a restart, and a store anyone with access can edit.
  applicability: () => ({ applicable: true }),
  async createWorld(env): Promise<World> {
    const switches = WIRINGS.get(env.wiring);
    if (!switches) throw new Error(`unknown wiring '${env.wiring}'; the reference runtime has ${[...WIRINGS.keys()].join(', ')}`);
    let store = openStore(env.store, env.scratchDir);
    const start = () => new ReferenceRuntime(switches, new GatedStore(store, env.gate, env.history), env, env.history);
    let runtime = start();
    return {
      propose: (turn, request) => runtime.propose(turn, request),
      resume: (turn, answer) => runtime.resume(turn, answer),
      inspect: async (approvalId) => {
        const record = store.read(approvalId);
        return { state: record?.state ?? 'absent', version: record?.version ?? 0 };
      },
      restart: async () => {
        // A new process: the memory store starts empty, the SQLite file is opened again.
        store.close();
        store = openStore(env.store, env.scratchDir);
        runtime = start();
      },
      tamper: async (approvalId, action) => store.setAction(approvalId, action),
      snapshot: async () => ({ records: store.dump(), proposals: runtime.proposals }),
      restore: async (snapshot) => {
        const { records, proposals } = snapshot as { records: StoredApproval[]; proposals: number };
        store.load(records);
        runtime.proposals = proposals;
      },
      close: async () => store.close(),
    };
  },
};
