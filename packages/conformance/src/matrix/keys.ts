// A unit's key: a digest of everything that can change its verdict, so that `run --reuse RESULTS` can copy a unit
// whose key matches instead of running it again. The parts:
//   suite    the suite's own code that runs a unit (core, the guard, the runner; not the reports' rendering) and,
//            in a clone, the workspace's lockfile, which pins every dependency and the frameworks' pinned versions
//   adapter  the framework's adapter package (not its reproductions' scripts), or a third party's folder
//   tree     the framework version's installed tree: `builtin` (the reference runtime), `workspace` (a version pinned in
//            a clone: the lockfile above covers it), or the digest of what its install in the cache holds: each
//            package's place, name, version and integrity, from its package-lock.json (never where or when it was
//            installed, so that two machines' installs of the same packages match)
//   node     the Node version, which schedules the microtasks every interleaving is made of
// and the unit itself (wiring, store, scenario, properties) with the exploration options. A part that cannot be known
// (a local build, a version not installed here) has no key: its units always run.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheRoot, type ExploreOptions } from '@approval-conformance/core';
import type { Unit } from './protocol.js';

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** Files that never change what a unit does: tests, their fixtures, type declarations, source maps. */
const IGNORED = /(\.test\.[cm]?[jt]s|\.fixtures\.[cm]?[jt]s|\.d\.[cm]?ts|\.map|\.tsbuildinfo)$/;

/**
 * Every file under `dir` but the ignored ones, `node_modules`, dot-folders and the `skip` folders (relative to `dir`),
 * each with its contents.
 */
export function digestFolder(dir: string, skip: readonly string[] = []): string {
  const hash = createHash('sha256');
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(at, entry.name);
      const rel = relative(dir, path).split(sep).join('/');
      if (entry.isDirectory()) {
        // Never installed packages, nor a folder of a tool's own (.git, .turbo): code is what a key is of.
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.') && !skip.includes(rel)) walk(path);
      } else if (entry.isFile() && !IGNORED.test(entry.name)) {
        hash.update(`${rel}\0${sha(readFileSync(path))}\n`);
      }
    }
  };
  walk(dir);
  return hash.digest('hex');
}

/** A package's root folder (where its package.json is) and the folder its entry loads from (`src` or `dist`). */
function packageCode(entry: string): { root: string; code: string } {
  let dir = dirname(entry);
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${entry}`);
    dir = up;
  }
  const first = relative(dir, entry).split(sep)[0]!;
  return { root: dir, code: join(dir, first) };
}

/** A package's code and manifest, by name (resolved as the runner loads it) or as a folder (a test's fixture). */
export function packageDigest(nameOrFolder: string, skip: readonly string[] = []): string {
  if (nameOrFolder.startsWith('/')) return digestFolder(nameOrFolder, skip);
  const { root, code } = packageCode(createRequire(import.meta.url).resolve(nameOrFolder));
  return sha(`${readFileSync(join(root, 'package.json'), 'utf8')}\0${digestFolder(code, skip)}`);
}

/** The workspace's lockfile, when the runner runs from a clone's source. */
function lockfile(): string | undefined {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith('.ts')) return undefined;
  const lock = join(dirname(here), '..', '..', '..', '..', 'pnpm-lock.yaml');
  return existsSync(lock) ? sha(readFileSync(lock)) : undefined;
}

let suite: string | undefined;

/** The suite part: core, the guard, the runner (not its reports' rendering, nor the reproductions), the lockfile. */
export function suiteDigest(): string {
  suite ??= sha(
    [
      packageDigest('@approval-conformance/core'),
      packageDigest('@approval-conformance/guard'),
      sha(`${readFileSync(join(packageCode(fileURLToPath(import.meta.url)).root, 'package.json'), 'utf8')}\0${digestFolder(packageCode(fileURLToPath(import.meta.url)).code, ['render', 'repro'])}`),
      lockfile() ?? 'no lockfile',
    ].join('\n'),
  );
  return suite;
}

/** Whether the runner runs from a clone's TypeScript source, where pinned versions load from the workspace. */
export const fromSource = () => fileURLToPath(import.meta.url).endsWith('.ts');

/** One entry of a package-lock.json's `packages`: what npm recorded of a package it installed. */
interface LockEntry {
  readonly name?: string;
  readonly version?: string;
  readonly integrity?: string;
  readonly link?: boolean;
  readonly resolved?: string;
  readonly dependencies?: Record<string, string>;
}

/**
 * An installed tree's digest, from its package-lock.json: each package's place in the tree (`node_modules/...`), name,
 * version and integrity hash, and what the install asked for. Nothing else: the lock's `name` is the temporary folder
 * npm installed into (a pid and a random suffix), and `resolved` names the registry it came through, so neither may
 * make two installs of the same packages differ. A package linked from outside the tree (the workspace's
 * better-sqlite3, which an install's `overrides` point at, so that its native binary is built once) is known by its
 * name and version, not by the relative path to where that clone or cache happens to be.
 */
export function lockDigest(text: string): string {
  const lock = JSON.parse(text) as { packages?: Record<string, LockEntry> };
  const nameOf = (path: string) => (path.includes('node_modules/') ? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length) : basename(path));
  const entries = Object.entries(lock.packages ?? {})
    .map(([path, e]) => {
      // What was asked for; a `file:` spec by its file's name, not by the folder it was in.
      if (path === '') return { path, asked: Object.entries(e.dependencies ?? {}).map(([n, spec]) => `${n}@${spec.startsWith('file:') ? `file:${basename(spec)}` : spec}`).sort() };
      // Outside the tree: a link's target, wherever it is.
      if (!path.startsWith('node_modules/')) return { path: `linked:${e.name ?? nameOf(path)}`, version: e.version ?? null };
      if (e.link) return { path, link: true };
      // No integrity (a git dependency): where it resolved to (its commit) is what tells two of one version apart.
      return { path, name: e.name ?? null, version: e.version ?? null, ...(e.integrity ? { integrity: e.integrity } : { resolved: e.resolved ?? null }) };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return sha(JSON.stringify(entries)).slice(0, 32);
}

/**
 * What a framework version loads, as a digest: `builtin`, `workspace`, `npm:<digest of what its install holds>`
 * (`lockDigest`); or undefined when it is a local build or not installed here (nothing to compare: its units run).
 */
export function treeOf(
  framework: { readonly name: string; readonly pinned: readonly string[]; readonly npm?: string | undefined; readonly givenAs?: string | undefined },
  version: string,
  source: string | undefined,
): string | undefined {
  if (source !== undefined) return undefined;
  // No npm package: the runtime is the adapter's own (the reference runtime, a toy), whose code is the adapter part.
  if (framework.npm === undefined) return 'builtin';
  // Pinned in a clone's workspace, which the lockfile covers: a built-in framework's pins, never a third party's.
  if (fromSource() && framework.givenAs === undefined && framework.pinned.includes(version)) return 'workspace';
  const lock = join(cacheRoot(), `${framework.name}@${version}`, 'package-lock.json');
  if (!existsSync(lock) || !statSync(lock).isFile()) return undefined;
  try {
    return `npm:${lockDigest(readFileSync(lock, 'utf8'))}`;
  } catch {
    // A lock that does not parse says nothing of the tree: its units run (and the install is checked when it loads).
    return undefined;
  }
}

/** The parts of a unit's key that are the same for every unit of one framework version. */
export interface KeyParts {
  readonly suite: string;
  readonly adapter: string;
  readonly tree: string;
  readonly node: string;
}

/** What of the exploration options can change a verdict (not the timeout, the jobs, the output). */
function explorationOf(options: ExploreOptions) {
  return {
    mode: options.mode ?? 'exhaustive',
    samples: options.mode === 'sampled' ? (options.samples ?? null) : null,
    seed: options.seed ?? null,
    maxSchedules: options.maxSchedules ?? null,
    reduce: options.reduce ?? true,
    // Core checks contents unless told not to: a unit explored with the option unset checked them.
    checkContents: options.checkContents ?? true,
  };
}

/** The unit's key: 32 hex digits. */
export function unitDigest(parts: KeyParts, unit: Pick<Unit, 'wiring' | 'store' | 'scenario' | 'properties'>, options: ExploreOptions): string {
  const what = { wiring: unit.wiring, store: unit.store, scenario: unit.scenario, properties: [...unit.properties] };
  return sha(JSON.stringify({ ...parts, unit: what, options: explorationOf(options) })).slice(0, 32);
}

/** A version's key parts, or why it has none: its units then always run, and keep no checkpoint. */
export function keyParts(
  fw: { readonly name: string; readonly pinned: readonly string[]; readonly npm?: string | undefined; readonly givenAs?: string | undefined; readonly adapter?: string | undefined },
  target: { readonly version: string; readonly source?: string | undefined },
  adapterDigests: Map<string, string>,
): KeyParts | string {
  if (fw.adapter === undefined) return 'its adapter has no package to digest, so it always runs';
  const tree = treeOf(fw, target.version, target.source);
  if (tree === undefined) {
    return target.source !== undefined ? 'a local build is never copied' : 'it is not installed here, so its installed tree cannot be compared (this run installs it)';
  }
  // Not its reproductions (repro/): they are scripts for outside the suite, and move no verdict.
  const adapter = adapterDigests.get(fw.adapter) ?? adapterDigests.set(fw.adapter, packageDigest(fw.adapter, ['repro'])).get(fw.adapter)!;
  return { suite: suiteDigest(), adapter, tree, node: process.version };
}
