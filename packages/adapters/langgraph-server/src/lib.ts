// One installed LangGraph server: the folder it is installed in (the server's modules are read from there), its
// client, the LangGraph it runs, and its version. The adapter reads them by feature detection, never by version.
import { optionalPackage } from '@approval-conformance/core/kit';
import type { Module } from '@approval-conformance/adapter-langgraph';

export interface ServerLib {
  /** `@langchain/langgraph-api`'s version. */
  readonly version: string;
  /** Where the version is installed: `@langchain/langgraph-api` and its peers resolve from here. */
  readonly dir: string;
  /** `@langchain/langgraph`, the one the server runs graphs with (one copy, shared). */
  readonly langgraph: Module;
  /** `@langchain/langgraph-sdk`: the client. */
  readonly sdk: Module;
}

const PIN = '@approval-conformance/langgraph-server-pin-1';

/** The version pinned in the workspace for the tests. Only in the workspace. */
export async function pinnedLib(): Promise<ServerLib> {
  const pin = await import('@approval-conformance/langgraph-server-pin-1');
  return { version: pin.version, dir: pin.dir, langgraph: pin.langgraph, sdk: pin.sdk };
}

/** The pinned version when its pin package is installed (in the workspace), else undefined. */
export async function pinnedLibIfPresent(): Promise<ServerLib | undefined> {
  const pin = await optionalPackage(PIN, () => import('@approval-conformance/langgraph-server-pin-1'));
  return pin === undefined ? undefined : { version: pin.version, dir: pin.dir, langgraph: pin.langgraph, sdk: pin.sdk };
}

/** The pinned versions: in the workspace, `langgraph-server@VERSION` loads one of these without installing. */
export const PINNED_VERSIONS: readonly string[] = ['1.5.1'];
