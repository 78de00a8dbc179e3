// The adapter: what the suite runs for one framework version. Its wirings and stores, which scenarios each can run,
// and a fresh world per schedule (world.ts). For a real framework, make it from the version the descriptor loaded
// (`createAdapter(lib)`, the framework's module passed in), so that each installed version has its own.
import type { Adapter } from '@approval-conformance/core/contract';
import { VERSION } from './runtime.js';
import { createWorld } from './world.js';
import { wiring, WIRINGS } from './wirings.js';

/** The stores the framework keeps approvals in: the toy has only its in-memory one. */
export const STORES = ['memory'] as const;

export const adapter: Adapter = {
  framework: '__NAME__',
  version: VERSION,
  wirings: WIRINGS,
  stores: STORES,
  // One agent over one store handle serves every turn of a world.
  turnsAlike: () => true,
  applicability(scenario) {
    // The toy's agent asks for one tool call at a time: it cannot hold two approvals at once.
    if (scenario === 'two-approvals') return { applicable: false, reason: 'the agent pauses on one tool call at a time (no World.proposeMany)' };
    return { applicable: true };
  },
  async createWorld(env) {
    return createWorld(env, wiring(env.wiring));
  },
};
