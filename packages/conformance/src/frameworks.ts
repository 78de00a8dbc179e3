// What the runner does with the frameworks the registry knows (registry.ts): find one by name, expand a spec
// (`ai@6`, `ai@^6.0`, `ai@file:PATH`) into the versions it names, and load one version's adapter. It knows no
// framework itself: each descriptor says its versions and how one loads.
import semver from 'semver';
import { lastOfEachMinor, resolveVersion, SCENARIOS, stable, type Adapter, type LoadedVersion, type ScenarioId } from '@approval-conformance/core';
import { frameworks, pinnedList, type Framework } from './registry.js';

/** ` Pinned ...: X.` after a sentence, or nothing. */
const pinnedNote = (fw: Framework) => (pinnedList(fw) ? ` ${pinnedList(fw)}.` : '');
import { UsageError } from './usage-error.js';

import { provideServer } from './server.js';
export { adapterOf, BUILT_IN_ADAPTERS, commandAdapters, externalAdapters, frameworks, isExternal, useAdapters, useCommandAdapters, type Framework } from './registry.js';
export { lastOfEachMinor, stable };
export type Loaded = LoadedVersion;

type Log = (line: string) => void;

/** Every framework's name: the built-in ones, then those --adapter added. */
export const frameworkNames = () => frameworks().map((f) => f.name);

/** The frameworks the default matrix runs: every built-in one not `notInMatrix`. */
export const matrixFrameworkNames = () => frameworks().filter((f) => !f.notInMatrix && f.givenAs === undefined).map((f) => f.name);

export function framework(name: string): Framework {
  const found = frameworks().find((f) => f.name === name);
  if (!found) {
    const byNpm = frameworks().find((f) => f.npm === name);
    const hint = byNpm
      ? ` ${name}'s adapter is named ${byNpm.name}: --framework ${byNpm.name}.`
      : " A framework the suite does not cover plugs in with --adapter PACKAGE_OR_FOLDER (packages/core/ADAPTERS.md).";
    throw new UsageError(`unknown framework '${name}'.${hint} Frameworks: ${frameworkNames().join(', ')}.`);
  }
  return found;
}

export interface FrameworkSpec {
  readonly name: string;
  /** The version asked for, if any: exact, a range, `latest`. */
  readonly version: string | undefined;
}

export function parseFrameworkSpec(text: string): FrameworkSpec {
  // The first @ after the name's own (a scoped name starts with one); a file: path may hold more.
  const at = text.indexOf('@', text.startsWith('@') ? Math.max(1, text.indexOf('/')) : 1);
  const [name, version] = at > 0 ? [text.slice(0, at), text.slice(at + 1)] : [text, undefined];
  if (name === '' || version === '') throw new UsageError(`--framework takes NAME or NAME@VERSION, got '${text}'.`);
  return { name, version };
}

/** The framework's releases on the registry, or its pins when the registry cannot be asked. */
export async function releases(fw: Framework, log: Log): Promise<string[]> {
  return (await listedReleases(fw, log)) ?? [...fw.pinned];
}

/** The releases the registry lists, or undefined when it cannot be asked (then only the pinned versions are known). */
async function listedReleases(fw: Framework, log: Log): Promise<string[] | undefined> {
  if (fw.listReleases) return fw.listReleases();
  if (!fw.npm) return [...fw.pinned];
  try {
    const { npmView } = await import('@approval-conformance/core');
    const listed = await npmView<string[] | string>(fw.npm, ['versions']);
    return listed === undefined ? undefined : Array.isArray(listed) ? listed : [listed];
  } catch (error) {
    log(`cannot list ${fw.npm} releases (${(error as Error).message}); using the pinned versions`);
    return undefined;
  }
}

/**
 * The exact versions a spec names: the framework's default versions when none is given, the newest release for
 * `latest`, the version itself when exact, and the last release of each minor line in a range (`ai@6`, `^1.2`).
 */
export async function expandSpec(spec: FrameworkSpec, log: Log = () => {}): Promise<string[]> {
  return (await expandSpecToTargets(spec, log)).map((t) => t.version);
}

/** A version to run, and for a local build the folder it comes from. */
export interface VersionTarget {
  readonly version: string;
  readonly source?: string;
}

/**
 * As `expandSpec`, and `NAME@file:PATH` for a maintainer's local build: its version is the package.json's, marked
 * `+local` (`6.0.327+local`), so its cells never pass for a release's.
 */
export async function expandSpecToTargets(spec: FrameworkSpec, log: Log = () => {}): Promise<VersionTarget[]> {
  const fw = framework(spec.name);
  if (spec.version?.startsWith('file:')) {
    if (!fw.localName) throw new UsageError(`${fw.name} takes no file: build; it is built in.`);
    const { localPackage } = await import('@approval-conformance/core');
    try {
      const pkg = await localPackage(spec.version.slice('file:'.length), fw.localName);
      return [{ version: `${pkg.version}+local`, source: pkg.dir }];
    } catch (error) {
      throw new UsageError(`${(error as Error).message}.`);
    }
  }
  return (await expandReleases(fw, spec, log)).map((version) => ({ version }));
}

async function expandReleases(fw: Framework, spec: FrameworkSpec, log: Log): Promise<string[]> {
  const { version } = spec;
  if (version === undefined) return fw.defaults(await releases(fw, log));
  if (version === 'latest') {
    const newest = stable(await releases(fw, log)).at(-1) ?? fw.pinned[0];
    if (newest === undefined) throw new UsageError(`no release of ${spec.name} is published${fw.npm ? ` (${fw.npm})` : ''}, or the registry could not be asked.`);
    return [newest];
  }
  if (fw.pinned.includes(version)) return [version];
  if (!fw.npm) {
    throw new UsageError(`${fw.name} is only available at version ${fw.pinned.join(', ')} (it is built in), not '${version}'.`);
  }
  if (semver.valid(version)) {
    // A version the registry does not list is a mistake in the command, not a version that failed to install.
    const listed = await listedReleases(fw, log);
    if (listed && !listed.includes(version)) {
      const newest = stable(listed).at(-1);
      const major = newest ?? fw.pinned[0];
      const range = major === undefined ? '' : `a range (${spec.name}@${semver.major(major)}) `;
      const pinned = pinnedList(fw);
      throw new UsageError(
        `${fw.npm}@${version} is not published${newest ? ` (the newest is ${newest})` : ''}. Name a published version, ${range}or ${spec.name}@latest${pinned ? `; ${pinned.replace(/^P/, 'p')}` : ''}.`,
      );
    }
    return [version];
  }
  if (semver.validRange(version) === null) {
    // One clear line naming the fix, from the same check the installers use.
    try {
      await resolveVersion(fw.npm, version, fw.pinned[0]);
    } catch (error) {
      throw new UsageError(`${(error as Error).message}.${pinnedNote(fw)}`);
    }
  }
  const inRange = lastOfEachMinor(stable(await releases(fw, log)).filter((v) => semver.satisfies(v, version)));
  if (inRange.length === 0) {
    throw new UsageError(`no published ${spec.name} version is in '${version}'.${pinnedNote(fw)}`);
  }
  return inRange;
}

/**
 * What one of a framework's default versions (`versions`) runs, narrower than the run's filters: everything but the
 * framework's `newestOnly` wirings and stores, and the scenarios that say `newestOnly`, on all but the newest (of the
 * version's line, where the framework has several);
 * undefined where nothing is left out. A filter the user gave (`asked`) wins: what it names runs on every version.
 * `running` is the run's scenarios, when the user named none (the defaults).
 */
export function defaultScope(
  fw: Framework,
  version: string,
  versions: readonly string[],
  shape: { readonly wirings: readonly string[]; readonly stores: readonly string[] },
  asked: { readonly wirings?: readonly string[]; readonly stores?: readonly string[] },
  running?: readonly ScenarioId[],
): { wirings?: string[]; stores?: string[]; scenarios?: ScenarioId[] } | undefined {
  const only = fw.newestOnly;
  const peers = fw.line && semver.valid(version) ? versions.filter((v) => semver.valid(v) && fw.line!(v) === fw.line!(version)) : versions;
  const newest = semver.rsort(peers.filter((v) => semver.valid(v)))[0];
  const everywhere = fw.defaultWirings && !asked.wirings ? shape.wirings.filter((w) => fw.defaultWirings!.includes(w)) : undefined;
  if (newest === undefined || version === newest) return everywhere ? { wirings: everywhere } : undefined;
  const wirings = only?.guarded && !asked.wirings ? (everywhere ?? shape.wirings).filter((w) => !w.startsWith('guarded-')) : everywhere;
  const stores = only?.stores && !asked.stores ? shape.stores.filter((s) => !only.stores!.includes(s)) : undefined;
  const kept = running?.filter((s) => !SCENARIOS.get(s)?.newestOnly);
  const scenarios = kept && kept.length < running!.length ? kept : undefined;
  if (!wirings && !stores && !scenarios) return undefined;
  return { ...(wirings ? { wirings } : {}), ...(stores ? { stores } : {}), ...(scenarios ? { scenarios } : {}) };
}

/** One framework version's adapter: `loadAdapter({ name: 'ai', version: '6.0.326' })`. */
export async function loadAdapter(spec: FrameworkSpec, log: Log = () => {}): Promise<Adapter> {
  const fw = framework(spec.name);
  const versions = spec.version === undefined ? (fw.pinned[0] === undefined ? await expandSpec({ ...spec, version: 'latest' }, log) : [fw.pinned[0]]) : await expandSpec(spec, log);
  if (versions.length !== 1) {
    throw new UsageError(`${spec.name}@${spec.version} names ${versions.length} versions (${versions.join(', ')}); give one.`);
  }
  await provideServer(fw);
  return (await fw.load(versions[0]!, log)).adapter;
}

/**
 * A results file's framework that came from a third party's adapter, not loaded here: a usage error that says which
 * `--adapter` its results recorded, rather than "unknown framework".
 */
export function needsAdapter(name: string, targets: readonly { readonly framework: string; readonly adapter?: string }[]): void {
  if (frameworks().some((f) => f.name === name)) return;
  const adapter = targets.find((t) => t.framework === name && t.adapter !== undefined)?.adapter;
  if (adapter !== undefined) {
    throw new UsageError(`${name} comes from a third party's adapter, which these results record as ${adapter}: give it again with --adapter ${adapter}.`);
  }
}

/**
 * The adapter a results cell ran on. A local build's cell (`6.0.327+local`) loads from the path its results recorded
 * in the target's spec (`ai@file:PATH`), so it replays as long as the build is still there.
 */
export async function loadCellAdapter(
  cell: { readonly framework: string; readonly version: string },
  targets: readonly { readonly framework: string; readonly version: string; readonly spec: string; readonly source?: string; readonly adapter?: string }[] = [],
  log: Log = () => {},
): Promise<Adapter> {
  needsAdapter(cell.framework, targets);
  if (!cell.version.endsWith('+local')) return loadAdapter({ name: cell.framework, version: cell.version }, log);
  const fw = framework(cell.framework);
  const source = targets.find((t) => t.framework === cell.framework && t.version === cell.version)?.source;
  if (!source || !fw.localName) {
    throw new UsageError(
      `${cell.framework}@${cell.version} is a local build and the results do not say where it was; run it again with --framework ${cell.framework}@file:PATH.`,
    );
  }
  const { localPackage } = await import('@approval-conformance/core');
  const pkg = await localPackage(source, fw.localName).catch((error: Error) => {
    // Gone, or there but not loadable as it is now (not built, its dependencies missing): the message says which.
    throw new UsageError(`${cell.framework}@${cell.version} ran from ${source}, which does not load now: ${error.message.replace(/\.$/, '')}.`);
  });
  if (`${pkg.version}+local` !== cell.version) {
    throw new UsageError(`${source} is now ${fw.localName}@${pkg.version}, not the ${cell.version} these results ran; run it again.`);
  }
  await provideServer(fw);
  const { adapter } = await fw.load(cell.version, log, pkg.dir);
  return { ...adapter, version: cell.version };
}
