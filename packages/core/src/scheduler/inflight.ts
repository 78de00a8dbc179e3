// Native work in flight: a WebCrypto job or a file request finishes on the thread pool, after any number of
// event-loop rounds, so "nothing changed for a few rounds" does not mean it is done. Quiescence waits for it too.
// Timers are not tracked here: a subject that sleeps runs on a virtual clock instead (`timers.ts`).
import { createHook } from 'node:async_hooks';

/**
 * Async resource types that stand for a request to the thread pool (HASHREQUEST, SIGNREQUEST, FSREQCALLBACK, ...), or
 * to another thread: a MESSAGEPORT, such as the one a dynamic import() opens to module-loader hooks running off the
 * main thread (tsx's), counted until its first message is handled.
 */
const NATIVE = /REQUEST$|^FSREQ|^MESSAGEPORT$/;

/**
 * The requests in flight, each until its callback has run (`after`). No `destroy` hook: while any hook with one is
 * enabled, Node tracks the end of every promise, which cost a Mastra schedule about a tenth of its CPU (and more in
 * garbage collection). What `destroy` ended before is ended here instead: a resource that can no longer complete
 * (collected: its weak reference is empty), and a crypto job that ran synchronously (`randomUUID` and the sync crypto
 * calls make one and run it at once: it gets no `after`, and no `ondone` to call, which every asynchronous job sets as
 * soon as it is made).
 */
const pending = new Map<number, { readonly type: string; readonly resource: WeakRef<object> }>();

/** A request that will never get an `after`. */
function over({ type, resource }: { readonly type: string; readonly resource: WeakRef<object> }): boolean {
  const live = resource.deref();
  if (live === undefined) return true;
  return CRYPTO.test(type) && typeof (live as { ondone?: unknown }).ondone !== 'function';
}

/** Crypto jobs: the `REQUEST` types that are not file requests. */
const CRYPTO = /^(?!FSREQ).*REQUEST$/;

const hook = createHook({
  init(asyncId, type, _trigger, resource) {
    if (NATIVE.test(type)) pending.set(asyncId, { type, resource: new WeakRef(resource) });
  },
  after(asyncId) {
    pending.delete(asyncId);
  },
});

let users = 0;

/** Start counting native requests (counted: nested runs share one hook). Returns the stop function. */
export function trackNativeWork(): () => void {
  if (users++ === 0) hook.enable();
  return () => {
    if (--users === 0) {
      hook.disable();
      pending.clear();
    }
  };
}

/** How many native requests are in flight now (read between macrotasks: a job made in this one has its `ondone`). */
export function nativeWorkInFlight(): number {
  for (const [id, request] of pending) if (over(request)) pending.delete(id);
  return pending.size;
}
