// `init-adapter`: the package it writes (every template, its placeholders filled in), what it refuses (a folder with
// something in it, a name the runner would refuse or a built-in's, a folder inside the suite's repository), its help,
// and the templates themselves as they stand in the repository: they typecheck against this core, the adapter's
// source imports only the contract and the kit, and the scaffold's own tests pass here (imported below). Building and
// testing a written scaffold with npm, from the packed tarballs, is for the pack check, not for here.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, main } from '../main.js';
import { UsageError } from '../usage-error.js';
import { builtInNames, initAdapterCommand, WRITTEN } from './init-adapter.js';

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TEMPLATES = join(PACKAGE_ROOT, 'templates', 'adapter');
/** A sibling package's own version (core's, guard's): a release may move one and not the other. */
const versionOf = (pkg: string) => (JSON.parse(readFileSync(join(PACKAGE_ROOT, '..', pkg, 'package.json'), 'utf8')) as { version: string }).version;

// The scaffold's own tests (double-resume on both wirings, the descriptor), run here on the templates as they stand.
// Imported by URL, so that this package's typecheck leaves the templates alone (they are checked below, as a package).
await import(pathToFileURL(join(TEMPLATES, 'src', 'adapter.test-template.ts')).href);

/** Through main once it has the command, else the command alone, with main's handling of a usage error. */
async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const io = { out: (t: string) => (out += t), err: (t: string) => (err += t) };
  let code: number;
  if (COMMANDS.some((c) => c.name === 'init-adapter')) {
    code = await main(['init-adapter', ...argv], io);
  } else {
    try {
      code = await initAdapterCommand.run(argv, io);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      io.err(`approval-conformance: ${error.message}\n`);
      code = 2;
    }
  }
  return { code, out, err };
}

async function filesUnder(dir: string, under = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(join(dir, under), { withFileTypes: true })) {
    const path = under === '' ? entry.name : `${under}/${entry.name}`;
    if (entry.isDirectory()) found.push(...(await filesUnder(dir, path)));
    else found.push(path);
  }
  return found.sort();
}

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'ac-init-adapter-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('init-adapter NAME DIR', () => {
  it('writes the package, every placeholder filled in, and says what it wrote and what to do next', async () => {
    const dir = join(tmp, 'acme');
    const { code, out, err } = await cli('acme-agents', dir);
    expect(err).toBe('');
    expect(code).toBe(0);
    const files = await filesUnder(dir);
    expect(files).toEqual(Object.keys(WRITTEN).sort());
    for (const file of files) {
      const text = await readFile(join(dir, file), 'utf8');
      expect(text, file).not.toMatch(/__[A-Z_]+__/);
      expect(out).toContain(`  ${file} `);
    }

    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({
      name: 'approval-conformance-adapter-acme-agents',
      type: 'module',
      exports: {
        '.': { types: './dist/index.d.ts', default: './dist/index.js' },
        './descriptor': { types: './dist/descriptor.d.ts', default: './dist/descriptor.js' },
      },
      scripts: { build: 'tsc', test: 'vitest run' },
      dependencies: { '@approval-conformance/core': versionOf('core'), '@approval-conformance/guard': versionOf('guard') },
      devDependencies: { typescript: '5.9.3', vitest: '4.1.12', '@types/node': '^20.19.0' },
    });
    const descriptor = await readFile(join(dir, 'src/descriptor.ts'), 'utf8');
    expect(descriptor).toContain("name: 'acme-agents',");
    expect(descriptor).toContain('contractVersion: CONTRACT_VERSION,');
    expect(await readFile(join(dir, 'src/adapter.ts'), 'utf8')).toContain("framework: 'acme-agents',");
    const tsconfig = ts.parseConfigFileTextToJson('tsconfig.json', await readFile(join(dir, 'tsconfig.json'), 'utf8')).config;
    expect(tsconfig.compilerOptions.paths).toEqual({
      '@approval-conformance/core': ['./explorer-not-for-adapters.d.ts'],
      '@approval-conformance/core/explorer': ['./explorer-not-for-adapters.d.ts'],
    });
    expect(tsconfig.exclude).toEqual(['src/**/*.test.ts']);

    expect(out).toMatch(new RegExp(`^Wrote the acme-agents adapter into ${dir} \\(${files.length} files\\):$`, 'm'));
    expect(out).toContain(`npm install --no-save `);
    expect(out).toMatch(/approval-conformance-core-\S+\.tgz/);
    expect(out).toMatch(/^ {2}npm run build/m);
    expect(out).toMatch(/^ {2}npm test/m);
    expect(out).toMatch(new RegExp(`run --adapter ${dir} --framework acme-agents$`, 'm'));
  });

  it('writes into ./approval-conformance-adapter-NAME when no DIR is given, and into an empty folder', async () => {
    const cwd = process.cwd();
    const here = await mkdtemp(join(tmp, 'cwd-'));
    process.chdir(here);
    try {
      const { code, out } = await cli('widgets');
      expect(code).toBe(0);
      expect(out).toContain('cd approval-conformance-adapter-widgets\n');
      expect(existsSync(join(here, 'approval-conformance-adapter-widgets', 'src', 'descriptor.ts'))).toBe(true);
    } finally {
      process.chdir(cwd);
    }
    const empty = join(tmp, 'empty');
    await mkdir(empty);
    expect((await cli('widgets', empty)).code).toBe(0);
    expect(existsSync(join(empty, 'package.json'))).toBe(true);
  });
});

describe('what init-adapter refuses (exit 2, nothing written)', () => {
  it('a folder that is not empty, or a file', async () => {
    const full = join(tmp, 'full');
    await mkdir(full);
    await writeFile(join(full, 'notes.txt'), 'mine\n');
    const { code, err } = await cli('acme', full);
    expect(code).toBe(2);
    expect(err).toBe(`approval-conformance: init-adapter: '${full}' is not empty (it holds 'notes.txt'); give a new or empty folder, nothing was written.\n`);
    expect(await readdir(full)).toEqual(['notes.txt']);
    const { code: fileCode, err: fileErr } = await cli('acme', join(full, 'notes.txt'));
    expect(fileCode).toBe(2);
    expect(fileErr).toMatch(/notes\.txt' is a file; give a new or empty folder\.$/m);
  });

  it.each(['Acme', 'acme_agents', '1acme', 'ac.me', 'acme agents', 'acmé', ''])('the name %j', async (name) => {
    const dir = join(tmp, `bad-${Buffer.from(name).toString('hex')}`);
    const { code, err } = await cli(name, dir);
    expect(code).toBe(2);
    expect(err).toContain(`'${name}' is not a framework name: use lowercase letters, digits and dashes, starting with a letter`);
    expect(existsSync(dir)).toBe(false);
  });

  it.each(builtInNames())('the built-in name %s', async (name) => {
    const dir = join(tmp, `builtin-${name}`);
    const { code, err } = await cli(name, dir);
    expect(code).toBe(2);
    expect(err).toContain(`'${name}' is a built-in framework's name`);
    expect(existsSync(dir)).toBe(false);
  });

  it("a folder inside the suite's own repository, and a missing name or one argument too many", async () => {
    const inside = join(PACKAGE_ROOT, 'init-adapter-test-output');
    const { code, err } = await cli('acme', inside);
    expect(code).toBe(2);
    expect(err).toMatch(/is inside the suite's own repository \(.*\); an adapter is a package of its own: give a DIR outside it, such as .*approval-conformance-adapter-acme\.$/m);
    expect(existsSync(inside)).toBe(false);
    expect(await cli()).toMatchObject({ code: 2, err: expect.stringContaining("init-adapter needs the framework's NAME") });
    expect(await cli('acme', join(tmp, 'x'), 'extra')).toMatchObject({ code: 2, err: expect.stringContaining("got also 'extra'") });
    expect(await cli('acme', '--force')).toMatchObject({ code: 2, err: expect.stringContaining("Unknown option '--force'") });
  });
});

describe('init-adapter --help', () => {
  it('says what it writes, the default folder, the names it refuses, the next steps, and shows examples', async () => {
    const { code, out } = await cli('--help');
    expect(code).toBe(0);
    expect(out).toBe(initAdapterCommand.help);
    expect(out).toMatch(/^Usage: approval-conformance init-adapter NAME \[DIR\]$/m);
    expect(out).toContain('approval-conformance-adapter-NAME');
    for (const name of builtInNames()) expect(out).toContain(name);
    expect(out).toContain('approval-conformance run --adapter DIR --framework NAME');
    expect(out).toMatch(/^Examples:\n {2}approval-conformance init-adapter acme-agents$/m);
  });
});

describe('the templates (packages/conformance/templates/adapter)', () => {
  const stored = () => filesUnder(TEMPLATES);

  it('each has a line in what the command prints, and ships in the tarball, under names the pack check lets through', async () => {
    const written = (await cli('listed', join(tmp, 'listed'))).out;
    for (const file of Object.keys(WRITTEN)) expect(written).toContain(`  ${file} `);
    const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('templates');
    // scripts/pack-smoke.sh refuses a tarball holding tests, fixtures or sources under src/.
    for (const file of await stored()) expect(`package/templates/adapter/${file}`).not.toMatch(/\.test\.|\.fixtures\.|^package\/src\/|\.tmp\./);
  });

  it("typecheck against this core: the scaffold's tsconfig.typecheck.json, over the templates in place", () => {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      join(TEMPLATES, 'tsconfig.typecheck.json'),
      // The workspace's packages from source, as the tests run them; an installed scaffold reads their dist/*.d.ts.
      { customConditions: ['@approval-conformance/source'] },
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    )!;
    expect(parsed.fileNames.map((f) => relative(TEMPLATES, f)).sort()).toEqual(
      ['adapter.test-template.ts', 'adapter.ts', 'descriptor.ts', 'index.ts', 'repro.ts', 'runtime.ts', 'wirings.ts', 'world.ts'].map((f) => `src/${f}`),
    );
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? relative(TEMPLATES, d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    expect(problems).toEqual([]);
  });

  it("the adapter's source imports only the contract and the kit of core; the tests may import the explorer", async () => {
    for (const file of await stored()) {
      if (!file.startsWith('src/') || file.includes('test')) continue;
      const imports = [...(await readFile(join(TEMPLATES, file), 'utf8')).matchAll(/from '(@approval-conformance\/[^']*)'/g)].map((m) => m[1]);
      for (const name of imports) expect(['@approval-conformance/core/contract', '@approval-conformance/core/kit'], `${file}: ${name}`).toContain(name);
    }
  });
});
