// The frameworks the runner knows: how each loads a version, which versions the published matrix runs, and which
// packages make up an installed version. Adapters load lazily, so a framework that fails to import breaks only its
// own cells.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import semver from 'semver';
import { InstallError, resolveVersion, SCENARIOS, type Adapter, type ScenarioId } from '@approval-conformance/core';
import { RunFailure } from './run-failure.js';
import { UsageError } from './usage-error.js';

export interface Loaded {
  readonly adapter: Adapter;
  /** The exact versions of the framework's packages and peers, as loaded. */
  readonly packages: Readonly<Record<string, string>>;
  /** The Node range the main package declares, by package, when this Node is outside of it (it runs anyway). */
  readonly nodeEngines?: Readonly<Record<string, string>>;
}

type Log = (line: string) => void;

export interface Framework {
  readonly name: string;
  /** The npm package whose releases are the framework's versions; none for the built-in reference. */
  readonly npm?: string;
  /**
   * The adapter package (a name, or a folder for a test's fixture), whose code is part of its units' keys
   * (`run --reuse`); without it, its units always run.
   */
  readonly adapter?: string;
  /** Versions in the workspace, newest first: they load without installing anything. */
  readonly pinned: readonly string[];
  /** The first version the adapter drives. */
  readonly oldest: string;
  /** Its releases, when they do not come from the registry's list for `npm` (a test's fixture framework). */
  listReleases?(): Promise<string[]>;
  /** The published default matrix's versions, from the releases listed on the registry. */
  defaults(releases: readonly string[]): string[];
  /**
   * What the default versions run only on the newest of them: the approval guard's wirings (`guarded-*`), whose
   * verdicts are the same on every version, and stores that duplicate another's verdicts. It keeps the default matrix
   * in its 10 minutes; `--wiring` or `--store` naming them, or `NAME@VERSION`, runs them anywhere.
   */
  readonly newestOnly?: { readonly guarded?: boolean; readonly stores?: readonly string[] };
  /**
   * The wirings the default matrix runs, where it cannot run them all within its 10 minutes (the others' cells cost
   * minutes each); `--wiring` naming the others, or `NAME@VERSION`, runs them.
   */
  readonly defaultWirings?: readonly string[];
  /** Every wiring and store the adapter has in some version: what --wiring and --store may name. */
  shape(): Promise<{ readonly wirings: readonly string[]; readonly stores: readonly string[] }>;
  /** `source` is a local build's folder (`NAME@file:PATH`), for frameworks that take one. */
  load(version: string, log: Log, source?: string): Promise<Loaded>;
  /** The npm package name a local build's package.json must have, for frameworks that take `file:PATH`. */
  readonly localName?: string;
  /**
   * Left out of the default matrix (`run` with no `--framework`, the API's default list): its verdicts are not ready
   * to publish. Naming it runs it; `FRAMEWORK_NAMES` still lists it.
   */
  readonly notInMatrix?: true;
}

/**
 * Where `name`'s package.json is for `require`: through its exports when they list it, else in the node_modules
 * folders `require` would search (@openai/agents exports no ./package.json, so resolving it throws).
 */
function packageJson(require: NodeRequire, name: string): string {
  try {
    return require.resolve(`${name}/package.json`);
  } catch (error) {
    for (const dir of require.resolve.paths(name) ?? []) {
      const file = join(dir, name, 'package.json');
      if (existsSync(file)) return file;
    }
    throw error;
  }
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
function loadedPackages(dir: string | undefined, names: readonly string[]): Pick<Loaded, 'packages' | 'nodeEngines'> {
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

/** Turns the installers' errors into the runner's: bad input is a usage error, a failed install a run failure. */
async function installing<T>(name: string, version: string, pinned: readonly string[], install: () => Promise<T>) {
  try {
    return await install();
  } catch (error) {
    if (!(error instanceof InstallError)) throw error;
    if (/not a version|not published|older than/.test(error.message)) {
      throw new UsageError(`${error.message}. Pinned in the workspace: ${pinned.join(', ')}; other published versions install.`);
    }
    throw new RunFailure(`could not install ${name}@${version}: ${error.message}`);
  }
}

/**
 * Pinned versions load from the workspace's pin packages, which are never published: an installed suite installs
 * them on demand like any other version, and says so.
 */
const notPinnedHere = (name: string, version: string) =>
  `${name}@${version} is pinned only in the suite's workspace; here it installs on demand (once), like any other version`;

/**
 * The reference runtime's one version: its package's, as the adapter reports it (a release moves it; a version written
 * here once left every reference cell an error after the first `changeset version`).
 */
let referenceVersion: string | undefined;
const builtIn = (): string =>
  (referenceVersion ??= (
    JSON.parse(readFileSync(packageJson(createRequire(import.meta.url), '@approval-conformance/adapter-reference'), 'utf8')) as { version: string }
  ).version);

const REFERENCE: Framework = {
  name: 'reference',
  adapter: '@approval-conformance/adapter-reference',
  get pinned() {
    return [builtIn()];
  },
  get oldest() {
    return builtIn();
  },
  defaults: () => [builtIn()],
  async shape() {
    const { referenceAdapter, STORES } = await import('@approval-conformance/adapter-reference');
    return { wirings: referenceAdapter.wirings.map((w) => w.id), stores: STORES };
  },
  async load(version) {
    const { referenceAdapter } = await import('@approval-conformance/adapter-reference');
    if (version !== referenceAdapter.version) {
      throw new UsageError(`reference is only available at version ${referenceAdapter.version} (it is built in), not '${version}'.`);
    }
    return { adapter: referenceAdapter, packages: {} };
  },
};

const LANGGRAPH_PACKAGES = [
  '@langchain/langgraph',
  '@langchain/core',
  '@langchain/langgraph-checkpoint',
  '@langchain/langgraph-checkpoint-sqlite',
  '@langchain/langgraph-checkpoint-postgres',
];

const LANGGRAPH: Framework = {
  name: 'langgraph',
  adapter: '@approval-conformance/adapter-langgraph',
  npm: '@langchain/langgraph',
  pinned: ['1.7.3', '0.2.74'],
  oldest: '0.2.0',
  // The first and the latest minor lines' last releases, and both sides of every place a verdict changes: 0.3.12 and
  // 0.4.10 (interrupts get ids: resume-by-id runs from 0.4), 1.5.3 and 1.7.3 (strict resume, 1.7). The last release
  // of every minor line since 0.2 (ten versions) no longer fit the matrix's 10 minutes with the LangGraph server's row;
  // the five left out (1.0.15, 1.1.5, 1.2.9, 1.3.7, 1.4.21) gave the same verdict and the same shortest length as
  // 0.4.10 and 1.5.3 in every cell (reports/ at a66d0be). `langgraph@^1.2` runs the last of each minor line in a range.
  defaults: (releases) => {
    const last = lastOfEachMinor(stable(releases).filter((v) => semver.gte(v, '0.2.0')));
    const lineOf = (v: string) => `${semver.major(v)}.${semver.minor(v)}`;
    const keep = new Set(['0.2', '0.3', '0.4', '1.5', '1.7']);
    const newest = last.at(-1);
    return last.filter((v) => keep.has(lineOf(v)) || v === newest);
  },
  // The guarded wirings gave the same verdicts on all ten default versions (reports/ at c1220e5).
  newestOnly: { guarded: true },
  async shape() {
    const { WIRINGS } = await import('@approval-conformance/adapter-langgraph');
    return { wirings: WIRINGS.map((w) => w.id), stores: ['memory', 'sqlite', 'postgres'] };
  },
  localName: '@langchain/langgraph',
  async load(version, log, source) {
    const lg = await import('@approval-conformance/adapter-langgraph');
    const line = source === undefined ? lg.PINNED_VERSIONS[version] : undefined;
    const pinned = line === undefined ? undefined : await lg.pinnedLibIfPresent(line);
    if (line !== undefined && pinned === undefined) log(notPinnedHere('langgraph', version));
    const lib = pinned ?? (await installing('langgraph', version, this.pinned, () => lg.installedLib(version, log, source)));
    return { adapter: await lg.langgraphAdapter(lib), ...loadedPackages(lib.dir, LANGGRAPH_PACKAGES) };
  },
};

const AI_PACKAGES = ['ai', '@ai-sdk/provider', '@ai-sdk/provider-utils', 'zod'];

const AI: Framework = {
  name: 'ai',
  adapter: '@approval-conformance/adapter-ai-sdk',
  npm: 'ai',
  pinned: ['7.0.185', '6.0.326', '5.0.277'],
  oldest: '5.0.0',
  // The last 5.x, and for every later major its first release and its last.
  defaults(releases) {
    const all = stable(releases).filter((v) => semver.gte(v, '5.0.0'));
    const majors = [...new Set(all.map((v) => semver.major(v)))];
    return majors.flatMap((major) => {
      const line = all.filter((v) => semver.major(v) === major);
      const first = line[0]!;
      const last = line[line.length - 1]!;
      return major === 5 || first === last ? [last] : [first, last];
    });
  },
  async shape() {
    const { WIRINGS } = await import('@approval-conformance/adapter-ai-sdk');
    return { wirings: WIRINGS.map((w) => w.id), stores: ['memory', 'sqlite'] };
  },
  localName: 'ai',
  async load(version, log, source) {
    const sdk = await import('@approval-conformance/adapter-ai-sdk');
    const line = source === undefined ? sdk.PINNED_VERSIONS[version] : undefined;
    const pinned = line === undefined ? undefined : await sdk.pinnedLibIfPresent(line);
    if (line !== undefined && pinned === undefined) log(notPinnedHere('ai', version));
    const lib =
      pinned ??
      (source !== undefined
        ? await installing('ai', version, this.pinned, () => sdk.localLib(source, log))
        : await installing('ai', version, this.pinned, () => sdk.installedLib(version, log)));
    return { adapter: await sdk.aiSdkAdapter(lib), ...loadedPackages(lib.dir, AI_PACKAGES) };
  },
};

const OPENAI_AGENTS_PACKAGES = ['@openai/agents', '@openai/agents-core', '@openai/agents-openai', 'zod'];

const OPENAI_AGENTS: Framework = {
  name: 'openai-agents',
  adapter: '@approval-conformance/adapter-openai-agents',
  npm: '@openai/agents',
  pinned: ['0.20.0', '0.14.3'],
  oldest: '0.0.1',
  // Every release where a verdict changes, and the latest (bisect; the README says how): 0.1.1 is the first whose
  // tools are told which call they run (0.0.x and 0.1.0 are n/a), 0.14.2 → 0.14.3 is where a retry after a crash on a
  // durable store stops telling the user the action ran, and 0.14.3 is also the last release before approvals were
  // bound to their arguments. The last release of each minor line (21) would not fit the matrix's 10 minutes.
  defaults: (releases) => ['0.1.1', '0.14.2', '0.14.3', '0.20.0'].filter((v) => releases.includes(v)),
  async shape() {
    const { WIRINGS } = await import('@approval-conformance/adapter-openai-agents');
    return { wirings: WIRINGS.map((w) => w.id), stores: ['memory', 'sqlite'] };
  },
  localName: '@openai/agents',
  async load(version, log, source) {
    const oa = await import('@approval-conformance/adapter-openai-agents');
    const line = source === undefined ? oa.PINNED_VERSIONS[version] : undefined;
    const pinned = line === undefined ? undefined : await oa.pinnedLibIfPresent(line);
    if (line !== undefined && pinned === undefined) log(notPinnedHere('openai-agents', version));
    const lib =
      pinned ??
      (source !== undefined
        ? await installing('openai-agents', version, this.pinned, () => oa.localLib(source, log))
        : await installing('openai-agents', version, this.pinned, () => oa.installedLib(version, log)));
    return { adapter: await oa.openaiAgentsAdapter(lib), ...loadedPackages(lib.dir, OPENAI_AGENTS_PACKAGES) };
  },
};

const MASTRA_PACKAGES = ['@mastra/core', '@mastra/libsql', '@libsql/client', 'zod'];

const MASTRA: Framework = {
  name: 'mastra',
  adapter: '@approval-conformance/adapter-mastra',
  npm: '@mastra/core',
  pinned: ['1.71.0', '1.0.4'],
  oldest: '0.18.0',
  // The first version with tool approvals, the latest, and every release where a verdict changes, found with bisect
  // (the README says how; 70-odd minor lines would not fit the matrix's 10 minutes): 0.18.0 (the workflow rows; its
  // agent approves only on a stream, n/a), 1.0.4 (the first with approveToolCallGenerate), 1.51.0 (checks the tool
  // call id an approval names: before it, a stale approval of a1 approved the follow-up call a1.2; and a workflow
  // resume no longer marks the run running before the step, so a retry after a crash runs it again) and 1.61.0
  // (claims a workflow run before it resumes it: before it, two resumes both ran the step).
  defaults: (releases) => ['0.18.0', '1.0.4', '1.51.0', '1.61.0', '1.71.0'].filter((v) => releases.includes(v)),
  // The guarded wirings gave the same verdicts on all five default versions, and `libsql` (one process) the same as
  // `libsql-shared` (two) in every cell (reports/ at c1220e5): on the older versions the matrix runs neither.
  newestOnly: { guarded: true, stores: ['libsql'] },
  async shape() {
    const { WIRINGS, STORES } = await import('@approval-conformance/adapter-mastra');
    return { wirings: WIRINGS.map((w) => w.id), stores: [...STORES] };
  },
  localName: '@mastra/core',
  async load(version, log, source) {
    const m = await import('@approval-conformance/adapter-mastra');
    const line = source === undefined ? m.PINNED_VERSIONS[version] : undefined;
    const pinned = line === undefined ? undefined : await m.pinnedLibIfPresent(line);
    if (line !== undefined && pinned === undefined) log(notPinnedHere('mastra', version));
    const lib =
      pinned ??
      (source !== undefined
        ? await installing('mastra', version, this.pinned, () => m.localLib(source, log))
        : await installing('mastra', version, this.pinned, () => m.installedLib(version, log)));
    return { adapter: await m.mastraAdapter(lib), ...loadedPackages(lib.dir, MASTRA_PACKAGES) };
  },
};

const LANGGRAPH_SERVER_PACKAGES = [
  '@langchain/langgraph-api',
  '@langchain/langgraph-sdk',
  '@langchain/langgraph',
  '@langchain/langgraph-checkpoint',
  '@langchain/core',
];

const LANGGRAPH_SERVER: Framework = {
  name: 'langgraph-server',
  adapter: '@approval-conformance/adapter-langgraph-server',
  npm: '@langchain/langgraph-api',
  pinned: ['1.5.1'],
  // The first release that starts in-process (`@langchain/langgraph-api/server`); both multitask_strategy and
  // command.resume are older.
  oldest: '0.0.64',
  // Releases up to the registry's latest tag: 2.0.0 is published above it, and deprecated.
  async listReleases() {
    const { npmView } = await import('@approval-conformance/core');
    const [versions, tags] = await Promise.all([
      npmView<string[] | string>('@langchain/langgraph-api', ['versions']),
      npmView<Record<string, string>>('@langchain/langgraph-api', ['dist-tags']),
    ]).catch(() => [undefined, undefined] as const);
    const latest = tags?.['latest'];
    if (versions === undefined || latest === undefined) return [...this.pinned];
    return (Array.isArray(versions) ? versions : [versions]).filter((v) => semver.valid(v) && semver.lte(v, latest));
  },
  // The newest release on the registry's latest tag: 0.0.64, the first that starts in-process, gives the same
  // verdicts on every cell of the default wirings but overlapping-turns (compared when the row was added).
  defaults: (releases) => ['1.5.1'].filter((v) => releases.includes(v)),
  // The docs' default (reject) both ways, the Agent Server's documented default (enqueue) and the guarded one: the
  // interrupt and rollback strategies cancel a running run, which orders every release with the cancel, and their
  // overlapping-turns and double-resume cells run for minutes each (README, "The matrix").
  defaultWirings: ['reject', 'reject-by-id', 'enqueue', 'guarded-reject'],
  async shape() {
    const { WIRINGS, STORES } = await import('@approval-conformance/adapter-langgraph-server');
    return { wirings: WIRINGS.map((w) => w.id), stores: [...STORES] };
  },
  async load(version, log) {
    const lgs = await import('@approval-conformance/adapter-langgraph-server');
    const pinned = lgs.PINNED_VERSIONS.includes(version) ? await lgs.pinnedLibIfPresent() : undefined;
    if (lgs.PINNED_VERSIONS.includes(version) && pinned === undefined) log(notPinnedHere('langgraph-server', version));
    const lib = pinned ?? (await installing('langgraph-server', version, this.pinned, () => lgs.installedLib(version, log)));
    return { adapter: await lgs.langgraphServerAdapter(lib), ...loadedPackages(lib.dir, LANGGRAPH_SERVER_PACKAGES) };
  },
};

const ADK_PACKAGES = ['@google/adk', '@google/genai', '@mikro-orm/core', '@mikro-orm/postgresql'];

const ADK: Framework = {
  name: 'adk',
  adapter: '@approval-conformance/adapter-adk',
  npm: '@google/adk',
  pinned: ['2.0.0', '0.1.2'],
  // The first release: toolContext.requestConfirmation and the adk_request_confirmation call are in 0.1.2.
  oldest: '0.1.2',
  // The first release, both sides of the one place a verdict changes (1.6.0 to 2.0.0: requireConfirmation, the
  // response check and the pinned-arguments check arrive, and a tool's own request can no longer be answered), and
  // the newest. Every release was run (the README says what the others give): 0.1.3 to 1.6.0 give 0.1.2's verdicts
  // but for 0.2.2 and 0.2.3, on which no agent runs on a model of the app's own.
  defaults: (releases) => {
    const newest = stable(releases).at(-1);
    return [...new Set([...['0.1.2', '1.6.0', '2.0.0'].filter((v) => releases.includes(v)), ...(newest ? [newest] : [])])];
  },
  newestOnly: { guarded: true },
  async shape() {
    const { WIRINGS, STORES } = await import('@approval-conformance/adapter-adk');
    return { wirings: WIRINGS.map((w) => w.id), stores: [...STORES] };
  },
  async load(version, log) {
    const a = await import('@approval-conformance/adapter-adk');
    const line = a.PINNED_VERSIONS[version];
    const pinned = line === undefined ? undefined : await a.pinnedLibIfPresent(line);
    if (line !== undefined && pinned === undefined) log(notPinnedHere('adk', version));
    const lib = pinned ?? (await installing('adk', version, this.pinned, () => a.installedLib(version, log)));
    return { adapter: await a.adkAdapter(lib), ...loadedPackages(lib.dir, ADK_PACKAGES) };
  },
};

const CLOUDFLARE_AGENTS_PACKAGES = ['@cloudflare/ai-chat', 'agents', 'ai'];

const CLOUDFLARE_AGENTS: Framework = {
  name: 'cloudflare-agents',
  adapter: '@approval-conformance/adapter-cloudflare-agents',
  npm: '@cloudflare/ai-chat',
  // A version is @cloudflare/ai-chat's; its agents and ai are the newest its peers admit under strict peers (the
  // adapter's choosePartners), and the results' packages name all three. The workspace pins 0.12.2 with agents 0.32.0
  // and ai 7.0.185 (0.12.2 wants agents >=0.25 <1, and the registry jumps from 0.24.0 to 0.32.0).
  pinned: ['0.12.2'],
  // The first with tool approvals from the chat's socket (cf_agent_tool_approval).
  oldest: '0.0.6',
  // Published apart, in reports/cloudflare-agents/ (run --framework cloudflare-agents --out reports/cloudflare-agents):
  // its eleven default versions take about as long as the rest of the default matrix, which would pass 10 minutes.
  notInMatrix: true,
  // The last release of each minor line from the first with approvals (0.0.6) to the latest.
  defaults: (releases) => lastOfEachMinor(stable(releases).filter((v) => semver.gte(v, '0.0.6'))),
  async shape() {
    const { WIRINGS, STORES } = await import('@approval-conformance/adapter-cloudflare-agents');
    return { wirings: WIRINGS.map((w) => w.id), stores: [...STORES] };
  },
  async load(version, log) {
    const cf = await import('@approval-conformance/adapter-cloudflare-agents');
    // The pinned pair is the adapter's devDependencies: in the workspace only.
    let aiChat: string | undefined;
    try {
      aiChat = cf.frameworkVersions().aiChat;
    } catch {
      aiChat = undefined;
    }
    if (version === aiChat && this.pinned.includes(version)) {
      const dir = dirname(createRequire(import.meta.url).resolve('@approval-conformance/adapter-cloudflare-agents/package.json'));
      return { adapter: cf.cloudflareAgentsAdapter(), ...loadedPackages(dir, CLOUDFLARE_AGENTS_PACKAGES) };
    }
    if (this.pinned.includes(version)) log(notPinnedHere('cloudflare-agents', version));
    const tree = await installing('cloudflare-agents', version, this.pinned, () => cf.installedTree(version, log));
    return { adapter: cf.versionedAdapter(tree), ...loadedPackages(tree.dir, CLOUDFLARE_AGENTS_PACKAGES) };
  },
};

/**
 * Extra frameworks from the module APPROVAL_CONFORMANCE_EXTRA_FRAMEWORKS names (its `FRAMEWORKS` export): how the
 * runner's tests plug in versions that will not install, will not import, hang or crash, and a way to try an adapter
 * before it is registered here. Worker processes inherit the variable, so they see the same list.
 */
async function extraFrameworks(): Promise<Framework[]> {
  const module = process.env['APPROVAL_CONFORMANCE_EXTRA_FRAMEWORKS'];
  if (!module) return [];
  try {
    return ((await import(pathToFileURL(resolve(module)).href)) as { FRAMEWORKS: Framework[] }).FRAMEWORKS;
  } catch (error) {
    throw new UsageError(`APPROVAL_CONFORMANCE_EXTRA_FRAMEWORKS='${module}' did not load: ${(error as Error).message}`);
  }
}

// In this order the default matrix runs (the quick ones first, so an interrupted run has the most versions) and the
// reports list them.
export const FRAMEWORKS: readonly Framework[] = [
  REFERENCE,
  AI,
  OPENAI_AGENTS,
  ADK,
  LANGGRAPH,
  LANGGRAPH_SERVER,
  MASTRA,
  CLOUDFLARE_AGENTS,
  ...(await extraFrameworks()),
];

/** Frameworks planned but not wired yet, so the error can say so rather than "unknown". */
const PLANNED: string[] = [];

export const FRAMEWORK_NAMES = FRAMEWORKS.map((f) => f.name);

/** The frameworks the default matrix runs: every one not `notInMatrix`. */
export const MATRIX_FRAMEWORK_NAMES = FRAMEWORKS.filter((f) => !f.notInMatrix).map((f) => f.name);

export function framework(name: string): Framework {
  const found = FRAMEWORKS.find((f) => f.name === name);
  if (!found) {
    const byNpm = FRAMEWORKS.find((f) => f.npm === name);
    const planned = byNpm
      ? ` ${name}'s adapter is named ${byNpm.name}: --framework ${byNpm.name}.`
      : PLANNED.includes(name)
        ? ` ${name} is planned but has no adapter yet.`
        : '';
    throw new UsageError(`unknown framework '${name}'.${planned} Frameworks: ${FRAMEWORK_NAMES.join(', ')}.`);
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
  if (version === 'latest') return [stable(await releases(fw, log)).at(-1) ?? fw.pinned[0]!];
  if (fw.pinned.includes(version)) return [version];
  if (!fw.npm) {
    throw new UsageError(`${fw.name} is only available at version ${fw.pinned.join(', ')} (it is built in), not '${version}'.`);
  }
  if (semver.valid(version)) {
    // A version the registry does not list is a mistake in the command, not a version that failed to install.
    const listed = await listedReleases(fw, log);
    if (listed && !listed.includes(version)) {
      const newest = stable(listed).at(-1);
      throw new UsageError(
        `${fw.npm}@${version} is not published${newest ? ` (the newest is ${newest})` : ''}. Name a published version, a range (${spec.name}@${semver.major(newest ?? fw.pinned[0]!)}) or ${spec.name}@latest; pinned in the workspace: ${fw.pinned.join(', ')}.`,
      );
    }
    return [version];
  }
  if (semver.validRange(version) === null) {
    // One clear line naming the fix, from the same check the installers use.
    try {
      await resolveVersion(fw.npm, version, fw.pinned[0]);
    } catch (error) {
      throw new UsageError(`${(error as Error).message}. Pinned in the workspace: ${fw.pinned.join(', ')}.`);
    }
  }
  const inRange = lastOfEachMinor(stable(await releases(fw, log)).filter((v) => semver.satisfies(v, version)));
  if (inRange.length === 0) {
    throw new UsageError(`no published ${spec.name} version is in '${version}'. Pinned in the workspace: ${fw.pinned.join(', ')}.`);
  }
  return inRange;
}

/**
 * What one of a framework's default versions (`versions`) runs, narrower than the run's filters: everything but the
 * framework's `newestOnly` wirings and stores, and the scenarios that say `newestOnly`, on all but the newest;
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
  const newest = semver.rsort(versions.filter((v) => semver.valid(v)))[0];
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
  const versions = spec.version === undefined ? [fw.pinned[0]!] : await expandSpec(spec, log);
  if (versions.length !== 1) {
    throw new UsageError(`${spec.name}@${spec.version} names ${versions.length} versions (${versions.join(', ')}); give one.`);
  }
  return (await fw.load(versions[0]!, log)).adapter;
}

/**
 * The adapter a results cell ran on. A local build's cell (`6.0.327+local`) loads from the path its results recorded
 * in the target's spec (`ai@file:PATH`), so it replays as long as the build is still there.
 */
export async function loadCellAdapter(
  cell: { readonly framework: string; readonly version: string },
  targets: readonly { readonly framework: string; readonly version: string; readonly spec: string; readonly source?: string }[] = [],
  log: Log = () => {},
): Promise<Adapter> {
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
  const { adapter } = await fw.load(cell.version, log, pkg.dir);
  return { ...adapter, version: cell.version };
}
