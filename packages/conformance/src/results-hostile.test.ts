// Results files from someone else: every command that reads one refuses a bad one with one clear error (exit 2)
// naming the first bad field, and writes nothing.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cell, failing, results } from './results.fixtures.js';
import type { ResultsFile } from './results.js';
import { cli } from './run-io.fixtures.js';

const hostile = (c: Record<string, unknown>) => {
  const good = cell({ version: '6.0.0', verdict: 'pass' });
  const bad = { ...good, ...c };
  return { ...results([good]), cells: [good, { ...bad, id: `${bad.framework}@${bad.version}/${bad.wiring}/${bad.store}/${bad.scenario}/${bad.property}` }] };
};

/** A file whose second cell has this id, whatever its fields say. */
const withId = (id: string) => {
  const good = cell({ version: '6.0.0', verdict: 'pass' });
  return { ...results([good]), cells: [good, { ...cell({ version: '6.0.0', verdict: 'pass', wiring: 'tool-approval' }), id }] };
};

const CASES: [string, unknown, RegExp][] = [
  ['a framework that climbs out of --out', hostile({ framework: '../../escaped' }), /cells\[1\]\.(id|framework) is "\.\.\/\.\.\/escaped/],
  ['a javascript: URL for a framework', hostile({ framework: 'javascript:alert(1)//' }), /cells\[1\]\.(id|framework) is "javascript:alert\(1\)\/\//],
  ['a data: URL for a wiring', hostile({ wiring: 'data:text/html,<script>alert(1)</script>' }), /cells\[1\]\.(id|wiring) is "/],
  ['a verdict of maybe', hostile({ verdict: 'maybe' }), /cells\[1\]\.verdict is "maybe"; expected one of pass, fail/],
  ['schemaVersion 99', { ...results([cell({ version: '6.0.0', verdict: 'pass' })]), schemaVersion: 99 }, /schemaVersion 99; this suite reads 1 and 2/],
  ['a version 1 file with no cells', { schemaVersion: 1, cells: [] }, /cells is empty/],
  ['a version 2 file with no cells', { schemaVersion: 2, cells: [] }, /cells is empty/],
  ['a target whose version is a path', { ...results([cell({ version: '6.0.0', verdict: 'pass' })]), targets: [{ framework: 'ai', version: '../x', spec: 'ai', packages: {} }] }, /targets\[0\]\.version is "\.\.\/x"/],
  ['a cell id that climbs out of --out', withId('../../x'), /cells\[1\]\.id is "\.\.\/\.\.\/x", which is not allowed there/],
  ['a cell id that is a path in a version 1 file', { schemaVersion: 1, cells: [withId('../../x').cells[1]] }, /cells\[0\]\.id is "\.\.\/\.\.\/x", but its framework, version, wiring, store, scenario and property make the cell 'ai@6\.0\.0\/tool-approval\//],
  [
    "a cell id that is not the cell's",
    withId('ai@6.0.0/native-approval/memory/double-resume/shown-is-recorded'),
    /cells\[1\]\.id is "ai@6\.0\.0\/native-approval\/memory\/double-resume\/shown-is-recorded", but its framework, version, wiring, store, scenario and property make the cell 'ai@6\.0\.0\/tool-approval\/memory\/double-resume\/at-most-once'; a cell's id must be that\. Nothing was written/,
  ],
  ['a target asked for with a quote in it', { ...results([cell({ version: '6.0.0', verdict: 'pass' })]), targets: [{ framework: 'ai', version: '6.0.0', spec: 'ai@6"><x', packages: {} }] }, /targets\[0\]\.spec is "ai@6\\"><x"/],
  ['duplicate cell ids', results([cell({ version: '6.0.0', verdict: 'pass' }), cell({ version: '6.0.0', verdict: 'pass' })]), /cell 'ai@6\.0\.0\/native-approval\/memory\/double-resume\/at-most-once' appears twice/],
];

async function file(data: unknown | string) {
  const dir = await mkdtemp(join(tmpdir(), 'ac-hostile-'));
  const path = join(dir, 'results.json');
  await writeFile(path, typeof data === 'string' ? data : JSON.stringify(data));
  return { dir, path };
}

describe('a hostile results file', () => {
  it.each(CASES)('%s: report refuses it (exit 2), names the field and writes nothing', async (_, data, message) => {
    const { dir, path } = await file(data);
    const out = join(dir, 'a', 'b', 'out');
    const { code, err } = await cli('report', path, '--out', out);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err).not.toMatch(/internal error|at .*\.ts:\d+/);
    expect(await readdir(dir)).toEqual(['results.json']);
  });

  it('is not a target asked for as a range (>=, <): run writes those, and every command reads them back', async () => {
    const ranged = { ...results([cell({ version: '6.0.0', verdict: 'pass' })]), targets: [{ framework: 'ai', version: '6.0.0', spec: 'ai@>=6.0.0 <6.1.0', packages: {} }] };
    const { dir, path } = await file(ranged);
    expect(await cli('report', path, '--out', join(dir, 'out'))).toMatchObject({ code: 0 });
    expect(await cli('diff', path, path)).toMatchObject({ code: 0 });
  });

  it('is refused the same way by diff and replay', async () => {
    const { path } = await file(CASES[0]![1]);
    const good = await file(results([failing('6.0.0')]));
    for (const argv of [['diff', good.path, path], ['replay', path]]) {
      const { code, err } = await cli(...argv);
      expect(code, argv.join(' ')).toBe(2);
      expect(err).toMatch(/is not a valid results file: cells\[1\]/);
    }
  });

  it("is refused by replay when a cell's id is a path, rather than listed and then not found", async () => {
    const { path } = await file(withId('../../x'));
    for (const argv of [['replay', path], ['replay', path, '--cell', '../../x']]) {
      const { code, out, err } = await cli(...argv);
      expect(code, argv.join(' ')).toBe(2);
      expect(out).toBe('');
      expect(err).toMatch(/is not a valid results file: cells\[1\]\.id is "\.\.\/\.\.\/x"/);
      expect(err).not.toMatch(/no cell/);
    }
  });

  it('a truncated file is not JSON, a story with </script> is kept as text', async () => {
    const whole = JSON.stringify(results([failing('6.0.0')]));
    const truncated = await file(whole.slice(0, whole.length / 2));
    expect(await cli('report', truncated.path)).toMatchObject({ code: 2, err: expect.stringMatching(/is not JSON/) });
    const script = await file(results([failing('6.0.0', ['</script><script>alert(1)</script>'])]) satisfies ResultsFile);
    expect((await cli('report', script.path, '--out', join(script.dir, 'out'))).code).toBe(0);
    const html = await readFile(join(script.dir, 'out', 'html', 'ai@6.0.0.html'), 'utf8');
    expect(html).toContain('alert(1)');
    expect(html).not.toContain('<script>alert(1)');
  });

  it('a huge file of valid cells is read', async () => {
    const cells = Array.from({ length: 20_000 }, (_, i) => cell({ version: `6.0.${i}`, verdict: 'pass' }));
    const { path } = await file(results(cells));
    const { code, err } = await cli('diff', path, path);
    expect(err).toBe('');
    expect(code).toBe(0);
  });
});
