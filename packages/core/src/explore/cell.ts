// A cell: one subject (adapter, wiring, store, scenario) explored, and a verdict per property the scenario checks.
// The verdict is earned: pass only when every schedule was explored; a fail carries the shortest schedule found,
// replayed once more to make sure it reproduces.
import type { History } from '../history/events.js';
import { narrate } from '../history/narrate.js';
import { checkProperty } from '../properties/index.js';
import { PROPERTY_INFO, type PropertyId } from '../properties/ids.js';
import type { PropertyResult } from '../properties/result.js';
import {
  exploreExhaustive,
  reductions,
  type ExhaustiveOptions,
  type ExhaustiveStats,
  type ExplorationState,
  type Reductions,
  type RunEnding,
} from '../scheduler/exhaustive.js';
import type { Scope } from '../scheduler/commute.js';
import type { Release } from '../scheduler/gate.js';
import type { ScheduleRun, Selector } from '../scheduler/run.js';
import { ScheduleMismatch } from '../scheduler/run.js';
import { formatSchedule } from '../scheduler/schedule.js';
import { lenientReplaySelector, randomSelector, replaySelector } from '../scheduler/selectors.js';
import { cutFor, type Cut } from './cut.js';
import { runWorld, type Subject } from './world-run.js';

export type Verdict = 'pass' | 'fail' | 'allowed' | 'not-applicable' | 'error' | 'timeout';

export interface Counterexample {
  /** Releases in the schedule: how long the interleaving is. */
  readonly steps: number;
  readonly schedule: string;
  /** The history, one sentence per event, up to the violation. */
  readonly story: readonly string[];
  /** The same history as events. */
  readonly history: History;
  /** Why the property fails, in a sentence. */
  readonly explanation: string;
  /** Indices into the story of the events that show it. */
  readonly witness: readonly number[];
}

export interface PropertyVerdict {
  readonly property: PropertyId;
  readonly verdict: Verdict;
  /** True only when every schedule in the bound was explored. */
  readonly exhaustive: boolean;
  readonly schedules: number;
  readonly counterexample?: Counterexample;
  /** For allowed, error, timeout and not-applicable: why. */
  readonly reason?: string;
}

export interface ExploreOptions {
  readonly mode?: 'exhaustive' | 'sampled';
  /**
   * Exhaustive: which reductions to use (default: all but bound). Off (`false`), every schedule is run to its end:
   * the count to compare against, and the check that no reduction changes a verdict or a counterexample's length.
   */
  readonly reduce?: boolean | Reductions;
  /** Exhaustive: give up after this many runs, and say the space was not exhausted. */
  readonly maxSchedules?: number;
  /** Sampled: how many random schedules, and the seed of the first. */
  readonly samples?: number;
  readonly seed?: number;
  /**
   * Read the world's state around every release, where the world can (`World.contents`), and make the cell `error`
   * when a release changed a key it did not declare. Default true: tests, `audit` and `run` (which `run
   * --no-check-contents` turns off). The events
   * recorded and the store calls reported are checked against the declarations whatever this says, and a world whose
   * store changes in place is read around its releases either way (`World.changesInPlace`).
   */
  readonly checkContents?: boolean;
}

/**
 * Where an exhaustive cell stands between two runs, to go on from in another process: the exploration's state, the
 * schedules of the shortest failures found so far (replayed on resume, which rebuilds them exactly), and what else the
 * runs so far showed. Plain data, saved as JSON.
 */
export interface CellCheckpoint {
  readonly exploration: ExplorationState;
  /** Each property's shortest failure so far (or allowed violation): the run that holds its place, by its schedule. */
  readonly failures: readonly SavedFailure[];
  readonly findings: readonly string[];
  readonly timeout?: string;
}

export interface SavedFailure {
  readonly property: PropertyId;
  readonly allowed: boolean;
  readonly schedule: readonly Release[];
}

/**
 * Saving and resuming a long exhaustive cell (not sampled ones, nor branch and bound, whose search may start over).
 * `save` is called between runs; `take` copies where the cell stands, so call it only when saving.
 */
export interface CellCheckpoints {
  readonly resume?: CellCheckpoint;
  readonly save?: (take: () => CellCheckpoint) => void | Promise<void>;
}

export interface CellResult {
  readonly mode: 'exhaustive' | 'sampled';
  /**
   * Schedules run: for a pass, every one in the bound up to equivalence (one per set of schedules that differ only
   * in the order of commuting releases); for a fail, those run before its counterexample was proven shortest (runs
   * stopped at the length of the longest counterexample so far included).
   */
  readonly schedules: number;
  /** Exhaustive runs cut short because their order was equivalent to one already explored. */
  readonly pruned: number;
  readonly exhausted: boolean;
  readonly verdicts: readonly PropertyVerdict[];
  /** What the subject did that no property covers: turns that threw, rejections nobody handled. At most 20. */
  readonly findings: readonly string[];
}

const MAX_FINDINGS = 20;

interface Failure {
  readonly run: ScheduleRun;
  readonly result: PropertyResult;
  /** What of the run the counterexample keeps. */
  readonly cut: Cut;
  readonly allowedBy: string | undefined;
}

const length = (f: Failure) => f.cut.steps.length;

const sameHistory = (a: History, b: History) => JSON.stringify(a) === JSON.stringify(b);

/** A release did what its gate did not declare: the reductions cannot be trusted on this subject. */
export class UndeclaredAccess extends Error {
  override readonly name = 'UndeclaredAccess';
}

/** How many of a run's undeclared accesses a message names. */
const NAMED = 3;

export async function exploreCell(subject: Subject, options: ExploreOptions = {}, checkpoints: CellCheckpoints = {}): Promise<CellResult> {
  try {
    return await explore(subject, options, checkpoints);
  } finally {
    await subject.adapter.release?.();
  }
}

async function explore(subject: Subject, options: ExploreOptions, checkpoints: CellCheckpoints): Promise<CellResult> {
  const mode = options.mode ?? 'exhaustive';
  const reduce = reductions(options.reduce);
  const properties = subject.scenario.properties;
  // What commutes depends on what the properties checked look at.
  const scope = reduce.commute ? { recordHistory: properties.some((p) => PROPERTY_INFO[p].recordHistory) } : undefined;
  const shortest = new Map<PropertyId, Failure>();
  const shortestAllowed = new Map<PropertyId, Failure>();
  let timeout: string | undefined;
  const findings = new Set<string>();

  const consider = (run: ScheduleRun, ending: RunEnding) => {
    // The reductions trust every release to have declared what it touches; a release that did not makes the cell an
    // error, not a verdict that rests on it.
    if (scope && run.undeclared.length > 0) {
      const more = run.undeclared.length > NAMED ? `; and ${run.undeclared.length - NAMED} more` : '';
      throw new UndeclaredAccess(`${run.undeclared.slice(0, NAMED).join('; ')}${more} (in the schedule ${formatSchedule(run.schedule)})`);
    }
    if (run.status === 'timeout') timeout ??= run.reason ?? 'timeout';
    for (const finding of [
      ...run.turnErrors.map((o) => `${o.turn} threw: ${o.status === 'threw' ? o.message : ''}`),
      ...run.unhandled.map((message) => `unhandled rejection: ${message}`),
    ]) {
      if (findings.size < MAX_FINDINGS) findings.add(finding);
    }
    // A run stopped asleep is equivalent to the start of one explored elsewhere, which shows what it shows.
    if (ending === 'asleep') return;
    for (const property of properties) {
      // A run stopped at the bound is not over: only what is broken at an event already shows.
      if (ending === 'bounded' && PROPERTY_INFO[property].judged === 'at-end') continue;
      const result = checkProperty(property, run.history.events);
      if (result.holds) continue;
      const allowedBy = subject.scenario.allowedGap?.(property, run.history.events, result);
      const failure: Failure = { run, result, cut: cutFor(run, result, scope), allowedBy };
      const table = allowedBy === undefined ? shortest : shortestAllowed;
      const best = table.get(property);
      if (!best || length(failure) < length(best)) table.set(property, failure);
    }
  };

  const worldOptions = { checkContents: options.checkContents ?? true };
  // Branch and bound may start its search over with other reductions: only a single search is saved and resumed.
  const resumable = mode === 'exhaustive' && (!reduce.bound || subject.scenario.allowedGap !== undefined);
  const take = (exploration: ExplorationState): CellCheckpoint => ({
    exploration,
    failures: [
      ...[...shortest].map(([property, f]) => ({ property, allowed: false, schedule: f.run.schedule })),
      ...[...shortestAllowed].map(([property, f]) => ({ property, allowed: true, schedule: f.run.schedule })),
    ],
    findings: [...findings],
    ...(timeout === undefined ? {} : { timeout }),
  });
  const saving = resumable && checkpoints.save ? { checkpoint: (state: () => ExplorationState) => checkpoints.save!(() => take(state())) } : {};
  let stats: ExhaustiveStats;
  try {
    const resume = resumable ? checkpoints.resume : undefined;
    if (resume) {
      for (const finding of resume.findings) findings.add(finding);
      if (resume.timeout !== undefined) timeout = resume.timeout;
      // Each property's place goes back to the very run that held it: of failures as short, the first found keeps it,
      // so a run that is shortest for one property and as short for another must not take the other's place.
      const replayed = new Map<string, ScheduleRun>();
      for (const { property, allowed, schedule } of resume.failures) {
        const key = JSON.stringify(schedule);
        const run = replayed.get(key) ?? (await runWorld(subject, replaySelector(schedule), worldOptions));
        replayed.set(key, run);
        const result = checkProperty(property, run.history.events);
        const allowedBy = result.holds ? undefined : subject.scenario.allowedGap?.(property, run.history.events, result);
        if (result.holds || (allowedBy !== undefined) !== allowed) {
          throw new ScheduleMismatch(`replaying the checkpoint's failure of ${property} (${formatSchedule(schedule)}) gave another verdict`);
        }
        (allowed ? shortestAllowed : shortest).set(property, { run, result, cut: cutFor(run, result, scope), allowedBy });
      }
    }
    if (mode === 'exhaustive') {
      stats = await exploreAll(
        subject,
        options,
        reduce,
        scope,
        consider,
        () => properties.every((p) => shortest.has(p)),
        () => Math.max(...properties.map((p) => length(shortest.get(p)!))),
        { ...saving, ...(resume ? { resume: resume.exploration } : {}) },
      );
    } else {
      const samples = options.samples ?? 1000;
      const seed = options.seed ?? 1;
      for (let i = 0; i < samples; i++) consider(await runWorld(subject, randomSelector(seed + i), worldOptions), 'complete');
      for (const [property, failure] of shortest) {
        shortest.set(property, await shrink(subject, failure, property, scope));
      }
      stats = { schedules: samples, bounded: 0, pruned: 0, exhausted: false };
    }
  } catch (error) {
    if (error instanceof Error && error.name === 'ScenarioDoesNotApply') {
      const reason = error.message;
      return { mode, schedules: 0, pruned: 0, exhausted: false, verdicts: properties.map((property) => ({ property, verdict: 'not-applicable', exhaustive: false, schedules: 0, reason })), findings: [...findings] };
    }
    const reason =
      error instanceof ScheduleMismatch
        ? `nondeterministic subject: ${error.message}`
        : error instanceof UndeclaredAccess
          ? `the adapter's declared accesses do not cover what its code did, so the reductions cannot be trusted (run with --no-reduce, or fix the declarations): ${error.message}`
          : `the subject could not be run: ${error instanceof Error ? error.message : String(error)}`;
    return {
      mode,
      schedules: 0,
      pruned: 0,
      exhausted: false,
      verdicts: properties.map((property) => ({ property, verdict: 'error', exhaustive: false, schedules: 0, reason })),
      findings: [...findings],
    };
  }

  const schedules = stats.schedules + stats.bounded;
  const verdicts: PropertyVerdict[] = [];
  for (const property of properties) {
    const base = { property, exhaustive: stats.exhausted, schedules };
    const failure = shortest.get(property);
    const allowed = shortestAllowed.get(property);
    if (failure) {
      verdicts.push(await confirm(subject, base, failure, 'fail'));
    } else if (timeout !== undefined) {
      verdicts.push({ ...base, verdict: 'timeout', reason: timeout });
    } else if (allowed) {
      verdicts.push({ ...(await confirm(subject, base, allowed, 'allowed')), reason: allowed.allowedBy! });
    } else {
      verdicts.push({ ...base, verdict: 'pass' });
    }
  }
  return { mode, schedules, pruned: stats.pruned, exhausted: stats.exhausted, verdicts, findings: [...findings] };
}

/**
 * Every schedule, with branch and bound on the counterexamples' length: once every property has one, a run that has
 * made as many releases as the longest of them, less one, can show no shorter one (a violation needs at least as
 * many releases as its counterexample keeps), so it stops there. The shortest lengths stay exact: every schedule of
 * fewer releases is still run, or one equivalent to it. Not for a scenario with allowed gaps, which are judged on
 * whole histories.
 *
 * Source sets reach every complete run but not every state on the way, so the bound cannot stop their runs early:
 * once every property has a counterexample, the search starts again with sleep sets and the bound, which reach every
 * state within it. It does so only when the bound is well below the runs' length (at most three quarters of the
 * shortest complete run so far); otherwise stopping a few releases short saves less than starting again costs, and
 * the source-set search simply runs to its end. Either way every schedule is covered, so the choice changes only
 * the time, never a verdict or a length.
 */
async function exploreAll(
  subject: Subject,
  options: ExploreOptions,
  reduce: Required<Reductions>,
  scope: Scope | undefined,
  consider: (run: ScheduleRun, ending: RunEnding) => void,
  allFailed: () => boolean,
  longest: () => number,
  saved: Pick<ExhaustiveOptions, 'resume' | 'checkpoint'> = {},
): Promise<ExhaustiveStats> {
  const runOne = (selector: Selector) => runWorld(subject, selector, { checkContents: options.checkContents ?? true });
  const max = options.maxSchedules ?? Number.POSITIVE_INFINITY;
  // Two turns are the same but for their names only where the adapter says its turns share one process and store.
  const twins = subject.adapter.turnsAlike?.(subject.wiring, subject.store) === true ? subject.scenario.symmetric : undefined;
  const given = { ...(scope === undefined ? {} : { scope }), ...(twins === undefined ? {} : { symmetric: twins }) };
  if (!reduce.bound || subject.scenario.allowedGap) {
    return exploreExhaustive(runOne, consider, { reduce, ...given, maxSchedules: max, ...saved });
  }
  const limit = () => (allFailed() ? longest() - 1 : Number.POSITIVE_INFINITY);
  if (!reduce.sourceSets) return exploreExhaustive(runOne, consider, { reduce, ...given, maxSchedules: max, limit });
  let shortestRun = Number.POSITIVE_INFINITY;
  const watch = (run: ScheduleRun, ending: RunEnding) => {
    if (ending === 'complete') shortestRun = Math.min(shortestRun, run.schedule.length);
    consider(run, ending);
  };
  const pays = () => allFailed() && longest() - 1 <= 0.75 * shortestRun;
  const first = await exploreExhaustive(runOne, watch, { reduce, ...given, maxSchedules: max, until: pays });
  const used = first.schedules + first.bounded + first.pruned;
  if (first.exhausted || !pays() || used >= max) return first;
  const then = await exploreExhaustive(runOne, consider, {
    reduce: { ...reduce, sourceSets: false },
    ...given,
    maxSchedules: max - used,
    limit,
  });
  return {
    schedules: first.schedules + then.schedules,
    bounded: first.bounded + then.bounded,
    pruned: first.pruned + then.pruned,
    exhausted: then.exhausted,
  };
}

/** Replays the counterexample once more: it must give the same history, or the subject is nondeterministic. */
async function confirm(
  subject: Subject,
  base: { property: PropertyId; exhaustive: boolean; schedules: number },
  failure: Failure,
  verdict: 'fail' | 'allowed',
): Promise<PropertyVerdict> {
  const { schedule } = failure.cut;
  const original = failure.cut.events.map((e) => failure.run.history.events[e]!);
  let again: ScheduleRun;
  try {
    again = await runWorld(subject, replaySelector(schedule));
  } catch (error) {
    return { ...base, verdict: 'error', reason: `nondeterministic subject: ${(error as Error).message}` };
  }
  const replayed = checkProperty(base.property, again.history.events);
  if (!sameHistory(original, again.history.events) || replayed.holds) {
    return {
      ...base,
      verdict: 'error',
      reason: `nondeterministic subject: replaying ${formatSchedule(schedule)} gave a different history`,
    };
  }
  return {
    ...base,
    verdict,
    counterexample: {
      steps: schedule.length,
      schedule: formatSchedule(schedule),
      story: again.history.events.map(narrate),
      history: again.history.events,
      explanation: replayed.explanation,
      witness: replayed.witness,
    },
  };
}

/** Sampled mode: drop releases one at a time while the property still fails, to get a shorter schedule. */
async function shrink(subject: Subject, failure: Failure, property: PropertyId, scope: Scope | undefined): Promise<Failure> {
  let best = failure;
  let improved = true;
  while (improved) {
    improved = false;
    const schedule = best.cut.schedule;
    for (let i = 0; i < schedule.length; i++) {
      const candidate = [...schedule.slice(0, i), ...schedule.slice(i + 1)];
      const run = await runWorld(subject, lenientReplaySelector(candidate));
      // A candidate that stops before the end shows nothing about a property judged at the end.
      if (run.status === 'stopped' && PROPERTY_INFO[property].judged === 'at-end') continue;
      const result = checkProperty(property, run.history.events);
      if (result.holds || subject.scenario.allowedGap?.(property, run.history.events, result) !== undefined) continue;
      const shorter: Failure = { run, result, cut: cutFor(run, result, scope), allowedBy: undefined };
      if (length(shorter) < length(best)) {
        best = shorter;
        improved = true;
        break;
      }
    }
  }
  return best;
}
