// The model: the version's ScriptedModel (`@openai/agents/testing`, 0.16+) where it has one, else a hand-written
// `Model`, both answering from the adversary's choices. Asked with the user's request, it calls a tool with the
// action the adversary picks; its call id is the suite's approval name (a1, a2, ...). Asked after a tool ran, it asks
// for the flow's second approval if the scenario wants one (a1.2 after a1), or says it is done.
import { type Action } from '@approval-conformance/core/contract';
import {
  followUpId,
  proposeAction,
  proposeRequested,
  toolInput as inputOf,
  type ModelReply,
  type Proposer,
} from '@approval-conformance/core/kit';
import { currentRequest } from './context.js';
import type { AgentsLib } from './lib.js';

export { actionOfCall as actionOf, toolInput as inputOf } from '@approval-conformance/core/kit';

export type Brain = Proposer;
export type Reply = ModelReply;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Item = Record<string, any>;

/** The adversary's model: what it answers to the run's input items. */
export const brainReply = (brain: Brain) => async (input: string | readonly Item[]): Promise<Reply> => {
  const { turn, proposedWorlds } = currentRequest();
  const items: readonly Item[] = typeof input === 'string' ? [{ role: 'user', content: input }] : input;
  const last = items.at(-1);
  const propose = async (id: string, alternatives: readonly Action[], decision: string) => {
    const { action, world } = await proposeAction(brain, turn, id, alternatives, decision);
    proposedWorlds.set(id, world);
    return { call: { id, action } };
  };
  if (last?.['role'] === 'user') return proposeRequested(brain, async (...args) => (await propose(...args)).call);
  const followUp = brain.request().followUp;
  if (followUp) {
    const called = new Set(items.filter((i) => i['type'] === 'function_call').map((i) => i['callId'] as string));
    const first = items
      .filter((i) => i['type'] === 'function_call_result')
      .map((i) => i['callId'] as string)
      .find((id) => !id.includes('.') && !called.has(followUpId(id)));
    if (first) return propose(followUpId(first), [followUp], 'propose-follow-up');
  }
  return { text: 'Done.' };
};

const functionCall = (call: { id: string; action: Action }): Item => ({
  type: 'function_call',
  callId: call.id,
  name: call.action.operation,
  arguments: JSON.stringify(inputOf(call.action)),
  status: 'completed',
});

const outputOf = (r: Reply): Item[] =>
  'calls' in r
    ? r.calls.map(functionCall)
    : 'call' in r
      ? [functionCall(r.call)]
      : [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: r.text }] }];

/**
 * The model object the agent is built with. With a ScriptedModel, each call consumes one responder step, and the
 * responder queues the next, so the script never runs dry however many calls a run makes.
 */
export function buildModel(lib: AgentsLib, reply: (input: string | readonly Item[]) => Promise<Reply>): unknown {
  const { Usage } = lib.agents;
  let responses = 0;
  const response = (r: Reply) => ({ usage: new Usage(), output: outputOf(r), responseId: `resp-${++responses}` });
  const Scripted = lib.testing?.['ScriptedModel'];
  const responder = lib.testing?.['modelResponder'];
  if (typeof Scripted === 'function' && typeof responder === 'function') {
    const model = new Scripted();
    const step = () =>
      responder(async (call: { request: { input: string | Item[] } }) => {
        model.enqueue(step());
        return response(await reply(call.request.input));
      });
    model.enqueue(step());
    return model;
  }
  return {
    async getResponse(request: { input: string | Item[] }) {
      return response(await reply(request.input));
    },
    async *getStreamedResponse(request: { input: string | Item[] }) {
      const r = response(await reply(request.input));
      yield { type: 'response_started' };
      yield {
        type: 'response_done',
        response: {
          id: r.responseId,
          usage: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 },
          output: r.output,
        },
      };
    },
  };
}
