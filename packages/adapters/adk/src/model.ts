// The model: a `BaseLlm` of our own (the docs' way to plug in a model), answering from the adversary's choices.
// Asked after the user's message, it calls a tool with the action the adversary picks; its call id is the suite's
// approval name (a1, a2, ...), which ADK keeps (it names only calls that come without an id). Asked after a tool
// ran, it asks for the flow's second approval if the scenario wants one (a1.2 after a1), or says it is done.
import { type Action } from '@approval-conformance/core/contract';
import {
  followUpId,
  proposeAction,
  proposeRequested,
  toolInput,
  type ModelReply,
  type Proposer,
} from '@approval-conformance/core/kit';
import { currentRequest } from './context.js';
import type { AdkLib } from './lib.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const parts = (content: Any): Any[] => (Array.isArray(content?.parts) ? content.parts : []);

/** The adversary's model: what it answers to the request's contents. */
export const brainReply = (brain: Proposer) => async (contents: readonly Any[]): Promise<ModelReply> => {
  const { turn, proposedWorlds } = currentRequest();
  const last = contents.at(-1);
  const propose = async (id: string, alternatives: readonly Action[], decision: string) => {
    const { action, world } = await proposeAction(brain, turn, id, alternatives, decision);
    proposedWorlds.set(id, world);
    return { call: { id, action } };
  };
  const lastParts = parts(last);
  if (last?.role === 'user' && lastParts.some((p) => typeof p.text === 'string') && !lastParts.some((p) => p.functionResponse)) {
    return proposeRequested(brain, async (...args) => (await propose(...args)).call);
  }
  const followUp = brain.request().followUp;
  if (followUp) {
    const all = contents.flatMap(parts);
    const called = new Set(all.filter((p) => p.functionCall).map((p) => p.functionCall.id as string));
    const first = all
      .filter((p) => p.functionResponse)
      .map((p) => p.functionResponse.id as string)
      .find((id) => typeof id === 'string' && called.has(id) && !id.includes('.') && !called.has(followUpId(id)));
    if (first) return propose(followUpId(first), [followUp], 'propose-follow-up');
  }
  return { text: 'Done.' };
};

/** The model object the agent is built with: a subclass of the version's `BaseLlm`. */
export function buildModel(lib: AdkLib, reply: (contents: readonly Any[]) => Promise<ModelReply>): unknown {
  const { BaseLlm } = lib.adk;
  class AdversaryLlm extends BaseLlm {
    constructor() {
      // 0.x takes the model's name, later versions `{ model }`.
      super({ model: 'adversary' });
      this.model = 'adversary';
    }

    async *generateContentAsync(request: Any) {
      const r = await reply(request?.contents ?? []);
      const functionCall = (call: { id: string; action: Action }) => ({
        functionCall: { id: call.id, name: call.action.operation, args: toolInput(call.action) },
      });
      const content =
        'calls' in r
          ? { role: 'model', parts: r.calls.map(functionCall) }
          : 'call' in r
            ? { role: 'model', parts: [functionCall(r.call)] }
            : { role: 'model', parts: [{ text: r.text }] };
      yield { content, turnComplete: true };
    }

    async connect(): Promise<never> {
      throw new Error('the adversary model has no live mode');
    }
  }
  return new AdversaryLlm();
}
