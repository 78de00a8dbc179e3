// One installed LangGraph: its module, its SQLite saver's module, and its version. The adapter reads these by
// feature detection, never by version number, so one adapter serves every release line.
import { optionalPackage } from '@approval-conformance/core/kit';

/** A module namespace, loosely typed: what is in it depends on the version. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Module = Record<string, any>;

export interface LangGraphLib {
  readonly version: string;
  /** Where the version is installed (a pin's folder, a cache folder): its packages resolve from here. */
  readonly dir?: string;
  readonly langgraph: Module;
  /** `@langchain/langgraph-checkpoint-sqlite`, when installed. */
  readonly sqlite?: Module;
  /** `@langchain/langgraph-checkpoint-postgres`, when installed. */
  readonly postgres?: Module;
}

/** Each line's pin package: a private workspace package, a devDependency, never published. */
const PIN_PACKAGES = { 0: '@approval-conformance/langgraph-pin-0', 1: '@approval-conformance/langgraph-pin-1' } as const;

// The literal specifiers stay, so TypeScript checks each pin's types.
const importPin = (line: 0 | 1) =>
  line === 0 ? import('@approval-conformance/langgraph-pin-0') : import('@approval-conformance/langgraph-pin-1');

const libOf = (pin: Awaited<ReturnType<typeof importPin>>): LangGraphLib => ({
  version: pin.version,
  langgraph: pin.langgraph,
  sqlite: pin.sqlite,
  postgres: pin.postgres,
  dir: pin.dir,
});

/** The versions pinned in the workspace for the tests: one per @langchain/core peer line. Only in the workspace. */
export async function pinnedLib(line: 0 | 1): Promise<LangGraphLib> {
  return libOf(await importPin(line));
}

/**
 * The pinned version when its pin package is installed (in the workspace), else undefined: an installed suite has
 * no pins, and installs the same version on demand instead. A pin that is there but fails to load is an error.
 */
export async function pinnedLibIfPresent(line: 0 | 1): Promise<LangGraphLib | undefined> {
  const pin = await optionalPackage(PIN_PACKAGES[line], () => importPin(line));
  return pin === undefined ? undefined : libOf(pin);
}

/** The pinned versions, newest first: in the workspace, `langgraph@VERSION` loads one of these without installing. */
export const PINNED_VERSIONS: Readonly<Record<string, 0 | 1>> = { '1.7.3': 1, '0.2.74': 0 };
