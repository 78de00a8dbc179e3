// A maintainer's local build (`NAME@file:PATH`) that cannot load says what to do: build it first when the file its
// package.json exports is not there, and install its dependencies (naming the missing one, with the command) when a
// package it imports is not installed. Fixture folders in a temporary directory; no registry.
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installIsolated, InstallError, localFolder, localPackage } from './npm.js';

/** Writes `files` (path → contents; objects as JSON) under a new temporary folder, and returns it. */
async function folder(files: Record<string, string | object>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'ac-local-build-'));
  for (const [path, contents] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), typeof contents === 'string' ? contents : JSON.stringify(contents));
  }
  return root;
}

const manifest = (extra: object = {}) => ({
  name: 'fake-fw',
  version: '1.2.3',
  type: 'module',
  exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js', default: './dist/index.js' } },
  dependencies: { 'fake-dep': '1.0.0' },
  ...extra,
});

describe('localPackage', () => {
  it('says "build it first" when the file its package.json exports is not there', async () => {
    const root = await folder({ 'build/package.json': manifest() });
    const error = await localPackage(join(root, 'build'), 'fake-fw').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InstallError);
    expect((error as Error).message).toBe(
      `${join(root, 'build')} has no dist/index.js, which its package.json exports: build it first (in its repository: pnpm build, or turbo build --filter=fake-fw in a turbo monorepo)`,
    );
    // The same from `main` when there are no exports.
    const main = await folder({ 'package.json': manifest({ exports: undefined, main: './lib/main.js' }) });
    await expect(localPackage(main, 'fake-fw')).rejects.toThrow('has no lib/main.js, which its package.json names as its main: build it first');
    // A main that require resolves with an extension or as a folder's index is there.
    for (const [main, file] of [['lib/index', 'lib/index.js'], ['./lib', 'lib/index.js'], ['index', 'index.json']]) {
      const built = await folder({ 'package.json': manifest({ exports: undefined, main, dependencies: {} }), [file!]: '{}' });
      await expect(localPackage(built, 'fake-fw'), main).resolves.toMatchObject({ version: '1.2.3' });
    }
  });

  it('names a dependency that is not installed, says the build’s dependencies are not installed, and gives the command', async () => {
    const root = await folder({ 'build/package.json': manifest(), 'build/dist/index.js': 'export const x = 1;\n' });
    const dir = join(root, 'build');
    const message = await localPackage(dir, 'fake-fw').then(
      () => '',
      (e: Error) => e.message,
    );
    expect(message).toContain(`fake-fw's local build in ${dir} cannot load fake-dep: its dependencies are not installed.`);
    expect(message).toContain('In its repository, install them (pnpm install)');
    expect(message).toContain(`mkdir fake-fw-build && cd fake-fw-build && npm install --install-links ${dir}) and point file: at fake-fw-build/node_modules/fake-fw`);
  });

  it('takes a build whose dependencies Node finds: in its own node_modules, an ancestor’s, or beside its real folder (pnpm)', async () => {
    const own = await folder({ 'package.json': manifest(), 'dist/index.js': '', 'node_modules/fake-dep/package.json': { name: 'fake-dep' } });
    await expect(localPackage(own, 'fake-fw')).resolves.toMatchObject({ dir: own, name: 'fake-fw', version: '1.2.3' });
    const hoisted = await folder({ 'node_modules/fake-dep/package.json': {}, 'packages/fw/package.json': manifest(), 'packages/fw/dist/index.js': '' });
    await expect(localPackage(join(hoisted, 'packages/fw'), 'fake-fw')).resolves.toMatchObject({ version: '1.2.3' });
    // pnpm: the path given is a link into the store, where the dependencies sit beside the package's real folder.
    const store = await folder({
      '.pnpm/fake-fw@1.2.3/node_modules/fake-fw/package.json': manifest(),
      '.pnpm/fake-fw@1.2.3/node_modules/fake-fw/dist/index.js': '',
      '.pnpm/fake-fw@1.2.3/node_modules/fake-dep/package.json': {},
    });
    await mkdir(join(store, 'app/node_modules'), { recursive: true });
    await symlink(join(store, '.pnpm/fake-fw@1.2.3/node_modules/fake-fw'), join(store, 'app/node_modules/fake-fw'));
    await expect(localPackage(join(store, 'app/node_modules/fake-fw'), 'fake-fw')).resolves.toMatchObject({ version: '1.2.3' });
  });
});

describe('installIsolated for a local build that will not import', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  /** Links the build at `dir` into a cache entry (as npm does for file:) and imports it through a shim. */
  async function load(dir: string, shim = "export * from 'fake-fw';\n") {
    vi.stubEnv('APPROVAL_CONFORMANCE_CACHE', await mkdtemp(join(tmpdir(), 'ac-local-cache-')));
    const pkg = await localPackage(dir, 'fake-fw');
    return installIsolated(
      {
        folder: localFolder(pkg),
        what: `fake-fw from ${dir}`,
        manifest: { dependencies: { 'fake-fw': `file:${dir}` } },
        shim,
        install: async (into) => {
          await mkdir(join(into, 'node_modules'), { recursive: true });
          await symlink(dir, join(into, 'node_modules/fake-fw'));
        },
      },
      () => {},
    );
  }

  it('names a package the build imports that is not installed, with the command', async () => {
    // Not among its dependencies (so the check before linking passes): something further down is missing.
    const dir = await folder({ 'package.json': manifest({ dependencies: {} }), 'dist/index.js': "export * from 'fake-transitive-dep';\n" });
    const error = await load(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InstallError);
    expect((error as Error).message).toContain(`fake-fw's local build in ${dir} cannot load fake-transitive-dep: its dependencies are not installed.`);
    expect((error as Error).message).toContain(`npm install --install-links ${dir}`);
    expect((error as Error).message).toContain("Cannot find package 'fake-transitive-dep' imported from");
  });

  it('says "build it first" for a file of its own it imports that is not there', async () => {
    const dir = await folder({ 'package.json': manifest({ dependencies: {} }), 'dist/index.js': "export * from './chunk-1.js';\n" });
    await expect(load(dir)).rejects.toThrow(new RegExp(`^fake-fw's local build in ${dir} has no ${join(dir, 'dist/chunk-1.js')}, which it imports: build it first`));
  });

  it("leaves what the shim itself imports as it is: the cache folder's own install, not the build's", async () => {
    const dir = await folder({ 'package.json': manifest({ dependencies: {} }), 'dist/index.js': 'export const answer = 42;\n' });
    const error = await load(dir, "export * from 'fake-fw';\nexport * from 'fake-peer-of-the-cache';\n").catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(InstallError);
    expect((error as Error).message).toMatch(/^Cannot find package 'fake-peer-of-the-cache'/);
  });

  it('loads one that is whole', async () => {
    const dir = await folder({ 'package.json': manifest({ dependencies: {} }), 'dist/index.js': 'export const answer = 42;\n' });
    await expect(load(dir)).resolves.toMatchObject({ answer: 42 });
  });
});
