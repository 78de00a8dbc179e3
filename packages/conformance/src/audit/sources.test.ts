import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cellId, writeResults, type ResultCell, type ResultsFile, type RunOptions } from '../results.js';
import { UsageError } from '../usage-error.js';
import { auditSources, judgedUnits, leftOutBecause, resultsFiles } from './sources.js';
import { selectUnits } from './select.js';

const DEFAULT: RunOptions = { scenarios: ['double-resume', 'replay'], mode: 'exhaustive', seed: 1, reduce: true };

const cell = (framework: string, store: string, verdict: ResultCell['verdict'], schedules = 4): ResultCell => {
  const c = { framework, version: '1.0.0', wiring: 'w', store, scenario: 'double-resume' as const, property: 'at-most-once' as const };
  return { ...c, id: cellId(c), verdict, mode: 'exhaustive', exhaustive: true, schedules };
};

const file = (cells: ResultCell[], options: RunOptions | null = DEFAULT, complete = true): ResultsFile => ({
  schemaVersion: 2,
  ...(options ? { options } : {}),
  ...(complete ? { complete } : {}),
  cells,
});

describe('which results files an audit draws from', () => {
  it('draws from a finished run of the default exploration, narrowed only by what it ran', () => {
    expect(leftOutBecause(file([]))).toBeUndefined();
    expect(leftOutBecause(file([], { ...DEFAULT, wirings: ['w'], stores: ['memory'] }))).toBeUndefined();
  });

  it('leaves out runs an audit would not re-check as they were made', () => {
    expect(leftOutBecause(file([], null))).toMatch(/does not say how it was run/);
    expect(leftOutBecause(file([], DEFAULT, false))).toMatch(/did not finish/);
    expect(leftOutBecause({ ...file([]), shard: { index: 1, count: 2, plan: 'p', units: {} } })).toMatch(/did not finish/);
    expect(leftOutBecause(file([], { ...DEFAULT, mode: 'sampled', samples: 10 }))).toMatch(/sampled/);
    expect(leftOutBecause(file([], { ...DEFAULT, reduce: ['commute', 'source-sets', 'bound', 'symmetry'] }))).toMatch(/other reductions than the default \(commute, source-sets, bound, symmetry\)/);
    expect(leftOutBecause(file([], { ...DEFAULT, reduce: false }))).toMatch(/\(none\)/);
    expect(leftOutBecause(file([], { ...DEFAULT, maxSchedules: 1500 }))).toMatch(/capped at 1500/);
    expect(leftOutBecause(file([], { ...DEFAULT, properties: ['no-resurrection'] }))).toMatch(/only no-resurrection/);
    expect(leftOutBecause(file([], { ...DEFAULT, scenarios: ['three-tabs'] }))).toMatch(/three-tabs runs only when named/);
    expect(leftOutBecause(file([], { ...DEFAULT, stores: ['postgres'] }))).toMatch(/needs a server/);
  });

  it('takes each unit once, judged where any file judged it (the first such its counts), never on a server store', () => {
    const units = judgedUnits([
      file([cell('ai', 'memory', 'pass', 7), cell('ai', 'sqlite', 'not-applicable', 0), cell('ai', 'file', 'not-applicable', 0), cell('ai', 'postgres', 'pass')]),
      file([cell('ai', 'memory', 'fail', 3), cell('ai', 'sqlite', 'pass', 5)]),
    ]);
    expect(units.map((u) => [u.store, u.schedules])).toEqual([['memory', 7], ['sqlite', 5]]);
  });

  it('finds every results.json under the folder, the top one first, none in node_modules', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-sources-'));
    for (const at of ['results.json', 'b/results.json', 'a/results.json', 'a/deep/results.json', 'repro/node_modules/x/results.json', 'a/other.json']) {
      await mkdir(dirname(join(dir, at)), { recursive: true });
      await writeFile(join(dir, at), '{}');
    }
    expect((await resultsFiles(dir)).map((f) => f.slice(dir.length + 1))).toEqual(['results.json', 'a/deep/results.json', 'a/results.json', 'b/results.json']);
  });

  it('says which file is corrupt and how to get past it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-sources-'));
    await writeResults(join(dir, 'results.json'), file([cell('ai', 'memory', 'pass')]));
    await mkdir(join(dir, 'row'));
    await writeFile(join(dir, 'row', 'results.json'), '{"cells": [');
    const error = await auditSources(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/^'\S*row\/results\.json' is not JSON/);
    expect((error as Error).message).toMatch(/restore this one \(git checkout -- \S+row\/results\.json\) or move it out of there\.$/);
  });
});

describe('the published results', () => {
  const reports = fileURLToPath(new URL('../../../../reports', import.meta.url));

  it('are drawn from in the default matrix and the Cloudflare row, not the three-tabs or PostgreSQL runs', async () => {
    const { drawn, left } = await auditSources(reports);
    const rel = (f: string) => f.slice(reports.length + 1);
    expect(drawn.map(rel)).toEqual(['results.json', 'cloudflare-agents/results.json']);
    expect(left.map((l) => rel(l.file)).sort()).toEqual(['postgres/results.json', 'three-tabs-bound-server/results.json', 'three-tabs-bound/results.json', 'three-tabs-capped/results.json', 'three-tabs-newest/results.json', 'three-tabs/results.json']);
  });

  it('give every framework, Cloudflare included, a cell of ten for any seed', async () => {
    const { units } = await auditSources(reports);
    const frameworks = new Set(units.map((u) => u.framework));
    expect(frameworks).toContain('cloudflare-agents');
    for (let seed = 0; seed < 40; seed++) expect(new Set(selectUnits(units, 10, seed).map((u) => u.framework))).toEqual(frameworks);
  });
});
