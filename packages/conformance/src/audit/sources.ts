// Where an audit's cells come from: every published results file (reports/**/results.json), so that each framework's
// row is drawn from, the Cloudflare row's included (published apart, in reports/cloudflare-agents/). Only files whose
// run an audit re-checks as it was made: the default exploration (every schedule, the default reductions, no cap,
// every property) over the default scenarios, run to its end. A file narrowed only by framework, wiring, store or
// scenario holds cells of the default matrix; a capped, bound or sampled run, or one of an opt-in scenario such as
// three-tabs, holds spaces the default reductions were not enough for, which an audit would not finish either.
// Whether a run checked contents does not matter: the audit's own runs always do.
import { readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { DEFAULT_SCENARIOS, SCENARIOS, type ScenarioId } from '@approval-conformance/core';
import { readResults, type ResultsFile } from '../results.js';
import { UsageError } from '../usage-error.js';
import { auditUnitId, type AuditUnit } from './select.js';

/**
 * Stores that need a server an audit is not given: their cells are never drawn, so that a seed picks the same cells
 * on every machine (CI has a PostgreSQL server; a laptop usually has not).
 */
export const SERVER_STORES: readonly string[] = ['postgres'];

/** Why an audit does not draw from a results file, or undefined when it does. */
export function leftOutBecause(results: ResultsFile): string | undefined {
  const o = results.options;
  if (o === undefined) return 'it does not say how it was run';
  if (results.complete !== true || results.shard !== undefined) return 'its run did not finish';
  if (o.mode !== 'exhaustive') return 'its cells were sampled';
  if (o.reduce !== true) return `it ran with other reductions than the default (${o.reduce === false ? 'none' : o.reduce.join(', ')})`;
  if (o.maxSchedules !== undefined) return `its explorations were capped at ${o.maxSchedules} schedules`;
  if (o.properties !== undefined) return `it checked only ${o.properties.join(', ')}`;
  const optIn = o.scenarios.filter((s) => !DEFAULT_SCENARIOS.includes(s as ScenarioId));
  if (optIn.length > 0) return `${optIn.join(', ')} runs only when named`;
  if (o.stores !== undefined && o.stores.every((s) => SERVER_STORES.includes(s))) return `its store (${o.stores.join(', ')}) needs a server`;
  return undefined;
}

/** Every results.json under `dir`, the top one first: where a unit is in two files, the default matrix's counts win. */
export async function resultsFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (at: string) => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      // A reproduction installed in place has a node_modules; nothing in it is a report.
      if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) await walk(join(at, entry.name));
      else if (entry.isFile() && entry.name === 'results.json') found.push(join(at, entry.name));
    }
  };
  await walk(dir);
  const top = (file: string) => (dirname(file) === dir ? 0 : 1);
  return found.sort((a, b) => top(a) - top(b) || a.localeCompare(b));
}

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

/** The units of `files` some property judged (n/a ones have nothing to compare), each once: the first judging file's counts. */
export function judgedUnits(files: readonly ResultsFile[]): AuditUnit[] {
  // The frameworks' own fixes, by framework, version and wiring.
  const remedies = new Set(files.flatMap((f) => (f.targets ?? []).flatMap((t) => (t.wirings ?? []).filter((w) => w.remedy).map((w) => `${t.framework}@${t.version}/${w.id}`))));
  const units = new Map<string, AuditUnit & { judged: boolean }>();
  for (const c of files.flatMap((f) => f.cells)) {
    if (c.wiring === '*' || !SCENARIOS.has(c.scenario) || SERVER_STORES.includes(c.store)) continue;
    const remedy = remedies.has(`${c.framework}@${c.version}/${c.wiring}`);
    const unit = { framework: c.framework, version: c.version, wiring: c.wiring, store: c.store, scenario: c.scenario, schedules: c.schedules, ...(remedy ? { remedy } : {}) };
    const id = auditUnitId(unit);
    const judged = c.verdict !== 'not-applicable';
    const before = units.get(id);
    if (before === undefined || (judged && !before.judged)) units.set(id, { ...unit, judged });
  }
  return [...units.values()].filter((u) => u.judged).map(({ judged: _judged, ...u }) => u);
}
