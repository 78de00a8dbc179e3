// Any published version of either SDK line, installed on demand into a cache folder of its own with scripts disabled,
// and loaded through a small shim there. A version is the 1.x package's (`@modelcontextprotocol/sdk`, from 1.13.0, the
// first with `elicitInput`) or the 2.x server's (`@modelcontextprotocol/server`, installed with the client of the
// same version: both depend on `@modelcontextprotocol/core` at exactly their own).
import semver from 'semver';
import { installIsolated, InstallError, isolatedFolder, npmView } from '@approval-conformance/core/kit';
import type { McpLib } from './lib.js';

/** The first 1.x release with `server.elicitInput` (`elicitation/create`). */
export const OLDEST = '1.13.0';

const SHIM_1 = `// Written by approval-conformance: the modules of this installed SDK 1.x, for the MCP adapter.
import { readFileSync } from 'node:fs';
export * as mcp from '@modelcontextprotocol/sdk/server/mcp.js';
export * as client from '@modelcontextprotocol/sdk/client/index.js';
export * as memory from '@modelcontextprotocol/sdk/inMemory.js';
export * as types from '@modelcontextprotocol/sdk/types.js';
export * as zod from 'zod';
export const version = JSON.parse(readFileSync(new URL('./node_modules/@modelcontextprotocol/sdk/package.json', import.meta.url), 'utf8')).version;
`;

const SHIM_2 = `// Written by approval-conformance: the modules of this installed SDK 2.x, for the MCP adapter.
import { readFileSync } from 'node:fs';
export * as server from '@modelcontextprotocol/server';
export * as client from '@modelcontextprotocol/client';
export * as zod from 'zod/v4';
export const version = JSON.parse(readFileSync(new URL('./node_modules/@modelcontextprotocol/server/package.json', import.meta.url), 'utf8')).version;
`;

/** Installs the version (once; later calls reuse the folder) and loads it. */
export async function installedLib(version: string, log: (line: string) => void = () => {}): Promise<McpLib> {
  if (!semver.valid(version)) throw new InstallError(`'${version}' is not a version; give an exact one, like 2.4.0`);
  if (semver.lt(version, OLDEST)) throw new InstallError(`mcp@${version} is older than ${OLDEST}, the first version the adapter drives`);
  const legacy = semver.major(version) === 1;
  const main = legacy ? '@modelcontextprotocol/sdk' : '@modelcontextprotocol/server';
  if (!(await npmView<string>(`${main}@${version}`, ['version']))) throw new InstallError(`${main}@${version} is not published`);
  const folder = `mcp@${version}`;
  const dependencies = legacy
    ? { '@modelcontextprotocol/sdk': version, zod: '^3.25.76' }
    : { '@modelcontextprotocol/server': version, '@modelcontextprotocol/client': version, zod: '^4.2.0' };
  const lib = await installIsolated<Record<string, unknown> & { version: string }>(
    { folder, what: `${main}@${version}`, manifest: { dependencies }, shim: legacy ? SHIM_1 : SHIM_2, ready: { version } },
    log,
  );
  const dir = isolatedFolder(folder);
  return legacy
    ? { line: '1', version: lib.version, dir, mcp: lib['mcp'] as never, client: lib['client'] as never, memory: lib['memory'] as never, types: lib['types'] as never, zod: lib['zod'] as never }
    : { line: '2', version: lib.version, dir, server: lib['server'] as never, client: lib['client'] as never, zod: lib['zod'] as never };
}

export { InstallError };
