import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../run-io.fixtures.js';

const CELL = 'reference@0.0.0/before-fresh/memory/double-resume/at-most-once';
let dir: string;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-replay-'));
  file = join(dir, 'results.json');
  await cli('run', '--framework', 'reference', '--wiring', 'before-fresh,cas-fresh', '--store', 'memory', '--scenario', 'double-resume', '--json', file, '--quiet');
});

describe('approval-conformance replay', () => {
  it('lists the cells that have a counterexample', async () => {
    const { code, out } = await cli('replay', file);
    expect(code).toBe(0);
    expect(out).toContain(`${CELL}  fail (8 steps)`);
    expect(out).not.toContain('cas-fresh');
  });

  it('replays a counterexample, prints its story and says it reproduced', async () => {
    const { code, out } = await cli('replay', file, '--cell', CELL);
    expect(code).toBe(0);
    expect(out).toContain('t2 wrote the record: a1 spent → spent');
    expect(out).toMatch(/reached the world twice/);
    expect(out).toContain('Reproduced');
  });

  it('replays every counterexample with --all, one line each', async () => {
    const { code, out } = await cli('replay', file, '--all');
    expect(code).toBe(0);
    expect(out).toContain(`reproduced  ${CELL}`);
    expect(out).toMatch(/^[1-9]\d* reproduced, 0 differed\.$/m);
  });

  it('says so, with exit code 1, when the replay gives another history', async () => {
    const results = JSON.parse(await readFile(file, 'utf8'));
    const cell = results.cells.find((c: { id: string }) => c.id === CELL);
    cell.counterexample.story[5] = 'something else happened';
    const edited = join(dir, 'edited.json');
    await writeFile(edited, JSON.stringify(results));
    const { code, out } = await cli('replay', edited, '--cell', CELL);
    expect(code).toBe(1);
    expect(out).toContain('DIFFERENT');
    const all = await cli('replay', edited, '--all');
    expect(all.code).toBe(1);
    expect(all.out).toMatch(/ reproduced, 1 differed\./);
  });

  it.each([
    ['missing.json', /no such file/],
    ['not-json.json', /is not JSON/],
    ['foreign.json', /is not a results file/],
    ['future.json', /schemaVersion 3; this suite reads 1 and 2/],
  ])('rejects %s with one clear line', async (name, message) => {
    const path = join(dir, name);
    if (name === 'not-json.json') await writeFile(path, '{"cells": [');
    if (name === 'foreign.json') await writeFile(path, '{"name": "some-package"}');
    if (name === 'future.json') await writeFile(path, '{"schemaVersion": 3, "cells": []}');
    const { code, err } = await cli('replay', path, '--cell', CELL);
    expect(code).toBe(2);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(message);
  });

  it('rejects an unknown cell and a cell without a counterexample', async () => {
    expect((await cli('replay', file, '--cell', 'nope')).err).toMatch(/no cell 'nope'/);
    const passing = 'reference@0.0.0/cas-fresh/memory/double-resume/at-most-once';
    expect((await cli('replay', file, '--cell', passing)).err).toMatch(/is pass: it has no counterexample/);
  });
});
