// A long unit's checkpoint: where its exhaustive exploration stands, saved by the worker every minute or so, so that a
// unit stopped part-way (Ctrl-C, a killed worker, a machine that went away, --timeout) goes on from there on
// --resume instead of from its first schedule. The exploration's state is plain data (`CellCheckpoint`); going on
// from it runs exactly the schedules that were left, so the verdicts, counts and counterexamples are those of a run
// never stopped. A checkpoint counts only for the unit's key (keys.ts: the suite's code, the adapter, the installed
// tree, Node, the unit and the options): anything else that changed starts the unit over.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CellCheckpoint } from '@approval-conformance/core';
import type { ResultCell } from '../results.js';
import { unitKey } from './protocol.js';
import { ranOutOfMemory } from './lost.js';

/** Where a run keeps its checkpoints: beside its results file, hidden (`.results.json.checkpoints`). */
export const checkpointsFolder = (jsonFile: string) => join(dirname(jsonFile), `.${jsonFile.split(/[\\/]/).pop()}.checkpoints`);

/** One unit's checkpoint file. Unit keys (`wiring/store/scenario`) are made of ids, safe as folder names. */
export const checkpointFile = (dir: string, target: { framework: string; version: string }, unitKey: string) =>
  join(dir, `${target.framework}@${target.version}`, `${unitKey}.json`);

export interface UnitCheckpoint {
  readonly checkpoint: 1;
  /** The unit's key (keys.ts) when it was saved. */
  readonly key: string;
  /** Milliseconds the unit had run, over all its runs so far. */
  readonly ms: number;
  readonly cell: CellCheckpoint;
}

/** The checkpoint in `file`, or why there is none to go on from. */
export function readCheckpoint(file: string, key: string): UnitCheckpoint | { readonly none: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { none: 'no checkpoint' };
  }
  try {
    const saved = JSON.parse(text) as Partial<UnitCheckpoint>;
    const cell = saved.cell;
    const shaped =
      saved.checkpoint === 1 &&
      typeof saved.ms === 'number' &&
      Array.isArray(cell?.exploration?.stack) &&
      Array.isArray(cell?.failures) &&
      Array.isArray(cell?.findings);
    if (!shaped) {
      return { none: `its checkpoint ${file} is not one this version of the suite wrote; starting over` };
    }
    if (saved.key !== key) {
      return { none: `its checkpoint was saved by other code or options (its key differs); starting over` };
    }
    return saved as UnitCheckpoint;
  } catch {
    return { none: `its checkpoint ${file} is damaged (not JSON); starting over` };
  }
}

/** Writes the checkpoint whole or not at all: to a file beside it, then renamed over it. */
export function writeCheckpoint(file: string, checkpoint: UnitCheckpoint): void {
  mkdirSync(dirname(file), { recursive: true });
  const part = `${file}.part`;
  writeFileSync(part, JSON.stringify(checkpoint));
  renameSync(part, file);
}

/** Once the unit is over. A checkpoint that cannot be removed is harmless: a finished unit never goes on from one. */
export function removeCheckpoint(file: string): void {
  for (const path of [file, `${file}.part`]) {
    try {
      rmSync(path, { force: true });
    } catch {
      // Left where it is.
    }
  }
}

type Target = { readonly framework: string; readonly version: string };

/**
 * The units of `target` that timed out, or whose worker ran out of memory, and left a checkpoint under their key: a
 * resumed run runs them again, from it (with a longer --timeout, or more memory, they may now finish). One of other
 * code or options would only start its unit over, to end the same way. Each unit with why it stopped.
 */
export function unfinishedWithCheckpoint(dir: string, target: Target, cells: readonly ResultCell[]): [unit: string, why: 'timed out' | 'ran out of memory'][] {
  const stopped = new Map(
    cells
      .filter((c) => c.framework === target.framework && c.version === target.version)
      .filter((c) => c.verdict === 'timeout' || (c.verdict === 'error' && ranOutOfMemory(c.reason)))
      .map((c) => [unitKey(c), { key: c.key, why: c.verdict === 'timeout' ? ('timed out' as const) : ('ran out of memory' as const) }]),
  );
  return [...stopped]
    .filter(([unit, { key }]) => key !== undefined && !('none' in readCheckpoint(checkpointFile(dir, target, unit), key)))
    .map(([unit, { why }]) => [unit, why]);
}

/**
 * Once a unit's verdicts are saved, its checkpoint goes: not after a timeout or an error (a timed-out unit goes on
 * from it on --resume; a crash leaves it for whoever looks).
 */
export function removeFinished(dir: string, target: Target, cells: readonly ResultCell[]): void {
  const units = new Map<string, ResultCell[]>();
  for (const cell of cells.filter((c) => c.wiring !== '*')) units.set(unitKey(cell), [...(units.get(unitKey(cell)) ?? []), cell]);
  for (const [unit, mine] of units) {
    if (mine.every((c) => c.verdict !== 'timeout' && c.verdict !== 'error')) removeCheckpoint(checkpointFile(dir, target, unit));
  }
}

/** Removes `dir` and the folders under it that hold no file: what is left when every unit's checkpoint is gone. */
export function removeEmptyFolders(dir: string): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) removeEmptyFolders(join(dir, entry.name));
  if (readdirSync(dir).length === 0) rmdirSync(dir);
}
