// Installing a framework version in isolation: its own folder in a cache, npm with scripts disabled, loaded through
// a small shim module written there. Adapters say what to install and what the shim exports; this does the rest.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
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
  const load = async () => (await import(pathToFileURL(join(dir, 'shim.mjs')).href)) as T;
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

export async function localPackage(path: string, expected: string): Promise<LocalPackage> {
  const { readFile } = await import('node:fs/promises');
  const { resolve } = await import('node:path');
  const dir = resolve(path);
  let manifest: { name?: string; version?: string; dependencies?: Record<string, string> };
  try {
    manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  } catch {
    throw new InstallError(`no package.json in ${dir}; point file: at the built ${expected} package's folder`);
  }
  if (manifest.name !== expected) {
    throw new InstallError(`${dir} holds ${manifest.name ?? 'a package without a name'}, not ${expected}; point file: at ${expected}'s folder`);
  }
  return { dir, name: expected, version: manifest.version ?? '0.0.0', dependencies: manifest.dependencies ?? {} };
}

/** The cache folder for a local build: one per path, linked (not copied), so a rebuild is seen without reinstalling. */
export const localFolder = (pkg: LocalPackage) =>
  `${pkg.name.replace(/[@/]/g, '_')}@local-${createHash('sha256').update(pkg.dir).digest('hex').slice(0, 12)}`;
