// LangGraph.js as an adapter: four wirings and two guarded ones over MemorySaver, SqliteSaver and PostgresSaver, for
// any installed version.
import { wiringInfo, type Adapter } from '@approval-conformance/core/contract';
import { detectFeatures } from './features.js';
import type { LangGraphLib } from './lib.js';
import { WIRINGS } from './wirings.js';
import { releaseConnections } from './pg-schema.js';
import { createWorld, postgresUrl } from './world.js';

export async function langgraphAdapter(lib: LangGraphLib): Promise<Adapter> {
  const features = await detectFeatures(lib);
  return {
    framework: 'langgraph',
    version: lib.version,
    wirings: WIRINGS.map(wiringInfo),
    // PostgreSQL only where a server is configured (APPROVAL_CONFORMANCE_POSTGRES).
    get stores() {
      return postgresUrl() ? ['memory', 'sqlite', 'postgres'] : ['memory', 'sqlite'];
    },
    // One graph and one saver serve every turn.
    turnsAlike: () => true,
    applicability(scenario, wiringId, store) {
      if (scenario === 'late-answer') return { applicable: false, reason: 'not modelled yet for this framework: what its runtime does once its own wait for an answer has passed (issue 57)' };
      const wiring = WIRINGS.find((w) => w.id === wiringId);
      if (!wiring) return { applicable: false, reason: `no wiring '${wiringId}'` };
      const missing = wiring.unavailable(features);
      if (missing) return { applicable: false, reason: missing };
      if (store === 'sqlite' && !features.sqlite) {
        return { applicable: false, reason: '@langchain/langgraph-checkpoint-sqlite is not installed' };
      }
      if (store === 'postgres' && !lib.postgres) {
        return { applicable: false, reason: 'no @langchain/langgraph-checkpoint-postgres fits this version' };
      }
      return { applicable: true };
    },
    async createWorld(env) {
      const wiring = WIRINGS.find((w) => w.id === env.wiring);
      if (!wiring) throw new Error(`unknown wiring '${env.wiring}'; LangGraph has ${WIRINGS.map((w) => w.id).join(', ')}`);
      return createWorld(lib, wiring, env);
    },
    // PostgreSQL worlds pass their idle connection to the next world of the cell; the cell's end closes them.
    release: releaseConnections,
  };
}
