import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failing, results as resultsOf } from '../results.fixtures.js';
import { cli } from '../run-io.fixtures.js';
import { regressionTest } from './regression.js';

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

  it('says which path it cannot write, not that the suite has a bug', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-regression-'));
    const results = join(dir, 'results.json');
    await writeFile(results, JSON.stringify(resultsOf([failing('6.0.0')])));
    await writeFile(join(dir, 'a-file'), '');
    const out = join(dir, 'a-file', 'x.test.ts');
    const { code, err } = await cli('regression', results, '--cell', failing('6.0.0').id, '--out', out);
    expect(code).toBe(2);
    expect(err).toMatch(/^approval-conformance: cannot (open|make the folder) '.*a-file.*': a part of the path is a file, not a folder \(ENOTDIR\)\. Check the path; for output, choose one you can write to \(--out\)\.$/m);
    expect(err).not.toMatch(/internal error/);
  });

  it('embeds what the results file says only as JSON literals and one-line comments', () => {
    const evil = 'x\u2028process.exit(1)//\r\nthrow 1 /* */ `${1}` </script>';
    const fail = failing('6.0.0', [evil]);
    const test = regressionTest({ ...fail, counterexample: { ...fail.counterexample!, explanation: evil } }, `a\nb.json`);
    const comments = test.split('\n').filter((line) => line.startsWith('//'));
    expect(comments).toHaveLength(2);
    for (const line of comments) expect(line).not.toMatch(/[\r\u2028\u2029]/);
    const literal = JSON.stringify(evil).replace('\u2028', '\\u2028');
    expect(test).not.toMatch(/[\r\u2028\u2029]/);
    expect(test.split('\n').filter((line) => line.includes('process.exit'))).toEqual([comments[1], `  ${literal},`, `    explanation: ${literal},`]);
  });

  it('needs a cell with a counterexample', async () => {
    const { code, err } = await cli('regression', 'nowhere.json');
    expect(code).toBe(2);
    expect(err).toMatch(/--cell ID is needed/);
  });
});
