// Checkpoints through the runner: a unit that timed out goes on from the checkpoint it left on --resume, to the cells
// of a run never stopped; a checkpoint under another key is not gone on from; the folder is gone once its units end.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exploreCell, SCENARIOS, type CellCheckpoint } from '@approval-conformance/core';
import { referenceAdapter } from '@approval-conformance/adapter-reference';
import type { ResultCell } from '../results.js';
import { cli } from '../run-io.fixtures.js';
import { checkpointFile, checkpointsFolder, readCheckpoint, writeCheckpoint } from './checkpoints.js';
import { lostReason } from './lost.js';

const UNIT = 'after-fresh-serial/memory/double-resume';
const run = (json: string, ...more: string[]) =>
  cli('run', '--framework', 'reference', '--wiring', 'after-fresh-serial', '--store', 'memory', '--scenario', 'double-resume', '--json', json, ...more);
const cellsOf = async (file: string) => (JSON.parse(await readFile(file, 'utf8')) as { cells: ResultCell[] }).cells;
const withoutTime = (cells: readonly ResultCell[]) => cells.map(({ ms: _, ...cell }) => cell);

/** Where the unit's exploration stood part-way, as the runner explores it (contents checked, as `run` does by default). */
async function checkpointsOfUnit(): Promise<CellCheckpoint[]> {
  const states: CellCheckpoint[] = [];
  const subject = { adapter: referenceAdapter, wiring: 'after-fresh-serial', store: 'memory', scenario: SCENARIOS.get('double-resume')! };
  await exploreCell(subject, { checkContents: true }, { save: (take) => void states.push(take()) });
  return states;
}

/** The results of `whole` as a run whose unit stopped part-way would have left them: timed out, or its worker lost. */
async function stoppedAs(whole: string, to: string, verdict: 'timeout' | 'error', reason: string) {
  const results = JSON.parse(await readFile(whole, 'utf8')) as { cells: Record<string, unknown>[] };
  results.cells = results.cells.map(({ counterexample: _, ms: __, findings: ___, ...cell }) => ({
    ...cell,
    verdict,
    exhaustive: false,
    schedules: 0,
    reason,
  }));
  await writeFile(to, JSON.stringify(results));
}
const timedOut = (whole: string, to: string) => stoppedAs(whole, to, 'timeout', 'ran past --timeout 1s; the worker was stopped');
/** What a worker that reached V8's heap limit leaves in its unit's cells. */
const OUT_OF_MEMORY = lostReason(null, 'SIGABRT', 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory');

describe('checkpoints through run --resume', () => {
  // The unit run once to its end, and where its exploration stood after each schedule.
  let dir: string;
  let whole: string;
  let cells: ResultCell[];
  let states: CellCheckpoint[];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ac-checkpoints-'));
    whole = join(dir, 'whole.json');
    expect((await run(whole)).code).toBe(0);
    cells = await cellsOf(whole);
    states = await checkpointsOfUnit();
  });

  it('goes on from a timed-out unit\'s checkpoint to the cells of a run never stopped, and removes it', async () => {
    const stopped = join(dir, 'stopped.json');
    await timedOut(whole, stopped);
    const file = checkpointFile(checkpointsFolder(stopped), { framework: 'reference', version: '0.0.0' }, UNIT);
    writeCheckpoint(file, { checkpoint: 1, key: cells[0]!.key!, ms: 1000, cell: states[Math.floor(states.length / 4)]! });
    const resumed = await run(stopped, '--resume');
    expect(resumed.code).toBe(0);
    expect(resumed.err).toContain('Going on from their checkpoints: 1 unit that timed out (reference@0.0.0 after-fresh-serial memory double-resume).');
    expect(resumed.err).toMatch(/after-fresh-serial memory double-resume: going on from its checkpoint \(\d+ schedules run before, in 1 s\)/);
    expect(withoutTime(await cellsOf(stopped))).toEqual(withoutTime(cells));
    expect(existsSync(checkpointsFolder(stopped))).toBe(false);
  });

  it('goes on from the checkpoint of a unit whose worker ran out of memory, not of one that crashed otherwise', async () => {
    for (const [name, reason, goesOn] of [['oom.json', OUT_OF_MEMORY, true], ['crashed.json', 'the worker process was killed (SIGSEGV)', false]] as const) {
      const stopped = join(dir, name);
      await stoppedAs(whole, stopped, 'error', reason);
      const file = checkpointFile(checkpointsFolder(stopped), { framework: 'reference', version: '0.0.0' }, UNIT);
      writeCheckpoint(file, { checkpoint: 1, key: cells[0]!.key!, ms: 1000, cell: states[Math.floor(states.length / 4)]! });
      const resumed = await run(stopped, '--resume');
      expect(resumed.code).toBe(0);
      if (goesOn) {
        expect(resumed.err).toContain('Going on from their checkpoints: 1 unit that ran out of memory (reference@0.0.0 after-fresh-serial memory double-resume).');
        expect(withoutTime(await cellsOf(stopped))).toEqual(withoutTime(cells));
      } else {
        expect(resumed.err).not.toContain('Going on');
        expect((await cellsOf(stopped)).map((c) => c.reason)).toEqual(cells.map(() => reason));
      }
    }
  });

  it('leaves a timed-out unit alone when its checkpoint is of other code or options', async () => {
    const stopped = join(dir, 'other.json');
    await timedOut(whole, stopped);
    const file = checkpointFile(checkpointsFolder(stopped), { framework: 'reference', version: '0.0.0' }, UNIT);
    writeCheckpoint(file, { checkpoint: 1, key: 'another', ms: 1000, cell: states[2]! });
    const resumed = await run(stopped, '--resume');
    expect(resumed.code).toBe(0);
    expect(resumed.err).not.toContain('Going on');
    expect((await cellsOf(stopped)).map((c) => c.verdict)).toEqual(cells.map(() => 'timeout'));
  });

  it('reads a checkpoint only when it is whole, of this format, and under the key', async () => {
    const file = join(dir, 'unit.json');
    expect(readCheckpoint(file, 'k')).toEqual({ none: 'no checkpoint' });
    await writeFile(file, '{"checkpoint": 1');
    expect(readCheckpoint(file, 'k')).toEqual({ none: expect.stringMatching(/is damaged \(not JSON\); starting over$/) });
    await writeFile(file, JSON.stringify({ checkpoint: 1, key: 'k', ms: 1, cell: { exploration: {} } }));
    expect(readCheckpoint(file, 'k')).toEqual({ none: expect.stringMatching(/is not one this version of the suite wrote; starting over$/) });
    const cell = states[0]!;
    writeCheckpoint(file, { checkpoint: 1, key: 'k', ms: 1, cell });
    expect(readCheckpoint(file, 'other')).toEqual({ none: expect.stringMatching(/its key differs\); starting over$/) });
    expect(readCheckpoint(file, 'k')).toEqual({ checkpoint: 1, key: 'k', ms: 1, cell: JSON.parse(JSON.stringify(cell)) });
  });
});
