// `run --reuse RESULTS`: an unchanged run copies every unit and runs none; a change to one adapter's code reruns
// exactly that adapter's units; a change to the suite's own code reruns everything; each time the output says why.
import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { digestFolder, lockDigest } from './keys.js';

import { cli } from '../run-io.fixtures.js';

/**
 * The fixture frameworks as an adapter package of their own, in a folder this file changes: its code is part of their
 * units' keys. `--adapter ADAPTER` loads it.
 */
const ADAPTER = join(await mkdtemp(join(tmpdir(), 'ac-reuse-adapter-')), 'adapter');
await mkdir(join(ADAPTER, 'src'), { recursive: true });
await writeFile(join(ADAPTER, 'package.json'), JSON.stringify({ name: 'broken-adapter', type: 'module', exports: './index.ts' }));
await writeFile(join(ADAPTER, 'index.ts'), `export { descriptors } from ${JSON.stringify(fileURLToPath(new URL('./broken.fixtures.ts', import.meta.url)))};\n`);

interface Cell {
  id: string;
  verdict: string;
  schedules: number;
  key?: string;
  counterexample?: { steps: number };
}
const cellsOf = async (file: string) => (JSON.parse(await readFile(file, 'utf8')) as { cells: Cell[] }).cells;
const outcome = (cells: Cell[]) => cells.map((c) => `${c.id} ${c.verdict} ${c.schedules} ${c.counterexample?.steps ?? ''} ${c.key}`).sort();

let dir: string;
let log: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-reuse-'));
  log = join(dir, 'units.log');
  process.env['UNRELIABLE_LOG'] = log;
  await mkdir(join(dir, 'adapter', 'src'), { recursive: true });
  await writeFile(join(dir, 'adapter', 'src', 'wirings.ts'), "export const WIRINGS = ['ok'];\n");
  await writeFile(join(ADAPTER, 'src', 'wirings.ts'), "export const WIRINGS = ['ok'];\n");
});

/** The reference runtime and the fixture framework (whose adapter is ADAPTER), one small unit each. */
const run = (json: string, ...more: string[]) =>
  cli('run', '--adapter', ADAPTER, '--framework', 'reference,unreliable@1.0.0', '--wiring', 'cas-fresh,ok', '--store', 'memory', '--scenario', 'double-resume', '--json', json, ...more);
/** Which of the fixture's units built worlds (ran), as the fixture logs them. */
const ranUnits = async () => [...new Set((await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean))];

describe('run --reuse', () => {
  it('copies every unit of an unchanged run, reruns only the changed adapter\'s units, and everything when the suite changed', async () => {
    const first = join(dir, 'first.json');
    expect((await run(first)).code).toBe(0);
    expect(await ranUnits()).toEqual(['ok/double-resume']);
    const cells = await cellsOf(first);
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.every((c) => /^[0-9a-f]{32}$/.test(c.key ?? ''))).toBe(true);

    // Unchanged: nothing runs, and the results are the same cells, keys and all.
    await writeFile(log, '');
    const same = join(dir, 'same.json');
    const unchanged = await run(same, '--reuse', first);
    expect(unchanged.code).toBe(0);
    expect(unchanged.err).toContain(`copied 2 units whose keys match; 2 of 2 versions need no worker`);
    expect(unchanged.err).toContain('Nothing to run');
    expect(await ranUnits()).toEqual([]);
    expect(outcome(await cellsOf(same))).toEqual(outcome(cells));

    // One adapter's code changed: its units run again, the other's are copied.
    await writeFile(join(ADAPTER, 'src', 'wirings.ts'), "export const WIRINGS = ['ok', 'new'];\n");
    const changed = join(dir, 'changed.json');
    const adapter = await run(changed, '--reuse', same);
    expect(adapter.code).toBe(0);
    expect(adapter.err).toContain('copied 1 unit whose keys match; 1 of 2 versions need no worker');
    expect(adapter.err).toContain('unreliable@1.0.0: its adapter changed since');
    expect(adapter.err).not.toContain('reference@0.0.0:');
    expect(await ranUnits()).toEqual(['ok/double-resume']);
    const after = await cellsOf(changed);
    // The verdicts are the same; the rerun unit has a new key, the copied one its old key.
    expect(after.map((c) => `${c.id} ${c.verdict}`).sort()).toEqual(cells.map((c) => `${c.id} ${c.verdict}`).sort());
    for (const cell of after) {
      const was = cells.find((c) => c.id === cell.id)!;
      expect(cell.key === was.key, cell.id).toBe(cell.id.startsWith('reference@'));
    }

    // The suite's code changed (as RESULTS records it): every unit runs again, and each version says why.
    const results = JSON.parse(await readFile(changed, 'utf8')) as { targets: { keys: { suite: string } }[] };
    for (const target of results.targets) target.keys.suite = target.keys.suite.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const older = join(dir, 'older-suite.json');
    await writeFile(older, JSON.stringify(results));
    await writeFile(log, '');
    const suite = await run(join(dir, 'again.json'), '--reuse', older);
    expect(suite.code).toBe(0);
    expect(suite.err).toContain('copied 0 units whose keys match; 0 of 2 versions need no worker');
    expect(suite.err).toContain("reference@0.0.0: the suite's code or lockfile changed since");
    expect(suite.err).toContain("unreliable@1.0.0: the suite's code or lockfile changed since");
    expect(await ranUnits()).toEqual(['ok/double-resume']);
  });

  it('reruns a unit run with other options, and refuses RESULTS that are not results', async () => {
    const first = join(dir, 'first.json');
    expect((await run(first)).code).toBe(0);
    const sampled = await run(join(dir, 'sampled.json'), '--reuse', first, '--sampled', '5');
    expect(sampled.err).toContain('1 unit ran with other options or properties there');
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{"cells": 3}');
    const refused = await run(join(dir, 'x.json'), '--reuse', bad);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('is not a results file');
  });
});

describe('run --reuse on a new machine', () => {
  /** A tarball of a one-file package, for the `cached` fixture to install as npm would from the registry. */
  async function tarball(): Promise<string> {
    const pkg = join(dir, 'tiny');
    await mkdir(pkg, { recursive: true });
    await writeFile(join(pkg, 'package.json'), JSON.stringify({ name: 'tiny', version: '1.0.0', main: 'index.js' }));
    await writeFile(join(pkg, 'index.js'), 'module.exports = 1;\n');
    const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: pkg, encoding: 'utf8' }).trim().split('\n').at(-1)!;
    return join(dir, name);
  }

  it('installs what RESULTS has into an empty cache, compares the trees by what they hold, and runs nothing', async () => {
    process.env['CACHED_TARBALL'] = await tarball();
    const [first, second] = [join(dir, 'cache-1'), join(dir, 'cache-2')];
    const cached = (json: string, cache: string, ...more: string[]) => {
      process.env['APPROVAL_CONFORMANCE_CACHE'] = cache;
      return cli('run', '--adapter', ADAPTER, '--framework', 'cached@1.0.0', '--scenario', 'double-resume', '--json', json, ...more);
    };
    try {
      const results = join(dir, 'first.json');
      expect((await cached(results, first)).code).toBe(0);
      expect(await ranUnits()).toEqual(['ok/double-resume']);

      // Another machine: an empty cache. The version is installed (into a temporary folder of another name, by
      // another process), its tree compared, and its unit copied.
      await writeFile(log, '');
      const again = await cached(join(dir, 'second.json'), second, '--reuse', results);
      expect(again.code).toBe(0);
      expect(again.err).toContain('Installing 1 version that');
      expect(again.err).toContain('copied 1 unit whose keys match; 1 of 1 version need no worker');
      expect(again.err).toContain('Nothing to run');
      expect(await ranUnits()).toEqual([]);

      // The two installs' locks differ (npm names the lock after the temporary folder it installed into), their
      // trees do not.
      const [a, b] = await Promise.all([first, second].map((c) => readFile(join(c, 'cached@1.0.0', 'package-lock.json'), 'utf8')));
      expect(JSON.parse(a!).name).not.toBe(JSON.parse(b!).name);
      expect(lockDigest(a!)).toBe(lockDigest(b!));
      expect(await readdir(second)).toContain('cached@1.0.0');
    } finally {
      delete process.env['APPROVAL_CONFORMANCE_CACHE'];
      delete process.env['CACHED_TARBALL'];
    }
  });
});

describe('lockDigest', () => {
  const lock = (name: string, integrity = 'sha512-a', resolved = 'https://registry.npmjs.org/x/-/x-1.0.0.tgz') =>
    JSON.stringify({ name, lockfileVersion: 3, packages: { '': { dependencies: { x: '1.0.0' } }, 'node_modules/x': { version: '1.0.0', integrity, resolved } } });
  it('depends on what was installed, not on where or through which registry', () => {
    expect(lockDigest(lock('.x@1.0.0.123-aaaaaaaa.partial'))).toBe(lockDigest(lock('.x@1.0.0.456-bbbbbbbb.partial', 'sha512-a', 'https://mirror.example/x.tgz')));
    expect(lockDigest(lock('a', 'sha512-b'))).not.toBe(lockDigest(lock('a')));
  });

  it('knows a package linked from outside the tree by its name and version, not by the path to it', () => {
    // The workspace's better-sqlite3, which an install's overrides link: the path runs to wherever the clone is.
    const linked = (clone: string, version = '12.11.1') =>
      JSON.stringify({
        lockfileVersion: 3,
        packages: {
          '': { dependencies: { x: '1.0.0' } },
          'node_modules/x': { version: '1.0.0', integrity: 'sha512-a' },
          'node_modules/better-sqlite3': { resolved: `${clone}/node_modules/.pnpm/better-sqlite3@${version}/node_modules/better-sqlite3`, link: true },
          [`${clone}/node_modules/.pnpm/better-sqlite3@${version}/node_modules/better-sqlite3`]: { version },
        },
      });
    expect(lockDigest(linked('../../../../work/main'))).toBe(lockDigest(linked('../../p')));
    expect(lockDigest(linked('../../p', '12.12.0'))).not.toBe(lockDigest(linked('../../p')));
  });

  it('tells two commits of a git dependency apart, which have no integrity hash', () => {
    const git = (commit: string) => JSON.stringify({ packages: { 'node_modules/x': { version: '1.0.0', resolved: `git+ssh://git@github.com/o/x.git#${commit}` } } });
    expect(lockDigest(git('aaaa'))).not.toBe(lockDigest(git('bbbb')));
  });
});

describe('digestFolder', () => {
  it('changes with a file of the code, not with its tests', async () => {
    const code = join(dir, 'adapter');
    const before = digestFolder(code);
    await writeFile(join(code, 'src', 'wirings.test.ts'), 'a test\n');
    expect(digestFolder(code)).toBe(before);
    await writeFile(join(code, 'src', 'wirings.ts'), '// changed\n');
    expect(digestFolder(code)).not.toBe(before);
  });
});
