// Happens-before over one run's releases: which release must come before which in every schedule equivalent to this
// one. Two releases are ordered when they do not commute (`independent` says no: same turn, a crash, or accesses the
// properties can tell apart), and a release is ordered after the release that let its turn reach the gate (the one
// after which the gate appeared). Everything else may be swapped without changing the state or any verdict.
// Source-set DPOR and the length of a counterexample both read this relation. Source sets read a finished run with
// blind writes of application state more loosely (`unobserved`): two whose order nothing after them reads stay
// unordered.
import { accessesOf, independent, type Scope } from './commute.js';
import type { Access, Released } from './gate.js';

/**
 * Whether two releases of a run must stay in their order: they do not commute for the properties in `scope`, or
 * commuting is not used (`scope` undefined).
 */
export function dependent(a: Released, b: Released, scope: Scope | undefined): boolean {
  return scope === undefined || !independent(a, b, scope);
}

/** What a release touched, or undefined where it may have touched anything (it declared nothing, died, or carried other code). */
const madeBy = (step: Released): readonly Access[] | undefined => (step.release.crash || step.foreign !== undefined ? undefined : accessesOf(step));

/** A blind write of application state (`Access.blind`): what it does besides leaving the part is the same whatever it held. */
const blindApp = (a: Access) => a.mode === 'write' && a.blind === true && a.key.startsWith('app:');

/** The application parts the releases from `from` on observe: those they read or write otherwise than blindly; `true` where one may touch anything. */
function observedFrom(steps: readonly Released[], from: number): Set<string> | true {
  const seen = new Set<string>();
  for (let k = from; k < steps.length; k++) {
    const made = madeBy(steps[k]!);
    if (!made) return true;
    for (const a of made) if (!blindApp(a)) seen.add(a.key);
  }
  return seen;
}

/** Whether a release wrote some application part blindly. */
export const wroteBlind = (step: Released): boolean => (madeBy(step) ?? []).some(blindApp);

/** A set of step indices as bits. */
class Bits {
  readonly words: Uint32Array;
  constructor(size: number) {
    this.words = new Uint32Array(Math.ceil(size / 32) || 1);
  }
  has(i: number): boolean {
    return (this.words[i >>> 5]! & (1 << (i & 31))) !== 0;
  }
  add(i: number): void {
    this.words[i >>> 5]! |= 1 << (i & 31);
  }
  addAll(other: Bits): void {
    for (let w = 0; w < this.words.length; w++) this.words[w]! |= other.words[w]!;
  }
}

/** The relation of each run's steps, per scope (and read loosely or not): a run's races and its cuts read the same one. */
const built = new WeakMap<readonly Released[], Map<Scope | undefined, HappensBefore>>();
const builtLoose = new WeakMap<readonly Released[], Map<Scope | undefined, HappensBefore>>();

export class HappensBefore {
  readonly #steps: readonly Released[];
  readonly #scope: Scope | undefined;
  /** For each step, the steps that happen before it. */
  readonly #before: Bits[] = [];
  /** `dependent` of steps i < j, at i * n + j, once asked: 0 not yet, 1 dependent, 2 not. */
  readonly #dependent: Uint8Array;

  /**
   * The relation over a finished run's steps, built once per steps and scope however many callers ask (the steps
   * must not change after). `finished`: the run went to its end, so a blind write nothing observes after it is known
   * to be one, and its order is left out (`unobserved`), for source sets and for counterexamples' cuts alike.
   */
  static of(steps: readonly Released[], scope: Scope | undefined, finished = false): HappensBefore {
    const lazy = finished && steps.some(wroteBlind);
    const cache = lazy ? builtLoose : built;
    let byScope = cache.get(steps);
    if (!byScope) cache.set(steps, (byScope = new Map()));
    let hb = byScope.get(scope);
    if (!hb) byScope.set(scope, (hb = new HappensBefore(steps, scope, lazy)));
    return hb;
  }

  /** Whether this is a finished run's relation read up to unobserved orders (`unobserved`), for source sets. */
  readonly #lazy: boolean;

  /**
   * `scope`: the properties whose view of the history decides what commutes; undefined, nothing commutes. `lazy`: a
   * finished run's, where two blind writes nothing observes after them are not ordered.
   */
  constructor(steps: readonly Released[], scope: Scope | undefined, lazy = false) {
    this.#lazy = lazy;
    this.#steps = steps;
    this.#scope = scope;
    this.#dependent = new Uint8Array(steps.length * steps.length);
    for (let j = 0; j < steps.length; j++) {
      const before = new Bits(steps.length);
      // Latest first: a step already known to come before j (through a later one) brings nothing new, as what comes
      // before it came before that later one too, so its edge need not be looked at.
      for (let i = j - 1; i >= 0; i--) {
        if (before.has(i)) continue;
        if (this.direct(i, j) && !(lazy && this.unobserved(i, j))) {
          before.add(i);
          before.addAll(this.#before[i]!);
        }
      }
      this.#before.push(before);
    }
  }

  /** Whether steps i < j do not commute, computed once. */
  #dependentSteps(i: number, j: number): boolean {
    const at = i * this.#steps.length + j;
    const known = this.#dependent[at]!;
    if (known !== 0) return known === 1;
    const yes = dependent(this.#steps[i]!, this.#steps[j]!, this.#scope);
    this.#dependent[at] = yes ? 1 : 2;
    return yes;
  }

  /** The step after which step j's gate appeared, or -1 if it was there from the start. */
  #reachedAfter(j: number): number {
    return this.#steps[j]!.gate.reachedAfter - 1;
  }

  /** i is ordered before j by an edge of its own: they do not commute, or i let j's turn reach its gate. */
  direct(i: number, j: number): boolean {
    return this.#reachedAfter(j) === i || this.#dependentSteps(i, j);
  }

  /** i happens before j. */
  ordered(i: number, j: number): boolean {
    return i < j && this.#before[j]!.has(i);
  }

  /** The steps that must happen for all of `steps` to happen: their happens-before closure, in run order. */
  closure(steps: Iterable<number>): number[] {
    const all = new Bits(this.#steps.length);
    for (const j of steps) {
      all.add(j);
      all.addAll(this.#before[j]!);
    }
    return this.#steps.map((_, i) => i).filter((i) => all.has(i));
  }

  /**
   * The races of step j: earlier steps i of another turn that do not commute with j and come right before it in
   * happens-before (nothing ordered in between), where j could have gone first (i did not let j's turn reach it).
   */
  racesOf(j: number): number[] {
    const races: number[] = [];
    for (let i = j - 1; i >= 0; i--) {
      if (this.#steps[i]!.gate.turn === this.#steps[j]!.gate.turn || this.#reachedAfter(j) === i || !this.#dependentSteps(i, j)) continue;
      if (this.#lazy && this.unobserved(i, j)) continue;
      let between = false;
      for (let k = i + 1; k < j && !between; k++) between = this.ordered(i, k) && this.ordered(k, j);
      if (!between) races.push(i);
    }
    return races;
  }

  /**
   * Whether steps i < j of a finished run conflict only in an order nothing observes: all they share are parts of
   * application state that both write blindly (`Access.blind`), without those they commute, and no release after j
   * reads those parts (or writes them otherwise than blindly, or may touch anything). Run in the other order, every
   * release reads what it read here and so does what it did here; only what the parts hold at the end differs, and
   * application state records nothing the properties see. So the other order is the same run as far as any verdict
   * goes, and source sets need not reverse the race. A later run that adds a release reading the parts makes it a
   * race again (`exploreExhaustive` looks again at every step of a run with blind writes).
   */
  unobserved(i: number, j: number): boolean {
    const [a, b] = [madeBy(this.#steps[i]!), madeBy(this.#steps[j]!)];
    if (!a || !b || this.#scope === undefined) return false;
    const parts = new Set(a.filter(blindApp).map((x) => x.key).filter((key) => b.some((y) => y.key === key && blindApp(y))));
    if (parts.size === 0 || [...a, ...b].some((x) => parts.has(x.key) && !blindApp(x))) return false;
    const without = (step: Released, made: readonly Access[]): Released => ({
      ...step,
      gate: { ...step.gate, access: made.filter((x) => !parts.has(x.key)) },
      touched: [],
    });
    if (!independent(without(this.#steps[i]!, a), without(this.#steps[j]!, b), this.#scope)) return false;
    const later = observedFrom(this.#steps, j + 1);
    return later !== true && ![...parts].some((key) => later.has(key));
  }

  /**
   * The turns that could go first instead of step i so that j is reached before i: the first steps, among those after
   * i that do not happen after it followed by j, that nothing among them happens before (source-set DPOR's
   * "initials" of notdep(i).j).
   */
  initials(i: number, j: number): string[] {
    const v: number[] = [];
    for (let k = i + 1; k < j; k++) if (!this.ordered(i, k)) v.push(k);
    v.push(j);
    const turns: string[] = [];
    for (const [n, k] of v.entries()) {
      if (v.slice(0, n).some((earlier) => this.ordered(earlier, k))) continue;
      const turn = this.#steps[k]!.gate.turn;
      if (!turns.includes(turn)) turns.push(turn);
    }
    return turns;
  }
}
