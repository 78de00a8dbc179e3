// One audited cell: the reduced exploration against the unreduced one (every schedule to its end), and where that
// could not be run to its end within the cap, against many sampled schedules too. Exhaustive both ways, every verdict
// and every shortest counterexample's length must be equal. Otherwise nothing the unreduced or sampled runs found
// may be missing from the reduced one: a failure where it passed, or a counterexample shorter than its shortest.
import type { ResultCell } from '../results.js';

export interface CellAudit {
  /** The unit audited: `framework@version/wiring/store/scenario`. */
  readonly unit: string;
  readonly agrees: boolean;
  /** How it was checked, in a few words: `4,210 unreduced schedules, exhaustive`. */
  readonly how: string;
  /** One sentence per disagreement. */
  readonly differences: readonly string[];
}

const n = (count: number) => count.toLocaleString('en-US');

const failed = (c: ResultCell) => c.verdict === 'fail' || c.verdict === 'allowed';
const judged = (c: ResultCell | undefined) => c !== undefined && (c.verdict === 'pass' || failed(c));

const shown = (c: ResultCell) =>
  `${c.verdict}${c.counterexample ? ` (${c.counterexample.steps} steps)` : c.verdict === 'pass' ? ` (${n(c.schedules)} schedules)` : ''}`;

/** What a counterexample the reduced run lacks looks like, so it can be replayed. */
const witness = (c: ResultCell) => (c.counterexample ? `: ${c.counterexample.schedule}` : '');

/**
 * `reduced`, `full` and `sampled`: the unit's cells from each run, by property (`sampled` only where `full` did not
 * finish). A property missing from a run is one that run could not judge.
 */
export function compareUnit(unit: string, reduced: readonly ResultCell[], full: readonly ResultCell[], sampled: readonly ResultCell[] = []): CellAudit {
  const differences: string[] = [];
  const of = (cells: readonly ResultCell[], property: string) => cells.find((c) => c.property === property);
  const exhaustive = full.length > 0 && full.every((c) => c.exhaustive && judged(c));
  for (const r of reduced) {
    const p = r.property;
    if (r.verdict === 'error' || r.verdict === 'timeout' || r.verdict === 'not-applicable') {
      differences.push(`${p}: the reduced run could not judge it (${r.verdict}${r.reason ? `: ${r.reason}` : ''})`);
      continue;
    }
    const f = of(full, p);
    if (exhaustive && f) {
      const same = f.verdict === r.verdict && f.counterexample?.steps === r.counterexample?.steps;
      if (!same) differences.push(`${p}: reduced ${shown(r)}, unreduced ${shown(f)}${witness(f)}`);
      continue;
    }
    // Not exhaustive: anything the unreduced prefix or the samples found must be in the reduced result.
    for (const [what, other] of [['the unreduced run', f], ['a sampled schedule', of(sampled, p)]] as const) {
      if (!other || !failed(other)) continue;
      if (r.verdict === 'pass') differences.push(`${p}: reduced pass, but ${what} breaks it, ${shown(other)}${witness(other)}`);
      else if (other.counterexample && r.counterexample && other.counterexample.steps < r.counterexample.steps) {
        differences.push(`${p}: reduced ${shown(r)}, but ${what} breaks it in fewer, ${shown(other)}${witness(other)}`);
      }
    }
    if (!judged(f) && !judged(of(sampled, p))) {
      const why = [f, of(sampled, p)].flatMap((c) => (c?.reason ? [c.reason] : []));
      differences.push(`${p}: neither the unreduced nor a sampled run could judge it${why.length > 0 ? ` (${why.join('; ')})` : ''}`);
    }
  }
  const ran = full[0]?.schedules ?? 0;
  // An unreduced run that timed out (or broke) explored no schedules it can tell: say what became of it, not "0".
  const unjudged = full.find((c) => !judged(c));
  const against = exhaustive
    ? `${n(ran)} unreduced schedules, exhaustive`
    : unjudged && !full.some(judged)
      ? `an unreduced run that ended ${unjudged.verdict}${unjudged.reason ? ` (${unjudged.reason})` : ''}, and ${n(sampled[0]?.schedules ?? 0)} sampled`
      : `the first ${n(ran)} unreduced schedules and ${n(sampled[0]?.schedules ?? 0)} sampled`;
  const how = `${n(reduced[0]?.schedules ?? 0)} reduced against ${against}`;
  return { unit, agrees: differences.length === 0, how, differences };
}
