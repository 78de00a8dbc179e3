// "How do I fix this?": for a failing cell of a wiring without the approval guard, the guarded row of the same
// framework version, store, scenario and property that passes — `guarded-<wiring>` where the adapter has one, or else
// the first of its guarded wirings that passes there, in the adapter's order (the reference runtime has one for all
// its switches; LangGraph's resume-by-id and strict-resume have the guarded forms of the docs' two patterns) — and the
// guard's README. Only a guarded cell that passed is offered: the reports never point at a fix the suite did not
// check.
import { existsSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResultCell } from '../results.js';

/**
 * The guard's README where no clone of the suite holds it: in the suite's repository, at its Install section (the
 * package is not on the registry yet, so its registry page would be a 404).
 */
export const GUARD_PAGE = 'https://github.com/approval-conformance/approval-conformance/blob/main/packages/guard/README.md#install';

/**
 * The guard's README as a link from a folder of reports: relative, so that it works in a clone and offline, where the
 * suite's source is beside the reports; else its page on the registry. `depth` is how far below that folder the page
 * linking it is (a story page is one folder down).
 */
export function guardReadme(reportsDir: string | undefined, depth = 0): string {
  if (reportsDir === undefined) return GUARD_PAGE;
  const readme = fileURLToPath(new URL('../../../guard/README.md', import.meta.url));
  if (!existsSync(readme)) return GUARD_PAGE;
  return `${'../'.repeat(depth)}${relative(reportsDir, readme).split(sep).join('/')}#install`;
}

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
