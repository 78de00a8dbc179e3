// Fake timers, for subjects that sleep between gates (a poll until another request's run moves on, a backoff). A run
// that asks for them gives its program a virtual clock: Date.now starts at a fixed instant and moves only when a
// timer fires, and a timer fires only when every turn is blocked (parked at a gate that nobody released, waiting, or
// finished), so time passes only when nothing else can happen. The earliest timer fires first, then the first set;
// firing one is not a choice, so no schedule names it. A timer's callback runs in the async context that set it, as
// a real timer's does, so it is its turn's code (`attribution.ts`). A zero-delay timer stays real: it is a hop through
// the macrotask queue, which quiescence already waits out.
import { AsyncLocalStorage } from 'node:async_hooks';

/** Where every virtual clock starts (any fixed instant would do). */
const BASE = Date.UTC(2026, 0, 1);

/** What code gets back from setTimeout on a virtual clock: enough of Node's Timeout to ref, unref and clear it. */
export class FakeTimeout {
  constructor(
    readonly clock: FakeClock,
    readonly id: number,
  ) {}
  ref = () => this;
  unref = () => this;
  hasRef = () => true;
  refresh = () => this;
  [Symbol.toPrimitive] = () => this.id;
}

interface Timer {
  readonly id: number;
  readonly due: number;
  readonly fn: (...args: unknown[]) => void;
  readonly args: unknown[];
  /** Runs a function in the async context that set the timer. */
  readonly within: <R>(fn: () => R) => R;
}

export class FakeClock {
  now = BASE;
  /** Timers fired so far in this run. */
  fired = 0;
  #timers: Timer[] = [];
  #ids = 0;

  set(fn: (...args: unknown[]) => void, ms: number, args: unknown[]): FakeTimeout {
    const id = ++this.#ids;
    this.#timers.push({ id, due: this.now + ms, fn, args, within: AsyncLocalStorage.snapshot() });
    return new FakeTimeout(this, id);
  }

  clear(handle: FakeTimeout): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle.id);
  }

  /** Fires the earliest timer (the first set among equals), moving the clock to it; false when none is set. */
  fireNext(): boolean {
    if (this.#timers.length === 0) return false;
    const next = this.#timers.reduce((a, b) => (b.due < a.due ? b : a));
    this.#timers = this.#timers.filter((t) => t !== next);
    this.now = Math.max(this.now, next.due);
    this.fired++;
    next.within(() => next.fn(...next.args));
    return true;
  }
}

const current = new AsyncLocalStorage<FakeClock>();

/**
 * The virtual time of the code running now, or undefined outside a run on a virtual clock: whole milliseconds, as
 * Date.now's are (a timer set for a fraction of a millisecond moves the clock by that fraction, and code that stores
 * Date.now in an integer column, as DBOS does, refuses a fraction).
 */
export const fakeNow = (): number | undefined => {
  const now = current.getStore()?.now;
  return now === undefined ? undefined : Math.floor(now);
};

let installed = false;

/** setTimeout and clearTimeout that consult the running code's virtual clock (installed once, for the process). */
function install(): void {
  if (installed) return;
  installed = true;
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  const fakeSet = (fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const clock = current.getStore();
    return clock && typeof fn === 'function' && (ms ?? 0) > 0 ? clock.set(fn, ms!, args) : realSet(fn, ms, ...args);
  };
  globalThis.setTimeout = Object.assign(fakeSet, { __promisify__: realSet.__promisify__ }) as unknown as typeof setTimeout;
  globalThis.clearTimeout = ((handle: unknown) => {
    if (handle instanceof FakeTimeout) handle.clock.clear(handle);
    else realClear(handle as Parameters<typeof clearTimeout>[0]);
  }) as typeof clearTimeout;
}

/** Runs `body` (and everything it starts) on `clock`. */
export function onFakeClock<T>(clock: FakeClock, body: () => T): T {
  install();
  return current.run(clock, body);
}
