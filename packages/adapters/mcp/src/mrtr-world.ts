// A world over SDK 2.x: multi-round tool results (MRTR, protocol 2026-07-28). The server is `createMcpHandler` over a
// McpServer whose tool answers `input_required` until the call carries an accepted confirmation, as the
// `inputRequired` JSDoc writes it (`input-required`), or as `examples/mrtr` does with `createRequestStateCodec`
// (`input-required-codec`: the request state signed, with a TTL). The client is the SDK's own, over
// StreamableHTTPClientTransport whose `fetch` is the handler's (no socket), pinned to 2026-07-28, with `autoFulfill`
// off: the host shows the card and sends the round that answers it, as a resume (a click, a retry, two tabs).
//
// The server keeps nothing between rounds: the approval travels in the request (its `inputResponses`, and its
// `requestState`). So the approval's record is what a request carries: the server reads it (always unspent) when it
// takes a confirmation from a call, and nothing ever spends it. The card's delivery to the host writes it.
//
// Guarded (`guarded-input-required`, `-codec`), the server keeps the guard's record: the first round writes it
// before the card, which is a URL-mode elicitation whose page (the server's) records the click; the request state
// names the approval (signed by the codec, whose key is then the server's configuration, kept across a restart); the
// round that answers spends the record before the tool acts, for exactly the call the card showed.
import type { ProposalRequest, World, WorldEnv } from '@approval-conformance/core/contract';
import { actionOfCall, toolInput } from '@approval-conformance/core/kit';
import type { MrtrLib } from './lib.js';
import { guardedTold, openGuard, told } from './outcomes.js';
import { turns } from './turns.js';

/** examples/mrtr's time to live for a request state. */
const TTL_SECONDS = 600;

/**
 * The codec's key for a process of the server: examples/mrtr draws a random one at start, so a restart has another.
 * Here it is fixed per process (the world's generation), for worlds that behave the same every time.
 */
const keyOf = (generation: number) => new Uint8Array(32).fill(7 + generation);

/** The approval a guarded round names, from its request state: the codec's decoded payload, or the raw JSON. */
function approvalOfState(ctx: { mcpReq: { requestState?: unknown } }): string | undefined {
  const accessor = ctx.mcpReq.requestState;
  const state = typeof accessor === 'function' ? (accessor as () => unknown)() : accessor;
  const decoded = typeof state === 'string' ? (JSON.parse(state) as unknown) : state;
  const approvalId = (decoded as { approvalId?: unknown } | undefined)?.approvalId;
  return typeof approvalId === 'string' ? approvalId : undefined;
}

export function mrtrWorld(env: WorldEnv, lib: MrtrLib, signed: boolean, guarded: boolean): World {
  const { McpServer, createMcpHandler, inputRequired, acceptedContent, createRequestStateCodec } = lib.server;
  const { Client, StreamableHTTPClientTransport } = lib.client;
  const z = lib.zod;
  const guard = guarded ? openGuard(env) : undefined;
  let generation = 0;
  // Guarded, the key is the server's configuration, the same in every process.
  const codecOf = () => (signed ? createRequestStateCodec({ key: keyOf(guard ? 0 : generation), ttlSeconds: TTL_SECONDS }) : undefined);
  let codec = codecOf();
  const record = (approvalId: string) => `record:${approvalId}`;

  const build = () => {
    const server = new McpServer({ name: 'bank', version: '1' }, { capabilities: { tools: {} }, ...(codec ? { requestState: { verify: codec.verify } } : {}) });
    for (const name of ['transfer', 'notify']) {
      server.registerTool(name, { inputSchema: z.object({ targets: z.array(z.string()), params: z.record(z.string(), z.unknown()) }) }, async (args: unknown, ctx: { mcpReq: { inputResponses?: Record<string, { action?: string }>; requestState?: unknown } }) => {
        const { turn, approvalId } = turns.getStore()!;
        if (guard) return guardedRound(name, args, ctx, turn, approvalId);
        // As the JSDoc writes it: one zod schema asks and validates the answer.
        const confirmationSchema = z.object({ confirm: z.boolean() });
        const confirmed = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', confirmationSchema);
        if (confirmed?.confirm !== true) {
          return inputRequired({
            inputRequests: { confirm: inputRequired.elicit({ message: `${name}?`, requestedSchema: confirmationSchema }) },
            ...(codec ? { requestState: await codec.mint({ step: 'confirm', args }) } : {}),
          });
        }
        // The approval, as the request carries it: read, and never spent.
        env.accessed({ key: record(approvalId), mode: 'read' }, 'inputResponses');
        env.history.emit({ kind: 'record-read', actor: turn, approvalId, version: 1, state: 'unspent' });
        await env.backend.call(turn, { approvalId, dispatch: `${turn}/${approvalId}`, action: actionOfCall(name, args) });
        return { content: [{ type: 'text', text: 'done' }] };
      });
    }
    return server;
  };

  /**
   * A guarded round. The first (no state) writes the guard's record and asks through the server's page; the one that
   * answers spends the record it names, for the call it carries (the guard refuses another call, a click it never
   * recorded, or a spent approval, which it recovers instead).
   */
  const guardedRound = async (name: string, args: unknown, ctx: { mcpReq: { inputResponses?: Record<string, { action?: string }>; requestState?: unknown } }, turn: string, label: string) => {
    const action = actionOfCall(name, args);
    const named = approvalOfState(ctx);
    if (named === undefined) {
      await guard!.app.propose(turn, label, action, env.backend.world);
      return inputRequired({
        inputRequests: { confirm: inputRequired.elicitUrl({ message: `${name}?`, url: `https://bank.invalid/confirm/${label}` }) },
        requestState: codec ? await codec.mint({ approvalId: label }) : JSON.stringify({ approvalId: label }),
      });
    }
    if (ctx.mcpReq.inputResponses?.['confirm']?.action !== 'accept') return { content: [{ type: 'text', text: 'declined' }] };
    return { content: [{ type: 'text', text: await guard!.app.run(turn, named, action, `${turn}/${named}`) }] };
  };
  // The server's process: a new one on restart (the JSDoc's server keeps nothing; the codec's key is lost).
  let handler = createMcpHandler(build);
  let started = false;
  const fetch = async (url: string | URL, init?: RequestInit) => {
    const now = turns.getStore();
    // The first round's answer writes the approval (the card the host is given); a round that answers it reads it.
    if (started && now) {
      // Guarded, the record is the guard's, and its store gates its own reads and writes.
      const access = guard ? [] : [{ key: record(now.approvalId), mode: now.writes ? ('write' as const) : ('read' as const) }];
      await env.gate(now.turn, `http ${init?.method ?? 'GET'} (${now.approvalId})`, { access });
    }
    return handler.fetch(new Request(url, init));
  };
  const client = new Client(
    { name: 'host', version: '1' },
    { capabilities: { elicitation: guard ? { form: {}, url: {} } : { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } }, inputRequired: { autoFulfill: false } },
  );
  const connected = client.connect(new StreamableHTTPClientTransport(new URL('http://bank.invalid/mcp'), { fetch })).then(() => {
    started = true;
  });
  const call = (turn: string, approvalId: string, params: Record<string, unknown>, writes = false) =>
    turns.run(
      { turn, approvalId, writes },
      () => client.request({ method: 'tools/call', params }, { allowInputRequired: true }) as Promise<{ resultType?: string; requestState?: string; isError?: boolean; content?: { text?: string }[] }>,
    );

  // The cards the host holds: what each asked, to answer it (not a record: the server never reads it).
  const cards = new Map<string, { tool: string; args: unknown; requestState?: string }>();
  let proposals = 0;

  /** The host's model calls a tool; its first round answers input_required: the card, which the host holds. */
  const open = async (turn: string, alternatives: ProposalRequest['alternatives']) => {
    const action = await env.model.decide(turn, 'propose', alternatives);
    const approvalId = `a${++proposals}`;
    env.history.emit({ kind: 'proposed', actor: turn, approvalId, action, world: env.backend.world });
    return { approvalId, action, args: toolInput(action) };
  };
  const first = async (turn: string, { approvalId, action, args }: Awaited<ReturnType<typeof open>>) => {
    const result = await call(turn, approvalId, { name: action.operation, arguments: args }, true);
    if (result.resultType !== 'input_required') return false;
    cards.set(approvalId, { tool: action.operation, args, ...(result.requestState ? { requestState: result.requestState } : {}) });
    if (!guard) env.history.emit({ kind: 'record-write', actor: turn, approvalId, version: 1, from: 'absent', state: 'unspent' });
    return true;
  };

  return {
    async propose(turn, request) {
      await connected;
      const opened = await open(turn, request.alternatives);
      if (!(await first(turn, opened))) return undefined;
      await env.connections.deliverCard(turn, opened.approvalId, opened.action);
      return { approvalId: opened.approvalId, action: opened.action };
    },

    // The host's model calls two tools in one step: both first rounds go out at once, and each answers with its card.
    async proposeMany(turn, requests) {
      await connected;
      const opened = [];
      for (const request of requests) opened.push(await open(turn, request.alternatives));
      const asked = await Promise.all(opened.map((o) => first(turn, o)));
      if (asked.includes(false)) return undefined;
      for (const { approvalId, action } of opened) await env.connections.deliverCard(turn, approvalId, action);
      return opened.map(({ approvalId, action }) => ({ approvalId, action }));
    },

    // The codec's time to live: a request state older than that is refused. Without the codec nothing expires.
    ...(codec ? { answerTimeout: TTL_SECONDS * 1000 } : {}),

    async resume(turn, { approvalId, approved }) {
      const card = cards.get(approvalId);
      if (!card) return;
      const answer = approved ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
      const params = { name: card.tool, arguments: card.args, inputResponses: { confirm: answer }, ...(card.requestState ? { requestState: card.requestState } : {}) };
      const result = await call(turn, approvalId, params).catch(() => undefined);
      // A call that failed (the server refused the request state, say) is shown to the user as an error: the
      // transfer did not happen, as far as the host knows.
      if (result === undefined) return env.connections.disclose(turn, approvalId, 'not-happened');
      if (result.resultType === 'input_required') return;
      if (guard) return env.connections.disclose(turn, approvalId, guardedTold(result));
      // The JSDoc's tool acts on accept only: a decline is asked again, above.
      await env.connections.disclose(turn, approvalId, told(result));
    },

    // The server's process died: a new one starts, with nothing of the old (its codec key included). The host, another
    // process, keeps its cards and retries.
    async restart() {
      generation++;
      codec = codecOf();
      handler = createMcpHandler(build);
      guard?.restart();
    },

    // The click on a guarded card: the user's browser on the server's confirmation page.
    ...(guard ? { approve: (turn: string, approvalId: string) => guard.app.approve(turn, approvalId) } : {}),

    // The host holds the call it answers: it can send other arguments with the accepted confirmation (and, with the
    // codec, the real request state), and nothing on the server compares them with what the card showed.
    async tamper(approvalId, action) {
      const card = cards.get(approvalId);
      if (card) cards.set(approvalId, { ...card, tool: action.operation, args: toolInput(action) });
    },

    async inspect(approvalId) {
      if (guard) return guard.inspect(approvalId);
      return cards.has(approvalId) ? { state: 'unspent', version: 1 } : { state: 'absent', version: 0 };
    },

    // The record by the key the gates declare: each card the host was given, as its request would carry it.
    async contents() {
      if (guard) return guard.contents();
      return Object.fromEntries([...cards.keys()].map((approvalId) => [record(approvalId), 'unspent']));
    },

    async close() {
      guard?.close();
      await client.close().catch(() => {});
    },
  };
}
