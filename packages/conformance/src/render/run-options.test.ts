import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIOS, SCENARIOS } from '@approval-conformance/core';
import type { RunOptions } from '../results.js';
import { writeReports } from './reports.js';
import { runFlags } from './run-options.js';

const matrix: RunOptions = { scenarios: [...DEFAULT_SCENARIOS], mode: 'exhaustive', seed: 1, reduce: true, checkContents: true };

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
      checkContents: true,
    };
    expect(runFlags(options)).toBe(
      '--scenario three-tabs --wiring separate-node,resume-by-id --store memory --property at-most-once,fresh-view --max-schedules 1500 --reduce commute,source-sets,bound,symmetry',
    );
  });

  it('names a sampled run with its seed, and a run with no reductions', () => {
    expect(runFlags({ ...matrix, mode: 'sampled', samples: 200, seed: 7 })).toBe('--sampled 200 --seed 7');
    expect(runFlags({ ...matrix, reduce: false })).toBe('--no-reduce');
  });

  it('names a run that did not check contents, as options that do not say were run', () => {
    expect(runFlags({ ...matrix, checkContents: false })).toBe('--no-check-contents');
    const { checkContents: _, ...older } = matrix;
    expect(runFlags(older)).toBe('--no-check-contents');
  });
});

describe('a report of part of the matrix', () => {
  it('says under About this run what it was run with (Markdown and HTML)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-run-options-'));
    const options: RunOptions = { scenarios: ['three-tabs'], properties: ['at-most-once'], mode: 'exhaustive', seed: 1, reduce: true, checkContents: true };
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

describe('whether contents were checked', () => {
  const about = async (options: RunOptions | undefined) => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-run-options-'));
    await writeReports(dir, { targets: [], cells: [], scenarios: [...SCENARIOS.values()], ...(options ? { options } : {}) });
    const markdown = await readFile(join(dir, 'README.md'), 'utf8');
    const html = await readFile(join(dir, 'index.html'), 'utf8');
    return { markdown: markdown.slice(markdown.indexOf('## About this run')), html: html.slice(html.indexOf('About this run')) };
  };

  it('is said under About this run, in one sentence, when they were (the default matrix)', async () => {
    const { markdown, html } = await about(matrix);
    expect(markdown).toContain(`Contents were checked: where a world can read its state back, a release that changed a key its gate did not declare written made its cell error.`);
    expect(html).toContain('Contents were checked: ');
    expect(markdown).not.toContain('Contents were not checked');
  });

  it('is said when they were not, with the flag, and of results that do not say (made before run checked them)', async () => {
    const without = await about({ ...matrix, checkContents: false });
    expect(without.markdown).toContain("Run with `--no-check-contents`. Contents were not checked: each release's events and store calls were checked against its gate's declaration, but not which keys of the world's state it changed.");
    expect(without.html).toContain('Run with: --no-check-contents. Contents were not checked: ');
    const { checkContents: _, ...older } = matrix;
    expect((await about(older)).markdown).toContain('Contents were not checked: ');
    expect((await about(undefined)).markdown).toContain('Contents were not checked: ');
  });
});
