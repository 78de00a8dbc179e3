// Mastra as an adapter: an agent's tool approvals and a workflow's suspend/resume, each as documented and with the
// approval guard, over Mastra's own snapshot storage (in memory, a LibSQL file, the file shared by two Mastra
// instances), for any installed version, by feature detection.
import { wiringInfo, type Adapter } from '@approval-conformance/core/contract';
import { detectFeatures } from './features.js';
import type { MastraLib } from './lib.js';
import { processes, STORES, storeKind } from './stores.js';
import { WIRINGS } from './wirings.js';
import { createWorld } from './world.js';
import { weakenZodRegistry } from './zod-registry.js';

export async function mastraAdapter(lib: MastraLib): Promise<Adapter> {
  const features = await detectFeatures(lib);
  // A long cell runs tens of thousands of worlds in one process: see zod-registry.ts.
  await weakenZodRegistry(lib.dir);
  return {
    framework: 'mastra',
    // Mastra imports modules lazily (import('p-map') on every model call); under module-loader hooks that run off
    // the main thread (tsx) each import() waits for a message from that thread, which the scheduler must wait for.
    awaitsNativeWork: true,
    // A resume of a run another request is running polls its snapshot (every 25 ms, for up to 2 s) until it moves on.
    sleeps: true,
    version: lib.version,
    wirings: WIRINGS.map(wiringInfo),
    stores: [...STORES],
    // On libsql-shared, t2 is served by a second Mastra instance over the same file, while t1's instance ran the
    // setup and caches the run: the two turns are not the same code on the same objects.
    turnsAlike: (_wiring, store) => processes(storeKind(store)) === 1,
    applicability(scenario, wiringId) {
      if (scenario === 'late-answer') return { applicable: false, reason: 'not modelled yet for this framework: what its runtime does once its own wait for an answer has passed (issue 57)' };
      const wiring = WIRINGS.find((w) => w.id === wiringId);
      if (!wiring) return { applicable: false, reason: `no wiring '${wiringId}'` };
      const missing = wiring.unavailable(features);
      return missing ? { applicable: false, reason: missing } : { applicable: true };
    },
    async createWorld(env) {
      const wiring = WIRINGS.find((w) => w.id === env.wiring);
      if (!wiring) throw new Error(`unknown wiring '${env.wiring}'; Mastra has ${WIRINGS.map((w) => w.id).join(', ')}`);
      return createWorld(lib, wiring, env);
    },
  };
}
