// Google ADK for TypeScript as an adapter: tool confirmation declared on the tool (2.0) or asked for by the tool,
// with the approval guard added, over the in-memory session service and the database one on PostgreSQL, for any
// installed version from the first.
import { wiringInfo, type Adapter } from '@approval-conformance/core/contract';
import { detectFeatures } from './features.js';
import type { AdkLib } from './lib.js';
import { postgresUrl, PostgresSessions } from './postgres.js';
import { memoryBacking } from './sessions.js';
import { WIRINGS } from './wirings.js';
import { createWorld } from './world.js';

/** Every store the adapter has: `postgres` only where a server is configured (APPROVAL_CONFORMANCE_POSTGRES). */
export const STORES = ['memory', 'postgres'] as const;

export async function adkAdapter(lib: AdkLib): Promise<Adapter> {
  const features = await detectFeatures(lib);
  const postgres = new PostgresSessions(lib);
  return {
    framework: 'adk',
    version: lib.version,
    wirings: WIRINGS.map(wiringInfo),
    get stores() {
      return postgresUrl() ? [...STORES] : ['memory'];
    },
    // One runner and one session service serve every turn.
    turnsAlike: () => true,
    applicability(scenario, wiringId, store) {
      if (scenario === 'late-answer') return { applicable: false, reason: 'not modelled yet for this framework: what its runtime does once its own wait for an answer has passed (issue 57)' };
      const wiring = WIRINGS.find((w) => w.id === wiringId);
      if (!wiring) return { applicable: false, reason: `no wiring '${wiringId}'` };
      if (!(STORES as readonly string[]).includes(store)) return { applicable: false, reason: `no store '${store}'` };
      const missing = features.agentFails ?? wiring.unavailable(features);
      if (missing) return { applicable: false, reason: missing };
      if (store === 'postgres' && !features.database) return { applicable: false, reason: 'this version has no DatabaseSessionService (0.4.0 adds it)' };
      return { applicable: true };
    },
    async createWorld(env) {
      const wiring = WIRINGS.find((w) => w.id === env.wiring);
      if (!wiring) throw new Error(`unknown wiring '${env.wiring}'; ADK has ${WIRINGS.map((w) => w.id).join(', ')}`);
      if (env.store === 'memory') return createWorld(lib, wiring, env, memoryBacking(lib));
      if (env.store === 'postgres') return createWorld(lib, wiring, env, postgres.backing());
      throw new Error(`unknown store '${env.store}'; ADK has ${STORES.join(', ')}`);
    },
    release: () => postgres.release(),
  };
}
