// The selectors: one gate mechanism, three ways of choosing (fast-check's TaskSelector idea).
import type { PendingGate, Release } from './gate.js';
import type { Selector } from './run.js';

/** Follows a schedule exactly, then stops. A named gate that is not pending makes the run fail with a mismatch. */
export function replaySelector(schedule: readonly Release[]): Selector {
  return { next: (_pending, step) => schedule[step] ?? 'stop' };
}

/** Follows a schedule as far as it fits: skips releases whose gate is not pending, then stops. Used to shrink. */
export function lenientReplaySelector(schedule: readonly Release[]): Selector {
  let cursor = 0;
  return {
    next(pending) {
      while (cursor < schedule.length) {
        const release = schedule[cursor++]!;
        const gate = pending.find((g) => g.id === release.gate);
        if (gate && (release.crash ? gate.crashable : release.choice < gate.choices)) return release;
      }
      return 'stop';
    },
  };
}

/** Program order (the first pending gate, its first choice), except at gate `way.gate`, which takes `way.choice`. */
export function waySelector(way: { readonly gate: string; readonly choice: number }): Selector {
  return {
    next(pending) {
      const chosen = pending.find((g) => g.id === way.gate);
      if (chosen) return { gate: chosen.id, choice: way.choice };
      const first = pending[0];
      return first ? { gate: first.id, choice: 0 } : 'stop';
    },
  };
}

/** Seeded random choices: the same seed gives the same schedule for a deterministic subject. */
export function randomSelector(seed: number): Selector {
  const random = seededRandom(seed);
  return {
    next(pending: readonly PendingGate[]) {
      const gate = pending[Math.floor(random() * pending.length)]!;
      // A crashable gate is a crash point about one time in eight.
      if (gate.crashable && random() < 1 / 8) return { gate: gate.id, choice: 0, crash: true };
      return { gate: gate.id, choice: Math.floor(random() * gate.choices) };
    },
  };
}

/** Numbers in [0, 1) from a seed (mulberry32): the same seed, the same numbers. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
