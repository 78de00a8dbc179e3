// OpenAI Agents JS in a standalone reproduction: the human-in-the-loop guide's pattern, with a scripted model object
// (the SDK's `Model` interface) and the `transfer` tool behind `needsApproval`. Two app shapes, as the adapter wires
// them: the docs' stored RunState (`run-state`, `run-state-stream`), and the guide's server-owned approval state
// (`server-owned-state`), which takes a stored request once before it runs it.
import type { FrameworkRepro } from '@approval-conformance/core/kit';

const IMPORTS = `import { Agent, RunState, Usage, run, setTracingDisabled, tool } from '@openai/agents';

setTracingDisabled(true);`;

const agentText = (overlap: boolean) => `// The app's store of paused runs.
const stored = new Map();

const transfer = tool({
  name: 'transfer',
  description: 'Send money from the user account',
  parameters: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'], additionalProperties: false },
  strict: false,
  needsApproval: true,
  async execute({ amount }) {
    await backend.transfer(amount);
    return 'transfer done';
  },
});

${
  overlap
    ? `const notify = tool({
  name: 'notify',
  description: 'Send the customer a notice',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  strict: false,
  needsApproval: true,
  execute: async () => 'notify done',
});

// A scripted model: asked by the user, it calls transfer(100), or notify when the user asks for a notice; once the
// tool has answered, it says it is done.
const call = (id, name, args) => ({ type: 'function_call', callId: id, name, arguments: args, status: 'completed' });
const reply = (input) => {
  const last = typeof input === 'string' ? { role: 'user', content: input } : input.at(-1);
  if (last?.role !== 'user') return [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.' }] }];
  return JSON.stringify(last.content).includes('notify') ? [call('call-2', 'notify', '{}')] : [call('call-1', 'transfer', '{"amount":100}')];
};`
    : `// A scripted model: asked by the user, it calls transfer(100); once the tool has answered, it says it is done.
const reply = (input) =>
  typeof input === 'string' || input.at(-1)?.role === 'user'
    ? [{ type: 'function_call', callId: 'call-1', name: 'transfer', arguments: '{"amount":100}', status: 'completed' }]
    : [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.' }] }];`
}
const model = {
  async getResponse(request) {
    return { usage: new Usage(), output: reply(request.input), responseId: 'r' };
  },
  async *getStreamedResponse(request) {
    const usage = { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    yield { type: 'response_started' };
    yield { type: 'response_done', response: { id: 'r', usage, output: reply(request.input) } };
  },
};
const agent = new Agent({ name: 'assistant', instructions: 'Help the user.', model, tools: [transfer${overlap ? ', notify' : ''}] });

/** What the app tells the user about the transfer, from the tool's output in a finished run. */
function tell(result) {
  for (const item of result.newItems) {
    if (item.type === 'tool_call_output_item') told.push(item.output === 'transfer done' ? 'the transfer happened' : 'the transfer failed');
  }
}`;

/** `run`, or `run` streamed to its end, as the wiring's path says. */
const runCall = (stream: boolean, input: string) =>
  stream
    ? `const result = await run(agent, ${input}, { stream: true });
  for await (const _event of result); // the app shows what streams
  await result.completed;`
    : `const result = await run(agent, ${input});`;

/** overlapping-turns' second request: a new message in the same chat, run to its notify card and stored under `key`. */
const ask2 = (key: string, how: string) => `// A new request in the same chat (another tab): ${how}.
async function ask2() {
  const result = await run(agent, 'Also notify the customer.');
  if (!result.interruptions.some((item) => item.rawItem?.name === 'notify')) throw new Error('no card for notify');
  stored.set('${key}', result.state.toString());
  secondSaved();
}`;

const runState = (stream: boolean, overlap: boolean) => `${agentText(overlap)}

// The docs' pattern: a request runs to the interruption and stores state.toString(); the click loads it,
// approves the item and stores it again; a resume loads it (resumeRead: the scenario's hook) with RunState.fromString
// and runs it.
async function ask() {
  ${runCall(stream, "'Send 100 from acct-1.'")}
  stored.set('chat-1', result.state.toString());
}
async function approveStored() {
  const state = await RunState.fromString(agent, stored.get('chat-1'));
  state.approve(state.getInterruptions()[0]);
  stored.set('chat-1', state.toString());
}
const click = approveStored; // the user's Approve
const forge = approveStored; // the same call, made by whoever holds the stored state, with no user
async function resume() {
  const state = await RunState.fromString(agent, await resumeRead(stored.get('chat-1')));
  ${runCall(stream, 'state')}${overlap ? '\n  await resumeSave();' : ''}
  stored.set('chat-1', result.state.toString());
  tell(result);
}${
  overlap
    ? `

${ask2('chat-1', 'it runs to its own card and stores its state, as ask does')}
// Whether the stored state still holds a pending call to the tool.
async function holds(name) {
  const state = await RunState.fromString(agent, stored.get('chat-1'));
  return state.getInterruptions().some((item) => item.rawItem?.name === name);
}`
    : ''
}`;

const serverOwned = (overlap: boolean) => `${agentText(overlap)}

// The guide's server-owned approval state: the server keeps each paused run's snapshot under a request id and
// shows the client only that id. A decision takes the stored request (read and delete, no await between) before it
// restores and runs it, so a request is used once.
let requests = 0;
async function ask() {
  const result = await run(agent, 'Send 100 from acct-1.');
  stored.set('request-1', result.state.toString());
  requests++;
}
async function decide(requestId) {
  const snapshot = stored.get(requestId); // the take: no await between the read and the delete
  if (snapshot === undefined) return told.push('that approval request is unavailable');
  stored.delete(requestId);
  const state = await RunState.fromString(agent, snapshot);
  state.approve(state.getInterruptions()[0]);
  const result = await run(agent, state);
  tell(result);
}
let decision;
const click = async () => (decision = 'request-1'); // the user's Approve, for the request the server showed
const forge = click; // any client that holds the request id can send the same decision, with no user
const resume = () => decide(decision ?? 'request-1');${
  overlap
    ? `

${ask2('request-2', 'the server stores its paused run under a request id of its own')}
// Whether some stored request still holds a pending call to the tool.
async function holds(name) {
  for (const snapshot of stored.values()) {
    const state = await RunState.fromString(agent, snapshot);
    if (state.getInterruptions().some((item) => item.rawItem?.name === name)) return true;
  }
  return false;
}`
    : ''
}`;

/**
 * A new process (crash-restart): the SDK keeps nothing between requests, so only the app's store matters. An
 * in-memory store (the docs' Map) is lost with the process; a durable one (SQLite) keeps what was saved.
 */
const restart = (store: string | undefined) =>
  store === undefined
    ? ''
    : store === 'memory'
      ? `

// A new process: the SDK keeps nothing between requests, and the in-memory store went with the old process.
async function restart() {
  stored.clear();
}`
      : `

// A new process: the SDK keeps nothing between requests; the store stands for a durable one (${store}), which
// keeps what was saved before the crash.
async function restart() {}`;

export const openaiAgentsRepro: FrameworkRepro = {
  framework: 'openai-agents',
  packageName: '@openai/agents',
  dependencies: (version) => ({ '@openai/agents': version, zod: '^4.1.0' }),
  app(wiring, store, scenario) {
    const overlap = scenario === 'overlapping-turns';
    if (wiring === 'run-state') return { imports: IMPORTS, app: runState(false, overlap) + restart(store) };
    if (wiring === 'run-state-stream') return { imports: IMPORTS, app: runState(true, overlap) + restart(store) };
    if (wiring === 'server-owned-state') return { imports: IMPORTS, app: serverOwned(overlap) + restart(store) };
    return undefined;
  },
};
