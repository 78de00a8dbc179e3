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
import type { World, WorldEnv } from '@approval-conformance/core/contract';
import { actionOfCall, toolInput } from '@approval-conformance/core/kit';
import type { MrtrLib } from './lib.js';
import { turns } from './turns.js';

const SCHEMA = { type: 'object', properties: { confirm: { type: 'boolean', title: 'Go ahead?' } }, required: ['confirm'] };

/**
 * The codec's key for a process of the server: examples/mrtr draws a random one at start, so a restart has another.
 * Here it is fixed per process (the world's generation), for worlds that behave the same every time.
 */
const keyOf = (generation: number) => new Uint8Array(32).fill(7 + generation);

export function mrtrWorld(env: WorldEnv, lib: MrtrLib, signed: boolean): World {
  const { McpServer, createMcpHandler, inputRequired, acceptedContent, createRequestStateCodec } = lib.server;
  const { Client, StreamableHTTPClientTransport } = lib.client;
  const z = lib.zod;
  let generation = 0;
  const codecOf = () => (signed ? createRequestStateCodec({ key: keyOf(generation), ttlSeconds: 600 }) : undefined);
  let codec = codecOf();
  const record = (approvalId: string) => `record:${approvalId}`;

  const build = () => {
    const server = new McpServer({ name: 'bank', version: '1' }, { capabilities: { tools: {} }, ...(codec ? { requestState: { verify: codec.verify } } : {}) });
    for (const name of ['transfer', 'notify']) {
      server.registerTool(name, { inputSchema: z.object({ targets: z.array(z.string()), params: z.record(z.string(), z.unknown()) }) }, async (args: unknown, ctx: { mcpReq: { inputResponses?: unknown } }) => {
        const { turn, approvalId } = turns.getStore()!;
        const confirmed = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
        if (confirmed?.confirm !== true) {
          return inputRequired({
            inputRequests: { confirm: inputRequired.elicit({ message: `${name}?`, requestedSchema: SCHEMA }) },
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
  // The server's process: a new one on restart (the JSDoc's server keeps nothing; the codec's key is lost).
  let handler = createMcpHandler(build);
  let started = false;
  const fetch = async (url: string | URL, init?: RequestInit) => {
    const now = turns.getStore();
    // The first round's answer writes the approval (the card the host is given); a round that answers it reads it.
    if (started && now) await env.gate(now.turn, `http ${init?.method ?? 'GET'} (${now.approvalId})`, { access: [{ key: record(now.approvalId), mode: now.writes ? 'write' : 'read' }] });
    return handler.fetch(new Request(url, init));
  };
  const client = new Client(
    { name: 'host', version: '1' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } }, inputRequired: { autoFulfill: false } },
  );
  const connected = client.connect(new StreamableHTTPClientTransport(new URL('http://bank.invalid/mcp'), { fetch })).then(() => {
    started = true;
  });
  const call = (turn: string, approvalId: string, params: Record<string, unknown>, writes = false) =>
    turns.run({ turn, approvalId, writes }, () => client.request({ method: 'tools/call', params }, { allowInputRequired: true }) as Promise<{ resultType?: string; requestState?: string }>);

  // The cards the host holds: what each asked, to answer it (not a record: the server never reads it).
  const cards = new Map<string, { tool: string; args: unknown; requestState?: string }>();
  let proposals = 0;

  return {
    async propose(turn, request) {
      await connected;
      const action = await env.model.decide(turn, 'propose', request.alternatives);
      const approvalId = `a${++proposals}`;
      env.history.emit({ kind: 'proposed', actor: turn, approvalId, action, world: env.backend.world });
      const args = toolInput(action);
      const result = await call(turn, approvalId, { name: action.operation, arguments: args }, true);
      if (result.resultType !== 'input_required') return undefined;
      cards.set(approvalId, { tool: action.operation, args, ...(result.requestState ? { requestState: result.requestState } : {}) });
      env.history.emit({ kind: 'record-write', actor: turn, approvalId, version: 1, from: 'absent', state: 'unspent' });
      await env.connections.deliverCard(turn, approvalId, action);
      return { approvalId, action };
    },

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
      if (approved) await env.connections.disclose(turn, approvalId, 'happened');
    },

    // The server's process died: a new one starts, with nothing of the old (its codec key included). The host, another
    // process, keeps its cards and retries.
    async restart() {
      generation++;
      codec = codecOf();
      handler = createMcpHandler(build);
    },

    // The host holds the call it answers: it can send other arguments with the accepted confirmation (and, with the
    // codec, the real request state), and nothing on the server compares them with what the card showed.
    async tamper(approvalId, action) {
      const card = cards.get(approvalId);
      if (card) cards.set(approvalId, { ...card, tool: action.operation, args: toolInput(action) });
    },

    async inspect(approvalId) {
      return cards.has(approvalId) ? { state: 'unspent', version: 1 } : { state: 'absent', version: 0 };
    },

    // The record by the key the gates declare: each card the host was given, as its request would carry it.
    async contents() {
      return Object.fromEntries([...cards.keys()].map((approvalId) => [record(approvalId), 'unspent']));
    },

    async close() {
      await client.close().catch(() => {});
    },
  };
}
