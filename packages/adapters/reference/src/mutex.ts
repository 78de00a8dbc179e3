// A FIFO lock per key, for one process: `acquire` resolves when the key is free and the caller holds it.
export class KeyedMutex {
  readonly #held = new Set<string>();
  readonly #waiting = new Map<string, Array<() => void>>();

  /** Takes the key if it is free right now. */
  tryAcquire(key: string): boolean {
    if (this.#held.has(key)) return false;
    this.#held.add(key);
    return true;
  }

  acquire(key: string): Promise<void> {
    if (this.tryAcquire(key)) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.set(key, [...(this.#waiting.get(key) ?? []), resolve]));
  }

  /** Hands the key to the next waiter, or frees it. */
  release(key: string): void {
    const next = this.#waiting.get(key)?.shift();
    if (next) next();
    else this.#held.delete(key);
  }
}
