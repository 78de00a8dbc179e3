// Any published @openai/agents version, installed on demand into a cache folder of its own with scripts disabled,
// and loaded through a small shim there that exports `@openai/agents`, `@openai/agents/testing` (where the version
// has it) and the version.
import semver from 'semver';
import {
  installIsolated,
  InstallError,
  isolatedFolder,
  localFolder,
  localPackage,
  npmView,
} from '@approval-conformance/core/kit';
import type { AgentsLib } from './lib.js';

/** The first release: `tool({ needsApproval })`, `RunState.toString` and `RunState.fromString` are in 0.0.1. */
export const OLDEST = '0.0.1';

const SHIM = `// Written by approval-conformance: the modules of this installed version, for the OpenAI Agents adapter.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
export * as agents from '@openai/agents';
const root = join(dirname(createRequire(import.meta.url).resolve('@openai/agents')), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
export const version = manifest.version;
const testingEntry = manifest.exports?.['./testing']?.import;
export const testing = testingEntry ? await import(pathToFileURL(join(root, testingEntry)).href) : undefined;
`;

/** zod is the SDK's peer (3.x before 0.1, 4.x after): the range each version asks for. */
async function zodRange(version: string): Promise<string> {
  const peers = await npmView<Record<string, string>>(`@openai/agents@${version}`, ['peerDependencies']);
  return peers?.['zod'] ?? '^3.25.40';
}

/** Installs `@openai/agents@version` (once; later calls reuse the folder) and loads it. */
export async function installedLib(version: string, log: (line: string) => void = () => {}): Promise<AgentsLib> {
  if (!semver.valid(version)) throw new InstallError(`'${version}' is not a version; give an exact one, like 0.20.0`);
  if (semver.lt(version, OLDEST)) throw new InstallError(`@openai/agents@${version} is older than ${OLDEST}, the first version the adapter drives`);
  const folder = `openai-agents@${version}`;
  const published = await npmView<string>(`@openai/agents@${version}`, ['version']);
  if (!published) throw new InstallError(`@openai/agents@${version} is not published`);
  const zod = await zodRange(version);
  const lib = await installIsolated<AgentsLib>(
    {
      folder,
      what: `@openai/agents@${version}`,
      manifest: { dependencies: { '@openai/agents': version, zod } },
      shim: SHIM,
      ready: { version },
    },
    log,
  );
  return { version: lib.version, agents: lib.agents, testing: lib.testing, dir: isolatedFolder(folder) };
}

export { InstallError };

/**
 * A maintainer's local build of `@openai/agents` (`file:PATH`, the built package folder): linked into a cache folder
 * of its own, so its dependencies resolve from its own tree and a rebuild needs no reinstall.
 */
export async function localLib(path: string, log: (line: string) => void = () => {}): Promise<AgentsLib> {
  const pkg = await localPackage(path, '@openai/agents');
  const folder = localFolder(pkg);
  const lib = await installIsolated<AgentsLib>(
    {
      folder,
      what: `@openai/agents from ${pkg.dir}`,
      manifest: { dependencies: { '@openai/agents': `file:${pkg.dir}`, zod: '^4.0.0' } },
      shim: SHIM,
      ready: { source: pkg.dir },
    },
    log,
  );
  return { version: lib.version, agents: lib.agents, testing: lib.testing, dir: isolatedFolder(folder) };
}
