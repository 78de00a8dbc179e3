// One installed AI SDK: its `ai` module, its `ai/test` module (the mock models), and its version. The adapter reads
// these by feature detection, never by version number, so one adapter serves every release line.
import { optionalPackage } from '@approval-conformance/core/kit';

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

/** Each line's pin package: a private workspace package, a devDependency, never published. */
const PIN_PACKAGES = {
  5: '@approval-conformance/ai-sdk-pin-5',
  6: '@approval-conformance/ai-sdk-pin-6',
  7: '@approval-conformance/ai-sdk-pin-7',
} as const satisfies Record<PinnedLine, string>;

// The literal specifiers stay, so TypeScript checks each pin's types.
const importPin = (line: PinnedLine) =>
  line === 5
    ? import('@approval-conformance/ai-sdk-pin-5')
    : line === 6
      ? import('@approval-conformance/ai-sdk-pin-6')
      : import('@approval-conformance/ai-sdk-pin-7');

const libOf = (pin: Awaited<ReturnType<typeof importPin>>): AiLib => ({ version: pin.version, ai: pin.ai, test: pin.test, dir: pin.dir });

/** The versions pinned in the workspace for the tests: one per major line. Only in the workspace (see below). */
export async function pinnedLib(line: PinnedLine): Promise<AiLib> {
  return libOf(await importPin(line));
}

/**
 * The pinned version when its pin package is installed (in the workspace), else undefined: an installed suite has
 * no pins, and installs the same version on demand instead. A pin that is there but fails to load is an error.
 */
export async function pinnedLibIfPresent(line: PinnedLine): Promise<AiLib | undefined> {
  const pin = await optionalPackage(PIN_PACKAGES[line], () => importPin(line));
  return pin === undefined ? undefined : libOf(pin);
}

/** The pinned versions, newest first: in the workspace, `ai@VERSION` loads one of these without installing anything. */
export const PINNED_VERSIONS: Readonly<Record<string, PinnedLine>> = { '7.0.185': 7, '6.0.326': 6, '5.0.277': 5 };
