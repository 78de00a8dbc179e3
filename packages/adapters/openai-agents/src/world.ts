// One world: a fresh state store (in memory, or a SQLite file) behind the app, an agent over the version's model
// (scripted by the adversary) and the tools. The SDK keeps nothing between requests but what the app stores, so a
// restart is a new store over the same file. Guarded wirings add the approval guard's store (of the same kind) and
// the app's guard calls; the guard's record is then the approval's record.
import {
  GatedGuardStore,
  GuardedApp,
  type ProposalRequest,
  type RecordState,
  type World,
  type WorldEnv,
} from '@approval-conformance/core';
import type { ApprovalRecord } from '@approval-conformance/guard';
import * as app from './app.js';
import type { Features } from './features.js';
import { openGuardRecords } from './guard-store.js';
import type { AgentsLib } from './lib.js';
import { brainReply, buildModel } from './model.js';
import { recordStates } from './record.js';
import { newRecordBook, StateStore } from './store.js';
import { editAlone, tamperings } from './tampering.js';
import { buildTools } from './tools.js';
import type { Wiring } from './wirings.js';

export function createWorld(lib: AgentsLib, features: Features, wiring: Wiring, env: WorldEnv): World {
  let book = newRecordBook();
  let known = new Set<string>();
  let request: ProposalRequest = { alternatives: [] };
  let proposals = 0;

  const io = <T>(work: T | Promise<T>) => env.external(Promise.resolve(work));
  let guardRecords = wiring.guarded ? openGuardRecords(env.store, env.scratchDir) : undefined;
  const cards = new Map<string, string>();
  let incarnation = 0;
  const startGuard = () =>
    guardRecords && new GuardedApp(new GatedGuardStore(guardRecords.store, env.gate, io, env.history), env.backend, cards, `p${++incarnation}`);
  let guardApp = startGuard();
  const guard = guardApp && (() => guardApp!);

  const states = (text: string | undefined): Map<string, RecordState> => {
    const found = recordStates(text);
    for (const approvalId of found.keys()) known.add(approvalId);
    return found;
  };
  const open = () =>
    new StateStore(env.store, env.scratchDir, {
      gate: env.gate,
      history: env.history,
      approvals: () => known,
      states,
      book: () => book,
      report: !wiring.guarded,
    });
  let store = open();

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

    async inspect(approvalId) {
      if (guardRecords) return guardRecords.inspect(approvalId);
      return { state: states(store.peek()).get(approvalId) ?? 'absent', version: book.version };
    },

    tamper: (approvalId, action) => editAlone(holder, approvalId, action),

    tamperings: tamperings(holder, features.approvalBinding),

    async snapshot() {
      return {
        store: store.snapshot(),
        book: { version: book.version, lastStates: [...book.lastStates] },
        known: [...known],
        request,
        proposals,
        ...(guardRecords ? { guard: await guardRecords.dump(), cards: [...cards] } : {}),
      };
    },

    async restore(snapshot) {
      const s = snapshot as {
        store: unknown;
        book: { version: number; lastStates: [string, RecordState][] };
        known: string[];
        request: ProposalRequest;
        proposals: number;
        guard?: ApprovalRecord[];
        cards?: [string, string][];
      };
      store.restore(s.store);
      book = { version: s.book.version, lastStates: new Map(s.book.lastStates) };
      known = new Set(s.known);
      ({ request, proposals } = s);
      if (guardRecords) {
        await guardRecords.load(s.guard ?? []);
        cards.clear();
        for (const [approvalId, fingerprint] of s.cards ?? []) cards.set(approvalId, fingerprint);
      }
    },

    async restart() {
      // A new process: the SDK held nothing between requests; an in-memory store starts empty, SQLite reopens its file.
      store.close();
      store = open();
      if (guardRecords) {
        guardRecords.close();
        guardRecords = openGuardRecords(env.store, env.scratchDir);
        guardApp = startGuard();
      }
    },

    async close() {
      store.close();
      guardRecords?.close();
    },
  };
  return world;
}
