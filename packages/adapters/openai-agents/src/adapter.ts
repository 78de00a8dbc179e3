// OpenAI Agents JS as an adapter: the RunState human-in-the-loop pattern on the run() and streaming paths, with tool
// errors rethrown, and with the approval guard added, over an in-memory or SQLite state store, for any installed
// version from the first.
import { wiringInfo, type Adapter } from '@approval-conformance/core/contract';
import { detectFeatures } from './features.js';
import type { AgentsLib } from './lib.js';
import { WIRINGS } from './wirings.js';
import { createWorld } from './world.js';

export async function openaiAgentsAdapter(lib: AgentsLib): Promise<Adapter> {
  // No network: traces are never exported.
  lib.agents['setTracingDisabled']?.(true);
  const features = await detectFeatures(lib);
  return {
    framework: 'openai-agents',
    version: lib.version,
    wirings: WIRINGS.map(wiringInfo),
    stores: ['memory', 'sqlite'],
    // One agent and one state store serve every turn.
    turnsAlike: () => true,
    applicability(scenario, wiringId) {
      if (scenario === 'late-answer') return { applicable: false, reason: 'not modelled yet for this framework: what its runtime does once its own wait for an answer has passed (issue 57)' };
      const wiring = WIRINGS.find((w) => w.id === wiringId);
      if (!wiring) return { applicable: false, reason: `no wiring '${wiringId}'` };
      const missing = wiring.unavailable(features);
      if (missing) return { applicable: false, reason: missing };
      if (wiring.onlyFor && !wiring.onlyFor.scenarios.includes(scenario)) return { applicable: false, reason: wiring.onlyFor.reason };
      return { applicable: true };
    },
    async createWorld(env) {
      const wiring = WIRINGS.find((w) => w.id === env.wiring);
      if (!wiring) throw new Error(`unknown wiring '${env.wiring}'; OpenAI Agents has ${WIRINGS.map((w) => w.id).join(', ')}`);
      return createWorld(lib, features, wiring, env);
    },
  };
}
