// One world: a fresh chat store (in memory, or a SQLite file) behind the docs' chat route, the version's mock model,
// and the tools. The client holds the approval ids it was shown and answers with new messages, as the SDK's UI does.
// Guarded wirings add the approval guard's store (of the same kind as the chat's) and the app's guard calls; the
// guard's record is then the approval's record.
import {
  type Access,
  type Action,
  type Answer,
  type ProposalRequest,
  type World,
  type WorldEnv,
} from '@approval-conformance/core/contract';
import { WorldGuard, type AppRecordSnapshot, type WorldGuardSnapshot } from '@approval-conformance/core/kit';
import { openGuardRecords } from './guard-store.js';
import type { AiLib } from './lib.js';
import { actionOf, brainReply, mockModel } from './model.js';
import { serve, type Route } from './route.js';
import { openChatStore } from './store.js';
import { editCall, tamperings } from './tampering.js';
import { buildTools, needsApproval } from './tools.js';
import { APPROVAL, ApprovalNames, recordStates, toolCalls, type Message } from './transcript.js';
import type { Wiring } from './wirings.js';

const afterShowing = (chatKey: string): Access[] => [
  { key: chatKey, mode: 'read' },
  { key: 'proposal', mode: 'read' },
];

export function createWorld(lib: AiLib, wiring: Wiring, env: WorldEnv): World {
  const style = wiring.approval === 'cookbook' ? 'cookbook' : 'native';
  let names = new ApprovalNames();
  let request: ProposalRequest = { alternatives: [] };
  /** The further calls of `proposeMany`, made in the same model step as the first. */
  let parallel: readonly (readonly Action[])[] = [];
  let proposals = 0;

  // Guarded: the guard's records (of the same kind as the chat's), the client's copy of each card, the app's calls.
  const guarded = wiring.guarded ? new WorldGuard(env, () => openGuardRecords(env.store, () => env.scratchDir)) : undefined;
  const guard = guarded && (() => guarded.app);

  const states = (messages: readonly Message[] | undefined) => recordStates(messages, style, names, needsApproval);
  // Guarded, the guard's record is the approval's: the chat store is gated but not reported.
  const store = openChatStore(env.store, () => env.scratchDir, states, { gate: env.gate, history: env.history, report: !guarded, accessed: env.accessed });

  const model = mockModel(
    lib,
    brainReply({
      model: env.model,
      backend: env.backend,
      history: env.history,
      request: () => request,
      parallel: () => parallel,
      nextApproval: () => `a${++proposals}`,
    }),
  );
  const after = afterShowing(store.key);
  const route: Route = {
    lib,
    wiring,
    tools: buildTools(lib, env.backend, style, guard),
    model,
    store: () => store,
    names: () => names,
    backend: env.backend,
    // Once the route has shown what it shows, `propose` reads the transcript and the proposal counter to say what
    // it paused on: the gates of what it shows say so, so that nothing that writes them is taken to commute.
    connections: {
      deliverCard: (turn, approvalId, action) => env.connections.deliverCard(turn, approvalId, action, undefined, after),
      disclose: (turn, approvalId, says) => env.connections.disclose(turn, approvalId, says, after),
    },
    ...(guard ? { guard } : {}),
  };

  /** The client's answer to one approval, as a message part: the SDK's approval response, or the cookbook's string. */
  const answerPart = (answer: Answer) => {
    if (style === 'native') {
      const approvalId = names.sdkId(answer.approvalId);
      if (approvalId === undefined) throw new Error(`the client was never shown approval ${answer.approvalId}`);
      return { type: 'tool-approval-response', approvalId, approved: answer.approved };
    }
    const call = toolCalls(store.peek() ?? []).find((c) => c['toolCallId'] === answer.approvalId);
    return {
      type: 'tool-result',
      toolCallId: answer.approvalId,
      toolName: call?.['toolName'] ?? 'transfer',
      output: { type: 'text', value: answer.approved ? APPROVAL.YES : APPROVAL.NO },
    };
  };

  const world: World = {
    async propose(turn, req) {
      request = req;
      await serve(route, turn, [{ role: 'user', content: [{ type: 'text', text: 'Please do what we discussed.' }] }]);
      const approvalId = `a${proposals}`;
      const call = toolCalls(store.peek() ?? []).find((c) => c['toolCallId'] === approvalId);
      if (!call || store.states(store.peek()).get(approvalId) !== 'unspent') return undefined;
      return { approvalId, action: actionOf(call['toolName'], call['input']) };
    },

    async proposeMany(turn, requests) {
      // The model calls every tool in one step, as a model with parallel tool calls does.
      const [first, ...more] = requests;
      if (!first) return [];
      request = first;
      parallel = more.map((r) => r.alternatives);
      const before = proposals;
      try {
        await serve(route, turn, [{ role: 'user', content: [{ type: 'text', text: 'Please do what we discussed.' }] }]);
      } finally {
        parallel = [];
      }
      const calls = toolCalls(store.peek() ?? []);
      const states = store.states(store.peek());
      const pending = [];
      for (let n = before + 1; n <= proposals; n++) {
        const call = calls.find((c) => c['toolCallId'] === `a${n}`);
        if (!call || states.get(`a${n}`) !== 'unspent') return undefined;
        pending.push({ approvalId: `a${n}`, action: actionOf(call['toolName'], call['input']) });
      }
      return pending;
    },

    async resume(turn, answer) {
      await serve(route, turn, [{ role: 'tool', content: [answerPart(answer)] }]);
    },

    async resumeMany(turn, answers) {
      await serve(route, turn, [{ role: 'tool', content: answers.map(answerPart) }]);
    },

    ...(guarded ? { approve: (turn: string, approvalId: string) => guarded.app.approve(turn, approvalId) } : {}),

    inspect: async (approvalId) => (guarded ? guarded.inspect(approvalId) : store.inspect(approvalId)),

    contents: async () => ({ ...store.contents(), ...(await guarded?.contents()) }),

    async tamper(approvalId, action) {
      // The holder of the transcript edits the approved call's input and writes the transcript back.
      await store.save('holder', editCall(store.peek() ?? [], style, names, approvalId, action));
    },

    tamperings: tamperings(style, {
      store: () => store,
      names: () => names,
    }),

    async snapshot() {
      return { store: store.snapshot(), names: names.entries(), request, proposals, ...(guarded ? { guard: await guarded.snapshot() } : {}) };
    },

    async restore(snapshot) {
      const s = snapshot as {
        store: AppRecordSnapshot;
        names: [string, string][];
        request: ProposalRequest;
        proposals: number;
        guard?: WorldGuardSnapshot;
      };
      store.restore(s.store);
      names = new ApprovalNames(s.names);
      ({ request, proposals } = s);
      if (guarded && s.guard) await guarded.restore(s.guard);
    },

    async restart() {
      // A new process: the SDK held nothing; an in-memory store starts empty, a SQLite store reopens its file. The
      // guard's records likewise (memory: gone; SQLite: the file again), under a new process name.
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
