import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writableFolder } from './destination.js';
import { cli } from './run-io.fixtures.js';

describe('writableFolder', () => {
  it('makes the missing levels and returns the folder', async () => {
    const base = await mkdtemp(join(tmpdir(), 'ac-dest-'));
    expect(await writableFolder(join(base, 'a', 'b'))).toBe(join(base, 'a', 'b'));
    expect(existsSync(join(base, 'a', 'b'))).toBe(true);
  });

  it('names the folder given when it is a file, or under one', async () => {
    const base = await mkdtemp(join(tmpdir(), 'ac-dest-'));
    await writeFile(join(base, 'f'), '');
    await expect(writableFolder(join(base, 'f'))).rejects.toThrow(`--out ${join(base, 'f')}: it is a file, not a folder.`);
    await expect(writableFolder(join(base, 'f', 'x'))).rejects.toThrow(`--out ${join(base, 'f', 'x')}: ${join(base, 'f')} is a file, not a folder.`);
  });

  // Node's recursive mkdir retries forever under /proc; one level at a time, it is one clear error.
  it.skipIf(!existsSync('/proc/self'))('says a folder cannot be made under /proc, at once', async () => {
    await expect(writableFolder('/proc/x/y')).rejects.toThrow('cannot write to --out /proc/x/y: it cannot be made there (ENOENT)');
  });
});

describe('a reports folder that cannot take the reports', () => {
  it('is refused before anything is written, naming the folder, and what was there stays', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-dest-'));
    const published = join(dir, 'in.json');
    await writeFile(published, await readFile(new URL('../../../reports/results.json', import.meta.url)));
    const out = join(dir, 'out');
    await mkdir(out);
    await writeFile(join(out, 'results.json'), 'what an earlier run wrote');
    await writeFile(join(out, 'stories'), 'a file where the stories folder goes');
    const { code, err } = await cli('report', published, '--out', out);
    expect(code).toBe(2);
    expect(err).toBe(`approval-conformance: --out ${out}: ${join(out, 'stories')} is a file, where the reports put a folder. Move it, or choose another folder; nothing was written.\n`);
    expect(await readFile(join(out, 'results.json'), 'utf8')).toBe('what an earlier run wrote');
  });

  it('a run with --out a file says so before it runs, not about the triage metadata', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-dest-'));
    await writeFile(join(dir, 'file'), '');
    const { code, err } = await cli('run', '--framework', 'reference', '--scenario', 'double-resume', '--store', 'memory', '--out', join(dir, 'file'), '--quiet');
    expect(code).toBe(2);
    expect(err).toBe(`approval-conformance: --out ${join(dir, 'file')}: it is a file, not a folder. Choose a folder; nothing was written.\n`);
  });
});
