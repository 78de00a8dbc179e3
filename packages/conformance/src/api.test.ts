// The programmatic API: options become the `run` command's flags, bad options and unreadable files reject with the
// CLI's one-line message, and a run resolves to the results it wrote. (The README's example runs in example.test.ts.)
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConformanceError, readResults, run, runArgs } from './api.js';
import { matrixFrameworkNames } from './frameworks.js';

describe('runArgs', () => {
  it('gives each option as the run flag of the same name, lists comma-separated, quiet by default', () => {
    expect(
      runArgs({
        framework: ['reference', 'ai@7.0.173'],
        wiring: 'cas-fresh',
        store: ['memory', 'sqlite'],
        scenario: 'double-resume',
        property: ['at-most-once'],
        out: 'reports-here',
        jobs: 2,
        timeout: 60,
        sampled: 10,
        seed: 3,
        maxSchedules: 100,
        reduce: ['commute', 'symmetry'],
      }),
    ).toEqual([
      'run',
      '--framework', 'reference,ai@7.0.173',
      '--wiring', 'cas-fresh',
      '--store', 'memory,sqlite',
      '--scenario', 'double-resume',
      '--property', 'at-most-once',
      '--out', 'reports-here',
      '--jobs', '2',
      '--timeout', '60',
      '--sampled', '10',
      '--seed', '3',
      '--max-schedules', '100',
      '--reduce', 'commute,symmetry',
      '--quiet',
    ]);
  });

  it('runs every framework by name when none is given (the matrix, without writing reports/), and shows progress when asked', () => {
    expect(runArgs({ quiet: false })).toEqual(['run', '--framework', matrixFrameworkNames().join(',')]);
    expect(runArgs({ reduce: false, resume: true, json: 'x.json' })).toContain('--no-reduce');
    expect(runArgs({ reduce: [] })).toContain('none');
  });

  it('checks contents unless told not to (--no-check-contents)', () => {
    expect(runArgs({})).not.toContain('--no-check-contents');
    expect(runArgs({ checkContents: true })).not.toContain('--no-check-contents');
    expect(runArgs({ checkContents: false })).toContain('--no-check-contents');
  });
});

describe('run', () => {
  it('rejects bad options with the CLI message and exit code 2, and prints nothing', async () => {
    let printed = '';
    const error = await run({ framework: 'reference', scenario: 'no-such-scenario', stderr: (t) => (printed += t) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConformanceError);
    expect((error as ConformanceError).exitCode).toBe(2);
    expect((error as ConformanceError).message).toMatch(/^unknown scenario 'no-such-scenario'; choose from double-resume, /);
    expect(printed).toBe('');
  });

  it('rejects resume without a results file to resume', async () => {
    await expect(run({ framework: 'reference', resume: true })).rejects.toThrow('resume needs the results to continue: give json or out.');
  });

  it('resolves to the results of the run, and keeps them in json when asked', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-api-'));
    const file = join(dir, 'results.json');
    let table = '';
    const results = await run({
      framework: 'reference',
      wiring: 'cas-fresh',
      scenario: 'double-resume',
      store: 'memory',
      json: file,
      stdout: (t) => (table += t),
    });
    expect(results.cells.map((c) => [c.property, c.verdict])).toEqual([
      ['at-most-once', 'pass'],
      ['no-resurrection', 'pass'],
      ['fresh-view', 'pass'],
    ]);
    expect(table).toContain('reference@0.0.0');
    expect((await readResults(file)).cells).toEqual(results.cells);
    // Contents checked, as by default: the results say so.
    expect(results.options?.checkContents).toBe(true);
  });

  it('leaves no temporary file behind when no json is asked for, and shows progress only when not quiet', async () => {
    const before = (await readdir(tmpdir())).filter((f) => f.startsWith('approval-conformance-api-'));
    let progress = '';
    await run({ framework: 'reference', wiring: 'cas-fresh', scenario: 'tool-retry', store: 'memory', quiet: false, stderr: (t) => (progress += t) });
    const after = (await readdir(tmpdir())).filter((f) => f.startsWith('approval-conformance-api-'));
    expect(after.filter((f) => !before.includes(f))).toEqual([]);
    expect(progress).toContain('Running 1 framework version: reference@0.0.0');
  });
});

describe('readResults', () => {
  it('rejects a file that is not a results file with one line saying so', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-api-'));
    await writeFile(join(dir, 'x.json'), '{"cells": 3}');
    await expect(readResults(join(dir, 'x.json'))).rejects.toThrow(/is not a results file \(no "cells" list\)/);
    await expect(readResults(join(dir, 'missing.json'))).rejects.toMatchObject({ name: 'ConformanceError', exitCode: 2 });
  });
});
