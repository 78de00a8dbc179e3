// Any published @mastra/core version, installed on demand into a cache folder of its own with scripts disabled,
// beside the newest @mastra/libsql whose peer range admits it, and loaded through a small shim there that exports
// the modules the adapter drives and the version. LibSQL's native client comes prebuilt; nothing needs a script.
import semver from 'semver';
import {
  installIsolated,
  InstallError,
  isolatedFolder,
  localFolder,
  localPackage,
  npmView,
} from '@approval-conformance/core/kit';
import { libOf, type MastraLib } from './lib.js';

/** The first release with tool approvals (`requireApproval`, on the stream only until 1.0). */
export const OLDEST = '0.18.0';

const SHIM = `// Written by approval-conformance: the modules of this installed version, for the Mastra adapter.
import { createRequire } from 'node:module';
export * as agent from '@mastra/core/agent';
export * as mastra from '@mastra/core/mastra';
export * as tools from '@mastra/core/tools';
export * as workflows from '@mastra/core/workflows';
export * as storage from '@mastra/core/storage';
export * as libsql from '@mastra/libsql';
export * as zod from 'zod';
export const version = createRequire(import.meta.url)('@mastra/core/package.json').version;
`;

/**
 * The @mastra/libsql for `@mastra/core@version`: the newest stable release (of the same major) that was built against
 * that core or an older one (its devDependency names the core it was built with; a later one may need exports the
 * core does not have yet, whatever its peer range says), among those whose peer range admits it.
 */
async function libsqlFor(version: string): Promise<string> {
  const major = semver.major(version);
  type Release = { version?: string; peerDependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  // With an object field first, npm answers a range with one object per release.
  const found = await npmView<Release[] | Release>(`@mastra/libsql@>=${major}.0.0 <${major + 1}.0.0`, ['peerDependencies', 'devDependencies', 'version']);
  const fits = (Array.isArray(found) ? found : found ? [found] : [])
    .filter((p): p is Release & { version: string } => typeof p === 'object' && typeof p.version === 'string' && semver.prerelease(p.version) === null)
    .filter((p) => {
      const peer = p.peerDependencies?.['@mastra/core'];
      const built = semver.coerce(p.devDependencies?.['@mastra/core'] ?? '')?.version;
      return (peer === undefined || semver.satisfies(version, peer, { includePrerelease: true })) && (built === undefined || semver.lte(built, version));
    })
    .map((p) => p.version)
    .sort(semver.rcompare);
  if (fits.length === 0) throw new InstallError(`no published @mastra/libsql was built for @mastra/core@${version} or older`);
  return fits[0]!;
}

/** Installs `@mastra/core@version` (once; later calls reuse the folder) and loads it. */
export async function installedLib(version: string, log: (line: string) => void = () => {}): Promise<MastraLib> {
  if (!semver.valid(version)) throw new InstallError(`'${version}' is not a version; give an exact one, like 1.71.0`);
  if (semver.lt(version, OLDEST)) throw new InstallError(`@mastra/core@${version} is older than ${OLDEST}, the first version with tool approvals`);
  const published = await npmView<string>(`@mastra/core@${version}`, ['version']);
  if (!published) throw new InstallError(`@mastra/core@${version} is not published`);
  const folder = `mastra@${version}`;
  const libsql = await libsqlFor(version);
  const lib = await installIsolated<MastraLib>(
    {
      folder,
      what: `@mastra/core@${version}`,
      manifest: { dependencies: { '@mastra/core': version, '@mastra/libsql': libsql, zod: '^3.25.76' } },
      shim: SHIM,
      ready: { version, libsql },
    },
    log,
  );
  return libOf({ ...lib, dir: isolatedFolder(folder) });
}

export { InstallError };

/**
 * A maintainer's local build of `@mastra/core` (`file:PATH`, the built package folder): linked into a cache folder of
 * its own, beside the latest @mastra/libsql, so its dependencies resolve from its own tree.
 */
export async function localLib(path: string, log: (line: string) => void = () => {}): Promise<MastraLib> {
  const pkg = await localPackage(path, '@mastra/core');
  const folder = localFolder(pkg);
  const lib = await installIsolated<MastraLib>(
    {
      folder,
      what: `@mastra/core from ${pkg.dir}`,
      manifest: { dependencies: { '@mastra/core': `file:${pkg.dir}`, '@mastra/libsql': 'latest', zod: '^3.25.76' } },
      shim: SHIM,
      ready: { source: pkg.dir },
    },
    log,
  );
  return libOf({ ...lib, dir: isolatedFolder(folder) });
}
