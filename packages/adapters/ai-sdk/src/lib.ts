// One installed AI SDK: its `ai` module, its `ai/test` module (the mock models), and its version. The adapter reads
// these by feature detection, never by version number, so one adapter serves every release line.

/** A module namespace, loosely typed: what is in it depends on the version. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Module = Record<string, any>;

export interface AiLib {
  readonly version: string;
  /** Where the version is installed (a pin's folder, a cache folder): its packages resolve from here. */
  readonly dir?: string;
  readonly ai: Module;
  /** `ai/test`: MockLanguageModelV2 (5.x), V3 (6.x), V4 (7.x). */
  readonly test: Module;
}

export type PinnedLine = 5 | 6 | 7;

/** The versions pinned in the workspace for the tests: one per major line. */
export async function pinnedLib(line: PinnedLine): Promise<AiLib> {
  const pin =
    line === 5
      ? await import('@approval-conformance/ai-sdk-pin-5')
      : line === 6
        ? await import('@approval-conformance/ai-sdk-pin-6')
        : await import('@approval-conformance/ai-sdk-pin-7');
  return { version: pin.version, ai: pin.ai, test: pin.test, dir: pin.dir };
}

/** The pinned versions, newest first: `ai@VERSION` names one of these without installing anything. */
export const PINNED_VERSIONS: Readonly<Record<string, PinnedLine>> = { '7.0.173': 7, '6.0.326': 6, '5.0.277': 5 };
