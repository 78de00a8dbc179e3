// One world of the UI wirings: the user's browser holds the chat's UIMessages (useChat's history), which lives
// through a server restart; every turn is a tab the user acts in, opened on that history, running the SDK's own chat
// code against the docs' route over the fake network. A tab writes back what it learns of an approval (a card
// arrived, the call's outcome arrived) as it reads it. With client history that copy is the approval's record; with
// server history the server's store (in memory or SQLite) is, and the browser's copy is app state.
import {
  type Access,
  type Action,
  type ProposalRequest,
  type World,
  type WorldEnv,
} from '@approval-conformance/core/contract';
import { GatedAppRecord, memoryTextBacking, type AppRecordSnapshot } from '@approval-conformance/core/kit';
import { inRequest } from './context.js';
import type { AiLib } from './lib.js';
import { actionOf, brainReply, mockModel } from './model.js';
import { CHAT, openChatStore } from './store.js';
import { buildTools } from './tools.js';
import { ApprovalNames, type Part } from './transcript.js';
import { openTab, type Tab } from './ui-chat.js';
import { allPausedOn, approvalOfPart, cardFor, pausedOn, uiRecordStates, type UiMessage } from './ui-messages.js';
import { isRefusal, post, type Call, type UiApp } from './ui-route.js';
import { editCall, uiTamperings } from './ui-tampering.js';
import type { Wiring } from './wirings.js';

/** What the client is told when an approved call's outcome reaches it. */
const OUTCOME: Readonly<Record<string, 'happened' | 'not-happened'>> = {
  'tool-output-available': 'happened',
  'tool-output-error': 'not-happened',
  'tool-output-denied': 'not-happened',
};

/** The docs' send-only-the-last-message transport option, with the example's `trigger` and `messageId`. */
const lastMessageOnly = ({ id, messages, trigger, messageId }: { id: string; messages: UiMessage[]; trigger: string; messageId?: string }) => ({
  body: { trigger, id, message: messages[messages.length - 1], messageId },
});

/**
 * The browser's copy with a tab's writes: each message the tab made or changed, in place of the copy's message of the
 * same id or after the copy's last; what other tabs wrote meanwhile stays.
 */
function merge(copy: readonly UiMessage[], tab: readonly UiMessage[], changed: ReadonlySet<string>): UiMessage[] {
  const merged = [...copy];
  for (const message of tab.filter((m) => changed.has(m.id))) {
    const index = merged.findIndex((m) => m.id === message.id);
    if (index === -1) merged.push(message);
    else merged[index] = message;
  }
  return merged;
}

const counter = (prefix: string) => {
  let n = 0;
  return () => `${prefix}-${++n}`;
};

export function createUiWorld(lib: AiLib, wiring: Wiring, env: WorldEnv): World {
  const history = wiring.ui === 'server' ? 'server' : 'client';
  let names = new ApprovalNames();
  let request: ProposalRequest = { alternatives: [] };
  /** The further calls of `proposeMany`, made in the same model step as the first. */
  let parallel: readonly (readonly Action[])[] = [];
  let proposals = 0;
  /** A tampering client sends its answer even where the SDK's chat would wait for other cards. */
  let insists = false;
  const states = (messages: UiMessage[] | undefined) => uiRecordStates(messages, names);
  const trace = (report: boolean) => ({ gate: env.gate, history: env.history, report, accessed: env.accessed });
  const text = { name: 'client', id: CHAT, encode: JSON.stringify, decode: (t: string) => JSON.parse(t) as UiMessage[], states };
  const client = new GatedAppRecord<UiMessage[]>(memoryTextBacking, text, trace(history === 'client'));
  const store = openChatStore<UiMessage[]>(env.store, () => env.scratchDir, states, trace(history === 'server'));
  const model = mockModel(lib, brainReply({ ...env, request: () => request, parallel: () => parallel, nextApproval: () => `a${++proposals}` }));
  const app: UiApp = { lib, history, tools: buildTools(lib, env.backend, 'native'), model, store, names: () => names };
  // A tab writes the client's copy right after a card or an outcome reaches it: the delivery's gate declares it.
  const after: Access[] = [{ key: client.key, mode: 'write' }];

  /** The client connection: cards and outcomes are delivered through the suite's connections. */
  const connection = (turn: string) => {
    const inputs = new Map<string, Part>();
    return async (chunk: Part, messages: () => readonly UiMessage[]) => {
      const type = chunk['type'];
      if (type === 'tool-input-available') inputs.set(chunk['toolCallId'], chunk);
      if (type === 'tool-approval-request') {
        names.learn(chunk['approvalId'], chunk['toolCallId']);
        const call = inputs.get(chunk['toolCallId']);
        await env.connections.deliverCard(turn, names.name(chunk['approvalId']), actionOf(call?.['toolName'], call?.['input']), undefined, after);
      } else if (OUTCOME[type] && !chunk['preliminary']) {
        const approvalId = approvalOfPart(messages(), chunk['toolCallId'], names);
        if (approvalId) await env.connections.disclose(turn, approvalId, OUTCOME[type], after);
      }
    };
  };

  /** One user action in a tab opened on the client's copy; the turn ends when the server is done with it. */
  async function inTab<T>(turn: string, act: (tab: Tab) => Promise<T>): Promise<T> {
    const call: Call = { turn, approvalOf: new Map(), refusals: [], failures: [], saves: [], messageId: counter(`srv-${turn}`) };
    const context = { turn, approvalOfCall: call.approvalOf, dispatches: new Map(), proposedWorlds: new Map(), outcomes: new Map() };
    return inRequest(context, async () => {
      const messages = (await client.load(turn)) ?? [];
      let known = JSON.stringify([...states(messages)]);
      const tab = openTab(lib, {
        chatId: CHAT,
        messages,
        generateId: counter(turn),
        post: (req) => post(app, call, req).catch((error) => serverError(call, error)),
        ...(history === 'server' ? { prepareSendMessagesRequest: lastMessageOnly } : {}),
        receive: connection(turn),
        onChange: (now, changed) => {
          const learnt = JSON.stringify([...states([...now])]);
          if (learnt !== known) client.put(turn, `client.update(${CHAT})`, merge(client.peek() ?? [], now, changed));
          known = learnt;
        },
      });
      const value = await act(tab);
      await Promise.all(call.saves);
      // A refusal is the runtime doing its job; anything else that broke a request is a finding.
      const error = call.failures[0] ?? (call.refusals.length === 0 ? tab.error() : undefined);
      if (error !== undefined) throw error;
      return value;
    });
  }

  const world: World = {
    async propose(turn, req) {
      request = req;
      return inTab(turn, async (tab) => {
        const before = tab.messages().length;
        await tab.send('Please do what we discussed.');
        // The card this request's response paused on, if its response has one.
        return pausedOn(tab.messages().slice(before + 1), names);
      });
    },

    async proposeMany(turn, requests) {
      // The model calls every tool in one step, as a model with parallel tool calls does.
      const [first, ...more] = requests;
      if (!first) return [];
      request = first;
      parallel = more.map((r) => r.alternatives);
      try {
        return await inTab(turn, async (tab) => {
          const before = tab.messages().length;
          await tab.send('Please do what we discussed.');
          const cards = allPausedOn(tab.messages().slice(before + 1), names);
          return cards.length === requests.length ? cards : undefined;
        });
      } finally {
        parallel = [];
      }
    },

    async resume(turn, answer) {
      await inTab(turn, async (tab) => {
        // The user can answer only a card the tab shows: none once the client knows the call's outcome.
        const card = cardFor(tab.messages(), answer.approvalId, names);
        if (card) await tab.answer(card['approval'].id, answer.approved, insists);
      });
    },

    async resumeMany(turn, answers) {
      // One tab answers each card in turn; the chat sends once the last open card has its answer.
      await inTab(turn, async (tab) => {
        for (const answer of answers) {
          const card = cardFor(tab.messages(), answer.approvalId, names);
          if (card) await tab.answer(card['approval'].id, answer.approved, insists);
        }
      });
    },

    inspect: async (approvalId) => (history === 'client' ? client : store).inspect(approvalId),

    contents: async () => ({ ...client.contents(), ...store.contents() }),

    async tamper(approvalId, action) {
      // The client edits the call in its own copy before it answers the card.
      await client.save('holder', editCall(client.peek() ?? [], names, approvalId, action));
    },

    tamperings: uiTamperings({ copy: () => client, names: () => names, insist: () => void (insists = true) }),

    async snapshot() {
      return { client: client.snapshot(), store: store.snapshot(), names: names.entries(), request, proposals };
    },

    async restore(snapshot) {
      const s = snapshot as {
        client: AppRecordSnapshot;
        store: AppRecordSnapshot;
        names: [string, string][];
        request: ProposalRequest;
        proposals: number;
      };
      client.restore(s.client);
      store.restore(s.store);
      names = new ApprovalNames(s.names);
      ({ request, proposals } = s);
    },

    async restart() {
      // The server's process: the SDK held nothing, its store reopens (memory: empty). The browser keeps its copy.
      store.restart();
    },

    async close() {
      client.close();
      store.close();
    },
  };
  return world;
}

/** A route that throws answers 500, as a server does. */
function serverError(call: Call, error: unknown): Response {
  (isRefusal(error) ? call.refusals : call.failures).push(error);
  return new Response(String((error as Error)?.message ?? error), { status: 500 });
}
