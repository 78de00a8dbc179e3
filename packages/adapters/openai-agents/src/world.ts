// One world: a fresh state store (in memory, or a SQLite file) behind the app, an agent over the version's model
// (scripted by the adversary) and the tools. The SDK keeps nothing between requests but what the app stores, so a
// restart is a new store over the same file. Guarded wirings add the approval guard's store (of the same kind) and
// the app's guard calls; the guard's record is then the approval's record.
import { type Action, type ProposalRequest, type World, type WorldEnv } from '@approval-conformance/core/contract';
import { WorldGuard, type AppRecordSnapshot, type WorldGuardSnapshot } from '@approval-conformance/core/kit';
import * as app from './app.js';
import type { Features } from './features.js';
import { openGuardRecords } from './guard-store.js';
import type { AgentsLib } from './lib.js';
import { brainReply, buildModel } from './model.js';
import { serverOwnedWorld } from './server-owned.js';
import { openStateStore } from './store.js';
import { editAlone, tamperings } from './tampering.js';
import { buildTools } from './tools.js';
import type { Wiring } from './wirings.js';

/** What the model was asked for and how many approvals it has named: world state a snapshot carries. */
export interface Said {
  request: ProposalRequest;
  /** The further calls of `proposeMany`, made in the same response as the first. */
  parallel?: readonly (readonly Action[])[];
  proposals: number;
}

/** `proposeMany` for either kind of world: the model calls every tool in one response, then the run pauses on all. */
export async function proposeInOne<T>(said: Said, requests: readonly ProposalRequest[], propose: () => Promise<T>): Promise<T | undefined> {
  const [first, ...more] = requests;
  if (!first) return undefined;
  said.request = first;
  said.parallel = more.map((r) => r.alternatives);
  try {
    return await propose();
  } finally {
    delete said.parallel;
  }
}

export function createWorld(lib: AgentsLib, features: Features, wiring: Wiring, env: WorldEnv): World {
  const said: Said = { request: { alternatives: [] }, proposals: 0 };

  const guarded = wiring.guarded ? new WorldGuard(env, () => openGuardRecords(env.store, () => env.scratchDir)) : undefined;
  const guard = guarded && (() => guarded.app);

  const model = buildModel(
    lib,
    brainReply({
      model: env.model,
      backend: env.backend,
      history: env.history,
      request: () => said.request,
      parallel: () => said.parallel ?? [],
      nextApproval: () => `a${++said.proposals}`,
    }),
  );
  const { Agent } = lib.agents;
  const agent = new Agent({
    name: 'assistant',
    instructions: 'Do what the user asks with the tools.',
    model,
    tools: buildTools(lib, env.backend, { rethrow: wiring.rethrow, ...(guard ? { guard } : {}) }),
  });
  if (wiring.serverOwned) {
    const noRecord = () => {
      throw new Error('server-owned state keeps no conversation record');
    };
    return serverOwnedWorld({ lib, wiring, agent, store: noRecord, connections: env.connections }, features, env, said);
  }
  const store = openStateStore(env.store, () => env.scratchDir, { gate: env.gate, history: env.history, report: !guarded, accessed: env.accessed });
  const theApp: app.App = {
    lib,
    wiring,
    agent,
    store: () => store,
    connections: env.connections,
    ...(guard ? { guard } : {}),
  };
  const holder = { lib, agent: () => agent, store: () => store };

  const world: World = {
    async propose(turn, req) {
      said.request = req;
      return app.propose(theApp, turn);
    },

    proposeMany: (turn, requests) => proposeInOne(said, requests, () => app.proposeAll(theApp, turn)),

    approve: (turn, approvalId) => app.approve(theApp, turn, approvalId),

    resume: (turn, answer) => app.resume(theApp, turn, [answer]),

    resumeMany: (turn, answers) => app.resume(theApp, turn, answers),

    inspect: async (approvalId) => (guarded ? guarded.inspect(approvalId) : store.inspect(approvalId)),

    contents: async () => ({ ...store.contents(), ...(await guarded?.contents()) }),

    tamper: (approvalId, action) => editAlone(holder, approvalId, action),

    tamperings: tamperings(holder, features.approvalBinding),

    async snapshot() {
      return { store: store.snapshot(), said: { ...said }, ...(guarded ? { guard: await guarded.snapshot() } : {}) };
    },

    async restore(snapshot) {
      const s = snapshot as { store: AppRecordSnapshot; said: Said; guard?: WorldGuardSnapshot };
      store.restore(s.store);
      Object.assign(said, s.said);
      if (guarded && s.guard) await guarded.restore(s.guard);
    },

    async restart() {
      // A new process: the SDK held nothing between requests; an in-memory store starts empty, SQLite reopens its file.
      store.restart();
      guarded?.restart();
    },

    async close() {
      store.close();
      guarded?.close();
    },
  };
  return world;
}
