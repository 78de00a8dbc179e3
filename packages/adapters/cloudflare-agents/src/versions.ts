// Other versions of the framework than the workspace's pinned pair. A version is @cloudflare/ai-chat's; its `agents`
// and `ai` partners are chosen from the registry by strict peers (`choosePartners`), installed once into the suite's
// cache with scripts disabled (core's installIsolated), and the worker bundle is then built against that tree.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import semver from 'semver';
import { type Adapter } from '@approval-conformance/core/contract';
import { installIsolated, InstallError, isolatedFolder, npmView } from '@approval-conformance/core/kit';
import { cloudflareAgentsAdapter } from './adapter.js';
import { useTree, type InstalledTree } from './bundle.js';

/** The first release with tool approvals from the chat's socket (`cf_agent_tool_approval`). */
export const OLDEST = '0.0.6';

/** A release as `npm view NAME@RANGE version peerDependencies --json` lists it. */
export interface Release {
  readonly version: string;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

export interface Partners {
  readonly agents: string;
  readonly ai: string;
}

const run = promisify(execFile);

const stableOnly = (v: string) => semver.valid(v) !== null && semver.prerelease(v) === null;

/**
 * The `agents` and `ai` that go with `@cloudflare/ai-chat@aiChat.version`: the newest stable `ai` in ai-chat's range
 * that a fitting `agents` admits, and the newest stable `agents` that fits: in ai-chat's `agents` range and older
 * than `below` (`floorAbove`: the agents a later ai-chat had to ask for), its own peers
 * admitting that `ai` and this ai-chat (where it names one: strict peers), and `covers` (it exports every name ai-chat
 * imports from it). The peer ranges alone do not say it: ai-chat imports agents' internals, which later releases drop
 * and earlier ones lack (0.10.2 wants agents >=0.17.1 <1, but 0.32.0 has no `agents/chat` STREAM_CLEANUP_DELAY_SECONDS
 * and 0.19.0 no `__DO_NOT_USE_WILL_BREAK__withInvocationScope`); and npm does not backtrack (0.4.6 with the newest
 * agents its range admits fails ERESOLVE: agents 0.12 wants ai-chat >=0.5.2).
 */
export async function choosePartners(
  aiChat: Release,
  agents: readonly Release[],
  ai: readonly string[],
  covers: (agents: string) => Promise<boolean> | boolean = () => true,
  below?: string,
): Promise<Partners> {
  const peers = aiChat.peerDependencies ?? {};
  const agentsRange = peers['agents'];
  const aiRange = peers['ai'];
  if (!agentsRange || !aiRange) {
    throw new InstallError(`@cloudflare/ai-chat@${aiChat.version} names no agents and ai peers; it is older than ${OLDEST}, the first the adapter drives`);
  }
  const fitting = [...agents]
    .filter((a) => stableOnly(a.version) && semver.satisfies(a.version, agentsRange))
    .filter((a) => below === undefined || semver.lt(a.version, below))
    .filter((a) => {
      const back = a.peerDependencies?.['@cloudflare/ai-chat'];
      return !back || semver.satisfies(aiChat.version, back);
    })
    .sort((a, b) => semver.rcompare(a.version, b.version));
  const admits = (a: Release, v: string) => !a.peerDependencies?.['ai'] || semver.satisfies(v, a.peerDependencies['ai']);
  const checked = new Map<string, boolean>();
  const fits = async (a: Release) => {
    if (!checked.has(a.version)) checked.set(a.version, await covers(a.version));
    return checked.get(a.version)!;
  };
  for (const candidate of ai.filter((v) => stableOnly(v) && semver.satisfies(v, aiRange)).sort(semver.rcompare)) {
    for (const partner of fitting.filter((a) => admits(a, candidate))) {
      if (await fits(partner)) return { agents: partner.version, ai: candidate };
    }
  }
  const refused = [...checked.entries()].filter(([, ok]) => !ok).map(([v]) => v);
  if (refused.length > 0) {
    throw new InstallError(
      `no published agents in @cloudflare/ai-chat@${aiChat.version}'s peer range (${agentsRange}) exports everything it imports from agents (checked ${refused.join(', ')}); name another version`,
    );
  }
  throw new InstallError(
    `no published agents fits @cloudflare/ai-chat@${aiChat.version} under strict peers (it wants agents ${agentsRange}, ai ${aiRange}); name another version`,
  );
}

/**
 * The agents a release's partner must be older than: the lowest `agents` floor above its own among the later ai-chat
 * releases (the floor rises when ai-chat needs a newer agents: where the contract between them changed, which
 * names alone do not show: ai-chat 0.4.6 to 0.8.6 bundle with agents 0.32.0, whose chat code then calls
 * `__DO_NOT_USE_WILL_BREAK__sync` on ai-chat's streams, which they lack). Undefined for the latest line.
 */
export function floorAbove(aiChat: Release, releases: readonly Release[]): string | undefined {
  const floor = (r: Release) => {
    const range = r.peerDependencies?.['agents'];
    return range && semver.validRange(range) ? semver.minVersion(range)?.version : undefined;
  };
  const own = floor(aiChat);
  if (own === undefined) return undefined;
  const above = releases
    .filter((r) => stableOnly(r.version) && semver.gt(r.version, aiChat.version))
    .map(floor)
    .filter((f): f is string => f !== undefined && semver.gt(f, own))
    .sort(semver.compare);
  return above[0];
}

/** As `npm view` answers a range: one object, or a list of them. */
const listOf = <T>(found: T | T[] | undefined): T[] => (found === undefined ? [] : Array.isArray(found) ? found : [found]);

/** `choosePartners` over the registry's releases. */
export async function partnersFor(version: string): Promise<Partners> {
  const aiChat = await npmView<Release>(`@cloudflare/ai-chat@${version}`, ['version', 'peerDependencies']);
  if (!aiChat) throw new InstallError(`@cloudflare/ai-chat@${version} is not published`);
  const agentsRange = aiChat.peerDependencies?.['agents'] ?? '*';
  const agents = listOf(await npmView<Release[] | Release>(`agents@${agentsRange}`, ['version', 'peerDependencies']));
  const ai = listOf(await npmView<string[] | string>(`ai@${aiChat.peerDependencies?.['ai'] ?? '*'}`, ['version']));
  const later = listOf(await npmView<Release[] | Release>(`@cloudflare/ai-chat@>${version}`, ['version', 'peerDependencies']));
  const needs = await importsOf(`@cloudflare/ai-chat@${version}`);
  const covers = async (v: string) => {
    const has = await exportsOf(`agents@${v}`);
    return [...needs].every(([entry, names]) => names.every((n) => has.get(entry)?.has(n) ?? false));
  };
  return choosePartners(aiChat, agents, ai, covers, floorAbove(aiChat, later));
}

/** A package's tarball from the registry (`npm pack`), unpacked into the cache once; its folder (`package/`). */
async function unpacked(spec: string): Promise<string> {
  const dir = isolatedFolder(join('cloudflare-agents-tarballs', spec.replace(/\//g, '+')));
  const root = join(dir, 'package');
  if (existsSync(join(root, 'package.json'))) return root;
  const scratch = `${dir}.${process.pid}.tmp`;
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { recursive: true });
  try {
    const { stdout } = await run('npm', ['pack', spec, '--silent', '--pack-destination', scratch], { cwd: scratch });
    await run('tar', ['xzf', join(scratch, stdout.trim().split('\n').at(-1)!), '-C', scratch]);
    await rm(dir, { recursive: true, force: true });
    await rename(scratch, dir);
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw new InstallError(`npm pack ${spec} failed: ${String((error as { stderr?: string }).stderr ?? error).split('\n')[0]}`);
  }
  return root;
}

/** What ai-chat's code imports from agents, by entry (`agents`, `agents/chat`). */
async function importsOf(spec: string): Promise<Map<string, string[]>> {
  const root = await unpacked(spec);
  const code = (await readdir(join(root, 'dist'))).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(root, 'dist', f), 'utf8'));
  return namedImports(code.join('\n'), 'agents');
}

/** `import { a, b as c } from "PKG[/sub]"` in `code`: the names imported, by entry. */
export function namedImports(code: string, pkg: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const re = new RegExp(String.raw`import\s*\{([^}]*)\}\s*from\s*["'](${pkg}(?:/[\w./-]+)?)["']`, 'g');
  for (const m of code.matchAll(re)) {
    const names = m[1]!.split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!.trim()).filter(Boolean);
    out.set(m[2]!, [...new Set([...(out.get(m[2]!) ?? []), ...names])]);
  }
  return out;
}

/** The names each of a package's entries exports (`agents`, `agents/chat`), following its `export *` re-exports. */
async function exportsOf(spec: string): Promise<Map<string, Set<string>>> {
  const root = await unpacked(spec);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; exports?: Record<string, unknown> };
  const out = new Map<string, Set<string>>();
  for (const [sub, target] of Object.entries(manifest.exports ?? {})) {
    const file = typeof target === 'string' ? target : ((target as Record<string, unknown>)['import'] ?? (target as Record<string, unknown>)['default']);
    if (typeof file !== 'string' || !file.endsWith('.js')) continue;
    out.set(sub === '.' ? manifest.name : `${manifest.name}/${sub.slice(2)}`, exportedNames(join(root, file)));
  }
  return out;
}

/** The names an ES module file exports: `export { a as b }`, `export const|function|class x`, `export * from`. */
export function exportedNames(file: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(file) || !existsSync(file)) return names;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  for (const m of code.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const part of m[1]!.split(',')) {
      const name = part.trim().split(/\s+as\s+/).at(-1)!.trim();
      if (name) names.add(name);
    }
  }
  for (const m of code.matchAll(/export\s+(?:async\s+)?(?:const|let|var|function\*?|class)\s+([\w$]+)/g)) names.add(m[1]!);
  for (const m of code.matchAll(/export\s*\*\s*from\s*["'](\.[^"']+)["']/g)) {
    for (const n of exportedNames(join(dirname(file), m[1]!), seen)) names.add(n);
  }
  return names;
}

/** The shim the cache folder holds: the installed versions, read from the packages' own manifests. */
const SHIM = `// Written by approval-conformance: the installed Cloudflare Agents versions, for its adapter.
import { readFileSync } from 'node:fs';
const version = (name) => JSON.parse(readFileSync(new URL('./node_modules/' + name + '/package.json', import.meta.url), 'utf8')).version;
export const versions = { aiChat: version('@cloudflare/ai-chat'), agents: version('agents'), ai: version('ai') };
`;

/** zod for the worker's tool schemas: the 4.x that ai 6 and 7 both admit. */
const ZOD = '^4.1.8';

/**
 * Installs `@cloudflare/ai-chat@version` with its partners (once per trio: the folder names all three, so a newer
 * partner on the registry is a new install, never a changed one) and returns the tree the bundle builds from.
 */
export async function installedTree(version: string, log: (line: string) => void = () => {}): Promise<InstalledTree> {
  if (!semver.valid(version)) throw new InstallError(`'${version}' is not a version; give an exact one, like 0.12.2`);
  if (semver.lt(version, OLDEST)) {
    throw new InstallError(`@cloudflare/ai-chat@${version} is older than ${OLDEST}, the first version with tool approvals (cf_agent_tool_approval)`);
  }
  const partners = await partnersFor(version);
  const folder = `cloudflare-agents@${version}+agents@${partners.agents}+ai@${partners.ai}`;
  const lib = await installIsolated<{ versions: InstalledTree['versions'] }>(
    {
      folder,
      what: `@cloudflare/ai-chat@${version} with agents@${partners.agents} and ai@${partners.ai}`,
      manifest: { dependencies: { '@cloudflare/ai-chat': version, agents: partners.agents, ai: partners.ai, zod: ZOD } },
      shim: SHIM,
      ready: { version, ...partners },
    },
    log,
  );
  return { dir: isolatedFolder(folder), versions: lib.versions };
}

/**
 * The adapter over an installed tree: the pinned adapter's wiring, its worlds on a workerd that runs the bundle built
 * from the tree, and the cells the installed code lacks a feature for not applicable, saying which.
 */
export function versionedAdapter(tree: InstalledTree): Adapter {
  const base = cloudflareAgentsAdapter(tree);
  return {
    ...base,
    createWorld: (env) => {
      useTree(tree);
      return base.createWorld(env);
    },
    async release() {
      await base.release?.();
      useTree(undefined);
    },
  };
}
