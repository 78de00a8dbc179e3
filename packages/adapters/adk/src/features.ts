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
    requestedResumeFails: await probeRequested(lib),
  };
}

async function probeRequested(lib: AdkLib): Promise<string | undefined> {
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
  try {
    const gate = gatesIn(await drain({ role: 'user', parts: [{ text: 'go' }] }))[0];
    if (!gate) return 'a tool that calls toolContext.requestConfirmation does not pause this version';
    await drain(confirmation(gate.gateId, true));
    return ran === 1 ? undefined : `the tool did not run after its confirmation was answered (it ran ${ran} times)`;
  } catch (error) {
    return `this version refuses the answer to a confirmation a tool asked for itself: ${(error as Error).message}`;
  }
}
