// A world over SDK 1.x: legacy push elicitation, as the SDK's elicitationFormExample writes it. The server's tool
// handler awaits `server.server.elicitInput(...)` and acts on `accept`; the host's client shows the card in its
// elicitation handler; the human's answer is the JSON-RPC response to `elicitation/create`, which a resume sends (a
// click, a retry, a duplicate). Server and client are the SDK's own, in one live over its InMemoryTransport, with
// each end's `send` gated: every JSON-RPC message crosses a gate.
//
// The approval's record is the server's pending request: the entry its Protocol keeps for `elicitation/create`
// (`_responseHandlers`, by request id) until a response takes it. A request made puts it there (unspent); a response
// looks it up and deletes it in the same tick (a read, then spent), and one for an id it does not hold is dropped
// ("unknown message ID"). The map is wrapped as a store would be, to report those reads and writes.
//
// Guarded (`guarded-elicit-input`), the card is a URL-mode elicitation: the click goes to the server's confirmation
// page (World.approve, the guard's approve), the host's accept only says the user went there, and the tool spends the
// guard's record before it acts. The guard's record is then the approval's: the pending request is still gated and
// its accesses reported, but it is no longer the record the properties read.
import type { Access, ProposalRequest, World, WorldEnv } from '@approval-conformance/core/contract';
import { actionOfCall, toolInput } from '@approval-conformance/core/kit';
import type { LegacyLib } from './lib.js';
import { guardedTold, openGuard, told } from './outcomes.js';
import { turns } from './turns.js';

/** The SDK's request timeout (DEFAULT_REQUEST_TIMEOUT_MSEC), and its error code for it (ErrorCode.RequestTimeout). */
const REQUEST_TIMEOUT_MS = 60_000;
const REQUEST_TIMEOUT = -32001;

const SCHEMA = { type: 'object', properties: { confirm: { type: 'boolean', title: 'Go ahead?' } }, required: ['confirm'] };

/** Whether this version has URL-mode elicitation, which the guarded wiring's card is. */
export const hasUrlElicitation = (lib: LegacyLib) => lib.types['ElicitRequestURLParamsSchema'] !== undefined;

export function legacyWorld(env: WorldEnv, lib: LegacyLib, guarded: boolean): World {
  const { McpServer } = lib.mcp;
  const { Client } = lib.client;
  const { InMemoryTransport } = lib.memory;
  const { ElicitRequestSchema } = lib.types;
  const z = lib.zod['z'] ?? lib.zod;
  const guard = guarded ? openGuard(env) : undefined;
  const report = guard === undefined;

  // The record, by approval: the pending request's state, its version, and which turn's response took it.
  const requestApproval = new Map<number, string>();
  const states = new Map<string, 'unspent' | 'spent' | 'absent'>();
  const takenBy = new Map<string, string>();
  const requestOf = new Map<string, number | string>();
  let version = 0;
  let started = false;
  const key = (approvalId: string, mode: Access['mode']): Access => ({ key: `record:${approvalId}`, mode });

  /** The request id a response is looking up now: its delete, in the same tick, is the response taking it. */
  let answering: number | undefined;

  class PendingRequests extends Map<number, unknown> {
    override set(id: number, handler: unknown): this {
      const now = turns.getStore();
      if (started && now) {
        requestApproval.set(id, now.approvalId);
        states.set(now.approvalId, 'unspent');
        env.accessed(key(now.approvalId, 'write'), `pending.set(${id})`);
        if (report) env.history.emit({ kind: 'record-write', actor: now.turn, approvalId: now.approvalId, version: ++version, from: 'absent', state: 'unspent' });
      }
      return super.set(id, handler);
    }
    override get(id: number): unknown {
      const approvalId = requestApproval.get(id);
      const now = turns.getStore();
      if (super.has(id)) answering = id;
      if (approvalId !== undefined && now) {
        env.accessed(key(approvalId, 'read'), `pending.get(${id})`);
        if (report) env.history.emit({ kind: 'record-read', actor: now.turn, approvalId, version, state: super.has(id) ? 'unspent' : (states.get(approvalId) ?? 'absent') });
      }
      return super.get(id);
    }
    override delete(id: number): boolean {
      const approvalId = requestApproval.get(id);
      const now = turns.getStore();
      const had = super.delete(id);
      // A response takes the request it just looked up; any other delete is the request's timeout (or its cancel),
      // on a timer no gate opens: the request is gone, and nothing will take it.
      const taken = answering === id;
      answering = undefined;
      if (approvalId !== undefined && now && had) {
        states.set(approvalId, taken ? 'spent' : 'absent');
        if (taken) takenBy.set(approvalId, now.turn);
        // A timeout's delete runs on a timer, in whatever release is open then: it says what it touched.
        else env.declare(key(approvalId, 'write'));
        env.accessed(key(approvalId, 'write'), `pending.delete(${id})`);
        if (report) env.history.emit({ kind: 'record-write', actor: now.turn, approvalId, version: ++version, from: 'unspent', state: taken ? 'spent' : 'absent' });
      }
      return had;
    }
  }
  // One live of the server, and the host's client connected to it: a restart makes new ones (the server keeps
  // nothing; the host, another live, keeps its cards and the request ids they answer).
  const shown = new Map<string, () => void>();
  const boot = () => {
    const server = new McpServer({ name: 'bank', version: '1' }, { capabilities: { tools: {} } });
    const client = new Client({ name: 'host', version: '1' }, { capabilities: { elicitation: guard ? { form: {}, url: {} } : {} } });
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    (server.server as { _responseHandlers: Map<number, unknown> })._responseHandlers = new PendingRequests();

    // Every message crosses a gate. The client's reach the server in the same tick (a call makes the pending
    // request; a response takes it): their gates declare the approval's record.
    for (const [side, end] of [['client', clientEnd], ['server', serverEnd]] as const) {
      const send = end.send.bind(end);
      end.send = async (message: { method?: string; id?: number | string; result?: unknown }, options?: unknown) => {
        const now = turns.getStore();
        if (started && now) {
          const what = message.method ?? (message.result !== undefined ? 'result' : 'error');
          await env.gate(now.turn, `${side}.send(${what}#${message.id ?? '-'})`, side === 'client' ? { access: [key(now.approvalId, 'write')] } : {});
        }
        return send(message, options);
      };
    }

    for (const name of ['transfer', 'notify']) {
      server.registerTool(name, { inputSchema: { targets: z.array(z.string()), params: z.record(z.string(), z.unknown()) } }, async (args: unknown) => {
        const asked = turns.getStore()!;
        const action = actionOfCall(name, args);
        // Guarded: the record before the card, and the card a page of the server's.
        if (guard) {
          await guard.app.propose(asked.turn, asked.approvalId, action, env.backend.world);
          // The app's await: the elicitation's pending request is made next (its gate is the server's send, after).
          await env.gate(asked.turn, `elicitInput(${asked.approvalId})`, { access: [key(asked.approvalId, 'write')] });
        }
        const params = guard
          ? { mode: 'url', message: `${name}?`, url: `https://bank.invalid/confirm/${asked.approvalId}`, elicitationId: asked.approvalId }
          : { message: `${name}?`, requestedSchema: SCHEMA };
        const result = await server.server.elicitInput(params);
        if (result.action !== 'accept' || (!guard && result.content?.confirm !== true)) return { content: [{ type: 'text', text: 'declined' }] };
        // The tool's code after elicitInput runs on the answer: the turn whose response took the approval.
        const turn = takenBy.get(asked.approvalId) ?? asked.turn;
        const dispatch = `${turn}/${asked.approvalId}`;
        if (guard) return { content: [{ type: 'text', text: await guard.app.run(turn, asked.approvalId, action, dispatch) }] };
        await env.backend.call(turn, { approvalId: asked.approvalId, dispatch, action });
        return { content: [{ type: 'text', text: 'done' }] };
      });
    }

    // The host's elicitation handler shows the card; the answer goes back in the host's own response (resume).
    client.setRequestHandler(ElicitRequestSchema, (_request: unknown, extra: { requestId: number | string }) => {
      const now = turns.getStore()!;
      requestOf.set(now.approvalId, extra.requestId);
      shown.get(now.approvalId)?.();
      return new Promise(() => {});
    });
    const connected = Promise.all([server.connect(serverEnd), client.connect(clientEnd)]);
    return { server, client, clientEnd, connected };
  };
  let live = boot();
  const ready = live.connected.then(() => {
    started = true;
  });
  let proposals = 0;

  /**
   * The host's model calls a tool; the call stays open until the answer, or until the SDK's request timeout (60 s, on
   * the virtual clock) passes: then the host gives up on it and tells the user the call failed. Returns the approval
   * and the card the server's elicitation shows.
   */
  const call = async (turn: string, alternatives: ProposalRequest['alternatives']) => {
    const action = await env.model.decide(turn, 'propose', alternatives);
    const approvalId = `a${++proposals}`;
    env.history.emit({ kind: 'proposed', actor: turn, approvalId, action, world: env.backend.world });
    const card = new Promise<void>((resolve) => shown.set(approvalId, resolve));
    const { client } = live;
    void turns
      .run({ turn, approvalId }, () => client.callTool({ name: action.operation, arguments: toolInput(action) }))
      .then(
        // The host shows the tool's result (an error included): the turn whose answer it was tells the user.
        async (result: { content?: { text?: string }[]; isError?: boolean }) => {
          const teller = takenBy.get(approvalId);
          const says = guard ? guardedTold(result) : told(result);
          if (teller && says) await turns.run({ turn: teller, approvalId }, () => env.connections.disclose(teller, approvalId, says));
        },
        // The request timed out: the host stopped waiting for the answer, and shows the user the call failed.
        async (error: { code?: number }) => {
          if (error?.code !== REQUEST_TIMEOUT) return;
          await turns.run({ turn, approvalId }, () => env.connections.disclose(turn, approvalId, 'not-happened'));
        },
      );
    return { approvalId, action, card };
  };

  return {
    async propose(turn, request) {
      await ready;
      const { approvalId, action, card } = await call(turn, request.alternatives);
      await card;
      await env.connections.deliverCard(turn, approvalId, action);
      return { approvalId, action };
    },

    // The host's model calls two tools in one step: two elicitations are pending at once, one per call.
    async proposeMany(turn, requests) {
      await ready;
      const calls = [];
      for (const request of requests) calls.push(await call(turn, request.alternatives));
      await Promise.all(calls.map((c) => c.card));
      for (const { approvalId, action } of calls) await env.connections.deliverCard(turn, approvalId, action);
      return calls.map(({ approvalId, action }) => ({ approvalId, action }));
    },

    answerTimeout: REQUEST_TIMEOUT_MS,

    async resume(turn, { approvalId, approved }) {
      const id = requestOf.get(approvalId);
      if (id === undefined) return;
      const result = approved ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
      await turns.run({ turn, approvalId }, () => live.clientEnd.send({ jsonrpc: '2.0', id, result }));
    },

    // The server's live died: its pending requests went with it. A new one starts; the host's answers to the old
    // one's requests reach the new one, which holds no such request (its ids start again at 0).
    async restart() {
      const old = live;
      live = boot();
      await live.connected;
      void old.client.close().catch(() => {});
      for (const [approvalId, state] of states) if (state === 'unspent') states.delete(approvalId);
      guard?.restart();
    },

    // The click on a guarded card: the user's browser on the server's confirmation page.
    ...(guard ? { approve: (turn: string, approvalId: string) => guard.app.approve(turn, approvalId) } : {}),

    async inspect(approvalId) {
      if (guard) return guard.inspect(approvalId);
      return { state: states.get(approvalId) ?? 'absent', version };
    },

    async contents() {
      return { ...Object.fromEntries([...states].map(([approvalId, state]) => [`record:${approvalId}`, state])), ...(await guard?.contents()) };
    },

    async close() {
      guard?.close();
      await live.client.close().catch(() => {});
      await live.server.close().catch(() => {});
    },
  };
}
