// The approval guard as a guarded world holds it: the guard's records (opened again by a restart, a new process),
// the client's copy of each card's fingerprint (the client outlives a restart), and the app's guard calls, named for
// the process so that the guard's recovery can tell a crashed spender from a live one.
import type { ApprovalRecord } from '@approval-conformance/guard';
import type { WorldEnv } from '../adapter.js';
import { GatedGuardStore } from './gated-guard-store.js';
import { guardContents, type GuardRecords } from './guard-records.js';
import { GuardedApp } from './guarded-app.js';

export interface WorldGuardSnapshot {
  readonly records: ApprovalRecord[];
  readonly cards: [string, string][];
}

export class WorldGuard {
  readonly #env: WorldEnv;
  readonly #open: () => GuardRecords;
  readonly #cards = new Map<string, string>();
  #records: GuardRecords;
  #incarnation = 0;
  #app: GuardedApp;

  constructor(env: WorldEnv, open: () => GuardRecords) {
    this.#env = env;
    this.#open = open;
    this.#records = open();
    this.#app = this.#start();
  }

  #start(): GuardedApp {
    const io = <T>(work: T | Promise<T>) => this.#env.external(Promise.resolve(work));
    const store = new GatedGuardStore(this.#records.store, this.#env.gate, io, this.#env.history);
    return new GuardedApp(store, this.#env.backend, this.#cards, `p${++this.#incarnation}`);
  }

  /** The app's guard calls in the current process. */
  get app(): GuardedApp {
    return this.#app;
  }

  inspect = (approvalId: string) => this.#records.inspect(approvalId);

  /** The guard's records by access key (`guard:a1`): their part of a world's `contents`. */
  contents = () => guardContents(this.#records);

  async snapshot(): Promise<WorldGuardSnapshot> {
    return { records: await this.#records.dump(), cards: [...this.#cards] };
  }

  async restore(snapshot: WorldGuardSnapshot): Promise<void> {
    await this.#records.load(snapshot.records);
    this.#cards.clear();
    for (const [approvalId, fingerprint] of snapshot.cards) this.#cards.set(approvalId, fingerprint);
  }

  /** A new process: the records opened again (memory: gone; SQLite: the file again), the app under a new name. */
  restart(): void {
    this.#records.close();
    this.#records = this.#open();
    this.#app = this.#start();
  }

  close(): void {
    this.#records.close();
  }
}
