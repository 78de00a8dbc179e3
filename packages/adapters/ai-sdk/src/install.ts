// Any published AI SDK version from 5.0, installed on demand into a cache folder of its own with scripts disabled,
// and loaded through a small shim there that exports `ai`, `ai/test` and the version.
import semver from 'semver';
import {
  installIsolated,
  InstallError,
  isolatedFolder,
  localFolder,
  localPackage,
  npmView,
} from '@approval-conformance/core/kit';
import type { AiLib } from './lib.js';

/** The first line the adapter drives: 5.0 brought ai/test's V2 mock and the messages the adapter reads. */
export const OLDEST = '5.0.0';

const SHIM = `// Written by approval-conformance: the modules of this installed version, for the AI SDK adapter.
import { createRequire } from 'node:module';
export * as ai from 'ai';
export * as test from 'ai/test';
export const version = createRequire(import.meta.url)('ai/package.json').version;
`;

/** Installs `ai@version` (once; later calls reuse the folder) and loads it. */
export async function installedLib(version: string, log: (line: string) => void = () => {}): Promise<AiLib> {
  if (!semver.valid(version)) throw new InstallError(`'${version}' is not a version; give an exact one, like 6.0.326`);
  if (semver.lt(version, OLDEST)) throw new InstallError(`ai@${version} is older than ${OLDEST}, the first version the adapter drives`);
  const folder = `ai@${version}`;
  const published = await npmView<string>(`ai@${version}`, ['version']);
  if (!published) throw new InstallError(`ai@${version} is not published`);
  const lib = await installIsolated<AiLib>(
    {
      folder,
      what: `ai@${version}`,
      // zod is the SDK's peer; the adapter itself uses JSON schemas.
      manifest: { dependencies: { ai: version, zod: '^3.25.76' } },
      shim: SHIM,
      ready: { version },
    },
    log,
  );
  return { version: lib.version, ai: lib.ai, test: lib.test, dir: isolatedFolder(folder) };
}

export { InstallError };

/**
 * A maintainer's local build of `ai` (`file:PATH`, the built package folder): linked into a cache folder of its own,
 * so its dependencies resolve from its own tree and a rebuild needs no reinstall.
 */
export async function localLib(path: string, log: (line: string) => void = () => {}): Promise<AiLib> {
  const pkg = await localPackage(path, 'ai');
  const folder = localFolder(pkg);
  const lib = await installIsolated<AiLib>(
    { folder, what: `ai from ${pkg.dir}`, manifest: { dependencies: { ai: `file:${pkg.dir}`, zod: '^3.25.76' } }, shim: SHIM, ready: { source: pkg.dir } },
    log,
  );
  return { version: lib.version, ai: lib.ai, test: lib.test, dir: isolatedFolder(folder) };
}
