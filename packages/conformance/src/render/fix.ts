// "How do I fix this?": for a failing cell of a wiring without the approval guard, the guarded row of the same
// framework version, store, scenario and property that passes — `guarded-<wiring>` where the adapter has one, or else
// its guarded wiring of the same documented pattern family (the reference runtime has one for all its switches) — and
// the guard's README. Only a guarded cell that passed is offered: the reports never point at a fix the suite did not
// check.
import type { ResultCell } from '../results.js';

export const GUARD_README = 'https://github.com/approval-conformance/approval-conformance/tree/main/packages/guard#readme';

const isGuarded = (wiring: string) => wiring.startsWith('guarded-');

/** The passing guarded cell that answers a failing unguarded one, if the run has one. */
export function guardedFix(cell: ResultCell, cells: readonly ResultCell[]): ResultCell | undefined {
  if (cell.verdict !== 'fail' || isGuarded(cell.wiring)) return undefined;
  const same = cells.filter(
    (c) =>
      isGuarded(c.wiring) &&
      c.verdict === 'pass' &&
      c.framework === cell.framework &&
      c.version === cell.version &&
      c.store === cell.store &&
      c.scenario === cell.scenario &&
      c.property === cell.property,
  );
  return same.find((c) => c.wiring === `guarded-${cell.wiring}`) ?? (same.length === 1 ? same[0] : undefined);
}
