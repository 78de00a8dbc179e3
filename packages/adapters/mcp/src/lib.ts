// One installed MCP TypeScript SDK, of either line: 1.x (`@modelcontextprotocol/sdk`: legacy push elicitation) or
// 2.x (`@modelcontextprotocol/server` and `/client`: multi-round tool results). The adapter reads the modules by
// feature detection, never by version number within a line.
import { optionalPackage } from '@approval-conformance/core/kit';

/** A module namespace, loosely typed: what is in it depends on the version. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Module = Record<string, any>;

/** SDK 1.x: the server (McpServer), the client, the in-memory transport, the schemas, zod 3. */
export interface LegacyLib {
  readonly line: '1';
  readonly version: string;
  readonly dir: string;
  readonly mcp: Module;
  readonly client: Module;
  readonly memory: Module;
  readonly types: Module;
  readonly zod: Module;
}

/** SDK 2.x: the server package (McpServer, createMcpHandler, inputRequired, ...), the client package, zod 4. */
export interface MrtrLib {
  readonly line: '2';
  readonly version: string;
  readonly dir: string;
  readonly server: Module;
  readonly client: Module;
  readonly zod: Module;
}

export type McpLib = LegacyLib | MrtrLib;

export type PinnedLine = '2' | '1';

const PIN_PACKAGES = { '2': '@approval-conformance/mcp-pin-2', '1': '@approval-conformance/mcp-pin-1' } as const satisfies Record<PinnedLine, string>;

async function importPin(line: PinnedLine): Promise<McpLib> {
  if (line === '2') {
    const pin = await import('@approval-conformance/mcp-pin-2');
    return { line: '2', version: pin.version, dir: pin.dir, server: pin.server, client: pin.client, zod: pin.zod };
  }
  const pin = await import('@approval-conformance/mcp-pin-1');
  return { line: '1', version: pin.version, dir: pin.dir, mcp: pin.mcp, client: pin.client, memory: pin.memory, types: pin.types, zod: pin.zod };
}

/** The versions pinned in the workspace for the tests. Only in the workspace. */
export const pinnedLib = importPin;

/** The pinned version when its pin package is installed (in the workspace), else undefined. */
export const pinnedLibIfPresent = (line: PinnedLine) => optionalPackage(PIN_PACKAGES[line], () => importPin(line));

/** The pinned versions, newest first: `mcp@VERSION` loads one of these without installing anything. */
export const PINNED_VERSIONS: Readonly<Record<string, PinnedLine>> = { '2.4.0': '2', '1.32.2': '1' };
