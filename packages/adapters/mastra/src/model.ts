// The model: an object shaped like the AI SDK's LanguageModelV2, which Mastra 1.x agents take, answering from the
// adversary's choices. Asked with the user's request, it calls a tool with the action the adversary picks, and its
// tool call id is the suite's approval name (a1, a2, ...). Asked after a tool ran, it asks for the flow's second
// approval if the scenario wants one (a1.2 after a1), or says it is done. The workflow wiring's planning step asks
// the same adversary directly (`propose`).
import { type Action } from '@approval-conformance/core/contract';
import {
  followUpId,
  proposeAction,
  toolInput as inputOf,
  type ModelReply,
  type Proposer,
} from '@approval-conformance/core/kit';
import { currentRequest } from './context.js';

export { actionOfCall as actionOf, toolInput as inputOf } from '@approval-conformance/core/kit';

export type Brain = Proposer;
/** Mastra's two approvals at once are two runs, so its model makes one call a step. */
type Reply = Exclude<ModelReply, { readonly calls: unknown }>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** The adversary picks one of `alternatives` for the current request; the pick becomes approval `id`. */
export async function propose(brain: Brain, id: string, alternatives: readonly Action[], decision: string) {
  const { turn, proposedWorlds } = currentRequest();
  const { action, world } = await proposeAction(brain, turn, id, alternatives, decision);
  // The world the model proposed in, for the guard's record (guarded wirings) when the app shows the card.
  proposedWorlds.set(id, world);
  return { id, action };
}

/** What the model answers to a LanguageModelV2 prompt. */
async function reply(brain: Brain, prompt: readonly Any[]): Promise<Reply> {
  const last = prompt.at(-1);
  if (last?.role === 'user') return { call: await propose(brain, brain.nextApproval(), brain.request().alternatives, 'propose') };
  const followUp = brain.request().followUp;
  if (followUp) {
    const parts = prompt.flatMap((m: Any) => (Array.isArray(m?.content) ? m.content : []));
    const called = new Set(parts.filter((p: Any) => p?.type === 'tool-call').map((p: Any) => p.toolCallId as string));
    const first = parts
      .filter((p: Any) => p?.type === 'tool-result')
      .map((p: Any) => p.toolCallId as string)
      .find((id: string) => !id.includes('.') && !called.has(followUpId(id)));
    if (first) return { call: await propose(brain, followUpId(first), [followUp], 'propose-follow-up') };
  }
  return { text: 'Done.' };
}

const USAGE = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/** The LanguageModelV2-shaped object the agent is built with: `doGenerate` and `doStream` answer alike. */
export function buildModel(brain: Brain): unknown {
  let responses = 0;
  const answer = async (prompt: readonly Any[]) => {
    const r = await reply(brain, prompt);
    const meta = { id: `resp-${++responses}`, modelId: 'adversary', timestamp: new Date(0) };
    return { r, meta };
  };
  return {
    specificationVersion: 'v2',
    provider: 'approval-conformance',
    modelId: 'adversary',
    supportedUrls: {},
    async doGenerate(options: Any) {
      const { r, meta } = await answer(options.prompt);
      const content =
        'call' in r
          ? [{ type: 'tool-call', toolCallId: r.call.id, toolName: r.call.action.operation, input: JSON.stringify(inputOf(r.call.action)) }]
          : [{ type: 'text', text: r.text }];
      return { content, finishReason: 'call' in r ? 'tool-calls' : 'stop', usage: USAGE, warnings: [], response: meta };
    },
    async doStream(options: Any) {
      const { r, meta } = await answer(options.prompt);
      const parts: Any[] = [{ type: 'stream-start', warnings: [] }, { type: 'response-metadata', ...meta }];
      if ('call' in r) {
        parts.push({ type: 'tool-call', toolCallId: r.call.id, toolName: r.call.action.operation, input: JSON.stringify(inputOf(r.call.action)) });
        parts.push({ type: 'finish', finishReason: 'tool-calls', usage: USAGE });
      } else {
        parts.push({ type: 'text-start', id: 'text-1' }, { type: 'text-delta', id: 'text-1', delta: r.text }, { type: 'text-end', id: 'text-1' });
        parts.push({ type: 'finish', finishReason: 'stop', usage: USAGE });
      }
      const stream = new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      });
      return { stream, request: {}, response: { headers: {} } };
    },
  };
}
