// A cell: one subject (adapter, wiring, store, scenario) explored, and a verdict per property the scenario checks.
// The verdict is earned: pass only when every schedule was explored; a fail carries the shortest schedule found,
// replayed once more to make sure it reproduces.
import type { History } from '../history/events.js';
import { narrate } from '../history/narrate.js';
import { checkProperty } from '../properties/index.js';
import type { PropertyId } from '../properties/ids.js';
import type { PropertyResult } from '../properties/result.js';
import { exploreExhaustive } from '../scheduler/exhaustive.js';
import type { Release } from '../scheduler/gate.js';
import type { ScheduleRun } from '../scheduler/run.js';
import { ScheduleMismatch } from '../scheduler/run.js';
import { formatSchedule } from '../scheduler/schedule.js';
import { lenientReplaySelector, randomSelector, replaySelector } from '../scheduler/selectors.js';
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
  /** Exhaustive: treat commuting releases as one (default true). */
  readonly reduce?: boolean;
  /** Exhaustive: give up after this many runs, and say the space was not exhausted. */
  readonly maxSchedules?: number;
  /** Sampled: how many random schedules, and the seed of the first. */
  readonly samples?: number;
  readonly seed?: number;
}

export interface CellResult {
  readonly mode: 'exhaustive' | 'sampled';
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
  /** Releases needed to show it: the schedule prefix to keep. */
  readonly cut: number;
  readonly allowedBy: string | undefined;
}

/** How many releases of `run` it takes to show `result`: up to the last witness event, or all of them. */
function releasesNeeded(run: ScheduleRun, result: PropertyResult): number {
  const last = result.witness[result.witness.length - 1];
  const endOfHistory = result.property === 'disclosure';
  if (last === undefined || endOfHistory) return run.schedule.length;
  return run.history.releasesAt[last] ?? run.schedule.length;
}

const sameHistory = (a: History, b: History) => JSON.stringify(a) === JSON.stringify(b);

export async function exploreCell(subject: Subject, options: ExploreOptions = {}): Promise<CellResult> {
  try {
    return await explore(subject, options);
  } finally {
    await subject.adapter.release?.();
  }
}

async function explore(subject: Subject, options: ExploreOptions): Promise<CellResult> {
  const mode = options.mode ?? 'exhaustive';
  const properties = subject.scenario.properties;
  const shortest = new Map<PropertyId, Failure>();
  const shortestAllowed = new Map<PropertyId, Failure>();
  let timeout: string | undefined;
  const findings = new Set<string>();

  const consider = (run: ScheduleRun) => {
    if (run.status === 'timeout') timeout ??= run.reason ?? 'timeout';
    for (const finding of [
      ...run.turnErrors.map((o) => `${o.turn} threw: ${o.status === 'threw' ? o.message : ''}`),
      ...run.unhandled.map((message) => `unhandled rejection: ${message}`),
    ]) {
      if (findings.size < MAX_FINDINGS) findings.add(finding);
    }
    if (run.status === 'stopped' && mode === 'exhaustive') return;
    for (const property of properties) {
      const result = checkProperty(property, run.history.events);
      if (result.holds) continue;
      const allowedBy = subject.scenario.allowedGap?.(property, run.history.events, result);
      const failure: Failure = { run, result, cut: releasesNeeded(run, result), allowedBy };
      const table = allowedBy === undefined ? shortest : shortestAllowed;
      const best = table.get(property);
      if (!best || failure.cut < best.cut) table.set(property, failure);
    }
  };

  let stats: { schedules: number; pruned: number; exhausted: boolean };
  try {
    if (mode === 'exhaustive') {
      stats = await exploreExhaustive((selector) => runWorld(subject, selector), consider, {
        ...(options.reduce === undefined ? {} : { reduce: options.reduce }),
        ...(options.maxSchedules === undefined ? {} : { maxSchedules: options.maxSchedules }),
      });
    } else {
      const samples = options.samples ?? 1000;
      const seed = options.seed ?? 1;
      for (let i = 0; i < samples; i++) consider(await runWorld(subject, randomSelector(seed + i)));
      for (const [property, failure] of shortest) shortest.set(property, await shrink(subject, failure, property));
      stats = { schedules: samples, pruned: 0, exhausted: false };
    }
  } catch (error) {
    const reason =
      error instanceof ScheduleMismatch
        ? `nondeterministic subject: ${error.message}`
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

  const verdicts: PropertyVerdict[] = [];
  for (const property of properties) {
    const base = { property, exhaustive: stats.exhausted, schedules: stats.schedules };
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
  return { mode, ...stats, verdicts, findings: [...findings] };
}

/** Replays the counterexample's prefix once more: it must give the same history, or the subject is nondeterministic. */
async function confirm(
  subject: Subject,
  base: { property: PropertyId; exhaustive: boolean; schedules: number },
  failure: Failure,
  verdict: 'fail' | 'allowed',
): Promise<PropertyVerdict> {
  const prefix = failure.run.schedule.slice(0, failure.cut);
  const original = failure.run.history.events.filter((_, i) => (failure.run.history.releasesAt[i] ?? 0) <= failure.cut);
  let again: ScheduleRun;
  try {
    again = await runWorld(subject, replaySelector(prefix));
  } catch (error) {
    return { ...base, verdict: 'error', reason: `nondeterministic subject: ${(error as Error).message}` };
  }
  const replayed = checkProperty(base.property, again.history.events);
  if (!sameHistory(original, again.history.events) || replayed.holds) {
    return {
      ...base,
      verdict: 'error',
      reason: `nondeterministic subject: replaying ${formatSchedule(prefix)} gave a different history`,
    };
  }
  return {
    ...base,
    verdict,
    counterexample: {
      steps: prefix.length,
      schedule: formatSchedule(prefix),
      story: again.history.events.map(narrate),
      history: again.history.events,
      explanation: replayed.explanation,
      witness: replayed.witness,
    },
  };
}

/** Sampled mode: drop releases one at a time while the property still fails, to get a shorter schedule. */
async function shrink(subject: Subject, failure: Failure, property: PropertyId): Promise<Failure> {
  let best = failure;
  let improved = true;
  while (improved) {
    improved = false;
    const schedule: readonly Release[] = best.run.schedule.slice(0, best.cut);
    for (let i = 0; i < schedule.length; i++) {
      const candidate = [...schedule.slice(0, i), ...schedule.slice(i + 1)];
      const run = await runWorld(subject, lenientReplaySelector(candidate));
      const result = checkProperty(property, run.history.events);
      if (result.holds || subject.scenario.allowedGap?.(property, run.history.events, result) !== undefined) continue;
      const cut = releasesNeeded(run, result);
      if (cut < best.cut) {
        best = { run, result, cut, allowedBy: undefined };
        improved = true;
        break;
      }
    }
  }
  return best;
}
