// What an installed ADK can do, found by looking, never by version number: whether `FunctionTool` takes
// `requireConfirmation` (2.0), whether it has a database session service (0.4), and whether a confirmation a tool
// asked for itself (`toolContext.requestConfirmation`) can be answered: a short run in memory with a tool of its own
// and a model that calls it once, answered with the documented function response.
import type { AdkLib } from './lib.js';
import { confirmation } from './app.js';
import { gatesIn, type Any } from './record.js';

export interface Features {
  readonly requireConfirmation: boolean;
  readonly database: boolean;
  /** Why an agent does not run on this version with a model of the app's own, or undefined if it does. */
  readonly agentFails: string | undefined;
  /** Why a tool's own request for confirmation cannot be answered on this version, or undefined if it can. */
  readonly requestedResumeFails: string | undefined;
}

export async function detectFeatures(lib: AdkLib): Promise<Features> {
  // Quiet first: ADK logs each event it replays at info level (0.x), to stdout.
  lib.adk['setLogLevel']?.(lib.adk['LogLevel']?.ERROR ?? 3);
  const { FunctionTool, DatabaseSessionService } = lib.adk;
  return {
    requireConfirmation: typeof FunctionTool?.prototype?.checkRequireConfirmation === 'function',
    database: typeof DatabaseSessionService === 'function',
    ...(await probe(lib)),
  };
}

async function probe(lib: AdkLib): Promise<Pick<Features, 'agentFails' | 'requestedResumeFails'>> {
  const { BaseLlm, LlmAgent, FunctionTool, Runner, InMemorySessionService } = lib.adk;
  let ran = 0;
  const tool = new FunctionTool({
    name: 'probe',
    description: 'probe',
    parameters: { type: 'OBJECT', properties: {} },
    execute: async (_args: unknown, context: Any) => {
      if (!context.toolConfirmation) {
        context.requestConfirmation({ hint: 'probe' });
        return { pending: true };
      }
      if (context.toolConfirmation.confirmed) ran++;
      return { ok: true };
    },
  });
  class Once extends BaseLlm {
    constructor() {
      super({ model: 'probe' });
      this.model = 'probe';
    }
    async *generateContentAsync(request: Any) {
      const asked = (request?.contents ?? []).some((c: Any) => (c?.parts ?? []).some((p: Any) => p.functionCall));
      yield { content: { role: 'model', parts: [asked ? { text: 'ok' } : { functionCall: { id: 'p1', name: 'probe', args: {} } }] }, turnComplete: true };
    }
    async connect(): Promise<never> {
      throw new Error('no live mode');
    }
  }
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'probe', agent: new LlmAgent({ name: 'probe', model: new Once(), tools: [tool] }), sessionService });
  const session = await sessionService.createSession({ appName: 'probe', userId: 'u' });
  const drain = async (newMessage: unknown) => {
    const events: Any[] = [];
    for await (const event of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage })) events.push(event);
    return events;
  };
  let gate;
  try {
    gate = gatesIn(await drain({ role: 'user', parts: [{ text: 'go' }] }))[0];
  } catch (error) {
    const entry = lib.entry === 'commonjs' ? ' (its ES module entry does not load on this Node, so its CommonJS entry was used)' : '';
    return { agentFails: `on this version an agent does not run on a model of the app's own: ${(error as Error).message}${entry}`, requestedResumeFails: undefined };
  }
  if (!gate) return { agentFails: undefined, requestedResumeFails: 'a tool that calls toolContext.requestConfirmation does not pause this version' };
  try {
    await drain(confirmation(gate.gateId, true));
  } catch (error) {
    return { agentFails: undefined, requestedResumeFails: `this version refuses the answer to a confirmation a tool asked for itself: ${(error as Error).message}` };
  }
  return {
    agentFails: undefined,
    requestedResumeFails: ran === 1 ? undefined : `the tool did not run after its confirmation was answered (it ran ${ran} times)`,
  };
}
