// One world: a fresh session service (ADK's in-memory one, or its database one on a schema of the world's own)
// behind a Runner, an agent over the adversary's model and the tools, and the app around them. ADK keeps nothing
// between requests but the session, so a restart is a new service over the same store and a new runner. Guarded
// wirings add the approval guard's records and the app's guard calls; the guard's record is then the approval's.
import { type Action, type ProposalRequest, type World, type WorldEnv } from '@approval-conformance/core/contract';
import { WorldGuard, type WorldGuardSnapshot } from '@approval-conformance/core/kit';
import * as app from './app.js';
import type { AdkLib } from './lib.js';
import { brainReply, buildModel } from './model.js';
import type { Any } from './record.js';
import { type Backing, type Book, Sessions, APP } from './sessions.js';
import { editCall, tamperings } from './tampering.js';
import { buildTools } from './tools.js';
import type { Wiring } from './wirings.js';

/** What the model was asked for and how many approvals it has named: world state a snapshot carries. */
interface Said {
  request: ProposalRequest;
  /** The further calls of `proposeMany`, made in the same response as the first. */
  parallel?: readonly (readonly Action[])[];
  proposals: number;
}

interface Snapshot {
  readonly sessions: { events: Any[]; book: Book };
  readonly said: Said;
  readonly gates: [string, string][];
  readonly guard?: WorldGuardSnapshot;
}

export async function createWorld(lib: AdkLib, wiring: Wiring, env: WorldEnv, backing: Backing): Promise<World> {
  const said: Said = { request: { alternatives: [] }, proposals: 0 };
  const sessions = await Sessions.open(backing, { gate: env.gate, history: env.history, external: env.external, report: !wiring.guarded, accessed: env.accessed });
  const guarded = wiring.guarded ? new WorldGuard(env, () => backing.guardRecords(sessions.service)) : undefined;
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
  const { LlmAgent, Runner } = lib.adk;
  const agent = new LlmAgent({
    name: 'assistant',
    instruction: 'Do what the user asks with the tools.',
    model,
    tools: buildTools(lib, env.backend, { confirmation: wiring.confirmation, ...(guard ? { guard } : {}) }),
  });
  let runner: Any = new Runner({ appName: APP, agent, sessionService: sessions.service });
  const gates = new Map<string, string>();
  const theApp: app.App = { runner: () => runner, sessionId: sessions.sessionId, connections: env.connections, gates, ...(guard ? { guard } : {}) };

  return {
    async propose(turn, req) {
      said.request = req;
      return app.propose(theApp, turn);
    },

    async proposeMany(turn, requests) {
      // The model calls every tool in one response; ADK asks for each confirmation in the same event.
      const [first, ...more] = requests;
      if (!first) return undefined;
      said.request = first;
      said.parallel = more.map((r) => r.alternatives);
      try {
        return await app.proposeAll(theApp, turn);
      } finally {
        delete said.parallel;
      }
    },

    approve: (turn, approvalId) => app.approve(theApp, turn, approvalId),

    resume: (turn, answer) => app.resume(theApp, turn, [answer]),

    resumeMany: (turn, answers) => app.resume(theApp, turn, answers),

    inspect: async (approvalId) => (guarded ? env.external(guarded.inspect(approvalId)) : sessions.inspect(approvalId)),

    // Read around every release: only where it is cheap (in memory).
    contents: async () => ({ ...(await sessions.contents()), ...(backing.cheap ? await guarded?.contents() : {}) }),

    tamper: editCall(() => sessions),

    tamperings: tamperings(() => sessions),

    async snapshot(): Promise<Snapshot> {
      return {
        sessions: await sessions.snapshot(),
        said: structuredClone(said),
        gates: [...gates],
        ...(guarded ? { guard: await env.external(guarded.snapshot()) } : {}),
      };
    },

    async restore(snapshot) {
      const s = snapshot as Snapshot;
      await sessions.restore(s.sessions);
      Object.assign(said, structuredClone(s.said));
      for (const [approvalId, gateId] of s.gates) gates.set(approvalId, gateId);
      if (guarded && s.guard) await env.external(guarded.restore(s.guard));
    },

    async restart() {
      // A new process: ADK held nothing between requests but the session; the in-memory store starts empty.
      await sessions.restart();
      runner = new Runner({ appName: APP, agent, sessionService: sessions.service });
      guarded?.restart();
    },

    async close() {
      await sessions.close();
      guarded?.close();
    },
  };
}
