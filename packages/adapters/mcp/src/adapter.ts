// The adapter for one installed SDK version: its line's wirings, one store (the server keeps what it keeps in
// memory), the scenarios modelled so far, and a fresh world per schedule.
import type { Adapter, ScenarioId } from '@approval-conformance/core/contract';
import type { McpLib } from './lib.js';
import { legacyWorld } from './legacy-world.js';
import { mrtrWorld } from './mrtr-world.js';
import { LEGACY, MRTR } from './wirings.js';

export const STORES = ['memory'] as const;

/**
 * The scenarios this adapter models so far (issue 55 names the rest: overlapping-turns,
 * two-approvals, late-answer, three-tabs): each of these others reads not-applicable, with this reason, never a pass.
 * In `tamper`, a forged accept is every world's (the host relays the human's answer, and a forged one comes the same
 * way); only MRTR's host can also edit the call it answers (legacy's arguments stay in the server's tool handler).
 */
const MODELLED: readonly ScenarioId[] = ['double-resume', 'replay', 'tool-retry', 'world-drift', 'tamper', 'crash-restart'];

export function mcpAdapter(lib: McpLib): Adapter {
  return {
    framework: 'mcp',
    version: lib.version,
    wirings: lib.line === '1' ? LEGACY : MRTR,
    stores: STORES,
    // The SDK arms request timeouts (60 s) on timers: on the virtual clock, they fire only when every turn waits.
    sleeps: true,
    // The codec signs and verifies with WebCrypto, on the thread pool.
    awaitsNativeWork: lib.line === '2',
    applicability(scenario) {
      if (!MODELLED.includes(scenario)) return { applicable: false, reason: `not modelled yet for MCP (issue 55): ${scenario}` };
      return { applicable: true };
    },
    async createWorld(env) {
      if (lib.line === '1') return legacyWorld(env, lib);
      return mrtrWorld(env, lib, env.wiring === 'input-required-codec');
    },
  };
}
