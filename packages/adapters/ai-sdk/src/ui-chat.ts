// The client: useChat's own machinery without React. A tab is the SDK's AbstractChat (the base of @ai-sdk/react's
// Chat) over a plain ChatState, sending with the SDK's DefaultChatTransport and answering cards with its
// addToolApprovalResponse and `sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses`
// (https://ai-sdk.dev/docs/ai-sdk-ui/chatbot-tool-usage#tool-execution-approval,
// https://ai-sdk.dev/docs/reference/ai-sdk-ui/use-chat, https://ai-sdk.dev/docs/ai-sdk-ui/transport). Only the
// network is fake: the transport's fetch hands the request to the in-process route, and each chunk of the response
// passes the client connection (`receive`, where the suite's delivery gates are) before the tab reads it.
import type { AiLib } from './lib.js';
import type { Part } from './transcript.js';
import type { UiMessage } from './ui-messages.js';

export interface TabOptions {
  readonly chatId: string;
  readonly messages: readonly UiMessage[];
  /** Ids for the messages the tab makes (deterministic, unlike the SDK's default). */
  readonly generateId: () => string;
  /** The app's route, behind the fake network. */
  readonly post: (request: Request) => Promise<Response>;
  /** DefaultChatTransport's option, for the send-only-the-last-message pattern. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly prepareSendMessagesRequest?: (request: any) => { body: object };
  /** The client connection: each chunk of a response, before the tab reads it. */
  readonly receive: (chunk: Part, messages: () => readonly UiMessage[]) => Promise<void>;
  /** Every change of the tab's messages, with the ids of those it made or changed so far. */
  readonly onChange: Changed;
}

type Changed = (messages: readonly UiMessage[], changed: ReadonlySet<string>) => void;

export interface Tab {
  readonly messages: () => readonly UiMessage[];
  /** The user types a message and sends it (useChat's sendMessage). */
  send(text: string): Promise<void>;
  /**
   * The user answers a card (addToolApprovalResponse); resolves once the request the chat sends has been answered.
   * With other cards still open the chat sends nothing yet; `insist` sends it anyway (sendMessage()).
   */
  answer(sdkApprovalId: string, approved: boolean, insist?: boolean): Promise<void>;
  /** The error the last request ended with, if it did. */
  readonly error: () => Error | undefined;
}

/** A ChatState as the framework bindings keep one: the messages, the status, snapshots by structured clone. */
class TabState {
  status = 'ready';
  error: Error | undefined;
  #messages: UiMessage[];
  /** The messages this tab made or changed, by id. */
  readonly #changed = new Set<string>();
  readonly #onChange: Changed;

  constructor(messages: readonly UiMessage[], onChange: Changed) {
    this.#messages = [...messages];
    this.#onChange = onChange;
  }

  get messages(): UiMessage[] {
    return this.#messages;
  }

  set messages(messages: UiMessage[]) {
    this.#update(messages, messages);
  }

  #update(messages: UiMessage[], changed: readonly UiMessage[]) {
    this.#messages = messages;
    for (const m of changed) this.#changed.add(m.id);
    this.#onChange(messages, this.#changed);
  }

  pushMessage = (message: UiMessage) => this.#update([...this.#messages, message], [message]);
  popMessage = () => this.#update(this.#messages.slice(0, -1), []);
  replaceMessage = (index: number, message: UiMessage) => this.#update(this.#messages.with(index, message), [message]);
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

const ORIGIN = 'http://app.test';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Constructor = new (init: Record<string, unknown>) => any;

/** Whether this version's chat answers cards: AbstractChat with addToolApprovalResponse, and the auto-send check. */
export function chatAnswersCards(lib: AiLib): boolean {
  const { AbstractChat, lastAssistantMessageIsCompleteWithApprovalResponses: complete } = lib.ai;
  if (typeof AbstractChat !== 'function' || typeof complete !== 'function') return false;
  const chat = new (class extends (AbstractChat as Constructor) {})({ id: 'probe', state: new TabState([], () => {}) });
  return typeof chat.addToolApprovalResponse === 'function';
}

export function openTab(lib: AiLib, options: TabOptions): Tab {
  const { AbstractChat, DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } = lib.ai;
  const state = new TabState(options.messages, options.onChange);
  const finished: (() => void)[] = [];

  class Connection extends (DefaultChatTransport as Constructor) {
    processResponseStream(stream: ReadableStream<Uint8Array>) {
      return super.processResponseStream(stream).pipeThrough(
        new TransformStream<Part, Part>({
          async transform(chunk, controller) {
            await options.receive(chunk, () => state.messages);
            controller.enqueue(chunk);
          },
        }),
      );
    }
  }
  const transport = new Connection({
    api: '/api/chat',
    fetch: (url: string, init: RequestInit) => options.post(new Request(new URL(url, ORIGIN), init)),
    ...(options.prepareSendMessagesRequest ? { prepareSendMessagesRequest: options.prepareSendMessagesRequest } : {}),
  });
  const chat = new (class Tab extends (AbstractChat as Constructor) {})({
    id: options.chatId,
    generateId: options.generateId,
    state,
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onFinish: () => finished.splice(0).forEach((resolve) => resolve()),
  });

  const busy = () => chat.status === 'submitted' || chat.status === 'streaming';
  return {
    messages: () => state.messages,
    error: () => state.error,
    async send(text) {
      await chat.sendMessage({ text });
    },
    async answer(sdkApprovalId, approved, insist = false) {
      const answered = new Promise<void>((resolve) => finished.push(resolve));
      await chat.addToolApprovalResponse({ id: sdkApprovalId, approved });
      if (busy()) await answered;
      else if (insist) await chat.sendMessage();
    },
  };
}
