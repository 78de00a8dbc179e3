// How a verdict reads in a table. A sampled or partial pass never reads like an exhaustive one.
import type { PropertyVerdict } from '@approval-conformance/core';

type Shown = Pick<PropertyVerdict, 'verdict' | 'exhaustive' | 'schedules' | 'counterexample'> & {
  readonly mode: 'exhaustive' | 'sampled';
};

/** What a table's counts mean, for the pages that show them (Markdown; the HTML pages escape it). */
export const COUNTS =
  'A `pass (N)` ran N schedules: one of each set of schedules that differ only in the order of releases that ' +
  'commute, so that every schedule within the bound is one of them up to that order, and the property held in all. ' +
  'A `fail (K steps)` links to its shortest counterexample, K releases long; its story says how many schedules ran ' +
  'before that was proven shortest.';

/** How a fail's story says how its length was found. */
export function provenAfter(v: Shown): string {
  if (v.verdict !== 'fail' && v.verdict !== 'allowed') return '';
  if (!v.exhaustive) return ` Found among ${v.schedules} schedules; not every schedule ran, so a shorter one may exist.`;
  return ` Proven shortest after ${v.schedules} schedule${v.schedules === 1 ? '' : 's'}.`;
}

/** Every verdict, in the order tables list them. */
export const VERDICTS = ['pass', 'fail', 'allowed', 'not-applicable', 'error', 'timeout'] as const;

/** A verdict's short name, as columns and tallies show it: `n/a` for not-applicable. */
export const shortVerdict = (verdict: string) => (verdict === 'not-applicable' ? 'n/a' : verdict);

/** Per verdict, in `VERDICTS` order, how many of `cells` have it, or '' for none: a table row's counts. */
export const verdictCounts = (cells: readonly { readonly verdict: string }[]) =>
  VERDICTS.map((v) => String(cells.filter((c) => c.verdict === v).length || ''));

/** `3 pass, 1 fail`: how many cells have each verdict, leaving out the verdicts none has. */
export function tallyVerdicts(cells: readonly { readonly verdict: string }[], name: (verdict: string) => string = (v) => v): string {
  return VERDICTS.flatMap((v) => {
    const n = cells.filter((c) => c.verdict === v).length;
    return n > 0 ? [`${n} ${name(v)}`] : [];
  }).join(', ');
}

export function verdictCell(v: Shown): string {
  switch (v.verdict) {
    case 'pass':
      if (v.exhaustive) return `pass (${v.schedules} schedule${v.schedules === 1 ? '' : 's'})`;
      // Not every schedule was run: a sampled run, or an exhaustive one stopped at --max-schedules.
      return v.mode === 'sampled' ? `pass (sampled ${v.schedules})` : `pass (partial ${v.schedules})`;
    case 'fail': {
      // The shortest failing schedule is only known to be shortest when every schedule was run.
      const steps = `${v.counterexample?.steps ?? '?'} steps`;
      if (v.exhaustive) return `fail (${steps})`;
      return `fail (${steps}; ${v.mode === 'sampled' ? 'sampled' : 'partial'} ${v.schedules})`;
    }
    case 'allowed':
      return `allowed (${v.counterexample?.steps ?? '?'} steps)`;
    case 'not-applicable':
      return 'n/a';
    case 'error':
      return 'error';
    case 'timeout':
      return 'timeout';
  }
}
