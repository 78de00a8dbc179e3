// The published results (reports/results.json): what the default matrix found at this commit. The runner reads them
// for what each unit costs, and the audit for the cells it chooses among. And the published runs beside them
// (reports/**/results.json): which of those are runs of the default exploration, that the audit draws from and the
// index's one-minute answer adds (a row published apart, in reports/<framework>/: a `notInMatrix` framework's).
import { access, readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SCENARIOS, type ScenarioId } from '@approval-conformance/core';
import type { ResultsFile } from './results.js';

/** `file`, if there is one. */
export async function existing(file: string | undefined): Promise<string | undefined> {
  return file !== undefined && (await access(file).then(() => true, () => false)) ? file : undefined;
}

/** The published results: reports/results.json here, or in the repository this runner is part of. */
export async function publishedResults(): Promise<string | undefined> {
  return (await existing(resolve('reports/results.json'))) ?? existing(fileURLToPath(new URL('../../../reports/results.json', import.meta.url)));
}

/**
 * Stores that need a server an audit is not given: their cells are never drawn, so that a seed picks the same cells
 * on every machine (CI has a PostgreSQL server; a laptop usually has not).
 */
export const SERVER_STORES: readonly string[] = ['postgres'];

/**
 * Why a results file is not a run of the default exploration, or undefined when it is: run to its end, every
 * schedule, the default reductions, no cap, every property, over the default scenarios. A file narrowed only by
 * framework, wiring, store or scenario holds cells of the default matrix; a capped, bound or sampled run, or one of an
 * opt-in scenario such as three-tabs, holds spaces the default reductions were not enough for. Whether a run checked
 * contents does not matter.
 */
export function leftOutBecause(results: Pick<ResultsFile, 'options' | 'complete' | 'shard'>): string | undefined {
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
