// The results file: one cell per framework version × wiring × store × scenario × property, and the environment it
// ran in. schemaVersion 2 (schema/results.schema.json); version 1 files (cells only) are still read.
import { readFile, rename, writeFile } from 'node:fs/promises';
import type { Counterexample, PropertyId, ScenarioId, Verdict } from '@approval-conformance/core';
import { schemaProblem } from './results-schema.js';
import { UsageError } from './usage-error.js';

export const SCHEMA_VERSION = 2;

export interface ResultCell {
  /** `framework@version/wiring/store/scenario/property`: what `replay --cell` takes. */
  readonly id: string;
  readonly framework: string;
  readonly version: string;
  readonly wiring: string;
  readonly store: string;
  readonly scenario: ScenarioId;
  readonly property: PropertyId;
  readonly verdict: Verdict;
  /** How schedules were chosen: every one in order (exhaustive, possibly cut short), or at random (sampled). */
  readonly mode: 'exhaustive' | 'sampled';
  readonly exhaustive: boolean;
  readonly schedules: number;
  readonly reason?: string;
  readonly counterexample?: Counterexample;
  /** What the subject did that no property covers (a turn threw, a rejection nobody handled). */
  readonly findings?: readonly string[];
  /** Wall-clock milliseconds the cell's exploration took (shared by the properties of one scenario run). */
  readonly ms?: number;
  /** The unit's key: a digest of everything that can change its verdict (`run --reuse` copies a unit whose key matches). */
  readonly key?: string;
}

/** One framework version the run covered, as installed. */
export interface ResultTarget {
  readonly framework: string;
  readonly version: string;
  /** What was asked for: `ai@6`, `ai@file:../ai/packages/ai`. */
  readonly spec: string;
  /** The exact versions of the framework's packages and their peers, as loaded. */
  readonly packages: Readonly<Record<string, string>>;
  /** The Node range the main package declares, by package, when the run's Node is outside of it (it ran anyway). */
  readonly nodeEngines?: Readonly<Record<string, string>>;
  /** A local build's folder, absolute (`NAME@file:PATH`): where its cells replay from. */
  readonly source?: string;
  /** A third party's framework: its adapter (`--adapter`), by npm name or absolute path, which replaying needs again. */
  readonly adapter?: string;
  /** How many units the version has under the run's options (with the finished cells, how many are left). */
  readonly units?: number;
  /** The version's wirings: what each is, and which the docs show first (results before 2026-12 lack them). */
  readonly wirings?: readonly { readonly id: string; readonly description: string; readonly docsDefault?: true; readonly remedy?: string }[];
  /** Set when the version could not be installed or imported: every cell of it is then an error. */
  readonly error?: string;
  /** The parts of its units' keys (`run --reuse` says which one differs): the suite, the adapter, the installed tree, Node. */
  readonly keys?: { readonly suite: string; readonly adapter: string; readonly tree: string; readonly node: string };
}

export interface Environment {
  readonly suite: string;
  readonly node: string;
  readonly os: string;
  readonly arch: string;
  readonly cpus: number;
}

export interface RunOptions {
  readonly scenarios: readonly string[];
  readonly properties?: readonly string[];
  readonly wirings?: readonly string[];
  readonly stores?: readonly string[];
  readonly mode: 'exhaustive' | 'sampled';
  readonly samples?: number;
  readonly seed?: number;
  readonly maxSchedules?: number;
  /** The explorer's reductions: the default ones (true), none (false), or the names of those used (`commute`, `bound`). */
  readonly reduce: boolean | readonly ('commute' | 'source-sets' | 'bound' | 'symmetry')[];
  /**
   * Whether each world's state was read around every release, every key a release changed having to be declared
   * written (`run` checks by default; `--no-check-contents` does not). Absent means false: results written before
   * `run` recorded it were made without (its `--check-contents` was not recorded); `readResults` fills it in.
   */
  readonly checkContents?: boolean;
}

/** Whether the run checked contents; options that do not say were made without (see `RunOptions.checkContents`). */
export const contentsChecked = (options: RunOptions | undefined): boolean => options?.checkContents ?? false;

/** A shard's part of a split run (`run --shard I/N`): which part, and the whole split, for `merge` to check. */
export interface ShardInfo {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
  /** A digest of the suite, the options and the whole split: the shards of one run share it. */
  readonly plan: string;
  /** Every unit of the plan in plan order, with the shard that runs it: `framework@version` → [[unit key, shard]]. */
  readonly units: Readonly<Record<string, readonly (readonly [string, number])[]>>;
}

export interface ResultsFile {
  readonly schemaVersion: 1 | 2;
  readonly environment?: Environment;
  /** When the run started and last wrote a cell (ISO 8601). */
  readonly started?: string;
  readonly updated?: string;
  readonly targets?: readonly ResultTarget[];
  /** Every framework version the run was asked for (`ai@6.0.326`), finished or not. */
  readonly planned?: readonly string[];
  /** Set once every planned version ran to the end; a run that was stopped says so by its absence. */
  readonly complete?: boolean;
  /** The options the cells were run with (filters and exploration): a resumed run must use the same. */
  readonly options?: RunOptions;
  /** Set on one shard's results; a merge of all the shards has none. */
  readonly shard?: ShardInfo;
  readonly cells: readonly ResultCell[];
}

export function cellId(
  c: Pick<ResultCell, 'framework' | 'version' | 'wiring' | 'store' | 'scenario' | 'property'>,
): string {
  return [`${c.framework}@${c.version}`, c.wiring, c.store, c.scenario, c.property].join('/');
}

/** Writes through a temporary file, so an interrupted run never leaves half a file behind. */
export async function writeResults(file: string, results: Omit<ResultsFile, 'schemaVersion'>): Promise<void> {
  const data: ResultsFile = { schemaVersion: SCHEMA_VERSION, ...results };
  await writeFile(`${file}.tmp`, JSON.stringify(data, null, 2) + '\n');
  await rename(`${file}.tmp`, file);
}

/** Version 1 cells had no version in their id; give them the version 2 id. */
const upgrade = (cell: ResultCell): ResultCell =>
  cell.id.split('/')[0]!.includes('@') ? cell : { ...cell, id: cellId(cell) };

export async function readResults(file: string): Promise<ResultsFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read results file '${file}': ${code === 'ENOENT' ? 'no such file' : (code ?? String(error))}.`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new UsageError(`'${file}' is not JSON; expected a results file written by 'approval-conformance run'.`);
  }
  const results = data as Partial<ResultsFile>;
  if (typeof data !== 'object' || data === null || !Array.isArray(results.cells)) {
    throw new UsageError(`'${file}' is not a results file (no "cells" list); write one with 'approval-conformance run'.`);
  }
  if (results.schemaVersion !== 1 && results.schemaVersion !== SCHEMA_VERSION) {
    throw new UsageError(
      `'${file}' has schemaVersion ${JSON.stringify(results.schemaVersion)}; this suite reads 1 and ${SCHEMA_VERSION}.`,
    );
  }
  const bad = results.cells.find((c) => typeof c?.id !== 'string' || typeof c?.verdict !== 'string');
  if (bad !== undefined) throw new UsageError(`'${file}' has a cell without an id or a verdict; it is corrupt.`);
  // Version 1 had cells only, with no version in their ids: its cells, given version 2 ids, must be version 2 cells.
  const read: ResultsFile = results.schemaVersion === 1
    ? { schemaVersion: SCHEMA_VERSION, cells: results.cells.map(upgrade) }
    : (results as ResultsFile);
  const problem = schemaProblem(read);
  if (problem !== undefined) {
    throw new UsageError(`'${file}' is not a valid results file: ${problem}. Nothing was written; use a file written by 'approval-conformance run'.`);
  }
  // A cell's id is what `replay --cell` and the reports name it by: it must be the id its own fields make, or the
  // cell could be listed under one name and not found by it (and a name is not checked for what it holds).
  read.cells.forEach((cell, i) => {
    const given = (results.cells as ResultCell[])[i]!.id;
    const made = cellId(cell);
    const v1 = results.schemaVersion === 1 && given === [cell.framework, cell.wiring, cell.store, cell.scenario, cell.property].join('/');
    if (given !== made && !v1) {
      throw new UsageError(
        `'${file}' is not a valid results file: cells[${i}].id is ${JSON.stringify(given)}, but its framework, version, wiring, store, scenario and property make the cell '${made}'; a cell's id must be that. Nothing was written; use a file written by 'approval-conformance run', or correct the id.`,
      );
    }
  });
  const seen = new Set<string>();
  for (const cell of read.cells) {
    if (seen.has(cell.id)) throw new UsageError(`'${file}' is not a valid results file: cell '${cell.id}' appears twice. Nothing was written.`);
    seen.add(cell.id);
  }
  // Options that do not say whether contents were checked come from before `run` checked them by default: without.
  // Filled in, so that a resumed run, a merge and a report compare and show it as they do a newer file's.
  if (read.options && read.options.checkContents === undefined) return { ...read, options: { ...read.options, checkContents: false } };
  return read;
}

/** The cell `id` of a results file, with a counterexample, or a UsageError saying what is missing and what to do. */
export async function cellWithCounterexample(file: string, id: string | undefined): Promise<ResultCell> {
  if (id === undefined) throw new UsageError(`--cell ID is needed; run 'approval-conformance replay ${file}' to list them.`);
  const cell = cellOf(await readResults(file), file, id);
  if (!cell.counterexample) throw new UsageError(`cell '${cell.id}' is ${cell.verdict}: it has no counterexample.`);
  return cell;
}

/** The cell `--cell ID` names in a results file read from `file`; a usage error saying how to list them if none. */
export function cellOf(results: ResultsFile, file: string, id: string | undefined): ResultCell {
  if (id === undefined) throw new UsageError(`--cell ID is needed; run 'approval-conformance replay ${file}' to list them.`);
  const cell = results.cells.find((c) => c.id === id);
  if (!cell) throw new UsageError(`no cell '${id}' in ${file}; run 'approval-conformance replay ${file}' to list them.`);
  return cell;
}
