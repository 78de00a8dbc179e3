// Installing a framework version in isolation: its own folder in a cache, npm with scripts disabled, loaded through
// a small shim module written there. Adapters say what to install and what the shim exports; this does the rest.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import semver from 'semver';
import { removeLeftovers, scratchPath, scratchToken, withEntryLock } from './lock.js';

const run = promisify(execFile);

/** Where installed versions live: $APPROVAL_CONFORMANCE_CACHE, or ~/.cache/approval-conformance. */
export function cacheRoot(): string {
  return (
    process.env['APPROVAL_CONFORMANCE_CACHE'] ??
    join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'approval-conformance')
  );
}

export class InstallError extends Error {
  override readonly name = 'InstallError';
}

/** `npm view SPEC FIELDS --json`, parsed; undefined when nothing is published under the spec. */
export async function npmView<T>(spec: string, fields: string[]): Promise<T | undefined> {
  try {
    const { stdout } = await run('npm', ['view', spec, ...fields, '--json'], { maxBuffer: 64 * 1024 * 1024 });
    return stdout.trim() === '' ? undefined : (JSON.parse(stdout) as T);
  } catch (error) {
    const text = String((error as { stderr?: string }).stderr ?? error);
    if (/E404|No match found/.test(text)) return undefined;
    throw new InstallError(`npm view ${spec} failed: ${text.split('\n')[0]}`);
  }
}

export interface Isolated {
  /** The cache folder's name: `ai@6.0.0`. */
  readonly folder: string;
  /** What to install, for the error message: `ai@6.0.0`. */
  readonly what: string;
  /** The folder's package.json, minus `private` and `type`. */
  readonly manifest: Record<string, unknown>;
  /** The shim module's source: what the adapter imports from the folder. */
  readonly shim: string;
  /** Written to ready.json with the install, which marks it finished; removed again if the shim does not load. */
  readonly ready?: Record<string, unknown>;
  /**
   * Whether a finished install can be used, from its ready.json; one it refuses is installed again, under the lock.
   * Default: any finished install.
   */
  readonly reuse?: (ready: Record<string, unknown>) => boolean;
  /**
   * Fills the folder (its package.json written) in place of `npm install --ignore-scripts`: for tests, which must not
   * reach the registry. The folder is a scratch one beside the entry, renamed into place once this is done.
   */
  readonly install?: (dir: string) => Promise<void>;
  /**
   * More arguments for `npm install`: `--legacy-peer-deps` for a package whose required peers include ones the
   * registry cannot satisfy (the manifest then lists the peers the adapter needs itself).
   */
  readonly npmArgs?: readonly string[];
}

/** The folder a spec installs into. */
export const isolatedFolder = (folder: string) => join(cacheRoot(), folder);

/** The entry's ready.json when it holds a finished install that `spec` will use. */
function finished(dir: string, spec: Isolated): boolean {
  let ready: Record<string, unknown>;
  try {
    ready = JSON.parse(readFileSync(join(dir, 'ready.json'), 'utf8'));
  } catch {
    return false;
  }
  return spec.reuse === undefined || spec.reuse(ready);
}

async function npmInstall(dir: string, what: string, args: readonly string[] = []): Promise<void> {
  try {
    await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', ...args], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const text = String((error as { stderr?: string }).stderr ?? error).trim().split('\n').slice(0, 3).join(' ');
    throw new InstallError(`npm install of ${what} failed: ${text}`);
  }
}

/**
 * Installs into the cache once (a folder with ready.json is reused) and imports the shim. Safe with other processes
 * installing into the same cache: the entry is locked while it is installed (see lock.ts), so two runs that want the
 * same version install it once and both load that install, and different versions install in parallel. An install
 * is made in a scratch folder beside the entry, ready.json and all, and renamed into place whole, so the entry is
 * never half written; one whose shim then fails to import loses its ready.json, so the next run starts over.
 */
export async function installIsolated<T>(spec: Isolated, log: (line: string) => void): Promise<T> {
  const root = cacheRoot();
  const dir = join(root, spec.folder);
  const load = async () => {
    try {
      return (await import(pathToFileURL(join(dir, 'shim.mjs')).href)) as T;
    } catch (error) {
      throw localLoadError(spec, error) ?? error;
    }
  };
  if (finished(dir, spec)) return load();
  const installed = await withEntryLock(
    root,
    spec.folder,
    async () => {
      // Another process may have installed it while this one waited for the lock.
      if (finished(dir, spec)) return undefined;
      for (const name of await removeLeftovers(root, spec.folder)) log(`removed ${join(root, name)}, left by a run that stopped`);
      log(`installing ${spec.what} into ${dir} (scripts disabled)`);
      const token = scratchToken();
      // Beside the entry, at the same depth, so that the relative links npm makes still resolve once it is renamed.
      const partial = scratchPath(root, spec.folder, token, 'partial');
      const old = scratchPath(root, spec.folder, token, 'old');
      try {
        await mkdir(partial, { recursive: true });
        await writeFile(join(partial, 'package.json'), JSON.stringify({ private: true, type: 'module', ...spec.manifest }, null, 2));
        if (spec.install) {
          try {
            await spec.install(partial);
          } catch (error) {
            throw new InstallError(`install of ${spec.what} failed: ${(error as Error).message ?? String(error)}`);
          }
        } else {
          await npmInstall(partial, spec.what, spec.npmArgs);
        }
        await writeFile(join(partial, 'shim.mjs'), spec.shim);
        await writeFile(join(partial, 'ready.json'), JSON.stringify(spec.ready ?? {}) + '\n');
        // An unfinished or refused install in the way is moved aside first: the entry is swapped, never merged.
        await rename(dir, old).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        });
        await rename(partial, dir);
      } finally {
        await rm(partial, { recursive: true, force: true });
        await rm(old, { recursive: true, force: true });
      }
      // Loaded with the lock still held, so that a shim that fails to import is marked unfinished before anyone else
      // can start on the entry.
      try {
        return { lib: await load() };
      } catch (error) {
        await rm(join(dir, 'ready.json'), { force: true });
        throw error;
      }
    },
    { log },
  );
  return installed ? installed.lib : load();
}

/**
 * The newest published version of `name` in `range` (`5`, `6.0`, `^7.0.1`); an exact version is returned as it is.
 * Throws an InstallError naming the problem when the range is malformed (its message shows `example`, a version of
 * the package, as the fix) or matches nothing.
 */
export async function resolveVersion(name: string, range: string, example = '1.2.3'): Promise<string> {
  if (semver.valid(range)) return range;
  if (semver.validRange(range) === null) {
    const [major, minor] = [semver.major(example), semver.minor(example)];
    throw new InstallError(`'${range}' is not a version or a range; give one like ${example}, ${major} or ^${major}.${minor}.0`);
  }
  const listed = await npmView<string | string[]>(`${name}@${range}`, ['version']);
  const versions = listed === undefined ? [] : Array.isArray(listed) ? listed : [listed];
  const newest = semver.maxSatisfying(versions, range);
  if (!newest) throw new InstallError(`no published ${name} version is in '${range}'`);
  return newest;
}

/** A maintainer's local build, named by `file:PATH`: the package folder, its name and its version. */
export interface LocalPackage {
  readonly dir: string;
  readonly name: string;
  readonly version: string;
  readonly dependencies: Readonly<Record<string, string>>;
}

interface LocalManifest {
  name?: string;
  version?: string;
  main?: string;
  exports?: unknown;
  dependencies?: Record<string, string>;
}

/**
 * A local build, checked before anything is linked: its package.json names `expected`, the file its package.json
 * exports (or its `main`) is there (else: build it first), and each of its dependencies is installed where Node looks
 * for it from the build's real folder (else: how to install them). Each problem is an InstallError saying what to do.
 */
export async function localPackage(path: string, expected: string): Promise<LocalPackage> {
  const { readFile } = await import('node:fs/promises');
  const { resolve } = await import('node:path');
  const dir = resolve(path);
  let manifest: LocalManifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  } catch {
    throw new InstallError(`no package.json in ${dir}; point file: at the built ${expected} package's folder`);
  }
  if (manifest.name !== expected) {
    throw new InstallError(`${dir} holds ${manifest.name ?? 'a package without a name'}, not ${expected}; point file: at ${expected}'s folder`);
  }
  const entry = entryPoint(manifest);
  // An export is the file it names; a `main` resolves as require does: as written, with an extension, or a folder's index.
  const isFile = (path: string) => existsSync(path) && statSync(path).isFile();
  const suffixes = entry?.field === 'exports' ? [''] : ['', '.js', '.json', '.node', '/index.js', '/index.json'];
  if (entry !== undefined && !suffixes.some((suffix) => isFile(join(dir, entry.file + suffix)))) {
    throw new InstallError(
      `${dir} has no ${entry.file.replace(/^\.\//, '')}, which its package.json ${entry.field}: build it first (in its repository: pnpm build, or turbo build --filter=${expected} in a turbo monorepo)`,
    );
  }
  const real = realpathSync(dir);
  for (const dep of Object.keys(manifest.dependencies ?? {})) {
    if (!installedFrom(real, dep)) throw new InstallError(missingDependency(expected, dir, dep));
  }
  return { dir, name: expected, version: manifest.version ?? '0.0.0', dependencies: manifest.dependencies ?? {} };
}

/** The file Node loads for `import NAME` from a package.json, and which field says so; undefined when none does. */
function entryPoint(manifest: LocalManifest): { file: string; field: string } | undefined {
  const pick = (target: unknown): string | undefined => {
    if (typeof target === 'string') return target;
    if (Array.isArray(target)) return target.map(pick).find((t) => t !== undefined);
    if (target === null || typeof target !== 'object') return undefined;
    // Conditions in the order the object lists them, as Node takes them: the first one an ESM import matches.
    for (const [condition, value] of Object.entries(target)) {
      if (condition === 'node' || condition === 'import' || condition === 'default') {
        const file = pick(value);
        if (file !== undefined) return file;
      }
    }
    return undefined;
  };
  const { exports } = manifest;
  if (exports !== undefined) {
    const subpaths = exports !== null && typeof exports === 'object' && !Array.isArray(exports) && Object.keys(exports).some((k) => k.startsWith('.'));
    const file = pick(subpaths ? (exports as Record<string, unknown>)['.'] : exports);
    return file === undefined ? undefined : { file, field: 'exports' };
  }
  return typeof manifest.main === 'string' ? { file: manifest.main, field: 'names as its main' } : undefined;
}

/** Whether `dep` is in a node_modules Node searches from the package folder `real` (its own, then its ancestors'). */
function installedFrom(real: string, dep: string): boolean {
  for (let dir = real; ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules' && existsSync(join(dir, 'node_modules', dep))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/** What to do when a local build's dependency is not installed: where it is built, or its own folder for a tarball. */
function missingDependency(name: string, dir: string, dep: string): string {
  const folder = `${name.replace(/^@/, '').replace(/\//g, '-')}-build`;
  return (
    `${name}'s local build in ${dir} cannot load ${dep}: its dependencies are not installed. ` +
    `In its repository, install them (pnpm install); for a packed build, unpacked, install it with them into an empty folder ` +
    `(mkdir ${folder} && cd ${folder} && npm install --install-links ${dir}) and point file: at ${folder}/node_modules/${name}`
  );
}

/**
 * A local build that would not import, said as what to do: a package it imports that is not installed (its
 * dependencies), or a file of its own that is missing (build it first). A local build is one the manifest links with
 * `file:`. Undefined for anything else, which is thrown as it is.
 */
function localLoadError(spec: Isolated, error: unknown): InstallError | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' || typeof message !== 'string') return undefined;
  const dependencies = (spec.manifest['dependencies'] ?? {}) as Record<string, string>;
  // A folder linked with file: (a tarball named with file: is installed like a published version).
  const local = Object.entries(dependencies).find(([, range]) => typeof range === 'string' && range.startsWith('file:') && !/\.(tgz|tar|tar\.gz)$/.test(range));
  if (!local) return undefined;
  const [name, range] = local;
  const dir = range.slice('file:'.length);
  const first = message.split('\n')[0]!;
  // Only what the build's own files import: the shim's imports (the link itself, the peers the cache folder installs)
  // are thrown as they are.
  const from = / imported from (.+)$/.exec(first)?.[1];
  let real = dir;
  try {
    real = realpathSync(dir);
  } catch {
    // gone: the message says so as it is
  }
  if (from !== undefined && !from.startsWith(join(real, '/')) && !from.startsWith(join(dir, '/'))) return undefined;
  const pkg = /^Cannot find package '([^']+)'/.exec(first)?.[1];
  if (pkg === name) return undefined;
  if (pkg !== undefined) return new InstallError(`${missingDependency(name, dir, pkg)} (${first})`);
  const module = /^Cannot find module '([^']+)'(?: imported from (.+))?$/.exec(first);
  if (module) {
    // Node names the missing file by its path; a module runner may give the specifier as written.
    const [, specifier, importer] = module as unknown as [string, string, string | undefined];
    const file = specifier.startsWith('.') && importer !== undefined ? join(dirname(importer), specifier) : specifier;
    return new InstallError(`${name}'s local build in ${dir} has no ${file}, which it imports: build it first (${first})`);
  }
  return undefined;
}

/** The cache folder for a local build: one per path, linked (not copied), so a rebuild is seen without reinstalling. */
export const localFolder = (pkg: LocalPackage) =>
  `${pkg.name.replace(/[@/]/g, '_')}@local-${createHash('sha256').update(pkg.dir).digest('hex').slice(0, 12)}`;
