import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../run-io.fixtures.js';

describe('approval-conformance regression', () => {
  it('writes a vitest test that replays a counterexample and checks it fails the same way', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-regression-'));
    const results = join(dir, 'results.json');
    await cli('run', '--framework', 'reference', '--wiring', 'after-snapshot', '--store', 'memory', '--scenario', 'double-resume', '--json', results, '--quiet');
    const out = join(dir, 'after-snapshot.test.ts');
    const cell = 'reference@0.0.0/after-snapshot/memory/double-resume/at-most-once';
    const { code, err } = await cli('regression', results, '--cell', cell, '--out', out);
    expect(code).toBe(0);
    expect(err).toContain(`wrote ${out}`);
    const test = await readFile(out, 'utf8');
    expect(test).toContain(`cell ${cell}`);
    expect(test).toMatch(/const schedule = "t1:1 t2:1 /);
    expect(test).toContain('expect(checkProperty("at-most-once", replayed.history)).toMatchObject({');
  });

  it('needs a cell with a counterexample', async () => {
    const { code, err } = await cli('regression', 'nowhere.json');
    expect(code).toBe(2);
    expect(err).toMatch(/--cell ID is needed/);
  });
});
