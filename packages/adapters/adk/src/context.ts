// Which turn is running. ADK calls the model, the tools and the session service with nothing that names the app's
// request, so the app's handler runs inside this context and the fakes and the gates read it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { GuardedOutcome } from '@approval-conformance/core/kit';

export interface RequestContext {
  readonly turn: string;
  /** How many times this request has run a tool for each approval: each run is its own dispatch. */
  readonly dispatches: Map<string, number>;
  /** The world each approval the model proposed in this request was proposed in (the guard binds it). */
  readonly proposedWorlds: Map<string, string>;
  /** Guarded: what became of each guarded tool call this request ran, by call id, in the order they ran. */
  readonly outcomes: Map<string, GuardedOutcome[]>;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const newRequest = (turn: string): RequestContext => ({ turn, dispatches: new Map(), proposedWorlds: new Map(), outcomes: new Map() });

export const inRequest = <T>(context: RequestContext, body: () => Promise<T>): Promise<T> => storage.run(context, body);

/** The request running now, or undefined outside one (the world's own set-up and bookkeeping). */
export const maybeRequest = (): RequestContext | undefined => storage.getStore();

export function currentRequest(): RequestContext {
  const context = storage.getStore();
  if (!context) throw new Error('ADK called the model or a tool outside a request');
  return context;
}
