// "How do I fix this?": for a failing cell of a wiring without the approval guard, the guarded row of the same
// framework version, store, scenario and property that passes — `guarded-<wiring>` where the adapter has one, or else
// the first of its guarded wirings that passes there, in the adapter's order (the reference runtime has one for all
// its switches; LangGraph's resume-by-id and strict-resume have the guarded forms of the docs' two patterns) — and the
// guard's README. Only a guarded cell that passed is offered: the reports never point at a fix the suite did not
// check.
import type { ResultCell } from '../results.js';

export const GUARD_README = 'https://github.com/approval-conformance/approval-conformance/tree/main/packages/guard#readme';

const isGuarded = (wiring: string) => wiring.startsWith('guarded-');

/**
 * The passing guarded cell that answers a failing unguarded one, if the run has one: on the same store, or else on
 * another (a crash on an in-memory store loses the guard's record too: the fix is the guard on a durable store).
 */
export function guardedFix(cell: ResultCell, cells: readonly ResultCell[]): ResultCell | undefined {
  if (cell.verdict !== 'fail' || isGuarded(cell.wiring)) return undefined;
  const passing = cells.filter(
    (c) =>
      isGuarded(c.wiring) &&
      c.verdict === 'pass' &&
      c.framework === cell.framework &&
      c.version === cell.version &&
      c.scenario === cell.scenario &&
      c.property === cell.property,
  );
  const best = (among: readonly ResultCell[]) => among.find((c) => c.wiring === `guarded-${cell.wiring}`) ?? among[0];
  return best(passing.filter((c) => c.store === cell.store)) ?? best(passing);
}

/** How the fix differs from the failing cell's setup, in words: the guard, and where it must keep its records. */
export const fixChange = (cell: ResultCell, fix: ResultCell) =>
  fix.store === cell.store ? 'with the approval guard added' : `with the approval guard added and its records on ${fix.store} (on ${cell.store} a crash loses them)`;
