// Which turn is running. Mastra calls the model, the tools and its storage with nothing that names the app's
// request, so the app's handler runs inside this context, and the fakes and the gated storage read it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { GuardedOutcome } from '@approval-conformance/core/kit';

export interface RequestContext {
  readonly turn: string;
  /** How many times this request has called a tool for each approval: each call is its own dispatch. */
  readonly dispatches: Map<string, number>;
  /** The world each approval the model proposed in this request was proposed in (the guard binds it). */
  readonly proposedWorlds: Map<string, string>;
  /** Guarded: what became of each guarded call this request ran, by approval, in the order they ran. */
  readonly outcomes: Map<string, GuardedOutcome[]>;
  /** The runs this request has read (its first read of a run is a gate, its view; later reads are not). */
  readonly viewed: Set<string>;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const newRequest = (turn: string): RequestContext => ({ turn, dispatches: new Map(), proposedWorlds: new Map(), outcomes: new Map(), viewed: new Set() });

export const inRequest = <T>(turn: string, body: () => Promise<T>): Promise<T> => storage.run(newRequest(turn), body);

/** The running request, or undefined outside one (the world's own reads past the gates). */
export const maybeRequest = (): RequestContext | undefined => storage.getStore();

export function currentRequest(): RequestContext {
  const context = storage.getStore();
  if (!context) throw new Error('Mastra called the model or a tool outside a request');
  return context;
}
