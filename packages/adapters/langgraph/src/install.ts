// Any published LangGraph version, installed on demand into a cache folder of its own, with scripts disabled, and
// loaded through a small shim there. npm picks the @langchain/core peer line the version asks for; the SQLite saver
// is the newest one whose checkpoint peer the version's own checkpoint dependency satisfies; better-sqlite3 is the
// workspace's own build, linked in (scripts being off, nothing native is built in the cache).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import semver from 'semver';
import {
  cacheRoot,
  installIsolated,
  InstallError,
  isolatedFolder,
  localFolder,
  localPackage,
  npmView,
} from '@approval-conformance/core/kit';
import type { LangGraphLib } from './lib.js';

const LANGGRAPH = '@langchain/langgraph';
const CHECKPOINT = '@langchain/langgraph-checkpoint';
const SQLITE = '@langchain/langgraph-checkpoint-sqlite';
const POSTGRES = '@langchain/langgraph-checkpoint-postgres';

export { cacheRoot, InstallError };

interface Manifest {
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

/**
 * The newest SQLite saver whose peer range on the checkpoint package admits `checkpointVersion`, from the savers'
 * manifests (newest first is not assumed). Undefined when none fits.
 */
export function pickSqliteSaver(
  checkpointVersion: string,
  savers: Readonly<Record<string, Manifest>>,
): string | undefined {
  return Object.keys(savers)
    .filter((v) => semver.valid(v) && !semver.prerelease(v))
    .sort(semver.rcompare)
    .find((v) => {
      const range = savers[v]?.peerDependencies?.[CHECKPOINT];
      return range !== undefined && semver.satisfies(checkpointVersion, range);
    });
}

/** The workspace's built better-sqlite3, to link into an installed version. */
function builtBetterSqlite(): string {
  return dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
}

const SHIM = `// Written by approval-conformance: the modules of this installed version, for the LangGraph adapter.
import { createRequire } from 'node:module';
export * as langgraph from '@langchain/langgraph';
const require = createRequire(import.meta.url);
let sqlite;
try {
  sqlite = await import('@langchain/langgraph-checkpoint-sqlite');
} catch {
  sqlite = undefined;
}
export { sqlite };
let postgres;
try {
  postgres = await import('@langchain/langgraph-checkpoint-postgres');
} catch {
  postgres = undefined;
}
export { postgres };
export const version = require('@langchain/langgraph/package.json').version;
`;

/** Bumped when the shim exports more: a cache folder written by an older one is installed again. */
const SHIM_VERSION = 2;

/** Whether a cache folder holds a finished install made with this shim. */
function readyWith(folder: string, shim: number): boolean {
  try {
    return JSON.parse(readFileSync(join(isolatedFolder(folder), 'ready.json'), 'utf8')).shim === shim;
  } catch {
    return false;
  }
}

interface Shim {
  readonly langgraph: LangGraphLib['langgraph'];
  readonly sqlite?: LangGraphLib['sqlite'];
  readonly postgres?: LangGraphLib['postgres'];
  readonly version: string;
}

const libOf = (shim: Shim, folder: string): LangGraphLib => ({
  version: shim.version,
  dir: isolatedFolder(folder),
  langgraph: shim.langgraph,
  ...(shim.sqlite ? { sqlite: shim.sqlite } : {}),
  ...(shim.postgres ? { postgres: shim.postgres } : {}),
});

/** Installs `@langchain/langgraph@version` (once; later calls reuse the folder) and loads it. */
export async function installedLib(
  version: string,
  log: (line: string) => void = () => {},
  /** A maintainer's local build (`file:PATH`): linked instead of installed from the registry. */
  source?: string,
): Promise<LangGraphLib> {
  const local = source === undefined ? undefined : await localPackage(source, LANGGRAPH);
  if (!local && !semver.valid(version)) throw new InstallError(`'${version}' is not a version; give an exact one, like 1.7.3`);
  const folder = local ? localFolder(local) : `langgraph@${version}`;
  if (readyWith(folder, SHIM_VERSION)) return libOf(await installIsolated<Shim>(cached(folder), log), folder);
  // Anything else in the folder (an older shim's install, a failed one) is installed again, under the entry's lock
  // (`reuse`), so that a run finishing the same install meanwhile is used, not undone.

  const manifest = local ?? (await npmView<Manifest>(`${LANGGRAPH}@${version}`, ['dependencies', 'peerDependencies']));
  if (!manifest) throw new InstallError(`${LANGGRAPH}@${version} is not published`);
  const checkpointRange = manifest.dependencies?.[CHECKPOINT];
  const checkpointVersions = (await npmView<string[]>(CHECKPOINT, ['versions'])) ?? [];
  const checkpoint = checkpointRange ? semver.maxSatisfying(checkpointVersions, checkpointRange) : null;
  // Every saver's peers in one query: npm prints one object per version matching the range.
  const listed = (await npmView<Array<Manifest & { version: string }>>(`${SQLITE}@>=0.0.0`, ['peerDependencies', 'version'])) ?? [];
  const savers = Object.fromEntries((Array.isArray(listed) ? listed : [listed]).map((m) => [m.version, m]));
  const saver = checkpoint ? pickSqliteSaver(checkpoint, savers) : undefined;
  if (!saver) log(`no ${SQLITE} fits ${CHECKPOINT}@${checkpoint ?? '?'}: the sqlite store will be not-applicable`);
  // The PostgreSQL saver, by the same rule: its checkpoint peer must admit the version's checkpoint.
  const pgListed = (await npmView<Array<Manifest & { version: string }>>(`${POSTGRES}@>=0.0.0`, ['peerDependencies', 'version'])) ?? [];
  const pgSavers = Object.fromEntries((Array.isArray(pgListed) ? pgListed : [pgListed]).map((m) => [m.version, m]));
  const pgSaver = checkpoint ? pickSqliteSaver(checkpoint, pgSavers) : undefined;
  if (!pgSaver) log(`no ${POSTGRES} fits ${CHECKPOINT}@${checkpoint ?? '?'}: the postgres store will be not-applicable`);

  const dependencies: Record<string, string> = { [LANGGRAPH]: local ? `file:${local.dir}` : version };
  if (saver) dependencies[SQLITE] = saver;
  if (pgSaver) dependencies[POSTGRES] = pgSaver;
  const lib = libOf(
    await installIsolated<Shim>(
      {
        ...cached(folder),
        what: local ? `${LANGGRAPH} from ${local.dir}` : `${LANGGRAPH}@${version}`,
        // One native build, the workspace's: the savers ask for 9, 11 or 12, and 12 has the same API.
        manifest: { dependencies, overrides: { 'better-sqlite3': `file:${builtBetterSqlite()}` } },
        ready: { version, saver: saver ?? null, postgresSaver: pgSaver ?? null, shim: SHIM_VERSION },
        reuse: (ready) => ready['shim'] === SHIM_VERSION,
      },
      log,
    ),
    folder,
  );
  log(`installed ${LANGGRAPH}@${lib.version}${saver ? ` with ${SQLITE}@${saver}` : ''}`);
  return lib;
}

/** An install spec for a folder that is already there: only the shim is read. */
const cached = (folder: string) => ({ folder, what: folder, manifest: {}, shim: SHIM });

/** What a cache folder says it holds, for reports. */
export async function installedManifest(version: string): Promise<unknown> {
  return JSON.parse(await readFile(join(cacheRoot(), `langgraph@${version}`, 'ready.json'), 'utf8'));
}
