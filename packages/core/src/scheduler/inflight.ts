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

const pending = new Set<number>();

const hook = createHook({
  init(asyncId, type) {
    if (NATIVE.test(type)) pending.add(asyncId);
  },
  after(asyncId) {
    pending.delete(asyncId);
  },
  destroy(asyncId) {
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

/** How many native requests are in flight now. */
export const nativeWorkInFlight = (): number => pending.size;
