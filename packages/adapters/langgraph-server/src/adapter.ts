// The LangGraph server as an adapter: one wiring per multitask strategy, each resumed two ways, and the guarded one,
// over the server's in-memory state and its file persistence.
import { wiringInfo, type Adapter } from '@approval-conformance/core/contract';
import { detectFeatures } from './features.js';
import type { ServerLib } from './lib.js';
import { serverFor } from './server.js';
import { WIRINGS } from './wirings.js';
import { createWorld } from './world.js';

export const STORES = ['memory', 'file'] as const;

/** The scenarios that restart the server. */
const RESTARTS: ReadonlySet<string> = new Set(['crash-restart', 'crash-restart-no-keys']);

export async function langgraphServerAdapter(lib: ServerLib): Promise<Adapter> {
  const features = detectFeatures(lib);
  // Started here, not in a world: its start reads files, which no gate would explain.
  const server = features.inProcess ? await serverFor(lib) : undefined;
  return {
    framework: 'langgraph-server',
    version: lib.version,
    wirings: WIRINGS.map(wiringInfo),
    stores: [...STORES],
    // One server in one process serves every turn.
    turnsAlike: () => true,
    applicability(scenario, wiringId, store) {
      if (scenario === 'late-answer') return { applicable: false, reason: 'not modelled yet for this framework: what its runtime does once its own wait for an answer has passed (issue 57)' };
      if (!WIRINGS.some((w) => w.id === wiringId)) return { applicable: false, reason: `no wiring '${wiringId}'` };
      if (!(STORES as readonly string[]).includes(store)) return { applicable: false, reason: `no store '${store}'` };
      if (!features.inProcess) {
        return { applicable: false, reason: 'this version cannot be started in-process (@langchain/langgraph-api/server is from 0.0.64)' };
      }
      // The files are read back only when the server starts again: without a restart, the file store's cell is the
      // memory store's, run again.
      if (store === 'file' && !RESTARTS.has(scenario)) {
        return { applicable: false, reason: 'the server reads its files back only when it restarts, and this scenario never restarts it: the memory store\'s cell says the same' };
      }
      return { applicable: true };
    },
    async createWorld(env) {
      const wiring = WIRINGS.find((w) => w.id === env.wiring);
      if (!wiring) throw new Error(`unknown wiring '${env.wiring}'; the LangGraph server has ${WIRINGS.map((w) => w.id).join(', ')}`);
      if (!server) throw new Error(`the LangGraph server ${lib.version} cannot be started in-process`);
      return createWorld(server, wiring, env);
    },
  };
}
