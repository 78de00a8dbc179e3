// Where an audit's cells come from: every published results file (reports/**/results.json), so that each framework's
// row is drawn from, a row published apart included (in reports/<framework>/). Only files whose
// run an audit re-checks as it was made: the default exploration (every schedule, the default reductions, no cap,
// every property) over the default scenarios, run to its end. A file narrowed only by framework, wiring, store or
// scenario holds cells of the default matrix; a capped, bound or sampled run, or one of an opt-in scenario such as
// three-tabs, holds spaces the default reductions were not enough for, which an audit would not finish either.
// Whether a run checked contents does not matter: the audit's own runs always do.
import { relative } from 'node:path';
import { SCENARIOS } from '@approval-conformance/core';
import { leftOutBecause, resultsFiles, SERVER_STORES } from '../published.js';
import { frameworks } from '../registry.js';
import { readResults, type ResultsFile } from '../results.js';
import { needsServer } from '../server.js';
import { UsageError } from '../usage-error.js';
import { auditUnitId, type AuditUnit } from './select.js';

// Which files those are is published.ts's, which the index's one-minute answer reads too.
export { leftOutBecause, resultsFiles, SERVER_STORES };

export interface AuditSources {
  /** The files drawn from, in the order read. */
  readonly drawn: readonly string[];
  /** The files left out, and why. */
  readonly left: readonly { readonly file: string; readonly why: string }[];
  /** Their judged units, each once. */
  readonly units: readonly AuditUnit[];
}

/** A path as the user would type it: relative to the working folder when under it. */
export const shown = (file: string) => {
  const rel = relative(process.cwd(), file);
  return rel === '' || rel.startsWith('..') ? file : rel;
};

/** The units an audit can draw from the results files under `dir` (the published reports/). */
export async function auditSources(dir: string | undefined): Promise<AuditSources> {
  const drawn: string[] = [];
  const left: { file: string; why: string }[] = [];
  const files: ResultsFile[] = [];
  for (const file of dir === undefined ? [] : await resultsFiles(dir)) {
    let results: ResultsFile;
    try {
      results = await readResults(shown(file));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      // One file spoils the whole population: say which, and how to get past it.
      throw new UsageError(`${error.message} The audit reads every results file under ${shown(dir!)}: restore this one (git checkout -- ${shown(file)}) or move it out of there.`);
    }
    const why = leftOutBecause(results);
    if (why === undefined) {
      drawn.push(file);
      files.push(results);
    } else {
      left.push({ file, why });
    }
  }
  return { drawn, left, units: judgedUnits(files) };
}

/**
 * A store that needs a server the audit is not given (`SERVER_STORES`): its cells are never drawn, so that a seed
 * picks the same cells on every machine. Not for a framework whose every cell runs on that server (DBOS: its
 * descriptor's `server`), which the runner gives a server wherever it runs.
 */
export function leftOutStore(framework: string, store: string): boolean {
  if (!SERVER_STORES.includes(store)) return false;
  return !frameworks().some((f) => f.name === framework && needsServer(f));
}

/** The units of `files` some property judged (n/a ones have nothing to compare), each once: the first judging file's counts. */
export function judgedUnits(files: readonly ResultsFile[]): AuditUnit[] {
  // The frameworks' own fixes, by framework, version and wiring.
  const remedies = new Set(files.flatMap((f) => (f.targets ?? []).flatMap((t) => (t.wirings ?? []).filter((w) => w.remedy).map((w) => `${t.framework}@${t.version}/${w.id}`))));
  const units = new Map<string, AuditUnit & { judged: boolean }>();
  for (const c of files.flatMap((f) => f.cells)) {
    if (c.wiring === '*' || !SCENARIOS.has(c.scenario) || leftOutStore(c.framework, c.store)) continue;
    const remedy = remedies.has(`${c.framework}@${c.version}/${c.wiring}`);
    const unit = { framework: c.framework, version: c.version, wiring: c.wiring, store: c.store, scenario: c.scenario, schedules: c.schedules, ...(remedy ? { remedy } : {}) };
    const id = auditUnitId(unit);
    const judged = c.verdict !== 'not-applicable';
    const before = units.get(id);
    if (before === undefined || (judged && !before.judged)) units.set(id, { ...unit, judged });
  }
  return [...units.values()].filter((u) => u.judged).map(({ judged: _judged, ...u }) => u);
}
