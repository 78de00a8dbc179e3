// One installed Google ADK for TypeScript: its `@google/adk` module, its version, and the folder it is installed in
// (the database drivers it loads resolve from there). The adapter reads the module by feature detection, never by
// version number, so one adapter serves every release.
import { optionalPackage } from '@approval-conformance/core/kit';

/** A module namespace, loosely typed: what is in it depends on the version. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Module = Record<string, any>;

export interface AdkLib {
  readonly version: string;
  /** Where the version is installed (a pin's folder, a cache folder). */
  readonly dir: string;
  readonly adk: Module;
  /** Which of the package's entries loaded: its ES module one, or (where that fails on this Node) its CommonJS one. */
  readonly entry?: 'module' | 'commonjs';
}

export type PinnedLine = '2' | '0';

const PIN_PACKAGES = {
  '2': '@approval-conformance/adk-pin-2',
  '0': '@approval-conformance/adk-pin-0',
} as const satisfies Record<PinnedLine, string>;

// The literal specifiers stay, so TypeScript checks each pin's types.
const importPin = (line: PinnedLine) => (line === '2' ? import('@approval-conformance/adk-pin-2') : import('@approval-conformance/adk-pin-0'));

const libOf = (pin: Awaited<ReturnType<typeof importPin>>): AdkLib => ({ version: pin.version, dir: pin.dir, adk: pin.adk });

/** The versions pinned in the workspace for the tests. Only in the workspace. */
export async function pinnedLib(line: PinnedLine): Promise<AdkLib> {
  return libOf(await importPin(line));
}

/** The pinned version when its pin package is installed (in the workspace), else undefined. */
export async function pinnedLibIfPresent(line: PinnedLine): Promise<AdkLib | undefined> {
  const pin = await optionalPackage(PIN_PACKAGES[line], () => importPin(line));
  return pin === undefined ? undefined : libOf(pin);
}

/** The pinned versions, newest first: `adk@VERSION` loads one of these without installing anything. */
export const PINNED_VERSIONS: Readonly<Record<string, PinnedLine>> = { '2.0.0': '2', '0.1.2': '0' };
