import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIOS, SCENARIOS } from '@approval-conformance/core';
import type { RunOptions } from '../results.js';
import { writeReports } from './reports.js';
import { runFlags } from './run-options.js';

const matrix: RunOptions = { scenarios: [...DEFAULT_SCENARIOS], mode: 'exhaustive', seed: 1, reduce: true };

describe('runFlags', () => {
  it('says nothing for the default matrix, whatever order its scenarios were listed in', () => {
    expect(runFlags(matrix)).toBeUndefined();
    expect(runFlags({ ...matrix, scenarios: [...DEFAULT_SCENARIOS].reverse() })).toBeUndefined();
  });

  it('gives the flags that made a part of the matrix, in the order run --help lists them', () => {
    const options: RunOptions = {
      scenarios: ['three-tabs'],
      wirings: ['separate-node', 'resume-by-id'],
      stores: ['memory'],
      properties: ['at-most-once', 'fresh-view'],
      mode: 'exhaustive',
      seed: 1,
      maxSchedules: 1500,
      reduce: ['commute', 'source-sets', 'bound', 'symmetry'],
    };
    expect(runFlags(options)).toBe(
      '--scenario three-tabs --wiring separate-node,resume-by-id --store memory --property at-most-once,fresh-view --max-schedules 1500 --reduce commute,source-sets,bound,symmetry',
    );
  });

  it('names a sampled run with its seed, and a run with no reductions', () => {
    expect(runFlags({ ...matrix, mode: 'sampled', samples: 200, seed: 7 })).toBe('--sampled 200 --seed 7');
    expect(runFlags({ ...matrix, reduce: false })).toBe('--no-reduce');
  });
});

describe('a report of part of the matrix', () => {
  it('says under About this run what it was run with (Markdown and HTML)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-run-options-'));
    const options: RunOptions = { scenarios: ['three-tabs'], properties: ['at-most-once'], mode: 'exhaustive', seed: 1, reduce: true };
    await writeReports(dir, { targets: [], cells: [], scenarios: [...SCENARIOS.values()], options });
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toContain('Run with `--scenario three-tabs --property at-most-once`.');
    expect(await readFile(join(dir, 'index.html'), 'utf8')).toContain('Run with: --scenario three-tabs --property at-most-once.');
  });

  it('adds nothing to the default matrix', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-run-options-'));
    await writeReports(dir, { targets: [], cells: [], scenarios: [...SCENARIOS.values()], options: matrix });
    expect(await readFile(join(dir, 'README.md'), 'utf8')).not.toContain('Run with');
  });
});
