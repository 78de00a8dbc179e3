// The frameworks the runner knows, each from its adapter package's descriptor (core's kit: `FrameworkDescriptor`):
// the built-in ones, named by package in this package's package.json in the order the default matrix runs them (the
// quick ones first, so an interrupted run has the most versions), and a third party's, loaded with `--adapter`. The runner knows nothing
// else of any framework: everything framework-specific is in its adapter package.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CONTRACT_VERSION, type FrameworkDescriptor, type LoadedVersion, type Log } from '@approval-conformance/core';
import { RunFailure } from './run-failure.js';
import { UsageError } from './usage-error.js';

/**
 * The built-in adapters, by package name, in the order the default matrix runs them: `approvalConformance.adapters`
 * in this package's package.json, each also one of its dependencies.
 */
export const BUILT_IN_ADAPTERS: readonly string[] = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { approvalConformance: { adapters: string[] } }
).approvalConformance.adapters;

/** A descriptor as the runner holds it: with where it came from, and its load's errors said as the runner's. */
export interface Framework extends FrameworkDescriptor {
  /**
   * Its adapter's code, whose digest is part of its units' keys (`run --reuse`): a built-in's package name, or a
   * third party's folder. None for a descriptor given as a lone module file: its units always run.
   */
  readonly adapter?: string;
  /** How `--adapter` named it (a folder, a file, a package name), for a third party's. */
  readonly givenAs?: string;
  /**
   * Where a third party's adapter is, as results record it for the commands that read them (`replay` needs it
   * again): its npm name when it was found by name, else its absolute folder or file.
   */
  readonly origin?: string;
}

const where = (spec: string) => `--adapter ${spec}`;
const SEE = 'See packages/core/ADAPTERS.md, "Describing a framework".';
const NAME = /^[a-z][a-z0-9-]*$/;

/** What is wrong with a descriptor, in one sentence, or undefined. */
function problem(d: unknown): string | undefined {
  if (d === null || typeof d !== 'object') return `its descriptor is ${d === null ? 'null' : typeof d}, not an object`;
  const o = d as Record<string, unknown>;
  if (o['contractVersion'] !== CONTRACT_VERSION) {
    return o['contractVersion'] === undefined
      ? `its descriptor declares no contractVersion; this suite reads contract version ${CONTRACT_VERSION} (set contractVersion: CONTRACT_VERSION, from @approval-conformance/core/kit)`
      : `its descriptor declares contract version ${String(o['contractVersion'])}, and this suite reads version ${CONTRACT_VERSION}: update the adapter to version ${CONTRACT_VERSION}, or run it with the suite it was written for`;
  }
  if (typeof o['name'] !== 'string' || !NAME.test(o['name'])) {
    return `its descriptor's name is ${JSON.stringify(o['name'])}; a name is lowercase letters, digits and dashes, starting with a letter`;
  }
  const pinned = o['pinned'];
  if (!Array.isArray(pinned) || !pinned.every((v) => typeof v === 'string')) return `its descriptor's pinned is not a list of versions`;
  for (const field of ['oldest'] as const) if (typeof o[field] !== 'string') return `its descriptor has no ${field} (a version)`;
  for (const field of ['defaults', 'shape', 'load'] as const) if (typeof o[field] !== 'function') return `its descriptor's ${field} is not a function`;
  for (const field of ['npm', 'localName'] as const) if (o[field] !== undefined && typeof o[field] !== 'string') return `its descriptor's ${field} is not a string`;
  for (const field of ['listReleases', 'line'] as const) if (o[field] !== undefined && typeof o[field] !== 'function') return `its descriptor's ${field} is not a function`;
  const wirings = o['defaultWirings'];
  if (wirings !== undefined && (!Array.isArray(wirings) || !wirings.every((w) => typeof w === 'string'))) return `its descriptor's defaultWirings is not a list of wiring ids`;
  if (o['server'] !== undefined && o['server'] !== 'postgres') return `its descriptor's server is ${JSON.stringify(o['server'])}; the one server the runner can give is 'postgres'`;
  const weight = o['auditWeight'];
  if (weight !== undefined && (typeof weight !== 'number' || !(weight > 0))) return `its descriptor's auditWeight is not a positive number`;
  const repro = o['repro'] as Record<string, unknown> | undefined;
  if (repro !== undefined && (typeof repro !== 'object' || typeof repro?.['app'] !== 'function' || typeof repro['dependencies'] !== 'function' || typeof repro['packageName'] !== 'string')) {
    return `its descriptor's repro is not a FrameworkRepro (packageName, dependencies and app)`;
  }
  return undefined;
}

/** A framework's pinned versions, for a message (`Pinned in the workspace: 1.7.3, 0.2.74`): none, undefined. */
export const pinnedList = (fw: Pick<Framework, 'pinned' | 'givenAs'>): string | undefined =>
  fw.pinned.length === 0 ? undefined : `${fw.givenAs === undefined ? 'Pinned in the workspace' : 'Pinned by its adapter'}: ${fw.pinned.join(', ')}`;

/** An installer's error as the runner says it: bad input is a usage error, a failed install a run failure. */
function loadProblem(fw: Framework, version: string, error: unknown): unknown {
  // By name, not class: a third party's adapter may bring its own copy of core.
  const name = (error as Error | undefined)?.name;
  const message = (error as Error | undefined)?.message ?? String(error);
  if (name === 'AdapterInputError') return new UsageError(message);
  if (name !== 'InstallError') return fw.givenAs === undefined ? error : adapterThrew(fw, 'load', error);
  if (/not a version|not published|older than/.test(message)) {
    const pinned = pinnedList(fw);
    return new UsageError(`${message}.${pinned ? ` ${pinned}; other published versions install.` : ''}`);
  }
  return new RunFailure(`could not install ${fw.name}@${version}: ${message}`);
}

/** A third party's descriptor threw: bad input to the suite, said with the adapter and the fix. */
const adapterThrew = (fw: Framework, what: string, error: unknown) =>
  new UsageError(`${where(fw.givenAs!)}: its descriptor's ${what} threw: ${(error as Error)?.message ?? String(error)}. Fix the adapter (or build it again).`);

/**
 * `d` with where it came from, and a load whose errors are the runner's. Its getters and `this` stay its own. A third
 * party's other calls (`shape`, `defaults`, `listReleases`) are wrapped too: what they throw is the adapter's
 * problem, said as such, never the suite's "internal error".
 */
function registered(d: FrameworkDescriptor, adapter: string | undefined, givenAs?: string, origin?: string): Framework {
  const fw = Object.create(d) as Framework;
  const guarded = <A extends unknown[], R>(what: string, call: ((...args: A) => R) | undefined) =>
    call === undefined || givenAs === undefined
      ? {}
      : {
          [what]: {
            value: (...args: A): R => {
              let out: R;
              try {
                out = call.apply(fw, args);
              } catch (error) {
                throw adapterThrew(fw, `${what}()`, error);
              }
              return out instanceof Promise ? (out.catch((error: unknown) => Promise.reject(adapterThrew(fw, `${what}()`, error))) as R) : out;
            },
          },
        };
  Object.defineProperties(fw, {
    adapter: { value: adapter, enumerable: true },
    givenAs: { value: givenAs, enumerable: true },
    origin: { value: origin, enumerable: true },
    load: {
      value: async (version: string, log: Log, source?: string): Promise<LoadedVersion> => {
        let loaded: LoadedVersion;
        try {
          loaded = await d.load.call(fw, version, log, source);
        } catch (error) {
          throw loadProblem(fw, version, error);
        }
        // Cells are named after the adapter's framework: it must be the name the runner knows it by.
        if (loaded?.adapter?.framework !== d.name) {
          throw new UsageError(
            `${givenAs === undefined ? adapter : where(givenAs)}: its descriptor is named '${d.name}', and the adapter its load gave says framework '${String(loaded?.adapter?.framework)}'. Make them the same.`,
          );
        }
        return loaded;
      },
    },
    ...guarded('shape', d.shape),
    ...guarded('defaults', d.defaults),
    ...guarded('listReleases', d.listReleases),
    ...guarded('line', d.line),
  });
  return fw;
}

const registry: Framework[] = [];
/** The third parties' adapters as loaded (absolute), in order, with their frameworks' names: a worker loads the same. */
const external = new Map<string, readonly string[]>();

for (const pkg of BUILT_IN_ADAPTERS) {
  const d = ((await import(`${pkg}/descriptor`)) as { descriptor: FrameworkDescriptor }).descriptor;
  const wrong = problem(d);
  // A built-in's descriptor is the suite's own: wrong, it is a bug here, not the user's input.
  if (wrong) throw new Error(`${pkg}: ${wrong}`);
  registry.push(registered(d, pkg));
}

/** Every framework: the built-in ones in matrix order, then those --adapter added. */
export const frameworks = (): readonly Framework[] => registry;

/** The `--adapter` values loaded in this process, absolute. */
export const externalAdapters = (): readonly string[] => [...external.keys()];

/** The adapter a framework came from (absolute), for a worker of its versions to load: none for a built-in. */
export const adapterOf = (name: string): string | undefined => [...external].find(([, names]) => names.includes(name))?.[0];

/** The frameworks this command's own `--adapter`s describe (a process may have loaded others before: the API). */
let given: string[] = [];
export const commandAdapters = (): readonly string[] => given;

/** Whether a framework came from `--adapter`. */
export const isExternal = (fw: Framework) => fw.givenAs !== undefined;

/**
 * The conditions an entry's `exports` are read with: those of `import` in Node, and the workspace's own source
 * condition when the runner runs from source (a test's adapter written in TypeScript).
 */
const CONDITIONS = [...(fileURLToPath(import.meta.url).endsWith('.ts') ? ['@approval-conformance/source'] : []), 'import', 'node', 'default'];

/** An `exports` entry's file, as Node resolves it: the first key, in the object's order, of a condition it has. */
function target(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (Array.isArray(entry)) return entry.map(target).find((t) => t !== undefined);
  if (entry && typeof entry === 'object') {
    for (const [condition, value] of Object.entries(entry)) {
      if (!CONDITIONS.includes(condition)) continue;
      const found = target(value);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The module a package folder's descriptor comes from: its `./descriptor` export, else its main entry. */
function entryOf(dir: string, spec: string): string {
  let pkg: { exports?: unknown; main?: string };
  try {
    pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as typeof pkg;
  } catch (error) {
    throw new UsageError(`${where(spec)}: ${join(dir, 'package.json')} is not readable JSON (${(error as Error).message}).`);
  }
  const { exports } = pkg;
  const paths = exports && typeof exports === 'object' && !Array.isArray(exports) && Object.keys(exports).some((k) => k.startsWith('.'));
  const entry = paths ? target((exports as Record<string, unknown>)['./descriptor'] ?? (exports as Record<string, unknown>)['.']) : exports !== undefined ? target(exports) : (pkg.main ?? 'index.js');
  if (entry === undefined) {
    throw new UsageError(`${where(spec)}: its package.json exports neither './descriptor' nor '.' for import. Export the module that exports \`descriptor\`. ${SEE}`);
  }
  return join(dir, entry);
}

/** The folder of the package `name` installed next to the runner (or in the working folder's node_modules). */
function installedPackage(name: string): string | undefined {
  const here = createRequire(import.meta.url).resolve.paths(name) ?? [];
  const cwd = createRequire(join(process.cwd(), 'package.json')).resolve.paths(name) ?? [];
  for (const dir of [...here, ...cwd]) {
    if (existsSync(join(dir, name, 'package.json'))) return realpathSync(join(dir, name));
  }
  return undefined;
}

/** The built-in adapter package that is this folder, if one is. */
function builtInAt(folder: string): string | undefined {
  const { name } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: string };
  if (name === undefined || !BUILT_IN_ADAPTERS.includes(name)) return undefined;
  let dir = dirname(fileURLToPath(import.meta.resolve(`${name}/descriptor`)));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return realpathSync(dir) === folder ? name : undefined;
}

/** Where `spec` is: a module file, a package folder, or an installed package's folder. */
function locate(spec: string): { readonly file: string; readonly folder?: string; readonly byName?: true } {
  const given = resolve(spec);
  if (existsSync(given)) {
    // One adapter by any path to it (a symlink, a name installed where a folder points) is one adapter.
    const path = realpathSync(given);
    if (statSync(path).isFile()) return { file: path };
    if (!existsSync(join(path, 'package.json'))) {
      throw new UsageError(`${where(spec)}: ${path} is a folder with no package.json. Give the adapter package's folder (where its package.json is), its descriptor's module file, or its npm name.`);
    }
    return { file: entryOf(path, spec), folder: path };
  }
  if (/^[./~]/.test(spec) || spec.includes('\\')) {
    throw new UsageError(`${where(spec)}: no such file or folder (${given}).`);
  }
  const folder = installedPackage(spec);
  if (folder === undefined) {
    throw new UsageError(
      `${where(spec)}: no package '${spec}' is installed next to approval-conformance or in ./node_modules, and there is no such folder here. Install it where approval-conformance is installed (npm install ${spec}), or give its folder.`,
    );
  }
  return { file: entryOf(folder, spec), folder, byName: true };
}

/**
 * Loads each `--adapter` (a package folder, a module file or an installed package's name) and adds its frameworks.
 * Loading the same one twice adds it once. Bad input of any kind is one UsageError naming the adapter and the fix.
 */
export async function useAdapters(specs: readonly string[]): Promise<string[]> {
  const names: string[] = [];
  for (const spec of specs) {
    const { file, folder, byName } = locate(spec);
    // A built-in adapter's own package (a checkout's path to it) is already here: its frameworks, as they are.
    const builtIn = folder === undefined ? undefined : builtInAt(folder);
    if (builtIn !== undefined) {
      names.push(...registry.filter((f) => f.givenAs === undefined && f.adapter === builtIn).map((f) => f.name));
      continue;
    }
    const key = folder ?? file;
    const before = external.get(key);
    if (before) {
      names.push(...before);
      continue;
    }
    if (!existsSync(file)) {
      throw new UsageError(`${where(spec)}: its entry ${file} does not exist. Build the adapter first (npm run build), or fix its package.json's exports.`);
    }
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } catch (error) {
      throw new UsageError(`${where(spec)}: ${file} threw while it loaded: ${(error as Error)?.message ?? String(error)}. Fix the error (or build the adapter again).`);
    }
    const many = module['descriptors'];
    const found = module['descriptor'] !== undefined ? [module['descriptor']] : Array.isArray(many) ? many : undefined;
    if (found === undefined || found.length === 0) {
      throw new UsageError(`${where(spec)}: ${file} exports no \`descriptor\`. An adapter exports \`descriptor\` (a FrameworkDescriptor) from its ./descriptor entry or its main one. ${SEE}`);
    }
    const added: Framework[] = [];
    for (const d of found as FrameworkDescriptor[]) {
      const wrong = problem(d);
      if (wrong) throw new UsageError(`${where(spec)}: ${wrong}. ${SEE}`);
      const clash = [...registry, ...added].find((f) => f.name === d.name);
      if (clash) {
        throw new UsageError(
          `${where(spec)}: its framework is named '${d.name}', ${clash.givenAs === undefined ? 'as a built-in framework is' : `as the one ${where(clash.givenAs)} gave is`}. Give it a name of its own.`,
        );
      }
      added.push(registered(d, folder, spec, byName ? spec : (folder ?? file)));
    }
    registry.push(...added);
    external.set(key, added.map((f) => f.name));
    names.push(...added.map((f) => f.name));
  }
  return [...new Set(names)];
}

/** What `main` loaded for this command's `--adapter`s: `run` with no `--framework` runs their frameworks. */
export async function useCommandAdapters(specs: readonly string[]): Promise<void> {
  given = [];
  given = await useAdapters(specs);
}
