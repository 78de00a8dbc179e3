// The results file: one cell per framework version × wiring × store × scenario × property, schemaVersion 1.
import { readFile, rename, writeFile } from 'node:fs/promises';
import type { Counterexample, PropertyId, ScenarioId, Verdict } from '@approval-conformance/core';
import { UsageError } from './usage-error.js';

export interface ResultCell {
  /** `framework/wiring/store/scenario/property`: what `replay --cell` takes. */
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
}

export interface ResultsFile {
  readonly schemaVersion: 1;
  readonly cells: readonly ResultCell[];
}

export function cellId(c: Pick<ResultCell, 'framework' | 'wiring' | 'store' | 'scenario' | 'property'>): string {
  return [c.framework, c.wiring, c.store, c.scenario, c.property].join('/');
}

/** Writes through a temporary file, so an interrupted run never leaves half a file behind. */
export async function writeResults(file: string, cells: readonly ResultCell[]): Promise<void> {
  const results: ResultsFile = { schemaVersion: 1, cells };
  await writeFile(`${file}.tmp`, JSON.stringify(results, null, 2) + '\n');
  await rename(`${file}.tmp`, file);
}

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
    throw new UsageError(`'${file}' is not JSON; expected a results file written by 'approval-conformance run --json'.`);
  }
  const results = data as Partial<ResultsFile>;
  if (typeof data !== 'object' || data === null || !Array.isArray(results.cells)) {
    throw new UsageError(`'${file}' is not a results file (no "cells" list); write one with 'run --json FILE'.`);
  }
  if (results.schemaVersion !== 1) {
    throw new UsageError(`'${file}' has schemaVersion ${JSON.stringify(results.schemaVersion)}; this suite reads 1.`);
  }
  return results as ResultsFile;
}

/** The cell `id` of a results file, with a counterexample, or a UsageError saying what is missing and what to do. */
export async function cellWithCounterexample(file: string, id: string | undefined): Promise<ResultCell> {
  if (id === undefined) throw new UsageError(`--cell ID is needed; run 'approval-conformance replay ${file}' to list them.`);
  const results = await readResults(file);
  const cell = results.cells.find((c) => c.id === id);
  if (!cell) throw new UsageError(`no cell '${id}' in ${file}; run 'approval-conformance replay ${file}' to list them.`);
  if (!cell.counterexample) throw new UsageError(`cell '${cell.id}' is ${cell.verdict}: it has no counterexample.`);
  return cell;
}
