// One schedule: run a program (a scenario driving an adapter) with every gate held, and let a selector choose, one
// release at a time, which held gate goes next. Every live turn runs until it is blocked at a gate or finished; only
// then is a choice made. The three modes (exhaustive, sampled, replay) differ only in their selector.
import type { HistoryEvent } from '../history/events.js';
import { Recorder } from '../history/recorder.js';
import { currentCode, runAs, SCENARIO_CODE } from './attribution.js';
import { clockReads, watchClock } from './clock.js';
import { judgeStep, type ReportedAccess, type Seen } from './declared.js';
import type { Access, GateFn, GateOptions, PendingGate, Release, Released } from './gate.js';
import { trackNativeWork } from './inflight.js';
import { settle } from './settle.js';
import { FakeClock, onFakeClock } from './timers.js';

/** What a scenario's program may do while it runs. */
export interface Controller {
  readonly gate: GateFn;
  readonly history: Recorder;
  /**
   * Start a turn. Its promise is never awaited by the scheduler: a rejection is recorded, not thrown. A crashable
   * turn may have the process die at any one of its gates: the turn stops there, its pending gates never open.
   */
  spawn(turn: string, body: () => Promise<unknown>, options?: { readonly crashable?: boolean }): void;
  /**
   * Run `body` as `actor`'s code: what the scenario does in another actor's name through the world (the user's click
   * reaching the server). Its gates are that actor's, and what the scenario's own code does once it returns is then
   * not taken for that actor's work (`attribution.ts`).
   */
  as<T>(actor: string, body: () => Promise<T>): Promise<T>;
  /** Resolves when the turn has returned or thrown and has no gate pending. Never rejects. */
  join(turn: string): Promise<TurnOutcome>;
  /**
   * Run `body` with its gates released in the order they arrive, without a choice and without a place in the
   * schedule: the setup before the part under test (the first run up to the pause). Adversary decisions inside it
   * are still choices.
   */
  setup<T>(body: () => Promise<T>): Promise<T>;
  /**
   * Let `ms` of virtual time pass in the scenario's own code (nobody answers for a while): the subject's timers fire
   * in the order they fall due, each when every turn is blocked. Only on a virtual clock (a scenario that says
   * `virtualClock`, or a subject that sleeps); anywhere else it rejects, and never waits in real time.
   */
  elapse(ms: number): Promise<void>;
  /**
   * Await I/O outside any gate (a query to a database server): the scheduler waits for it to answer before it
   * calls the turns settled, however many event-loop rounds that takes. Never wrap work that waits on another turn
   * (a lock held by a turn parked at a gate): that turn can only move once this one settles.
   */
  external<T>(work: Promise<T>): Promise<T>;
  /**
   * A store wrapper's report of one call it passes on to the store, gated or not (`call` names it for messages).
   * The explorer checks it against what the running release declared (`declared.ts`).
   */
  accessed(access: Access, call?: string): void;
  /**
   * Declares, where it happens, an access of the running release that no gate could declare (a re-read of a row
   * after another component's gate): the explorer orders the release by it as by its gate's accesses, as it does a
   * read of the clock.
   */
  declare(access: Access): void;
  /**
   * Reads the world's state by access key, past the gates: around each release, the explorer then checks that every
   * key whose contents changed was declared written (`World.contents`).
   */
  watch(contents: () => Promise<Readonly<Record<string, string>>>, changesInPlace?: (key: string) => boolean): void;
}

export type TurnOutcome =
  | { readonly turn: string; readonly status: 'returned' | 'crashed' }
  | { readonly turn: string; readonly status: 'threw'; readonly message: string };

/**
 * Chooses the next release among the releasable gates (in the order they were reached), or stops the run. `produced`
 * is what the previous release recorded, and `touched` what it was seen to touch beyond its gate's accesses.
 */
export interface Selector {
  next(pending: readonly PendingGate[], step: number, last: LastStep): Release | 'stop';
}

/** What the previous release did, as the selector sees it. */
export type LastStep = Pick<Released, 'produced' | 'touched' | 'foreign'>;

export type Program = (ctl: Controller) => Promise<void>;

export interface ScheduleRun {
  readonly history: Recorder;
  /** The releases that were choices, in order: the schedule. */
  readonly schedule: readonly Release[];
  /** The gate each release of the schedule released (or died at), as it was then. */
  readonly steps: readonly Released[];
  /** The turns the scenario spawned (not the scenario's own decisions, such as `holder`). */
  readonly turns: readonly string[];
  /**
   * `complete`: everything finished. `stopped`: the selector stopped it. `timeout`: a turn neither reached a gate nor
   * finished, or the run went past its release budget (`reason` says which).
   */
  readonly status: 'complete' | 'stopped' | 'timeout';
  readonly reason?: string;
  readonly turnErrors: readonly TurnOutcome[];
  /** Rejections nobody handled while the schedule ran (a write fired and forgotten, say): findings, not crashes. */
  readonly unhandled: readonly string[];
  /** What releases did that their gates did not declare (`declared.ts`), one sentence each. */
  readonly undeclared: readonly string[];
}

/**
 * Lets a schedule skip its setup: `load` puts back a setup saved by an earlier run and returns its value; `save` is
 * called after a setup that made no choice (so any run would have done the same).
 */
export interface SetupCache {
  load(): Promise<{ readonly value: unknown } | undefined>;
  save(value: unknown): Promise<void>;
}

export interface RunLimits {
  /** Releases allowed in one schedule before it is called a timeout. */
  readonly maxReleases?: number;
  readonly setupCache?: SetupCache;
  /**
   * Count thread-pool work (a WebCrypto job) in flight and settle only once it is done. It costs every promise a
   * hook, so only subjects that await such work between gates ask for it.
   */
  readonly trackNativeWork?: boolean;
  /**
   * Run the program on a virtual clock (`timers.ts`): its timers fire only when every turn is blocked, and Date.now
   * moves only then. For subjects that sleep between gates.
   */
  readonly fakeTimers?: boolean;
}

/** Timers fired in one schedule before it is called a timeout (a subject that sleeps and wakes forever). */
const MAX_TIMERS = 100_000;

interface Held extends PendingGate {
  readonly order: number;
  readonly release: (choice: number) => void;
  /** The context of the code that reached the gate, which its release lets run on (`attribution.ts`). */
  readonly context: string | undefined;
}

/** Puts `map` back as `before` was. */
function restore<K, V>(map: Map<K, V>, before: ReadonlyMap<K, V>): void {
  map.clear();
  for (const [k, v] of before) map.set(k, v);
}

export async function runSchedule(program: Program, selector: Selector, limits: RunLimits = {}): Promise<ScheduleRun> {
  // A subject's unhandled rejection is recorded as a finding of this schedule instead of ending the process.
  const unhandled: string[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason instanceof Error ? reason.message : String(reason));
  process.on('unhandledRejection', onUnhandled);
  const untrack = limits.trackNativeWork ? trackNativeWork() : () => {};
  const unwatch = watchClock();
  try {
    return { ...(await drive(program, selector, limits)), unhandled };
  } finally {
    unwatch();
    untrack();
    process.off('unhandledRejection', onUnhandled);
  }
}

async function drive(program: Program, selector: Selector, limits: RunLimits): Promise<Omit<ScheduleRun, 'unhandled'>> {
  const maxReleases = limits.maxReleases ?? 1000;
  const held: Held[] = [];
  const schedule: Release[] = [];
  const steps: Released[] = [];
  const seqByTurn = new Map<string, number>();
  const lastGate = new Map<string, string>();
  const outcomes = new Map<string, TurnOutcome>();
  const joiners = new Map<string, Array<(o: TurnOutcome) => void>>();
  const started = new Set<string>();
  const crashable = new Set<string>();
  let crashed = false;
  let releases = 0;
  let created = 0;
  let setupDepth = 0;
  let programDone = false;
  let programError: string | undefined;
  let programThrew: unknown;
  let externalInFlight = 0;
  /** Settles waiting for the external work to end (see settle's notBusy). */
  let externalDone: (() => void)[] = [];
  const noExternal = () => (externalInFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => externalDone.push(resolve)));

  // Events are stamped with the number of choices made so far, so a counterexample can be cut at a schedule prefix,
  // and with the context of the code that recorded them, so a release is charged only with its own turn's work.
  const history = new Recorder(() => schedule.length, (actor) => lastGate.get(actor), currentCode);

  const pendingOf = (turn: string) => held.some((g) => g.turn === turn);
  const finishIfDone = (turn: string, outcome: TurnOutcome | undefined) => {
    if (outcome === undefined || pendingOf(turn) || outcomes.has(turn)) return;
    outcomes.set(turn, outcome);
    for (const resolve of joiners.get(turn) ?? []) resolve(outcome);
    joiners.delete(turn);
  };
  const settled = new Map<string, TurnOutcome>();

  const gate: GateFn = (turn, label, options: GateOptions = {}) => {
    const seq = (seqByTurn.get(turn) ?? 0) + 1;
    seqByTurn.set(turn, seq);
    const choices = Math.max(1, options.choices ?? 1);
    // Setup runs straight through: its gates open at once, in the order the code reaches them.
    if (setupDepth > 0 && choices === 1) {
      lastGate.set(turn, label);
      return Promise.resolve(0);
    }
    return new Promise<number>((resolve) => {
      held.push({
        id: `${turn}:${seq}`,
        turn,
        label,
        // A choice made in the setup lets the rest of the setup run in its release: that code is the whole setup's,
        // which no gate declares, so the release declares nothing (it comes before every turn's anyway).
        access: setupDepth > 0 ? undefined : options.access,
        choices,
        overtakes: options.overtakes ?? false,
        get crashable() {
          return !crashed && crashable.has(turn);
        },
        order: created++,
        reachedAfter: schedule.length,
        context: currentCode(),
        release: (choice) => {
          lastGate.set(turn, label);
          resolve(choice);
        },
      });
    });
  };

  // What the open release's code was seen to do besides recording events, and the state it started from.
  const accessed: Seen<ReportedAccess>[] = [];
  const declared: Seen<Access>[] = [];
  let contents: (() => Promise<Readonly<Record<string, string>>>) | undefined;
  let inPlace: (key: string) => boolean = () => false;
  const undeclared: string[] = [];

  const ctl: Controller = {
    gate,
    history,
    accessed(access, call) {
      if (schedule.length > 0) accessed.push({ what: call === undefined ? { access } : { access, call }, context: currentCode() });
    },
    declare(access) {
      if (schedule.length > 0) declared.push({ what: access, context: currentCode() });
    },
    watch(read, changesInPlace) {
      contents = read;
      if (changesInPlace) inPlace = changesInPlace;
    },
    async external<T>(work: Promise<T>): Promise<T> {
      externalInFlight++;
      try {
        return await work;
      } finally {
        if (--externalInFlight === 0) for (const resolve of externalDone.splice(0)) resolve();
      }
    },
    as: (actor, body) => runAs(actor, body),
    spawn(turn, body, options = {}) {
      if (started.has(turn)) throw new Error(`turn ${turn} was already started`);
      started.add(turn);
      if (options.crashable) crashable.add(turn);
      runAs(turn, body).then(
        () => settled.set(turn, { turn, status: 'returned' }),
        (error: unknown) =>
          settled.set(turn, { turn, status: 'threw', message: error instanceof Error ? error.message : String(error) }),
      );
    },
    join(turn) {
      const done = outcomes.get(turn);
      if (done) return Promise.resolve(done);
      return new Promise((resolve) => joiners.set(turn, [...(joiners.get(turn) ?? []), resolve]));
    },
    elapse(ms) {
      if (!clock) return Promise.reject(new Error('elapse needs a virtual clock: the scenario says virtualClock, or the adapter sleeps'));
      // The program runs on the clock, so this is a virtual timer: it fires once every earlier one has.
      return new Promise((resolve) => setTimeout(resolve, ms));
    },
    async setup<T>(body: () => Promise<T>): Promise<T> {
      const cached = await limits.setupCache?.load();
      if (cached) return cached.value as T;
      const choicesBefore = schedule.length;
      const [seqBefore, gateBefore] = [new Map(seqByTurn), new Map(lastGate)];
      setupDepth++;
      try {
        const value = await body();
        if (schedule.length === choicesBefore) {
          // A setup that made no choice is one a cached run skips, so it leaves no trace a cached run would not have:
          // its gates' numbers, and the labels that later events of its actors would inherit. A run that ran it and a
          // run that loaded it then go on the same, whichever the explorer replays.
          restore(seqByTurn, seqBefore);
          restore(lastGate, gateBefore);
          await limits.setupCache?.save(value);
        }
        return value;
      } finally {
        setupDepth--;
      }
    },
  };

  const clock = limits.fakeTimers ? new FakeClock() : undefined;
  const start = () => runAs(SCENARIO_CODE, () => program(ctl));
  (clock ? onFakeClock(clock, start) : start()).then(
    () => (programDone = true),
    (error: unknown) => {
      programDone = true;
      programError = error instanceof Error ? error.message : String(error);
      programThrew = error;
    },
  );

  // The latest release, until the next choice is made: where its events and clock readings begin, the context its
  // code runs in, and the state it started from. What it did is judged once, when the next choice is made.
  let open: { start: number; clock: number; context: string | undefined; before: Readonly<Record<string, string>> | undefined } | undefined;
  let state: Readonly<Record<string, string>> | undefined;
  const finishStep = async (): Promise<LastStep> => {
    state = contents ? await contents() : undefined;
    const last = steps[steps.length - 1];
    if (!open || !last) return { produced: [], touched: [] };
    const produced = history.events.slice(open.start);
    const judged = judgeStep({
      gate: last.gate,
      release: last.release,
      context: open.context,
      events: produced.map((what, i) => ({ what, context: history.contexts[open!.start + i] })),
      accessed: [...accessed],
      declared: [...declared],
      readClock: clockReads() > open.clock,
      changed: changedKeys(open.before, state),
      inPlace,
    });
    undeclared.push(...judged.undeclared);
    const done: Released = { ...last, produced, touched: judged.touched, ...(judged.foreign ? { foreign: judged.foreign } : {}) };
    steps[steps.length - 1] = done;
    open = undefined;
    return done;
  };
  const signature = () => `${created}/${releases}/${settled.size}/${outcomes.size}/${history.events.length}/${programDone}`;
  const finishTurns = () => {
    for (const [turn, outcome] of settled) finishIfDone(turn, outcome);
  };

  const result = async (status: ScheduleRun['status'], reason?: string): Promise<Omit<ScheduleRun, 'unhandled'>> => {
    await finishStep();
    return {
      history,
      schedule,
      status,
      ...(reason === undefined ? {} : { reason }),
      steps,
      turns: [...started],
      turnErrors: [...outcomes.values()].filter((o) => o.status === 'threw'),
      undeclared,
    };
  };

  for (;;) {
    if (!(await settle(signature, finishTurns, () => externalInFlight > 0, noExternal))) {
      return await result('timeout', 'the subject kept running without reaching a gate');
    }
    if (programError !== undefined) {
      // A scenario that does not apply to the world says so as it is, for the cell to read not-applicable.
      if (programThrew instanceof Error && programThrew.name === 'ScenarioDoesNotApply') throw programThrew;
      throw new Error(`the scenario's program failed: ${programError}`);
    }
    held.sort((a, b) => a.order - b.order);
    if (held.length === 0) {
      if (programDone && [...started].every((t) => outcomes.has(t))) return await result('complete');
      // Every turn is blocked: time passes, and the earliest timer fires.
      if (clock?.fireNext()) {
        if (clock.fired > MAX_TIMERS) return await result('timeout', `the subject kept sleeping: ${MAX_TIMERS} timers fired`);
        continue;
      }
      const stuck = [...started].filter((t) => !outcomes.has(t));
      const who = stuck.length > 0 ? stuck : ['the scenario'];
      const where = who.map((t) => `${t} (last gate: ${lastGate.get(t) ?? 'none'})`).join(', ');
      return await result('timeout', `${where} neither reached a gate nor finished`);
    }
    if (releases >= maxReleases) return await result('timeout', `the schedule went past ${maxReleases} releases`);

    // Within a turn, operations take effect in the order issued, unless one may overtake.
    const releasable = held.filter((g) => g.overtakes || held.find((h) => h.turn === g.turn) === g);
    const chosen = selector.next(releasable, schedule.length, await finishStep());
    if (chosen === 'stop') return await result('stopped');
    const target = releasable.find((g) => g.id === chosen.gate);
    schedule.push(chosen);
    if (target) steps.push({ gate: pendingView(target), release: chosen, produced: [] });
    open = { start: history.events.length, clock: clockReads(), context: target?.context, before: state };
    accessed.length = 0;
    declared.length = 0;
    if (chosen.crash && target?.crashable) {
      // The process dies here: the turn's pending gates never open, and it counts as finished.
      crashed = true;
      for (let i = held.length - 1; i >= 0; i--) if (held[i]!.turn === target.turn) held.splice(i, 1);
      history.emit({ kind: 'crash', actor: target.turn, gate: target.label });
      outcomes.set(target.turn, { turn: target.turn, status: 'crashed' });
      for (const resolve of joiners.get(target.turn) ?? []) resolve({ turn: target.turn, status: 'crashed' });
      joiners.delete(target.turn);
      continue;
    }
    if (target === undefined || chosen.crash || chosen.choice < 0 || chosen.choice >= target.choices) {
      throw new ScheduleMismatch(
        `no releasable gate ${chosen.gate}${chosen.choice > 0 ? `=${chosen.choice}` : ''} at step ${schedule.length}; ` +
          `releasable: ${releasable.map((g) => g.id).join(' ') || 'none'}`,
      );
    }
    held.splice(held.indexOf(target), 1);
    releases++;
    target.release(chosen.choice);
  }
}

/** The keys whose contents differ between two readings of the world's state (none when either is missing). */
function changedKeys(before: Readonly<Record<string, string>> | undefined, after: Readonly<Record<string, string>> | undefined): string[] {
  if (!before || !after) return [];
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => before[key] !== after[key]);
}

/** A gate as selectors see it, without the scheduler's own fields, frozen as it was when it was released. */
function pendingView(g: Held): PendingGate {
  const { id, turn, label, access, choices, overtakes, crashable, reachedAfter } = g;
  return { id, turn, label, access, choices, overtakes, crashable, reachedAfter };
}

/** A selector named a gate that is not pending: the subject did not do what it did last time. */
export class ScheduleMismatch extends Error {
  override readonly name = 'ScheduleMismatch';
}
