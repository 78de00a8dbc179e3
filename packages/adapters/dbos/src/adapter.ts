// The adapter for one installed DBOS version: its wirings, its one store (the system database on PostgreSQL), the
// scenarios modelled, and a fresh world per schedule on a database of its own.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Adapter, ScenarioId } from '@approval-conformance/core/contract';
import { Databases } from './database.js';
import { listenersSince, type DbosLib } from './lib.js';
import { GUARD_TABLE, dbosWorld } from './world.js';
import { WIRINGS } from './wirings.js';

/** DBOS keeps everything in its system database, on PostgreSQL. */
export const STORES = ['postgres'] as const;

/** The scenarios this adapter models: each other reads not-applicable, with this reason, never a pass. */
const MODELLED: readonly ScenarioId[] = [
  'double-resume',
  'replay',
  're-proposal',
  'world-drift',
  'overlapping-turns',
  'error-after-effect',
  'tool-retry',
  'crash-restart',
  'tamper',
  'two-approvals',
  'three-tabs',
  'late-answer',
  'double-resume-no-keys',
  'replay-no-keys',
  'crash-restart-no-keys',
];

/** A fresh database migrated as this version's launch would, with the guard's table beside DBOS's schema. */
async function migrate(lib: DbosLib, url: string): Promise<void> {
  const { DBOS } = lib.sdk;
  if (typeof DBOS.migrate === 'function') {
    // It says so on the console ("Running DBOS system database migrations..."), into a replay's output.
    const log = console.log;
    console.log = () => {};
    try {
      await DBOS.migrate(url);
    } finally {
      console.log = log;
    }
  } else {
    // Its launch's lifecycle listeners go with it, as a world's do.
    const forgetListeners = listenersSince(lib);
    DBOS.setConfig({ name: 'approval-app', systemDatabaseUrl: url, logLevel: 'error' });
    await DBOS.launch();
    await DBOS.shutdown();
    forgetListeners();
  }
  const client = new lib.pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS ${GUARD_TABLE} (id TEXT PRIMARY KEY, version INTEGER NOT NULL, record JSON NOT NULL)`);
  } finally {
    await client.end();
  }
}

export function dbosAdapter(lib: DbosLib): Adapter {
  // The template is migrated outside any run: a version without DBOS.migrate launches DBOS to migrate, and its timers
  // must be real ones, not the virtual clock of the world that first asks for a database.
  const outside = AsyncLocalStorage.snapshot();
  const databases = new Databases(lib, (url) => outside(() => migrate(lib, url)));
  return {
    framework: 'dbos',
    version: lib.version,
    wirings: WIRINGS.map(({ spec: _spec, ...info }) => info),
    stores: STORES,
    // recv and getEvent poll on timers, and the queue runner, the cancel poller and the notifier loop sleep between
    // passes: on the virtual clock, they fire only when every turn waits.
    sleeps: true,
    applicability(scenario, wiring, store) {
      if (!(STORES as readonly string[]).includes(store)) return { applicable: false, reason: `no store '${store}': DBOS keeps its state in PostgreSQL` };
      if (!WIRINGS.some((w) => w.id === wiring)) return { applicable: false, reason: `no wiring '${wiring}'` };
      if (!MODELLED.includes(scenario)) return { applicable: false, reason: `not modelled for DBOS: ${scenario}` };
      return { applicable: true };
    },
    async createWorld(env) {
      const wiring = WIRINGS.find((w) => w.id === env.wiring);
      if (!wiring) throw new Error(`unknown wiring '${env.wiring}'; the DBOS adapter has ${WIRINGS.map((w) => w.id).join(', ')}`);
      return dbosWorld(env, lib, databases, wiring.spec);
    },
    release: () => databases.release(),
    dispose: () => databases.close(),
  };
}
