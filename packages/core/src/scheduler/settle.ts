// Quiescence: let every turn run until it is blocked at a gate, blocked elsewhere, or finished. Promise jobs all run
// before the next macrotask, so one setImmediate round drains them; a few more rounds catch code that hops through
// the macrotask queue (setImmediate, a zero timeout). Native work on the thread pool (a WebCrypto job) is waited for
// until it is done, however many rounds that takes. Nothing here reads a clock.
import { nativeWorkInFlight } from './inflight.js';

/** Rounds in a row with nothing new before the turns are taken to be settled. */
const STABLE_ROUNDS = 3;
/** Rounds after which a program that keeps changing is reported instead of waited for. */
const MAX_ROUNDS = 10_000;
/** Rounds spent waiting for native work, after which it is taken to be stuck. */
const MAX_NATIVE_ROUNDS = 10_000_000;

const nextMacrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Waits until `signature()` stays the same for a few rounds, calling `onRound` after each round (where finished turns
 * are noticed, which may wake joiners), and never while `busy()` (I/O a turn awaits outside the gates) or native work
 * is in flight. Returns false if it never settled. `notBusy`, if given, resolves once `busy()` is false.
 */
export async function settle(
  signature: () => string,
  onRound: () => void,
  busy: () => boolean = () => false,
  notBusy?: () => Promise<void>,
): Promise<boolean> {
  let last = signature();
  let same = 0;
  let waited = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    await nextMacrotask();
    const native = nativeWorkInFlight() > 0;
    if ((native || busy()) && waited++ < MAX_NATIVE_ROUNDS) {
      // Only I/O awaited through external (no native work): sleep until it ends rather than spin a round per
      // macrotask, which kept a core busy for as long as the other process (a database, workerd) took to answer, and
      // took that core from it. The rounds after it are counted as before.
      if (!native && notBusy) await notBusy();
      round--;
      same = 0;
      continue;
    }
    onRound();
    const now = signature();
    if (now === last) {
      if (++same >= STABLE_ROUNDS) return true;
    } else {
      same = 0;
      last = now;
    }
  }
  return false;
}
