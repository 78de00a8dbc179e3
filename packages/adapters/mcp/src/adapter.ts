// The adapter for one installed SDK version: its line's wirings, the stores of the guard's records (the unguarded
// wirings keep nothing on the server), the scenarios modelled so far, and a fresh world per schedule.
import { isGuardedWiring, type Adapter, type ScenarioId } from '@approval-conformance/core/contract';
import type { McpLib } from './lib.js';
import { hasUrlElicitation, legacyWorld } from './legacy-world.js';
import { mrtrWorld } from './mrtr-world.js';
import { LEGACY, MRTR } from './wirings.js';

export const STORES = ['memory', 'sqlite'] as const;

/**
 * The scenarios this adapter models: each other reads not-applicable, with this reason, never a pass. `late-answer`
 * waits out the 1.x request timeout (60 s) and the codec's time to live (600 s). In `tamper`, a forged accept is every world's (the host
 * relays the human's answer, and a forged one comes the same way); only MRTR's host can also edit the call it answers
 * (legacy's arguments stay in the server's tool handler).
 */
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

/** The wirings a version has: the guarded ones need URL-mode elicitation (1.x from the release that has it). */
export function wiringsOf(lib: McpLib) {
  if (lib.line === '2') return lib.server['inputRequired']?.elicitUrl ? MRTR : MRTR.filter((w) => !isGuardedWiring(w.id));
  return hasUrlElicitation(lib) ? LEGACY : LEGACY.filter((w) => !isGuardedWiring(w.id));
}

export function mcpAdapter(lib: McpLib): Adapter {
  return {
    framework: 'mcp',
    version: lib.version,
    wirings: wiringsOf(lib),
    stores: STORES,
    // The SDK arms request timeouts (60 s) on timers: on the virtual clock, they fire only when every turn waits.
    sleeps: true,
    // The codec signs and verifies with WebCrypto, on the thread pool.
    awaitsNativeWork: lib.line === '2',
    applicability(scenario, wiring, store) {
      if (!(STORES as readonly string[]).includes(store)) return { applicable: false, reason: `no store '${store}'` };
      if (!MODELLED.includes(scenario)) return { applicable: false, reason: `not modelled for MCP: ${scenario}` };
      if (scenario === 'late-answer' && lib.line === '2' && !wiring.endsWith('-codec')) {
        return { applicable: false, reason: 'nothing expires: the server keeps nothing pending between rounds, and a request state without the codec has no time to live, so a late answer is an answer' };
      }
      if (store !== 'memory' && !isGuardedWiring(wiring)) {
        return { applicable: false, reason: 'the wiring keeps nothing on the server but the open request, in memory: the memory store\'s cell says the same' };
      }
      return { applicable: true };
    },
    async createWorld(env) {
      const guarded = isGuardedWiring(env.wiring);
      if (lib.line === '1') return legacyWorld(env, lib, guarded);
      return mrtrWorld(env, lib, env.wiring.endsWith('-codec'), guarded);
    },
  };
}
