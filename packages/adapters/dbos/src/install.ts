// Any published version of DBOS Transact from the first the adapter drives, installed on demand into a cache folder
// of its own with scripts disabled, and loaded from there (its own pg included).
import semver from 'semver';
import { installIsolated, InstallError, isolatedFolder, npmView } from '@approval-conformance/core/kit';
import { loadFrom, type DbosLib } from './lib.js';

/** The first release the adapter drives: see the README ("Versions"). */
export const OLDEST = '4.24.16';

const SHIM = `// Written by approval-conformance: marks this install of @dbos-inc/dbos-sdk as loadable, for the DBOS adapter.
import { readFileSync } from 'node:fs';
export const version = JSON.parse(readFileSync(new URL('./node_modules/@dbos-inc/dbos-sdk/package.json', import.meta.url), 'utf8')).version;
`;

/** Installs the version (once; later calls reuse the folder) and loads it. */
export async function installedLib(version: string, log: (line: string) => void = () => {}): Promise<DbosLib> {
  if (!semver.valid(version)) throw new InstallError(`'${version}' is not a version; give an exact one, like 5.3.0`);
  if (semver.lt(version, OLDEST)) throw new InstallError(`dbos@${version} is older than ${OLDEST}, the first version the adapter drives`);
  if (!(await npmView<string>(`@dbos-inc/dbos-sdk@${version}`, ['version']))) throw new InstallError(`@dbos-inc/dbos-sdk@${version} is not published`);
  const folder = `dbos@${version}`;
  await installIsolated<{ version: string }>(
    { folder, what: `@dbos-inc/dbos-sdk@${version}`, manifest: { dependencies: { '@dbos-inc/dbos-sdk': version } }, shim: SHIM, ready: { version } },
    log,
  );
  return loadFrom(isolatedFolder(folder));
}

export { InstallError };
