// Any published LangGraph server, installed on demand into a cache folder of its own with scripts disabled, with
// its client, and loaded through a small shim there. npm installs the peers the server names (the LangGraph it runs
// graphs with, its checkpoint package, @langchain/core) once, at the top of the folder, so the server, the client and
// the adapter's graph share one copy of each.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { installIsolated, InstallError, isolatedFolder, npmView } from '@approval-conformance/core/kit';
import type { ServerLib } from './lib.js';

const API = '@langchain/langgraph-api';
const SDK = '@langchain/langgraph-sdk';

/** The first release with the in-process entry point (`@langchain/langgraph-api/server`). */
export const FIRST_IN_PROCESS = '0.0.64';

interface Manifest {
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

const SHIM = `// Written by approval-conformance: the modules of this installed server, for the LangGraph server adapter.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
export * as langgraph from '@langchain/langgraph';
export * as sdk from '${SDK}';
export const version = createRequire(import.meta.url)('${API}/package.json').version;
export const dir = fileURLToPath(new URL('.', import.meta.url));
`;

/** Bumped when the shim exports more: a cache folder written by an older one is installed again. */
const SHIM_VERSION = 1;

interface Shim {
  readonly langgraph: ServerLib['langgraph'];
  readonly sdk: ServerLib['sdk'];
  readonly version: string;
  readonly dir: string;
}

/** Installs `@langchain/langgraph-api@version` (once; later calls reuse the folder) and loads it. */
export async function installedLib(version: string, log: (line: string) => void = () => {}): Promise<ServerLib> {
  if (!semver.valid(version)) throw new InstallError(`'${version}' is not a version; give an exact one, like 1.5.1`);
  if (semver.lt(version, FIRST_IN_PROCESS)) {
    throw new InstallError(`${API}@${version} is older than ${FIRST_IN_PROCESS}, the first that can be started in-process`);
  }
  const folder = `langgraph-server@${version}`;
  const cached = { folder, what: folder, manifest: {}, shim: SHIM, reuse: (ready: Record<string, unknown>) => ready['shim'] === SHIM_VERSION };
  const libOf = (shim: Shim): ServerLib => ({ version: shim.version, dir: isolatedFolder(folder), langgraph: shim.langgraph, sdk: shim.sdk });
  if (readyWith(folder)) return libOf(await installIsolated<Shim>(cached, log));
  const manifest = await npmView<Manifest>(`${API}@${version}`, ['dependencies', 'peerDependencies']);
  if (!manifest) throw new InstallError(`${API}@${version} is not published`);
  // The client the server names (a peer from 0.0.27, a dependency before), else the newest.
  const sdkRange = manifest.peerDependencies?.[SDK] ?? manifest.dependencies?.[SDK] ?? 'latest';
  const shim = await installIsolated<Shim>(
    {
      ...cached,
      what: `${API}@${version}`,
      manifest: { dependencies: { [API]: version, [SDK]: sdkRange } },
      ready: { version, shim: SHIM_VERSION },
    },
    log,
  );
  log(`installed ${API}@${shim.version}`);
  return libOf(shim);
}

/** Whether a cache folder holds a finished install made with this shim. */
function readyWith(folder: string): boolean {
  try {
    return JSON.parse(readFileSync(join(isolatedFolder(folder), 'ready.json'), 'utf8')).shim === SHIM_VERSION;
  } catch {
    return false;
  }
}
