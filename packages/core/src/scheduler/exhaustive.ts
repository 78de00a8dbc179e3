// Exhaustive exploration: depth-first over every schedule (every order of releases, every adversary choice, every
// crash point), re-running the program from a fresh world for each. Each reduction below is sound on its own, and
// each can be switched off (`reduce`) to check that it changes no verdict and no counterexample's length.
//
// - commute (sleep sets, Godefroid 1996): after exploring release a at a point, a sibling branch b need not try a
//   again while a stays independent of everything done since, because b·a reaches the same state as a·b, with a
//   history no property tells apart (see `independent`). A run whose every releasable gate is asleep stops there.
// - source sets (source-set DPOR, Abdulla, Aronis, Jonsson and Sagonas, POPL 2014): at a new point, start with one
//   turn only. After each run, for every race in it (a release j right after a release i of another turn in
//   happens-before, the two not commuting, j possible first), make sure some turn that could start a schedule
//   reaching j before i is started at i's point too. Every schedule is then equivalent to one explored: the same
//   set of complete runs up to reordering commuting releases, which is all the verdicts need.
// - unobserved blind writes (with source sets): two turns' writes of application state declared `blind` (their code
//   does the same whatever the part held) give the part in one order or the other, which only a later read can tell.
//   In a finished run where nothing after them reads the part, that order shows in no verdict: the run is read with
//   the two unordered (`HappensBefore.unobserved`), so their race is not reversed, and a race their order hid shows.
//   Whether a later release reads it depends on the rest of the run, so such a run's races are all looked at again.
// - limit (branch and bound, set by the caller): a run is stopped after that many releases. Sound with sleep sets
//   (which reach every state within the limit) but not with source sets (which reach every complete run, not every
//   state), so a caller that limits runs turns source sets off.
// - symmetry: turns the scenario starts together with the same call (`symmetric`) are the same code on the same
//   world, and the properties compare turns only for equality (a dispatch is named after its turn, a spend is another
//   turn's or not). Two of them that have not moved yet, both waiting at their first gate, differ in nothing but
//   their names, at any point of a run: swapping the names maps every run that releases the later one first onto a
//   run that releases the earlier one first, with the same verdicts and counterexample lengths. So of the alike turns
//   still at their first gate, only the earliest is released. With three tabs that is one order of the three where
//   there were six; with two, the pair's one order at the start.
import { EVERY_PROPERTY, type Scope } from './commute.js';
import type { PendingGate, Release, Released } from './gate.js';
import { dependent, HappensBefore, wroteBlind } from './happens-before.js';
import { ScheduleMismatch, type LastStep, type ScheduleRun, type Selector } from './run.js';

/**
 * Which reductions to use. `true` (the default) is all of them but `bound`, `false` none. Branch and bound is off
 * unless asked for: on the default matrix it saved about one schedule in a hundred, and the bound it finds first
 * depends on the order the search goes in, which differs between stores (gates a PostgreSQL answer wakes are reached
 * in another order), so the number of schedules run would too.
 */
export interface Reductions {
  /** Explore one order of releases that commute: sleep sets, and the ground source sets stand on. */
  readonly commute?: boolean;
  /** Source-set DPOR: start only the turns a race showed must go first (needs commute). */
  readonly sourceSets?: boolean;
  /** Branch and bound on the counterexamples' length (`exploreCell`); off by default. */
  readonly bound?: boolean;
  /** Of the symmetric turns that have not moved, release only the earliest (`symmetric`). */
  readonly symmetry?: boolean;
}

export const DEFAULT_REDUCTIONS: Required<Reductions> = { commute: true, sourceSets: true, bound: false, symmetry: true };

export function reductions(reduce: boolean | Reductions | undefined): Required<Reductions> {
  if (reduce === undefined || reduce === true) return DEFAULT_REDUCTIONS;
  if (reduce === false) return { commute: false, sourceSets: false, bound: false, symmetry: false };
  const commute = reduce.commute ?? true;
  return {
    commute,
    sourceSets: commute && (reduce.sourceSets ?? true),
    bound: reduce.bound ?? false,
    symmetry: reduce.symmetry ?? true,
  };
}

export interface ExhaustiveOptions {
  /** Which reductions to use (default all; `bound` is the caller's, through `limit`). */
  readonly reduce?: boolean | Reductions;
  /** Stop after this many runs and report the space as not exhausted. */
  readonly maxSchedules?: number;
  /** The most releases a run may make before it is stopped; read before every release. Default: no limit. */
  readonly limit?: () => number;
  /** Checked after every run: stop early, reporting the space as not exhausted. */
  readonly until?: () => boolean;
  /** What the properties being checked look at, which decides what commutes (default: every property's view). */
  readonly scope?: Scope;
  /** Turns that are the same up to their names (`Scenario.symmetric`), for the symmetry reduction. */
  readonly symmetric?: readonly string[];
  /** Go on from where an earlier exploration of the same subject stopped (`checkpoint`), not from the start. */
  readonly resume?: ExplorationState;
  /**
   * Called between runs, once the next run's prefix is chosen: `take` gives where the exploration stands, to save
   * and `resume` from in another process. Call it only when saving: it copies the search stack.
   */
  readonly checkpoint?: (take: () => ExplorationState) => void | Promise<void>;
}

/**
 * Where an exhaustive exploration stands between two runs: its counts and its search stack (each point's options,
 * what is asleep there, what was explored from it, and which turns are still to start there). Plain data: it is
 * saved as JSON, and going on from it runs exactly the schedules the exploration had left.
 */
export interface ExplorationState {
  readonly schedules: number;
  readonly bounded: number;
  readonly pruned: number;
  readonly firstNew: number;
  readonly stack: readonly SavedNode[];
}

interface SavedNode {
  readonly options: readonly Option[];
  readonly sleep: readonly Explored[];
  readonly done: readonly Explored[];
  readonly backtrack: readonly string[];
  readonly chosen: number;
}

export interface ExhaustiveStats {
  /** Runs that went to the end. */
  readonly schedules: number;
  /** Runs stopped at the limit. */
  readonly bounded: number;
  /** Runs cut short because every pending release was asleep: the orders they lead to were explored elsewhere. */
  readonly pruned: number;
  /** True when every schedule in the bound was explored (up to equivalence). */
  readonly exhausted: boolean;
}

/** How a run ended, for the caller. */
export type RunEnding = 'complete' | 'bounded' | 'asleep';

interface Option {
  readonly release: Release;
  readonly gate: PendingGate;
  readonly key: string;
}

/** An option explored somewhere, with what it recorded there: a sleep set's entry. */
interface Explored extends Option, Released {}

interface Node {
  readonly options: readonly Option[];
  /** Options not to try here: explored in an equivalent order elsewhere. */
  readonly sleep: ReadonlyMap<string, Explored>;
  /** Options already explored from this node, with what each recorded. */
  readonly done: Map<string, Explored>;
  /** The turns whose options are to be explored here: all, or with source sets those a race asked for. */
  readonly backtrack: Set<string>;
  chosen: number;
}

const keyOf = (r: Release) => (r.crash ? `${r.gate}!` : `${r.gate}=${r.choice}`);

/** Every option at a point, each with its gate as it is now (whether it may crash changes once a turn has died). */
function expand(pending: readonly PendingGate[]): Option[] {
  return pending.flatMap(({ id, turn, label, access, choices, overtakes, crashable, reachedAfter }) => {
    const gate: PendingGate = { id, turn, label, access, choices, overtakes, crashable, reachedAfter };
    const releases: Release[] = Array.from({ length: gate.choices }, (_, choice) => ({ gate: gate.id, choice }));
    if (gate.crashable) releases.push({ gate: gate.id, choice: 0, crash: true });
    return releases.map((release) => ({ release, gate, key: keyOf(release) }));
  });
}

/**
 * Of the alike turns that have not moved (each waits at its first gate, the same gate as far as the label says), the
 * options of the earliest only.
 */
function earliestOfAlike(opts: readonly Option[], alike: readonly string[] | undefined): readonly Option[] {
  if (!alike || alike.length < 2) return opts;
  const unmoved = (turn: string) => opts.find((o) => o.gate.turn === turn && o.gate.id === `${turn}:1`)?.gate;
  const waiting = alike.map(unmoved).filter((g): g is PendingGate => g !== undefined);
  const [first] = waiting;
  if (!first) return opts;
  const same = (g: PendingGate) =>
    g.label === first.label && g.choices === first.choices && g.crashable === first.crashable;
  const later = new Set(waiting.slice(1).filter(same).map((g) => g.turn));
  return later.size === 0 ? opts : opts.filter((o) => !later.has(o.gate.turn));
}

/**
 * Runs `runOne` once per schedule, with a fresh selector each time, until the space is explored. `runOne` must build
 * a fresh world for each run; `onRun` sees every run, however it ended.
 */
export async function exploreExhaustive(
  runOne: (selector: Selector) => Promise<ScheduleRun>,
  onRun: (run: ScheduleRun, ending: RunEnding) => void | Promise<void>,
  options: ExhaustiveOptions = {},
): Promise<ExhaustiveStats> {
  const { commute, sourceSets: asked, symmetry } = reductions(options.reduce);
  const scope = commute ? (options.scope ?? EVERY_PROPERTY) : undefined;
  const limit = options.limit ?? (() => Number.POSITIVE_INFINITY);
  const maxSchedules = options.maxSchedules ?? Number.POSITIVE_INFINITY;
  const { resume } = options;
  const stack: Node[] = (resume?.stack ?? []).map((n) => ({
    options: n.options,
    sleep: new Map(n.sleep.map((e) => [e.key, e])),
    done: new Map(n.done.map((e) => [e.key, e])),
    backtrack: new Set(n.backtrack),
    chosen: n.chosen,
  }));
  let schedules = resume?.schedules ?? 0;
  let bounded = resume?.bounded ?? 0;
  let pruned = resume?.pruned ?? 0;
  /** The first step of the current run that no earlier run took: races are looked for from there. */
  let firstNew = resume?.firstNew ?? 0;
  // A saved state is taken with work left on its stack; an empty one is an exploration already over.
  if (resume && stack.length === 0) return { schedules, bounded, pruned, exhausted: true };

  /** Where the exploration stands, copied: between runs, the stack is the next run's prefix and what is left. */
  const take = (): ExplorationState => ({
    schedules,
    bounded,
    pruned,
    firstNew,
    stack: stack.map((n) => ({
      options: n.options,
      sleep: [...n.sleep.values()],
      done: [...n.done.values()],
      backtrack: [...n.backtrack],
      chosen: n.chosen,
    })),
  });

  /** What the option taken at `parent` recorded, once known: it goes into the sleep sets of its later siblings. */
  const taken = (parent: Node, { produced, touched, foreign }: LastStep): Explored => ({
    ...parent.options[parent.chosen]!,
    produced,
    touched,
    ...(foreign === undefined ? {} : { foreign }),
  });

  /**
   * The option taken at `node` in a run that ended before its release (a timeout): what it does is not known, so it
   * is taken to touch everything, like a gate that declares nothing.
   */
  const unknown = (node: Node): Explored => {
    const option = node.options[node.chosen]!;
    return { ...option, gate: { ...option.gate, access: undefined }, produced: [] };
  };

  /** The sleep set below `parent`: what slept or was explored there, and commutes with the option taken. */
  const sleepForChild = (parent: Node, took: Explored): Map<string, Explored> => {
    const sleep = new Map<string, Explored>();
    if (!scope) return sleep;
    for (const option of [...parent.sleep.values(), ...parent.done.values()]) {
      if (!dependent(option, took, scope)) sleep.set(option.key, option);
    }
    return sleep;
  };

  /** Whether a turn has two releasable gates at once (`overtakes`): source sets then start every turn there. */
  const crowded = (opts: readonly Option[]) => {
    const gateOf = new Map<string, string>();
    for (const { gate } of opts) {
      if ((gateOf.get(gate.turn) ?? gate.id) !== gate.id) return true;
      gateOf.set(gate.turn, gate.id);
    }
    return false;
  };

  let ending: RunEnding = 'complete';
  const selector = (): Selector => ({
    next(pending, depth, last) {
      const parent = stack[depth - 1];
      const existing = stack[depth];
      if (existing) {
        // Re-running a prefix: the same gate must be pending, at the same place in the code, as last time.
        const expected = existing.options[existing.chosen]!;
        const now = pending.find((g) => g.id === expected.gate.id);
        if (
          !now ||
          now.label !== expected.gate.label ||
          now.choices !== expected.gate.choices ||
          now.crashable !== expected.gate.crashable
        ) {
          throw new ScheduleMismatch(
            `at step ${depth + 1} the subject was expected at ${expected.gate.id} ${expected.gate.label}, ` +
              `but is at ${pending.map((g) => `${g.id} ${g.label}`).join(', ') || 'no gate'}`,
          );
        }
        return expected.release;
      }
      if (depth >= limit()) {
        ending = 'bounded';
        return 'stop';
      }
      // What the release just made recorded and touched: the taken option's entry for its siblings' sleep sets, built
      // only at a new node, not at each step of a replayed prefix.
      const sleep = parent ? sleepForChild(parent, taken(parent, last)) : new Map<string, Explored>();
      const opts = symmetry ? earliestOfAlike(expand(pending), options.symmetric) : expand(pending);
      const awake = opts.find((o) => !sleep.has(o.key));
      if (awake === undefined) {
        ending = 'asleep';
        return 'stop';
      }
      const backtrack = new Set(asked && !crowded(opts) ? [awake.gate.turn] : opts.map((o) => o.gate.turn));
      const chosen = opts.indexOf(awake);
      stack.push({ options: opts, sleep, done: new Map(), backtrack, chosen });
      return awake.release;
    },
  });

  /**
   * Source sets: for every race that ends at a new step, make sure the turns that reverse it start at its point. A run
   * with blind writes of application state (`Access.blind`) is read as its class of runs that no verdict tells apart:
   * finished, its blind writes whose order no later release observes are not ordered (`HappensBefore.unobserved`),
   * and since whether a write is observed depends on what comes after it, every step's races are looked at again,
   * not only the new steps' (going over a race again is only slower).
   */
  const reverseRaces = (run: ScheduleRun, finished: boolean) => {
    const blind = run.steps.some(wroteBlind);
    const hb = HappensBefore.of(run.steps, scope, finished);
    for (let j = blind ? 0 : firstNew; j < run.steps.length; j++) {
      for (const i of hb.racesOf(j)) {
        const node = stack[i]!;
        const initials = hb.initials(i, j);
        if (initials.some((turn) => node.backtrack.has(turn))) continue;
        const here = initials.filter((turn) => node.options.some((o) => o.gate.turn === turn));
        // A turn that cannot start there (never expected): start every turn, which is always sound.
        const turn = run.steps[j]!.gate.turn;
        const add = here.length === 0 ? node.options.map((o) => o.gate.turn) : [here.includes(turn) ? turn : here[0]!];
        for (const turn of add) node.backtrack.add(turn);
      }
    }
  };

  for (;;) {
    if (schedules + bounded + pruned >= maxSchedules) return { schedules, bounded, pruned, exhausted: false };
    ending = 'complete';
    const run = await runOne(selector());
    if (ending === 'complete') schedules++;
    else if (ending === 'bounded') bounded++;
    else pruned++;
    if (asked) reverseRaces(run, ending === 'complete' && run.status === 'complete');
    await onRun(run, ending);
    if (options.until?.()) return { schedules, bounded, pruned, exhausted: false };
    // Backtrack: the deepest node with an option neither explored nor asleep, of a turn to explore there.
    while (stack.length > 0) {
      const depth = stack.length - 1;
      const node = stack[depth]!;
      if (depth >= limit()) {
        stack.pop();
        continue;
      }
      const step = run.steps[depth];
      node.done.set(node.options[node.chosen]!.key, step ? taken(node, step) : unknown(node));
      const next = node.options.findIndex(
        (o) => !node.done.has(o.key) && !node.sleep.has(o.key) && node.backtrack.has(o.gate.turn),
      );
      if (next >= 0) {
        node.chosen = next;
        firstNew = depth;
        break;
      }
      stack.pop();
    }
    if (stack.length === 0) return { schedules, bounded, pruned, exhausted: true };
    await options.checkpoint?.(take);
  }
}
