// The Vercel AI SDK as an adapter: three approval wirings on the generateText and streamText paths, and the
// documented one of each release line with the approval guard added (generateText), and useChat's two ways of keeping
// the UIMessages (ui-*: the SDK's own client against the route), over an in-memory or SQLite chat store, for any
// installed version.
import { wiringInfo, type Adapter } from '@approval-conformance/core/contract';
import { detectFeatures } from './features.js';
import type { AiLib } from './lib.js';
import { WIRINGS } from './wirings.js';
import { createUiWorld } from './ui-world.js';
import { createWorld } from './world.js';

export async function aiSdkAdapter(lib: AiLib): Promise<Adapter> {
  const features = await detectFeatures(lib);
  return {
    framework: 'ai',
    version: lib.version,
    wirings: WIRINGS.map(wiringInfo),
    stores: ['memory', 'sqlite'],
    // The signed wiring's HMACs are WebCrypto jobs on the thread pool.
    awaitsNativeWork: true,
    // One route and one chat store serve every turn (a UI wiring's turns are tabs opened on the same history).
    turnsAlike: () => true,
    applicability(scenario, wiringId) {
      if (scenario === 'late-answer') return { applicable: false, reason: 'not modelled yet for this framework: what its runtime does once its own wait for an answer has passed (issue 57)' };
      const wiring = WIRINGS.find((w) => w.id === wiringId);
      if (!wiring) return { applicable: false, reason: `no wiring '${wiringId}'` };
      const missing = wiring.unavailable(features);
      return missing ? { applicable: false, reason: missing } : { applicable: true };
    },
    async createWorld(env) {
      const wiring = WIRINGS.find((w) => w.id === env.wiring);
      if (!wiring) throw new Error(`unknown wiring '${env.wiring}'; the AI SDK has ${WIRINGS.map((w) => w.id).join(', ')}`);
      return wiring.ui ? createUiWorld(lib, wiring, env) : createWorld(lib, wiring, env);
    },
  };
}
