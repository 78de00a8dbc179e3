// One world: a fresh chat store (in memory, or a SQLite file) behind the docs' chat route, the version's mock model,
// and the tools. The client holds the approval ids it was shown and answers with new messages, as the SDK's UI does.
// Guarded wirings add the approval guard's store (of the same kind as the chat's) and the app's guard calls; the
// guard's record is then the approval's record.
import {
  GatedGuardStore,
  GuardedApp,
  type Access,
  type Answer,
  type ProposalRequest,
  type RecordState,
  type World,
  type WorldEnv,
} from '@approval-conformance/core';
import type { ApprovalRecord } from '@approval-conformance/guard';
import { openGuardRecords } from './guard-store.js';
import type { AiLib } from './lib.js';
import { actionOf, brainReply, mockModel } from './model.js';
import { serve, type Route } from './route.js';
import { ChatStore, chatKey, newRecordBook } from './store.js';
import { editCall, tamperings } from './tampering.js';
import { buildTools, needsApproval } from './tools.js';
import { APPROVAL, ApprovalNames, recordStates, toolCalls, type Message } from './transcript.js';
import type { Wiring } from './wirings.js';

const afterShowing = (report: boolean): Access[] => [
  { key: chatKey(report), mode: 'read' },
  { key: 'proposal', mode: 'read' },
];

export function createWorld(lib: AiLib, wiring: Wiring, env: WorldEnv): World {
  const style = wiring.approval === 'cookbook' ? 'cookbook' : 'native';
  let names = new ApprovalNames();
  let book = newRecordBook();
  let known = new Set<string>();
  let request: ProposalRequest = { alternatives: [] };
  let proposals = 0;

  // Guarded: the guard's records, the client's copy of each card's fingerprint (the client outlives a restart), and
  // the app's guard calls, named for the process (each restart is a new one, for the guard's recovery).
  const io = <T>(work: T | Promise<T>) => env.external(Promise.resolve(work));
  let guardRecords = wiring.guarded ? openGuardRecords(env.store, env.scratchDir) : undefined;
  const cards = new Map<string, string>();
  let incarnation = 0;
  const startApp = () =>
    guardRecords && new GuardedApp(new GatedGuardStore(guardRecords.store, env.gate, io, env.history), env.backend, cards, `p${++incarnation}`);
  let app = startApp();
  const guard = app && (() => app!);

  const states = (messages: readonly Message[] | undefined): Map<string, RecordState> => {
    const found = recordStates(messages, style, names, needsApproval);
    for (const approvalId of found.keys()) known.add(approvalId);
    return found;
  };
  const open = () =>
    new ChatStore(env.store, env.scratchDir, {
      gate: env.gate,
      history: env.history,
      approvals: () => known,
      states,
      book: () => book,
      // Guarded, the guard's record is the approval's: the chat store is gated but not reported.
      report: !wiring.guarded,
    });
  let store = open();

  const model = mockModel(
    lib,
    brainReply({
      model: env.model,
      backend: env.backend,
      history: env.history,
      request: () => request,
      nextApproval: () => `a${++proposals}`,
    }),
  );
  const after = afterShowing(!wiring.guarded);
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
      if (!call || states(store.peek()).get(approvalId) !== 'unspent') return undefined;
      return { approvalId, action: actionOf(call['toolName'], call['input']) };
    },

    async resume(turn, answer) {
      await serve(route, turn, [{ role: 'tool', content: [answerPart(answer)] }]);
    },

    async resumeMany(turn, answers) {
      await serve(route, turn, [{ role: 'tool', content: answers.map(answerPart) }]);
    },

    ...(app ? { approve: (turn: string, approvalId: string) => app!.approve(turn, approvalId) } : {}),

    async inspect(approvalId) {
      if (guardRecords) return guardRecords.inspect(approvalId);
      return { state: states(store.peek()).get(approvalId) ?? 'absent', version: book.version };
    },

    async tamper(approvalId, action) {
      // The holder of the transcript edits the approved call's input and writes the transcript back.
      await store.save('holder', editCall(store.peek() ?? [], style, names, approvalId, action));
    },

    tamperings: tamperings(style, {
      store: () => store,
      names: () => names,
    }),

    async snapshot() {
      return {
        store: store.snapshot(),
        names: names.entries(),
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
        names: [string, string][];
        book: { version: number; lastStates: [string, RecordState][] };
        known: string[];
        request: ProposalRequest;
        proposals: number;
        guard?: ApprovalRecord[];
        cards?: [string, string][];
      };
      store.restore(s.store);
      names = new ApprovalNames(s.names);
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
      // A new process: the SDK held nothing; an in-memory store starts empty, a SQLite store reopens its file.
      store.close();
      store = open();
      // The guard's records likewise (memory: gone; SQLite: the file again), under a new process name.
      if (guardRecords) {
        guardRecords.close();
        guardRecords = openGuardRecords(env.store, env.scratchDir);
        app = startApp();
      }
    },

    async close() {
      store.close();
      guardRecords?.close();
    },
  };
  return world;
}
