// `run --shard I/N` and `merge`: the merge of the shards equals a single run, and inputs that are not the shards of
// one run are refused with nothing written.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../run-io.fixtures.js';
import type { ResultsFile } from '../results.js';

/**
 * The reference row on three scenarios and the two stores of every machine (not PostgreSQL where a server is set):
 * 78 units, enough for three shards, a quarter of the row's work, and run four times here.
 */
const ROW = ['--framework', 'reference', '--scenario', 'double-resume,tamper,crash-restart', '--store', 'memory,sqlite'];
let dir: string;
const file = (name: string) => join(dir, name);
const read = async (name: string) => JSON.parse(await readFile(file(name), 'utf8')) as ResultsFile;
const write = (name: string, data: unknown) => writeFile(file(name), JSON.stringify(data));
/** What must be equal between a single run and a merge: each cell's verdict, schedules, and counterexample length. */
const outcomes = (r: ResultsFile) => r.cells.map((c) => [c.id, c.verdict, c.exhaustive, c.schedules, c.counterexample?.steps]);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-shards-'));
  const runs = await Promise.all([
    cli('run', ...ROW, '--json', file('single.json'), '--quiet'),
    ...[1, 2, 3].map((i) => cli('run', ...ROW, '--shard', `${i}/3`, '--json', file(`shard-${i}.json`), '--quiet')),
  ]);
  for (const run of runs) expect(run.code, run.err).toBe(0);
});

describe('run --shard and merge', () => {
  it('merges the three shards of the reference into exactly what one run writes', async () => {
    const shards = await Promise.all([1, 2, 3].map((i) => read(`shard-${i}.json`)));
    for (const [i, shard] of shards.entries()) {
      expect(shard.shard).toMatchObject({ index: i + 1, count: 3 });
      expect(shard.cells.length).toBeGreaterThan(0);
      expect(shard.complete).toBe(true);
    }
    const { code, out } = await cli('merge', file('shard-3.json'), file('shard-1.json'), file('shard-2.json'), '--out', file('merged'));
    expect(code).toBe(0);
    expect(out).toMatch(/^Merged 3 shards: \d+ cells\.$/m);
    const [single, merged] = [await read('single.json'), await read('merged/results.json')];
    expect(merged.shard).toBeUndefined();
    expect(merged).toMatchObject({ complete: true, planned: single.planned, targets: single.targets, options: single.options });
    expect(outcomes(merged)).toEqual(outcomes(single));
    expect(await readdir(file('merged'))).toEqual(expect.arrayContaining(['results.json', 'README.md', 'index.html', 'reference.md']));
    expect(await cli('diff', file('single.json'), file('merged/results.json'), '--steps', '--counts', '--exit-code')).toMatchObject({ code: 0 });
  });

  it('refuses what is not the shards of one run, names the file, and writes nothing', async () => {
    const one = await read('shard-1.json');
    const two = await read('shard-2.json');
    await write('other-suite.json', { ...two, environment: { ...two.environment!, suite: '9.9.9' } });
    await write('other-options.json', { ...two, options: { ...two.options!, seed: 7 } });
    await write('other-plan.json', { ...two, shard: { ...two.shard!, plan: '0123456789abcdef' } });
    await write('stolen-cell.json', { ...one, cells: [...one.cells, two.cells[0]] });
    const cases: [string[], RegExp][] = [
      [['shard-1.json', 'shard-1.json', 'shard-2.json', 'shard-3.json'], /'.*shard-1\.json' and '.*shard-1\.json' are both shard 1\/3: they overlap/],
      [['shard-1.json', 'shard-2.json'], /do not cover the run: shard 3\/3 \(not given\)\. Merge them all, or pass --partial/],
      [['single.json'], /single\.json' is not one shard's results/],
      [['shard-1.json', 'other-suite.json', 'shard-3.json'], /was run by suite 0\.0\.0 and '.*other-suite\.json' by 9\.9\.9/],
      [['shard-1.json', 'other-options.json', 'shard-3.json'], /were run with different options/],
      [['shard-1.json', 'other-plan.json', 'shard-3.json'], /split different plans/],
      [['stolen-cell.json', 'shard-2.json', 'shard-3.json'], /is in both '.*stolen-cell\.json' and '.*shard-2\.json': the inputs overlap/],
      [['stolen-cell.json', 'shard-3.json'], /stolen-cell\.json' \(shard 1\/3\) holds cell '.*', which is shard 2's/],
    ];
    for (const [inputs, message] of cases) {
      const out = file(`refused-${inputs.join('-')}`);
      const result = await cli('merge', ...inputs.map(file), '--out', out);
      expect(result, inputs.join(' ')).toMatchObject({ code: 2, out: '', err: expect.stringMatching(message) });
      await expect(readdir(out)).rejects.toThrow(/ENOENT/);
    }
    expect(await cli('merge', file('shard-1.json'))).toMatchObject({ code: 2, err: expect.stringMatching(/needs --out DIR/) });
  });

  it('merges what is there with --partial, and says the results are incomplete', async () => {
    const { code, err } = await cli('merge', file('shard-1.json'), file('shard-3.json'), '--out', file('partial'), '--partial');
    expect(code).toBe(0);
    expect(err).toMatch(/missing from the merge: shard 2\/3 \(not given\)/);
    const merged = await read('partial/results.json');
    expect(merged.complete).toBeUndefined();
    expect(merged.cells.length).toBe((await read('shard-1.json')).cells.length + (await read('shard-3.json')).cells.length);
  });

  it('needs somewhere to write a shard, and resumes a shard only as the same shard', async () => {
    expect(await cli('run', ...ROW, '--shard', '1/3')).toMatchObject({ code: 2, err: expect.stringMatching(/--shard 1\/3 needs somewhere to write its results/) });
    expect(await cli('run', ...ROW, '--shard', '3/2', '--json', file('x.json'))).toMatchObject({ code: 2, err: expect.stringMatching(/--shard takes I\/N/) });
    const resumed = await cli('run', ...ROW, '--shard', '2/3', '--json', file('shard-1.json'), '--resume', '--quiet');
    expect(resumed).toMatchObject({ code: 2, err: expect.stringMatching(/is shard 1\/3; resume it with --shard 1\/3, not 2\/3/) });
    const whole = await cli('run', ...ROW, '--json', file('shard-1.json'), '--resume', '--quiet');
    expect(whole).toMatchObject({ code: 2, err: expect.stringMatching(/is shard 1\/3 of another plan; this run is the whole run/) });
  });
});
