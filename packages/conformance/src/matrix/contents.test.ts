// `run` checks contents by default: a release that changes a part of the world's state its gate did not declare makes
// the cell error, unless --no-check-contents leaves the check out. The results record which; a resumed run does not
// mix cells made both ways, and --reuse runs again what was made the other way, saying why.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';

await (await import('../registry.js')).useAdapters([fileURLToPath(new URL('./undeclared.fixtures.ts', import.meta.url))]);
const { cli } = await import('../run-io.fixtures.js');

interface Results {
  options: { checkContents?: boolean };
  cells: { id: string; verdict: string; reason?: string; key?: string }[];
}
const resultsOf = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Results;

/** The fixture's one unit: every release also changes `hidden`, which no gate declares. */
const UNDECLARED = ['--framework', 'undeclared', '--scenario', 'double-resume', '--quiet'];
/** One small unit of the reference runtime, which `--reuse` can copy (the fixture has no adapter package to digest). */
const REFERENCE = ['--framework', 'reference', '--wiring', 'cas-fresh', '--store', 'memory', '--scenario', 'double-resume', '--quiet'];

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-contents-'));
});

describe('run checks contents', () => {
  it('by default: a change no gate declared makes the cell error, naming the key, and the results say contents were checked', async () => {
    const file = join(dir, 'results.json');
    expect((await cli('run', ...UNDECLARED, '--json', file)).code).toBe(0);
    const results = await resultsOf(file);
    expect(results.options.checkContents).toBe(true);
    expect(results.cells.length).toBeGreaterThan(0);
    for (const cell of results.cells) expect(cell, cell.id).toMatchObject({ verdict: 'error', reason: expect.stringContaining('hidden') });
    // --check-contents, which older scripts give, is the default.
    const asked = join(dir, 'asked.json');
    expect((await cli('run', ...UNDECLARED, '--check-contents', '--json', asked)).code).toBe(0);
    expect((await resultsOf(asked)).options.checkContents).toBe(true);
    expect((await resultsOf(asked)).cells.map((c) => `${c.id} ${c.verdict}`)).toEqual(results.cells.map((c) => `${c.id} ${c.verdict}`));
  });

  it('not with --no-check-contents, which the results record', async () => {
    const file = join(dir, 'results.json');
    expect((await cli('run', ...UNDECLARED, '--no-check-contents', '--json', file)).code).toBe(0);
    const results = await resultsOf(file);
    expect(results.options.checkContents).toBe(false);
    expect(results.cells.map((c) => c.verdict)).not.toContain('error');
    expect(await cli('run', ...UNDECLARED, '--check-contents', '--no-check-contents')).toMatchObject({
      code: 2,
      err: expect.stringContaining('give --check-contents or --no-check-contents, not both'),
    });
  });

  it('resumes results only the way they were made, and reads results that do not say as made without', async () => {
    const without = join(dir, 'without.json');
    expect((await cli('run', ...REFERENCE, '--no-check-contents', '--json', without)).code).toBe(0);
    const before = await readFile(without, 'utf8');
    const refused = await cli('run', ...REFERENCE, '--json', without, '--resume');
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/was run without checking contents .*, and this run checks them: the cells would mix\. Resume it with --no-check-contents, or write to a new file/);
    expect(await readFile(without, 'utf8')).toBe(before);
    expect((await cli('run', ...REFERENCE, '--no-check-contents', '--json', without, '--resume')).code).toBe(0);

    // Results written before run recorded it (no checkContents in their options) were made without.
    const old = join(dir, 'old.json');
    const { checkContents: _, ...options } = (await resultsOf(without)).options;
    await writeFile(old, JSON.stringify({ ...(await resultsOf(without)), options }));
    expect((await cli('run', ...REFERENCE, '--json', old, '--resume')).err).toMatch(/was run without checking contents/);
    // Resumed as made, with nothing left to run: the file is left as it was (a resume that ran nothing changes nothing).
    const unchanged = await readFile(old, 'utf8');
    expect((await cli('run', ...REFERENCE, '--no-check-contents', '--json', old, '--resume')).code).toBe(0);
    expect(await readFile(old, 'utf8')).toBe(unchanged);

    const checked = join(dir, 'checked.json');
    expect((await cli('run', ...REFERENCE, '--json', checked)).code).toBe(0);
    expect((await cli('run', ...REFERENCE, '--no-check-contents', '--json', checked, '--resume')).err).toMatch(
      /was run checking contents, and this run does not: the cells would mix\. Resume it without --no-check-contents/,
    );
  });

  it('runs again with --reuse a unit made without contents, says why, and copies it once made with them', async () => {
    const without = join(dir, 'without.json');
    expect((await cli('run', ...REFERENCE, '--no-check-contents', '--json', without)).code).toBe(0);
    const checked = join(dir, 'checked.json');
    const rerun = await cli('run', ...REFERENCE.filter((a) => a !== '--quiet'), '--reuse', without, '--json', checked);
    expect(rerun.code).toBe(0);
    expect(rerun.err).toContain('copied 0 units whose keys match');
    expect(rerun.err).toContain('reference@0.0.0: 1 unit ran without checking contents there (this run checks them)');
    const [a, b] = [await resultsOf(without), await resultsOf(checked)];
    expect(b.options.checkContents).toBe(true);
    expect(b.cells.map((c) => `${c.id} ${c.verdict}`)).toEqual(a.cells.map((c) => `${c.id} ${c.verdict}`));
    expect(b.cells.every((c, i) => c.key !== a.cells[i]!.key)).toBe(true);
    const again = await cli('run', ...REFERENCE.filter((a) => a !== '--quiet'), '--reuse', checked, '--json', join(dir, 'again.json'));
    expect(again.err).toContain('copied 1 unit whose keys match; 1 of 1 version need no worker');
    // The other way round: a run without contents does not copy units made with them either.
    const back = await cli('run', ...REFERENCE.filter((a) => a !== '--quiet'), '--no-check-contents', '--reuse', checked, '--json', join(dir, 'back.json'));
    expect(back.err).toContain('reference@0.0.0: 1 unit ran checking contents there (this run does not: --no-check-contents)');
  });
});
