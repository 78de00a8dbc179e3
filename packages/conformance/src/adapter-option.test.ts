// `--adapter PACKAGE_OR_PATH`: a third party's adapter package plugs in on every command, and a malformed one gets one
// line that names what is wrong and the fix (exit 2), never a stack trace.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOY } from './adapter-option.fixtures.js';
import { cli } from './run-io.fixtures.js';
import { externalAdapters, frameworkNames, matrixFrameworkNames } from './frameworks.js';
import { splitAdapters } from './main.js';

let root: string;

/** An adapter package in a folder of its own: its package.json, and an index.ts of the given source. */
async function adapterPackage(name: string, source: string, pkg: Record<string, unknown> = { exports: { '.': './index.ts' } }): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', type: 'module', ...pkg }));
  await writeFile(join(dir, 'index.ts'), source);
  return dir;
}
const from = JSON.stringify(TOY);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ac-adapter-'));
});

describe('--adapter', () => {
  it('is taken out of any command line, = or not, before a --', () => {
    expect(splitAdapters(['run', '--adapter', 'a', '--quiet', '--adapter=b', '--', '--adapter', 'c'])).toEqual({ adapters: ['a', 'b'], rest: ['run', '--quiet', '--', '--adapter', 'c'] });
  });

  it("runs the adapter's frameworks when no --framework is given, in worker processes that load it too, and keeps them out of the default matrix", async () => {
    const dir = await adapterPackage('toy-adapter', `export { descriptor } from ${from};\n`);
    const json = join(root, 'toy.json');
    const { code, out, err } = await cli('run', '--adapter', dir, '--scenario', 'double-resume', '--json', json, '--quiet');
    expect(code, err).toBe(0);
    expect(out).toMatch(/^toy@0\.1\.0: 6 cells: 3 pass, 3 fail\.$/m);
    expect(out).toMatch(/^unsafe\/memory: keeps 0 of 3\n {2}fails at-most-once: double-resume \(4 steps\)$/m);
    expect(out).toMatch(/^safe\/memory: keeps all 3$/m);
    expect(out).not.toMatch(/reference@/);
    expect(frameworkNames()).toContain('toy');
    expect(matrixFrameworkNames()).not.toContain('toy');
    expect(externalAdapters()).toEqual([dir]);
    // The same adapter again is the same framework, not a clash.
    const again = await cli('run', '--adapter', dir, '--framework', 'toy', '--wiring', 'safe', '--scenario', 'double-resume', '--quiet');
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/^toy@0\.1\.0: 3 cells: 3 pass\.$/m);
  });

  it('replays, reproduces and reports its cells like a built-in one, and names --adapter where it is missing', async () => {
    const dir = join(root, 'toy-adapter');
    const json = join(root, 'toy.json');
    const cell = 'toy@0.1.0/unsafe/memory/double-resume/at-most-once';
    const replay = await cli('replay', '--adapter', dir, json, '--cell', cell);
    expect(replay.code, replay.err).toBe(0);
    expect(replay.out).toMatch(/^Reproduced: the replay gave the recorded history\.$/m);
    const repro = await cli('repro', '--adapter', dir, json, '--cell', cell, '--out', join(root, 'repro'));
    expect(repro.err).toMatch(/no standalone app is written for toy's unsafe wiring/);
    const report = await cli('report', '--adapter', dir, json, '--out', join(root, 'report'));
    expect(report.code, report.err).toBe(0);
    // The results record where the adapter is; a command that reads them without it says which to give.
    const { readFile, realpath } = await import('node:fs/promises');
    const results = JSON.parse(await readFile(json, 'utf8')) as { targets: { framework: string; adapter?: string }[] };
    expect(results.targets.find((t) => t.framework === 'toy')?.adapter).toBe(await realpath(dir));
    const { needsAdapter } = await import('./frameworks.js');
    expect(() => needsAdapter('elsewhere', [{ framework: 'elsewhere', adapter: 'elsewhere-adapter' }])).toThrow(
      /elsewhere comes from a third party's adapter, which these results record as elsewhere-adapter: give it again with --adapter elsewhere-adapter\./,
    );
    expect(() => needsAdapter('toy', results.targets)).not.toThrow();
    // A framework no adapter here describes: the error says how one plugs in.
    expect(await cli('run', '--framework', 'not-here')).toMatchObject({ code: 2, err: expect.stringMatching(/unknown framework 'not-here'\. A framework the suite does not cover plugs in with --adapter/) });
  });

  it('takes a module file as well as a package folder', async () => {
    const file = join(root, 'single.ts');
    await writeFile(file, `import { descriptor as toy } from ${from};\nexport const descriptor = { ...toy, name: 'toy-file' };\n`);
    const { code, err } = await cli('run', '--adapter', file, '--wiring', 'safe', '--scenario', 'double-resume', '--quiet');
    expect(code, err).toBe(0);
  });

  const refused: [string, () => Promise<string>, RegExp][] = [
    ['no such path', async () => join(root, 'nowhere', 'adapter'), /--adapter \S+nowhere\S*: no such file or folder/],
    ['a package that is not installed', async () => 'no-such-adapter-package', /--adapter no-such-adapter-package: no package 'no-such-adapter-package' is installed next to approval-conformance .*npm install no-such-adapter-package/],
    ['a folder without package.json', async () => {
      await mkdir(join(root, 'bare'), { recursive: true });
      return join(root, 'bare');
    }, /is a folder with no package\.json\. Give the adapter package's folder/],
    ['an entry not built', async () => adapterPackage('unbuilt', '', { exports: { './descriptor': './dist/descriptor.js' } }), /its entry \S+dist\/descriptor\.js does not exist\. Build the adapter first \(npm run build\)/],
    ['no descriptor export', async () => adapterPackage('none', 'export const framework = {};\n'), /exports no `descriptor`\. An adapter exports `descriptor` \(a FrameworkDescriptor\)/],
    ['another contract version', async () => adapterPackage('v99', `import { descriptor as d } from ${from};\nexport const descriptor = { ...d, name: 'v99', contractVersion: 99 };\n`), /declares contract version 99, and this suite reads version 1: update the adapter to version 1/],
    ['no contract version', async () => adapterPackage('v0', `import { descriptor as d } from ${from};\nexport const descriptor = { ...d, name: 'v0', contractVersion: undefined };\n`), /declares no contractVersion; this suite reads contract version 1 \(set contractVersion: CONTRACT_VERSION/],
    ['a load that is not a function', async () => adapterPackage('noload', `import { descriptor as d } from ${from};\nexport const descriptor = { ...d, name: 'noload', load: undefined };\n`), /its descriptor's load is not a function/],
    ['a bad name', async () => adapterPackage('badname', `import { descriptor as d } from ${from};\nexport const descriptor = { ...d, name: 'Toy Framework' };\n`), /its descriptor's name is "Toy Framework"; a name is lowercase letters/],
    ['a built-in name', async () => adapterPackage('clash', `import { descriptor as d } from ${from};\nexport const descriptor = { ...d, name: 'reference' };\n`), /its framework is named 'reference', as a built-in framework is\. Give it a name of its own/],
    ['a throw at load', async () => adapterPackage('throws', "throw new Error('cannot find the framework');\n"), /threw while it loaded: cannot find the framework\. Fix the error/],
  ];

  it("says what its descriptor's own calls throw as the adapter's (exit 2), not the suite's internal error", async () => {
    const dir = await adapterPackage('shape-throws', `import { descriptor as d } from ${from};\nexport const descriptor = { ...d, name: 'shape-throws', shape: async () => { throw new Error('dist/adapter.js is missing'); } };\n`);
    const { code, err } = await cli('run', '--adapter', dir, '--scenario', 'double-resume', '--quiet');
    expect(code).toBe(2);
    expect(err).toMatch(/^approval-conformance: --adapter \S+shape-throws: its descriptor's shape\(\) threw: dist\/adapter\.js is missing\. Fix the adapter \(or build it again\)\.\n$/);
  });

  it('leaves the other frameworks alone: a worker loads only the adapter of its own framework, and help needs none', async () => {
    const { rm } = await import('node:fs/promises');
    const dir = await adapterPackage('gone', `import { descriptor as d } from ${from};\nexport const descriptor = { ...d, name: 'gone' };\n`);
    expect((await cli('run', '--adapter', dir, '--wiring', 'safe', '--scenario', 'double-resume', '--quiet')).code).toBe(0);
    await rm(dir, { recursive: true });
    // Loaded in this process, then removed: a built-in framework's workers never load it.
    const reference = await cli('run', '--framework', 'reference', '--wiring', 'cas-fresh', '--store', 'memory', '--scenario', 'double-resume', '--quiet');
    expect(reference.code, reference.err).toBe(0);
    expect(await cli('run', '--help', '--adapter', join(root, 'nowhere'))).toMatchObject({ code: 0 });
  });

  it("is the API's adapter option: with no framework, the adapter's frameworks", async () => {
    const { run } = await import('./api.js');
    const dir = await adapterPackage('api-toy', `import { descriptor as d } from ${from};\nexport const descriptor = { ...d, name: 'api-toy' };\n`);
    const results = await run({ adapter: dir, scenario: 'double-resume', wiring: 'safe' });
    expect(new Set(results.cells.map((c) => c.framework))).toEqual(new Set(['api-toy']));
    await expect(run({ adapter: join(root, 'nowhere') })).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/no such file or folder/) });
  });

  it.each(refused)('refuses %s with exit 2 and one line naming the fix', async (_what, make, message) => {
    const spec = await make();
    for (const command of [['run', '--framework', 'reference'], ['audit'], ['diff', 'a.json', 'b.json']]) {
      const { code, out, err } = await cli(command[0]!, '--adapter', spec, ...command.slice(1));
      expect(code, err).toBe(2);
      expect(out).toBe('');
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(err).toMatch(message);
      expect(err).not.toMatch(/internal error|\n\s+at /);
    }
  });

  it("takes a built-in adapter's own folder as that built-in (a checkout's path to it), and a copy of it by its name as a clash", async () => {
    const { useAdapters } = await import('./registry.js');
    const builtIn = fileURLToPath(new URL('../../adapters/reference', import.meta.url));
    expect(await useAdapters([builtIn])).toEqual(['reference']);
    expect(externalAdapters()).not.toContain(builtIn);
    const copy = await adapterPackage('@approval-conformance/adapter-reference', `import { descriptor as d } from ${from};\nexport const descriptor = { ...d, name: 'reference' };\n`);
    await expect(useAdapters([copy])).rejects.toThrow(/named 'reference', as a built-in framework is/);
  });

  it('needs a value', async () => {
    expect(await cli('run', '--adapter')).toMatchObject({ code: 2, err: expect.stringMatching(/--adapter needs a value/) });
    expect(await cli('run', '--adapter', '--quiet')).toMatchObject({ code: 2, err: expect.stringMatching(/--adapter needs a value.*'--quiet' follows it/) });
  });
});
