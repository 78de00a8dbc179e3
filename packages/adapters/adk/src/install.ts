// Any published @google/adk version, installed on demand into a cache folder of its own with scripts disabled, and
// loaded through a small shim there. From 0.4 to 1.6 the package asks for every database driver as a required peer,
// and npm would install them all (one needs a release the registry may lack), so peers are not installed
// (`--legacy-peer-deps`): the folder lists the ones ADK imports itself, as each version names them.
import semver from 'semver';
import { installIsolated, InstallError, isolatedFolder, npmView } from '@approval-conformance/core';
import type { AdkLib, Module } from './lib.js';

const ADK = '@google/adk';

/** The first release: `toolContext.requestConfirmation` and the `adk_request_confirmation` call are in 0.1.2. */
export const OLDEST = '0.1.2';

const SHIM = `// Written by approval-conformance: the modules of this installed version, for the ADK adapter.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
export * as adk from '${ADK}';
const manifestAbove = (dir) => {
  const file = join(dir, 'package.json');
  const manifest = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
  return manifest?.name === '${ADK}' ? manifest : dir === dirname(dir) ? undefined : manifestAbove(dirname(dir));
};
export const version = manifestAbove(dirname(createRequire(import.meta.url).resolve('${ADK}'))).version;
`;

/** Peers ADK loads only for a feature the suite does not use: database drivers, Google Cloud exporters, a server. */
const UNUSED_PEER = /^(@mikro-orm\/|@google-cloud\/|express$)/;

interface Manifest {
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** The peers a version needs installed beside it: the required ones it imports. */
function neededPeers(manifest: Manifest): Record<string, string> {
  const peers: Record<string, string> = {};
  for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
    if (UNUSED_PEER.test(name) || manifest.peerDependenciesMeta?.[name]?.optional) continue;
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
  const lib = await installIsolated<{ adk: Module; version: string }>(
    {
      folder,
      what: `${ADK}@${version}`,
      manifest: { dependencies: { [ADK]: version, ...neededPeers(manifest) } },
      npmArgs: ['--legacy-peer-deps'],
      shim: SHIM,
      ready: { version },
    },
    log,
  );
  return { version: lib.version, adk: lib.adk, dir: isolatedFolder(folder) };
}

export { InstallError };
