// Versions, as a descriptor reads them: which of a framework's releases to run, and what an installed version is
// made of (its packages' exact versions, and a Node range it declares that this Node is outside of).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import semver from 'semver';
import type { LoadedVersion } from './descriptor.js';

/**
 * Where `name`'s package.json is for `require`: through its exports when they list it, else in the node_modules
 * folders `require` would search (@openai/agents exports no ./package.json, so resolving it throws). A file the
 * exports give that is not the package's own manifest (@modelcontextprotocol/sdk maps `./*` into dist/cjs/, which
 * holds a package.json of its own) is not taken: the search finds the real one.
 */
export function packageJson(require: NodeRequire, name: string): string {
  let failure: unknown;
  try {
    const file = require.resolve(`${name}/package.json`);
    if ((JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === name) return file;
  } catch (error) {
    failure = error;
  }
  for (const dir of require.resolve.paths(name) ?? []) {
    const file = join(dir, name, 'package.json');
    if (existsSync(file)) return file;
  }
  throw failure ?? new Error(`no package.json of ${name} from ${require.resolve.paths(name)?.[0] ?? 'here'}`);
}

/**
 * Versions of `names` as loaded: the first (the framework's main package) resolved from `dir`; each other one from
 * `dir` when the install lists it itself, else from the main package's own folder, where its dependencies and peers
 * resolve (pnpm does not hoist them to the top), then from `dir`.
 */
function packageVersions(dir: string | undefined, names: readonly string[]): Record<string, string> {
  if (!dir || names.length === 0) return {};
  const out: Record<string, string> = {};
  const version = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  const fromDir = createRequire(join(dir, 'package.json'));
  let main: string;
  try {
    main = packageJson(fromDir, names[0]!);
  } catch {
    return out;
  }
  out[names[0]!] = version(main);
  const fromMain = createRequire(join(realpathSync(dirname(main)), 'package.json'));
  for (const name of names.slice(1)) {
    // A package the install lists itself (a pin's own dependency) is the one loaded; others come with the main one.
    const own = existsSync(join(dir, 'node_modules', name, 'package.json'));
    for (const require of own ? [fromDir] : [fromMain, fromDir]) {
      try {
        out[name] = version(packageJson(require, name));
        break;
      } catch {
        // not resolvable from here
      }
    }
  }
  return out;
}

/**
 * `packageVersions`, and the Node range the main package declares when this Node is outside of it (Mastra 1.x
 * declares >=22.13.0 and runs on Node 20): the reports say so.
 */
export function loadedPackages(dir: string | undefined, names: readonly string[]): Pick<LoadedVersion, 'packages' | 'nodeEngines'> {
  const packages = packageVersions(dir, names);
  if (!dir || names.length === 0 || packages[names[0]!] === undefined) return { packages };
  try {
    const main = packageJson(createRequire(join(dir, 'package.json')), names[0]!);
    const range = (JSON.parse(readFileSync(main, 'utf8')) as { engines?: { node?: string } }).engines?.node;
    if (!range || !semver.validRange(range) || semver.satisfies(process.version, range)) return { packages };
    return { packages, nodeEngines: { [names[0]!]: range } };
  } catch {
    return { packages };
  }
}

/** The last release of each minor line: 1.7.3 for 1.7. */
export function lastOfEachMinor(releases: readonly string[]): string[] {
  const last = new Map<string, string>();
  for (const v of releases.filter((r) => semver.valid(r) && !semver.prerelease(r)).sort(semver.compare)) {
    last.set(`${semver.major(v)}.${semver.minor(v)}`, v);
  }
  return [...last.values()];
}

export const stable = (releases: readonly string[]) =>
  releases.filter((r) => semver.valid(r) && !semver.prerelease(r)).sort(semver.compare);

/**
 * Pinned versions load from the workspace's pin packages, which are never published: an installed suite installs
 * them on demand like any other version, and says so.
 */
export const notPinnedHere = (name: string, version: string) =>
  `${name}@${version} is pinned only in the suite's workspace; here it installs on demand (once), like any other version`;

