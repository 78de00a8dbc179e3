// One world: a fresh state store (in memory, or a SQLite file) behind the app, an agent over the version's model
// (scripted by the adversary) and the tools. The SDK keeps nothing between requests but what the app stores, so a
// restart is a new store over the same file. Guarded wirings add the approval guard's store (of the same kind) and
// the app's guard calls; the guard's record is then the approval's record.
import { WorldGuard, type AppRecordSnapshot, type ProposalRequest, type World, type WorldEnv, type WorldGuardSnapshot } from '@approval-conformance/core';
import * as app from './app.js';
import type { Features } from './features.js';
import { openGuardRecords } from './guard-store.js';
import type { AgentsLib } from './lib.js';
import { brainReply, buildModel } from './model.js';
import { newServerBook, openRequestStore, snapshotHolder, type Prompt, type Server, type ServerBook } from './server-owned.js';
import * as serverOwned from './server-owned.js';
import { openStateStore } from './store.js';
import { editAlone, tamperings } from './tampering.js';
import { buildTools } from './tools.js';
import type { Wiring } from './wirings.js';

export function createWorld(lib: AgentsLib, features: Features, wiring: Wiring, env: WorldEnv): World {
  let request: ProposalRequest = { alternatives: [] };
  let proposals = 0;

  const guarded = wiring.guarded ? new WorldGuard(env, () => openGuardRecords(env.store, env.scratchDir)) : undefined;
  const guard = guarded && (() => guarded.app);

  const model = buildModel(
    lib,
    brainReply({
      model: env.model,
      backend: env.backend,
      history: env.history,
      request: () => request,
      nextApproval: () => `a${++proposals}`,
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
    const app: app.App = { lib, wiring, agent, store: () => { throw new Error('server-owned state keeps no conversation record'); }, connections: env.connections };
    return serverOwnedWorld(app, features, env, (req) => (request = req), () => ({ request, proposals }), (s) => ({ request, proposals } = s));
  }
  const store = openStateStore(env.store, env.scratchDir, { gate: env.gate, history: env.history, report: !guarded, accessed: env.accessed });
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
      request = req;
      return app.propose(theApp, turn);
    },

    approve: (turn, approvalId) => app.approve(theApp, turn, approvalId),

    resume: (turn, answer) => app.resume(theApp, turn, answer),

    inspect: async (approvalId) => (guarded ? guarded.inspect(approvalId) : store.inspect(approvalId)),

    contents: async () => ({ ...store.contents(), ...(await guarded?.contents()) }),

    tamper: (approvalId, action) => editAlone(holder, approvalId, action),

    tamperings: tamperings(holder, features.approvalBinding),

    async snapshot() {
      return { store: store.snapshot(), request, proposals, ...(guarded ? { guard: await guarded.snapshot() } : {}) };
    },

    async restore(snapshot) {
      const s = snapshot as { store: AppRecordSnapshot; request: ProposalRequest; proposals: number; guard?: WorldGuardSnapshot };
      store.restore(s.store);
      ({ request, proposals } = s);
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

/**
 * The guide's server-owned approval state: the server's stored requests are the record, and there is no click
 * reaching the server before the resume: the decision travels with it.
 */
function serverOwnedWorld(
  theApp: app.App,
  features: Features,
  env: WorldEnv,
  setRequest: (req: ProposalRequest) => void,
  model: () => { request: ProposalRequest; proposals: number },
  setModel: (s: { request: ProposalRequest; proposals: number }) => void,
): World {
  let book: ServerBook = newServerBook();
  let prompts = new Map<string, Prompt>();
  const requests = openRequestStore(env.store, env.scratchDir, { gate: env.gate, history: env.history, report: true, accessed: env.accessed }, () => book);
  const server: Server = { app: theApp, requests: () => requests, book: () => book, get prompts() { return prompts; } };
  const holder = { lib: theApp.lib, agent: () => theApp.agent, store: () => snapshotHolder(server) };
  return {
    async propose(turn, req) {
      setRequest(req);
      return serverOwned.propose(server, turn);
    },
    resume: (turn, answer) => serverOwned.resume(server, turn, answer),
    inspect: async (approvalId) => requests.inspect(approvalId),
    contents: async () => requests.contents(),
    tamper: (approvalId, action) => editAlone(holder, approvalId, action),
    tamperings: tamperings(holder, features.approvalBinding),
    async snapshot() {
      return { requests: requests.snapshot(), book: structuredClone(book), prompts: new Map(prompts), ...model() };
    },
    async restore(snapshot) {
      const s = snapshot as { requests: AppRecordSnapshot; book: ServerBook; prompts: Map<string, Prompt>; request: ProposalRequest; proposals: number };
      requests.restore(s.requests);
      book = structuredClone(s.book);
      prompts = new Map(s.prompts);
      setModel(s);
    },
    async restart() {
      // A new server process: the example's Map starts empty; the SQLite file keeps what was stored. The client keeps
      // the ids it was given.
      requests.restart();
    },
    async close() {
      requests.close();
    },
  };
}
