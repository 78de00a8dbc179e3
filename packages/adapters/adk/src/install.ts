// Any published @google/adk version, installed on demand into a cache folder of its own with scripts disabled, and
// loaded through a small shim there. From 0.4 to 1.6 the package asks for every database driver as a required peer,
// and npm would install them all (one needs a release the registry may lack), so peers are not installed
// (`--legacy-peer-deps`): the folder lists the ones ADK imports itself, as each version names them.
import semver from 'semver';
import { installIsolated, InstallError, isolatedFolder, npmView } from '@approval-conformance/core/kit';
import type { AdkLib, Module } from './lib.js';

const ADK = '@google/adk';

/** The first release: `toolContext.requestConfirmation` and the `adk_request_confirmation` call are in 0.1.2. */
export const OLDEST = '0.1.2';

const SHIM = `// Written by approval-conformance: the modules of this installed version, for the ADK adapter.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
const require = createRequire(import.meta.url);
// Its ES module entry, or where that does not load on this Node (0.2.2 to 0.3.0 import a named export of CommonJS
// lodash), the CommonJS entry the same package publishes.
let loaded;
let entry = 'module';
try {
  loaded = await import('${ADK}');
} catch (error) {
  try {
    loaded = require('${ADK}');
    entry = 'commonjs';
  } catch {
    throw error;
  }
}
export const adk = loaded;
export { entry };
const manifestAbove = (dir) => {
  const file = join(dir, 'package.json');
  const manifest = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
  return manifest?.name === '${ADK}' ? manifest : dir === dirname(dir) ? undefined : manifestAbove(dirname(dir));
};
export const version = manifestAbove(dirname(require.resolve('${ADK}'))).version;
`;

/** Bumped when the shim or the folder's manifest changes: a cache folder made by an older one is installed again. */
const SHIM_VERSION = 3;

/**
 * The database drivers, `@mikro-orm/*`. From 0.4 to 1.6 ADK asks for all five as required peers, and imports them
 * when its session services load; 2.0 asks for them as optional peers and loads one when a database session service
 * starts. They are installed together at one release, with MikroORM's core (which refuses to run beside a driver of
 * another release): the newest 6.x the registry has for all of them (a registry can lack a driver's newest knex).
 * Every other required peer is installed as the version names it: some versions import Google Cloud Storage.
 */
const DRIVER_PEER = /^@mikro-orm\//;

export interface Manifest {
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** The newest MikroORM 6 release the registry has a knex layer for, from the list of `@mikro-orm/knex` versions. */
export function newestMikroOrm(versions: readonly string[]): string {
  const newest = semver.maxSatisfying([...versions], '^6.6.6');
  if (!newest) throw new InstallError('the registry has no @mikro-orm/knex 6.x, which ADK\'s database session service needs');
  return newest;
}

/** The peers a version needs installed beside it; `knexVersions` lists `@mikro-orm/knex`'s releases (asked only if needed). */
export async function neededPeers(manifest: Manifest, knexVersions: () => Promise<readonly string[]>): Promise<Record<string, string>> {
  const peers: Record<string, string> = {};
  const entries = Object.entries(manifest.peerDependencies ?? {});
  const drivers = entries.filter(([name]) => DRIVER_PEER.test(name));
  if (drivers.length > 0) {
    const orm = newestMikroOrm(await knexVersions());
    peers['@mikro-orm/core'] = orm;
    // The required drivers (0.4 to 1.6), or only PostgreSQL's where they are optional (the postgres store's).
    for (const [name] of drivers) if (!manifest.peerDependenciesMeta?.[name]?.optional || name === '@mikro-orm/postgresql') peers[name] = orm;
  }
  for (const [name, range] of entries) {
    if (DRIVER_PEER.test(name) || manifest.peerDependenciesMeta?.[name]?.optional) continue;
    peers[name] = range;
  }
  return peers;
}

/** Installs `@google/adk@version` (once; later calls reuse the folder) and loads it. */
export async function installedLib(version: string, log: (line: string) => void = () => {}): Promise<AdkLib> {
  if (!semver.valid(version)) throw new InstallError(`'${version}' is not a version; give an exact one, like 2.0.0`);
  if (semver.lt(version, OLDEST)) throw new InstallError(`${ADK}@${version} is older than ${OLDEST}, the first version the adapter drives`);
  const folder = `adk@${version}`;
  const manifest = await npmView<Manifest & { version?: string }>(`${ADK}@${version}`, ['version', 'peerDependencies', 'peerDependenciesMeta']);
  if (!manifest) throw new InstallError(`${ADK}@${version} is not published`);
  const lib = await installIsolated<{ adk: Module; version: string; entry: 'module' | 'commonjs' }>(
    {
      folder,
      what: `${ADK}@${version}`,
      manifest: { dependencies: { [ADK]: version, ...(await neededPeers(manifest, async () => (await npmView<string[]>('@mikro-orm/knex', ['versions'])) ?? [])) } },
      npmArgs: ['--legacy-peer-deps'],
      shim: SHIM,
      ready: { version, shim: SHIM_VERSION },
      reuse: (ready) => ready['shim'] === SHIM_VERSION,
    },
    log,
  );
  return { version: lib.version, adk: lib.adk, entry: lib.entry, dir: isolatedFolder(folder) };
}

export { InstallError };
