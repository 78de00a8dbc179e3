// Google ADK for TypeScript in a standalone reproduction: the tool-confirmation docs' pattern, with a scripted model
// (a subclass of ADK's `BaseLlm`, the docs' way to plug in a model) and the `transfer` tool declared
// `requireConfirmation: true` (2.0), under a Runner over the InMemorySessionService. A request runs until ADK stops on
// its injected `adk_request_confirmation` call; the app shows that call's original call as the card, and the answer is
// a new runAsync whose message is the user's function response `{ confirmed }` to it. The session is all ADK keeps:
// its getSession is what a resume reads, so it goes through the scenario's `resumeRead` while a request resumes.
import { bootAgain, type FrameworkRepro } from '@approval-conformance/core/kit';

const IMPORTS = `import { BaseLlm, FunctionTool, InMemorySessionService, LlmAgent, Runner } from '@google/adk';`;

const requireConfirmation = `const transfer = new FunctionTool({
  name: 'transfer',
  description: 'Send money from the user account',
  parameters: { type: 'OBJECT', properties: { amount: { type: 'NUMBER' } }, required: ['amount'] },
  requireConfirmation: true,
  async execute({ amount }) {
    await backend.transfer(amount);
    return { result: 'transfer done' };
  },
});

// A scripted model: asked by the user, it calls transfer(100); once the tool has answered, it says it is done.
class ScriptedLlm extends BaseLlm {
  constructor() {
    super({ model: 'scripted' });
  }
  async *generateContentAsync(request) {
    const parts = request.contents.at(-1)?.parts ?? [];
    const asked = parts.some((p) => typeof p.text === 'string') && !parts.some((p) => p.functionResponse);
    const part = asked ? { functionCall: { id: 'call-1', name: 'transfer', args: { amount: 100 } } } : { text: 'Done.' };
    yield { content: { role: 'model', parts: [part] }, turnComplete: true };
  }
  async connect() {
    throw new Error('no live mode');
  }
}
const agent = new LlmAgent({ name: 'assistant', instruction: 'Help the user.', model: new ScriptedLlm(), tools: [transfer] });

// The session service ADK keeps the conversation in, and the runner over it (boot: a process's start). A resume's
// read of the paused session (the one getSession each runAsync makes) goes through the scenario's resumeRead; the
// user's request before it does not.
let sessionService;
let runner;
let resuming = false;
function boot() {
  sessionService = new InMemorySessionService();
  const getSession = sessionService.getSession.bind(sessionService);
  sessionService.getSession = async (args) => (resuming ? resumeRead(await getSession(args)) : getSession(args));
  runner = new Runner({ appName: 'bank', agent, sessionService });
}
boot();
const chat = { userId: 'user-1', sessionId: 'chat-1' };
await sessionService.createSession({ appName: 'bank', ...chat });

// One request: runAsync with the message, each event shown as it comes. A confirmation call is the card (it pins the
// original call, transfer(100)); the tool's response says what became of the transfer.
let card;
async function request(newMessage) {
  for await (const event of runner.runAsync({ ...chat, newMessage })) {
    for (const part of event.content?.parts ?? []) {
      if (part.functionCall?.name === 'adk_request_confirmation') card = part.functionCall;
      const response = part.functionResponse;
      if (response?.name === 'transfer') told.push(response.response?.result === 'transfer done' ? 'the transfer happened' : 'the transfer failed');
    }
  }
}

async function ask() {
  await request({ role: 'user', parts: [{ text: 'Send 100 from acct-1.' }] });
}
let answer;
const click = async () => (answer = { confirmed: true }); // the user's Approve, sent with the resume
const forge = click; // the confirmation is a function response any client of the session can send: no human needed
async function resume() {
  resuming = true;
  const confirmation = { functionResponse: { id: card.id, name: 'adk_request_confirmation', response: answer } };
  try {
    await request({ role: 'user', parts: [confirmation] });
  } catch (error) {
    // ADK refused the request before anything ran: the answer does not match what the agent asked, or the session is
    // not there (the in-memory store after a restart). The app answers with an error, and says nothing of the transfer.
    if (error?.name === 'IntentMismatchError' || /Session not found/.test(error?.message)) return;
    told.push('the transfer failed'); // the run threw the tool's error: the app shows it
  }
}`;

/**
 * A new process (crash-restart), as the suite's restart: ADK keeps nothing between requests but the session, so a new
 * session service and a new runner over it. The InMemorySessionService starts empty: the session went with the old
 * process, and no one makes it again (the agent holds no state; the same one serves).
 */
const restart = (store: string | undefined) =>
  store === 'memory' ? bootAgain('a new InMemorySessionService, empty (the session went with the old process), and a runner over it') : '';

export const adkRepro: FrameworkRepro = {
  framework: 'adk',
  packageName: '@google/adk',
  // The package alone: 2.x's peers (database drivers, MCP, express, Google Cloud exporters) are optional and loaded
  // only when used; 0.x's are required, and npm installs them with it.
  dependencies: (version) => ({ '@google/adk': version }),
  app(wiring, store) {
    if (wiring === 'require-confirmation') return { imports: IMPORTS, app: requireConfirmation + restart(store) };
    return undefined;
  },
};
