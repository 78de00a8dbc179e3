// Any published LangGraph version, installed on demand into a cache folder of its own, with scripts disabled, and
// loaded through a small shim there. npm picks the @langchain/core peer line the version asks for; the SQLite saver
// is the newest one whose checkpoint peer the version's own checkpoint dependency satisfies; better-sqlite3 is the
// workspace's own build, linked in (scripts being off, nothing native is built in the cache).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import semver from 'semver';
import type { LangGraphLib } from './lib.js';

const run = promisify(execFile);
const LANGGRAPH = '@langchain/langgraph';
const CHECKPOINT = '@langchain/langgraph-checkpoint';
const SQLITE = '@langchain/langgraph-checkpoint-sqlite';

/** Where installed versions live: $APPROVAL_CONFORMANCE_CACHE, or ~/.cache/approval-conformance. */
export function cacheRoot(): string {
  return process.env['APPROVAL_CONFORMANCE_CACHE'] ?? join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'approval-conformance');
}

export class InstallError extends Error {
  override readonly name = 'InstallError';
}

interface Manifest {
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

async function npmView<T>(spec: string, fields: string[]): Promise<T | undefined> {
  try {
    const { stdout } = await run('npm', ['view', spec, ...fields, '--json'], { maxBuffer: 64 * 1024 * 1024 });
    return stdout.trim() === '' ? undefined : (JSON.parse(stdout) as T);
  } catch (error) {
    const text = String((error as { stderr?: string }).stderr ?? error);
    if (/E404|No match found/.test(text)) return undefined;
    throw new InstallError(`npm view ${spec} failed: ${text.split('\n')[0]}`);
  }
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
export const version = require('@langchain/langgraph/package.json').version;
`;

async function loadShim(dir: string): Promise<LangGraphLib> {
  const shim = (await import(pathToFileURL(join(dir, 'shim.mjs')).href)) as {
    langgraph: LangGraphLib['langgraph'];
    sqlite?: LangGraphLib['sqlite'];
    version: string;
  };
  return { version: shim.version, langgraph: shim.langgraph, ...(shim.sqlite ? { sqlite: shim.sqlite } : {}) };
}

/** Installs `@langchain/langgraph@version` (once; later calls reuse the folder) and loads it. */
export async function installedLib(version: string, log: (line: string) => void = () => {}): Promise<LangGraphLib> {
  if (!semver.valid(version)) throw new InstallError(`'${version}' is not a version; give an exact one, like 1.7.3`);
  const dir = join(cacheRoot(), `langgraph@${version}`);
  if (existsSync(join(dir, 'ready.json'))) return loadShim(dir);

  const manifest = await npmView<Manifest>(`${LANGGRAPH}@${version}`, ['dependencies', 'peerDependencies']);
  if (!manifest) throw new InstallError(`${LANGGRAPH}@${version} is not published`);
  log(`installing ${LANGGRAPH}@${version} into ${dir} (scripts disabled)`);
  const checkpointRange = manifest.dependencies?.[CHECKPOINT];
  const checkpointVersions = (await npmView<string[]>(CHECKPOINT, ['versions'])) ?? [];
  const checkpoint = checkpointRange ? semver.maxSatisfying(checkpointVersions, checkpointRange) : null;
  // Every saver's peers in one query: npm prints one object per version matching the range.
  const listed = (await npmView<Array<Manifest & { version: string }>>(`${SQLITE}@>=0.0.0`, ['peerDependencies', 'version'])) ?? [];
  const savers = Object.fromEntries((Array.isArray(listed) ? listed : [listed]).map((m) => [m.version, m]));
  const saver = checkpoint ? pickSqliteSaver(checkpoint, savers) : undefined;
  if (!saver) log(`no ${SQLITE} fits ${CHECKPOINT}@${checkpoint ?? '?'}: the sqlite store will be not-applicable`);

  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const dependencies: Record<string, string> = { [LANGGRAPH]: version };
  if (saver) dependencies[SQLITE] = saver;
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify(
      {
        private: true,
        type: 'module',
        dependencies,
        // One native build, the workspace's: the savers ask for 9, 11 or 12, and 12 has the same API.
        overrides: { 'better-sqlite3': `file:${builtBetterSqlite()}` },
      },
      null,
      2,
    ),
  );
  try {
    await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const text = String((error as { stderr?: string }).stderr ?? error).trim().split('\n').slice(0, 3).join(' ');
    throw new InstallError(`npm install of ${LANGGRAPH}@${version} failed: ${text}`);
  }
  await writeFile(join(dir, 'shim.mjs'), SHIM);
  const lib = await loadShim(dir);
  await writeFile(join(dir, 'ready.json'), JSON.stringify({ version, saver: saver ?? null }) + '\n');
  log(`installed ${LANGGRAPH}@${lib.version}${saver ? ` with ${SQLITE}@${saver}` : ''}`);
  return lib;
}

/** What a cache folder says it holds, for reports. */
export async function installedManifest(version: string): Promise<unknown> {
  return JSON.parse(await readFile(join(cacheRoot(), `langgraph@${version}`, 'ready.json'), 'utf8'));
}
