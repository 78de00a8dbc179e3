// The model: the version's own `ai/test` mock (V2 for 5.x, V3 for 6.x, V4 for 7.x), answering from the adversary's
// choices. Asked with the user's request, it calls a tool with the action the adversary picks. Asked after a tool
// ran, it asks for the flow's second approval if the scenario wants one, or says it is done.
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
import type { AiLib } from './lib.js';

export { actionOfCall as actionOf, followUpId, toolInput as inputOf } from '@approval-conformance/core/kit';

export type Brain = Proposer;
export type Reply = ModelReply;

interface PromptMessage {
  readonly role: string;
  readonly content: unknown;
}

const ids = (prompt: readonly PromptMessage[], role: string, type: string) =>
  prompt
    .filter((m) => m.role === role && Array.isArray(m.content))
    .flatMap((m) => (m.content as { type: string; toolCallId?: string }[]).filter((p) => p.type === type))
    .map((p) => p.toolCallId);

/** The adversary's model: what it answers to a prompt. */
export const brainReply = (brain: Brain) => async (prompt: readonly PromptMessage[]): Promise<Reply> => {
  const { turn, proposedWorlds } = currentRequest();
  const last = prompt.at(-1);
  const propose = async (id: string, alternatives: readonly Action[], decision: string) => {
    const { action, world } = await proposeAction(brain, turn, id, alternatives, decision);
    // The world the model proposed in, for the guard's record (guarded wirings) when the route shows the card.
    proposedWorlds.set(id, world);
    return { call: { id, action } };
  };
  if (last?.role === 'user') return proposeRequested(brain, async (...args) => (await propose(...args)).call);
  // After a tool result: the flow's second approval, once, after its first ran.
  const followUp = brain.request().followUp;
  if (followUp) {
    const called = new Set(ids(prompt, 'assistant', 'tool-call'));
    const first = ids(prompt, 'tool', 'tool-result').find((id) => id && !id.includes('.') && !called.has(followUpId(id)));
    if (first) return propose(followUpId(first), [followUp], 'propose-follow-up');
  }
  return { text: 'Done.' };
};

/** The mock model class this version ships, and the result shapes its specification version wants. */
export function mockModel(lib: AiLib, reply: (prompt: readonly PromptMessage[]) => Promise<Reply>): unknown {
  const Mock = lib.test['MockLanguageModelV4'] ?? lib.test['MockLanguageModelV3'] ?? lib.test['MockLanguageModelV2'];
  if (typeof Mock !== 'function') throw new Error(`ai/test ${lib.version} has no MockLanguageModel`);
  const spec: string = new Mock().specificationVersion;
  const v2 = spec === 'v2';
  const finish = (reason: string) => (v2 ? reason : { unified: reason, raw: reason });
  const usage = v2
    ? { inputTokens: 1, outputTokens: 1, totalTokens: 2 }
    : {
        inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 1, text: 1, reasoning: 0 },
      };
  const toolCall = (call: { id: string; action: Action }) => ({
    type: 'tool-call',
    toolCallId: call.id,
    toolName: call.action.operation,
    input: JSON.stringify(inputOf(call.action)),
  });
  const content = (r: Reply) => ('calls' in r ? r.calls.map(toolCall) : 'call' in r ? [toolCall(r.call)] : [{ type: 'text', text: r.text }]);
  const reason = (r: Reply) => ('text' in r ? 'stop' : 'tool-calls');

  return new Mock({
    doGenerate: async (options: { prompt: PromptMessage[] }) => {
      const r = await reply(options.prompt);
      return { content: content(r), finishReason: finish(reason(r)), usage, warnings: [] };
    },
    doStream: async (options: { prompt: PromptMessage[] }) => {
      const r = await reply(options.prompt);
      const chunks: unknown[] = [{ type: 'stream-start', warnings: [] }];
      if (!('text' in r)) chunks.push(...content(r));
      else chunks.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: r.text }, { type: 'text-end', id: 't' });
      chunks.push({ type: 'finish', finishReason: finish(reason(r)), usage });
      const stream = new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      });
      return { stream };
    },
  });
}
