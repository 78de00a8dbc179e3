// One installed LangGraph: its module, its SQLite saver's module, and its version. The adapter reads these by
// feature detection, never by version number, so one adapter serves every release line.

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

/** The versions pinned in the workspace for the tests: one per @langchain/core peer line. */
export async function pinnedLib(line: 0 | 1): Promise<LangGraphLib> {
  const pin =
    line === 0
      ? await import('@approval-conformance/langgraph-pin-0')
      : await import('@approval-conformance/langgraph-pin-1');
  return { version: pin.version, langgraph: pin.langgraph, sqlite: pin.sqlite, postgres: pin.postgres, dir: pin.dir };
}

/** The pinned versions, newest first: what `langgraph@VERSION` can name until versions install on demand. */
export const PINNED_VERSIONS: Readonly<Record<string, 0 | 1>> = { '1.7.3': 1, '0.2.74': 0 };
