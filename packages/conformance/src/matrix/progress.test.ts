// What a run shows while it runs: to a file or a pipe a line as each unit starts; on a terminal one status line that
// updates in place, and a line only for a unit that failed or errored, a version done, a version that could not run.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Io } from '../commands/command.js';
import type { ResultCell } from '../results.js';
import { CostEstimate } from './estimate.js';
import { Progress } from './progress.js';
import type { Unit } from './protocol.js';

const target = { framework: 'lg', version: '1.0', spec: 'lg' };
const other = { framework: 'lg', version: '2.0', spec: 'lg' };
const units: Unit[] = (['replay', 'double-resume'] as const).map((scenario) => ({ key: `a/memory/${scenario}`, wiring: 'a', store: 'memory', scenario, properties: ['at-most-once'] }));

const cellOf = (unit: Unit, verdict: ResultCell['verdict'], more: Partial<ResultCell> = {}): ResultCell => ({
  id: `lg@1.0/a/memory/${unit.scenario}/at-most-once`,
  framework: 'lg',
  version: '1.0',
  wiring: unit.wiring,
  store: unit.store,
  scenario: unit.scenario,
  property: 'at-most-once',
  verdict,
  mode: 'exhaustive',
  exhaustive: true,
  schedules: 3,
  ...more,
});
const failing = (unit: Unit) =>
  cellOf(unit, 'fail', { counterexample: { steps: 4, schedule: '', story: [], explanation: '', witness: [], history: [] } });

/** One version of two units, the first failing and the second passing; another that could not run (it is a third of
 * the expected work until then: no earlier run weighs the units). */
function run(io: Io) {
  const progress = new Progress(io, false, [target, other], new CostEstimate([]), false, 0);
  progress.planned(target, units);
  progress.started(target, units[0]!);
  progress.finished(target, [failing(units[0]!)]);
  progress.started(target, units[1]!);
  progress.finished(target, [cellOf(units[1]!, 'pass')]);
  progress.failed(other, 'npm said E404');
  progress.end();
}

describe('Progress', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
  });
  afterEach(() => void vi.useRealTimers());

  it('writes a line as each unit starts, and nothing more, when stderr is not a terminal', () => {
    const lines: string[] = [];
    run({ out: () => {}, err: (text) => void lines.push(text) });
    expect(lines).toEqual([
      '[0/2+ done] running lg@1.0 a memory replay · 0:00 elapsed\n',
      '[1/2+ done] running lg@1.0 a memory double-resume · 0:00 elapsed, 33% done, ETA 0:00\n',
      'lg@2.0: could not run: npm said E404\n',
      'Ran 2 units in 0:00.\n',
    ]);
  });

  it('on a terminal, keeps one status line and writes a line per failure, error and version done', () => {
    const shown: string[] = [];
    run({ out: () => {}, err: (text) => void shown.push(text), status: (line) => void shown.push(`status: ${line}`) });
    expect(shown).toEqual([
      'status: [0/2+ done] 0:00 elapsed · running lg@1.0 a memory replay',
      'lg@1.0 a memory replay: at-most-once fail (4 steps)\n',
      'status: [1/2+ done] 0:00 elapsed, 33% done, ETA 0:00 · running lg@1.0 a memory replay',
      'status: [1/2+ done] 0:00 elapsed, 33% done, ETA 0:00 · running lg@1.0 a memory double-resume',
      'lg@1.0 done: 2 units, 1 pass, 1 fail.\n',
      'status: [2/2+ done] 0:00 elapsed, 66% done, ETA 0:00 · running lg@1.0 a memory double-resume',
      'lg@2.0: could not run: npm said E404\n',
      'status: ',
      'Ran 2 units in 0:00.\n',
    ]);
  });

  it("on a terminal, moves the status line's clock each second while a unit runs, and stops at the end", () => {
    const shown: string[] = [];
    const progress = new Progress({ out: () => {}, err: () => {}, status: (line) => void shown.push(line) }, false, [target], new CostEstimate([]), false, 0);
    progress.planned(target, units);
    progress.started(target, units[0]!);
    vi.advanceTimersByTime(2000);
    expect(shown).toEqual([
      '[0/2 done] 0:00 elapsed · running lg@1.0 a memory replay',
      '[0/2 done] 0:01 elapsed · running lg@1.0 a memory replay',
      '[0/2 done] 0:02 elapsed · running lg@1.0 a memory replay',
    ]);
    progress.end();
    vi.advanceTimersByTime(5000);
    expect(shown.slice(3)).toEqual(['']);
  });

  it('on a terminal, an error or a timeout says why, on one line', () => {
    const shown: string[] = [];
    const progress = new Progress({ out: () => {}, err: (text) => void shown.push(text), status: () => {} }, false, [target], new CostEstimate([]), false, 0);
    progress.planned(target, units);
    progress.finished(target, [cellOf(units[0]!, 'error', { reason: 'the worker ran out of memory\nat heap' })]);
    progress.finished(target, [cellOf(units[1]!, 'timeout', { exhaustive: false })]);
    expect(shown).toEqual([
      'lg@1.0 a memory replay: at-most-once error (the worker ran out of memory)\n',
      'lg@1.0 a memory double-resume: at-most-once timeout\n',
      'lg@1.0 done: 2 units, 1 error, 1 timeout.\n',
    ]);
  });

  it('shows nothing when quiet, on a terminal or not', () => {
    const shown: string[] = [];
    const io = { out: () => {}, err: (text: string) => void shown.push(text), status: (line: string) => void (line && shown.push(line)) };
    const progress = new Progress(io, true, [target], new CostEstimate([]), false, 0);
    progress.planned(target, units);
    progress.started(target, units[0]!);
    progress.finished(target, [failing(units[0]!)]);
    progress.end();
    expect(shown).toEqual([]);
  });
});
