// Which turn is running, and which approval each tool call answers to. The SDK calls the model and the tools with
// nothing that names the app's request, so the app's route runs inside this context and the fakes read it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { GuardedOutcome } from '@approval-conformance/core/kit';

export interface RequestContext {
  readonly turn: string;
  /** toolCallId → the approval it runs under, from the transcript the request was served from. */
  readonly approvalOfCall: ReadonlyMap<string, string>;
  /** How many times this request has called a tool for each approval: each call is its own dispatch. */
  readonly dispatches: Map<string, number>;
  /** Guarded: the world each approval the model proposed in this request was proposed in (the guard binds it). */
  readonly proposedWorlds: Map<string, string>;
  /** Guarded: what became of each guarded tool call this request ran, by toolCallId, in the order they ran. */
  readonly outcomes: Map<string, GuardedOutcome[]>;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const inRequest = <T>(context: RequestContext, body: () => Promise<T>): Promise<T> => storage.run(context, body);

export function currentRequest(): RequestContext {
  const context = storage.getStore();
  if (!context) throw new Error('the SDK called the model or a tool outside a request');
  return context;
}
