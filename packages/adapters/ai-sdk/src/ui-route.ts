// The app's chat route for useChat, as the docs write it, in their two ways of holding the history:
// - client: the client sends the whole history; the route converts it (convertToModelMessages, awaited:
//   https://ai-sdk.dev/docs/reference/ai-sdk-ui/convert-to-model-messages), streams, and saves it on finish
//   (https://ai-sdk.dev/docs/ai-sdk-ui/chatbot-message-persistence#storing-messages);
// - server: the client sends only its last message and the chat id; the route loads the stored messages, puts the
//   new one after them (or, when the client continues a message, as an answered card does, in its place, as the
//   SDK's example route does with `messageId`: github.com/vercel/ai, examples/next/app/api/chat/route.ts), validates,
//   converts, streams, and saves them on finish
//   (https://ai-sdk.dev/docs/ai-sdk-ui/chatbot-message-persistence#sending-only-the-last-message).
// The response is the UI message stream: `toUIMessageStreamResponse` on 6.x, `createUIMessageStreamResponse` over
// `toUIMessageStream` where the version has the standalone helper (7.x). The save is not awaited, as in the docs.
import type { AiLib } from './lib.js';
import type { ChatStore } from './store.js';
import { needsApproval } from './tools.js';
import { approvalOfCall, type ApprovalNames, type Message } from './transcript.js';
import type { UiMessage } from './ui-messages.js';

export interface UiApp {
  readonly lib: AiLib;
  readonly history: 'client' | 'server';
  readonly tools: Record<string, unknown>;
  readonly model: unknown;
  /** The server's chat store: the record with `server` history; with `client` history written, never read. */
  readonly store: ChatStore<UiMessage[]>;
  readonly names: () => ApprovalNames;
}

/** One request, as the world follows it. */
export interface Call {
  readonly turn: string;
  /** toolCallId → the approval it runs under, from the messages the route runs on (the tools read it). */
  readonly approvalOf: Map<string, string>;
  /** The runtime (or the app) refusing the request, as it should; and what went wrong otherwise. */
  readonly refusals: unknown[];
  readonly failures: unknown[];
  /** The saves the route started and did not await. */
  readonly saves: Promise<void>[];
  /** Server-side ids for new assistant messages (the persistence docs' generateMessageId). */
  readonly messageId: () => string;
}

/** SDK errors that are the runtime refusing a request it should refuse; and the app's own (an unknown message). */
const REFUSALS = /InvalidToolApproval|ToolCallNotFoundForApproval|MessageNotFound/;

export const isRefusal = (error: unknown) => REFUSALS.test(String((error as Error)?.name));

class MessageNotFound extends Error {
  override readonly name = 'MessageNotFound';
}

/** The server pattern: the stored messages with the client's last message after them, or in place of the one it continues. */
async function withStored(app: UiApp, turn: string, body: { message: UiMessage; messageId?: string }): Promise<UiMessage[]> {
  const stored = (await app.store.load(turn)) ?? [];
  if (body.messageId == null) return [...stored, body.message];
  const index = stored.findIndex((m) => m.id === body.messageId);
  if (index === -1) throw new MessageNotFound(`message ${body.messageId} not found`);
  return [...stored.slice(0, index), body.message];
}

export async function post(app: UiApp, call: Call, request: Request): Promise<Response> {
  const { ai } = app.lib;
  const body = (await request.json()) as { messages: UiMessage[]; message: UiMessage; messageId?: string };
  const messages: UiMessage[] =
    app.history === 'client'
      ? body.messages
      : await ai['validateUIMessages']({ messages: await withStored(app, call.turn, body), tools: app.tools });
  const modelMessages: Message[] = await ai['convertToModelMessages'](messages);
  for (const [id, approval] of approvalOfCall(modelMessages, 'native', app.names(), needsApproval)) call.approvalOf.set(id, approval);

  const result = ai['streamText']({
    model: app.model,
    tools: app.tools,
    messages: modelMessages,
    maxRetries: 0,
    onError: ({ error }: { error: unknown }) => void (isRefusal(error) ? call.refusals : call.failures).push(error),
  });
  const save = ({ messages: all }: { messages: UiMessage[] }) => {
    call.saves.push(app.store.save(call.turn, all));
  };
  const ids = app.history === 'server' ? { generateMessageId: call.messageId } : {};
  if (typeof ai['toUIMessageStream'] === 'function') {
    const stream = ai['toUIMessageStream']({ stream: result.stream, originalMessages: messages, ...ids, onEnd: save });
    return ai['createUIMessageStreamResponse']({ stream });
  }
  return result.toUIMessageStreamResponse({ originalMessages: messages, ...ids, onFinish: save });
}
