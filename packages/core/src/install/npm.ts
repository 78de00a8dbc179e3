// Installing a framework version in isolation: its own folder in a cache, npm with scripts disabled, loaded through
// a small shim module written there. Adapters say what to install and what the shim exports; this does the rest.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import semver from 'semver';

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
  /** Written to ready.json once the install loaded. */
  readonly ready?: Record<string, unknown>;
}

/** The folder a spec installs into. */
export const isolatedFolder = (folder: string) => join(cacheRoot(), folder);

/**
 * Installs into the cache once (a folder with ready.json is reused) and imports the shim. A failed install leaves
 * no ready.json, so the next run starts over.
 */
export async function installIsolated<T>(spec: Isolated, log: (line: string) => void): Promise<T> {
  const dir = isolatedFolder(spec.folder);
  const load = async () => (await import(pathToFileURL(join(dir, 'shim.mjs')).href)) as T;
  if (existsSync(join(dir, 'ready.json'))) return load();
  log(`installing ${spec.what} into ${dir} (scripts disabled)`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ private: true, type: 'module', ...spec.manifest }, null, 2));
  try {
    await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const text = String((error as { stderr?: string }).stderr ?? error).trim().split('\n').slice(0, 3).join(' ');
    throw new InstallError(`npm install of ${spec.what} failed: ${text}`);
  }
  await writeFile(join(dir, 'shim.mjs'), spec.shim);
  const loaded = await load();
  await writeFile(join(dir, 'ready.json'), JSON.stringify(spec.ready ?? {}) + '\n');
  return loaded;
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
