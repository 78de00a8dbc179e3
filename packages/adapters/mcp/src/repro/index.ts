// The Model Context Protocol's TypeScript SDKs in a standalone reproduction: a server whose `transfer` tool asks the
// user to confirm, and the SDK's own client as the host, as the adapter wires them. The model's step is scripted (the
// host calls transfer(100)); a version's line is its wiring's:
// - `elicit-input` (1.x, @modelcontextprotocol/sdk): legacy push elicitation, as the SDK's elicitationFormExample writes
//   a tool. The handler awaits `server.server.elicitInput(...)` and makes the transfer on accept; server and host are
//   connected by the SDK's InMemoryTransport. The host's elicitation handler notes the request's id, and the user's
//   answer is the JSON-RPC response to `elicitation/create`, which the host sends through its end of the transport (what
//   the handler's return would send), so that a resume can send it again. The approval's record is the server's
//   pending request, which the first response takes.
// - `input-required` and `input-required-codec` (2.x, @modelcontextprotocol/server and /client): multi-round tool
//   results. The tool answers input_required until the call carries an accepted confirmation (the inputRequired
//   JSDoc), with its request state signed by createRequestStateCodec in the codec wiring (examples/mrtr). The server is
//   createMcpHandler, served through the fetch the client's StreamableHTTPClientTransport is given (no socket); the
//   client is pinned to 2026-07-28 with autoFulfill off, so the host holds the card and a resume is the call sent again
//   with inputResponses (and the requestState). The server keeps nothing between rounds: the approval is what the
//   request carries.
// A resume's read of the paused call is the host's read of the card it holds (`resumeRead`). A crash (crash-restart)
// ends the server's process, with what it held open: a new one starts (a new codec key, for examples/mrtr draws one
// when its process starts), and the host, another process, keeps its card and sends it again. The guarded wirings
// need the suite's guard: the runner says so for every framework (script.ts).
import type { FrameworkRepro } from '@approval-conformance/core/kit';

/** The confirmation the tool asks for, as the adapter's worlds ask it: one boolean. */
const CONFIRM = `// The confirmation the tool asks the user for: one boolean.
const confirmSchema = { type: 'object', properties: { confirm: { type: 'boolean', title: 'Go ahead?' } }, required: ['confirm'] };`;

/** What the host tells the user from the tool's result: its text, or the error it returned. */
const TELL = `// What the host tells the user, from the tool's result: what the tool said, or the error it returned.
const tell = (result) => told.push(!result.isError && result.content?.[0]?.text === 'transfer done' ? 'the transfer happened' : 'the transfer failed');`;

const LEGACY_IMPORTS = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';`;

/** SDK 1.x: the elicitationFormExample's tool, the host over the in-memory transport, and a restart for a crash. */
const legacy = (crash: boolean) => `${CONFIRM}

// The server, as the SDK's elicitationFormExample writes a tool: the handler awaits server.elicitInput (an
// elicitation/create request to the host, open until the host answers it) and makes the transfer on accept.
function bankServer() {
  const server = new McpServer({ name: 'bank', version: '1' }, { capabilities: { tools: {} } });
  const inputSchema = { amount: z.number() };
  server.registerTool('transfer', { description: 'Send money from the user account', inputSchema }, async ({ amount }) => {
    const result = await server.server.elicitInput({ message: \`Transfer \${amount} from acct-1?\`, requestedSchema: confirmSchema });
    if (result.action !== 'accept' || result.content?.confirm !== true) return { content: [{ type: 'text', text: 'declined' }] };
    await backend.transfer(amount);
    return { content: [{ type: 'text', text: 'transfer done' }] };
  });
  return server;
}

// The host: the SDK's Client, connected to a process of the server over the SDK's InMemoryTransport (boot: the
// server's process starts, and the host connects to it). Its elicitation handler shows the card: it notes the
// request's id and leaves the request open. The user's answer is the JSON-RPC response to elicitation/create, which
// the host sends with that id through its end of the transport (what the handler's return would send).
let host;
let card;
let shown;
async function boot() {
  const server = bankServer();
  const client = new Client({ name: 'host', version: '1' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
    card = { id: extra.requestId, message: request.params.message };
    shown();
    return new Promise(() => {}); // answered by the response the host sends itself
  });
  const [hostEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverEnd), client.connect(hostEnd)]);
  host = { client, hostEnd };
}
await boot();

${TELL}

// The user's request: the model calls transfer(100). The call stays open while the tool waits for the answer; once
// the tool returns, the host tells the user what it said.
let call;
async function ask() {
  const cardShown = new Promise((resolve) => (shown = resolve));
  // A call whose connection closed (the server's process died) brings back no result: the host has nothing to say.
  call = host.client.callTool({ name: 'transfer', arguments: { amount: 100 } }).then(tell, () => {});
  await cardShown;
}
let answer;
const click = async () => (answer = { action: 'accept', content: { confirm: true } }); // the user's Approve
const forge = click; // the same response, sent by whoever holds the host's connection: nothing in it comes from a user
async function resume() {
  const { id } = await resumeRead(card);
  await host.hostEnd.send({ jsonrpc: '2.0', id, result: answer });
  await call; // the tool's result (a response to a request the server no longer holds is dropped)
}${
  crash
    ? `

// A new process of the server: the old one went with the request it held open, and the host's connection to it
// closed. The host connects to the new one; it keeps its card, and sends its answer again.
async function restart() {
  await host.client.close();
  await boot();
}`
    : ''
}`;

const mrtrImports = (signed: boolean) => `import { McpServer, acceptedContent, createMcpHandler, ${signed ? 'createRequestStateCodec, ' : ''}inputRequired } from '@modelcontextprotocol/server';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';`;

/** SDK 2.x: the inputRequired JSDoc's tool (with examples/mrtr's codec), createMcpHandler, and the host in manual mode. */
const mrtr = (signed: boolean, crash: boolean) => `${CONFIRM}

// The server's tool, as the inputRequired JSDoc writes one: until the call's inputResponses carry an accepted
// confirmation, it answers input_required with the elicitation; then it makes the transfer.${
  signed
    ? ` The request state is
// examples/mrtr's: signed by createRequestStateCodec, with a TTL, and checked by the server's requestState.verify.`
    : ''
}
function bankServer() {
  const server = new McpServer({ name: 'bank', version: '1' }, { capabilities: { tools: {} }${signed ? ', requestState: { verify: codec.verify }' : ''} });
  const inputSchema = z.object({ amount: z.number() });
  server.registerTool('transfer', { description: 'Send money from the user account', inputSchema }, async ({ amount }, ctx) => {
    const confirmed = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
    if (confirmed?.confirm !== true) {
      const confirm = inputRequired.elicit({ message: \`Transfer \${amount} from acct-1?\`, requestedSchema: confirmSchema });
      return inputRequired({ inputRequests: { confirm }${signed ? ", requestState: await codec.mint({ step: 'confirm', args: { amount } })" : ''} });
    }
    await backend.transfer(amount);
    return { content: [{ type: 'text', text: 'transfer done' }] };
  });
  return server;
}

// The server's process (boot: it starts): createMcpHandler, which serves each HTTP request with a new McpServer and
// keeps nothing between them${signed ? ', and the codec, with the key examples/mrtr draws when the process starts' : ''}.${
  crash ? '\n// When the process dies, the requests it holds open fail, as a closed connection does.' : ''
}
let handler;${signed ? '\nlet codec;' : ''}${crash ? '\nlet dies;\nlet gone;' : ''}
function boot() {${signed ? '\n  codec = createRequestStateCodec({ key: crypto.getRandomValues(new Uint8Array(32)), ttlSeconds: 600 });' : ''}
  handler = createMcpHandler(bankServer);${crash ? '\n  gone = new Promise((_, reject) => (dies = reject));\n  gone.catch(() => {});' : ''}
}
boot();

// The host: the SDK's Client over StreamableHTTPClientTransport, whose fetch hands each request to the server's
// handler in-process (no socket). It is pinned to 2026-07-28, with autoFulfill off: it shows the card (the
// input_required result) and sends the round that answers it itself, the same call with inputResponses${signed ? ' and the\n// requestState' : ''}.
const fetch = (url, init) => ${crash ? 'Promise.race([handler.fetch(new Request(url, init)), gone])' : 'handler.fetch(new Request(url, init))'};
const options = { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } }, inputRequired: { autoFulfill: false } };
const client = new Client({ name: 'host', version: '1' }, options);
await client.connect(new StreamableHTTPClientTransport(new URL('http://bank.example/mcp'), { fetch }));
const callTool = (params) => client.request({ method: 'tools/call', params }, { allowInputRequired: true });

${TELL}

// The user's request: the model calls transfer(100), and the first round answers input_required: the card, which the
// host holds (the call${signed ? ' and its request state' : ''}).
let card;
async function ask() {
  const params = { name: 'transfer', arguments: { amount: 100 } };
  const { requestState } = await callTool(params);
  card = { params, requestState };
}
let answer;
const click = async () => (answer = { action: 'accept', content: { confirm: true } }); // the user's Approve
const forge = click; // the same round, sent by whoever holds the call (the host) with no user; it could change the call's arguments too
async function resume() {
  const { params, requestState } = await resumeRead(card);
  let result;
  try {
    result = await callTool({ ...params, inputResponses: { confirm: answer }, ...(requestState ? { requestState } : {}) });
  } catch (error) {
    // The server answered with an error (it refused the request state, say): the host shows it. A request with no
    // answer at all (its connection closed) tells the user nothing.
    if (error instanceof ProtocolError) told.push('the transfer failed');
    return;
  }
  if (result.resultType !== 'input_required') tell(result); // input_required: asked again, nothing done
}${
  crash
    ? `

// A new process of the server: the old one died${signed ? ', with its codec key' : ''}; what it held open fails. The host, another
// process, keeps its card, and sends it again.
async function restart() {
  dies(new TypeError('fetch failed'));
  boot();
}`
    : ''
}`;

export const mcpRepro: FrameworkRepro = {
  framework: 'mcp',
  // The 1.x package, the descriptor's npm name. 2.x's are @modelcontextprotocol/server and /client (dependencies).
  packageName: '@modelcontextprotocol/sdk',
  // What the adapter installs for a version: the 1.x package with zod 3, or 2.x's server and client (the same
  // version, both on @modelcontextprotocol/core at exactly theirs) with zod 4.
  dependencies: (version): Record<string, string> =>
    Number(version.split('.')[0]) === 1
      ? { '@modelcontextprotocol/sdk': version, zod: '^3.25.76' }
      : { '@modelcontextprotocol/server': version, '@modelcontextprotocol/client': version, zod: '^4.2.0' },
  app(wiring, store) {
    // A crash's script (the store is given only where the script differs by store): the unguarded wirings keep nothing
    // but the server's memory, and only the memory store's cell applies to them.
    const crash = store === 'memory';
    if (wiring === 'elicit-input') return { imports: LEGACY_IMPORTS, app: legacy(crash) };
    // The server keeps nothing between rounds, so its restart loses nothing of the call: the retry runs it again, or
    // (the codec, with the new process's key) is refused.
    if (wiring === 'input-required') {
      return { imports: mrtrImports(false), app: mrtr(false, crash), ...(crash ? { actual: 'The backend applied 2. The user was told: the transfer happened.' } : {}) };
    }
    if (wiring === 'input-required-codec') {
      return { imports: mrtrImports(true), app: mrtr(true, crash), ...(crash ? { actual: 'The backend applied 1. The user was told: the transfer failed (the new process refused the request state signed with the old key).' } : {}) };
    }
    return undefined;
  },
};
