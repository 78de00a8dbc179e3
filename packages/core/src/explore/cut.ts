// How much of a failing run a counterexample needs: the releases that produced the witness, and every release that
// must come before them, in the run's order; nothing else. Releases left out commute with everything kept (that is
// what happens-before means), so the kept ones, run alone in that order, reach the same witness: a shorter schedule
// of the same violation, and the same one whichever equivalent order the explorer happened to run. Without
// commuting releases every release is ordered after the ones before it, and this is the run up to its last witness.
//
// A limit, known and checked: a property names the first violation in the run's order, and a later one in the same
// run could need fewer releases. Then the shortest counterexample is found only if another explored run shows that
// violation first. Without commuting releases one always does (the run that starts with it); with them it need not,
// and the length would be longer than the shortest, never shorter. The default matrix's lengths equal the
// unreduced explorer's (`bench/baseline/`); a property that reports every violation would close the gap.
//
// A finished run with blind writes is cut as source sets read it (`HappensBefore.of(..., finished)`): two blind writes
// whose order nothing after them observes are not ordered, so the run explored of the two that differ only in that
// order has the cut the other would have had.
import type { PropertyResult } from '../properties/result.js';
import { PROPERTY_INFO } from '../properties/ids.js';
import type { Release } from '../scheduler/gate.js';
import type { Scope } from '../scheduler/commute.js';
import { HappensBefore } from '../scheduler/happens-before.js';
import type { ScheduleRun } from '../scheduler/run.js';

export interface Cut {
  /** Indices of the run's releases the counterexample keeps, ascending. */
  readonly steps: readonly number[];
  /** Those releases: the counterexample's schedule. */
  readonly schedule: readonly Release[];
  /** Indices of the run's events that the kept releases produce (and the setup's): the counterexample's history. */
  readonly events: readonly number[];
}

/**
 * The releases that produced event `e`: the release after which it was recorded, and the last release of its turn
 * before that (the code that recorded it may have been woken by another turn's release). An event the scenario
 * itself recorded (the user's approval after the turns) depends on every release before it.
 */
function producers(run: ScheduleRun, e: number): number[] {
  const after = run.history.releasesAt[e] ?? 0;
  if (after === 0) return [];
  const actor = run.history.events[e]!.actor;
  if (!run.turns.includes(actor)) return Array.from({ length: after }, (_, i) => i);
  let own = after - 1;
  while (own >= 0 && run.steps[own]!.gate.turn !== actor) own--;
  return own >= 0 && own !== after - 1 ? [after - 1, own] : [after - 1];
}

/**
 * What of `run` the counterexample for `result` needs, where releases commute as `scope` says (undefined: none do).
 * A property judged at the end needs the whole run.
 */
export function cutFor(run: ScheduleRun, result: PropertyResult, scope: Scope | undefined): Cut {
  const all = run.schedule.map((_, i) => i);
  const needed =
    PROPERTY_INFO[result.property].judged === 'at-end' || result.witness.length === 0
      ? all
      : HappensBefore.of(run.steps, scope, run.status === 'complete').closure(result.witness.flatMap((e) => producers(run, e)));
  const kept = new Set(needed);
  return {
    steps: needed,
    schedule: needed.map((i) => run.schedule[i]!),
    events: run.history.events.map((_, e) => e).filter((e) => producers(run, e).every((i) => kept.has(i))),
  };
}
